// SPDX-License-Identifier: Apache-2.0
// Simple dual-port RAM with one write port and one combinational (asynchronous) read port.
//
// For the small per-state table that closes the same-slot ADVANCE loop in one
// cycle (fsm_core: the row base of the state an op moves to, forwarded to the
// op behind it). Vivado maps it to LUT RAM (ram_style "distributed"); keep it
// small: every word costs LUTs, and the read sits on a combinational path.
`default_nettype none

`include "common_macros.svh"

module fsm_ram_async #(
  // Bits per word, >= 1.
  parameter int Width = 32,
  // Number of words, >= 2.
  parameter int Depth = 64,
  // Address width; derived, do not override.
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,

  // Write port
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,

  // Read port: rdata_o follows raddr_i in the same cycle.
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o
);

  `COMMON_PARAM_CHECK(g_bad_width, Width >= 1, "fsm_ram_async: Width must be >= 1")
  `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2, "fsm_ram_async: Depth must be >= 2")

  (* ram_style = "distributed" *) logic [Width-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  // Read inside always_comb: Icarus 11 misses updates of an unpacked array's
  // word in a continuous assignment.
  always_comb begin
    rdata_o = mem_q[raddr_i];
  end

endmodule

`default_nettype wire
