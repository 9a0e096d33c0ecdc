// SPDX-License-Identifier: Apache-2.0
// Simple dual-port RAM template: one write port, one registered read port.
//
// The read is registered (one cycle of latency) so that every style maps onto
// block RAM, UltraRAM or LUT RAM plus an output register without extra logic.
// ReadLatency > 1 adds output pipeline registers behind the array: Vivado
// absorbs them into the BRAM/URAM output registers and URAM cascade pipeline,
// which deep UltraRAM cascades need to run at full clock rate (AMD UG573/AM007).
// The data of a read stays on rdata_o until the next read's data replaces it.
// A read and a write to the same address in the same cycle return the OLD
// data (read-first), which is what BRAM in READ_FIRST mode and URAM give.
`default_nettype none

`include "common_macros.svh"

module common_ram_sdp #(
  // Bits per word, >= 1.
  parameter int          Width    = 32,
  // Number of words, >= 2.
  parameter int          Depth    = 512,
  // Implementation hint for Vivado: "block", "ultra", "distributed" or "auto".
  parameter              RamStyle = "block",
  // Cycles from re_i to rdata_o, >= 1.
  parameter int          ReadLatency = 1,
  // 1: the array holds zeros from configuration, as FPGA block, Ultra and LUT RAM do
  // when the bitstream gives no content; 0: no initial content (X in simulation).
  // Only simulation needs the zeros written: synthesis (SYNTHESIS defined, as Vivado
  // and Yosys do) skips the loop, since the device's RAM starts at zero anyway and
  // Yosys spends tens of minutes unrolling it on a 65,536-word array.
  parameter bit          InitZero = 1'b0,
  // Address width; derived, do not override.
  parameter int          AddrW    = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,

  // Write port
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,

  // Read port: rdata_o is valid ReadLatency cycles after re_i.
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o
);

  // Elaboration-time checks: an illegal configuration must not build.
  `COMMON_PARAM_CHECK(g_bad_width, Width >= 1, "common_ram_sdp: Width must be >= 1")
  `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2, "common_ram_sdp: Depth must be >= 2")
  `COMMON_PARAM_CHECK(g_bad_lat, ReadLatency >= 1 && ReadLatency <= 8,
      "common_ram_sdp: ReadLatency must be 1..8")
  `COMMON_PARAM_CHECK(g_bad_style,
      RamStyle == "block" || RamStyle == "ultra" || RamStyle == "distributed" ||
      RamStyle == "auto",
      "common_ram_sdp: RamStyle must be block, ultra, distributed or auto")

  logic [Width-1:0] rd_q;

  // Vivado reads ram_style only as a literal attribute, so each style gets
  // its own generate branch holding an otherwise identical array.
  if (RamStyle == "ultra") begin : g_ultra
    (* ram_style = "ultra" *) logic [Width-1:0] mem_q [Depth];
`ifndef SYNTHESIS
    if (InitZero) begin : g_init
      initial for (int i = 0; i < Depth; i++) mem_q[i] = '0;
    end
`endif
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end else if (RamStyle == "distributed") begin : g_dist
    (* ram_style = "distributed" *) logic [Width-1:0] mem_q [Depth];
`ifndef SYNTHESIS
    if (InitZero) begin : g_init
      initial for (int i = 0; i < Depth; i++) mem_q[i] = '0;
    end
`endif
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end else if (RamStyle == "block") begin : g_block
    (* ram_style = "block" *) logic [Width-1:0] mem_q [Depth];
`ifndef SYNTHESIS
    if (InitZero) begin : g_init
      initial for (int i = 0; i < Depth; i++) mem_q[i] = '0;
    end
`endif
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end else begin : g_auto
    logic [Width-1:0] mem_q [Depth];
`ifndef SYNTHESIS
    if (InitZero) begin : g_init
      initial for (int i = 0; i < Depth; i++) mem_q[i] = '0;
    end
`endif
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end

  // Output pipeline: a read's data moves one stage per cycle and then stays.
  if (ReadLatency == 1) begin : g_lat1
    assign rdata_o = rd_q;
  end else begin : g_latn
    // A flat vector, not an unpacked array: Icarus 11 does not propagate a
    // continuous assignment from an unpacked array word.
    localparam int PipeW = (ReadLatency - 1) * Width;
    logic [PipeW-1:0] pipe_q;
    if (ReadLatency == 2) begin : g_two
      always_ff @(posedge clk_i) pipe_q <= rd_q;
    end else begin : g_more
      always_ff @(posedge clk_i) pipe_q <= {pipe_q[PipeW-Width-1:0], rd_q};
    end
    assign rdata_o = pipe_q[PipeW-1 -: Width];
  end

endmodule

`default_nettype wire
