// SPDX-License-Identifier: Apache-2.0
// One table of the radix controller, in core time: on chip, or in DDR behind an L1 cache.
//
// The controller advances only in cycles with adv_i high ("ticks"), and this port
// behaves exactly like common_ram_sdp counted in ticks: a read issued at tick k has
// its data on rdata_o at tick k + ReadLatency, read-first on collisions, held until
// the next read's data replaces it.
//
//   L2 = 0: the table is an on-chip array. Its read, write and output pipeline are
//           enabled by adv_i, so a frozen core sees no data move. With adv_i tied
//           high this is common_ram_sdp, and synthesis removes the enables.
//   L2 = 1: the table lives in DDR (entry i at base_i + i * EntryBytes, see
//           radix_l1_cache) behind a Sets x Ways L1 cache. A miss raises stall_o
//           (registered), which the controller turns into !adv_i for every table.
//
// The L1 cache's AXI4 traffic leaves as the flat bundles of radix_pkg (RQ_*, RS_*);
// radix_axi_arb merges the bundles of all tables into one master. In the on-chip
// build the bundle is all zeros and the control outputs are idle.
`default_nettype none

`include "common_macros.svh"

module radix_table #(
  parameter int Width         = 32,
  parameter int Depth         = 512,
  // Storage hint of the on-chip array (L2 = 0).
  parameter     RamStyle      = "block",
  parameter int ReadLatency   = 2,
  // 1: backed by DDR through an L1 cache; 0: on chip.
  parameter bit L2            = 1'b0,
  // L1 geometry and DDR timeout (L2 = 1 only, see radix_l1_cache).
  parameter int Sets          = 64,
  parameter int Ways          = 2,
  parameter int TimeoutCycles = 4096,
  parameter int PrefetchDepth = 0,
  parameter int AddrW         = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             adv_i,

  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o,

  // L2 control (see radix_l1_cache); idle in the on-chip build.
  input  wire logic [63:0]      base_i,
  input  wire logic             flush_i,
  input  wire logic             clear_i,
  output logic                  stall_o,
  output logic                  flush_done_o,
  output logic                  fault_o,
  output logic      [1:0]       fault_kind_o,
  output logic [radix_pkg::L1_NCNT*32-1:0] cnt_o,
  output logic [radix_pkg::L1_REQ_W-1:0]   axi_req_o,
  input  wire logic [radix_pkg::L1_RSP_W-1:0] axi_rsp_i
);

  if (!L2) begin : g_chip
    radix_ram #(.Width(Width), .Depth(Depth), .RamStyle(RamStyle), .ReadLatency(ReadLatency))
      u_ram (.clk_i, .adv_i, .we_i, .waddr_i, .wdata_i, .re_i, .raddr_i, .rdata_o);
    assign stall_o      = 1'b0;
    assign flush_done_o = flush_i && adv_i;   // nothing to write back
    assign fault_o      = 1'b0;
    assign fault_kind_o = 2'd0;
    assign cnt_o        = '0;
    assign axi_req_o    = '0;
    logic unused;
    assign unused = ^{rst_ni, base_i, clear_i, axi_rsp_i};
  end else begin : g_l2
    `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2 * (64 / (1 << $clog2((Width + 7) / 8))) * Sets,
                        "radix_table: an L2 table needs Depth >= 2 x the L1's entries")
    // Single-beat INCR bursts of 64 bytes: the arbiter drives these constants.
    logic [7:0] aw_len, ar_len;
    logic [2:0] aw_size, ar_size;
    logic [1:0] aw_burst, ar_burst;
    logic       w_last;
    logic       unused;
    assign unused = ^{aw_len, ar_len, aw_size, ar_size, aw_burst, ar_burst, w_last};
    radix_l1_cache #(
      .Width (Width), .Depth (Depth), .Sets (Sets), .Ways (Ways), .ReadLatency (ReadLatency),
      .IdW (radix_pkg::L1_IDW), .TimeoutCycles (TimeoutCycles),
      .PrefetchDepth (PrefetchDepth)
    ) u_l1 (
      .clk_i, .rst_ni, .base_i, .adv_i, .we_i, .waddr_i, .wdata_i, .re_i, .raddr_i, .rdata_o,
      .flush_i, .clear_i, .stall_o, .flush_done_o, .fault_o, .fault_kind_o,
      .cnt_hit_o     (cnt_o[32*radix_pkg::L1C_HIT +: 32]),
      .cnt_miss_o    (cnt_o[32*radix_pkg::L1C_MISS +: 32]),
      .cnt_wb_o      (cnt_o[32*radix_pkg::L1C_WB +: 32]),
      .cnt_rd_beat_o (cnt_o[32*radix_pkg::L1C_RD_BEAT +: 32]),
      .cnt_wr_beat_o (cnt_o[32*radix_pkg::L1C_WR_BEAT +: 32]),
      .cnt_stall_o   (cnt_o[32*radix_pkg::L1C_STALL +: 32]),
      .cnt_pf_o        (cnt_o[32*radix_pkg::L1C_PF +: 32]),
      .cnt_pf_useful_o (cnt_o[32*radix_pkg::L1C_PF_USEFUL +: 32]),
      .m_axi_awid    (axi_req_o[radix_pkg::RQ_AWID +: radix_pkg::L1_IDW]),
      .m_axi_awaddr  (axi_req_o[radix_pkg::RQ_AWADDR +: 64]),
      .m_axi_awlen   (aw_len),
      .m_axi_awsize  (aw_size),
      .m_axi_awburst (aw_burst),
      .m_axi_awvalid (axi_req_o[radix_pkg::RQ_AWVALID]),
      .m_axi_awready (axi_rsp_i[radix_pkg::RS_AWREADY]),
      .m_axi_wdata   (axi_req_o[radix_pkg::RQ_WDATA +: 512]),
      .m_axi_wstrb   (axi_req_o[radix_pkg::RQ_WSTRB +: 64]),
      .m_axi_wlast   (w_last),
      .m_axi_wvalid  (axi_req_o[radix_pkg::RQ_WVALID]),
      .m_axi_wready  (axi_rsp_i[radix_pkg::RS_WREADY]),
      .m_axi_bid     (axi_rsp_i[radix_pkg::RS_BID +: radix_pkg::L1_IDW]),
      .m_axi_bresp   (axi_rsp_i[radix_pkg::RS_BRESP +: 2]),
      .m_axi_bvalid  (axi_rsp_i[radix_pkg::RS_BVALID]),
      .m_axi_bready  (axi_req_o[radix_pkg::RQ_BREADY]),
      .m_axi_arid    (axi_req_o[radix_pkg::RQ_ARID +: radix_pkg::L1_IDW]),
      .m_axi_araddr  (axi_req_o[radix_pkg::RQ_ARADDR +: 64]),
      .m_axi_arlen   (ar_len),
      .m_axi_arsize  (ar_size),
      .m_axi_arburst (ar_burst),
      .m_axi_arvalid (axi_req_o[radix_pkg::RQ_ARVALID]),
      .m_axi_arready (axi_rsp_i[radix_pkg::RS_ARREADY]),
      .m_axi_rid     (axi_rsp_i[radix_pkg::RS_RID +: radix_pkg::L1_IDW]),
      .m_axi_rdata   (axi_rsp_i[radix_pkg::RS_RDATA +: 512]),
      .m_axi_rresp   (axi_rsp_i[radix_pkg::RS_RRESP +: 2]),
      .m_axi_rlast   (1'b1),
      .m_axi_rvalid  (axi_rsp_i[radix_pkg::RS_RVALID]),
      .m_axi_rready  (axi_req_o[radix_pkg::RQ_RREADY])
    );
  end

endmodule

`default_nettype wire
