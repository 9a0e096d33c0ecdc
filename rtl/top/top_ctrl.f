top_ctrl_pkg.sv
top_ctrl_hs.sv
