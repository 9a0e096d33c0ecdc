// SPDX-License-Identifier: Apache-2.0
// Merges the AXI4 traffic of N L1 caches (radix_pkg RQ_*/RS_* bundles) into one master.
//
// Every request is a single 64-byte beat. AR, AW and W leave through output
// registers, so the master's payload is stable as AXI requires and no master
// output depends combinationally on a cache (the 300 MHz structure: the
// arbitration, a one-hot round robin and an AND-OR select, ends in a register).
// A register takes a new beat whenever it is empty or its beat leaves that
// cycle, so each channel carries one beat per cycle; a request costs one cycle
// of latency. AR and AW are granted round robin among the caches offering one.
// The write data follows the AW handshakes on the master in order (a
// WqDepth-deep queue of one-hot cache selects; AW waits while it is full), so a
// cache may offer W before, with or after its AW, and no W beat leaves before
// its AW. Responses go back by ID: the master's ID is {cache index, the cache's
// own ID}. Caches always accept responses (RREADY and BREADY high), so the
// response channels carry no arbitration.
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

  localparam int QW  = $clog2(WqDepth);
  localparam int RQ  = radix_pkg::L1_REQ_W;
  localparam int RS  = radix_pkg::L1_RSP_W;
  localparam int CID = radix_pkg::L1_IDW;

  // Round robin: the lowest requester above the last grant (`above`, a registered
  // thermometer of the positions past it), else the lowest requester. One-hot.
  // Written as a sum of products per bit, not as a priority chain, so each grant is a
  // two-level OR of its lower neighbours: the caches' AR/AW ready (and what they load
  // from it) hangs off this select, so its depth is the caches' too.
  function automatic logic [N-1:0] rr_pick(input logic [N-1:0] req, input logic [N-1:0] above);
    logic [N-1:0] hi;
    logic         any_hi;
    hi     = req & above;
    any_hi = |hi;
    for (int i = 0; i < N; i++) begin
      logic lower_hi, lower;
      lower_hi = 1'b0;
      lower    = 1'b0;
      for (int j = 0; j < i; j++) begin
        lower_hi = lower_hi | hi[j];
        lower    = lower | req[j];
      end
      rr_pick[i] = req[i] && (above[i] ? !lower_hi : (!any_hi && !lower));
    end
  endfunction

  // The positions past a one-hot grant.
  function automatic logic [N-1:0] past(input logic [N-1:0] g);
    logic seen;
    seen = 1'b0;
    for (int i = 0; i < N; i++) begin
      past[i] = seen;
      seen    = seen || g[i];
    end
  endfunction

  // AND-OR selects of one cache's field by a one-hot (or zero) select.
  function automatic logic [63:0] pick64(input logic [N*RQ-1:0] req, input logic [N-1:0] g,
                                         input int off);
    pick64 = '0;
    for (int m = 0; m < N; m++) if (g[m]) pick64 = pick64 | req[m*RQ + off +: 64];
  endfunction
  function automatic logic [511:0] pick512(input logic [N*RQ-1:0] req, input logic [N-1:0] g,
                                           input int off);
    pick512 = '0;
    for (int m = 0; m < N; m++) if (g[m]) pick512 = pick512 | req[m*RQ + off +: 512];
  endfunction
  function automatic logic [CID-1:0] pick_id(input logic [N*RQ-1:0] req, input logic [N-1:0] g,
                                             input int off);
    pick_id = '0;
    for (int m = 0; m < N; m++) if (g[m]) pick_id = pick_id | req[m*RQ + off +: CID];
  endfunction
  function automatic logic [IxW-1:0] index_of(input logic [N-1:0] g);
    index_of = '0;
    for (int m = 0; m < N; m++) if (g[m]) index_of = index_of | IxW'(m);
  endfunction

  logic [N-1:0] arv, awv, wv, bready, rready;
  for (genvar m = 0; m < N; m++) begin : g_v
    assign arv[m]    = req_i[m*RQ + radix_pkg::RQ_ARVALID];
    assign awv[m]    = req_i[m*RQ + radix_pkg::RQ_AWVALID];
    assign wv[m]     = req_i[m*RQ + radix_pkg::RQ_WVALID];
    assign bready[m] = req_i[m*RQ + radix_pkg::RQ_BREADY];
    assign rready[m] = req_i[m*RQ + radix_pkg::RQ_RREADY];
  end

  // ---------------------------------------------------------------- AR
  logic           ar_v_q;
  logic [IdW-1:0] ar_id_q;
  logic [63:0]    ar_addr_q;
  logic [N-1:0]   ar_above_q, ar_gnt;
  logic           ar_take;
  assign ar_take = !ar_v_q || m_axi_arready;
  assign ar_gnt  = ar_take ? rr_pick(arv, ar_above_q) : '0;

  assign m_axi_arvalid = ar_v_q;
  assign m_axi_araddr  = ar_addr_q;
  assign m_axi_arid    = ar_id_q;
  assign m_axi_arlen   = 8'd0;
  assign m_axi_arsize  = 3'd6;
  assign m_axi_arburst = 2'b01;

  // ---------------------------------------------------------------- AW and the W order
  logic           aw_v_q;
  logic [IdW-1:0] aw_id_q;
  logic [63:0]    aw_addr_q;
  logic [N-1:0]   aw_above_q, aw_gnt, aw_src_q;
  logic           aw_take, aw_fire;
  logic [N-1:0]   wq_q [WqDepth];
  logic [QW:0]    wq_wr_q, wq_rd_q;
  logic           wq_full_q, wq_empty;
  // Full is a flop: it gates AW's handshake and so the next AW grant; a pointer
  // subtract there would sit in front of the round robin and its payload mux.
  assign wq_empty = (wq_wr_q == wq_rd_q);
  // AW waits while the W queue is full; the queue only drains meanwhile, so a
  // raised AWVALID stays up until its handshake.
  assign aw_fire  = aw_v_q && !wq_full_q && m_axi_awready;
  assign aw_take  = !aw_v_q || aw_fire;
  assign aw_gnt   = aw_take ? rr_pick(awv, aw_above_q) : '0;

  assign m_axi_awvalid = aw_v_q && !wq_full_q;
  assign m_axi_awaddr  = aw_addr_q;
  assign m_axi_awid    = aw_id_q;
  assign m_axi_awlen   = 8'd0;
  assign m_axi_awsize  = 3'd6;
  assign m_axi_awburst = 2'b01;

  logic         w_v_q;
  logic [511:0] w_data_q;
  logic [63:0]  w_strb_q;
  logic [N-1:0] w_head, w_gnt;
  logic         w_take;
  assign w_head  = wq_empty ? '0 : wq_q[wq_rd_q[QW-1:0]];
  assign w_take  = !w_v_q || m_axi_wready;
  assign w_gnt   = w_take ? (w_head & wv) : '0;

  assign m_axi_wvalid = w_v_q;
  assign m_axi_wdata  = w_data_q;
  assign m_axi_wstrb  = w_strb_q;
  assign m_axi_wlast  = 1'b1;

  // ---------------------------------------------------------------- B and R, by ID
  logic [N-1:0] b_to, r_to;
  for (genvar m = 0; m < N; m++) begin : g_route
    assign b_to[m] = (m_axi_bid[IdW-1 -: IxW] == IxW'(m));
    assign r_to[m] = (m_axi_rid[IdW-1 -: IxW] == IxW'(m));
  end
  // The routed cache's ready while a response is offered; high otherwise, since a
  // slave need not drive BID / RID while its VALID is low.
  assign m_axi_bready = !m_axi_bvalid || |(b_to & bready);
  assign m_axi_rready = !m_axi_rvalid || |(r_to & rready);

  for (genvar m = 0; m < N; m++) begin : g_rsp
    assign rsp_o[m*RS + radix_pkg::RS_AWREADY]      = aw_gnt[m];
    assign rsp_o[m*RS + radix_pkg::RS_WREADY]       = w_gnt[m];
    assign rsp_o[m*RS + radix_pkg::RS_BID +: CID]   = m_axi_bid[CID-1:0];
    assign rsp_o[m*RS + radix_pkg::RS_BRESP +: 2]   = m_axi_bresp;
    assign rsp_o[m*RS + radix_pkg::RS_BVALID]       = m_axi_bvalid && b_to[m];
    assign rsp_o[m*RS + radix_pkg::RS_ARREADY]      = ar_gnt[m];
    assign rsp_o[m*RS + radix_pkg::RS_RID +: CID]   = m_axi_rid[CID-1:0];
    assign rsp_o[m*RS + radix_pkg::RS_RDATA +: 512] = m_axi_rdata;
    assign rsp_o[m*RS + radix_pkg::RS_RRESP +: 2]   = m_axi_rresp;
    assign rsp_o[m*RS + radix_pkg::RS_RVALID]       = m_axi_rvalid && r_to[m];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ar_v_q     <= 1'b0;
      aw_v_q     <= 1'b0;
      w_v_q      <= 1'b0;
      ar_above_q <= '0;
      aw_above_q <= '0;
      wq_wr_q    <= '0;
      wq_rd_q    <= '0;
      wq_full_q  <= 1'b0;
    end else begin
      if (ar_take) ar_v_q <= |ar_gnt;
      if (|ar_gnt) begin
        ar_addr_q  <= pick64(req_i, ar_gnt, radix_pkg::RQ_ARADDR);
        ar_id_q    <= {index_of(ar_gnt), pick_id(req_i, ar_gnt, radix_pkg::RQ_ARID)};
        ar_above_q <= past(ar_gnt);
      end
      if (aw_take) aw_v_q <= |aw_gnt;
      if (|aw_gnt) begin
        aw_addr_q  <= pick64(req_i, aw_gnt, radix_pkg::RQ_AWADDR);
        aw_id_q    <= {index_of(aw_gnt), pick_id(req_i, aw_gnt, radix_pkg::RQ_AWID)};
        aw_src_q   <= aw_gnt;
        aw_above_q <= past(aw_gnt);
      end
      if (aw_fire) begin
        wq_q[wq_wr_q[QW-1:0]] <= aw_src_q;
        wq_wr_q <= wq_wr_q + 1'b1;
      end
      if (w_take) w_v_q <= |w_gnt;
      if (|w_gnt) begin
        w_data_q <= pick512(req_i, w_gnt, radix_pkg::RQ_WDATA);
        w_strb_q <= pick64(req_i, w_gnt, radix_pkg::RQ_WSTRB);
        wq_rd_q  <= wq_rd_q + 1'b1;
      end
      if (aw_fire && !(|w_gnt)) begin
        wq_full_q <= (wq_wr_q - wq_rd_q) == (QW + 1)'(WqDepth - 1);
      end else if (|w_gnt && !aw_fire) begin
        wq_full_q <= 1'b0;
      end
    end
  end

  logic unused;
  assign unused = ^{m_axi_rlast};

  // AXI rules on the master's request channels: VALID held until READY, payload
  // stable meanwhile, no X while valid.
  `COMMON_AXIS_CHECK(u_ar_chk, IdW + 64, m_axi_arvalid, m_axi_arready,
                     {m_axi_arid, m_axi_araddr}, 1'b0)
  `COMMON_AXIS_CHECK(u_aw_chk, IdW + 64, m_axi_awvalid, m_axi_awready,
                     {m_axi_awid, m_axi_awaddr}, 1'b0)
  `COMMON_AXIS_CHECK(u_w_chk, 576, m_axi_wvalid, m_axi_wready, {m_axi_wstrb, m_axi_wdata},
                     m_axi_wlast)

`ifdef COMMON_ASSERT_ON
  // Grants are one-hot, go only to a cache that offers, and a queued W select
  // names one cache.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (!$onehot0(ar_gnt) || (ar_gnt & ~arv) != '0) $fatal(1, "radix_axi_arb: bad AR grant");
      if (!$onehot0(aw_gnt) || (aw_gnt & ~awv) != '0) $fatal(1, "radix_axi_arb: bad AW grant");
      if (!wq_empty && !$onehot(w_head)) $fatal(1, "radix_axi_arb: bad W queue entry");
      if (aw_v_q && !$onehot(aw_src_q)) $fatal(1, "radix_axi_arb: bad AW source");
      if (wq_full_q != ((wq_wr_q - wq_rd_q) == (QW + 1)'(WqDepth)))
        $fatal(1, "radix_axi_arb: W queue full flag out of step");
    end
  end
`endif

endmodule

`default_nettype wire
