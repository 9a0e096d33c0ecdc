radix_read_sig.sv
