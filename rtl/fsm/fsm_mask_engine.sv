// SPDX-License-Identifier: Apache-2.0
// Mask streamer: turns one MASK job into ceil(V/MaskW) beats of the state's token mask.
//
// Mask rows are stored padded to whole 512-bit words (docs/table-format.md),
// so a row starts on a memory word and beat m is MaskW-bit piece
// (m mod LoadW/MaskW) of word (row base + m / (LoadW/MaskW)): one read and at
// most a LoadW/MaskW-way select, no funnel shift. Bits past V in the last beat
// are cleared, and the EOS bit is driven from the state's accepting flag. One
// beat per cycle; a job queued behind the current one starts without a gap.
// Jobs arrive from a pipeline register and are always taken: the sender keeps
// jobs_o + (jobs it has in flight) below 3 (the current job and two queued)
// when it admits one, so that its accept decision needs no handshake here.
`default_nettype none

`include "common_macros.svh"

module fsm_mask_engine #(
  parameter int LoadW   = 512,   // memory word, 64..512
  parameter int MaskW   = 512,   // bits per mask beat: power of two, 32..LoadW
  parameter int BankW   = 3,     // bank index bits
  parameter int AddrW   = 8,     // mask-row memory address bits
  parameter int MrWords = 16,    // words per bank region
  parameter int BeatW   = 8,     // beats per mask, counter width
  parameter int TokW    = 16,    // token id width
  parameter int Depth   = 4      // output buffer entries
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  // Job from the command pipeline
  input  wire logic               job_valid_i,     // always taken (see the header)
  output logic      [1:0]         jobs_o,          // jobs held: current + queued, 0..3
  input  wire logic [BankW-1:0]   job_bank_i,
  input  wire logic [AddrW-1:0]   job_base_i,      // first word of the row in the region
  input  wire logic               job_empty_i,     // all-zero row (not stored)
  input  wire logic [BeatW-1:0]   job_nbeats_i,    // >= 1
  input  wire logic [TokW:0]      job_vocab_i,     // V: bits >= V are cleared
  input  wire logic               job_eos_valid_i,
  input  wire logic [TokW-1:0]    job_eos_i,
  input  wire logic               job_accepting_i,

  // Mask-row memories (registered read)
  output logic                    rd_en_o,
  output logic      [AddrW-1:0]   rd_addr_o,
  input  wire logic [LoadW-1:0]   rd_data_i,

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
  localparam int LGP = LGL - LGM;                // log2(beats per memory word)
  localparam int PW  = (LGP > 0) ? LGP : 1;

  `COMMON_PARAM_CHECK(g_bad_maskw, MaskW >= 32 && MaskW <= LoadW && (MaskW & (MaskW - 1)) == 0,
                      "fsm_mask_engine: MaskW must be a power of two in 32..LoadW")

  // ---------------------------------------------------------------- jobs
  // A job, packed: {bank, base, empty, nbeats, vocab, eos_valid, eos, accepting}.
  localparam int JobW = BankW + AddrW + 1 + BeatW + (TokW + 1) + 1 + TokW + 1;
  logic [JobW-1:0] job_in;
  assign job_in = {job_bank_i, job_base_i, job_empty_i, job_nbeats_i, job_vocab_i,
                   job_eos_valid_i, job_eos_i, job_accepting_i};

  // cur: the job being issued; q0, q1: queued behind it, q0 first.
  logic             cur_v_q;
  logic [1:0]       q_v_q;
  logic [JobW-1:0]  q_q [2];
  logic [BankW-1:0] cur_bank_q;
  logic [AddrW-1:0] cur_word_q;                  // word of the next beat
  logic [PW-1:0]    cur_piece_q;                 // MaskW piece of that word
  logic             cur_empty_q;
  logic [BeatW-1:0] cur_beat_q, cur_nb_q;
  logic [TokW:0]    cur_v_tok_q;
  logic             cur_eosv_q;
  logic [TokW-1:0]  cur_eos_q;
  logic             cur_acc_q;

  logic issue, last_issue, refill, pop, push;
  logic [LevelW-1:0] level;
  logic              rv_q;           // a read is in flight

  // Issue a read only if the output buffer will have room for its data.
  assign issue      = cur_v_q && (32'(level) + 32'(rv_q) < Depth);
  assign last_issue = issue && (cur_beat_q == cur_nb_q - BeatW'(1));
  assign refill     = !cur_v_q || last_issue;
  // cur is refilled from the queue, or straight from the input when it is empty.
  assign pop        = refill && q_v_q[0];
  assign push       = job_valid_i && !(refill && !q_v_q[0]);
  assign jobs_o     = 2'(cur_v_q) + 2'(q_v_q[0]) + 2'(q_v_q[1]);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cur_v_q <= 1'b0;
      q_v_q   <= '0;
    end else begin
      if (refill) cur_v_q <= q_v_q[0] || job_valid_i;
      unique case ({pop, push})
        2'b10:   q_v_q <= {1'b0, q_v_q[1]};
        2'b01:   q_v_q <= {q_v_q[0], 1'b1};
        default: q_v_q <= q_v_q;     // 2'b11 keeps the count; 2'b00 no change
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    unique case ({pop, push})
      2'b10: q_q[0] <= q_q[1];
      2'b01: begin
        if (!q_v_q[0]) q_q[0] <= job_in;
        else           q_q[1] <= job_in;
      end
      2'b11: begin
        if (q_v_q[1]) begin
          q_q[0] <= q_q[1];
          q_q[1] <= job_in;
        end else begin
          q_q[0] <= job_in;
        end
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (refill) begin
      {cur_bank_q, cur_word_q, cur_empty_q, cur_nb_q, cur_v_tok_q, cur_eosv_q, cur_eos_q,
       cur_acc_q} <= q_v_q[0] ? q_q[0] : job_in;
      cur_beat_q  <= '0;
      cur_piece_q <= '0;
    end else if (issue) begin
      if (LGP == 0 || cur_piece_q == PW'((1 << LGP) - 1)) begin
        cur_word_q  <= cur_word_q + AddrW'(1);
        cur_piece_q <= '0;
      end else begin
        cur_piece_q <= cur_piece_q + PW'(1);
      end
      cur_beat_q <= cur_beat_q + BeatW'(1);
    end
  end

  // ---------------------------------------------------------------- read
  assign rd_en_o   = issue;
  assign rd_addr_o = AddrW'(32'(cur_bank_q) * 32'(MrWords)) + cur_word_q;

  // Per-beat controls travel with the read.
  logic [PW-1:0]  r_piece_q;
  logic           r_empty_q, r_last_q, r_eos_hit_q, r_acc_q;
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
      r_piece_q   <= cur_piece_q;
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
    beat = '0;
    if (!r_empty_q) begin
      if (LGP == 0) beat = MaskW'(rd_data_i);
      else          beat = MaskW'(rd_data_i >> (32'(r_piece_q) * 32'(MaskW)));
    end
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

  assign idle_o = !cur_v_q && !q_v_q[0] && !rv_q;
  assign beat_o = m_tvalid_o && m_tready_i;

`ifdef COMMON_ASSERT_ON
  // The sender's accounting: a job never arrives with the queue full.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(push && q_v_q[1] && !pop))
        else $fatal(1, "fsm_mask_engine: job arrived with the queue full");
      assert (!q_v_q[1] || q_v_q[0]) else $fatal(1, "fsm_mask_engine: queue has a hole");
    end
  end
`endif

endmodule

`default_nettype wire
