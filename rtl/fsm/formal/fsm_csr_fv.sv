// SPDX-License-Identifier: Apache-2.0
// Formal harness of fsm_csr: the AXI4-Lite slave contract (common_axil_slave_props),
// answer in the cycle after acceptance, SLVERR reachable. The core's event and
// status inputs are unconstrained. Formal only; see fsm_csr.sby.
`default_nettype none

module fsm_csr_fv #(
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
  input  wire logic             res_valid_i,
  input  wire logic [7:0]       res_op_i,
  input  wire logic [7:0]       res_status_i,
  input  wire logic             res_accepted_i,
  input  wire logic             viol_valid_i,
  input  wire logic [15:0]      viol_slot_i,
  input  wire logic [31:0]      viol_pos_i,
  input  wire logic [31:0]      viol_token_i,
  input  wire logic             mask_beat_i,
  input  wire logic [15:0]      loaded_i,
  input  wire logic             busy_i,
  input  wire logic             loading_i
);

  // Named as common_axil_slave_props' ports, which are connected by `.*`.
  logic        awready_i, wready_i, bvalid_i, arready_i, rvalid_i;
  logic [1:0]  bresp_i, rresp_i;
  logic [31:0] rdata_i;
  logic        irq;

  fsm_csr #(.AddrW(AddrW)) u_dut (
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
    .res_valid_i      (res_valid_i),
    .res_op_i         (res_op_i),
    .res_status_i     (res_status_i),
    .res_accepted_i   (res_accepted_i),
    .viol_valid_i     (viol_valid_i),
    .viol_slot_i      (viol_slot_i),
    .viol_pos_i       (viol_pos_i),
    .viol_token_i     (viol_token_i),
    .mask_beat_i      (mask_beat_i),
    .loaded_i         (loaded_i),
    .busy_i           (busy_i),
    .loading_i        (loading_i),
    .irq_o            (irq)
  );

  common_axil_slave_props #(
    .AddrW      (AddrW),
    .MaxLatency (0),
    .HasSlverr  (1'b1)
  ) u_props (.*);

  // The interrupt is reached.
  always @(posedge clk_i) begin
    if (rst_ni) cover (irq);
  end

endmodule

`default_nettype wire
