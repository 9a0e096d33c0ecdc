// SPDX-License-Identifier: Apache-2.0
// Radix KV-cache controller: core plus AXI4-Lite CSRs, flat ports for cocotb and Vitis.
//
// Bus ports keep their standard AXI names (s_axis_cmd_*, m_axis_rsp_*, s_axil_*)
// rather than _i/_o suffixes, so VIPs and Vivado's interface inference bind by
// prefix; the modules inside follow the _i/_o convention.
`default_nettype none

module radix_top #(
  // See radix_core for the legal range of each parameter.
  parameter int NodeCap     = 1024,
  parameter int TokenCap    = 16384,
  parameter int MaxLen      = 1024,
  parameter int PageSize    = 1,
  parameter int NumNs       = 16,
  parameter int DataW       = 512,
  parameter int HashBuckets = 256,
  parameter int HashWays    = 4,
  parameter int StashDepth  = 4,
  parameter int RamLat      = 2,
  parameter int AddrW       = 8,
  // L2 tier (radix_core): tables in DDR behind L1 caches, through m_axi.
  parameter int L2          = 0,
  parameter int L1Lines     = 512,
  parameter int L1Ways      = 2,
  parameter int L2Timeout   = 4096,
  parameter int L2Prefetch  = 7,
  // Verification only (radix_core): hold the walk stage's port requests in
  // pseudo-random cycles. 0 in every build.
  parameter int StallInject = 0,
  // 1: the next MATCH or INSERT walks while the previous one commits (radix_core;
  // on-chip builds only).
  parameter int Overlap     = 0,
  parameter int L2IdW       = radix_pkg::L1_IDW + 4   // derived, do not override
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // Command stream
  input  wire logic             s_axis_cmd_tvalid,
  output logic                  s_axis_cmd_tready,
  input  wire logic [DataW-1:0] s_axis_cmd_tdata,
  input  wire logic             s_axis_cmd_tlast,

  // Response stream
  output logic                  m_axis_rsp_tvalid,
  input  wire logic             m_axis_rsp_tready,
  output logic      [DataW-1:0] m_axis_rsp_tdata,
  output logic                  m_axis_rsp_tlast,

  // AXI4-Lite CSRs
  input  wire logic [AddrW-1:0] s_axil_awaddr,
  input  wire logic             s_axil_awvalid,
  output logic                  s_axil_awready,
  input  wire logic [31:0]      s_axil_wdata,
  input  wire logic [3:0]       s_axil_wstrb,
  input  wire logic             s_axil_wvalid,
  output logic                  s_axil_wready,
  output logic [1:0]            s_axil_bresp,
  output logic                  s_axil_bvalid,
  input  wire logic             s_axil_bready,
  input  wire logic [AddrW-1:0] s_axil_araddr,
  input  wire logic             s_axil_arvalid,
  output logic                  s_axil_arready,
  output logic [31:0]           s_axil_rdata,
  output logic [1:0]            s_axil_rresp,
  output logic                  s_axil_rvalid,
  input  wire logic             s_axil_rready,

  output logic                  irq,

  // L2 region in DDR: its byte address (4 KiB aligned, static while running) and
  // the AXI4 master that reaches it. Idle in the on-chip build (L2 = 0).
  input  wire logic [63:0]      l2_base,
  output logic [L2IdW-1:0]      m_axi_awid,
  output logic [63:0]           m_axi_awaddr,
  output logic [7:0]            m_axi_awlen,
  output logic [2:0]            m_axi_awsize,
  output logic [1:0]            m_axi_awburst,
  output logic                  m_axi_awvalid,
  input  wire logic             m_axi_awready,
  output logic [511:0]          m_axi_wdata,
  output logic [63:0]           m_axi_wstrb,
  output logic                  m_axi_wlast,
  output logic                  m_axi_wvalid,
  input  wire logic             m_axi_wready,
  input  wire logic [L2IdW-1:0] m_axi_bid,
  input  wire logic [1:0]       m_axi_bresp,
  input  wire logic             m_axi_bvalid,
  output logic                  m_axi_bready,
  output logic [L2IdW-1:0]      m_axi_arid,
  output logic [63:0]           m_axi_araddr,
  output logic [7:0]            m_axi_arlen,
  output logic [2:0]            m_axi_arsize,
  output logic [1:0]            m_axi_arburst,
  output logic                  m_axi_arvalid,
  input  wire logic             m_axi_arready,
  input  wire logic [L2IdW-1:0] m_axi_rid,
  input  wire logic [511:0]     m_axi_rdata,
  input  wire logic [1:0]       m_axi_rresp,
  input  wire logic             m_axi_rlast,
  input  wire logic             m_axi_rvalid,
  output logic                  m_axi_rready
);

  logic        busy, init_done, error;
  logic [7:0]  last_error;
  logic [31:0] evictable, protected_sz, total_sz, free_nodes, free_slots, lookups, queried, hit;
  logic [31:0] inserts, inserted, splits, evicted_nodes, evicted_tokens, errors, busy_cycles;
  logic [31:0] walk_cycles, walk_nodes, index_used, stash_free, free_lines, evict_skips;
  logic [31:0] intake_ahead;
  logic [31:0] ovl_walks, replays, conflicts_split, conflicts_leaf, walk_wait, lookup_wait;
  logic [15:0] in_flight, in_flight_max;
  logic [radix_pkg::IN_FLIGHT_BINS*32-1:0] in_flight_hist;

  logic        l2_flush, l2_flush_done, l2_flushing, l2_fault;
  logic [1:0]  l2_fault_kind;
  logic [31:0] l2_hits, l2_misses, l2_writebacks, l2_rd_beats, l2_wr_beats, l2_stall;
  logic [31:0] l2_prefetches, l2_pf_useful;

  radix_core #(
    .NodeCap  (NodeCap),
    .TokenCap (TokenCap),
    .MaxLen   (MaxLen),
    .PageSize (PageSize),
    .NumNs    (NumNs),
    .DataW    (DataW),
    .HashBuckets (HashBuckets),
    .HashWays    (HashWays),
    .StashDepth  (StashDepth),
    .RamLat      (RamLat),
    .L2          (L2),
    .L1Lines     (L1Lines),
    .L1Ways      (L1Ways),
    .L2Timeout   (L2Timeout),
    .L2Prefetch  (L2Prefetch),
    .StallInject (StallInject),
    .Overlap     (Overlap)
  ) u_core (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .cmd_tvalid_i     (s_axis_cmd_tvalid),
    .cmd_tready_o     (s_axis_cmd_tready),
    .cmd_tdata_i      (s_axis_cmd_tdata),
    .cmd_tlast_i      (s_axis_cmd_tlast),
    .rsp_tvalid_o     (m_axis_rsp_tvalid),
    .rsp_tready_i     (m_axis_rsp_tready),
    .rsp_tdata_o      (m_axis_rsp_tdata),
    .rsp_tlast_o      (m_axis_rsp_tlast),
    .busy_o           (busy),
    .init_done_o      (init_done),
    .error_o          (error),
    .last_error_o     (last_error),
    .evictable_o      (evictable),
    .protected_o      (protected_sz),
    .total_o          (total_sz),
    .free_nodes_o     (free_nodes),
    .free_slots_o     (free_slots),
    .lookups_o        (lookups),
    .queried_o        (queried),
    .hit_o            (hit),
    .inserts_o        (inserts),
    .inserted_o       (inserted),
    .splits_o         (splits),
    .evicted_nodes_o  (evicted_nodes),
    .evicted_tokens_o (evicted_tokens),
    .errors_o         (errors),
    .busy_cycles_o    (busy_cycles),
    .walk_cycles_o    (walk_cycles),
    .walk_nodes_o     (walk_nodes),
    .index_used_o     (index_used),
    .stash_free_o     (stash_free),
    .free_lines_o     (free_lines),
    .evict_skips_o    (evict_skips),
    .intake_ahead_o   (intake_ahead),
    .ovl_walks_o (ovl_walks),
    .replays_o (replays),
    .conflicts_split_o (conflicts_split),
    .conflicts_leaf_o (conflicts_leaf),
    .walk_wait_o (walk_wait),
    .lookup_wait_o (lookup_wait),
    .l2_base_i        (l2_base),
    .l2_flush_i       (l2_flush),
    .l2_clear_i       (1'b0),
    .l2_flush_done_o  (l2_flush_done),
    .l2_flushing_o    (l2_flushing),
    .l2_fault_o       (l2_fault),
    .l2_fault_kind_o  (l2_fault_kind),
    .l2_hits_o        (l2_hits),
    .l2_misses_o      (l2_misses),
    .l2_writebacks_o  (l2_writebacks),
    .l2_rd_beats_o    (l2_rd_beats),
    .l2_wr_beats_o    (l2_wr_beats),
    .l2_stall_o       (l2_stall),
    .l2_prefetches_o  (l2_prefetches),
    .l2_pf_useful_o   (l2_pf_useful),
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awvalid,
    .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid,
    .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid,
    .m_axi_rready
  );
  radix_occupancy #(.CountW(16), .Bins(radix_pkg::IN_FLIGHT_BINS), .BinW(32)) u_occupancy (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cmd_take_i (s_axis_cmd_tvalid && s_axis_cmd_tready),
    .cmd_last_i (s_axis_cmd_tlast),
    .rsp_take_i (m_axis_rsp_tvalid && m_axis_rsp_tready),
    .rsp_last_i (m_axis_rsp_tlast),
    .count_o    (in_flight),
    .max_o      (in_flight_max),
    .hist_o     (in_flight_hist)
  );

  logic        unused_l2;
  assign unused_l2 = l2_flush_done;   // L2_STATUS.FLUSHING carries it

  radix_csr #(
    .AddrW    (AddrW),
    .NodeCap  (NodeCap),
    .TokenCap (TokenCap),
    .MaxLen   (MaxLen),
    .PageSize (PageSize),
    .NumNs    (NumNs),
    .HashBuckets (HashBuckets),
    .HashWays    (HashWays),
    .StashDepth  (StashDepth),
    .L2          (L2),
    .Overlap     (Overlap)
  ) u_csr (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .s_axil_awaddr_i  (s_axil_awaddr),
    .s_axil_awvalid_i (s_axil_awvalid),
    .s_axil_awready_o (s_axil_awready),
    .s_axil_wdata_i   (s_axil_wdata),
    .s_axil_wstrb_i   (s_axil_wstrb),
    .s_axil_wvalid_i  (s_axil_wvalid),
    .s_axil_wready_o  (s_axil_wready),
    .s_axil_bresp_o   (s_axil_bresp),
    .s_axil_bvalid_o  (s_axil_bvalid),
    .s_axil_bready_i  (s_axil_bready),
    .s_axil_araddr_i  (s_axil_araddr),
    .s_axil_arvalid_i (s_axil_arvalid),
    .s_axil_arready_o (s_axil_arready),
    .s_axil_rdata_o   (s_axil_rdata),
    .s_axil_rresp_o   (s_axil_rresp),
    .s_axil_rvalid_o  (s_axil_rvalid),
    .s_axil_rready_i  (s_axil_rready),
    .busy_i           (busy),
    .init_done_i      (init_done),
    .error_i          (error),
    .last_error_i     (last_error),
    .evictable_i      (evictable),
    .protected_i      (protected_sz),
    .total_i          (total_sz),
    .free_nodes_i     (free_nodes),
    .free_slots_i     (free_slots),
    .lookups_i        (lookups),
    .queried_i        (queried),
    .hit_i            (hit),
    .inserts_i        (inserts),
    .inserted_i       (inserted),
    .splits_i         (splits),
    .evicted_nodes_i  (evicted_nodes),
    .evicted_tokens_i (evicted_tokens),
    .errors_i         (errors),
    .busy_cycles_i    (busy_cycles),
    .walk_cycles_i    (walk_cycles),
    .walk_nodes_i     (walk_nodes),
    .index_used_i     (index_used),
    .stash_free_i     (stash_free),
    .free_lines_i     (free_lines),
    .evict_skips_i    (evict_skips),
    .intake_ahead_i   (intake_ahead),
    .ovl_walks_i (ovl_walks),
    .replays_i (replays),
    .conflicts_split_i (conflicts_split),
    .conflicts_leaf_i (conflicts_leaf),
    .walk_wait_i (walk_wait),
    .lookup_wait_i (lookup_wait),
    .in_flight_i      (32'(in_flight)),
    .in_flight_max_i  (32'(in_flight_max)),
    .in_flight_hist_i (in_flight_hist),
    .l2_flush_o       (l2_flush),
    .l2_flushing_i    (l2_flushing),
    .l2_fault_i       (l2_fault),
    .l2_fault_kind_i  (l2_fault_kind),
    .l2_hits_i        (l2_hits),
    .l2_misses_i      (l2_misses),
    .l2_writebacks_i  (l2_writebacks),
    .l2_rd_beats_i    (l2_rd_beats),
    .l2_wr_beats_i    (l2_wr_beats),
    .l2_stall_i       (l2_stall),
    .l2_prefetches_i  (l2_prefetches),
    .l2_pf_useful_i   (l2_pf_useful),
    .irq_o            (irq)
  );

endmodule

`default_nettype wire
