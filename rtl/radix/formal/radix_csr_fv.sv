// SPDX-License-Identifier: Apache-2.0
// Formal harness of radix_csr: the AXI4-Lite slave contract (common_axil_slave_props,
// answer in the cycle after acceptance, SLVERR reachable), plus the interrupt's
// write-1-to-clear rule against a shadow of its two bits: a clear and a new error in
// the same cycle leave the interrupt pending, and a read of ID returns the ID. The
// core's status and counter inputs are unconstrained. Formal only; see radix_csr.sby.
`default_nettype none

module radix_csr_fv #(
  parameter int AddrW = 8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [AddrW-1:0] awaddr_i,
  input  wire logic             awvalid_i,
  input  wire logic [31:0]      wdata_i,
  input  wire logic [3:0]       wstrb_i,
  input  wire logic             wvalid_i,
  input  wire logic             bready_i,
  input  wire logic [AddrW-1:0] araddr_i,
  input  wire logic             arvalid_i,
  input  wire logic             rready_i,
  input  wire logic             busy_i,
  input  wire logic             init_done_i,
  input  wire logic             error_i,
  input  wire logic [7:0]       last_error_i,
  input  wire logic [31:0]      counter_i     // every size and counter input
);

  // Named as common_axil_slave_props' ports, which are connected by `.*`.
  logic        awready_i, wready_i, bvalid_i, arready_i, rvalid_i;
  logic [1:0]  bresp_i, rresp_i;
  logic [31:0] rdata_i;
  logic        irq;

  radix_csr #(.AddrW(AddrW)) u_dut (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .s_axil_awaddr_i  (awaddr_i),
    .s_axil_awvalid_i (awvalid_i),
    .s_axil_awready_o (awready_i),
    .s_axil_wdata_i   (wdata_i),
    .s_axil_wstrb_i   (wstrb_i),
    .s_axil_wvalid_i  (wvalid_i),
    .s_axil_wready_o  (wready_i),
    .s_axil_bresp_o   (bresp_i),
    .s_axil_bvalid_o  (bvalid_i),
    .s_axil_bready_i  (bready_i),
    .s_axil_araddr_i  (araddr_i),
    .s_axil_arvalid_i (arvalid_i),
    .s_axil_arready_o (arready_i),
    .s_axil_rdata_o   (rdata_i),
    .s_axil_rresp_o   (rresp_i),
    .s_axil_rvalid_o  (rvalid_i),
    .s_axil_rready_i  (rready_i),
    .busy_i           (busy_i),
    .init_done_i      (init_done_i),
    .error_i          (error_i),
    .last_error_i     (last_error_i),
    .evictable_i      (counter_i),
    .protected_i      (counter_i),
    .total_i          (counter_i),
    .free_nodes_i     (counter_i),
    .free_slots_i     (counter_i),
    .lookups_i        (counter_i),
    .queried_i        (counter_i),
    .hit_i            (counter_i),
    .inserts_i        (counter_i),
    .inserted_i       (counter_i),
    .splits_i         (counter_i),
    .evicted_nodes_i  (counter_i),
    .evicted_tokens_i (counter_i),
    .errors_i         (counter_i),
    .busy_cycles_i    (counter_i),
    .walk_cycles_i    (counter_i),
    .walk_nodes_i     (counter_i),
    .index_used_i     (counter_i),
    .stash_free_i     (counter_i),
    .free_lines_i     (counter_i),
    .evict_skips_i    (counter_i),
    .intake_ahead_i   (counter_i),
    .ovl_walks_i       (counter_i),
    .replays_i         (counter_i),
    .conflicts_split_i (counter_i),
    .conflicts_leaf_i  (counter_i),
    .walk_wait_i       (counter_i),
    .lookup_wait_i     (counter_i),
    .in_flight_i      (counter_i),
    .in_flight_max_i  (counter_i),
    .in_flight_hist_i ({radix_pkg::IN_FLIGHT_BINS{counter_i}}),
    .irq_o            (irq)
  );

  common_axil_slave_props #(
    .AddrW      (AddrW),
    .MaxLatency (0),
    .HasSlverr  (1'b1)
  ) u_props (.*);

  // Shadow of the interrupt: CTRL bit 0 enables; IRQ_STATUS bit 0 is set by an error
  // and cleared by writing 1, and an error in the clearing cycle wins.
  logic wr_take, clear, en_q, pend_q;
  logic past_q = 1'b0;
  logic id_read_q, ar_acc_q;
  // Probes of the DUT's two interrupt bits (radix_csr.sby connects them): the
  // induction needs the shadow tied to them; read only by assertions.
  logic p_en, p_pend;
  assign wr_take = awvalid_i && awready_i && wvalid_i && wready_i;
  assign clear   = wr_take && 32'(awaddr_i[AddrW-1:2]) == 32'(radix_pkg::CSR_IRQ_STATUS) &&
                   wstrb_i[0] && wdata_i[0];
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      en_q   <= 1'b0;
      pend_q <= 1'b0;
      past_q <= 1'b1;
    end else begin
      if (wr_take && 32'(awaddr_i[AddrW-1:2]) == 32'(radix_pkg::CSR_CTRL) && wstrb_i[0])
        en_q <= wdata_i[0];
      pend_q <= error_i || (pend_q && !clear);
    end
    ar_acc_q <= rst_ni && arvalid_i && arready_i;
    if (arvalid_i && arready_i) id_read_q <= 32'(araddr_i[AddrW-1:2]) == 32'(radix_pkg::CSR_ID);
  end

  always @(posedge clk_i) begin
    if (rst_ni && past_q) begin
      assert (p_en == en_q && p_pend == pend_q);
      assert (irq == (en_q && pend_q));
      if (ar_acc_q && id_read_q) assert (rdata_i == radix_pkg::RADIX_ID && rresp_i == 2'b00);
    end
    if (rst_ni) begin
      cover (irq);
      cover (clear && error_i && en_q);     // the race itself
      cover (ar_acc_q && id_read_q);
    end
  end

endmodule

`default_nettype wire
