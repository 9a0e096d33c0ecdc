// SPDX-License-Identifier: Apache-2.0
// Formal harness of top_ctrl_hs (ap_ctrl_hs control block): the AXI4-Lite slave
// contract (common_axil_slave_props), answer in the cycle after acceptance, always OKAY.
// Formal only; top_ctrl_hs.sby proves it in both kernels' configurations.
`default_nettype none

module top_ctrl_hs_fv #(
  parameter int NumArgs = 4,
  parameter int NumOuts = 2,
  parameter int AddrW   = 7
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic [AddrW-1:0]      awaddr_i,
  input  wire logic                  awvalid_i,
  input  wire logic [31:0]           wdata_i,
  input  wire logic [3:0]            wstrb_i,
  input  wire logic                  wvalid_i,
  input  wire logic                  bready_i,
  input  wire logic [AddrW-1:0]      araddr_i,
  input  wire logic                  arvalid_i,
  input  wire logic                  rready_i,
  input  wire logic                  done_i,
  input  wire logic [32*NumOuts-1:0] outs_i
);

  // Named as common_axil_slave_props' ports, which are connected by `.*`.
  logic                  awready_i, wready_i, bvalid_i, arready_i, rvalid_i;
  logic [1:0]            bresp_i, rresp_i;
  logic [31:0]           rdata_i;
  logic                  start, interrupt;
  logic [64*NumArgs-1:0] args;

  top_ctrl_hs #(
    .NumArgs (NumArgs),
    .NumOuts (NumOuts),
    .AddrW   (AddrW)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .s_awaddr_i  (awaddr_i),
    .s_awvalid_i (awvalid_i),
    .s_awready_o (awready_i),
    .s_wdata_i   (wdata_i),
    .s_wstrb_i   (wstrb_i),
    .s_wvalid_i  (wvalid_i),
    .s_wready_o  (wready_i),
    .s_bresp_o   (bresp_i),
    .s_bvalid_o  (bvalid_i),
    .s_bready_i  (bready_i),
    .s_araddr_i  (araddr_i),
    .s_arvalid_i (arvalid_i),
    .s_arready_o (arready_i),
    .s_rdata_o   (rdata_i),
    .s_rresp_o   (rresp_i),
    .s_rvalid_o  (rvalid_i),
    .s_rready_i  (rready_i),
    .start_o     (start),
    .done_i      (done_i),
    .args_o      (args),
    .outs_i      (outs_i),
    .interrupt_o (interrupt)
  );

  common_axil_slave_props #(
    .AddrW      (AddrW),
    .MaxLatency (0),
    .HasSlverr  (1'b0)
  ) u_props (.*);

  // The kernel side is reached: a start pulse and the interrupt.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      cover (start);
      cover (interrupt);
    end
  end

endmodule

`default_nettype wire
