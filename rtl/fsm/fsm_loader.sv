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
// version / header size / section count, length >= 192, header CRC, length =
// total_bytes, payload CRC, dimensions, capacity (fsm_pkg ST_LD_*), and reports
// one status. Every byte up to TLAST is consumed whatever the verdict.
//
// Comb entries (image version 3, linked) are rewritten on their way to memory:
// a class entry's payload, the info position of the state it leads to, gets
// the spare bank's region base added (cb_off_i), so the core's walk addresses
// the comb with no region add; the check field is cut to CkW bits; entries past
// comb_size are written free. A class entry whose payload lies outside
// [classes, comb_size) fails the image (DIMS): with that and the region's
// slack, no image can make the walk read outside its bank.
//
// Length: the write stages, the CRCs and the rules all read the captured header
// (26 fields and a 7-entry section table); split apart, each part would take the
// header across module ports.
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
  parameter int CbWords  = 2,
  parameter int AcWords  = 2,
  parameter int MiWords  = 2,
  parameter int MrWords  = 2,
  parameter int FtWords  = 2,
  parameter int FvWords  = 2,
  // Check-field bits of a comb entry in memory (ClassW + 1: classes, the info
  // column and the all-ones free code); the payload takes the rest of 32 bits.
  parameter int CkW      = 10
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,

  input  wire logic              start_i,      // begin one image (ignored unless idle)
  input  wire logic [31:0]       cb_off_i,     // comb entries before the spare bank's region
  // First word of each section's region in the spare bank; held for the load.
  input  wire logic [fsm_pkg::NSEC-1:0][31:0] wr_base_i,

  // Image stream
  input  wire logic              s_tvalid_i,
  output logic                   s_tready_o,
  input  wire logic [LoadW-1:0]  s_tdata_i,
  input  wire logic [LoadW/8-1:0] s_tkeep_i,
  input  wire logic              s_tlast_i,

  // Table writes: one beat, to word widx of every section whose we bit is set.
  output logic      [LoadW-1:0]  wr_data_o,
  output logic      [fsm_pkg::NSEC-1:0]        wr_en_o,
  output logic [fsm_pkg::NSEC-1:0][31:0]       wr_addr_o,    // wr_base_i + word index

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
  output logic      [31:0]       start_info_o, // image-relative; the core adds cb_off_i
  output logic      [31:0]       eos_o,
  output logic                   eos_valid_o,
  output logic [fsm_pkg::NSEC-1:0][1:0]  ew_o    // storage width code (fsm_pkg EW_*)
);

  localparam int LB  = LoadW / 8;                       // bytes per beat
  localparam int LGB = $clog2(LB);
  localparam int Q   = LoadW / 64;                      // qwords per beat
  localparam int QW  = (Q > 1) ? $clog2(Q) : 1;
  localparam int HQ  = fsm_pkg::IMG_HDR_QWORDS;         // 24 header qwords
  localparam int NS  = fsm_pkg::NSEC;
  localparam int TokW = $clog2(VocabMax);
  localparam logic [31:0] HDR_BYTES = 32'(fsm_pkg::IMG_HDR_BYTES);

  `COMMON_PARAM_CHECK(g_bad_loadw, LoadW == 64 || LoadW == 128 || LoadW == 256 || LoadW == 512,
                      "fsm_loader: LoadW must be 64, 128, 256 or 512")

  typedef enum logic [2:0] {
    L_IDLE, L_RECV, L_HCRC, L_CHECK0, L_CHECK1, L_CHECK2, L_CHECK3, L_DONE
  } lstate_e;
  lstate_e state_q, state_d;

  // ---------------------------------------------------------------- input stage
  // Registered beat: everything below works on it, one cycle after acceptance.
  logic             bv_q, blast_q;
  logic [LoadW-1:0] bdata_q;
  logic [31:0]      bidx_q;          // beat index within the image
  logic             last_seen_q;     // TLAST accepted; stop taking beats
  logic [31:0]      beats_q;         // beats accepted so far
  logic             keep_err_q;
  logic [31:0]      bytes_q;
  logic [QW:0]      bnq_q;           // whole qwords of the registered beat, 0 without one
  logic [QW:0]      bpn_q;           // payload qwords of the registered beat, 0 without one

  logic take;
  assign s_tready_o = (state_q == L_RECV) && !last_seen_q;
  assign take       = s_tvalid_i && s_tready_o;

  // Kept qwords of a beat; a TKEEP other than a prefix of whole qwords (or
  // anything but all ones before TLAST) is a framing error. The count is the
  // index of the first qword not wholly kept: a priority choice of constants,
  // not a chain of adders.
  logic [Q-1:0] in_full, in_none;
  logic [QW:0]  in_nq;
  logic         in_keep_ok;
  always_comb begin
    for (int j = 0; j < Q; j++) begin
      in_full[j] = (s_tkeep_i[j*8 +: 8] == 8'hFF);
      in_none[j] = (s_tkeep_i[j*8 +: 8] == 8'h00);
    end
    in_nq = (QW+1)'(Q);
    for (int j = Q - 1; j >= 0; j--) begin
      if (!in_full[j]) in_nq = (QW+1)'(j);
    end
    in_keep_ok = 1'b1;
    for (int j = 0; j < Q; j++) begin
      if (32'(j) >= 32'(in_nq) && !in_none[j]) in_keep_ok = 1'b0;
    end
    if (!s_tlast_i && in_nq != (QW+1)'(Q)) in_keep_ok = 1'b0;
  end

  // The payload run of the beat (qwords from HQ on), decided here from the
  // beat counter so the CRC stage starts from registers: beats before the
  // header's end carry none, the beat holding qword HQ starts mid-beat.
  localparam int HdrBeat = HQ / Q;    // beat holding qword HQ
  localparam int HdrLo   = HQ % Q;    // its first payload qword
  localparam int HdrLastBeat = (HQ + Q - 1) / Q - 1;   // beat with the last header qword
  logic [QW-1:0] in_plo;
  logic [QW:0]   in_pn;
  always_comb begin
    in_plo = '0;
    in_pn  = '0;
    if (beats_q > 32'(HdrBeat)) begin
      in_pn = in_nq;
    end else if (beats_q == 32'(HdrBeat) && 32'(in_nq) > 32'(HdrLo)) begin
      in_plo = QW'(HdrLo);
      in_pn  = (QW+1)'(32'(in_nq) - 32'(HdrLo));
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      bv_q        <= 1'b0;
      blast_q     <= 1'b0;
      last_seen_q <= 1'b0;
      beats_q     <= '0;
      keep_err_q  <= 1'b0;
      bytes_q     <= '0;
      bnq_q       <= '0;
      bpn_q       <= '0;
    end else begin
      bv_q    <= take;
      blast_q <= take && s_tlast_i;
      // Zero on cycles without a beat, so the CRC and byte count need no valid gate.
      bnq_q   <= take ? in_nq : '0;
      bpn_q   <= take ? in_pn : '0;
      if (start_i && state_q == L_IDLE) begin
        last_seen_q <= 1'b0;
        beats_q     <= '0;
        keep_err_q  <= 1'b0;
        bytes_q     <= '0;
      end else begin
        if (take) begin
          last_seen_q <= s_tlast_i;
          beats_q     <= beats_q + 32'd1;
          if (!in_keep_ok) keep_err_q <= 1'b1;
        end
        // Counted a cycle after the beat, from the registered qword count.
        bytes_q <= bytes_q + (32'(bnq_q) << 3);
      end
    end
  end

  logic [QW-1:0] bplo_q;      // payload run of the registered beat
  always_ff @(posedge clk_i) begin
    if (take) begin
      bdata_q <= s_tdata_i;
      bidx_q  <= beats_q;
      bplo_q  <= in_plo;
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
  logic [31:0] f_start_info, f_reserved;
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
  assign f_start_info = hdr_q[576 +: 32];
  assign f_reserved  = hdr_q[608 +: 32];

  // Section table: entry k at qwords 10+2k and 11+2k.
  logic [15:0] s_id [NS];
  logic [7:0]  s_elem [NS];
  logic [7:0]  s_logic [NS];
  logic [31:0] s_count [NS];
  logic [31:0] s_off [NS];
  logic [31:0] s_len [NS];
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      s_id[k]    = hdr_q[(10 + 2*k)*64 +: 16];
      s_elem[k]  = hdr_q[(10 + 2*k)*64 + 16 +: 8];
      s_logic[k] = hdr_q[(10 + 2*k)*64 + 24 +: 8];
      s_count[k] = hdr_q[(10 + 2*k)*64 + 32 +: 32];
      s_off[k]   = hdr_q[(11 + 2*k)*64 +: 32];
      s_len[k]   = hdr_q[(11 + 2*k)*64 + 32 +: 32];
    end
  end

  // ---------------------------------------------------------------- table writes
  // Beat b goes to word b - first_k of section k while first_k <= b, b's first
  // byte < off_k + len_k and b - first_k < region_k. Three register stages keep
  // the header's adds off the per-beat path:
  //   W0  the registered beat (bv_q, bidx_q); per-section bounds from the header
  //       (one add each), registered as k_*_q for W1
  //   W1  the beat a cycle later, compared with those bounds: enable, address
  //       and which comb entries lie before comb_size, registered
  //   W2  the comb rewrite (payload + cb_off_i) and its check; the write leaves.
  // Section k's entry always completes in an earlier beat than its first data
  // byte (entries end by byte 191, data starts at 192 or later), so the bounds
  // W1 uses, taken from the header a cycle after the beat's W0, equal the ones
  // a single-stage compare at W0 would have used.
  function automatic logic [32:0] region_words(input int k);
    unique case (k)
      fsm_pkg::SEC_TC: region_words = 33'(TcWords);
      fsm_pkg::SEC_CB: region_words = 33'(CbWords);
      fsm_pkg::SEC_AC: region_words = 33'(AcWords);
      fsm_pkg::SEC_MI: region_words = 33'(MiWords);
      fsm_pkg::SEC_MR: region_words = 33'(MrWords);
      fsm_pkg::SEC_FT: region_words = 33'(FtWords);
      default: region_words = 33'(FvWords);
    endcase
  endfunction

  localparam int NE  = LoadW / 32;            // comb entries per beat
  localparam int LGE = $clog2(NE);
  localparam int PW  = 32 - CkW;              // payload bits in memory

  // W0 -> W1: bounds per section. "Byte before the end" is b < ceil(end / LB),
  // kept as end's beat (k_eh_q) and whether end is mid-beat (k_elnz_q); comb
  // entry j of beat b lies before comb_size when b * NE + j < k_ce_q, likewise
  // split into a beat (k_ceh_q) and the entries of that beat (k_cel_q).
  logic [NS-1:0][32:0] k_first_q, k_eh_q, k_lim_q, k_adj_q;
  logic [NS-1:0]       k_elnz_q, k_lnz_q;
  logic [32:0]         k_ceh_q;
  logic [NE-1:0]       k_cel_q;
  always_ff @(posedge clk_i) begin
    for (int k = 0; k < NS; k++) begin
      logic [32:0] end_byte;
      end_byte     = 33'(s_off[k]) + 33'(s_len[k]);
      k_first_q[k] <= 33'(s_off[k] >> LGB);
      k_eh_q[k]    <= end_byte >> LGB;
      k_elnz_q[k]  <= end_byte[LGB-1:0] != '0;
      k_lim_q[k]   <= 33'(s_off[k] >> LGB) + region_words(k);
      k_lnz_q[k]   <= s_len[k] != 32'd0;
      // Word address = b - first + base: one subtract at W1.
      k_adj_q[k]   <= 33'(s_off[k] >> LGB) - 33'(wr_base_i[k]);
    end
    begin
      logic [33:0] comb_end;
      comb_end = 34'(f_comb) + (34'(s_off[fsm_pkg::SEC_CB] >> LGB) << LGE);
      k_ceh_q  <= 33'(comb_end >> LGE);
      for (int j = 0; j < NE; j++) k_cel_q[j] <= 32'(j) < 32'(comb_end[LGE-1:0]);
    end
  end

  // W1: the beat, a cycle after W0.
  logic             w1_v_q;
  logic [32:0]      w1_idx_q;
  logic [LoadW-1:0] w1_data_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) w1_v_q <= 1'b0;
    else         w1_v_q <= bv_q && (state_q == L_RECV);
    w1_idx_q  <= 33'(bidx_q);
    w1_data_q <= bdata_q;
  end

  logic [NS-1:0]       w1_en;
  logic [NS-1:0][31:0] w1_addr;
  logic [NE-1:0]       w1_live;   // comb entry j lies before comb_size
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      w1_en[k]   = w1_v_q && k_lnz_q[k] && w1_idx_q >= k_first_q[k] &&
                   (w1_idx_q < k_eh_q[k] || (w1_idx_q == k_eh_q[k] && k_elnz_q[k])) &&
                   w1_idx_q < k_lim_q[k];
      w1_addr[k] = 32'(w1_idx_q - k_adj_q[k]);
    end
    for (int j = 0; j < NE; j++) begin
      w1_live[j] = w1_idx_q < k_ceh_q || (w1_idx_q == k_ceh_q && k_cel_q[j]);
    end
  end

  // W2: the write port's registers.
  logic [LoadW-1:0] w2_data_q;
  logic [NE-1:0]    w2_live_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) wr_en_o <= '0;
    else         wr_en_o <= w1_en;
    wr_addr_o <= w1_addr;
    w2_data_q <= w1_data_q;
    w2_live_q <= w1_live;
  end

  // Comb entries of the write: rewritten for memory, and judged.
  logic [LoadW-1:0] cb_data;
  logic             cb_bad;                   // a class entry points outside the comb
  logic             cb_bad_q;
  always_comb begin
    cb_bad = 1'b0;
    for (int j = 0; j < NE; j++) begin
      logic [31:0] e;
      logic [CkW-1:0] ck;
      logic [31:0] pay;
      e   = w2_data_q[j*32 +: 32];
      ck  = e[CkW-1:0];
      pay = 32'(e[31:fsm_pkg::CB_CHECK_W]);
      // Past comb_size, the free code, or a check too wide for memory (which the
      // model refuses): free, so that no cut check can alias a class.
      if (!w2_live_q[j] ||
          32'(e[fsm_pkg::CB_CHECK_W-1:0]) >= (32'd1 << CkW) - 32'd1) begin
        cb_data[j*32 +: 32] = 32'hFFFF_FFFF;
      end else if (32'(ck) < f_classes) begin
        cb_data[j*32 +: 32] = {PW'(pay + cb_off_i), ck};
        if (pay < f_classes || pay >= f_comb) cb_bad = 1'b1;
      end else begin
        cb_data[j*32 +: 32] = {PW'(pay), ck};
      end
    end
  end
  assign wr_data_o = wr_en_o[fsm_pkg::SEC_CB] ? cb_data : w2_data_q;

  // ---------------------------------------------------------------- CRCs
  // Payload: every qword from HQ on, in three stages so that no path holds
  // more than one of the rotation, the 512-bit parity tree and the register
  // loop. The CRC map is linear: crc(R, run) = crc(0, run) ^ crc(R, zeros of
  // the run's length). Stage 1 right-aligns the registered beat's run into a
  // zero block, stage 2 takes its data term, stage 3 folds that into the
  // running register with a 32-bit state term.
  logic [31:0]      pcrc_q, pcrc_st, pdt_d, pdt_q;
  logic [LoadW-1:0] pblk_d, pblk_q;
  logic [QW:0]      pbn_q, pdn_q;   // run lengths of pblk_q and pdt_q, 0 without one

  fsm_qword_align #(.Width(LoadW)) u_palign (
    .data_i  (bdata_q),
    .lo_i    (bplo_q),
    .n_i     (bpn_q),
    .block_o (pblk_d)
  );
  always_ff @(posedge clk_i) pblk_q <= pblk_d;

  fsm_crc32 #(.Width(LoadW), .Aligned(1'b1)) u_pcrc_data (
    .crc_i  (32'h0),
    .data_i (pblk_q),
    .lo_i   ('0),
    .n_i    (pbn_q),
    .crc_o  (pdt_d)
  );
  fsm_crc32 #(.Width(LoadW)) u_pcrc_state (
    .crc_i  (pcrc_q),
    .data_i ('0),
    .lo_i   ('0),
    .n_i    (pdn_q),
    .crc_o  (pcrc_st)
  );

  // Header: 24 qwords once all are in, one per cycle, header_crc field as zero.
  // The qword is picked into a register a cycle before the CRC takes it.
  logic [4:0]  hcrc_idx_q;          // qwords picked so far
  logic [31:0] hcrc_q, hcrc_d;
  logic        hdr_full_q;          // all 24 header qwords captured
  logic [63:0] hcrc_word, hword_q;
  logic        hpick, hwv_q;        // a qword is picked / waits in hword_q
  assign hpick     = hdr_full_q && hcrc_idx_q < 5'(HQ);
  assign hcrc_word = (hcrc_idx_q == 5'd7) ? {32'h0, hdr_q[448 +: 32]} :
                                              hdr_q[32'(hcrc_idx_q)*64 +: 64];
  fsm_crc32 #(.Width(64)) u_hcrc (
    .crc_i  (hcrc_q),
    .data_i (hword_q),
    .lo_i   (1'b0),
    .n_i    (hwv_q ? 2'd1 : 2'd0),
    .crc_o  (hcrc_d)
  );
  always_ff @(posedge clk_i) begin
    if (hpick) hword_q <= hcrc_word;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || (start_i && state_q == L_IDLE)) begin
      pcrc_q     <= 32'hFFFF_FFFF;
      pbn_q      <= '0;
      pdt_q      <= '0;
      pdn_q      <= '0;
      hcrc_q     <= 32'hFFFF_FFFF;
      hcrc_idx_q <= '0;
      hwv_q      <= 1'b0;
      hdr_full_q <= 1'b0;
      cb_bad_q   <= 1'b0;
    end else begin
      if (wr_en_o[fsm_pkg::SEC_CB] && cb_bad) cb_bad_q <= 1'b1;
      // A run of n = 0 leaves both terms neutral: pdt_d is 0, pcrc_st is pcrc_q.
      pbn_q  <= bpn_q;
      pdt_q  <= pdt_d;
      pdn_q  <= pbn_q;
      pcrc_q <= pcrc_st ^ pdt_q;
      if (bv_q && bidx_q >= 32'(HdrLastBeat)) hdr_full_q <= 1'b1;
      hwv_q  <= hpick;
      hcrc_q <= hcrc_d;
      if (hpick) hcrc_idx_q <= hcrc_idx_q + 5'd1;
    end
  end

  // ---------------------------------------------------------------- verdict
  // (1 << n) - 1 for n <= 32, as a thermometer rather than a shift and a subtract.
  function automatic logic [31:0] low_ones(input logic [7:0] n);
    for (int i = 0; i < 32; i++) low_ones[i] = (32'(i) < 32'(n));
  endfunction

  // max(1, bit length of x) == w, without computing the bit length: x has no
  // bit at w or above, and bit w-1 set (unless w is 1). Both are masks of x by
  // w's thermometer (registered a stage before) and its top bit, not a shifter
  // or a select of w's 33 cases. in_range is 1 <= w <= 32.
  function automatic logic width_ok(input logic [31:0] x, input logic [31:0] below,
                                    input logic in_range);
    width_ok = in_range && (x & ~below) == 32'h0 &&
               (below == 32'h1 || (x & (below ^ (below >> 1))) != 32'h0);
  endfunction

  function automatic logic [7:0] storage(input logic [7:0] logical);
    storage = (logical <= 8'd8) ? 8'd8 : (logical <= 8'd16) ? 8'd16 : 8'd32;
  endfunction

  // The checks run over four registered stages, so no path carries a wide add
  // into a compare into the priority of the codes. Each rule is split where
  // its terms come from different stages: the part that reads header fields
  // only is registered a stage early, and its flag is ANDed in later.
  // Stage 0 (L_CHECK0): decrements, section ends, rounded sizes, and the
  // thermometer (1 << w) - 1 of each header width.
  localparam int NW = 5;   // widths: states, classes, rows, tokens, comb
  // Width k at [k*8 +: 8] (flat: Icarus 11 misses updates of unpacked words in assigns).
  logic [NW*8-1:0] f_w;
  assign f_w = {f_bbits, f_tbits, f_rbits, f_cbits, f_sbits};
  logic [31:0] c_cm1_q, c_vm1_q, c_bm1_q, c_bmw_q;
  logic [32:0] d_wpr_q;
  logic [32:0] c_end_q [NS];
  logic [31:0] c_below_q [NW];
  logic [NW-1:0] c_wrange_q;   // 1 <= w <= 32
  logic [1:0]    c_lsh_q [NW]; // log2 of w's storage bytes: 8, 16 or 32 bits
  always_ff @(posedge clk_i) begin
    if (state_q == L_CHECK0) begin
      c_cm1_q  <= f_classes - 32'd1;
      c_vm1_q  <= f_vocab - 32'd1;
      c_bm1_q  <= f_comb - 32'd1;
      c_bmw_q  <= 32'((33'(f_states) + 33'd31) >> 5);
      d_wpr_q  <= (33'(f_vocab) + 33'd31) >> 5;
      for (int k = 0; k < NS; k++) c_end_q[k] <= 33'(s_off[k]) + 33'(s_len[k]);
      for (int k = 0; k < NW; k++) begin
        c_below_q[k]  <= low_ones(f_w[k*8 +: 8]);
        c_wrange_q[k] <= f_w[k*8 +: 8] != 8'd0 && f_w[k*8 +: 8] <= 8'd32;
        c_lsh_q[k]    <= storage(f_w[k*8 +: 8]) == 8'd8  ? 2'd0 :
                         storage(f_w[k*8 +: 8]) == 8'd16 ? 2'd1 : 2'd2;
      end
    end
  end

  // The mask rows' word count, rows x the row's words padded to whole 512-bit
  // words (16 32-bit words), for the size rule of the mask-row section. A
  // multiply and its sum do not fit a check stage, so a pipeline of RW_LAT
  // stages computes it every cycle from the header registers. It only has to
  // be right at L_CHECK1 when the header is full: the header registers last
  // change with hdr_full_q, and L_CHECK0 comes HQ cycles later at the earliest
  // (the header CRC's picks). A header that is not full fails on its length,
  // which outranks DIMS, so then the product is never read.
  localparam int RW_LAT = 4;
  localparam int LoW    = 17;   // a DSP multiplier's unsigned width (27 x 18 signed)
  `COMMON_PARAM_CHECK(g_rw_lat, RW_LAT < HQ,
                     "fsm_loader: the mask-row product must settle before L_CHECK0")
  logic [28:0] m_q_q;                       // the padded row in 512-bit words
  logic [31:0] m_rows_q;
  logic [2*LoW-1:0] m_ll_q;                 // rows[16:0] x q[16:0]
  logic [28:0]      m_lh_q;                 // rows[16:0] x q[28:17]
  logic [31:0]      m_hl_q;                 // rows[31:17] x q[16:0]
  logic [26:0]      m_hh_q;                 // rows[31:17] x q[28:17]
  logic [32:0]      m_mid_q;                // the two cross terms, added
  logic [60:0]      m_cat_q;                // {hh, ll}: they share no bit
  logic [63:0]      m_rw_q;
  always_ff @(posedge clk_i) begin
    m_q_q    <= 29'((33'(f_wpr) + 33'd15) >> 4);
    m_rows_q <= f_rows;
    m_ll_q   <= 34'(m_rows_q[LoW-1:0]) * 34'(m_q_q[LoW-1:0]);
    m_lh_q   <= 29'(m_rows_q[LoW-1:0]) * 29'(m_q_q[28:LoW]);
    m_hl_q   <= 32'(m_rows_q[31:LoW]) * 32'(m_q_q[LoW-1:0]);
    m_hh_q   <= 27'(m_rows_q[31:LoW]) * 27'(m_q_q[28:LoW]);
    m_mid_q  <= 33'(m_lh_q) + 33'(m_hl_q);
    m_cat_q  <= {m_hh_q, m_ll_q};
    m_rw_q   <= (64'(m_cat_q) + (64'(m_mid_q) << LoW)) << 4;
  end

  // Stage 1 (L_CHECK1): the header's widths against its counts, and every
  // rule's terms that read header fields and stage 0 only. Later rules use the
  // header's widths: where one is wrong the image fails on DIMS before any rule
  // that uses it could decide.
  logic [NW*32-1:0] w_val;   // the count each width must hold, in f_w's order
  assign w_val = {c_bm1_q, c_vm1_q, f_rows, c_cm1_q, f_states};
  logic          dims_hdr;
  // Each section's terms in two flags: its size (count and length) and its
  // place (id, widths, alignment, order, bounds).
  logic [NS-1:0] sec_size, sec_place;
  always_comb begin
    logic [7:0]  want_logic [NS];
    logic [63:0] want_count [NS];
    logic [63:0] want_len;
    logic [1:0]  want_lsh [NS];   // log2 of the storage bytes, from stage 0
    logic [32:0] prev_end;
    want_logic[fsm_pkg::SEC_TC] = f_cbits;  want_count[fsm_pkg::SEC_TC] = 64'(f_vocab);
    want_logic[fsm_pkg::SEC_CB] = 8'd32;    want_count[fsm_pkg::SEC_CB] = 64'(f_comb);
    want_logic[fsm_pkg::SEC_AC] = 8'd32;    want_count[fsm_pkg::SEC_AC] = 64'(c_bmw_q);
    want_logic[fsm_pkg::SEC_MI] = f_rbits;  want_count[fsm_pkg::SEC_MI] = 64'(f_states);
    want_logic[fsm_pkg::SEC_MR] = 8'd32;    want_count[fsm_pkg::SEC_MR] = m_rw_q;
    want_logic[fsm_pkg::SEC_FT] = f_tbits;  want_count[fsm_pkg::SEC_FT] = 64'(f_states);
    want_logic[fsm_pkg::SEC_FV] = 8'd32;    want_count[fsm_pkg::SEC_FV] = 64'(c_bmw_q);
    for (int k = 0; k < NS; k++) want_lsh[k] = 2'd2;   // 32-bit sections
    want_lsh[fsm_pkg::SEC_TC] = c_lsh_q[1];
    want_lsh[fsm_pkg::SEC_MI] = c_lsh_q[2];
    want_lsh[fsm_pkg::SEC_FT] = c_lsh_q[3];
    // Version 3 rules: classes <= 4094 (the 12-bit check field keeps 0xFFF free),
    // a comb with room for the info column, bases and states within 20 bits, and
    // the start state's info position inside the comb.
    dims_hdr = f_vocab != 32'd0 && f_states != 32'd0 && f_classes != 32'd0 &&
               f_classes <= 32'd4094 && f_comb > f_classes &&
               f_sbits <= 8'(fsm_pkg::CB_PAYLOAD_W) && f_bbits <= 8'(fsm_pkg::CB_PAYLOAD_W) &&
               f_start_info >= f_classes && f_start_info < f_comb &&
               33'(f_wpr) == d_wpr_q && f_wbits == 8'd32 &&
               f_reject == c_below_q[0] &&
               f_empty == c_below_q[2] &&
               f_start < f_states &&
               (f_final == fsm_pkg::IMG_NONE || f_final < f_states) &&
               (f_eos == fsm_pkg::IMG_NONE || f_eos < f_vocab) &&
               ((f_eos == fsm_pkg::IMG_NONE) == (f_final == fsm_pkg::IMG_NONE));
    prev_end = 33'(HDR_BYTES);
    for (int k = 0; k < NS; k++) begin
      want_len = want_count[k] << want_lsh[k];
      sec_size[k]  = 64'(s_count[k]) == want_count[k] && 64'(s_len[k]) == want_len;
      // Image ids are 1 (token_class), then 3..8: id 2 was version 2's row_base.
      sec_place[k] = 32'(s_id[k]) == ((k == 0) ? 32'd1 : 32'(k + 2)) &&
                     s_logic[k] == want_logic[k] &&
                     s_elem[k] == storage(want_logic[k]) &&
                     s_off[k][5:0] == 6'd0 &&
                     33'(s_off[k]) >= prev_end && c_end_q[k] <= 33'(f_total);
      prev_end = c_end_q[k];
    end
  end
  logic [NW-1:0] d_wok_q;
  logic          d_dims_q;           // DIMS terms of header fields and stage 0
  logic [NS-1:0] d_size_q, d_place_q;
  always_ff @(posedge clk_i) begin
    if (state_q == L_CHECK1) begin
      for (int k = 0; k < NW; k++) begin
        d_wok_q[k] <= width_ok(w_val[k*32 +: 32], c_below_q[k], c_wrange_q[k]);
      end
      d_dims_q  <= dims_hdr;
      d_size_q  <= sec_size;
      d_place_q <= sec_place;
    end
  end

  // Stage 2 (L_CHECK2): one flag per rule.
  logic dims_ok, cap_ok;
  always_comb begin
    dims_ok = d_dims_q && (&d_wok_q) && (&d_size_q) && (&d_place_q) && !cb_bad_q;
    cap_ok = f_vocab <= 32'(VocabMax) && 32'(f_sbits) <= 32'(StateW) &&
             32'(f_cbits) <= 32'(ClassW) && 32'(f_rbits) <= 32'(RowW) &&
             32'(f_tbits) <= 32'(TokW) && f_rows <= 32'(RowCap) &&
             f_comb <= 32'(NsCap);
  end

  // Failing rules in priority order (the order of the header comment).
  typedef enum int {
    F_SHORT, F_MAGIC, F_VERSION, F_LAYOUT, F_HDR_LEN, F_HDR_CRC, F_TOTAL, F_PAY_CRC,
    F_DIMS, F_CAP, F_N
  } fail_e;
  logic [F_PAY_CRC:0] fail_q;
  logic [F_N-1:0]     fail;
  logic               dims_ok_q, cap_ok_q;
  always_ff @(posedge clk_i) begin
    if (state_q == L_CHECK2) begin
      fail_q[F_SHORT]   <= keep_err_q || bytes_q < 32'd72;
      fail_q[F_MAGIC]   <= f_magic != fsm_pkg::IMG_MAGIC;
      fail_q[F_VERSION] <= f_version != fsm_pkg::IMG_VERSION;
      fail_q[F_LAYOUT]  <= f_nsec != 16'(fsm_pkg::IMG_NUM_SECTIONS) ||
                           f_hdr_bytes != HDR_BYTES[15:0] || f_reserved != 32'd0;
      fail_q[F_HDR_LEN] <= bytes_q < HDR_BYTES;
      fail_q[F_HDR_CRC] <= ~hcrc_q != f_hdr_crc;
      fail_q[F_TOTAL]   <= bytes_q != f_total;
      fail_q[F_PAY_CRC] <= ~pcrc_q != f_pay_crc;
      dims_ok_q         <= dims_ok;
      cap_ok_q          <= cap_ok;
    end
  end
  always_comb begin
    fail[F_PAY_CRC:F_SHORT] = fail_q[F_PAY_CRC:F_SHORT];
    fail[F_DIMS]            = !dims_ok_q;
    fail[F_CAP]             = !cap_ok_q;
  end

  // Stage 3 (L_CHECK3): the first failing rule's code.
  logic [7:0] verdict;
  always_comb begin
    if (fail[F_SHORT])        verdict = fsm_pkg::ST_LD_LENGTH;
    else if (fail[F_MAGIC])   verdict = fsm_pkg::ST_LD_MAGIC;
    else if (fail[F_VERSION]) verdict = fsm_pkg::ST_LD_VERSION;
    else if (fail[F_LAYOUT])  verdict = fsm_pkg::ST_LD_VERSION;
    else if (fail[F_HDR_LEN]) verdict = fsm_pkg::ST_LD_LENGTH;
    else if (fail[F_HDR_CRC]) verdict = fsm_pkg::ST_LD_HDR_CRC;
    else if (fail[F_TOTAL])   verdict = fsm_pkg::ST_LD_LENGTH;
    else if (fail[F_PAY_CRC]) verdict = fsm_pkg::ST_LD_PAY_CRC;
    else if (fail[F_DIMS])    verdict = fsm_pkg::ST_LD_DIMS;
    else if (fail[F_CAP])     verdict = fsm_pkg::ST_LD_CAPACITY;
    else                        verdict = fsm_pkg::ST_OK;
  end

  // ---------------------------------------------------------------- control
  always_comb begin
    state_d = state_q;
    unique case (state_q)
      L_IDLE:   if (start_i) state_d = L_RECV;
      // The last registered beat is processed in the cycle after TLAST.
      L_RECV:   if (blast_q) state_d = L_HCRC;
      // The header CRC picks 24 words after the header; a short image skips it.
      // The last pick is folded in during L_CHECK0, before L_CHECK2 compares.
      L_HCRC:   if (!hdr_full_q || hcrc_idx_q == 5'(HQ)) state_d = L_CHECK0;
      L_CHECK0: state_d = L_CHECK1;
      L_CHECK1: state_d = L_CHECK2;
      L_CHECK2: state_d = L_CHECK3;
      L_CHECK3: state_d = L_DONE;
      L_DONE:   state_d = L_IDLE;
      default:  state_d = L_IDLE;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) state_q <= L_IDLE;
    else         state_q <= state_d;
  end

  always_ff @(posedge clk_i) begin
    if (state_q == L_CHECK3) status_o <= verdict;
  end

  assign done_o          = (state_q == L_DONE);
  assign bytes_o         = bytes_q;
  assign vocab_o         = f_vocab;
  assign states_o        = f_states;
  assign classes_o       = f_classes;
  assign rows_o          = f_rows;
  assign words_per_row_o = f_wpr;
  assign start_o         = f_start;
  assign start_info_o    = f_start_info;
  assign eos_o           = f_eos;
  assign eos_valid_o     = (f_eos != fsm_pkg::IMG_NONE);
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      ew_o[k]  = (s_elem[k] == 8'd8) ? fsm_pkg::EW_8 :
                 (s_elem[k] == 8'd16) ? fsm_pkg::EW_16 : fsm_pkg::EW_32;
    end
  end

`ifdef COMMON_ASSERT_ON
  // The pipelined mask-row product equals the product, wherever it is read.
  always_ff @(posedge clk_i) begin
    if (rst_ni && state_q == L_CHECK1 && hdr_full_q) begin
      assert (m_rw_q == 64'(f_rows) * ((64'(f_wpr) + 64'd15) >> 4 << 4))
        else $fatal(1, "fsm_loader: mask-row product %0d, want %0d rows x %0d words padded to 16",
                    m_rw_q, f_rows, f_wpr);
    end
  end
`endif

endmodule

`default_nettype wire
