// SPDX-License-Identifier: Apache-2.0
// Merges the AXI4 traffic of N L1 caches (radix_pkg RQ_*/RS_* bundles) into one master.
//
// Every request is a single 64-byte beat. AR and AW are granted round robin; a grant
// is held while the granted request waits for its ready, so the master's payload
// is stable as AXI requires. The write data follows the AW grants in order (a
// WqDepth-deep queue of granted masters; AW waits while it is full), so a cache may
// offer W before, with or after its AW. Responses go back by ID: the master's ID
// is {cache index, the cache's own ID}. Caches always accept responses (RREADY and
// BREADY high), so the response channels carry no arbitration.
`default_nettype none

`include "common_macros.svh"

module radix_axi_arb #(
  // Caches, >= 1.
  parameter int N       = 2,
  // Write grants that may wait for their data, >= 2.
  parameter int WqDepth = 4,
  // Derived, do not override: index bits and the master's ID width.
  parameter int IxW     = (N > 1) ? $clog2(N) : 1,
  parameter int IdW     = radix_pkg::L1_IDW + IxW
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,

  input  wire logic [N*radix_pkg::L1_REQ_W-1:0] req_i,
  output logic      [N*radix_pkg::L1_RSP_W-1:0] rsp_o,

  output logic [IdW-1:0]    m_axi_awid,
  output logic [63:0]       m_axi_awaddr,
  output logic [7:0]        m_axi_awlen,
  output logic [2:0]        m_axi_awsize,
  output logic [1:0]        m_axi_awburst,
  output logic              m_axi_awvalid,
  input  wire logic         m_axi_awready,
  output logic [511:0]      m_axi_wdata,
  output logic [63:0]       m_axi_wstrb,
  output logic              m_axi_wlast,
  output logic              m_axi_wvalid,
  input  wire logic         m_axi_wready,
  input  wire logic [IdW-1:0] m_axi_bid,
  input  wire logic [1:0]   m_axi_bresp,
  input  wire logic         m_axi_bvalid,
  output logic              m_axi_bready,
  output logic [IdW-1:0]    m_axi_arid,
  output logic [63:0]       m_axi_araddr,
  output logic [7:0]        m_axi_arlen,
  output logic [2:0]        m_axi_arsize,
  output logic [1:0]        m_axi_arburst,
  output logic              m_axi_arvalid,
  input  wire logic         m_axi_arready,
  input  wire logic [IdW-1:0] m_axi_rid,
  input  wire logic [511:0] m_axi_rdata,
  input  wire logic [1:0]   m_axi_rresp,
  input  wire logic         m_axi_rlast,
  input  wire logic         m_axi_rvalid,
  output logic              m_axi_rready
);

  `COMMON_PARAM_CHECK(g_bad_n, N >= 1, "radix_axi_arb: N must be >= 1")
  `COMMON_PARAM_CHECK(g_bad_wq, WqDepth >= 2 && (WqDepth & (WqDepth - 1)) == 0,
                      "radix_axi_arb: WqDepth must be a power of two >= 2")

  localparam int QW = $clog2(WqDepth);
  localparam int RQ = radix_pkg::L1_REQ_W;
  localparam int RS = radix_pkg::L1_RSP_W;

  // The first requester after `last`, round robin; `last` itself has the lowest priority.
  function automatic logic [IxW-1:0] rr_pick(input logic [N-1:0] req, input logic [IxW-1:0] last);
    logic [IxW-1:0] j;
    rr_pick = last;
    for (int i = N; i >= 1; i--) begin
      j = IxW'((int'(last) + i) % N);
      if (req[j]) rr_pick = j;
    end
  endfunction

  logic [N-1:0] arv, awv, wv;
  for (genvar m = 0; m < N; m++) begin : g_v
    assign arv[m] = req_i[m*RQ + radix_pkg::RQ_ARVALID];
    assign awv[m] = req_i[m*RQ + radix_pkg::RQ_AWVALID];
    assign wv[m]  = req_i[m*RQ + radix_pkg::RQ_WVALID];
  end

  // ---------------------------------------------------------------- AR
  logic           ar_lock_q;
  logic [IxW-1:0] ar_gnt_q, ar_last_q, ar_sel;
  assign ar_sel        = ar_lock_q ? ar_gnt_q : rr_pick(arv, ar_last_q);
  assign m_axi_arvalid = arv[ar_sel];
  assign m_axi_araddr  = req_i[int'(ar_sel)*RQ + radix_pkg::RQ_ARADDR +: 64];
  assign m_axi_arid    = {ar_sel, req_i[int'(ar_sel)*RQ + radix_pkg::RQ_ARID +: radix_pkg::L1_IDW]};
  assign m_axi_arlen   = 8'd0;
  assign m_axi_arsize  = 3'd6;
  assign m_axi_arburst = 2'b01;

  // ---------------------------------------------------------------- AW and the W order
  logic           aw_lock_q;
  logic [IxW-1:0] aw_gnt_q, aw_last_q, aw_sel;
  logic [IxW-1:0] wq_q [WqDepth];
  logic [QW:0]    wq_wr_q, wq_rd_q;
  logic           wq_full, wq_empty;
  logic [IxW-1:0] w_sel;
  assign wq_full       = (wq_wr_q - wq_rd_q) == (QW + 1)'(WqDepth);
  assign wq_empty      = (wq_wr_q == wq_rd_q);
  assign aw_sel        = aw_lock_q ? aw_gnt_q : rr_pick(awv, aw_last_q);
  assign m_axi_awvalid = awv[aw_sel] && !wq_full;
  assign m_axi_awaddr  = req_i[int'(aw_sel)*RQ + radix_pkg::RQ_AWADDR +: 64];
  assign m_axi_awid    = {aw_sel, req_i[int'(aw_sel)*RQ + radix_pkg::RQ_AWID +: radix_pkg::L1_IDW]};
  assign m_axi_awlen   = 8'd0;
  assign m_axi_awsize  = 3'd6;
  assign m_axi_awburst = 2'b01;

  assign w_sel        = wq_q[wq_rd_q[QW-1:0]];
  assign m_axi_wvalid = !wq_empty && wv[w_sel];
  assign m_axi_wdata  = req_i[int'(w_sel)*RQ + radix_pkg::RQ_WDATA +: 512];
  assign m_axi_wstrb  = req_i[int'(w_sel)*RQ + radix_pkg::RQ_WSTRB +: 64];
  assign m_axi_wlast  = 1'b1;

  // ---------------------------------------------------------------- B and R, by ID
  logic [IxW-1:0] b_ix, r_ix;
  assign b_ix         = m_axi_bid[IdW-1 -: IxW];
  assign r_ix         = m_axi_rid[IdW-1 -: IxW];
  assign m_axi_bready = req_i[int'(b_ix)*RQ + radix_pkg::RQ_BREADY];
  assign m_axi_rready = req_i[int'(r_ix)*RQ + radix_pkg::RQ_RREADY];

  for (genvar m = 0; m < N; m++) begin : g_rsp
    assign rsp_o[m*RS + radix_pkg::RS_AWREADY]      = (aw_sel == IxW'(m)) && m_axi_awready && !wq_full;
    assign rsp_o[m*RS + radix_pkg::RS_WREADY]       = !wq_empty && (w_sel == IxW'(m)) && m_axi_wready;
    assign rsp_o[m*RS + radix_pkg::RS_BID +: radix_pkg::L1_IDW] = m_axi_bid[radix_pkg::L1_IDW-1:0];
    assign rsp_o[m*RS + radix_pkg::RS_BRESP +: 2]   = m_axi_bresp;
    assign rsp_o[m*RS + radix_pkg::RS_BVALID]       = m_axi_bvalid && (b_ix == IxW'(m));
    assign rsp_o[m*RS + radix_pkg::RS_ARREADY]      = (ar_sel == IxW'(m)) && m_axi_arready;
    assign rsp_o[m*RS + radix_pkg::RS_RID +: radix_pkg::L1_IDW] = m_axi_rid[radix_pkg::L1_IDW-1:0];
    assign rsp_o[m*RS + radix_pkg::RS_RDATA +: 512] = m_axi_rdata;
    assign rsp_o[m*RS + radix_pkg::RS_RRESP +: 2]   = m_axi_rresp;
    assign rsp_o[m*RS + radix_pkg::RS_RVALID]       = m_axi_rvalid && (r_ix == IxW'(m));
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ar_lock_q <= 1'b0;
      aw_lock_q <= 1'b0;
      ar_last_q <= '0;
      aw_last_q <= '0;
      wq_wr_q   <= '0;
      wq_rd_q   <= '0;
    end else begin
      ar_lock_q <= m_axi_arvalid && !m_axi_arready;
      ar_gnt_q  <= ar_sel;
      if (m_axi_arvalid && m_axi_arready) ar_last_q <= ar_sel;
      aw_lock_q <= m_axi_awvalid && !m_axi_awready;
      aw_gnt_q  <= aw_sel;
      if (m_axi_awvalid && m_axi_awready) begin
        aw_last_q <= aw_sel;
        wq_q[wq_wr_q[QW-1:0]] <= aw_sel;
        wq_wr_q <= wq_wr_q + 1'b1;
      end
      if (m_axi_wvalid && m_axi_wready) wq_rd_q <= wq_rd_q + 1'b1;
    end
  end

  logic unused;
  assign unused = ^{m_axi_rlast};

`ifdef COMMON_ASSERT_ON
  // A held grant keeps its master's valid up: the cache obeys AXI, so a drop is a bug here.
  always_ff @(posedge clk_i) begin
    if (rst_ni && ar_lock_q && !arv[ar_gnt_q]) $fatal(1, "radix_axi_arb: AR valid dropped");
    if (rst_ni && aw_lock_q && !awv[aw_gnt_q]) $fatal(1, "radix_axi_arb: AW valid dropped");
  end
`endif

endmodule

`default_nettype wire
