// SPDX-License-Identifier: Apache-2.0
// Vitis RTL-kernel control: the ap_ctrl_hs register map on AXI4-Lite, plus arguments.
//
// 0x00 control: [0] ap_start (set by host, cleared when the kernel takes it),
//      [1] ap_done (clear on read), [2] ap_idle, [3] ap_ready (clear on read)
// 0x04 GIE [0]; 0x08 IER [0] done; 0x0C ISR [0] done (write 1 toggles)
// 0x10 arg0 lo, 0x14 arg0 hi, 0x18 arg1 lo, ... : NumArgs 64-bit arguments,
// then NumOuts read-only 32-bit results. The map is top_ctrl_pkg::CSR_*, generated
// from rtl/top/top_ctrl_regs.yml; docs/kernels.md has its table and each kernel's.
`default_nettype none

`include "common_macros.svh"

module top_ctrl_hs #(
  // 64-bit host-written arguments, 1..8.
  parameter int NumArgs = 4,
  // 32-bit kernel-written results, 0..4.
  parameter int NumOuts = 2,
  // Byte-address width; 7 covers 0x00..0x7F.
  parameter int AddrW   = 7
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  input  wire logic [AddrW-1:0]   s_awaddr_i,
  input  wire logic               s_awvalid_i,
  output logic                    s_awready_o,
  input  wire logic [31:0]        s_wdata_i,
  input  wire logic [3:0]         s_wstrb_i,
  input  wire logic               s_wvalid_i,
  output logic                    s_wready_o,
  output logic [1:0]              s_bresp_o,
  output logic                    s_bvalid_o,
  input  wire logic               s_bready_i,
  input  wire logic [AddrW-1:0]   s_araddr_i,
  input  wire logic               s_arvalid_i,
  output logic                    s_arready_o,
  output logic [31:0]             s_rdata_o,
  output logic [1:0]              s_rresp_o,
  output logic                    s_rvalid_o,
  input  wire logic               s_rready_i,

  output logic                    start_o,      // one-cycle pulse: run with args_o
  input  wire logic               done_i,       // one-cycle pulse: run finished
  output logic [64*NumArgs-1:0]   args_o,
  input  wire logic [32*NumOuts-1:0] outs_i,
  output logic                    interrupt_o
);

  `COMMON_PARAM_CHECK(g_bad_args, NumArgs >= 1 && NumArgs <= 8, "top_ctrl_hs: NumArgs")
  `COMMON_PARAM_CHECK(g_bad_outs, NumOuts >= 0 && NumOuts <= 4, "top_ctrl_hs: NumOuts")

  localparam int ArgBase = top_ctrl_pkg::CSR_ARG_BASE;   // word index of 0x10
  localparam int OutBase = ArgBase + 2 * NumArgs;

  logic ap_start_q, ap_done_q, ap_idle_q, ap_ready_q, gie_q, ier_q, isr_q;
  logic [31:0] arg_q [2 * NumArgs];

  // ---------------------------------------------------------------- writes
  logic             wr_take;
  logic [AddrW-3:0] wr_word;
  assign wr_take     = s_awvalid_i && s_wvalid_i && !s_bvalid_o;
  assign s_awready_o = wr_take;
  assign s_wready_o  = wr_take;
  assign wr_word     = s_awaddr_i[AddrW-1:2];
  assign s_bresp_o   = 2'b00;

  // ---------------------------------------------------------------- reads
  logic             rd_take;
  logic [AddrW-3:0] rd_word;
  logic [31:0]      rd_value;
  assign rd_take     = s_arvalid_i && s_arready_o;
  assign rd_word     = s_araddr_i[AddrW-1:2];
  assign s_arready_o = !s_rvalid_o;
  assign s_rresp_o   = 2'b00;

  always_comb begin
    rd_value = 32'h0;
    if (32'(rd_word) == 32'(top_ctrl_pkg::CSR_AP_CTRL)) begin
      rd_value = {28'h0, ap_ready_q, ap_idle_q, ap_done_q, ap_start_q};
    end else if (32'(rd_word) == 32'(top_ctrl_pkg::CSR_GIE)) begin
      rd_value = {31'h0, gie_q};
    end else if (32'(rd_word) == 32'(top_ctrl_pkg::CSR_IER)) begin
      rd_value = {31'h0, ier_q};
    end else if (32'(rd_word) == 32'(top_ctrl_pkg::CSR_ISR)) begin
      rd_value = {31'h0, isr_q};
    end else if (32'(rd_word) >= ArgBase && 32'(rd_word) < OutBase) begin
      rd_value = arg_q[32'(rd_word) - ArgBase];
    end else if (32'(rd_word) >= OutBase && 32'(rd_word) < OutBase + NumOuts) begin
      rd_value = outs_i[32 * (32'(rd_word) - OutBase) +: 32];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s_bvalid_o <= 1'b0;
      s_rvalid_o <= 1'b0;
      ap_start_q <= 1'b0;
      ap_done_q  <= 1'b0;
      ap_idle_q  <= 1'b1;
      ap_ready_q <= 1'b0;
      gie_q      <= 1'b0;
      ier_q      <= 1'b0;
      isr_q      <= 1'b0;
    end else begin
      if (s_bvalid_o && s_bready_i) s_bvalid_o <= 1'b0;
      if (s_rvalid_o && s_rready_i) s_rvalid_o <= 1'b0;
      if (wr_take) s_bvalid_o <= 1'b1;
      if (rd_take) s_rvalid_o <= 1'b1;

      // ap_start is taken in the cycle after the host sets it.
      if (ap_start_q) begin
        ap_start_q <= 1'b0;
        ap_idle_q  <= 1'b0;
        ap_ready_q <= 1'b1;
      end
      if (done_i) begin
        ap_done_q <= 1'b1;
        ap_idle_q <= 1'b1;
        if (ier_q) isr_q <= 1'b1;
      end
      // Clear-on-read of done and ready, as HLS kernels do; a done or a start taken in
      // the read's own cycle sets its bit again (the read returned the value before it).
      if (rd_take && 32'(rd_word) == 32'(top_ctrl_pkg::CSR_AP_CTRL)) begin
        if (!done_i) ap_done_q <= 1'b0;
        if (!ap_start_q) ap_ready_q <= 1'b0;
      end
      if (wr_take && s_wstrb_i[0]) begin
        if (32'(wr_word) == 32'(top_ctrl_pkg::CSR_AP_CTRL) && s_wdata_i[0] && ap_idle_q &&
            !ap_start_q) begin
          ap_start_q <= 1'b1;
        end
        if (32'(wr_word) == 32'(top_ctrl_pkg::CSR_GIE)) gie_q <= s_wdata_i[0];
        if (32'(wr_word) == 32'(top_ctrl_pkg::CSR_IER)) ier_q <= s_wdata_i[0];
        // A done in the toggling cycle wins: the interrupt it raises is not lost.
        if (32'(wr_word) == 32'(top_ctrl_pkg::CSR_ISR) && s_wdata_i[0] &&
            !(done_i && ier_q)) begin
          isr_q <= !isr_q;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (rd_take) s_rdata_o <= rd_value;
    if (wr_take && 32'(wr_word) >= ArgBase && 32'(wr_word) < OutBase) begin
      arg_q[32'(wr_word) - ArgBase] <= s_wdata_i;
    end
  end

  for (genvar i = 0; i < NumArgs; i++) begin : g_args
    assign args_o[64*i +: 64] = {arg_q[2*i+1], arg_q[2*i]};
  end

  assign start_o     = ap_start_q;
  assign interrupt_o = gie_q && isr_q;

  logic unused;
  assign unused = ^{s_awaddr_i[1:0], s_araddr_i[1:0], s_wstrb_i[3:1]};

  // AXI4-Lite protocol rules on the slave port, live in every simulation.
  `COMMON_AXIL_CHECK(u_axil_chk, AddrW, s_)

endmodule

`default_nettype wire
