// SPDX-License-Identifier: Apache-2.0
// Vitis RTL kernel around radix_top: commands from DDR, responses to DDR.
//
// Arguments (docs/kernels.md): cmd_ptr, cmd_words, rsp_ptr, rsp_capacity, l2_ptr.
// The command buffer holds length-prefixed frames (top_framer); responses are
// written back to back, TLAST-delimited frames recovered by the host from
// each response's trailer. Results: rsp_words, status. The radix tree lives
// on between runs, as a cache should; send RESET to empty it.
//
// With L2 = 1 the core's tables live in the DDR region at l2_ptr, reached
// through m_axi_l2. The core holds dirty lines of that region between runs, so
// the region is bound for good by the first run after ap_rst_n: the core is
// held in reset until then (its tables initialise when that run starts), and a
// later run naming another l2_ptr is refused whole (status bit 2).
`default_nettype none

module krnl_radix #(
  parameter int NodeCap  = 256,
  parameter int TokenCap = 4096,
  parameter int MaxLen   = 1024,
  parameter int PageSize = 1,
  parameter int NumNs    = 16,
  parameter int HashBuckets = 256,
  parameter int HashWays    = 4,
  parameter int StashDepth  = 4,
  // The L2 tier (radix_core): tables in DDR behind per-table L1 caches.
  parameter int L2          = 1,
  parameter int L1Lines     = 512,
  parameter int L1Ways      = 2,
  parameter int L2Timeout   = 4096,
  parameter int L2Prefetch  = 7,
  parameter int L2IdW       = radix_pkg::L1_IDW + 4,   // derived, do not override
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

  // m_axi_l2: the L2 region (L2 = 1), 64-bit address, 512-bit data, IDs by
  // table and prefetch slot (radix_axi_arb). Idle when L2 = 0.
  output logic [L2IdW-1:0] m_axi_l2_awid,
  output logic [63:0]      m_axi_l2_awaddr,
  output logic [7:0]       m_axi_l2_awlen,
  output logic [2:0]       m_axi_l2_awsize,
  output logic [1:0]       m_axi_l2_awburst,
  output logic             m_axi_l2_awvalid,
  input  wire logic        m_axi_l2_awready,
  output logic [511:0]     m_axi_l2_wdata,
  output logic [63:0]      m_axi_l2_wstrb,
  output logic             m_axi_l2_wlast,
  output logic             m_axi_l2_wvalid,
  input  wire logic        m_axi_l2_wready,
  input  wire logic [L2IdW-1:0] m_axi_l2_bid,
  input  wire logic [1:0]  m_axi_l2_bresp,
  input  wire logic        m_axi_l2_bvalid,
  output logic             m_axi_l2_bready,
  output logic [L2IdW-1:0] m_axi_l2_arid,
  output logic [63:0]      m_axi_l2_araddr,
  output logic [7:0]       m_axi_l2_arlen,
  output logic [2:0]       m_axi_l2_arsize,
  output logic [1:0]       m_axi_l2_arburst,
  output logic             m_axi_l2_arvalid,
  input  wire logic        m_axi_l2_arready,
  input  wire logic [L2IdW-1:0] m_axi_l2_rid,
  input  wire logic [511:0] m_axi_l2_rdata,
  input  wire logic [1:0]  m_axi_l2_rresp,
  input  wire logic        m_axi_l2_rlast,
  input  wire logic        m_axi_l2_rvalid,
  output logic             m_axi_l2_rready,

  output logic             interrupt
);

  localparam int NumArgs = 5;
  // The core's DDR region is whole 4 KiB pages (docs/radix-protocol.md, "L2 tier").
  localparam int L2Align = 12;
  localparam int NumOuts = 2;

  logic start, done_pulse;
  logic [64*NumArgs-1:0] args;
  logic [32*NumOuts-1:0] outs;
  logic [63:0] cmd_ptr, rsp_ptr, l2_ptr;
  logic [31:0] cmd_words, rsp_cap;
  assign cmd_ptr   = args[0 +: 64];
  assign cmd_words = args[64 +: 32];
  assign rsp_ptr   = args[128 +: 64];
  assign rsp_cap   = args[192 +: 32];
  assign l2_ptr    = args[256 +: 64];

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
  // A run ends when every command word is read, every frame has its response,
  // and the writer has drained; a refused run (a misaligned buffer, a moved L2
  // region) ends at once.
  logic running_q, misaligned_q, l2_moved_q, refused_q;
  logic rd_done, fr_done, wr_idle, wr_overflow;
  logic [31:0] frames, responses_q, rsp_words;
  logic misaligned, l2_moved, go;
  logic l2_bound_q;
  logic [63:0] l2_q;
  assign misaligned = (cmd_ptr[2:0] != 3'b000) || (rsp_ptr[2:0] != 3'b000) ||
                      (L2 != 0 && l2_ptr[L2Align-1:0] != '0);
  assign l2_moved   = L2 != 0 && l2_bound_q && l2_ptr != l2_q;
  assign go         = start && !misaligned && !l2_moved;

  logic rsp_valid, rsp_ready, rsp_last;
  logic [63:0] rsp_data;

  logic finished;
  assign finished = running_q &&
                    (refused_q || (rd_done && fr_done && responses_q == frames && wr_idle));

  always_ff @(posedge ap_clk) begin
    if (!ap_rst_n) begin
      running_q    <= 1'b0;
      misaligned_q <= 1'b0;
      l2_moved_q   <= 1'b0;
      refused_q    <= 1'b0;
      responses_q  <= '0;
      done_pulse   <= 1'b0;
      l2_bound_q   <= 1'b0;
      l2_q         <= '0;
    end else begin
      done_pulse <= 1'b0;
      if (start) begin
        running_q    <= 1'b1;
        misaligned_q <= misaligned;
        l2_moved_q   <= l2_moved && !misaligned;
        refused_q    <= !go;
        responses_q  <= '0;
      end else if (finished) begin
        running_q  <= 1'b0;
        done_pulse <= 1'b1;
      end
      if (go && !l2_bound_q) begin
        l2_bound_q <= 1'b1;
        l2_q       <= l2_ptr;
      end
      if (rsp_valid && rsp_ready && rsp_last) responses_q <= responses_q + 1'b1;
    end
  end

  // The core waits in reset for its region (L2 = 1); commands queue in the
  // framer meanwhile, since a core in reset takes none.
  logic core_rst_n;
  assign core_rst_n = ap_rst_n && (L2 == 0 || l2_bound_q);

  // A refused run wrote nothing; the writer still counts the last run's words.
  assign outs = {{29'h0, l2_moved_q, misaligned_q, wr_overflow && !refused_q},
                 refused_q ? 32'h0 : rsp_words};

  // ---------------------------------------------------------------- datapath
  logic rd_valid, rd_ready;
  logic [63:0] rd_data;
  logic cmd_valid, cmd_ready, cmd_last;
  logic [63:0] cmd_data;
  // The core's streams are 512 bits: commands are packed 8 words to a beat,
  // responses unpacked into 8 words per beat.
  logic         wcmd_valid, wcmd_ready, wcmd_last, wrsp_valid, wrsp_ready, wrsp_last;
  logic [511:0] wcmd_data, wrsp_data;

  top_axi_reader u_reader (
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

  logic [1:0]  csr_bresp, csr_rresp;
  logic        csr_awready, csr_wready, csr_bvalid, csr_arready, csr_rvalid, core_irq;
  logic [31:0] csr_rdata;

  top_frame_up #(.OutW(512)) u_cmd_up (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .in_valid_i  (cmd_valid),
    .in_ready_o  (cmd_ready),
    .in_data_i   (cmd_data),
    .in_last_i   (cmd_last),
    .out_valid_o (wcmd_valid),
    .out_ready_i (wcmd_ready),
    .out_data_o  (wcmd_data),
    .out_last_o  (wcmd_last)
  );

  top_width_down #(.InW(512)) u_rsp_down (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .in_valid_i  (wrsp_valid),
    .in_ready_o  (wrsp_ready),
    .in_data_i   (wrsp_data),
    .in_last_i   (wrsp_last),
    .out_valid_o (rsp_valid),
    .out_ready_i (rsp_ready),
    .out_data_o  (rsp_data),
    .out_last_o  (rsp_last)
  );

  radix_top #(
    .NodeCap     (NodeCap),
    .TokenCap    (TokenCap),
    .MaxLen      (MaxLen),
    .PageSize    (PageSize),
    .NumNs       (NumNs),
    .HashBuckets (HashBuckets),
    .HashWays    (HashWays),
    .StashDepth  (StashDepth),
    .L2          (L2),
    .L1Lines     (L1Lines),
    .L1Ways      (L1Ways),
    .L2Timeout   (L2Timeout),
    .L2Prefetch  (L2Prefetch)
  ) u_radix (
    .clk_i             (ap_clk),
    .rst_ni            (core_rst_n),
    .s_axis_cmd_tvalid (wcmd_valid),
    .s_axis_cmd_tready (wcmd_ready),
    .s_axis_cmd_tdata  (wcmd_data),
    .s_axis_cmd_tlast  (wcmd_last),
    .m_axis_rsp_tvalid (wrsp_valid),
    .m_axis_rsp_tready (wrsp_ready),
    .m_axis_rsp_tdata  (wrsp_data),
    .m_axis_rsp_tlast  (wrsp_last),
    // The core's own CSRs are not mapped into the kernel: the host reads
    // sizes with SIZES commands; tie the port idle.
    .s_axil_awaddr     (8'h00),
    .s_axil_awvalid    (1'b0),
    .s_axil_awready    (csr_awready),
    .s_axil_wdata      (32'h0),
    .s_axil_wstrb      (4'h0),
    .s_axil_wvalid     (1'b0),
    .s_axil_wready     (csr_wready),
    .s_axil_bresp      (csr_bresp),
    .s_axil_bvalid     (csr_bvalid),
    .s_axil_bready     (1'b1),
    .s_axil_araddr     (8'h00),
    .s_axil_arvalid    (1'b0),
    .s_axil_arready    (csr_arready),
    .s_axil_rdata      (csr_rdata),
    .s_axil_rresp      (csr_rresp),
    .s_axil_rvalid     (csr_rvalid),
    .s_axil_rready     (1'b1),
    .irq               (core_irq),
    .l2_base           (l2_q),
    .m_axi_awid        (m_axi_l2_awid),
    .m_axi_awaddr      (m_axi_l2_awaddr),
    .m_axi_awlen       (m_axi_l2_awlen),
    .m_axi_awsize      (m_axi_l2_awsize),
    .m_axi_awburst     (m_axi_l2_awburst),
    .m_axi_awvalid     (m_axi_l2_awvalid),
    .m_axi_awready     (m_axi_l2_awready),
    .m_axi_wdata       (m_axi_l2_wdata),
    .m_axi_wstrb       (m_axi_l2_wstrb),
    .m_axi_wlast       (m_axi_l2_wlast),
    .m_axi_wvalid      (m_axi_l2_wvalid),
    .m_axi_wready      (m_axi_l2_wready),
    .m_axi_bid         (m_axi_l2_bid),
    .m_axi_bresp       (m_axi_l2_bresp),
    .m_axi_bvalid      (m_axi_l2_bvalid),
    .m_axi_bready      (m_axi_l2_bready),
    .m_axi_arid        (m_axi_l2_arid),
    .m_axi_araddr      (m_axi_l2_araddr),
    .m_axi_arlen       (m_axi_l2_arlen),
    .m_axi_arsize      (m_axi_l2_arsize),
    .m_axi_arburst     (m_axi_l2_arburst),
    .m_axi_arvalid     (m_axi_l2_arvalid),
    .m_axi_arready     (m_axi_l2_arready),
    .m_axi_rid         (m_axi_l2_rid),
    .m_axi_rdata       (m_axi_l2_rdata),
    .m_axi_rresp       (m_axi_l2_rresp),
    .m_axi_rlast       (m_axi_l2_rlast),
    .m_axi_rvalid      (m_axi_l2_rvalid),
    .m_axi_rready      (m_axi_l2_rready)
  );

  top_axi_writer u_writer (
    .clk_i       (ap_clk),
    .rst_ni      (ap_rst_n),
    .start_i     (go),
    .base_i      (rsp_ptr),
    .cap_i       (rsp_cap),
    .flush_i     (rd_done && fr_done && responses_q == frames),
    .idle_o      (wr_idle),
    .written_o   (rsp_words),
    .overflow_o  (wr_overflow),
    .in_valid_i  (rsp_valid),
    .in_ready_o  (rsp_ready),
    .in_data_i   (rsp_data),
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

  assign m_axi_gmem_awsize  = 3'd3;     // 8 bytes per beat
  assign m_axi_gmem_awburst = 2'b01;    // INCR
  assign m_axi_gmem_arsize  = 3'd3;
  assign m_axi_gmem_arburst = 2'b01;
  assign m_axi_gmem_wstrb   = 8'hFF;
  assign m_axi_gmem_awid    = 1'b0;
  assign m_axi_gmem_arid    = 1'b0;

  logic unused;
  assign unused = ^{m_axi_gmem_bid, m_axi_gmem_rid, m_axi_gmem_bresp, m_axi_gmem_rresp, csr_bresp, csr_rresp, csr_awready,
                    csr_wready, csr_bvalid, csr_arready, csr_rvalid, csr_rdata, core_irq,
                    args[96 +: 32], args[224 +: 32]};

endmodule

`default_nettype wire
