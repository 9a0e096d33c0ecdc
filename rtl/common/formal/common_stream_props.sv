// SPDX-License-Identifier: Apache-2.0
// Formal contract of an in-order valid/ready stream buffer (FIFO, skid buffer).
// Formal only (read by SymbiYosys, see docs/formal.md); never in a simulation.
//
// Assumes (upstream producer): after reset, a beat offered and not taken is
// offered again next cycle with the same data.
// Asserts (the buffer), after the first reset:
//   * out_valid is held until out_ready, out_data stable while stalled;
//   * no beat leaves unless one is inside (occupancy > 0): nothing is created;
//   * occupancy never exceeds Capacity, and in_ready is high below Capacity;
//   * no beat stays stuck: with a beat inside, out_valid is low for at most
//     MaxLatency consecutive cycles;
//   * the k-th beat out carries the k-th beat in, for every k: one beat chosen
//     by the free input tag_i is followed through the buffer (the items in
//     front of it counted down on each pop) and checked when it leaves. The
//     solver may tag any beat, so this holds for all of them: no loss, no
//     duplication, order kept.
// The tracking state is an output so that a wrapper can state where inside its
// design the tagged beat sits (the inductive invariants).
`default_nettype none

module common_stream_props #(
  parameter int Width      = 4,
  parameter int Capacity   = 2,
  parameter int MaxLatency = 0,
  parameter int CntW       = 4   // holds 0..Capacity and 0..MaxLatency
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_valid_i,
  input  wire logic             in_ready_i,
  input  wire logic [Width-1:0] in_data_i,
  input  wire logic             out_valid_i,
  input  wire logic             out_ready_i,
  input  wire logic [Width-1:0] out_data_i,
  input  wire logic             tag_i,         // unconstrained: tag this input beat
  output logic                  init_o,        // a reset has been applied
  output logic [CntW-1:0]       occ_o,         // beats inside the buffer
  output logic                  tag_live_o,    // the tagged beat is inside
  output logic [CntW-1:0]       tag_ahead_o,   // beats in front of it
  output logic [Width-1:0]      tag_data_o
);

  logic in_hs, out_hs;
  assign in_hs  = rst_ni && in_valid_i && in_ready_i;
  assign out_hs = rst_ni && out_valid_i && out_ready_i;

  logic            past_valid_q, init_q;
  logic [CntW-1:0] occ_q, wait_q, ahead_q;
  logic            live_q, tag_seen_ahead_q;
  logic [Width-1:0] tag_data_q;

  common_fv_reset u_reset (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .past_valid_o (past_valid_q),
    .init_o       (init_q)
  );

  // ---------------------------------------------------------------- tracking
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      occ_q            <= '0;
      wait_q           <= '0;
      live_q           <= 1'b0;
      ahead_q          <= '0;
      tag_seen_ahead_q <= 1'b0;
    end else begin
      occ_q  <= occ_q + CntW'(in_hs) - CntW'(out_hs);
      wait_q <= (occ_q != '0 && !out_valid_i) ? wait_q + 1'b1 : '0;
      if (live_q) begin
        if (out_hs) begin
          if (ahead_q == '0) live_q <= 1'b0;
          else ahead_q <= ahead_q - 1'b1;
        end
      end else if (in_hs && tag_i) begin
        live_q           <= 1'b1;
        ahead_q          <= occ_q - CntW'(out_hs);
        tag_data_q       <= in_data_i;
        tag_seen_ahead_q <= (occ_q - CntW'(out_hs)) != '0;
      end
    end
  end

  assign init_o      = init_q;
  assign occ_o       = occ_q;
  assign tag_live_o  = live_q;
  assign tag_ahead_o = ahead_q;
  assign tag_data_o  = tag_data_q;

  // ---------------------------------------------------------------- assumptions
  always @(posedge clk_i) begin
    if (past_valid_q && $past(rst_ni) && rst_ni && $past(in_valid_i && !in_ready_i)) begin
      assume (in_valid_i);
      assume (in_data_i == $past(in_data_i));
    end
  end

  // ---------------------------------------------------------------- assertions
  always @(*) begin
    if (init_q) begin
      assert (occ_q <= CntW'(Capacity));
      if (out_valid_i) assert (occ_q != '0);
      if (rst_ni && occ_q < CntW'(Capacity)) assert (in_ready_i);
      if (occ_q != '0 && !out_valid_i) assert (wait_q < CntW'(MaxLatency));
      if (live_q) assert (ahead_q < occ_q);
      // The tagged beat is the one leaving: it must carry the tagged data.
      if (live_q && ahead_q == '0 && out_valid_i) assert (out_data_i == tag_data_q);
    end
  end

  always @(posedge clk_i) begin
    if (init_q && $past(init_q) && $past(rst_ni) && rst_ni &&
        $past(out_valid_i && !out_ready_i)) begin
      assert (out_valid_i);
      assert (out_data_i == $past(out_data_i));
    end
  end

  // ---------------------------------------------------------------- covers
  // Each must be reached, or the proof above could hold vacuously.
  always @(posedge clk_i) begin
    if (init_q && rst_ni) begin
      // A tagged beat with another in front of it leaves and is checked.
      cover (live_q && tag_seen_ahead_q && ahead_q == '0 && out_hs);
      // The buffer fills up.
      cover (occ_q == CntW'(Capacity));
      // Full throughput: a beat in and a beat out in each of two cycles in a row.
      cover ($past(in_hs && out_hs) && in_hs && out_hs);
      // A stalled output is taken later.
      cover ($past(out_valid_i && !out_ready_i) && $past(rst_ni) && out_hs);
      // The latency bound is reached, so it is tight.
      if (MaxLatency > 0) cover (wait_q == CntW'(MaxLatency - 1) && occ_q != '0 && !out_valid_i);
    end
  end

endmodule

`default_nettype wire
