// SPDX-License-Identifier: Apache-2.0
// Formal harness of common_fifo_sync: the stream contract (common_stream_props)
// with Capacity = Depth, plus the invariants that make it inductive.
// Formal only; common_fifo_sync.sby connects the p_* probes to the flattened
// DUT's internal registers and RAM words (Yosys has no hierarchical references).
`default_nettype none

module common_fifo_sync_fv #(
  parameter int Width = 4,
  parameter int Depth = 4
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_valid_i,
  input  wire logic [Width-1:0] in_data_i,
  input  wire logic             out_ready_i,
  input  wire logic             tag_i
);

  localparam int CntW   = 4;
  localparam int LevelW = $clog2(Depth + 1);
  localparam int AddrW  = $clog2(Depth);

  // DUT outputs, the first three named as the contract's ports (connected by `.*`).
  logic              in_ready_i, out_valid_i, full, empty;
  logic [Width-1:0]  out_data_i;
  logic [LevelW-1:0] level;

  common_fifo_sync #(
    .Width    (Width),
    .Depth    (Depth),
    .RamStyle ("distributed")
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_i),
    .in_data_i   (in_data_i),
    .out_valid_o (out_valid_i),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_i),
    .level_o     (level),
    .full_o      (full),
    .empty_o     (empty)
  );

  // The contract's outputs, named as its ports (connected by `.*`).
  logic             init_o, tag_live_o;
  logic [CntW-1:0]  occ_o, tag_ahead_o;
  logic [Width-1:0] tag_data_o;

  // Push to out_valid takes three cycles: two with the beat inside and out_valid low.
  common_stream_props #(
    .Width      (Width),
    .Capacity   (Depth),
    .MaxLatency (2),
    .CntW       (CntW)
  ) u_props (.*);

  // Probes, driven by the .sby script (see the names there).
  logic [LevelW-1:0]      p_ram_level;
  logic                   p_rd_pend;
  logic [1:0]             p_out_occ;
  logic [AddrW-1:0]       p_wptr, p_rptr;
  logic                   p_skid_valid;
  logic [Width-1:0]       p_skid_data, p_ram_rdata;
  logic [Depth*Width-1:0] p_mem;   // word i at [i*Width +: Width]

  // Where the tagged beat is: out register (head), skid register, RAM read in
  // flight, or the RAM word that many places past the read pointer.
  int unsigned      ram_idx;
  logic [Width-1:0] ram_word;
  always @(*) begin
    ram_idx  = (32'(p_rptr) + 32'(tag_ahead_o) - 32'(p_out_occ) - 32'(p_rd_pend)) % Depth;
    ram_word = '0;
    for (int i = 0; i < Depth; i++) begin
      if (ram_idx == i) ram_word = p_mem[i*Width +: Width];
    end
  end

  // Where the tagged beat must be. (Written as implications, not as `if` on a
  // probe: Yosys' proc leaves such a condition undriven once the probe is connected late.)
  logic in_out_regs, in_flight;
  assign in_out_regs = 32'(tag_ahead_o) < 32'(p_out_occ);
  assign in_flight   = !in_out_regs && 32'(tag_ahead_o) == 32'(p_out_occ) && p_rd_pend;

  // Status outputs and inductive invariants.
  always @(*) begin
    if (init_o) begin
      assert (level == LevelW'(occ_o));
      assert (empty == (occ_o == '0));
      assert (full == (occ_o == CntW'(Depth)));
      assert (32'(occ_o) == 32'(p_ram_level) + 32'(p_rd_pend) + 32'(p_out_occ));
      assert (p_out_occ == 2'(out_valid_i) + 2'(p_skid_valid));
      assert (!p_skid_valid || out_valid_i);
      assert (32'(p_out_occ) + 32'(p_rd_pend) <= 2);
      assert (32'(p_rptr) < Depth && 32'(p_wptr) < Depth);
      assert (32'(p_wptr) == (32'(p_rptr) + 32'(p_ram_level)) % Depth);
      assert (!tag_live_o || !in_out_regs ||
              (tag_ahead_o == '0 ? out_data_i : p_skid_data) == tag_data_o);
      assert (!tag_live_o || !in_flight || p_ram_rdata == tag_data_o);
      assert (!tag_live_o || in_out_regs || in_flight || ram_word == tag_data_o);
    end
  end

endmodule

`default_nettype wire
