// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite register block of the token-FSM validator: control, violation interrupt, counters.
//
// One outstanding read and one outstanding write; a write is taken when its
// address and data are both present, responses come from flops and hold until
// accepted. The violation registers hold the violation that set IRQ_STATUS;
// later violations only count until software clears it (write 1). irq_o is a
// level: pending and enabled. The map is fsm_pkg::CSR_* and docs/fsm-protocol.md.
`default_nettype none

`include "common_macros.svh"

module fsm_csr #(
  // Byte-address width of the register window, >= 8 (48 words).
  parameter int AddrW     = 8,
  // Reported to software.
  parameter int NSlots    = 64,
  parameter int NGrammars = 4,
  parameter int VocabMax  = 50257,
  parameter int ClassW    = 9,
  parameter int StateW    = 12,
  parameter int RowW      = 8,
  parameter int NsCap     = 262144,
  parameter int RowCap    = 128,
  parameter int MaskW     = 512,
  parameter int LoadW     = 512
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // AXI4-Lite slave
  input  wire logic [AddrW-1:0] s_axil_awaddr_i,
  input  wire logic             s_axil_awvalid_i,
  output logic                  s_axil_awready_o,
  input  wire logic [31:0]      s_axil_wdata_i,
  input  wire logic [3:0]       s_axil_wstrb_i,
  input  wire logic             s_axil_wvalid_i,
  output logic                  s_axil_wready_o,
  output logic [1:0]            s_axil_bresp_o,
  output logic                  s_axil_bvalid_o,
  input  wire logic             s_axil_bready_i,
  input  wire logic [AddrW-1:0] s_axil_araddr_i,
  input  wire logic             s_axil_arvalid_i,
  output logic                  s_axil_arready_o,
  output logic [31:0]           s_axil_rdata_o,
  output logic [1:0]            s_axil_rresp_o,
  output logic                  s_axil_rvalid_o,
  input  wire logic             s_axil_rready_i,

  // Events and status from the core
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
  input  wire logic             loading_i,

  // Level interrupt: a violation is pending and the interrupt is enabled.
  output logic                  irq_o
);

  `COMMON_PARAM_CHECK(g_bad_addr, (1 << AddrW) >= 4 * fsm_pkg::CSR_WORDS,
                      "fsm_csr: AddrW too small")

  localparam logic [1:0] RESP_OKAY   = 2'b00;
  localparam logic [1:0] RESP_SLVERR = 2'b10;
  localparam int NS = fsm_pkg::NUM_STATUS;

  logic        irq_en_q, irq_pend_q;
  logic [31:0] viol_slot_q, viol_pos_q, viol_token_q, viol_count_q;
  logic [15:0] last_load_q;
  logic [31:0] cnt_cmds_q, cnt_adv_q, cnt_acc_q, cnt_val_q, cnt_mask_q, cnt_beats_q;
  logic [31:0] cnt_loads_q, cnt_err_q, cycles_q;
  logic [31:0] cnt_code_q [NS];

  // ---------------------------------------------------------------- writes
  logic             wr_take, clear_pend;
  logic [AddrW-3:0] wr_word;
  assign wr_take          = s_axil_awvalid_i && s_axil_wvalid_i && !s_axil_bvalid_o;
  assign s_axil_awready_o = wr_take;
  assign s_axil_wready_o  = wr_take;
  assign wr_word          = s_axil_awaddr_i[AddrW-1:2];
  assign clear_pend       = wr_take && 32'(wr_word) == 32'(fsm_pkg::CSR_IRQ_STATUS) &&
                            s_axil_wstrb_i[0] && s_axil_wdata_i[0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s_axil_bvalid_o <= 1'b0;
      s_axil_bresp_o  <= RESP_OKAY;
      irq_en_q        <= 1'b0;
      irq_pend_q      <= 1'b0;
      viol_slot_q     <= '0;
      viol_pos_q      <= '0;
      viol_token_q    <= '0;
    end else begin
      if (s_axil_bvalid_o && s_axil_bready_i) s_axil_bvalid_o <= 1'b0;
      // A violation in the cycle software clears the flag sets it again.
      if (viol_valid_i && (!irq_pend_q || clear_pend)) begin
        irq_pend_q   <= 1'b1;
        viol_slot_q  <= 32'(viol_slot_i);
        viol_pos_q   <= viol_pos_i;
        viol_token_q <= viol_token_i;
      end else if (clear_pend) begin
        irq_pend_q <= 1'b0;
      end
      if (wr_take) begin
        s_axil_bvalid_o <= 1'b1;
        s_axil_bresp_o  <= RESP_OKAY;
        if (32'(wr_word) == 32'(fsm_pkg::CSR_CTRL)) begin
          if (s_axil_wstrb_i[0]) irq_en_q <= s_axil_wdata_i[0];
        end else if (32'(wr_word) != 32'(fsm_pkg::CSR_IRQ_STATUS)) begin
          s_axil_bresp_o <= RESP_SLVERR;   // read-only or unmapped
        end
      end
    end
  end

  // ---------------------------------------------------------------- counters
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      viol_count_q <= '0;
      last_load_q  <= '0;
      cnt_cmds_q   <= '0;
      cnt_adv_q    <= '0;
      cnt_acc_q    <= '0;
      cnt_val_q    <= '0;
      cnt_mask_q   <= '0;
      cnt_beats_q  <= '0;
      cnt_loads_q  <= '0;
      cnt_err_q    <= '0;
      cycles_q     <= '0;
      for (int i = 0; i < NS; i++) cnt_code_q[i] <= '0;
    end else begin
      cycles_q <= cycles_q + 32'd1;
      if (viol_valid_i) viol_count_q <= viol_count_q + 32'd1;
      if (mask_beat_i)  cnt_beats_q  <= cnt_beats_q + 32'd1;
      if (res_valid_i) begin
        cnt_cmds_q <= cnt_cmds_q + 32'd1;
        if (res_status_i != fsm_pkg::ST_OK) begin
          cnt_err_q <= cnt_err_q + 32'd1;
          if (32'(res_status_i) < 32'(NS)) begin
            cnt_code_q[4'(res_status_i)] <= cnt_code_q[4'(res_status_i)] + 32'd1;
          end
        end else begin
          if (res_op_i == fsm_pkg::OP_ADVANCE) begin
            cnt_adv_q <= cnt_adv_q + 32'd1;
            if (res_accepted_i) cnt_acc_q <= cnt_acc_q + 32'd1;
          end
          if (res_op_i == fsm_pkg::OP_VALIDATE) cnt_val_q <= cnt_val_q + 32'd1;
          if (res_op_i == fsm_pkg::OP_MASK || res_op_i == fsm_pkg::OP_MASK_BATCH)
            cnt_mask_q <= cnt_mask_q + 32'd1;
          if (res_op_i == fsm_pkg::OP_LOAD)     cnt_loads_q <= cnt_loads_q + 32'd1;
        end
        if (res_op_i == fsm_pkg::OP_LOAD) last_load_q <= {8'h0, res_status_i};
      end
    end
  end

  // ---------------------------------------------------------------- reads
  // The read mux is evaluated in the clocked process, only when a read is
  // taken: as an always_comb it would wake on every cycle-counter tick, which
  // costs Icarus 11 a re-evaluation of far more than this block.
  logic [AddrW-3:0] rd_word;
  logic             rd_take;
  assign rd_word          = s_axil_araddr_i[AddrW-1:2];
  assign s_axil_arready_o = !s_axil_rvalid_o;
  assign rd_take          = s_axil_arvalid_i && s_axil_arready_o;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s_axil_rvalid_o <= 1'b0;
    end else if (rd_take) begin
      s_axil_rvalid_o <= 1'b1;
    end else if (s_axil_rready_i) begin
      s_axil_rvalid_o <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rd_take) begin
      s_axil_rresp_o <= RESP_OKAY;
      if (32'(rd_word) >= 32'(fsm_pkg::CSR_ERR_BASE) &&
          32'(rd_word) < 32'(fsm_pkg::CSR_WORDS)) begin
        s_axil_rdata_o <= cnt_code_q[4'(32'(rd_word) - 32'(fsm_pkg::CSR_ERR_BASE))];
      end else begin
        unique case (32'(rd_word))
          fsm_pkg::CSR_ID:           s_axil_rdata_o <= fsm_pkg::FSM_ID;
          fsm_pkg::CSR_CTRL:         s_axil_rdata_o <= {31'h0, irq_en_q};
          fsm_pkg::CSR_STATUS:       s_axil_rdata_o <= {30'h0, loading_i, busy_i};
          fsm_pkg::CSR_IRQ_STATUS:   s_axil_rdata_o <= {31'h0, irq_pend_q};
          fsm_pkg::CSR_VIOL_SLOT:    s_axil_rdata_o <= viol_slot_q;
          fsm_pkg::CSR_VIOL_POS:     s_axil_rdata_o <= viol_pos_q;
          fsm_pkg::CSR_VIOL_TOKEN:   s_axil_rdata_o <= viol_token_q;
          fsm_pkg::CSR_VIOL_COUNT:   s_axil_rdata_o <= viol_count_q;
          fsm_pkg::CSR_LOADED:       s_axil_rdata_o <= {16'h0, loaded_i};
          fsm_pkg::CSR_LAST_LOAD:    s_axil_rdata_o <= {16'h0, last_load_q};
          fsm_pkg::CSR_NUM_SLOTS:    s_axil_rdata_o <= 32'(NSlots);
          fsm_pkg::CSR_NUM_GRAMMARS: s_axil_rdata_o <= 32'(NGrammars);
          fsm_pkg::CSR_VOCAB_MAX:    s_axil_rdata_o <= 32'(VocabMax);
          fsm_pkg::CSR_WIDTHS:       s_axil_rdata_o <= {8'h0, 8'(RowW), 8'(StateW), 8'(ClassW)};
          fsm_pkg::CSR_NS_CAP:       s_axil_rdata_o <= 32'(NsCap);
          fsm_pkg::CSR_ROW_CAP:      s_axil_rdata_o <= 32'(RowCap);
          fsm_pkg::CSR_BUS_WIDTHS:   s_axil_rdata_o <= {16'(LoadW), 16'(MaskW)};
          fsm_pkg::CSR_COMMANDS:     s_axil_rdata_o <= cnt_cmds_q;
          fsm_pkg::CSR_ADVANCES:     s_axil_rdata_o <= cnt_adv_q;
          fsm_pkg::CSR_ACCEPTED:     s_axil_rdata_o <= cnt_acc_q;
          fsm_pkg::CSR_VALIDATES:    s_axil_rdata_o <= cnt_val_q;
          fsm_pkg::CSR_MASKS:        s_axil_rdata_o <= cnt_mask_q;
          fsm_pkg::CSR_MASK_BEATS:   s_axil_rdata_o <= cnt_beats_q;
          fsm_pkg::CSR_LOADS_OK:     s_axil_rdata_o <= cnt_loads_q;
          fsm_pkg::CSR_ERRORS:       s_axil_rdata_o <= cnt_err_q;
          fsm_pkg::CSR_CYCLES:       s_axil_rdata_o <= cycles_q;
          default: begin
            s_axil_rdata_o <= 32'h0;
            s_axil_rresp_o <= RESP_SLVERR;
          end
        endcase
      end
    end
  end

  assign irq_o = irq_en_q && irq_pend_q;

  logic unused;
  assign unused = ^{s_axil_awaddr_i[1:0], s_axil_araddr_i[1:0], s_axil_wdata_i[31:1],
                    s_axil_wstrb_i[3:1]};

  // AXI4-Lite protocol rules on the slave port, live in every simulation.
  `COMMON_AXIL_CHECK(u_axil_chk, AddrW, s_axil_)

endmodule

`default_nettype wire
