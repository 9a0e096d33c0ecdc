// SPDX-License-Identifier: Apache-2.0
// Token-FSM validator: core plus AXI4-Lite CSRs, flat ports for cocotb and Vitis.
//
// Bus ports keep their standard AXI names (s_axis_cmd_*, m_axis_rsp_*,
// m_axis_mask_*, s_axis_load_*, s_axil_*) so VIPs and Vivado's interface
// inference bind by prefix; the modules inside follow the _i/_o convention.
// docs/fsm-protocol.md describes the streams, registers and cycle model.
`default_nettype none

module fsm_top #(
  // Largest vocabulary size V a grammar may have, 2..2^24 (GPT-2: 50257).
  parameter int VocabMax  = 50257,
  // Largest class / state / mask-row-index width of an image (its class_bits,
  // state_bits, row_bits), 1..16 / 2..16 / 1..16.
  parameter int ClassW    = 9,
  parameter int StateW    = 12,
  parameter int RowW      = 8,
  // Largest comb (compressed next-state table, comb_size entries) of a grammar, 2..2^26.
  parameter int NsCap     = 262144,
  // Largest number of stored mask rows of a grammar, 1..2^RowW-1.
  parameter int RowCap    = 128,
  // Concurrent sequences (slots), 1..256, and resident grammars, 1..15.
  parameter int NSlots    = 64,
  parameter int NGrammars = 4,
  // Mask bits per beat: power of two, 32..LoadW.
  parameter int MaskW     = 512,
  // Table-load stream width: 64, 128, 256 or 512.
  parameter int LoadW     = 512,
  // Result buffer entries, 8..64.
  parameter int RspDepth  = 8,
  // CSR byte-address width, >= 8.
  parameter int AddrW     = 8
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  // Command stream (64-bit beats)
  input  wire logic               s_axis_cmd_tvalid,
  output logic                    s_axis_cmd_tready,
  input  wire logic [fsm_pkg::CMD_W-1:0] s_axis_cmd_tdata,
  input  wire logic               s_axis_cmd_tlast,

  // Result stream (128-bit beats, one per command)
  output logic                    m_axis_rsp_tvalid,
  input  wire logic               m_axis_rsp_tready,
  output logic      [fsm_pkg::RSP_W-1:0] m_axis_rsp_tdata,
  output logic                    m_axis_rsp_tlast,

  // Mask stream (ceil(V/MaskW) beats per MASK, TLAST on the last)
  output logic                    m_axis_mask_tvalid,
  input  wire logic               m_axis_mask_tready,
  output logic      [MaskW-1:0]   m_axis_mask_tdata,
  output logic                    m_axis_mask_tlast,

  // Table-image stream (one image per LOAD command, TLAST on its last beat)
  input  wire logic               s_axis_load_tvalid,
  output logic                    s_axis_load_tready,
  input  wire logic [LoadW-1:0]   s_axis_load_tdata,
  input  wire logic [LoadW/8-1:0] s_axis_load_tkeep,
  input  wire logic               s_axis_load_tlast,

  // AXI4-Lite CSRs
  input  wire logic [AddrW-1:0]   s_axil_awaddr,
  input  wire logic               s_axil_awvalid,
  output logic                    s_axil_awready,
  input  wire logic [31:0]        s_axil_wdata,
  input  wire logic [3:0]         s_axil_wstrb,
  input  wire logic               s_axil_wvalid,
  output logic                    s_axil_wready,
  output logic [1:0]              s_axil_bresp,
  output logic                    s_axil_bvalid,
  input  wire logic               s_axil_bready,
  input  wire logic [AddrW-1:0]   s_axil_araddr,
  input  wire logic               s_axil_arvalid,
  output logic                    s_axil_arready,
  output logic [31:0]             s_axil_rdata,
  output logic [1:0]              s_axil_rresp,
  output logic                    s_axil_rvalid,
  input  wire logic               s_axil_rready,

  // Level interrupt: a violation is pending (IRQ_STATUS) and enabled (CTRL).
  output logic                    irq_o
);

  logic        res_valid, res_accepted, viol_valid, mask_beat, busy, loading;
  logic [7:0]  res_op, res_status;
  logic [15:0] viol_slot, loaded;
  logic [31:0] viol_pos, viol_token;

  fsm_core #(
    .VocabMax  (VocabMax),
    .ClassW    (ClassW),
    .StateW    (StateW),
    .RowW      (RowW),
    .NsCap     (NsCap),
    .RowCap    (RowCap),
    .NSlots    (NSlots),
    .NGrammars (NGrammars),
    .MaskW     (MaskW),
    .LoadW     (LoadW),
    .RspDepth  (RspDepth)
  ) u_core (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_tvalid_i   (s_axis_cmd_tvalid),
    .cmd_tready_o   (s_axis_cmd_tready),
    .cmd_tdata_i    (s_axis_cmd_tdata),
    .cmd_tlast_i    (s_axis_cmd_tlast),
    .rsp_tvalid_o   (m_axis_rsp_tvalid),
    .rsp_tready_i   (m_axis_rsp_tready),
    .rsp_tdata_o    (m_axis_rsp_tdata),
    .rsp_tlast_o    (m_axis_rsp_tlast),
    .mask_tvalid_o  (m_axis_mask_tvalid),
    .mask_tready_i  (m_axis_mask_tready),
    .mask_tdata_o   (m_axis_mask_tdata),
    .mask_tlast_o   (m_axis_mask_tlast),
    .load_tvalid_i  (s_axis_load_tvalid),
    .load_tready_o  (s_axis_load_tready),
    .load_tdata_i   (s_axis_load_tdata),
    .load_tkeep_i   (s_axis_load_tkeep),
    .load_tlast_i   (s_axis_load_tlast),
    .res_valid_o    (res_valid),
    .res_op_o       (res_op),
    .res_status_o   (res_status),
    .res_accepted_o (res_accepted),
    .viol_valid_o   (viol_valid),
    .viol_slot_o    (viol_slot),
    .viol_pos_o     (viol_pos),
    .viol_token_o   (viol_token),
    .mask_beat_o    (mask_beat),
    .loaded_o       (loaded),
    .busy_o         (busy),
    .loading_o      (loading)
  );

  fsm_csr #(
    .AddrW     (AddrW),
    .NSlots    (NSlots),
    .NGrammars (NGrammars),
    .VocabMax  (VocabMax),
    .ClassW    (ClassW),
    .StateW    (StateW),
    .RowW      (RowW),
    .NsCap     (NsCap),
    .RowCap    (RowCap),
    .MaskW     (MaskW),
    .LoadW     (LoadW)
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
    .res_valid_i      (res_valid),
    .res_op_i         (res_op),
    .res_status_i     (res_status),
    .res_accepted_i   (res_accepted),
    .viol_valid_i     (viol_valid),
    .viol_slot_i      (viol_slot),
    .viol_pos_i       (viol_pos),
    .viol_token_i     (viol_token),
    .mask_beat_i      (mask_beat),
    .loaded_i         (loaded),
    .busy_i           (busy),
    .loading_i        (loading),
    .irq_o            (irq_o)
  );

endmodule

`default_nettype wire
