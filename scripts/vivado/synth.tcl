# SPDX-License-Identifier: Apache-2.0
# Out-of-context synthesis, place and route of one core top (Vivado non-project
# batch flow). Run by `make synth`, which writes the inputs first:
#
#   vivado -mode batch -nojournal -log <outdir>/vivado.log \
#     -source scripts/vivado/synth.tcl -tclargs \
#     -board vck5000 -part xcvc1902-vsvd1760-2MP-e-S -top radix_top \
#     -sources <outdir>/sources.f -incdirs <outdir>/incdirs.f \
#     -xdc <outdir>/radix_top_ooc.xdc -clock_port clk_i -period 3.333 \
#     -outdir build/synth/vck5000/radix_top [-generics "NodeCap=256 ..."]
#
# Every output lands in -outdir: post_synth.dcp, post_route.dcp,
# utilization_synth.rpt, utilization.rpt, timing_summary.rpt,
# route_status.rpt and summary.txt (key=value, read back by scripts/synth.py).

source [file join [file dirname [info script]] common.tcl]

set opts [sglang::parse_args $argv \
    {board part top sources incdirs xdc outdir clock_port period} {generics}]
dict with opts {}

file mkdir $outdir
set srcs [sglang::read_list $sources]
set incs [sglang::read_list $incdirs]
sglang::require_files $srcs "source"
sglang::require_files [list $xdc] "constraint file"

# A missing device means Vivado was installed without Versal support; stop
# here rather than an hour later.
if {[llength [get_parts -quiet $part]] == 0} {
    error "part $part is not installed in this Vivado"
}

sglang::step "board $board part $part top $top: [llength $srcs] sources"
read_verilog -sv $srcs
read_xdc -mode out_of_context $xdc

set synth_args [list -mode out_of_context -part $part -top $top -include_dirs $incs]
foreach g $generics { lappend synth_args -generic $g }
synth_design {*}$synth_args

# The XDC names the clock port per kernel; an XDC that constrains nothing
# would make every timing number below meaningless.
set clk [get_clocks -quiet -of_objects [get_ports $clock_port]]
if {[llength $clk] != 1} {
    error "expected one clock on port $clock_port, found [llength $clk]"
}
set got_period [get_property PERIOD $clk]
if {abs($got_period - $period) > 0.0005} {
    error "clock on $clock_port has period $got_period ns, expected $period ns"
}

report_utilization -file [file join $outdir utilization_synth.rpt]
write_checkpoint -force [file join $outdir post_synth.dcp]

sglang::step "implementing"
opt_design
place_design
route_design

report_utilization -file [file join $outdir utilization.rpt]
report_timing_summary -max_paths 10 -report_unconstrained \
    -file [file join $outdir timing_summary.rpt]
report_route_status -file [file join $outdir route_status.rpt]
write_checkpoint -force [file join $outdir post_route.dcp]

set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
sglang::write_summary [file join $outdir summary.txt] [list \
    board $board part $part top $top clock_port $clock_port period_ns $period wns_ns $wns]
sglang::step "done: WNS $wns ns at $period ns; reports in $outdir"
