// SPDX-License-Identifier: Apache-2.0
// Formal harness of fsm_mask_engine, the token-FSM core's mask path: framing and
// clearing. A shadow queue holds each accepted job's beat count, vocabulary size and
// EOS position. Asserted, on the mask stream:
//   * no beat without an accepted job; a job gives exactly its beat count, TLAST on
//     the last beat and only there (so beats of two jobs never mix);
//   * every bit at a token position >= V is 0, except the EOS bit the engine drives;
//   * TVALID held until TREADY, TDATA/TLAST stable meanwhile.
// Assumed (as fsm_core issues jobs): nbeats = ceil(V / MaskW) >= 1, EOS < V, and a
// job arrives only while the engine holds at most two (it takes every job: fsm_core
// admits a MASK only if the engine's jobs plus the one in its S1 register are below
// three). The mask memory's data and TREADY are unconstrained. Bounded model check (fsm_mask_engine.sby).
// Formal only.
`default_nettype none

module fsm_mask_engine_fv #(
  parameter int LoadW = 64,
  parameter int MaskW = 32,
  parameter int BeatW = 2,
  parameter int TokW  = 6,
  parameter int Depth = 2
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             job_valid_i,
  input  wire logic             job_bank_i,
  input  wire logic [3:0]       job_base_i,
  input  wire logic             job_empty_i,
  input  wire logic [BeatW-1:0] job_nbeats_i,
  input  wire logic [TokW:0]    job_vocab_i,
  input  wire logic             job_eos_valid_i,
  input  wire logic [TokW-1:0]  job_eos_i,
  input  wire logic             job_accepting_i,
  input  wire logic [LoadW-1:0] rd_data_i,
  input  wire logic             m_tready_i
);

  localparam int LGM = $clog2(MaskW);
  // Shadow queue: more jobs than can be open, three in the engine and up to three more
  // whose beats wait in the read register and the output buffer.
  localparam int Q = 8;

  logic             rd_en, m_tvalid, m_tlast, idle, beat;
  logic [1:0]       jobs;
  logic [3:0]       rd_addr;
  logic [MaskW-1:0] m_tdata;

  fsm_mask_engine #(
    .LoadW (LoadW), .MaskW (MaskW), .BankW (1), .AddrW (4), .MrWords (8), .BeatW (BeatW),
    .TokW (TokW), .Depth (Depth)
  ) u_dut (
    .clk_i (clk_i), .rst_ni (rst_ni),
    .job_valid_i (job_valid_i), .jobs_o (jobs), .job_bank_i (job_bank_i),
    .job_base_i (job_base_i), .job_empty_i (job_empty_i), .job_nbeats_i (job_nbeats_i),
    .job_vocab_i (job_vocab_i), .job_eos_valid_i (job_eos_valid_i), .job_eos_i (job_eos_i),
    .job_accepting_i (job_accepting_i),
    .rd_en_o (rd_en), .rd_addr_o (rd_addr), .rd_data_i (rd_data_i),
    .m_tvalid_o (m_tvalid), .m_tready_i (m_tready_i), .m_tdata_o (m_tdata),
    .m_tlast_o (m_tlast), .idle_o (idle), .beat_o (beat));

  logic past_valid_q = 1'b0;
  logic init_q = 1'b0;
  logic [BeatW-1:0] nb_q  [Q];
  logic [TokW:0]    voc_q [Q];
  logic             eosv_q[Q];
  logic [TokW-1:0]  eos_q [Q];
  logic [2:0]       head_q, tail_q;
  logic [3:0]       cnt_q;
  logic [BeatW-1:0] k_q;                      // beats of the head job already out
  logic             stall_q;
  logic [MaskW-1:0] data_q;
  logic             last_q;

  logic take;
  assign take = job_valid_i;

  // Bits of the head job's beat k_q below V, and its EOS bit when it falls in this beat.
  logic [TokW+1:0]  beat_lo, left;
  logic [MaskW-1:0] keep_mask, eos_mask;
  always_comb begin
    beat_lo   = (TokW + 2)'(k_q) << LGM;
    left      = (TokW + 2)'(voc_q[head_q]) - beat_lo;
    keep_mask = (voc_q[head_q] <= (TokW + 1)'(beat_lo)) ? '0 :
                (left >= (TokW + 2)'(MaskW)) ? '1 : ~({MaskW{1'b1}} << left);
    eos_mask  = (eosv_q[head_q] && ((TokW + 2)'(eos_q[head_q]) >> LGM) == (TokW + 2)'(k_q))
                ? MaskW'(1) << eos_q[head_q][LGM-1:0] : '0;
  end

  always @(posedge clk_i) begin
    past_valid_q <= 1'b1;
    if (!past_valid_q) assume (!rst_ni);
    if (!rst_ni) init_q <= 1'b1;
    if (rst_ni && job_valid_i) begin
      assume (jobs <= 2'd2);
      assume (job_vocab_i != '0);
      assume (32'(job_nbeats_i) == (32'(job_vocab_i) + MaskW - 1) / MaskW);
      if (job_eos_valid_i) assume (32'(job_eos_i) < 32'(job_vocab_i));
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q <= '0; tail_q <= '0; cnt_q <= '0; k_q <= '0; stall_q <= 1'b0;
    end else begin
      if (take) begin
        nb_q[tail_q]   <= job_nbeats_i;
        voc_q[tail_q]  <= job_vocab_i;
        eosv_q[tail_q] <= job_eos_valid_i;
        eos_q[tail_q]  <= job_eos_i;
        tail_q <= tail_q + 1'b1;
      end
      if (beat) begin
        if (m_tlast) begin
          head_q <= head_q + 1'b1;
          k_q    <= '0;
        end else begin
          k_q <= k_q + 1'b1;
        end
      end
      cnt_q   <= cnt_q + 4'(take) - 4'(beat && m_tlast);
      stall_q <= m_tvalid && !m_tready_i;
      data_q  <= m_tdata;
      last_q  <= m_tlast;
    end
  end

  always @(posedge clk_i) begin
    if (rst_ni && init_q) begin
      assert (cnt_q <= 4'(Q));
      if (m_tvalid) begin
        assert (cnt_q != '0);                                   // a beat belongs to a job
        assert (k_q < nb_q[head_q]);
        assert (m_tlast == (k_q == nb_q[head_q] - BeatW'(1)));  // TLAST exactly at the end
        assert ((m_tdata & ~keep_mask & ~eos_mask) == '0);     // past V: cleared
      end
      if (stall_q) assert (m_tvalid && m_tdata == data_q && m_tlast == last_q);
      cover (beat && m_tlast && nb_q[head_q] == BeatW'(2));   // a two-beat mask
      cover (take && !idle && m_tvalid);                       // a job queued behind one
      cover (stall_q && m_tvalid);                             // a stalled beat
    end
  end

endmodule

`default_nettype wire
