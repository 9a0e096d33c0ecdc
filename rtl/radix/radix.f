../common/common_ram_sdp.sv
../common/common_skid_buffer.sv
../common/common_fifo_sync.sv
radix_pkg.sv
radix_core.sv
radix_csr.sv
radix_top.sv
