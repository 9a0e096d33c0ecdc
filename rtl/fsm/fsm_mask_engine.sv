// SPDX-License-Identifier: Apache-2.0
// Mask streamer: turns one MASK job into ceil(V/MaskW) beats of the state's token mask.
//
// A mask row is stored as the image lays it out, so beat m is the MaskW-bit
// window at bit (row base + m * MaskW) of the bank's mask-row region: any
// 32-bit-aligned offset. The region is split into even and odd words, so the
// two words a window can touch are read in the same cycle and a funnel shift
// cuts the window out. Bits past V in the last beat are cleared, and the EOS
// bit is driven from the state's accepting flag. One beat per cycle; a job
// queued behind the current one starts without a gap.
`default_nettype none

`include "common_macros.svh"

module fsm_mask_engine #(
  parameter int LoadW   = 512,   // memory word, 64..512
  parameter int MaskW   = 512,   // bits per mask beat: power of two, 32..LoadW
  parameter int BankW   = 3,     // bank index bits
  parameter int HalfW   = 8,     // address bits of one half (even or odd) memory
  parameter int MrHalf  = 16,    // words per bank in each half
  parameter int BitW    = 24,    // bit offset within a bank's region
  parameter int BeatW   = 8,     // beats per mask, counter width
  parameter int TokW    = 16,    // token id width
  parameter int Depth   = 4      // output buffer entries
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  // Job from the command pipeline
  input  wire logic               job_valid_i,
  output logic                    job_ready_o,
  input  wire logic [BankW-1:0]   job_bank_i,
  input  wire logic [BitW-1:0]    job_base_i,      // first bit of the row in the region
  input  wire logic               job_empty_i,     // all-zero row (not stored)
  input  wire logic [BeatW-1:0]   job_nbeats_i,    // >= 1
  input  wire logic [TokW:0]      job_vocab_i,     // V: bits >= V are cleared
  input  wire logic               job_eos_valid_i,
  input  wire logic [TokW-1:0]    job_eos_i,
  input  wire logic               job_accepting_i,

  // Mask-row memories (registered read)
  output logic                    rd_en_o,
  output logic      [HalfW-1:0]   rd_even_addr_o,
  output logic      [HalfW-1:0]   rd_odd_addr_o,
  input  wire logic [LoadW-1:0]   rd_even_data_i,
  input  wire logic [LoadW-1:0]   rd_odd_data_i,

  // Mask stream
  output logic                    m_tvalid_o,
  input  wire logic               m_tready_i,
  output logic      [MaskW-1:0]   m_tdata_o,
  output logic                    m_tlast_o,

  output logic                    idle_o,          // no job and no read in flight
  output logic                    beat_o           // a mask beat was transferred
);

  localparam int LGL = $clog2(LoadW);
  localparam int LGM = $clog2(MaskW);
  localparam int LevelW = $clog2(Depth + 1);

  `COMMON_PARAM_CHECK(g_bad_maskw, MaskW >= 32 && MaskW <= LoadW && (MaskW & (MaskW - 1)) == 0,
                      "fsm_mask_engine: MaskW must be a power of two in 32..LoadW")

  // ---------------------------------------------------------------- jobs
  // cur: the job being issued; nxt: one queued behind it.
  logic             cur_v_q, nxt_v_q;
  logic [BankW-1:0] cur_bank_q, nxt_bank_q;
  logic [BitW-1:0]  cur_pos_q, nxt_base_q;       // cur_pos_q: bit of the next beat
  logic             cur_empty_q, nxt_empty_q;
  logic [BeatW-1:0] cur_beat_q, cur_nb_q, nxt_nb_q;
  logic [TokW:0]    cur_v_tok_q, nxt_v_tok_q;
  logic             cur_eosv_q, nxt_eosv_q;
  logic [TokW-1:0]  cur_eos_q, nxt_eos_q;
  logic             cur_acc_q, nxt_acc_q;

  logic issue, last_issue, take_job;
  logic [LevelW-1:0] level;
  logic              rv_q;           // a read is in flight

  // Issue a read only if the output buffer will have room for its data.
  assign issue      = cur_v_q && (32'(level) + 32'(rv_q) < Depth);
  assign last_issue = issue && (cur_beat_q == cur_nb_q - BeatW'(1));
  assign job_ready_o = !nxt_v_q;
  assign take_job    = job_valid_i && job_ready_o;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cur_v_q <= 1'b0;
      nxt_v_q <= 1'b0;
    end else begin
      // cur is refilled from nxt, or straight from the input when nothing waits.
      if (!cur_v_q || last_issue) begin
        if (nxt_v_q) begin
          cur_v_q <= 1'b1;
          nxt_v_q <= take_job;
        end else begin
          cur_v_q <= take_job;
        end
      end else if (take_job) begin
        nxt_v_q <= 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (take_job && !(nxt_v_q == 1'b0 && (!cur_v_q || last_issue))) begin
      nxt_bank_q  <= job_bank_i;
      nxt_base_q  <= job_base_i;
      nxt_empty_q <= job_empty_i;
      nxt_nb_q    <= job_nbeats_i;
      nxt_v_tok_q <= job_vocab_i;
      nxt_eosv_q  <= job_eos_valid_i;
      nxt_eos_q   <= job_eos_i;
      nxt_acc_q   <= job_accepting_i;
    end
    if (!cur_v_q || last_issue) begin
      if (nxt_v_q) begin
        cur_bank_q  <= nxt_bank_q;
        cur_pos_q   <= nxt_base_q;
        cur_empty_q <= nxt_empty_q;
        cur_nb_q    <= nxt_nb_q;
        cur_v_tok_q <= nxt_v_tok_q;
        cur_eosv_q  <= nxt_eosv_q;
        cur_eos_q   <= nxt_eos_q;
        cur_acc_q   <= nxt_acc_q;
      end else begin
        cur_bank_q  <= job_bank_i;
        cur_pos_q   <= job_base_i;
        cur_empty_q <= job_empty_i;
        cur_nb_q    <= job_nbeats_i;
        cur_v_tok_q <= job_vocab_i;
        cur_eosv_q  <= job_eos_valid_i;
        cur_eos_q   <= job_eos_i;
        cur_acc_q   <= job_accepting_i;
      end
      cur_beat_q <= '0;
    end else if (issue) begin
      cur_pos_q  <= cur_pos_q + BitW'(MaskW);
      cur_beat_q <= cur_beat_q + BeatW'(1);
    end
  end

  // ---------------------------------------------------------------- read
  logic [BitW-LGL-1:0] word;
  logic [HalfW-1:0]    bank_base;
  assign word      = cur_pos_q[BitW-1:LGL];
  assign bank_base = HalfW'(32'(cur_bank_q) * 32'(MrHalf));
  assign rd_en_o        = issue;
  assign rd_odd_addr_o  = bank_base + HalfW'(word >> 1);
  assign rd_even_addr_o = bank_base + HalfW'(word >> 1) + HalfW'(word[0]);

  // Per-beat controls travel with the read.
  logic [LGL-1:0] r_shift_q;
  logic           r_odd_q, r_empty_q, r_last_q, r_eos_hit_q, r_acc_q;
  logic [LGM:0]   r_keep_q;        // bits of this beat below V (MaskW on full beats)
  logic [LGM-1:0] r_eos_bit_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) rv_q <= 1'b0;
    else         rv_q <= issue;
  end
  always_ff @(posedge clk_i) begin
    if (issue) begin
      logic [TokW+1:0] beat_lo, left;
      beat_lo     = (TokW+2)'(cur_beat_q) << LGM;
      left        = (TokW+2)'(cur_v_tok_q) - beat_lo;
      r_shift_q   <= cur_pos_q[LGL-1:0];
      r_odd_q     <= word[0];
      r_empty_q   <= cur_empty_q;
      r_last_q    <= (cur_beat_q == cur_nb_q - BeatW'(1));
      r_keep_q    <= (left >= (TokW+2)'(MaskW)) ? (LGM+1)'(MaskW) : (LGM+1)'(left);
      r_eos_hit_q <= cur_eosv_q && ((TokW+2)'(cur_eos_q) >> LGM) == (TokW+2)'(cur_beat_q);
      r_eos_bit_q <= cur_eos_q[LGM-1:0];
      r_acc_q     <= cur_acc_q;
    end
  end

  // ---------------------------------------------------------------- beat
  logic [MaskW-1:0] beat;
  always_comb begin
    logic [2*LoadW-1:0] pair;
    pair = r_odd_q ? {rd_even_data_i, rd_odd_data_i} : {rd_odd_data_i, rd_even_data_i};
    beat = r_empty_q ? '0 : MaskW'(pair >> r_shift_q);
    for (int i = 0; i < MaskW; i++) begin
      if ((LGM+1)'(i) >= r_keep_q) beat[i] = 1'b0;
    end
    if (r_eos_hit_q) beat[r_eos_bit_q] = r_acc_q;
  end

  logic [LevelW-1:0] fifo_level;
  fsm_out_fifo #(
    .Width (MaskW + 1),
    .Depth (Depth)
  ) u_out (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (rv_q),
    .in_data_i   ({r_last_q, beat}),
    .out_valid_o (m_tvalid_o),
    .out_ready_i (m_tready_i),
    .out_data_o  ({m_tlast_o, m_tdata_o}),
    .level_o     (fifo_level)
  );
  assign level = fifo_level;

  assign idle_o = !cur_v_q && !nxt_v_q && !rv_q;
  assign beat_o = m_tvalid_o && m_tready_i;

endmodule

`default_nettype wire
