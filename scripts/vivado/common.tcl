# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the Vivado batch scripts. Plain Tcl 8.6 only, so the
# scripts also run under tclsh against tests/scripts/vivado_stub.

namespace eval sglang {}

# Parse "-name value" pairs from argv into a dict. Every name in `required`
# must be given, names in `optional` may be (default ""), anything else is an
# error: a mistyped option must stop the run, not fall back to a default.
proc sglang::parse_args {argv required {optional {}}} {
    if {[llength $argv] % 2 != 0} {
        error "expected -name value pairs, got: $argv"
    }
    set opts [dict create]
    foreach name $optional { dict set opts $name "" }
    foreach {flag value} $argv {
        set name [string range $flag 1 end]
        if {[string index $flag 0] ne "-" || ($name ni $required && $name ni $optional)} {
            error "unknown argument '$flag'; expected -[join [concat $required $optional] { -}]"
        }
        dict set opts $name $value
    }
    foreach name $required {
        if {![dict exists $opts $name] || [dict get $opts $name] eq ""} {
            error "missing required argument -$name"
        }
    }
    return $opts
}

# One entry per line; blank lines and "#" comments skipped. The Python side
# writes these files with absolute paths, in compile order.
proc sglang::read_list {path} {
    set fh [open $path r]
    set lines [split [read $fh] "\n"]
    close $fh
    set out {}
    foreach line $lines {
        set line [string trim $line]
        if {$line ne "" && [string index $line 0] ne "#"} { lappend out $line }
    }
    return $out
}

proc sglang::require_files {paths what} {
    foreach p $paths {
        if {![file exists $p]} { error "$what not found: $p" }
    }
}

proc sglang::step {msg} {
    puts "INFO: \[sglang\] $msg"
}

# key=value lines a Python caller can parse without knowing Vivado's report format.
proc sglang::write_summary {path pairs} {
    set fh [open $path w]
    foreach {k v} $pairs { puts $fh "$k=$v" }
    close $fh
}
