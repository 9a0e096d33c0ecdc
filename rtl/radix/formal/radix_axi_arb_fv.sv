// SPDX-License-Identifier: Apache-2.0
// Formal harness of radix_axi_arb, the L2 build's merge of N L1 caches' AXI4 traffic
// into one master. Against a shadow of what the caches handed over (per channel, the
// one beat the output register holds, and the queue of AW sources whose data has not
// been taken yet), asserted:
//   * AR and AW leave with the address of the cache handshake that fed them and the
//     ID {cache index, cache's ID}; W leaves with the data and strobes of its cache
//     handshake; no beat created, lost or duplicated (each master VALID is exactly
//     "the shadow holds a beat", AW's also gated by a full W queue);
//   * write data follows the master's AW order: a cache's W is taken only while it
//     heads the queue of AWs sent on the master (so no W leaves before its AW), and
//     the queue never holds more than WqDepth grants;
//   * grants are one-hot, go to a cache that offers, round robin from the last grant
//     (the first offering cache after it, cyclically), and a channel whose register
//     is free or leaving takes a beat whenever a cache offers one (work conserving);
//   * the master holds AR/AW/W VALID until READY with a stable payload (AXI A3.2.1);
//   * B and R go to the cache their ID's top bits name, with its ID, response and
//     data; BREADY/RREADY are that cache's ready while VALID is high.
// Every cache and master input is free in every cycle: the arbiter makes no
// assumption of its caches or of the slave. Covers: a full W queue holding AW back,
// W drained while full, both caches interleaved. Formal only; see radix_axi_arb.sby.
`default_nettype none

module radix_axi_arb_fv #(
  parameter int N       = 2,
  parameter int WqDepth = 4,
  parameter int IxW     = (N > 1) ? $clog2(N) : 1,
  parameter int IdW     = radix_pkg::L1_IDW + IxW
) (
  input  wire logic                             clk_i,
  input  wire logic                             rst_ni,
  input  wire logic [N*radix_pkg::L1_REQ_W-1:0] req_i,
  input  wire logic                             m_axi_awready,
  input  wire logic                             m_axi_wready,
  input  wire logic [IdW-1:0]                   m_axi_bid,
  input  wire logic [1:0]                       m_axi_bresp,
  input  wire logic                             m_axi_bvalid,
  input  wire logic                             m_axi_arready,
  input  wire logic [IdW-1:0]                   m_axi_rid,
  input  wire logic [511:0]                     m_axi_rdata,
  input  wire logic [1:0]                       m_axi_rresp,
  input  wire logic                             m_axi_rlast,
  input  wire logic                             m_axi_rvalid
);

  localparam int RQ  = radix_pkg::L1_REQ_W;
  localparam int RS  = radix_pkg::L1_RSP_W;
  localparam int CID = radix_pkg::L1_IDW;
  // The shadow queue has room for one grant past WqDepth, so an overfull DUT queue
  // shows as a count, not as a wrapped shadow.
  localparam int SQ  = WqDepth + 1;
  localparam int SQW = $clog2(SQ + 1);
  localparam int QW  = $clog2(WqDepth);

  logic [N*RS-1:0] rsp;
  logic [IdW-1:0]  awid, arid;
  logic [63:0]     awaddr, araddr;
  logic [511:0]    wdata;
  logic [63:0]     wstrb;
  logic [7:0]      awlen, arlen;
  logic [2:0]      awsize, arsize;
  logic [1:0]      awburst, arburst;
  logic            awvalid, wvalid, wlast, bready, arvalid, rready;

  radix_axi_arb #(.N(N), .WqDepth(WqDepth)) u_dut (
    .clk_i (clk_i), .rst_ni (rst_ni), .req_i (req_i), .rsp_o (rsp),
    .m_axi_awid (awid), .m_axi_awaddr (awaddr), .m_axi_awlen (awlen),
    .m_axi_awsize (awsize), .m_axi_awburst (awburst), .m_axi_awvalid (awvalid),
    .m_axi_awready (m_axi_awready),
    .m_axi_wdata (wdata), .m_axi_wstrb (wstrb), .m_axi_wlast (wlast),
    .m_axi_wvalid (wvalid), .m_axi_wready (m_axi_wready),
    .m_axi_bid (m_axi_bid), .m_axi_bresp (m_axi_bresp), .m_axi_bvalid (m_axi_bvalid),
    .m_axi_bready (bready),
    .m_axi_arid (arid), .m_axi_araddr (araddr), .m_axi_arlen (arlen),
    .m_axi_arsize (arsize), .m_axi_arburst (arburst), .m_axi_arvalid (arvalid),
    .m_axi_arready (m_axi_arready),
    .m_axi_rid (m_axi_rid), .m_axi_rdata (m_axi_rdata), .m_axi_rresp (m_axi_rresp),
    .m_axi_rlast (m_axi_rlast), .m_axi_rvalid (m_axi_rvalid), .m_axi_rready (rready));

  logic past_valid, init;
  common_fv_reset u_rst (.clk_i (clk_i), .rst_ni (rst_ni), .past_valid_o (past_valid),
                         .init_o (init));

  // The cache side, per cache: what it offers and the handshakes the arbiter gives it.
  logic [N-1:0] arv, awv, wv, c_bready, c_rready, ar_hs, aw_hs, w_hs;
  for (genvar m = 0; m < N; m++) begin : g_cache
    assign arv[m]      = req_i[m*RQ + radix_pkg::RQ_ARVALID];
    assign awv[m]      = req_i[m*RQ + radix_pkg::RQ_AWVALID];
    assign wv[m]       = req_i[m*RQ + radix_pkg::RQ_WVALID];
    assign c_bready[m] = req_i[m*RQ + radix_pkg::RQ_BREADY];
    assign c_rready[m] = req_i[m*RQ + radix_pkg::RQ_RREADY];
    assign ar_hs[m]    = arv[m] && rsp[m*RS + radix_pkg::RS_ARREADY];
    assign aw_hs[m]    = awv[m] && rsp[m*RS + radix_pkg::RS_AWREADY];
    assign w_hs[m]     = wv[m] && rsp[m*RS + radix_pkg::RS_WREADY];
  end

  logic ar_fire, aw_fire, w_fire;
  assign ar_fire = arvalid && m_axi_arready;
  assign aw_fire = awvalid && m_axi_awready;
  assign w_fire  = wvalid && m_axi_wready;

  // The reference round robin: the first offering cache after `last`, cyclically.
  // Written as a search, unlike the DUT's sum of products.
  function automatic logic [N-1:0] rr_ref(input logic [N-1:0] offer, input logic [IxW-1:0] last);
    rr_ref = '0;
    for (int k = 1; k <= N; k++) begin
      logic [IxW:0] c;
      c = (IxW + 1)'(last) + (IxW + 1)'(k);
      if (32'(c) >= N) c = c - (IxW + 1)'(N);
      if (offer[IxW'(c)] && rr_ref == '0) rr_ref[IxW'(c)] = 1'b1;
    end
  endfunction

  function automatic logic [IxW-1:0] index_of(input logic [N-1:0] g);
    index_of = '0;
    for (int m = 0; m < N; m++) if (g[m]) index_of = IxW'(m);
  endfunction

  // ---------------------------------------------------------------- the shadow
  logic           ar_pend_q, aw_pend_q, w_pend_q;
  logic [IdW-1:0] ar_id_q, aw_id_q;
  logic [63:0]    ar_addr_q, aw_addr_q, w_strb_q;
  logic [511:0]   w_data_q;
  logic [IxW-1:0] ar_last_q, aw_last_q;
  logic [IxW-1:0] sq_q [SQ];      // AW sources sent on the master, data not yet taken
  logic [SQW-1:0] sq_cnt_q;

  // A field of the cache a handshake names (constant part selects, so no shifter).
  function automatic logic [CID-1:0] id_of(input logic [N-1:0] hs, input int off);
    id_of = '0;
    for (int m = 0; m < N; m++) if (hs[m]) id_of = req_i[m*RQ + off +: CID];
  endfunction
  function automatic logic [63:0] f64_of(input logic [N-1:0] hs, input int off);
    f64_of = '0;
    for (int m = 0; m < N; m++) if (hs[m]) f64_of = req_i[m*RQ + off +: 64];
  endfunction
  function automatic logic [511:0] f512_of(input logic [N-1:0] hs, input int off);
    f512_of = '0;
    for (int m = 0; m < N; m++) if (hs[m]) f512_of = req_i[m*RQ + off +: 512];
  endfunction

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ar_pend_q <= 1'b0;
      aw_pend_q <= 1'b0;
      w_pend_q  <= 1'b0;
      ar_last_q <= IxW'(N - 1);
      aw_last_q <= IxW'(N - 1);
      sq_cnt_q  <= '0;
    end else begin
      if (ar_fire) ar_pend_q <= 1'b0;
      if (|ar_hs) begin
        ar_pend_q <= 1'b1;
        ar_last_q <= index_of(ar_hs);
        ar_id_q   <= {index_of(ar_hs), id_of(ar_hs, radix_pkg::RQ_ARID)};
        ar_addr_q <= f64_of(ar_hs, radix_pkg::RQ_ARADDR);
      end
      if (aw_fire) aw_pend_q <= 1'b0;
      if (|aw_hs) begin
        aw_pend_q <= 1'b1;
        aw_last_q <= index_of(aw_hs);
        aw_id_q   <= {index_of(aw_hs), id_of(aw_hs, radix_pkg::RQ_AWID)};
        aw_addr_q <= f64_of(aw_hs, radix_pkg::RQ_AWADDR);
      end
      if (w_fire) w_pend_q <= 1'b0;
      if (|w_hs) begin
        w_pend_q <= 1'b1;
        w_data_q <= f512_of(w_hs, radix_pkg::RQ_WDATA);
        w_strb_q <= f64_of(w_hs, radix_pkg::RQ_WSTRB);
      end
      // The AW queue: a W handshake pops the head, an AW on the master pushes.
      begin
        logic [IxW-1:0] q [SQ];
        logic [SQW-1:0] n;
        for (int i = 0; i < SQ; i++) q[i] = sq_q[i];
        n = sq_cnt_q;
        if (|w_hs && n != '0) begin
          for (int i = 0; i + 1 < SQ; i++) q[i] = q[i + 1];
          n = n - 1'b1;
        end
        if (aw_fire && 32'(n) < SQ) begin
          q[n] = aw_id_q[IdW-1 -: IxW];
          n    = n + 1'b1;
        end
        for (int i = 0; i < SQ; i++) sq_q[i] <= q[i];
        sq_cnt_q <= n;
      end
    end
  end

  // Probes (driven by `connect -set` in radix_axi_arb.sby): the W queue and the round
  // robins' state. Induction needs them tied to the shadow; left unconnected they would
  // be free inputs read only by assertions, which could fail a proof, never pass one.
  logic [WqDepth*N-1:0] p_wq;
  logic [QW:0]          p_wr, p_rd;
  logic                 p_full, p_aw_v;
  logic [N-1:0]         p_aw_src, p_ar_above, p_aw_above;

  function automatic logic [N-1:0] past_ref(input logic [IxW-1:0] last);
    past_ref = '0;
    for (int m = 0; m < N; m++) past_ref[m] = (32'(m) > 32'(last));
  endfunction

  always @* begin
    if (init && rst_ni) begin
      assert (32'((QW + 1)'(p_wr - p_rd)) == 32'(sq_cnt_q));
      assert (p_full == (32'(sq_cnt_q) == WqDepth));
      for (int i = 0; i < WqDepth; i++)
        if (i < 32'(sq_cnt_q))
          assert (32'(sq_q[i]) < N && p_wq[32'(QW'(p_rd + QW'(i))) * N +: N] == N'(1) << sq_q[i]);
      assert (p_aw_v == aw_pend_q);
      if (aw_pend_q)
        assert (32'(aw_id_q[IdW-1 -: IxW]) < N && p_aw_src == N'(1) << aw_id_q[IdW-1 -: IxW]);
      assert (p_ar_above == past_ref(ar_last_q));
      assert (p_aw_above == past_ref(aw_last_q));
      assert (32'(ar_last_q) < N && 32'(aw_last_q) < N);
    end
  end

  // ---------------------------------------------------------------- the properties
  logic ar_can, aw_can, w_can;
  assign ar_can = !ar_pend_q || ar_fire;
  assign aw_can = !aw_pend_q || aw_fire;
  // W's register takes a beat when free or leaving, from the head cache only.
  assign w_can  = !w_pend_q || w_fire;

  always @* begin
    if (init && rst_ni) begin
      // Each master channel carries exactly the beats the caches handed over.
      assert (arvalid == ar_pend_q);
      assert (wvalid == w_pend_q);
      assert (awvalid == (aw_pend_q && 32'(sq_cnt_q) < WqDepth));
      assert (32'(sq_cnt_q) <= WqDepth);
      if (ar_pend_q) assert (arid == ar_id_q && araddr == ar_addr_q);
      if (aw_pend_q) assert (awid == aw_id_q && awaddr == aw_addr_q);
      if (w_pend_q) assert (wdata == w_data_q && wstrb == w_strb_q && wlast);
      assert (arlen == 8'd0 && arsize == 3'd6 && arburst == 2'b01);
      assert (awlen == 8'd0 && awsize == 3'd6 && awburst == 2'b01);

      // Grants: one-hot, round robin, work conserving.
      assert ($onehot0(ar_hs) && $onehot0(aw_hs) && $onehot0(w_hs));
      assert (ar_hs == (ar_can ? rr_ref(arv, ar_last_q) : '0));
      assert (aw_hs == (aw_can ? rr_ref(awv, aw_last_q) : '0));
      // W in AW order: only the head of the queue, and then whenever it offers.
      if (sq_cnt_q == '0) assert (w_hs == '0);
      else assert (w_hs == (w_can && wv[sq_q[0]] ? N'(1) << sq_q[0] : '0));

      // Responses by ID.
      for (int m = 0; m < N; m++) begin
        logic to_b, to_r;
        to_b = (32'(m_axi_bid[IdW-1 -: IxW]) == m);
        to_r = (32'(m_axi_rid[IdW-1 -: IxW]) == m);
        assert (rsp[m*RS + radix_pkg::RS_BVALID] == (m_axi_bvalid && to_b));
        assert (rsp[m*RS + radix_pkg::RS_RVALID] == (m_axi_rvalid && to_r));
        assert (rsp[m*RS + radix_pkg::RS_BID +: CID] == m_axi_bid[CID-1:0]);
        assert (rsp[m*RS + radix_pkg::RS_BRESP +: 2] == m_axi_bresp);
        assert (rsp[m*RS + radix_pkg::RS_RID +: CID] == m_axi_rid[CID-1:0]);
        assert (rsp[m*RS + radix_pkg::RS_RRESP +: 2] == m_axi_rresp);
        assert (rsp[m*RS + radix_pkg::RS_RDATA +: 512] == m_axi_rdata);
        if (m_axi_bvalid && to_b) assert (bready == c_bready[m]);
        if (m_axi_rvalid && to_r) assert (rready == c_rready[m]);
      end
    end
  end

  // The master's side of AXI: VALID held until READY, payload stable meanwhile.
  logic           ar_wait_q, aw_wait_q, w_wait_q;
  logic [IdW-1:0] p_arid, p_awid;
  logic [63:0]    p_araddr, p_awaddr, p_wstrb;
  logic [511:0]   p_wdata;
  always @(posedge clk_i) begin
    ar_wait_q <= rst_ni && arvalid && !m_axi_arready;
    aw_wait_q <= rst_ni && awvalid && !m_axi_awready;
    w_wait_q  <= rst_ni && wvalid && !m_axi_wready;
    p_arid    <= arid;
    p_araddr  <= araddr;
    p_awid    <= awid;
    p_awaddr  <= awaddr;
    p_wdata   <= wdata;
    p_wstrb   <= wstrb;
  end
  always @* begin
    if (init && rst_ni) begin
      if (ar_wait_q) assert (arvalid && arid == p_arid && araddr == p_araddr);
      if (aw_wait_q) assert (awvalid && awid == p_awid && awaddr == p_awaddr);
      if (w_wait_q) assert (wvalid && wdata == p_wdata && wstrb == p_wstrb);
    end
  end

  // Covers: the W queue full and holding an AW back; a W taken while full with an AW
  // waiting; caches granted back to back on AR; a W from cache 1 right behind one from cache 0.
  logic w_from0_q;
  always @(posedge clk_i) begin
    w_from0_q <= rst_ni && w_hs[0];
    if (init && rst_ni) begin
      cover (32'(sq_cnt_q) == WqDepth && aw_pend_q && !awvalid);
      cover (32'(sq_cnt_q) == WqDepth && |w_hs && aw_pend_q);
      cover (ar_hs[N-1] && ar_last_q == '0 && arv[0]);
      cover (w_from0_q && w_hs[N-1]);
    end
  end

  logic unused;
  assign unused = ^{past_valid};

endmodule

`default_nettype wire
