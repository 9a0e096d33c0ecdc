# SPDX-License-Identifier: Apache-2.0
# A stand-in for `vivado -mode batch -source <script> -tclargs ...` under tclsh.
#
# It defines only the Vivado commands the project's scripts use, each with the
# options it accepts. Every call is appended to $VIVADO_STUB_LOG as one Tcl
# list. An unknown command, an unknown option, a missing option value, a
# missing input file or a wrong number of positional arguments stops the run
# with exit code 3 and a "STUB-ERROR" line, so a script that would not run in
# Vivado does not pass here either. It checks the shape of calls, not what
# Vivado would make of them: no synthesis happens.

namespace eval stub {
    variable log ""
    variable clocks [dict create]   ;# port -> period, from create_clock in read_xdc
    variable modules {}             ;# module names in the files given to read_verilog
}

proc stub::fail {msg} {
    variable log
    if {$log ne ""} {
        set fh [open $log a]; puts $fh [list STUB-ERROR $msg]; close $fh
    }
    puts stderr "STUB-ERROR: $msg"
    exit 3
}

proc stub::record {call} {
    variable log
    set fh [open $log a]; puts $fh $call; close $fh
}

# Define command `name`. `flags` maps each accepted option to 0 (switch) or 1
# (takes a value); an option may repeat. `npos` is {min max} positionals.
# `body` runs with `opts` (dict option -> list of values) and `pos` in scope.
proc stub::def {name flags npos {body {}}} {
    proc ::$name {args} [format {
        set spec {%s}
        lassign {%s} lo hi
        set opts [dict create]
        set pos {}
        for {set i 0} {$i < [llength $args]} {incr i} {
            set a [lindex $args $i]
            if {[string match -* $a] && ![string is double -strict $a]} {
                if {![dict exists $spec $a]} {
                    stub::fail "%s: unknown option '$a'"
                }
                if {[dict get $spec $a]} {
                    incr i
                    if {$i >= [llength $args]} { stub::fail "%s: option $a needs a value" }
                    dict lappend opts $a [lindex $args $i]
                } else {
                    dict lappend opts $a 1
                }
            } else {
                lappend pos $a
            }
        }
        if {[llength $pos] < $lo || [llength $pos] > $hi} {
            stub::fail "%s: expected $lo..$hi positional arguments, got [llength $pos]: $pos"
        }
        stub::record [linsert $args 0 %s]
        %s
    } $flags $npos $name $name $name $name $body]
}

proc stub::opt {opts flag {default ""}} {
    if {[dict exists $opts $flag]} { return [lindex [dict get $opts $flag] end] }
    return $default
}

proc stub::touch {path} {
    file mkdir [file dirname $path]
    set fh [open $path w]; puts $fh "vivado stub output: not a Vivado result"; close $fh
}

proc stub::need_files {cmd paths} {
    foreach p $paths {
        if {![file exists $p]} { stub::fail "$cmd: no such file $p" }
    }
}

# ------------------------------------------------------------------ synthesis
stub::def get_parts {-quiet 0 -filter 1} {0 1} {
    # Any Versal/UltraScale+ style name counts as installed; the tests compare
    # the part against the boards registry themselves.
    set p [lindex $pos 0]
    return [expr {[string match xc* $p] ? $p : ""}]
}
stub::def read_verilog {-sv 0 -library 1 -quiet 0} {1 1} {
    set files [lindex $pos 0]
    stub::need_files read_verilog $files
    foreach f $files {
        set fh [open $f r]; set text [read $fh]; close $fh
        foreach {- m} [regexp -all -inline -line {^\s*module\s+(\w+)} $text] {
            lappend stub::modules $m
        }
    }
}
stub::def read_xdc {-mode 1 -unmanaged 0 -quiet 0} {1 1} {
    set f [lindex $pos 0]
    stub::need_files read_xdc [list $f]
    if {[stub::opt $opts -mode] ni {"" out_of_context}} {
        stub::fail "read_xdc: bad -mode [stub::opt $opts -mode]"
    }
    # Evaluate the XDC so its commands go through the same checks.
    set fh [open $f r]; set text [read $fh]; close $fh
    namespace eval ::stub::xdc $text
}
stub::def create_clock {-period 1 -name 1 -waveform 1 -add 0} {0 1} {
    set period [stub::opt $opts -period]
    if {![string is double -strict $period]} { stub::fail "create_clock: bad -period $period" }
    foreach port [lindex $pos 0] { dict set stub::clocks $port $period }
}
stub::def get_ports {-quiet 0 -filter 1 -of_objects 1} {0 1} {
    return [lindex $pos 0]
}
stub::def synth_design {-mode 1 -part 1 -top 1 -include_dirs 1 -generic 1
                        -flatten_hierarchy 1 -directive 1} {0 0} {
    foreach flag {-mode -part -top} {
        if {[stub::opt $opts $flag] eq ""} { stub::fail "synth_design: $flag missing" }
    }
    set top [stub::opt $opts -top]
    if {$top ni $stub::modules} { stub::fail "synth_design: no module $top was read" }
    foreach d [stub::opt $opts -include_dirs] {
        if {![file isdirectory $d]} { stub::fail "synth_design: no include dir $d" }
    }
}
stub::def get_clocks {-quiet 0 -of_objects 1} {0 1} {
    set out {}
    foreach port [stub::opt $opts -of_objects] {
        if {[dict exists $stub::clocks $port]} { lappend out "clock:$port" }
    }
    return $out
}
stub::def get_property {-quiet 0} {2 2} {
    lassign $pos prop obj
    switch -glob -- "$prop,$obj" {
        PERIOD,clock:* { return [dict get $stub::clocks [string range $obj 6 end]] }
        SLACK,*        {
            # A test picks the slack; the default is a plain 0, not a timing result.
            if {[info exists ::env(VIVADO_STUB_WNS)]} { return $::env(VIVADO_STUB_WNS) }
            return 0.000
        }
        NAME,*         { return $obj }
        default        { stub::fail "get_property: stub knows no $prop of $obj" }
    }
}
stub::def report_utilization {-file 1 -hierarchical 0 -name 1} {0 0} {
    if {[stub::opt $opts -file] ne ""} { stub::touch [stub::opt $opts -file] }
}
stub::def report_timing_summary {-file 1 -max_paths 1 -report_unconstrained 0
                                 -delay_type 1 -name 1} {0 0} {
    if {[stub::opt $opts -file] ne ""} { stub::touch [stub::opt $opts -file] }
}
stub::def report_route_status {-file 1} {0 0} {
    if {[stub::opt $opts -file] ne ""} { stub::touch [stub::opt $opts -file] }
}
stub::def get_timing_paths {-max_paths 1 -nworst 1 -setup 0 -hold 0} {0 0} {
    return timing_path_stub
}
stub::def write_checkpoint {-force 0} {1 1} { stub::touch [lindex $pos 0] }
foreach step {opt_design place_design route_design} {
    stub::def $step {-directive 1} {0 0}
}

# ------------------------------------------------------------------ IP packaging
stub::def create_project {-force 0 -part 1 -in_memory 0} {0 2}
stub::def add_files {-norecurse 0 -fileset 1} {1 1} {
    stub::need_files add_files [lindex $pos 0]
}
stub::def set_property {-quiet 0} {3 3}
stub::def current_fileset {} {0 0} { return sources_1 }
stub::def update_compile_order {-fileset 1} {0 0}
stub::def close_project {-delete 0} {0 0}
stub::def package_xo {-xo_path 1 -kernel_name 1 -ip_directory 1 -kernel_xml 1 -force 0
                      -ctrl_protocol 1} {0 0} {
    foreach flag {-xo_path -kernel_name -ip_directory -kernel_xml} {
        if {[stub::opt $opts $flag] eq ""} { stub::fail "package_xo: $flag missing" }
    }
    stub::need_files package_xo [list [stub::opt $opts -kernel_xml] \
        [file join [stub::opt $opts -ip_directory] component.xml]]
    stub::touch [stub::opt $opts -xo_path]
}
namespace eval ipx {}
stub::def ipx::package_project {-root_dir 1 -vendor 1 -library 1 -taxonomy 1 -import_files 0
                                -set_current 1} {0 0} {
    stub::touch [file join [stub::opt $opts -root_dir] component.xml]
}
stub::def ipx::unload_core {} {1 1} { stub::need_files ipx::unload_core $pos }
stub::def ipx::edit_ip_in_project {-upgrade 1 -name 1 -directory 1} {1 1} {
    stub::need_files ipx::edit_ip_in_project $pos
}
stub::def ipx::current_core {} {0 0} { return core_stub }
stub::def ipx::get_user_parameters {-of_objects 1} {0 0} { return {Width} }
stub::def ipx::remove_user_parameter {} {2 2}
stub::def ipx::associate_bus_interfaces {-busif 1 -clock 1 -reset 1 -remove 0} {1 1}
foreach cmd {ipx::create_xgui_files ipx::update_checksums ipx::save_core} {
    stub::def $cmd {} {1 1}
}
stub::def ipx::check_integrity {-kernel 0 -quiet 0} {1 1}

# ------------------------------------------------------------------ anything else
rename unknown stub::tcl_unknown
proc unknown {args} { stub::fail "unknown command: [lindex $args 0]" }

# ------------------------------------------------------------------ vivado's command line
proc stub::main {argv} {
    if {$argv eq {-version}} {
        puts "Vivado v$::env(VIVADO_STUB_VERSION) (64-bit) -- vivado stub, not Vivado"
        exit 0
    }
    if {![info exists ::env(VIVADO_STUB_LOG)]} { puts stderr "VIVADO_STUB_LOG not set"; exit 3 }
    set stub::log $::env(VIVADO_STUB_LOG)
    set script ""
    set tclargs {}
    for {set i 0} {$i < [llength $argv]} {incr i} {
        set a [lindex $argv $i]
        switch -- $a {
            -mode    { incr i; if {[lindex $argv $i] ne "batch"} { stub::fail "only -mode batch" } }
            -log     { incr i }
            -nojournal - -notrace {}
            -source  { incr i; set script [lindex $argv $i] }
            -tclargs { set tclargs [lrange $argv [expr {$i + 1}] end]; break }
            default  { stub::fail "vivado: unknown command-line option $a" }
        }
    }
    if {$script eq ""} { stub::fail "vivado: no -source" }
    stub::record [list vivado -source $script -tclargs {*}$tclargs]
    set ::argv $tclargs
    set ::argc [llength $tclargs]
    set ::argv0 $script
    if {[catch {uplevel #0 [list source $script]} err]} {
        stub::fail "script error: $err"
    }
    stub::record [list vivado-exit 0]
    exit 0
}

stub::main $::argv
