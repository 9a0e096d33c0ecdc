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

  logic              in_ready, out_valid, full, empty;
  logic [Width-1:0]  out_data;
  logic [LevelW-1:0] level;

  common_fifo_sync #(
    .Width    (Width),
    .Depth    (Depth),
    .RamStyle ("distributed")
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data),
    .level_o     (level),
    .full_o      (full),
    .empty_o     (empty)
  );

  logic             init, tag_live;
  logic [CntW-1:0]  occ, tag_ahead;
  logic [Width-1:0] tag_data;

  // Push to out_valid takes three cycles: two with the beat inside and out_valid low.
  common_stream_props #(
    .Width      (Width),
    .Capacity   (Depth),
    .MaxLatency (2),
    .CntW       (CntW)
  ) u_props (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_i  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_i (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_i  (out_data),
    .tag_i       (tag_i),
    .init_o      (init),
    .occ_o       (occ),
    .tag_live_o  (tag_live),
    .tag_ahead_o (tag_ahead),
    .tag_data_o  (tag_data)
  );

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
    ram_idx  = (32'(p_rptr) + 32'(tag_ahead) - 32'(p_out_occ) - 32'(p_rd_pend)) % Depth;
    ram_word = '0;
    for (int i = 0; i < Depth; i++) begin
      if (ram_idx == i) ram_word = p_mem[i*Width +: Width];
    end
  end

  // Where the tagged beat must be. (Written as implications, not as `if` on a
  // probe: Yosys' proc leaves such a condition undriven once the probe is connected late.)
  logic in_out_regs, in_flight;
  assign in_out_regs = 32'(tag_ahead) < 32'(p_out_occ);
  assign in_flight   = !in_out_regs && 32'(tag_ahead) == 32'(p_out_occ) && p_rd_pend;

  // Status outputs and inductive invariants.
  always @(*) begin
    if (init) begin
      assert (level == LevelW'(occ));
      assert (empty == (occ == '0));
      assert (full == (occ == CntW'(Depth)));
      assert (32'(occ) == 32'(p_ram_level) + 32'(p_rd_pend) + 32'(p_out_occ));
      assert (p_out_occ == 2'(out_valid) + 2'(p_skid_valid));
      assert (!p_skid_valid || out_valid);
      assert (32'(p_out_occ) + 32'(p_rd_pend) <= 2);
      assert (32'(p_rptr) < Depth && 32'(p_wptr) < Depth);
      assert (32'(p_wptr) == (32'(p_rptr) + 32'(p_ram_level)) % Depth);
      assert (!tag_live || !in_out_regs ||
              (tag_ahead == '0 ? out_data : p_skid_data) == tag_data);
      assert (!tag_live || !in_flight || p_ram_rdata == tag_data);
      assert (!tag_live || in_out_regs || in_flight || ram_word == tag_data);
    end
  end

endmodule

`default_nettype wire
