// SPDX-License-Identifier: Apache-2.0
// AXI4-Stream (valid/ready) protocol checker: a passive monitor, no outputs.
//
// Checked from the cycle after reset on (rst_ni high in both cycles):
//   * valid held until ready: a beat offered and not taken is offered again;
//   * payload stable while stalled: data_i and last_i do not change meanwhile;
//   * no X/Z on valid_i and ready_i, nor on last_i while valid_i is high.
// A violation calls $fatal with the instance path, which ends the simulation
// and fails the test.
//
// Built only with `define COMMON_ASSERT_ON (scripts/sim.py sets it for every
// simulation, and Verilator runs with --assert); otherwise the module is empty.
// Under Verilator the checks are concurrent SVA. Icarus 11 does not parse
// concurrent assertions, so it gets the same checks as immediate assertions in
// an always_ff. Verilator is two-state: the X checks only bite on Icarus.
//
// Instantiate beside any valid/ready port (see docs/verification.md):
//   `ifdef COMMON_ASSERT_ON
//   common_axis_checker #(.DataW(W)) u_out_chk (
//     .clk_i, .rst_ni, .valid_i(x_valid), .ready_i(x_ready), .data_i(x_data), .last_i(x_last));
//   `endif
`default_nettype none

module common_axis_checker #(
  // Payload bits checked for stability (data, keep, user, ...), >= 1.
  parameter int DataW = 8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             valid_i,
  input  wire logic             ready_i,
  input  wire logic [DataW-1:0] data_i,
  input  wire logic             last_i    // tie to 1'b0 on a stream without last
);

`ifdef COMMON_ASSERT_ON
`ifndef __ICARUS__
  // Concurrent SVA (Verilator --assert).
  a_valid_held: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && !ready_i |=> valid_i)
    else $fatal(1, "%m: AXI4-Stream valid dropped while stalled (valid && !ready)");

  a_payload_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && !ready_i |=> $stable(data_i) && $stable(last_i))
    else $fatal(1, "%m: AXI4-Stream data/last changed while stalled (valid && !ready)");

  a_no_x: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown(valid_i) && !$isunknown(ready_i) && !(valid_i && $isunknown(last_i)))
    else $fatal(1, "%m: AXI4-Stream X/Z on valid, ready or last after reset");
`else
  // Immediate assertions (Icarus 11). stall_q: a beat was offered and not
  // taken in the previous cycle, with reset released in both.
  logic             stall_q;
  logic [DataW-1:0] data_q;
  logic             last_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stall_q <= 1'b0;
    end else begin
      stall_q <= valid_i && !ready_i;
      data_q  <= data_i;
      last_q  <= last_i;
      if (stall_q) begin
        assert (valid_i === 1'b1)
          else $fatal(1, "%m: AXI4-Stream valid dropped while stalled (valid && !ready)");
        assert (data_i === data_q && last_i === last_q)
          else $fatal(1, "%m: AXI4-Stream data/last changed while stalled (valid && !ready)");
      end
      // One signal per $isunknown: Icarus 11 gets it wrong on a concatenation.
      assert (!$isunknown(valid_i) && !$isunknown(ready_i) && !(valid_i && $isunknown(last_i)))
        else $fatal(1, "%m: AXI4-Stream X/Z on valid, ready or last after reset");
    end
  end
`endif
`else
  logic unused;
  assign unused = ^{clk_i, rst_ni, valid_i, ready_i, data_i, last_i};
`endif

endmodule

`default_nettype wire
