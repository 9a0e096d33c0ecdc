// SPDX-License-Identifier: Apache-2.0
// Small flop FIFO with a bypass: an output stage that never stalls its pipeline.
//
// The producer is a free-running pipeline that reserves an entry (by counting
// level_o plus its own beats in flight) before it starts a beat, so in_valid_i
// has no ready: a beat is never refused. When the FIFO is empty the incoming
// beat is offered downstream in the same cycle; if it is not taken it is
// stored and offered again from the head, so VALID stays up with the same
// data until the transfer, as AXI4-Stream requires.
`default_nettype none

`include "common_macros.svh"

module fsm_out_fifo #(
  // Bits per beat, >= 1.
  parameter int Width  = 128,
  // Entries, 2..256.
  parameter int Depth  = 8,
  // Derived; do not override.
  parameter int LevelW = $clog2(Depth + 1)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,

  input  wire logic              in_valid_i,   // the producer guarantees level_o < Depth
  input  wire logic [Width-1:0]  in_data_i,

  output logic                   out_valid_o,
  input  wire logic              out_ready_i,
  output logic      [Width-1:0]  out_data_o,

  output logic      [LevelW-1:0] level_o       // entries stored (the bypassed beat excluded)
);

  `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2 && Depth <= 256, "fsm_out_fifo: Depth 2..256")

  localparam int AW = $clog2(Depth);

  logic [Width-1:0]  mem_q [Depth];
  logic [AW-1:0]     rptr_q, wptr_q;
  logic [LevelW-1:0] level_q;
  logic              empty, push, pop;

  assign empty       = (level_q == '0);
  assign out_valid_o = !empty || in_valid_i;
  // An always_comb, not an assign: Icarus 11 misses updates of unpacked words in assigns.
  always_comb out_data_o = empty ? in_data_i : mem_q[rptr_q];
  // Store the incoming beat unless it leaves at once through the bypass.
  assign push        = in_valid_i && !(empty && out_ready_i);
  assign pop         = !empty && out_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      level_q <= '0;
    end else begin
      if (push) wptr_q <= (32'(wptr_q) == Depth - 1) ? '0 : wptr_q + AW'(1);
      if (pop)  rptr_q <= (32'(rptr_q) == Depth - 1) ? '0 : rptr_q + AW'(1);
      level_q <= level_q + LevelW'(push) - LevelW'(pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= in_data_i;
  end

  assign level_o = level_q;

  // The output is a valid/ready source: valid held, data stable while stalled.
  `COMMON_AXIS_CHECK(u_out_chk, Width, out_valid_o, out_ready_i, out_data_o, 1'b0)

`ifdef COMMON_ASSERT_ON
  // The producer's credit scheme never offers a beat without room.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!in_valid_i || level_q < LevelW'(Depth))
        else $fatal(1, "fsm_out_fifo: push into a full buffer");
    end
  end
`endif

endmodule

`default_nettype wire
