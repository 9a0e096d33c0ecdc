// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite register block of the radix controller: control, status, sizes, counters.
//
// One outstanding read and one outstanding write. A write is taken when its
// address and data are both present, so AWREADY/WREADY follow the valids; the
// responses (BVALID, RVALID) come from flops and hold until accepted.
// The register map is radix_pkg::CSR_* and docs/radix-protocol.md.
`default_nettype none

`include "common_macros.svh"

module radix_csr #(
  // Byte-address width of the register window, >= 8 (34 words).
  parameter int AddrW    = 8,
  // Capacities reported to software.
  parameter int NodeCap  = 256,
  parameter int TokenCap = 4096,
  parameter int MaxLen   = 1024,
  parameter int PageSize = 1,
  parameter int NumNs    = 16,
  parameter int HashBuckets = 256,
  parameter int HashWays    = 4,
  parameter int StashDepth  = 4,
  parameter int L2          = 0,
  parameter int Overlap     = 0
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // AXI4-Lite slave
  input  wire logic [AddrW-1:0] s_axil_awaddr_i,
  input  wire logic             s_axil_awvalid_i,
  output logic                  s_axil_awready_o,
  input  wire logic [31:0]      s_axil_wdata_i,
  input  wire logic [3:0]       s_axil_wstrb_i,
  input  wire logic             s_axil_wvalid_i,
  output logic                  s_axil_wready_o,
  output logic [1:0]            s_axil_bresp_o,
  output logic                  s_axil_bvalid_o,
  input  wire logic             s_axil_bready_i,
  input  wire logic [AddrW-1:0] s_axil_araddr_i,
  input  wire logic             s_axil_arvalid_i,
  output logic                  s_axil_arready_o,
  output logic [31:0]           s_axil_rdata_o,
  output logic [1:0]            s_axil_rresp_o,
  output logic                  s_axil_rvalid_o,
  input  wire logic             s_axil_rready_i,

  // From the core
  input  wire logic             busy_i,
  input  wire logic             init_done_i,
  input  wire logic             error_i,
  input  wire logic [7:0]       last_error_i,
  input  wire logic [31:0]      evictable_i,
  input  wire logic [31:0]      protected_i,
  input  wire logic [31:0]      total_i,        // evictable + protected, registered
  input  wire logic [31:0]      free_nodes_i,
  input  wire logic [31:0]      free_slots_i,
  input  wire logic [31:0]      lookups_i,
  input  wire logic [31:0]      queried_i,
  input  wire logic [31:0]      hit_i,
  input  wire logic [31:0]      inserts_i,
  input  wire logic [31:0]      inserted_i,
  input  wire logic [31:0]      splits_i,
  input  wire logic [31:0]      evicted_nodes_i,
  input  wire logic [31:0]      evicted_tokens_i,
  input  wire logic [31:0]      errors_i,
  input  wire logic [31:0]      busy_cycles_i,
  input  wire logic [31:0]      walk_cycles_i,
  input  wire logic [31:0]      walk_nodes_i,
  input  wire logic [31:0]      index_used_i,
  input  wire logic [31:0]      stash_free_i,
  input  wire logic [31:0]      free_lines_i,
  input  wire logic [31:0]      evict_skips_i,
  input  wire logic [31:0]      intake_ahead_i,
  // radix_core's walk/commit overlap counters
  input  wire logic [31:0]      ovl_walks_i,
  input  wire logic [31:0]      replays_i,
  input  wire logic [31:0]      conflicts_split_i,
  input  wire logic [31:0]      conflicts_leaf_i,
  input  wire logic [31:0]      walk_wait_i,
  input  wire logic [31:0]      lookup_wait_i,
  // radix_occupancy: commands in flight, their maximum, the histogram (bin b at 32 b)
  input  wire logic [31:0]      in_flight_i,
  input  wire logic [31:0]      in_flight_max_i,
  input  wire logic [radix_pkg::IN_FLIGHT_BINS*32-1:0] in_flight_hist_i,
  // L2 tier
  output logic                  l2_flush_o,     // pulse: L2_CTRL.FLUSH written 1
  input  wire logic             l2_flushing_i,
  input  wire logic             l2_fault_i,
  input  wire logic [1:0]       l2_fault_kind_i,
  input  wire logic [31:0]      l2_hits_i,
  input  wire logic [31:0]      l2_misses_i,
  input  wire logic [31:0]      l2_writebacks_i,
  input  wire logic [31:0]      l2_rd_beats_i,
  input  wire logic [31:0]      l2_wr_beats_i,
  input  wire logic [31:0]      l2_stall_i,
  input  wire logic [31:0]      l2_prefetches_i,
  input  wire logic [31:0]      l2_pf_useful_i,

  // Level interrupt: an error was seen and the interrupt is enabled.
  output logic                  irq_o
);

  `COMMON_PARAM_CHECK(g_bad_addr, (1 << AddrW) >= 4 * radix_pkg::CSR_WORDS, "radix_csr: AddrW too small")
  // The histogram array ends where the next register starts: its length is the map's.
  `COMMON_PARAM_CHECK(g_bad_bins, radix_pkg::CSR_IN_FLIGHT_HIST_BASE + radix_pkg::IN_FLIGHT_BINS
                      == radix_pkg::CSR_OVERLAP, "radix_csr: IN_FLIGHT_BINS vs the register map")

  localparam logic [1:0] RESP_OKAY   = 2'b00;
  localparam logic [1:0] RESP_SLVERR = 2'b10;

  logic irq_en_q, irq_pend_q;

  // ---------------------------------------------------------------- writes
  logic             wr_take;
  logic [AddrW-3:0] wr_word;
  assign wr_take          = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o;
  assign s_axil_awready_o = wr_take;
  assign s_axil_wready_o  = wr_take;
  assign wr_word          = s_axil_awaddr_i[AddrW-1:2];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s_axil_bvalid_o <= 1'b0;
      s_axil_bresp_o  <= RESP_OKAY;
      irq_en_q        <= 1'b0;
      irq_pend_q      <= 1'b0;
      l2_flush_o      <= 1'b0;
    end else begin
      l2_flush_o <= 1'b0;
      if (s_axil_bvalid_o && s_axil_bready_i) s_axil_bvalid_o <= 1'b0;
      // A new error sets the pending bit even in the cycle software clears it.
      if (wr_take && 32'(wr_word) == 32'(radix_pkg::CSR_IRQ_STATUS) && s_axil_wstrb_i[0] &&
          s_axil_wdata_i[0]) begin
        irq_pend_q <= error_i;
      end else if (error_i) begin
        irq_pend_q <= 1'b1;
      end
      if (wr_take) begin
        s_axil_bvalid_o <= 1'b1;
        s_axil_bresp_o  <= RESP_OKAY;
        if (32'(wr_word) == 32'(radix_pkg::CSR_CTRL)) begin
          if (s_axil_wstrb_i[0]) irq_en_q <= s_axil_wdata_i[0];
        end else if (32'(wr_word) == 32'(radix_pkg::CSR_L2_CTRL)) begin
          l2_flush_o <= s_axil_wstrb_i[0] && s_axil_wdata_i[0];
        end else if (32'(wr_word) != 32'(radix_pkg::CSR_IRQ_STATUS)) begin
          s_axil_bresp_o <= RESP_SLVERR;   // read-only or unmapped
        end
      end
    end
  end

  // ---------------------------------------------------------------- reads
  logic [31:0] rd_value;
  logic        rd_mapped;
  logic [AddrW-3:0] rd_word;
  assign rd_word = s_axil_araddr_i[AddrW-1:2];

  // {mapped, value} of a histogram bin's word: an AND-OR over the bins, outside the
  // read mux's case, which keeps one arm per named register.
  function automatic logic [32:0] hist_read(
      input logic [AddrW-3:0] word, input logic [radix_pkg::IN_FLIGHT_BINS*32-1:0] hist);
    hist_read = '0;
    for (int b = 0; b < radix_pkg::IN_FLIGHT_BINS; b++) begin
      if (32'(word) == radix_pkg::CSR_IN_FLIGHT_HIST_BASE + b)
        hist_read = hist_read | {1'b1, hist[32*b +: 32]};
    end
  endfunction
  logic [32:0] hist_word;
  assign hist_word = hist_read(rd_word, in_flight_hist_i);

  always_comb begin
    rd_mapped = 1'b1;
    unique case (32'(rd_word))
      radix_pkg::CSR_ID:             rd_value = radix_pkg::RADIX_ID;
      radix_pkg::CSR_CTRL:           rd_value = {31'h0, irq_en_q};
      radix_pkg::CSR_STATUS:         rd_value = {30'h0, init_done_i, busy_i};
      radix_pkg::CSR_IRQ_STATUS:     rd_value = {31'h0, irq_pend_q};
      radix_pkg::CSR_NODE_CAP:       rd_value = 32'(NodeCap);
      radix_pkg::CSR_TOKEN_CAP:      rd_value = 32'(TokenCap);
      radix_pkg::CSR_MAX_LEN:        rd_value = 32'(MaxLen);
      radix_pkg::CSR_PAGE_SIZE:      rd_value = 32'(PageSize);
      radix_pkg::CSR_EVICTABLE:      rd_value = evictable_i;
      radix_pkg::CSR_PROTECTED:      rd_value = protected_i;
      radix_pkg::CSR_TOTAL:          rd_value = total_i;
      radix_pkg::CSR_FREE_NODES:     rd_value = free_nodes_i;
      radix_pkg::CSR_FREE_SLOTS:     rd_value = free_slots_i;
      radix_pkg::CSR_LOOKUPS:        rd_value = lookups_i;
      radix_pkg::CSR_QUERIED:        rd_value = queried_i;
      radix_pkg::CSR_HIT:            rd_value = hit_i;
      radix_pkg::CSR_INSERTS:        rd_value = inserts_i;
      radix_pkg::CSR_INSERTED:       rd_value = inserted_i;
      radix_pkg::CSR_SPLITS:         rd_value = splits_i;
      radix_pkg::CSR_EVICTED_NODES:  rd_value = evicted_nodes_i;
      radix_pkg::CSR_EVICTED_TOKENS: rd_value = evicted_tokens_i;
      radix_pkg::CSR_ERRORS:         rd_value = errors_i;
      radix_pkg::CSR_BUSY_CYCLES:    rd_value = busy_cycles_i;
      radix_pkg::CSR_LAST_ERROR:     rd_value = {24'h0, last_error_i};
      radix_pkg::CSR_NUM_NS:         rd_value = 32'(NumNs);
      radix_pkg::CSR_WALK_CYCLES:    rd_value = walk_cycles_i;
      radix_pkg::CSR_WALK_NODES:     rd_value = walk_nodes_i;
      radix_pkg::CSR_HASH_BUCKETS:   rd_value = 32'(HashBuckets);
      radix_pkg::CSR_HASH_WAYS:      rd_value = 32'(HashWays);
      radix_pkg::CSR_STASH_DEPTH:    rd_value = 32'(StashDepth);
      radix_pkg::CSR_INDEX_USED:     rd_value = index_used_i;
      radix_pkg::CSR_STASH_FREE:     rd_value = stash_free_i;
      radix_pkg::CSR_FREE_LINES:     rd_value = free_lines_i;
      radix_pkg::CSR_EVICT_SKIPS:    rd_value = evict_skips_i;
      radix_pkg::CSR_L2_CTRL:        rd_value = 32'h0;
      radix_pkg::CSR_L2_STATUS:      rd_value = {27'h0, L2 != 0, l2_fault_kind_i, l2_fault_i,
                                                 l2_flushing_i};
      radix_pkg::CSR_L2_HITS:        rd_value = l2_hits_i;
      radix_pkg::CSR_L2_MISSES:      rd_value = l2_misses_i;
      radix_pkg::CSR_L2_WRITEBACKS:  rd_value = l2_writebacks_i;
      radix_pkg::CSR_L2_RD_BEATS:    rd_value = l2_rd_beats_i;
      radix_pkg::CSR_L2_WR_BEATS:    rd_value = l2_wr_beats_i;
      radix_pkg::CSR_L2_STALL_CYCLES: rd_value = l2_stall_i;
      radix_pkg::CSR_L2_PREFETCHES:  rd_value = l2_prefetches_i;
      radix_pkg::CSR_L2_PF_USEFUL:   rd_value = l2_pf_useful_i;
      radix_pkg::CSR_INTAKE_AHEAD:   rd_value = intake_ahead_i;
      radix_pkg::CSR_IN_FLIGHT:      rd_value = in_flight_i;
      radix_pkg::CSR_IN_FLIGHT_MAX:  rd_value = in_flight_max_i;
      radix_pkg::CSR_OVERLAP:        rd_value = 32'(Overlap);
      radix_pkg::CSR_OVL_WALKS:      rd_value = ovl_walks_i;
      radix_pkg::CSR_REPLAYS:        rd_value = replays_i;
      radix_pkg::CSR_CONFLICTS_SPLIT: rd_value = conflicts_split_i;
      radix_pkg::CSR_CONFLICTS_LEAF: rd_value = conflicts_leaf_i;
      radix_pkg::CSR_WALK_WAIT_CYCLES: rd_value = walk_wait_i;
      radix_pkg::CSR_LOOKUP_WAIT_CYCLES: rd_value = lookup_wait_i;
      default: begin
        rd_value  = hist_word[31:0];
        rd_mapped = hist_word[32];
      end
    endcase
  end

  assign s_axil_arready_o = !s_axil_rvalid_o;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s_axil_rvalid_o <= 1'b0;
    end else if (s_axil_arvalid_i && s_axil_arready_o) begin
      s_axil_rvalid_o <= 1'b1;
    end else if (s_axil_rready_i) begin
      s_axil_rvalid_o <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (s_axil_arvalid_i && s_axil_arready_o) begin
      s_axil_rdata_o <= rd_value;
      s_axil_rresp_o <= rd_mapped ? RESP_OKAY : RESP_SLVERR;
    end
  end

  assign irq_o = irq_en_q && irq_pend_q;

  logic unused;
  assign unused = ^{s_axil_awaddr_i[1:0], s_axil_araddr_i[1:0], s_axil_wdata_i[31:1],
                    s_axil_wstrb_i[3:1]};

  // AXI4-Lite protocol rules on the slave port, live in every simulation.
  `COMMON_AXIL_CHECK(u_axil_chk, AddrW, s_axil_)

endmodule

`default_nettype wire
