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

`endif // COMMON_MACROS_SVH
