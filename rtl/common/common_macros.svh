// SPDX-License-Identifier: Apache-2.0
// Macros shared by every block. Include with `include "common_macros.svh".
`ifndef COMMON_MACROS_SVH
`define COMMON_MACROS_SVH

// Stop elaboration when a parameter combination is illegal. Icarus 11 has no
// elaboration-time $error, so there the check fires at time zero instead.
`ifdef __ICARUS__
`define COMMON_PARAM_CHECK(name, cond, msg) \
  if (!(cond)) begin : name initial $fatal(1, msg); end
`else
`define COMMON_PARAM_CHECK(name, cond, msg) \
  if (!(cond)) begin : name $error(msg); end
`endif

// AXI4-Stream protocol checker on a valid/ready port of the enclosing module,
// which must have clk_i and rst_ni (see common_axis_checker.sv). Expands to
// nothing unless COMMON_ASSERT_ON is defined (every simulation defines it).
//   `COMMON_AXIS_CHECK(u_out_chk, Width, out_valid_o, out_ready_i, out_data_o, 1'b0)
`ifdef COMMON_ASSERT_ON
`define COMMON_AXIS_CHECK(name, width, valid, ready, data, last) \
  common_axis_checker #(.DataW(width)) name ( \
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid), .ready_i(ready), .data_i(data), \
    .last_i(last));
`else
`define COMMON_AXIS_CHECK(name, width, valid, ready, data, last)
`endif

// AXI4-Lite protocol checker on a slave port of the enclosing module, which must
// have clk_i and rst_ni (see common_axil_checker.sv); `pfx` is the port prefix up to
// the channel name, e.g. s_axil_ for s_axil_awvalid_i. Expands to nothing unless
// COMMON_ASSERT_ON is defined.
//   `COMMON_AXIL_CHECK(u_axil_chk, AddrW, s_axil_)
`ifdef COMMON_ASSERT_ON
`define COMMON_AXIL_CHECK(name, addr_w, pfx) \
  common_axil_checker #(.AddrW(addr_w)) name ( \
    .clk_i(clk_i), .rst_ni(rst_ni), \
    .awaddr_i(pfx``awaddr_i), .awvalid_i(pfx``awvalid_i), .awready_i(pfx``awready_o), \
    .wdata_i(pfx``wdata_i), .wstrb_i(pfx``wstrb_i), .wvalid_i(pfx``wvalid_i), \
    .wready_i(pfx``wready_o), .bresp_i(pfx``bresp_o), .bvalid_i(pfx``bvalid_o), \
    .bready_i(pfx``bready_i), .araddr_i(pfx``araddr_i), .arvalid_i(pfx``arvalid_i), \
    .arready_i(pfx``arready_o), .rdata_i(pfx``rdata_o), .rresp_i(pfx``rresp_o), \
    .rvalid_i(pfx``rvalid_o), .rready_i(pfx``rready_i));
`else
`define COMMON_AXIL_CHECK(name, addr_w, pfx)
`endif

`endif // COMMON_MACROS_SVH
