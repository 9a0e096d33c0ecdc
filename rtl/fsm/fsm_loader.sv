// SPDX-License-Identifier: Apache-2.0
// Table-image loader: takes one image (docs/table-format.md) from an AXI4-Stream,
// writes its sections into the table memories and judges it.
//
// The image is written as it arrives, one beat per cycle, with no realignment:
// beat b of the image goes to word (b - first beat of the section) of each
// section it overlaps, so a table element is found at byte offset
// (section offset mod beat bytes) + index * element bytes of its region. Writes
// go only to the spare bank the core points the loader at, and never beyond a
// region, so a refused image cannot disturb a grammar in use. After TLAST the
// loader checks, in this order: stream framing and length >= 72, magic,
// version / header size / section count, length >= 200, header CRC, length =
// total_bytes, payload CRC, dimensions, capacity (fsm_pkg ST_LD_*), and reports
// one status. Every byte up to TLAST is consumed whatever the verdict.
`default_nettype none

`include "common_macros.svh"

module fsm_loader #(
  // Load stream width in bits: 64, 128, 256 or 512.
  parameter int LoadW    = 512,
  // Capacity: largest vocabulary, state / class / row widths, comb entries and rows per grammar.
  parameter int VocabMax = 50257,
  parameter int StateW   = 12,
  parameter int ClassW   = 9,
  parameter int RowW     = 8,
  parameter int NsCap    = 262144,
  parameter int RowCap   = 128,
  // Words (LoadW bits) of each section's region in one bank, in section order.
  parameter int TcWords  = 2,
  parameter int BsWords  = 2,
  parameter int CbWords  = 2,
  parameter int AcWords  = 2,
  parameter int MiWords  = 2,
  parameter int MrWords  = 2,
  parameter int FtWords  = 2,
  parameter int FvWords  = 2,
  // Width of the per-section word index; derived by the caller.
  parameter int WIdxW    = 24
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,

  input  wire logic              start_i,      // begin one image (ignored while busy)
  output logic                   busy_o,

  // Image stream
  input  wire logic              s_tvalid_i,
  output logic                   s_tready_o,
  input  wire logic [LoadW-1:0]  s_tdata_i,
  input  wire logic [LoadW/8-1:0] s_tkeep_i,
  input  wire logic              s_tlast_i,

  // Table writes: one beat, to word widx of every section whose we bit is set.
  output logic      [LoadW-1:0]  wr_data_o,
  output logic      [fsm_pkg::NSEC-1:0]        wr_en_o,
  output logic [fsm_pkg::NSEC-1:0][WIdxW-1:0]  wr_idx_o,

  // Verdict: a one-cycle pulse once the image (up to TLAST) is in and judged.
  output logic                   done_o,
  output logic      [7:0]        status_o,
  output logic      [31:0]       bytes_o,      // bytes received

  // Header fields of the image, valid with done_o when status_o is ST_OK.
  output logic      [31:0]       vocab_o,
  output logic      [31:0]       states_o,
  output logic      [31:0]       classes_o,
  output logic      [31:0]       rows_o,
  output logic      [31:0]       words_per_row_o,
  output logic      [31:0]       start_o,
  output logic      [31:0]       eos_o,
  output logic                   eos_valid_o,
  output logic [fsm_pkg::NSEC-1:0][1:0]  ew_o    // storage width code (fsm_pkg EW_*)
);

  localparam int LB  = LoadW / 8;                       // bytes per beat
  localparam int LGB = $clog2(LB);
  localparam int Q   = LoadW / 64;                      // qwords per beat
  localparam int QW  = (Q > 1) ? $clog2(Q) : 1;
  localparam int HQ  = fsm_pkg::IMG_HDR_QWORDS;         // 25 header qwords
  localparam int NS  = fsm_pkg::NSEC;
  localparam int TokW = $clog2(VocabMax);
  localparam logic [31:0] HDR_BYTES = 32'(fsm_pkg::IMG_HDR_BYTES);

  `COMMON_PARAM_CHECK(g_bad_loadw, LoadW == 64 || LoadW == 128 || LoadW == 256 || LoadW == 512,
                      "fsm_loader: LoadW must be 64, 128, 256 or 512")

  typedef enum logic [2:0] { L_IDLE, L_RECV, L_HCRC, L_CHECK1, L_CHECK2, L_DONE } lstate_e;
  lstate_e state_q, state_d;

  // ---------------------------------------------------------------- input stage
  // Registered beat: everything below works on it, one cycle after acceptance.
  logic             bv_q, blast_q;
  logic [LoadW-1:0] bdata_q;
  logic [31:0]      bidx_q;          // beat index within the image
  logic [QW:0]      bnq_q;           // whole qwords kept in this beat
  logic             last_seen_q;     // TLAST accepted; stop taking beats
  logic [31:0]      beats_q;         // beats accepted so far
  logic             keep_err_q;
  logic [31:0]      bytes_q;

  logic take;
  assign s_tready_o = (state_q == L_RECV) && !last_seen_q;
  assign take       = s_tvalid_i && s_tready_o;

  // Kept qwords of a beat; a TKEEP other than a prefix of whole qwords (or
  // anything but all ones before TLAST) is a framing error.
  logic [QW:0] in_nq;
  logic        in_keep_ok;
  always_comb begin
    logic seen_gap;
    in_nq      = '0;
    in_keep_ok = 1'b1;
    seen_gap   = 1'b0;
    for (int j = 0; j < Q; j++) begin
      if (s_tkeep_i[j*8 +: 8] == 8'hFF && !seen_gap) begin
        in_nq = in_nq + 1'b1;
      end else begin
        seen_gap = 1'b1;
        if (s_tkeep_i[j*8 +: 8] != 8'h00) in_keep_ok = 1'b0;
      end
    end
    if (!s_tlast_i && in_nq != (QW+1)'(Q)) in_keep_ok = 1'b0;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      bv_q        <= 1'b0;
      blast_q     <= 1'b0;
      last_seen_q <= 1'b0;
      beats_q     <= '0;
      keep_err_q  <= 1'b0;
      bytes_q     <= '0;
    end else begin
      bv_q    <= take;
      blast_q <= take && s_tlast_i;
      if (start_i && state_q == L_IDLE) begin
        last_seen_q <= 1'b0;
        beats_q     <= '0;
        keep_err_q  <= 1'b0;
        bytes_q     <= '0;
      end else if (take) begin
        last_seen_q <= s_tlast_i;
        beats_q     <= beats_q + 32'd1;
        if (!in_keep_ok) keep_err_q <= 1'b1;
        bytes_q     <= bytes_q + 32'(in_nq) * 32'd8;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      bdata_q <= s_tdata_i;
      bidx_q  <= beats_q;
      bnq_q   <= in_nq;
    end
  end

  // ---------------------------------------------------------------- header capture
  // Flat, qword q at [q*64 +: 64]: Icarus 11 misses updates of unpacked words in
  // assigns and rejects variable indices into packed 2-D arrays.
  logic [HQ*64-1:0] hdr_q;
  always_ff @(posedge clk_i) begin
    if (bv_q) begin
      for (int q = 0; q < HQ; q++) begin
        if (32'(q / Q) == bidx_q) hdr_q[q*64 +: 64] <= bdata_q[(q % Q)*64 +: 64];
      end
    end
  end

  // Fixed header fields (docs/table-format.md, "Fixed header").
  logic [31:0] f_magic, f_total, f_vocab, f_states, f_classes, f_rows, f_wpr;
  logic [31:0] f_start, f_final, f_eos, f_reject, f_empty, f_hdr_crc, f_pay_crc, f_comb;
  logic [15:0] f_version, f_hdr_bytes, f_nsec;
  logic [7:0]  f_sbits, f_cbits, f_rbits, f_tbits, f_wbits, f_bbits;
  assign f_magic     = hdr_q[0 +: 32];
  assign f_version   = hdr_q[32 +: 16];
  assign f_hdr_bytes = hdr_q[48 +: 16];
  assign f_total     = hdr_q[64 +: 32];
  assign f_vocab     = hdr_q[96 +: 32];
  assign f_states    = hdr_q[128 +: 32];
  assign f_classes   = hdr_q[160 +: 32];
  assign f_rows      = hdr_q[192 +: 32];
  assign f_wpr       = hdr_q[224 +: 32];
  assign f_start     = hdr_q[256 +: 32];
  assign f_final     = hdr_q[288 +: 32];
  assign f_eos       = hdr_q[320 +: 32];
  assign f_reject    = hdr_q[352 +: 32];
  assign f_empty     = hdr_q[384 +: 32];
  assign f_sbits     = hdr_q[416 +: 8];
  assign f_cbits     = hdr_q[424 +: 8];
  assign f_rbits     = hdr_q[432 +: 8];
  assign f_tbits     = hdr_q[440 +: 8];
  assign f_nsec      = hdr_q[448 +: 16];
  assign f_wbits     = hdr_q[464 +: 8];
  assign f_bbits     = hdr_q[472 +: 8];
  assign f_hdr_crc   = hdr_q[480 +: 32];
  assign f_pay_crc   = hdr_q[512 +: 32];
  assign f_comb      = hdr_q[544 +: 32];

  // Section table: entry k at qwords 9+2k and 10+2k.
  logic [15:0] s_id [NS];
  logic [7:0]  s_elem [NS];
  logic [7:0]  s_logic [NS];
  logic [31:0] s_count [NS];
  logic [31:0] s_off [NS];
  logic [31:0] s_len [NS];
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      s_id[k]    = hdr_q[(9 + 2*k)*64 +: 16];
      s_elem[k]  = hdr_q[(9 + 2*k)*64 + 16 +: 8];
      s_logic[k] = hdr_q[(9 + 2*k)*64 + 24 +: 8];
      s_count[k] = hdr_q[(9 + 2*k)*64 + 32 +: 32];
      s_off[k]   = hdr_q[(10 + 2*k)*64 +: 32];
      s_len[k]   = hdr_q[(10 + 2*k)*64 + 32 +: 32];
    end
  end

  // ---------------------------------------------------------------- table writes
  // Section k's entry always completes in an earlier beat than its first data
  // byte (entries end by byte 199, data starts at 256 or later), so the
  // registered header already holds it here.
  function automatic logic [32:0] region_words(input int k);
    unique case (k)
      fsm_pkg::SEC_TC: region_words = 33'(TcWords);
      fsm_pkg::SEC_BS: region_words = 33'(BsWords);
      fsm_pkg::SEC_CB: region_words = 33'(CbWords);
      fsm_pkg::SEC_AC: region_words = 33'(AcWords);
      fsm_pkg::SEC_MI: region_words = 33'(MiWords);
      fsm_pkg::SEC_MR: region_words = 33'(MrWords);
      fsm_pkg::SEC_FT: region_words = 33'(FtWords);
      default: region_words = 33'(FvWords);
    endcase
  endfunction
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      logic [32:0] first_beat, idx, end_byte, beat_byte;
      first_beat = 33'(s_off[k] >> LGB);
      end_byte   = 33'(s_off[k]) + 33'(s_len[k]);
      beat_byte  = 33'(bidx_q) << LGB;
      idx        = 33'(bidx_q) - first_beat;
      wr_idx_o[k] = idx[WIdxW-1:0];
      wr_en_o[k]  = bv_q && (state_q == L_RECV) && s_len[k] != 32'd0 &&
                    33'(bidx_q) >= first_beat && beat_byte < end_byte &&
                    idx < region_words(k);
    end
  end
  assign wr_data_o = bdata_q;

  // ---------------------------------------------------------------- CRCs
  // Payload: every qword from 23 on, as it arrives.
  logic [31:0] pcrc_q, pcrc_d;
  logic [QW-1:0] p_lo;
  logic [QW:0]   p_n;
  always_comb begin
    logic [32:0] first_q;   // global index of the beat's first qword
    first_q = 33'(bidx_q) * 33'(Q);
    if (first_q >= 33'(HQ)) begin
      p_lo = '0;
      p_n  = bnq_q;
    end else if (first_q + 33'(bnq_q) > 33'(HQ)) begin
      p_lo = QW'(33'(HQ) - first_q);
      p_n  = (QW+1)'(first_q + 33'(bnq_q) - 33'(HQ));
    end else begin
      p_lo = '0;
      p_n  = '0;
    end
    if (!bv_q) p_n = '0;
  end

  fsm_crc32 #(.Width(LoadW)) u_pcrc (
    .crc_i  (pcrc_q),
    .data_i (bdata_q),
    .lo_i   (p_lo),
    .n_i    (p_n),
    .crc_o  (pcrc_d)
  );

  // Header: 25 qwords once all are in, one per cycle, header_crc field as zero.
  logic [4:0]  hcrc_idx_q;
  logic [31:0] hcrc_q, hcrc_d;
  logic        hdr_full_q;          // all 23 header qwords captured
  logic [63:0] hcrc_word;
  assign hcrc_word = (hcrc_idx_q == 5'd7) ? {32'h0, hdr_q[448 +: 32]} :
                                              hdr_q[32'(hcrc_idx_q)*64 +: 64];
  fsm_crc32 #(.Width(64)) u_hcrc (
    .crc_i  (hcrc_q),
    .data_i (hcrc_word),
    .lo_i   (1'b0),
    .n_i    ((hdr_full_q && hcrc_idx_q < 5'(HQ)) ? 2'd1 : 2'd0),
    .crc_o  (hcrc_d)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni || (start_i && state_q == L_IDLE)) begin
      pcrc_q     <= 32'hFFFF_FFFF;
      hcrc_q     <= 32'hFFFF_FFFF;
      hcrc_idx_q <= '0;
      hdr_full_q <= 1'b0;
    end else begin
      pcrc_q <= pcrc_d;
      if (bv_q && (33'(bidx_q) + 33'd1) * 33'(Q) >= 33'(HQ)) hdr_full_q <= 1'b1;
      if (hdr_full_q && hcrc_idx_q < 5'(HQ)) begin
        hcrc_q     <= hcrc_d;
        hcrc_idx_q <= hcrc_idx_q + 5'd1;
      end
    end
  end

  // ---------------------------------------------------------------- verdict
  function automatic logic [7:0] bitlen(input logic [31:0] x);
    logic [7:0] n;
    n = 8'd0;
    for (int i = 0; i < 32; i++) if (x[i]) n = 8'(i + 1);
    bitlen = n;
  endfunction

  function automatic logic [7:0] max1(input logic [7:0] x);
    max1 = (x == 8'd0) ? 8'd1 : x;
  endfunction

  function automatic logic [7:0] storage(input logic [7:0] logical);
    storage = (logical <= 8'd8) ? 8'd8 : (logical <= 8'd16) ? 8'd16 : 8'd32;
  endfunction

  // Stage 1 (L_CHECK1): derived widths and products, registered.
  logic [7:0]  d_sbits_q, d_cbits_q, d_rbits_q, d_tbits_q, d_bbits_q;
  logic [63:0] d_rw_q;
  logic [32:0] d_wpr_q;
  always_ff @(posedge clk_i) begin
    if (state_q == L_CHECK1) begin
      d_sbits_q <= max1(bitlen(f_states));
      d_cbits_q <= max1(bitlen(f_classes - 32'd1));
      d_rbits_q <= max1(bitlen(f_rows));
      d_tbits_q <= max1(bitlen(f_vocab - 32'd1));
      d_bbits_q <= max1(bitlen(f_comb - 32'd1));
      // Mask rows are padded to whole 512-bit words (16 32-bit words).
      d_rw_q    <= 64'(f_rows) * ((64'(f_wpr) + 64'd15) >> 4 << 4);
      d_wpr_q   <= (33'(f_vocab) + 33'd31) >> 5;
    end
  end

  // Stage 2 (L_CHECK2): every dimension rule, then the first failing code.
  logic dims_ok, cap_ok;
  always_comb begin
    logic [7:0]  want_logic [NS];
    logic [63:0] want_count [NS];
    logic [63:0] want_len;
    logic [32:0] prev_end, this_end;
    logic [31:0] bitmap_words;
    bitmap_words = 32'((33'(f_states) + 33'd31) >> 5);
    want_logic[0] = d_cbits_q;  want_count[0] = 64'(f_vocab);
    want_logic[1] = d_bbits_q;  want_count[1] = 64'(f_states);
    want_logic[2] = 8'd32;      want_count[2] = 64'(f_comb);
    want_logic[3] = 8'd32;      want_count[3] = 64'(bitmap_words);
    want_logic[4] = d_rbits_q;  want_count[4] = 64'(f_states);
    want_logic[5] = 8'd32;      want_count[5] = d_rw_q;
    want_logic[6] = d_tbits_q;  want_count[6] = 64'(f_states);
    want_logic[7] = 8'd32;      want_count[7] = 64'(bitmap_words);
    dims_ok = f_vocab != 32'd0 && f_states != 32'd0 && f_classes != 32'd0 &&
              32'(f_sbits) == 32'(d_sbits_q) && f_cbits == d_cbits_q &&
              f_rbits == d_rbits_q && f_tbits == d_tbits_q &&
              f_bbits == d_bbits_q && f_comb >= f_classes && d_sbits_q <= 8'd16 &&
              33'(f_wpr) == d_wpr_q && f_wbits == 8'd32 &&
              f_reject == (32'd1 << d_sbits_q) - 32'd1 &&
              f_empty == (32'd1 << d_rbits_q) - 32'd1 &&
              f_start < f_states &&
              (f_final == fsm_pkg::IMG_NONE || f_final < f_states) &&
              (f_eos == fsm_pkg::IMG_NONE || f_eos < f_vocab) &&
              ((f_eos == fsm_pkg::IMG_NONE) == (f_final == fsm_pkg::IMG_NONE));
    prev_end = 33'(HDR_BYTES);
    for (int k = 0; k < NS; k++) begin
      want_len = want_count[k] * 64'(storage(want_logic[k]) >> 3);
      this_end = 33'(s_off[k]) + 33'(s_len[k]);
      if (32'(s_id[k]) != 32'(k + 1) || s_logic[k] != want_logic[k] ||
          s_elem[k] != storage(want_logic[k]) || 64'(s_count[k]) != want_count[k] ||
          64'(s_len[k]) != want_len || s_off[k][5:0] != 6'd0 ||
          33'(s_off[k]) < prev_end || this_end > 33'(f_total)) begin
        dims_ok = 1'b0;
      end
      prev_end = this_end;
    end
    cap_ok = f_vocab <= 32'(VocabMax) && 32'(d_sbits_q) <= 32'(StateW) &&
             32'(d_cbits_q) <= 32'(ClassW) && 32'(d_rbits_q) <= 32'(RowW) &&
             32'(d_tbits_q) <= 32'(TokW) && f_rows <= 32'(RowCap) &&
             f_comb <= 32'(NsCap);
  end

  logic [7:0] verdict;
  always_comb begin
    if (keep_err_q || bytes_q < 32'd72)         verdict = fsm_pkg::ST_LD_LENGTH;
    else if (f_magic != fsm_pkg::IMG_MAGIC)     verdict = fsm_pkg::ST_LD_MAGIC;
    else if (f_version != fsm_pkg::IMG_VERSION) verdict = fsm_pkg::ST_LD_VERSION;
    else if (f_nsec != 16'(fsm_pkg::IMG_NUM_SECTIONS) || f_hdr_bytes != HDR_BYTES[15:0])
                                                verdict = fsm_pkg::ST_LD_VERSION;
    else if (bytes_q < HDR_BYTES)               verdict = fsm_pkg::ST_LD_LENGTH;
    else if (~hcrc_q != f_hdr_crc)              verdict = fsm_pkg::ST_LD_HDR_CRC;
    else if (bytes_q != f_total)                verdict = fsm_pkg::ST_LD_LENGTH;
    else if (~pcrc_q != f_pay_crc)              verdict = fsm_pkg::ST_LD_PAY_CRC;
    else if (!dims_ok)                          verdict = fsm_pkg::ST_LD_DIMS;
    else if (!cap_ok)                           verdict = fsm_pkg::ST_LD_CAPACITY;
    else                                        verdict = fsm_pkg::ST_OK;
  end

  // ---------------------------------------------------------------- control
  always_comb begin
    state_d = state_q;
    unique case (state_q)
      L_IDLE:   if (start_i) state_d = L_RECV;
      // The last registered beat is processed in the cycle after TLAST.
      L_RECV:   if (blast_q) state_d = L_HCRC;
      // The header CRC needs 23 cycles after the header; a short image skips it.
      L_HCRC:   if (!hdr_full_q || hcrc_idx_q == 5'(HQ)) state_d = L_CHECK1;
      L_CHECK1: state_d = L_CHECK2;
      L_CHECK2: state_d = L_DONE;
      L_DONE:   state_d = L_IDLE;
      default:  state_d = L_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) state_q <= L_IDLE;
    else         state_q <= state_d;
  end

  always_ff @(posedge clk_i) begin
    if (state_q == L_CHECK2) status_o <= verdict;
  end

  assign busy_o          = (state_q != L_IDLE);
  assign done_o          = (state_q == L_DONE);
  assign bytes_o         = bytes_q;
  assign vocab_o         = f_vocab;
  assign states_o        = f_states;
  assign classes_o       = f_classes;
  assign rows_o          = f_rows;
  assign words_per_row_o = f_wpr;
  assign start_o         = f_start;
  assign eos_o           = f_eos;
  assign eos_valid_o     = (f_eos != fsm_pkg::IMG_NONE);
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      ew_o[k]  = (s_elem[k] == 8'd8) ? fsm_pkg::EW_8 :
                 (s_elem[k] == 8'd16) ? fsm_pkg::EW_16 : fsm_pkg::EW_32;
    end
  end

endmodule

`default_nettype wire
