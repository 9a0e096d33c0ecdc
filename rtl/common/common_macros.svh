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

`endif // COMMON_MACROS_SVH
