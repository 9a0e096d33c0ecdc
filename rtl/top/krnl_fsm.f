top_ctrl_pkg.sv
top_ctrl_hs.sv
top_axi_reader.sv
top_axi_writer.sv
top_framer.sv
top_width_up.sv
top_width_down.sv
krnl_fsm.sv
