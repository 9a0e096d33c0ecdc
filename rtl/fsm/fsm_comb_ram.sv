// SPDX-License-Identifier: Apache-2.0
// Comb RAM of the token-FSM: one read/write port and one read port.
//
// Port A is the loader's write port while an image loads and the walk's read
// port otherwise (loads and commands never overlap, so the core picks the
// address); port B reads the info entries. Both reads are registered (one
// cycle). Port A reads only when it does not write ("no change": its data
// holds through a write), the one read/write mode UltraRAM288 ports have. That
// is the shape of one UltraRAM288 or block RAM in true dual-port mode, so the
// two readers share one copy of the table instead of two.
`default_nettype none

`include "common_macros.svh"

module fsm_comb_ram #(
  // Bits per word, >= 1.
  parameter int Width    = 512,
  // Number of words, >= 2.
  parameter int Depth    = 512,
  // Implementation hint for Vivado: "block", "ultra" or "distributed".
  parameter     RamStyle = "ultra",
  // Address width; derived, do not override.
  parameter int AddrW    = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,

  // Port A: a write (we_i) or a read (re_a_i) at addr_a_i
  input  wire logic             we_i,
  input  wire logic             re_a_i,
  input  wire logic [AddrW-1:0] addr_a_i,
  input  wire logic [Width-1:0] wdata_i,
  output logic      [Width-1:0] rdata_a_o,

  // Port B: read only
  input  wire logic             re_b_i,
  input  wire logic [AddrW-1:0] addr_b_i,
  output logic      [Width-1:0] rdata_b_o
);

  `COMMON_PARAM_CHECK(g_bad_width, Width >= 1, "fsm_comb_ram: Width must be >= 1")
  `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2, "fsm_comb_ram: Depth must be >= 2")
  `COMMON_PARAM_CHECK(g_bad_style,
      RamStyle == "block" || RamStyle == "ultra" || RamStyle == "distributed",
      "fsm_comb_ram: RamStyle must be block, ultra or distributed")

  // Vivado reads ram_style only as a literal attribute: one branch per style.
  if (RamStyle == "ultra") begin : g_ultra
    (* ram_style = "ultra" *) logic [Width-1:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[addr_a_i] <= wdata_i;
      else if (re_a_i) rdata_a_o <= mem_q[addr_a_i];
      if (re_b_i) rdata_b_o <= mem_q[addr_b_i];
    end
  end else if (RamStyle == "block") begin : g_block
    (* ram_style = "block" *) logic [Width-1:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[addr_a_i] <= wdata_i;
      else if (re_a_i) rdata_a_o <= mem_q[addr_a_i];
      if (re_b_i) rdata_b_o <= mem_q[addr_b_i];
    end
  end else begin : g_dist
    (* ram_style = "distributed" *) logic [Width-1:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[addr_a_i] <= wdata_i;
      else if (re_a_i) rdata_a_o <= mem_q[addr_a_i];
      if (re_b_i) rdata_b_o <= mem_q[addr_b_i];
    end
  end

`ifdef COMMON_ASSERT_ON
  // Port A does one thing per cycle. The RAM has no reset, so its controls are X
  // until the core's reset reaches them: only known values count.
  always_ff @(posedge clk_i) begin
    assert (!(we_i === 1'b1 && re_a_i === 1'b1))
      else $fatal(1, "fsm_comb_ram: write and read on port A at once");
  end
`endif

endmodule

`default_nettype wire
