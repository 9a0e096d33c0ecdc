// SPDX-License-Identifier: Apache-2.0
// Synchronous first-word-fall-through FIFO on an inferred RAM.
//
// Storage is common_ram_sdp (registered read), so the FIFO maps onto block,
// ultra or LUT RAM by RamStyle. A two-entry common_skid_buffer behind the RAM
// hides the read latency: a read is only issued when the skid buffer is sure
// to have room for its data, which keeps one beat per cycle in steady state
// without ever back-pressuring the RAM pipeline. Latency from push to
// out_valid_o is three cycles. in_ready_o and out_valid_o come from flops.
`default_nettype none

`include "common_macros.svh"

module common_fifo_sync #(
  // Bits per entry, >= 1.
  parameter int          Width    = 32,
  // Capacity in entries, >= 2. Need not be a power of two.
  parameter int          Depth    = 16,
  // Storage hint passed to common_ram_sdp: "block", "ultra", "distributed", "auto".
  parameter              RamStyle = "distributed",
  // Width of level_o; derived, do not override.
  parameter int          LevelW   = $clog2(Depth + 1)
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,     // synchronous, active low

  // Push side
  input  wire logic              in_valid_i,
  output logic                   in_ready_o,
  input  wire logic [Width-1:0]  in_data_i,

  // Pop side
  output logic                   out_valid_o,
  input  wire logic              out_ready_i,
  output logic      [Width-1:0]  out_data_o,

  // Status: entries held anywhere in the FIFO (RAM, read in flight, output).
  output logic      [LevelW-1:0] level_o,
  output logic                   full_o,
  output logic                   empty_o
);

  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam logic [AddrW-1:0] LAST_ADDR = AddrW'(Depth - 1);

  `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2, "common_fifo_sync: Depth must be >= 2")

  logic [AddrW-1:0]  wptr_q, rptr_q;
  logic [LevelW-1:0] level_q, ram_level_q;
  logic              rd_pend_q;
  logic [1:0]        out_occ_q;   // beats held by the skid buffer, 0..2

  logic push, pop, ram_re;
  logic skid_in_ready;

  assign push = in_valid_i && in_ready_o;
  assign pop  = out_valid_o && out_ready_i;

  // Issue a RAM read only if, counting the read already in flight, the skid
  // buffer will still have a free entry when this read's data arrives.
  assign ram_re = (ram_level_q != '0) &&
                  ((3'(out_occ_q) + 3'(rd_pend_q)) < (3'd2 + 3'(pop)));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q      <= '0;
      rptr_q      <= '0;
      level_q     <= '0;
      ram_level_q <= '0;
      rd_pend_q   <= 1'b0;
      out_occ_q   <= 2'd0;
    end else begin
      if (push) wptr_q <= (wptr_q == LAST_ADDR) ? '0 : wptr_q + 1'b1;
      if (ram_re) rptr_q <= (rptr_q == LAST_ADDR) ? '0 : rptr_q + 1'b1;
      level_q     <= level_q + LevelW'(push) - LevelW'(pop);
      ram_level_q <= ram_level_q + LevelW'(push) - LevelW'(ram_re);
      rd_pend_q   <= ram_re;
      out_occ_q   <= out_occ_q + 2'(rd_pend_q) - 2'(pop);
    end
  end

  logic [Width-1:0] ram_rdata;

  common_ram_sdp #(
    .Width    (Width),
    .Depth    (Depth),
    .RamStyle (RamStyle)
  ) u_ram (
    .clk_i   (clk_i),
    .we_i    (push),
    .waddr_i (wptr_q),
    .wdata_i (in_data_i),
    .re_i    (ram_re),
    .raddr_i (rptr_q),
    .rdata_o (ram_rdata)
  );

  common_skid_buffer #(
    .Width (Width)
  ) u_out (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (rd_pend_q),
    .in_ready_o  (skid_in_ready),
    .in_data_i   (ram_rdata),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_o)
  );

  assign in_ready_o = (level_q != LevelW'(Depth));
  assign level_o    = level_q;
  assign full_o     = !in_ready_o;
  assign empty_o    = (level_q == '0);

`ifdef COMMON_ASSERT_ON
  // The read credit scheme guarantees the skid buffer never refuses RAM data.
  always_ff @(posedge clk_i) begin
    if (rst_ni && rd_pend_q) begin
      assert (skid_in_ready) else $fatal(1, "%m: RAM read data refused by the output buffer");
    end
  end
`else
  logic unused_skid_in_ready;
  assign unused_skid_in_ready = skid_in_ready;
`endif
  // Protocol on the push port (upstream's promise); u_out checks the pop port.
  `COMMON_AXIS_CHECK(u_in_chk, Width, in_valid_i, in_ready_o, in_data_i, 1'b0)

endmodule

`default_nettype wire
