// SPDX-License-Identifier: Apache-2.0
// Vitis RTL kernel around fsm_top: commands and a table image from DDR; results
// and masks back to DDR.
//
// Arguments (docs/kernels.md): cmd_ptr, cmd_words, rsp_ptr, rsp_capacity,
// mask_ptr, mask_capacity, table_ptr, table_bytes. m_axi_gmem carries the
// commands and results, m_axi_gmem1 the table image and the masks, so wide
// mask traffic never queues behind commands. Results: rsp_words, mask_words,
// status. Grammars and slots persist between runs; table_bytes = 0 streams
// no image (a LOAD command then waits for one, so do not send LOAD then).
`default_nettype none

module krnl_fsm #(
  parameter int VocabMax  = 50257,
  parameter int ClassW    = 9,
  parameter int StateW    = 12,
  parameter int RowW      = 8,
  parameter int NsCap     = 262144,
  parameter int RowCap    = 128,
  parameter int NSlots    = 64,
  parameter int NGrammars = 4,
  parameter int C_S_AXI_CONTROL_ADDR_WIDTH = 7
) (
  input  wire logic        ap_clk,
  input  wire logic        ap_rst_n,

  // s_axi_control (ap_ctrl_hs)
  input  wire logic [C_S_AXI_CONTROL_ADDR_WIDTH-1:0] s_axi_control_awaddr,
  input  wire logic        s_axi_control_awvalid,
  output logic             s_axi_control_awready,
  input  wire logic [31:0] s_axi_control_wdata,
  input  wire logic [3:0]  s_axi_control_wstrb,
  input  wire logic        s_axi_control_wvalid,
  output logic             s_axi_control_wready,
  output logic [1:0]       s_axi_control_bresp,
  output logic             s_axi_control_bvalid,
  input  wire logic        s_axi_control_bready,
  input  wire logic [C_S_AXI_CONTROL_ADDR_WIDTH-1:0] s_axi_control_araddr,
  input  wire logic        s_axi_control_arvalid,
  output logic             s_axi_control_arready,
  output logic [31:0]      s_axi_control_rdata,
  output logic [1:0]       s_axi_control_rresp,
  output logic             s_axi_control_rvalid,
  input  wire logic        s_axi_control_rready,

  // m_axi_gmem: 64-bit address, 64-bit data, one ID (always 0: in-order use)
  output logic [0:0]       m_axi_gmem_awid,
  output logic [63:0]      m_axi_gmem_awaddr,
  output logic [7:0]       m_axi_gmem_awlen,
  output logic [2:0]       m_axi_gmem_awsize,
  output logic [1:0]       m_axi_gmem_awburst,
  output logic             m_axi_gmem_awvalid,
  input  wire logic        m_axi_gmem_awready,
  output logic [63:0]      m_axi_gmem_wdata,
  output logic [7:0]       m_axi_gmem_wstrb,
  output logic             m_axi_gmem_wlast,
  output logic             m_axi_gmem_wvalid,
  input  wire logic        m_axi_gmem_wready,
  input  wire logic [0:0]  m_axi_gmem_bid,
  input  wire logic [1:0]  m_axi_gmem_bresp,
  input  wire logic        m_axi_gmem_bvalid,
  output logic             m_axi_gmem_bready,
  output logic [0:0]       m_axi_gmem_arid,
  output logic [63:0]      m_axi_gmem_araddr,
  output logic [7:0]       m_axi_gmem_arlen,
  output logic [2:0]       m_axi_gmem_arsize,
  output logic [1:0]       m_axi_gmem_arburst,
  output logic             m_axi_gmem_arvalid,
  input  wire logic        m_axi_gmem_arready,
  input  wire logic [0:0]  m_axi_gmem_rid,
  input  wire logic [63:0] m_axi_gmem_rdata,
  input  wire logic [1:0]  m_axi_gmem_rresp,
  input  wire logic        m_axi_gmem_rlast,
  input  wire logic        m_axi_gmem_rvalid,
  output logic             m_axi_gmem_rready,

  // m_axi_gmem1: the table image in, masks out (same shape as m_axi_gmem)
  output logic [0:0]       m_axi_gmem1_awid,
  output logic [63:0]      m_axi_gmem1_awaddr,
  output logic [7:0]       m_axi_gmem1_awlen,
  output logic [2:0]       m_axi_gmem1_awsize,
  output logic [1:0]       m_axi_gmem1_awburst,
  output logic             m_axi_gmem1_awvalid,
  input  wire logic        m_axi_gmem1_awready,
  output logic [63:0]      m_axi_gmem1_wdata,
  output logic [7:0]       m_axi_gmem1_wstrb,
  output logic             m_axi_gmem1_wlast,
  output logic             m_axi_gmem1_wvalid,
  input  wire logic        m_axi_gmem1_wready,
  input  wire logic [0:0]  m_axi_gmem1_bid,
  input  wire logic [1:0]  m_axi_gmem1_bresp,
  input  wire logic        m_axi_gmem1_bvalid,
  output logic             m_axi_gmem1_bready,
  output logic [0:0]       m_axi_gmem1_arid,
  output logic [63:0]      m_axi_gmem1_araddr,
  output logic [7:0]       m_axi_gmem1_arlen,
  output logic [2:0]       m_axi_gmem1_arsize,
  output logic [1:0]       m_axi_gmem1_arburst,
  output logic             m_axi_gmem1_arvalid,
  input  wire logic        m_axi_gmem1_arready,
  input  wire logic [0:0]  m_axi_gmem1_rid,
  input  wire logic [63:0] m_axi_gmem1_rdata,
  input  wire logic [1:0]  m_axi_gmem1_rresp,
  input  wire logic        m_axi_gmem1_rlast,
  input  wire logic        m_axi_gmem1_rvalid,
  output logic             m_axi_gmem1_rready,

  output logic             interrupt
);

  localparam int NumArgs = 8;
  localparam int NumOuts = 3;
  localparam int MaskW   = 512;
  localparam int LoadW   = 512;
  localparam int RspW    = fsm_pkg::RSP_W;

  logic start, done_pulse;
  logic [64*NumArgs-1:0] args;
  logic [32*NumOuts-1:0] outs;
  logic [63:0] cmd_ptr, rsp_ptr, mask_ptr, table_ptr;
  logic [31:0] cmd_words, rsp_cap, mask_cap, table_bytes;
  assign cmd_ptr     = args[0 +: 64];
  assign cmd_words   = args[64 +: 32];
  assign rsp_ptr     = args[128 +: 64];
  assign rsp_cap     = args[192 +: 32];
  assign mask_ptr    = args[256 +: 64];
  assign mask_cap    = args[320 +: 32];
  assign table_ptr   = args[384 +: 64];
  assign table_bytes = args[448 +: 32];

  top_ctrl_hs #(
    .NumArgs (NumArgs),
    .NumOuts (NumOuts),
    .AddrW   (C_S_AXI_CONTROL_ADDR_WIDTH)
  ) u_ctrl (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .s_awaddr_i  (s_axi_control_awaddr),
    .s_awvalid_i (s_axi_control_awvalid),
    .s_awready_o (s_axi_control_awready),
    .s_wdata_i   (s_axi_control_wdata),
    .s_wstrb_i   (s_axi_control_wstrb),
    .s_wvalid_i  (s_axi_control_wvalid),
    .s_wready_o  (s_axi_control_wready),
    .s_bresp_o   (s_axi_control_bresp),
    .s_bvalid_o  (s_axi_control_bvalid),
    .s_bready_i  (s_axi_control_bready),
    .s_araddr_i  (s_axi_control_araddr),
    .s_arvalid_i (s_axi_control_arvalid),
    .s_arready_o (s_axi_control_arready),
    .s_rdata_o   (s_axi_control_rdata),
    .s_rresp_o   (s_axi_control_rresp),
    .s_rvalid_o  (s_axi_control_rvalid),
    .s_rready_i  (s_axi_control_rready),
    .start_o     (start),
    .done_i      (done_pulse),
    .args_o      (args),
    .outs_i      (outs),
    .interrupt_o (interrupt)
  );

  // ---------------------------------------------------------------- run control
  // A run ends when every command word is read and framed, every command has its
  // results (one per frame, but one per named slot for a MASK_BATCH packet), every
  // mask an OK MASK or MASK_BATCH result announced has arrived, and both writers
  // have drained; a misaligned buffer ends it at once.
  logic running_q, misaligned_q, go;
  logic rd_done, fr_done, tb_done, rsp_idle, mask_idle, rsp_ovf, mask_ovf;
  logic [31:0] frames, results_q, masks_due_q, masks_q, rsp_words, mask_words;
  logic misaligned;
  assign misaligned = (cmd_ptr[2:0] != 3'b000) || (rsp_ptr[2:0] != 3'b000) ||
                      (mask_ptr[2:0] != 3'b000) || (table_ptr[2:0] != 3'b000);
  assign go = start && !misaligned;

  logic             rsp_valid, rsp_ready, rsp_last;
  logic [RspW-1:0]  rsp_data;
  logic             mask_valid, mask_ready, mask_last;
  logic [MaskW-1:0] mask_data;

  logic [31:0] due_q;
  logic all_results;
  assign all_results = rd_done && fr_done && results_q == due_q;

  logic finished;
  assign finished = running_q && (misaligned_q ||
                    (all_results && masks_q == masks_due_q && rsp_idle && mask_idle));

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      running_q    <= 1'b0;
      misaligned_q <= 1'b0;
      results_q    <= '0;
      masks_due_q  <= '0;
      masks_q      <= '0;
      done_pulse   <= 1'b0;
    end else begin
      done_pulse <= 1'b0;
      if (start) begin
        running_q    <= 1'b1;
        misaligned_q <= misaligned;
        results_q    <= '0;
        masks_due_q  <= '0;
        masks_q      <= '0;
      end else begin
        if (finished) begin
          running_q  <= 1'b0;
          done_pulse <= 1'b1;
        end
        if (rsp_valid && rsp_ready) begin
          results_q <= results_q + 1'b1;
          // An OK MASK or MASK_BATCH result announces one mask frame on the mask stream.
          if ((rsp_data[7:0] == fsm_pkg::OP_MASK || rsp_data[7:0] == fsm_pkg::OP_MASK_BATCH) &&
              rsp_data[15:8] == fsm_pkg::ST_OK) begin
            masks_due_q <= masks_due_q + 1'b1;
          end
        end
        if (mask_valid && mask_ready && mask_last) masks_q <= masks_q + 1'b1;
      end
    end
  end

  assign outs = {{29'h0, misaligned_q, mask_ovf, rsp_ovf}, mask_words, rsp_words};

  // ---------------------------------------------------------------- commands in
  logic        rd_valid, rd_ready, cmd_valid, cmd_ready, cmd_last;
  logic [63:0] rd_data, cmd_data;

  top_axi_reader u_cmd_reader (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .base_i      (cmd_ptr),
    .beats_i     (cmd_words),
    .done_o      (rd_done),
    .m_araddr_o  (m_axi_gmem_araddr),
    .m_arlen_o   (m_axi_gmem_arlen),
    .m_arvalid_o (m_axi_gmem_arvalid),
    .m_arready_i (m_axi_gmem_arready),
    .m_rdata_i   (m_axi_gmem_rdata),
    .m_rlast_i   (m_axi_gmem_rlast),
    .m_rvalid_i  (m_axi_gmem_rvalid),
    .m_rready_o  (m_axi_gmem_rready),
    .out_valid_o (rd_valid),
    .out_ready_i (rd_ready),
    .out_data_o  (rd_data)
  );

  top_framer u_framer (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .words_i     (cmd_words),
    .done_o      (fr_done),
    .frames_o    (frames),
    .in_valid_i  (rd_valid),
    .in_ready_o  (rd_ready),
    .in_data_i   (rd_data),
    .out_valid_o (cmd_valid),
    .out_ready_i (cmd_ready),
    .out_data_o  (cmd_data),
    .out_last_o  (cmd_last)
  );

  // Results due, counted on the command stream into the core: a frame's header
  // beat owes one, and each further beat of a MASK_BATCH packet one more.
  logic        in_frame_q, batch_q;
  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n || start) begin
      due_q      <= '0;
      in_frame_q <= 1'b0;
      batch_q    <= 1'b0;
    end else if (cmd_valid && cmd_ready) begin
      if (!in_frame_q || batch_q) due_q <= due_q + 1'b1;
      if (!in_frame_q) batch_q <= (cmd_data[7:0] == fsm_pkg::OP_MASK_BATCH);
      in_frame_q <= !cmd_last;
    end
  end


  // ---------------------------------------------------------------- table image in
  logic              tw_valid, tw_ready, ld_valid, ld_ready, ld_last;
  logic [63:0]       tw_data;
  logic [LoadW-1:0]  ld_data;
  logic [LoadW/8-1:0] ld_keep;
  logic [31:0]       table_words;
  assign table_words = (table_bytes + 32'd7) >> 3;

  top_axi_reader u_table_reader (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .base_i      (table_ptr),
    .beats_i     (table_words),
    .done_o      (tb_done),
    .m_araddr_o  (m_axi_gmem1_araddr),
    .m_arlen_o   (m_axi_gmem1_arlen),
    .m_arvalid_o (m_axi_gmem1_arvalid),
    .m_arready_i (m_axi_gmem1_arready),
    .m_rdata_i   (m_axi_gmem1_rdata),
    .m_rlast_i   (m_axi_gmem1_rlast),
    .m_rvalid_i  (m_axi_gmem1_rvalid),
    .m_rready_o  (m_axi_gmem1_rready),
    .out_valid_o (tw_valid),
    .out_ready_i (tw_ready),
    .out_data_o  (tw_data)
  );

  top_width_up #(
    .OutW (LoadW)
  ) u_pack (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .bytes_i     (table_bytes),
    .in_valid_i  (tw_valid),
    .in_ready_o  (tw_ready),
    .in_data_i   (tw_data),
    .out_valid_o (ld_valid),
    .out_ready_i (ld_ready),
    .out_data_o  (ld_data),
    .out_keep_o  (ld_keep),
    .out_last_o  (ld_last)
  );

  // ---------------------------------------------------------------- the core
  logic [1:0]  csr_bresp, csr_rresp;
  logic        csr_awready, csr_wready, csr_bvalid, csr_arready, csr_rvalid, core_irq;
  logic [31:0] csr_rdata;

  fsm_top #(
    .VocabMax  (VocabMax),
    .ClassW    (ClassW),
    .StateW    (StateW),
    .RowW      (RowW),
    .NsCap     (NsCap),
    .RowCap    (RowCap),
    .NSlots    (NSlots),
    .NGrammars (NGrammars),
    .MaskW     (MaskW),
    .LoadW     (LoadW)
  ) u_fsm (
    .clk_i              (ap_clk),
    .rst_ni             (ap_rst_n),
    .s_axis_cmd_tvalid  (cmd_valid),
    .s_axis_cmd_tready  (cmd_ready),
    .s_axis_cmd_tdata   (cmd_data),
    .s_axis_cmd_tlast   (cmd_last),
    .m_axis_rsp_tvalid  (rsp_valid),
    .m_axis_rsp_tready  (rsp_ready),
    .m_axis_rsp_tdata   (rsp_data),
    .m_axis_rsp_tlast   (rsp_last),
    .m_axis_mask_tvalid (mask_valid),
    .m_axis_mask_tready (mask_ready),
    .m_axis_mask_tdata  (mask_data),
    .m_axis_mask_tlast  (mask_last),
    .s_axis_load_tvalid (ld_valid),
    .s_axis_load_tready (ld_ready),
    .s_axis_load_tdata  (ld_data),
    .s_axis_load_tkeep  (ld_keep),
    .s_axis_load_tlast  (ld_last),
    // The core's CSRs are not mapped into the kernel: results carry what the
    // host needs, and the violation interrupt is replaced by ap_done.
    .s_axil_awaddr      (8'h00),
    .s_axil_awvalid     (1'b0),
    .s_axil_awready     (csr_awready),
    .s_axil_wdata       (32'h0),
    .s_axil_wstrb       (4'h0),
    .s_axil_wvalid      (1'b0),
    .s_axil_wready      (csr_wready),
    .s_axil_bresp       (csr_bresp),
    .s_axil_bvalid      (csr_bvalid),
    .s_axil_bready      (1'b1),
    .s_axil_araddr      (8'h00),
    .s_axil_arvalid     (1'b0),
    .s_axil_arready     (csr_arready),
    .s_axil_rdata       (csr_rdata),
    .s_axil_rresp       (csr_rresp),
    .s_axil_rvalid      (csr_rvalid),
    .s_axil_rready      (1'b1),
    .irq_o              (core_irq)
  );

  // ---------------------------------------------------------------- results and masks out
  logic        rw_valid, rw_ready, rw_last, mw_valid, mw_ready, mw_last;
  logic [63:0] rw_data, mw_data;

  top_width_down #(
    .InW (RspW)
  ) u_rsp_words (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .in_valid_i  (rsp_valid),
    .in_ready_o  (rsp_ready),
    .in_data_i   (rsp_data),
    .in_last_i   (rsp_last),
    .out_valid_o (rw_valid),
    .out_ready_i (rw_ready),
    .out_data_o  (rw_data),
    .out_last_o  (rw_last)
  );

  top_axi_writer u_rsp_writer (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .base_i      (rsp_ptr),
    .cap_i       (rsp_cap),
    .flush_i     (all_results && !rw_valid),
    .idle_o      (rsp_idle),
    .written_o   (rsp_words),
    .overflow_o  (rsp_ovf),
    .in_valid_i  (rw_valid),
    .in_ready_o  (rw_ready),
    .in_data_i   (rw_data),
    .m_awaddr_o  (m_axi_gmem_awaddr),
    .m_awlen_o   (m_axi_gmem_awlen),
    .m_awvalid_o (m_axi_gmem_awvalid),
    .m_awready_i (m_axi_gmem_awready),
    .m_wdata_o   (m_axi_gmem_wdata),
    .m_wlast_o   (m_axi_gmem_wlast),
    .m_wvalid_o  (m_axi_gmem_wvalid),
    .m_wready_i  (m_axi_gmem_wready),
    .m_bvalid_i  (m_axi_gmem_bvalid),
    .m_bready_o  (m_axi_gmem_bready)
  );

  top_width_down #(
    .InW (MaskW)
  ) u_mask_words (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .in_valid_i  (mask_valid),
    .in_ready_o  (mask_ready),
    .in_data_i   (mask_data),
    .in_last_i   (mask_last),
    .out_valid_o (mw_valid),
    .out_ready_i (mw_ready),
    .out_data_o  (mw_data),
    .out_last_o  (mw_last)
  );

  top_axi_writer u_mask_writer (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .base_i      (mask_ptr),
    .cap_i       (mask_cap),
    .flush_i     (all_results && masks_q == masks_due_q && !mw_valid),
    .idle_o      (mask_idle),
    .written_o   (mask_words),
    .overflow_o  (mask_ovf),
    .in_valid_i  (mw_valid),
    .in_ready_o  (mw_ready),
    .in_data_i   (mw_data),
    .m_awaddr_o  (m_axi_gmem1_awaddr),
    .m_awlen_o   (m_axi_gmem1_awlen),
    .m_awvalid_o (m_axi_gmem1_awvalid),
    .m_awready_i (m_axi_gmem1_awready),
    .m_wdata_o   (m_axi_gmem1_wdata),
    .m_wlast_o   (m_axi_gmem1_wlast),
    .m_wvalid_o  (m_axi_gmem1_wvalid),
    .m_wready_i  (m_axi_gmem1_wready),
    .m_bvalid_i  (m_axi_gmem1_bvalid),
    .m_bready_o  (m_axi_gmem1_bready)
  );

  // Only the read half of m_axi_gmem1 and the write half of both ports are
  // used as described; tie the rest.
  assign m_axi_gmem_awsize   = 3'd3;
  assign m_axi_gmem_awburst  = 2'b01;
  assign m_axi_gmem_arsize   = 3'd3;
  assign m_axi_gmem_arburst  = 2'b01;
  assign m_axi_gmem_wstrb    = 8'hFF;
  assign m_axi_gmem_awid     = 1'b0;
  assign m_axi_gmem_arid     = 1'b0;
  assign m_axi_gmem1_awsize  = 3'd3;
  assign m_axi_gmem1_awburst = 2'b01;
  assign m_axi_gmem1_arsize  = 3'd3;
  assign m_axi_gmem1_arburst = 2'b01;
  assign m_axi_gmem1_wstrb   = 8'hFF;
  assign m_axi_gmem1_awid    = 1'b0;
  assign m_axi_gmem1_arid    = 1'b0;

  logic unused;
  assign unused = ^{frames, m_axi_gmem_bid, m_axi_gmem_rid, m_axi_gmem_bresp, m_axi_gmem_rresp,
                    m_axi_gmem1_bid, m_axi_gmem1_rid, m_axi_gmem1_bresp, m_axi_gmem1_rresp,
                    csr_bresp, csr_rresp, csr_awready, csr_wready, csr_bvalid, csr_arready,
                    csr_rvalid, csr_rdata, core_irq, rw_last, mw_last, tb_done,
                    args[96 +: 32], args[224 +: 32], args[352 +: 32], args[480 +: 32]};

endmodule

`default_nettype wire
