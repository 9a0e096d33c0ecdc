// SPDX-License-Identifier: Apache-2.0
// Commands in flight at the radix controller's stream ports, for the CSRs
// IN_FLIGHT, IN_FLIGHT_MAX and IN_FLIGHT_HIST0.. (docs/radix-protocol.md).
//
// A command counts from the cycle after its first command beat is taken
// (TVALID && TREADY) up to and including the cycle its response's TLAST beat is
// taken: count_o steps at the clock edges that end those handshake cycles. Every command has exactly one response ending in TLAST,
// refusals and RESET included, so the count is exact at the ports whatever the
// core does inside. It is counted here, not in the core, so that the definition
// stays the same when the core keeps several walks in flight.
//
// Histogram: hist_o bin b counts the cycles whose count n (n >= 1) lies in
// (2**(b-1), 2**b]: bin 0 is n = 1, bin 1 is n = 2, bin 2 is 3..4, ..., and the
// last bin takes everything above. Idle cycles (n = 0) are not counted. Each
// bin trails the count by two cycles (the bin is decoded and registered
// first), so a read right after the streams go idle may miss the last two.
//
// Reset (rst_ni) clears everything; the RESET command does not (it is itself
// in flight while it runs).
`default_nettype none

`include "common_macros.svh"

module radix_occupancy #(
  // Width of the in-flight count and of the maximum, 2..32.
  parameter int CountW = 16,
  // Histogram bins, 2..(CountW + 1).
  parameter int Bins   = 8,
  // Width of each histogram bin, 2..64.
  parameter int BinW   = 32
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,   // synchronous, active low

  input  wire logic               cmd_take_i,   // a command beat is taken
  input  wire logic               cmd_last_i,   // ... and it has TLAST
  input  wire logic               rsp_take_i,   // a response beat is taken
  input  wire logic               rsp_last_i,   // ... and it has TLAST

  output logic [CountW-1:0]       count_o,      // commands in flight now
  output logic [CountW-1:0]       max_o,        // the largest count since reset
  output logic [Bins*BinW-1:0]    hist_o        // bin b at [b*BinW +: BinW]
);

  `COMMON_PARAM_CHECK(g_bad_count, CountW >= 2 && CountW <= 32, "radix_occupancy: CountW")
  `COMMON_PARAM_CHECK(g_bad_bins, Bins >= 2 && Bins <= CountW + 1, "radix_occupancy: Bins")
  `COMMON_PARAM_CHECK(g_bad_binw, BinW >= 2 && BinW <= 64, "radix_occupancy: BinW")

  logic              hdr_q;    // the next command beat taken is a first beat
  logic              start, done;
  logic [CountW-1:0] count_q, max_q;
  logic [Bins-1:0]   bin_q;    // one-hot bin of count_q, a cycle late; 0 when idle

  assign start = cmd_take_i && hdr_q;
  assign done  = rsp_take_i && rsp_last_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      hdr_q   <= 1'b1;
      count_q <= '0;
      max_q   <= '0;
    end else begin
      if (cmd_take_i) hdr_q <= cmd_last_i;
      if (start && !done) count_q <= count_q + 1'b1;
      else if (done && !start) count_q <= count_q - 1'b1;
      if (count_q > max_q) max_q <= count_q;
    end
  end

  // Bin b holds n in (2**(b-1), 2**b]: compares with constants only, registered, so
  // no path runs from the count through a decode into the counters.
  function automatic logic [Bins-1:0] bin_of(input logic [CountW-1:0] n);
    for (int b = 0; b < Bins; b++) begin
      bin_of[b] = ((b == 0) ? (n != '0) : (33'(n) > (33'd1 << (b - 1)))) &&
                  ((b == Bins - 1) || (33'(n) <= (33'd1 << b)));
    end
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) bin_q <= '0;
    else         bin_q <= bin_of(count_q);
  end

  for (genvar b = 0; b < Bins; b++) begin : g_bin
    common_seg_counter #(.Width(BinW), .SegW((BinW < 16) ? BinW : 16)) u_cnt (
      .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (1'b0), .inc_i (bin_q[b]),
      .value_o (hist_o[b*BinW +: BinW]));
  end

  assign count_o = count_q;
  assign max_o   = max_q;

`ifdef COMMON_ASSERT_ON
  // A response that ends no command, or more commands than the count holds, means the
  // core answered twice or the count wrapped: either makes every figure here wrong.
  always_ff @(posedge clk_i) begin
    if (rst_ni && done && count_q == '0)
      $fatal(1, "radix_occupancy: a response ended with no command in flight");
    if (rst_ni && start && !done && count_q == '1)
      $fatal(1, "radix_occupancy: more than %0d commands in flight", count_q);
    if (rst_ni && (bin_q & (bin_q - 1'b1)) != '0)
      $fatal(1, "radix_occupancy: two histogram bins at once (%b)", bin_q);
  end
`endif

endmodule

`default_nettype wire
