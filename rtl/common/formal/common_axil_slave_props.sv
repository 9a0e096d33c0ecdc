// SPDX-License-Identifier: Apache-2.0
// Formal contract of an AXI4-Lite slave with at most one outstanding write and
// one outstanding read (every AXI-Lite slave in this repository).
// Formal only (read by SymbiYosys, see docs/formal.md); never in a simulation.
//
// Assumes (the master), after reset: AW, W and AR, once valid, stay valid with
// the same address / data / strobes until ready (AXI A3.2.1).
// Asserts (the slave), after the first reset:
//   * no response without a request: BVALID only with an AW and a W accepted
//     and not yet answered, RVALID only with an AR accepted and not answered;
//   * at most one write and one read outstanding;
//   * with JointAwW, AW and W are accepted in the same cycle;
//   * every accepted request gets its response: an accepted, unanswered
//     request has BVALID / RVALID low for at most MaxLatency cycles;
//   * exactly one response: the response handshake retires the request, and
//     BVALID without an outstanding request is an error (first point);
//   * BVALID / RVALID held until BREADY / RREADY, with BRESP / RDATA / RRESP
//     stable meanwhile.
// A harness names its signals as these ports and connects them with `.*`.
`default_nettype none

module common_axil_slave_props #(
  parameter int AddrW      = 8,
  parameter int MaxLatency = 0,
  // 1: the slave can answer SLVERR (covered); 0: it must always answer OKAY.
  parameter bit HasSlverr  = 1,
  // 1: the slave takes AW and W together, in one cycle (asserted).
  parameter bit JointAwW   = 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [AddrW-1:0] awaddr_i,
  input  wire logic             awvalid_i,
  input  wire logic             awready_i,
  input  wire logic [31:0]      wdata_i,
  input  wire logic [3:0]       wstrb_i,
  input  wire logic             wvalid_i,
  input  wire logic             wready_i,
  input  wire logic [1:0]       bresp_i,
  input  wire logic             bvalid_i,
  input  wire logic             bready_i,
  input  wire logic [AddrW-1:0] araddr_i,
  input  wire logic             arvalid_i,
  input  wire logic             arready_i,
  input  wire logic [31:0]      rdata_i,
  input  wire logic [1:0]       rresp_i,
  input  wire logic             rvalid_i,
  input  wire logic             rready_i
);

  localparam logic [1:0] RESP_SLVERR = 2'b10;

  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = rst_ni && awvalid_i && awready_i;
  assign w_hs  = rst_ni && wvalid_i && wready_i;
  assign b_hs  = rst_ni && bvalid_i && bready_i;
  assign ar_hs = rst_ni && arvalid_i && arready_i;
  assign r_hs  = rst_ni && rvalid_i && rready_i;

  logic       past_valid_q, init_q;
  logic [1:0] aw_pend_q, w_pend_q, ar_pend_q;   // accepted, not answered
  logic [3:0] bwait_q, rwait_q;
  logic       b_pending, r_pending;
  assign b_pending = aw_pend_q != '0 && w_pend_q != '0;
  assign r_pending = ar_pend_q != '0;

  common_fv_reset u_reset (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .past_valid_o (past_valid_q),
    .init_o       (init_q)
  );

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      aw_pend_q <= '0;
      w_pend_q  <= '0;
      ar_pend_q <= '0;
      bwait_q   <= '0;
      rwait_q   <= '0;
    end else begin
      aw_pend_q <= aw_pend_q + 2'(aw_hs) - 2'(b_hs);
      w_pend_q  <= w_pend_q + 2'(w_hs) - 2'(b_hs);
      ar_pend_q <= ar_pend_q + 2'(ar_hs) - 2'(r_hs);
      bwait_q   <= (b_pending && !bvalid_i) ? bwait_q + 1'b1 : '0;
      rwait_q   <= (r_pending && !rvalid_i) ? rwait_q + 1'b1 : '0;
    end
  end

  // ---------------------------------------------------------------- assumptions
  always @(posedge clk_i) begin
    if (past_valid_q && $past(rst_ni) && rst_ni) begin
      if ($past(awvalid_i && !awready_i)) assume (awvalid_i && awaddr_i == $past(awaddr_i));
      if ($past(wvalid_i && !wready_i)) begin
        assume (wvalid_i && wdata_i == $past(wdata_i) && wstrb_i == $past(wstrb_i));
      end
      if ($past(arvalid_i && !arready_i)) assume (arvalid_i && araddr_i == $past(araddr_i));
    end
  end

  // ---------------------------------------------------------------- assertions
  always @(*) begin
    if (init_q) begin
      assert (aw_pend_q <= 2'd1 && w_pend_q <= 2'd1 && ar_pend_q <= 2'd1);
      if (bvalid_i) assert (b_pending);
      if (rvalid_i) assert (r_pending);
      if (b_pending && !bvalid_i) assert (bwait_q < 4'(MaxLatency));
      if (r_pending && !rvalid_i) assert (rwait_q < 4'(MaxLatency));
      if (JointAwW) assert (aw_hs == w_hs && aw_pend_q == w_pend_q);
      if (!HasSlverr && bvalid_i) assert (bresp_i == 2'b00);
      if (!HasSlverr && rvalid_i) assert (rresp_i == 2'b00);
    end
  end

  always @(posedge clk_i) begin
    if (init_q && $past(init_q) && $past(rst_ni) && rst_ni) begin
      if ($past(bvalid_i && !bready_i)) begin
        assert (bvalid_i);
        assert (bresp_i == $past(bresp_i));
      end
      if ($past(rvalid_i && !rready_i)) begin
        assert (rvalid_i);
        assert (rdata_i == $past(rdata_i));
        assert (rresp_i == $past(rresp_i));
      end
    end
  end

  // ---------------------------------------------------------------- covers
  always @(posedge clk_i) begin
    if (init_q && rst_ni) begin
      cover (b_hs && bresp_i == 2'b00);
      cover (r_hs && rresp_i == 2'b00);
      if (HasSlverr) cover (b_hs && bresp_i == RESP_SLVERR);
      if (HasSlverr) cover (r_hs && rresp_i == RESP_SLVERR);
      // Responses held under back-pressure, then taken.
      cover ($past(bvalid_i && !bready_i) && $past(rst_ni) && b_hs);
      cover ($past(rvalid_i && !rready_i) && $past(rst_ni) && r_hs);
      // A write and a read accepted in the same cycle.
      cover (aw_hs && w_hs && ar_hs);
      // Two writes and two reads answered in a row.
      cover ($past(b_hs, 2) && b_hs && $past(r_hs, 2) && r_hs && $past(rst_ni, 2));
    end
  end

endmodule

`default_nettype wire
