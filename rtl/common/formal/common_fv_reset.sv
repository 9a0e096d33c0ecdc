// SPDX-License-Identifier: Apache-2.0
// Formal only: the reset every proof starts from. Assumes reset is asserted in
// the first cycle; init_o says a reset edge has been seen (the state is then
// reachable, so the contract's assertions apply). Reset may assert again later.
`default_nettype none

module common_fv_reset (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  output logic      past_valid_o,   // not the first cycle
  output logic      init_o
);

  logic past_valid_q = 1'b0;
  logic init_q = 1'b0;

  always @(posedge clk_i) begin
    past_valid_q <= 1'b1;
    if (!rst_ni) init_q <= 1'b1;
    if (!past_valid_q) assume (!rst_ni);
  end

  assign past_valid_o = past_valid_q;
  assign init_o       = init_q;

endmodule

`default_nettype wire
