top_ctrl_hs.sv
top_axi_reader.sv
top_axi_writer.sv
top_framer.sv
krnl_radix.sv
