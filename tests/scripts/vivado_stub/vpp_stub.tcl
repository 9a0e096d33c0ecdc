# SPDX-License-Identifier: Apache-2.0
# A stand-in for Vitis `v++ --link` / `v++ --package` under tclsh. It accepts
# only the options scripts/synth.py uses, checks that every input file exists,
# records the call in $VIVADO_STUB_LOG and writes a placeholder output file.
# Unknown options exit 3 with a STUB-ERROR line. Not Vitis: nothing is linked.

proc fail {msg} {
    if {[info exists ::env(VIVADO_STUB_LOG)]} {
        set fh [open $::env(VIVADO_STUB_LOG) a]; puts $fh [list STUB-ERROR $msg]; close $fh
    }
    puts stderr "STUB-ERROR: $msg"
    exit 3
}

if {$argv eq {--version}} {
    puts "v++ v$::env(VIVADO_STUB_VERSION) (64-bit) -- v++ stub, not Vitis"
    exit 0
}
# option -> takes a value
set spec {--link 0 -l 0 --package 0 -p 0 -t 1 --target 1 --platform 1 -f 1 --config 1
          -o 1 --output 1 --temp_dir 1 --report_dir 1 --save-temps 0 -s 0 -g 0}
set keyed {--package.boot_mode}
set out ""
set mode ""
set inputs {}
for {set i 0} {$i < [llength $argv]} {incr i} {
    set a [lindex $argv $i]
    if {[string match --*=* $a]} {
        if {[lindex [split $a =] 0] ni $keyed} { fail "v++: unknown option $a" }
    } elseif {[string match -* $a]} {
        if {![dict exists $spec $a]} { fail "v++: unknown option $a" }
        if {$a in {--link -l}} { set mode link }
        if {$a in {--package -p}} { set mode package }
        if {[dict get $spec $a]} {
            incr i
            if {$i >= [llength $argv]} { fail "v++: $a needs a value" }
            set v [lindex $argv $i]
            if {$a in {-o --output}} { set out $v }
            if {$a eq "--config" && ![file exists $v]} { fail "v++: no config file $v" }
        }
    } else {
        lappend inputs $a
    }
}
if {$mode eq ""} { fail "v++: neither --link nor --package" }
if {$out eq ""} { fail "v++: no -o" }
foreach f $inputs { if {![file exists $f]} { fail "v++: no input file $f" } }
set fh [open $::env(VIVADO_STUB_LOG) a]; puts $fh [linsert $argv 0 v++]; close $fh
file mkdir [file dirname $out]
set fh [open $out w]; puts $fh "v++ stub output: not a Vitis result"; close $fh
exit 0
