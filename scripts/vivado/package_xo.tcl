# SPDX-License-Identifier: Apache-2.0
# Package one Vitis RTL kernel as an .xo (IP packager, then package_xo).
# Run by `make package`, which writes the list files and reads the AXI
# interface names from the kernel's kernel.xml:
#
#   vivado -mode batch -nojournal -log <outdir>/vivado.log \
#     -source scripts/vivado/package_xo.tcl -tclargs \
#     -kernel krnl_radix -part xcvc1902-vsvd1760-2MP-e-S \
#     -sources <outdir>/sources.f -incdirs <outdir>/incdirs.f \
#     -kernel_xml rtl/top/krnl_radix.xml -busifs "s_axi_control m_axi_gmem" \
#     -clock_port ap_clk -outdir build/package/vck5000/krnl_radix \
#     -xo build/package/vck5000/krnl_radix.xo

source [file join [file dirname [info script]] common.tcl]

set opts [sglang::parse_args $argv \
    {kernel part sources incdirs kernel_xml busifs clock_port outdir xo}]
dict with opts {}

file mkdir $outdir
set srcs [sglang::read_list $sources]
set incs [sglang::read_list $incdirs]
sglang::require_files $srcs "source"
sglang::require_files [list $kernel_xml] "kernel.xml"
set ipdir [file join $outdir ip]
set component [file join $ipdir component.xml]

sglang::step "packaging $kernel for $part: [llength $srcs] sources"
# The IP packager only works on a project; it lives and dies in the out dir.
create_project -force -part $part ${kernel}_pack [file join $outdir project]
add_files -norecurse $srcs
set_property include_dirs $incs [current_fileset]
set_property top $kernel [current_fileset]
update_compile_order -fileset sources_1

ipx::package_project -root_dir $ipdir -vendor sglang-fpga.org -library RTLKernel \
    -taxonomy /KernelIP -import_files -set_current false
ipx::unload_core $component
ipx::edit_ip_in_project -upgrade true -name ${kernel}_edit -directory $ipdir $component

set core [ipx::current_core]
# v++ instantiates the kernel with its RTL defaults; leftover user parameters
# would show up as unset kernel properties.
foreach up [ipx::get_user_parameters -of_objects $core] {
    ipx::remove_user_parameter [get_property NAME $up] $core
}
foreach busif $busifs {
    ipx::associate_bus_interfaces -busif $busif -clock $clock_port $core
}
set_property sdx_kernel true $core
set_property sdx_kernel_type rtl $core
ipx::create_xgui_files $core
ipx::update_checksums $core
ipx::check_integrity -kernel $core
ipx::save_core $core
close_project -delete

file delete -force $xo
package_xo -xo_path $xo -kernel_name $kernel -ip_directory $ipdir -kernel_xml $kernel_xml
if {![file exists $xo]} { error "package_xo wrote no $xo" }
sglang::step "done: $xo"
