// SPDX-License-Identifier: Apache-2.0
// Token-FSM validator core: resident grammar tables, per-slot DFA state, a 6-stage
// command pipeline behind an input register, the mask streamer and the table loader.
//
// Length: the 6-stage pipeline with its same-slot forwarding, the mask streamer
// and the loader share the bank RAM ports and the slot state; split apart, the
// forwarding paths would cross module ports.
//
// The next-state table is a linked comb (image version 3, docs/table-format.md):
// a state is named by its info position i, a class entry holds the next state's
// info position, and entry i holds the state number. The walk from one token to
// the next is one comb read and one add, with no table keyed by state.
//
// Pipeline (docs/fsm-protocol.md has the cycle model):
//   I   input register: the beat decoded (kind, slot, framing); its hazard
//   S0  accept a command; slot checks; token -> class read (token_class memory)
//   S1  class lane; class - C
//   S2  slot info position (forwarded from S3 or S4); comb read at i + (class - C)
//   S3  allowed? (check == class); VIOLATED / TOKEN, with the slot's violated flag
//       and position forwarded from S4; info read (port B) at the resulting i
//   S4  state number from the info entry; accepting / forced / mask-row reads;
//       slot write-back of i, violated flag and position
//   S5  result (offered the same cycle through fsm_out_fifo); slot write-back of
//       the accepting flag and mask row
// One command enters per cycle, on any slot: S2 takes the info position of the
// op just ahead from S3. A command on a slot with a BIND in flight waits for it,
// and MASK waits until its slot has nothing in flight that writes it. Results
// leave in command order; the pipeline never stalls: a command enters only if
// the result buffer has room for every result in flight.
// Tables live in NGrammars + 1 banks; a LOAD writes the spare bank and swaps it
// in only if the image passes every check.
`default_nettype none

`include "common_macros.svh"

module fsm_core #(
  // See fsm_top for the meaning and legal range of each parameter.
  parameter int VocabMax  = 50257,
  parameter int ClassW    = 9,
  parameter int StateW    = 12,
  parameter int RowW      = 8,
  parameter int NsCap     = 262144,
  parameter int RowCap    = 128,
  parameter int NSlots    = 64,
  parameter int NGrammars = 4,
  parameter int MaskW     = 512,
  parameter int LoadW     = 512,
  parameter int RspDepth  = 8
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,

  // Commands (64-bit beats)
  input  wire logic                cmd_tvalid_i,
  output logic                     cmd_tready_o,
  input  wire logic [fsm_pkg::CMD_W-1:0] cmd_tdata_i,
  input  wire logic                cmd_tlast_i,

  // Results (128-bit beats, one per command)
  output logic                     rsp_tvalid_o,
  input  wire logic                rsp_tready_i,
  output logic      [fsm_pkg::RSP_W-1:0] rsp_tdata_o,
  output logic                     rsp_tlast_o,

  // Masks
  output logic                     mask_tvalid_o,
  input  wire logic                mask_tready_i,
  output logic      [MaskW-1:0]    mask_tdata_o,
  output logic                     mask_tlast_o,

  // Table images
  input  wire logic                load_tvalid_i,
  output logic                     load_tready_o,
  input  wire logic [LoadW-1:0]    load_tdata_i,
  input  wire logic [LoadW/8-1:0]  load_tkeep_i,
  input  wire logic                load_tlast_i,

  // Events and status for the CSR block
  output logic                     res_valid_o,     // a result left S5
  output logic      [7:0]          res_op_o,
  output logic      [7:0]          res_status_o,
  output logic                     res_accepted_o,
  output logic                     viol_valid_o,    // a violation happened
  output logic      [15:0]         viol_slot_o,
  output logic      [31:0]         viol_pos_o,
  output logic      [31:0]         viol_token_o,
  output logic                     mask_beat_o,
  output logic      [15:0]         loaded_o,        // bit g: grammar g holds tables
  output logic                     busy_o,
  output logic                     loading_o
);

  // ---------------------------------------------------------------- sizes
  localparam int LB      = LoadW / 8;
  localparam int LGB     = $clog2(LB);
  localparam int LGL     = $clog2(LoadW);
  localparam int LGM     = $clog2(MaskW);
  localparam int NBanks  = NGrammars + 1;
  localparam int BankW   = $clog2(NBanks);
  localparam int SlotW   = (NSlots > 1) ? $clog2(NSlots) : 1;
  // Slot arrays have a power-of-two size, so S0 indexes them with the slot
  // field's low bits, without waiting for the range check (an out-of-range
  // slot is an error whatever those entries hold; no op writes them).
  localparam int SlotN   = 1 << SlotW;
  localparam int GramW   = (NGrammars > 1) ? $clog2(NGrammars) : 1;
  localparam int TokW    = $clog2(VocabMax);          // a token id
  // State-indexed regions hold 2^StateW elements, so that a state read from a
  // comb entry indexes its own bank's region whatever the image holds.
  localparam int SMax    = 1 << StateW;
  localparam int WMax    = (VocabMax + 31) / 32;      // 32-bit words per mask row
  // Comb entries in memory: {payload, check} in 32 bits, the check cut to CkW bits
  // (classes, the info column and the all-ones free code); NE entries per word.
  localparam int CkW     = ClassW + 1;
  localparam int NE      = LoadW / 32;
  localparam int NEW     = $clog2(NE);
  // Memory words between mask rows: the row padded to whole 512-bit words.
  localparam int StrideW = $clog2(((WMax + 15) / 16) * 16 * 32 / LoadW + 1);
  localparam int BeatW   = $clog2((VocabMax + MaskW - 1) / MaskW + 1);
  // Bytes per element as the image stores it (8/16/32-bit storage).
  localparam int TcE     = (ClassW <= 8) ? 1 : 2;
  localparam int MiE     = (RowW <= 8) ? 1 : 2;
  localparam int FtE     = (TokW <= 8) ? 1 : (TokW <= 16) ? 2 : 4;
  // Words per bank of each region. Sections start on 64-byte boundaries, so a
  // section starts at the start of a beat (LoadW <= 512) and needs no slack.
  localparam int TcWords = (VocabMax * TcE + LB - 1) / LB;
  // A comb region has 2^ClassW entries of slack past NsCap: the loader keeps every
  // payload below comb_size, so i - C + class stays inside the bank's region.
  localparam int CbWords = (NsCap + (1 << ClassW) + NE - 1) / NE;
  localparam int BmWords = (((SMax + 31) / 32) * 4 + LB - 1) / LB;
  localparam int MiWords = (SMax * MiE + LB - 1) / LB;
  localparam int FtWords = (SMax * FtE + LB - 1) / LB;
  localparam int MrWords = RowCap * (((WMax + 15) / 16) * 16 * 32 / LoadW);
  // Memory depths (all banks) and address widths.
  localparam int TcDepth = NBanks * TcWords;
  localparam int CbDepth = NBanks * CbWords;
  localparam int BmDepth = NBanks * BmWords;
  localparam int MiDepth = NBanks * MiWords;
  localparam int FtDepth = NBanks * FtWords;
  localparam int MrDepth = NBanks * MrWords;
  localparam int TcAW    = $clog2(TcDepth);
  localparam int CbAW    = $clog2(CbDepth);
  localparam int BmAW    = $clog2(BmDepth);
  localparam int MiAW    = $clog2(MiDepth);
  localparam int FtAW    = $clog2(FtDepth);
  localparam int MrAW    = $clog2(MrDepth);
  localparam int RspLW   = $clog2(RspDepth + 1);
  // An info position, absolute over all banks (the loader adds the region base).
  localparam int IW      = $clog2(CbDepth * NE);

  // RAM style by size: UltraRAM for deep memories (4K x 72 blocks), block RAM
  // otherwise, LUT RAM for a handful of words.
  function automatic logic [87:0] ram_style(input int depth);
    if (depth >= 4096)    ram_style = 88'("ultra");
    else if (depth >= 64) ram_style = 88'("block");
    else                  ram_style = 88'("distributed");
  endfunction
  localparam logic [87:0] TcStyle = ram_style(TcDepth);
  localparam logic [87:0] CbStyle = ram_style(CbDepth);
  localparam logic [87:0] BmStyle = ram_style(BmDepth);
  localparam logic [87:0] MiStyle = ram_style(MiDepth);
  localparam logic [87:0] FtStyle = ram_style(FtDepth);
  localparam logic [87:0] MrStyle = ram_style(MrDepth);

  `COMMON_PARAM_CHECK(g_bad_vocab, VocabMax >= 2 && VocabMax <= (1 << 24),
                      "fsm_core: VocabMax must be in 2..2^24")
  `COMMON_PARAM_CHECK(g_bad_statew, StateW >= 2 && StateW <= 16, "fsm_core: StateW 2..16")
  `COMMON_PARAM_CHECK(g_bad_classw, ClassW >= 1 && ClassW <= 16, "fsm_core: ClassW 1..16")
  `COMMON_PARAM_CHECK(g_bad_roww, RowW >= 1 && RowW <= 16, "fsm_core: RowW 1..16")
  `COMMON_PARAM_CHECK(g_bad_nscap, NsCap >= 2 && NsCap <= (1 << 26), "fsm_core: NsCap")
  `COMMON_PARAM_CHECK(g_bad_loadw, LoadW <= 512, "fsm_core: LoadW <= 512")
  `COMMON_PARAM_CHECK(g_bad_rowcap, RowCap >= 1 && RowCap < (1 << RowW),
                      "fsm_core: RowCap must be in 1..2^RowW-1")
  `COMMON_PARAM_CHECK(g_bad_slots, NSlots >= 1 && NSlots <= 256, "fsm_core: NSlots 1..256")
  `COMMON_PARAM_CHECK(g_bad_grammars, NGrammars >= 1 && NGrammars <= 15,
                      "fsm_core: NGrammars 1..15")
  `COMMON_PARAM_CHECK(g_bad_rsp, RspDepth >= 8 && RspDepth <= 64, "fsm_core: RspDepth 8..64")
  `COMMON_PARAM_CHECK(g_bad_comb, IW <= 32 - CkW && ClassW <= fsm_pkg::CB_CHECK_W - 1,
                      "fsm_core: comb regions too large for an entry's payload field")

  // Internal op kinds carried down the pipeline.
  localparam logic [2:0] K_BIND    = 3'd0;
  localparam logic [2:0] K_ADVANCE = 3'd1;
  localparam logic [2:0] K_VHDR    = 3'd2;   // VALIDATE header beat
  localparam logic [2:0] K_VTOK    = 3'd3;   // VALIDATE token beat
  localparam logic [2:0] K_MASK    = 3'd4;
  localparam logic [2:0] K_RESET   = 3'd5;
  localparam logic [2:0] K_QUERY   = 3'd6;
  localparam logic [2:0] K_MISC    = 3'd7;   // LOAD result or unknown opcode

  // ---------------------------------------------------------------- field helpers
  // Element byte_i / (element bytes) of a table word. Elements are aligned to
  // their size (element i starts at byte i << ewsh), so this selects the 32-bit
  // word, then its half and its byte: a 16:1 mux and two 2:1 muxes rather than
  // a 64-way byte shifter (an assertion checks the alignment at each use).
  function automatic logic [31:0] lane(input logic [LoadW-1:0] word, input logic [LGB-1:0] byte_i,
                                       input logic [1:0] ew);
    logic [31:0] w32;
    logic [15:0] h16;
    logic [7:0]  b8;
    w32 = word[32'(byte_i[LGB-1:2]) * 32 +: 32];
    h16 = byte_i[1] ? w32[31:16] : w32[15:0];
    b8  = byte_i[0] ? h16[15:8] : h16[7:0];
    unique case (ew)
      fsm_pkg::EW_8:  lane = {24'h0, b8};
      fsm_pkg::EW_16: lane = {16'h0, h16};
      default:        lane = w32;
    endcase
  endfunction

  // A lane whose low byte bits are byte_lo is a whole number of elements of width
  // ew (lane() relies on it).
  function automatic logic lane_aligned(input logic [1:0] byte_lo, input logic [1:0] ew);
    unique case (ew)
      fsm_pkg::EW_8:  lane_aligned = 1'b1;
      fsm_pkg::EW_16: lane_aligned = !byte_lo[0];
      default:        lane_aligned = byte_lo == 2'b00;
    endcase
  endfunction

  // log2 of the bytes per element. The loader refuses a section that does not
  // start on a 64-byte boundary, so element i of a section starts at byte
  // i << ewsh of its region: no section offset and no multiply.
  function automatic logic [1:0] ewsh(input logic [1:0] ew);
    unique case (ew)
      fsm_pkg::EW_8:  ewsh = 2'd0;
      fsm_pkg::EW_16: ewsh = 2'd1;
      default:        ewsh = 2'd2;
    endcase
  endfunction

  // First word of a bank's region: a mux of NBanks constants rather than a
  // runtime multiply on the address path.
  function automatic logic [31:0] bank_base(input logic [BankW-1:0] bank, input int words);
    bank_base = 32'd0;
    for (int k = 1; k < NBanks; k++) begin
      if (bank == BankW'(k)) bank_base = 32'(k * words);
    end
  endfunction

  // ---------------------------------------------------------------- grammar banks
  logic [BankW-1:0]  map_q [NGrammars];   // grammar -> bank
  logic [BankW-1:0]  spare_q;             // the bank a LOAD writes
  logic [NGrammars-1:0] loaded_q;
  // Per-bank table parameters, from the image header at commit.
  logic [TokW:0]     bp_vocab_q [NBanks];
  logic [StateW:0]   bp_states_q [NBanks];
  logic [ClassW:0]   bp_classes_q [NBanks];
  logic [RowW-1:0]   bp_rows_q [NBanks];
  logic [IW-1:0]     bp_sinfo_q [NBanks];   // the start state's info position
  logic [TokW-1:0]   bp_eos_q [NBanks];
  logic              bp_eosv_q [NBanks];
  logic [BeatW-1:0]  bp_nbeats_q [NBanks];
  logic [StrideW-1:0] bp_stride_q [NBanks];  // memory words between mask rows
  logic [fsm_pkg::NSEC-1:0][1:0]     bp_ew_q [NBanks];

  // ---------------------------------------------------------------- slots
  // A vector, not an array: a LOAD unbinds every slot on its grammar in one
  // cycle, and as an array Yosys kept those SlotN writes as a memory's write
  // ports in priority order, a LUT chain as long as the slots (11 levels).
  logic [SlotN-1:0]  sl_bound_q;
  logic [GramW-1:0]  sl_gram_q  [SlotN];
  logic [IW-1:0]     sl_info_q  [SlotN];   // the state's info position
  logic              sl_viol_q  [SlotN];
  logic [31:0]       sl_pos_q   [SlotN];
  logic              sl_acc_q   [SlotN];   // the state's accepting flag and mask row
  logic [RowW-1:0]   sl_row_q   [SlotN];
  logic              sl_rempty_q [SlotN];
  logic [BankW-1:0]  sl_bank_q  [SlotN];   // map_q[sl_gram_q] while bound (SVA)

  // ---------------------------------------------------------------- pipeline registers
  // S1..S5 share one layout (packed, index = stage); fields are filled as the op goes.
  localparam int NST = 5;                // last stage
  logic [NST:1]              p_v_q;        // stage valid
  logic [NST:1][2:0]         p_kind_q;
  logic [NST:1][7:0]         p_op_q;       // opcode echoed in the result
  logic [NST:1]              p_res_q;      // produces a result
  logic [NST:1]              p_slotop_q;   // acts on p_slot_q (hazards, forwarding)
  logic [NST:1][15:0]        p_slot_q;     // slot field as given
  logic [NST:1][GramW-1:0]   p_gram_q;
  logic [NST:1][BankW-1:0]   p_bank_q;
  logic [NST:1][7:0]         p_err_q;      // status so far
  logic [NST:1][31:0]        p_tokraw_q;   // token; bit 31 flags "token >= V"
  logic [NST:1]              p_last_q;     // VALIDATE: last beat of the packet
  // Same-slot flags, compared a stage early so forwarding decisions start from a
  // register: the op in S2 acts on the slot of the op in S3 (p_same3_q) or in S4
  // (p_same4_q); the op in S3 on the slot of the op in S4 (p_same34_q). Each
  // includes the other op's valid and slot-op bits.
  logic                      p_same3_q, p_same4_q, p_same34_q;
  logic                      p_ok3_q;      // S3: p_err_q[3] == ST_OK
  logic [LGB-1:0]    p_tclane_q;         // S1: byte of the class in the token_class word
  logic [IW-1:0]     p_cdelta_q;         // S2: class - C (mod 2^IW)
  logic [CkW-1:0]    p_cls_q;            // S2: class, cut to the check width
  logic              p_class_ok_q;       // S2: class < num_classes
  logic [NEW-1:0]    p_cblane_q;         // S3: the comb entry's lane in its word
  logic [CkW-1:0]    p_cls3_q;           // S3: class
  logic [IW-1:0]     p_i_q;              // S3: current info position
  logic              p_viol_q;           // S3: slot violated flag
  logic [31:0]       p_pos_q;            // S3: slot position
  logic              p_class_ok3_q;
  // S4: outcome and the slot's new values
  logic [IW-1:0]     p_ni_q;             // S4: info position the op leaves (and reports)
  logic [NEW-1:0]    p_iblane_q;         // S4: the info entry's lane in its word
  logic              p_nviol_q;
  logic [31:0]       p_npos_q;
  logic              p_accepted_q;
  logic              p_wb_q;             // writes the slot back
  logic [31:0]       p_aux_q;
  logic              p_viol_ev_q;
  logic [31:0]       p_vpos_q, p_vtok_q;
  // S5: the result's fields, and the bits of the state-info words it reads
  logic [StateW-1:0] p5_state_q;
  logic              p5_nviol_q, p5_accepted_q, p5_wb_q, p5_viol_ev_q;
  logic [31:0]       p5_aux_q, p5_vpos_q, p5_vtok_q;
  logic [LGL-1:0]    p_acbit_q, p_fvbit_q;
  logic [LGB-1:0]    p_milane_q, p_ftlane_q;

  // ---------------------------------------------------------------- memories
  logic             loading_q;          // an image is loading: nothing else runs
  logic             tc_re, cb_re, ib_re, info_re;
  logic [TcAW-1:0]  tc_raddr;
  logic [CbAW-1:0]  cb_raddr, cb_addr_a, cb_ld_waddr, ib_raddr;
  logic [BmAW-1:0]  ac_raddr, fv_raddr;
  logic [MiAW-1:0]  mi_raddr;
  logic [FtAW-1:0]  ft_raddr;
  logic [LoadW-1:0] tc_rdata, cb_rdata, ib_rdata, ac_rdata, fv_rdata, mi_rdata, ft_rdata;
  logic             mr_re;
  logic [MrAW-1:0]  mr_raddr;
  logic [LoadW-1:0] mr_rdata;

  // Loader write side
  logic [LoadW-1:0]       ld_wdata;
  logic [fsm_pkg::NSEC-1:0]             ld_we;
  logic [fsm_pkg::NSEC-1:0][31:0]       ld_waddr;   // registered in the loader
  logic [fsm_pkg::NSEC-1:0][31:0]       ld_wbase;   // the spare bank's regions
  always_comb begin
    ld_wbase[fsm_pkg::SEC_TC] = bank_base(spare_q, TcWords);
    ld_wbase[fsm_pkg::SEC_CB] = bank_base(spare_q, CbWords);
    ld_wbase[fsm_pkg::SEC_AC] = bank_base(spare_q, BmWords);
    ld_wbase[fsm_pkg::SEC_MI] = bank_base(spare_q, MiWords);
    ld_wbase[fsm_pkg::SEC_MR] = bank_base(spare_q, MrWords);
    ld_wbase[fsm_pkg::SEC_FT] = bank_base(spare_q, FtWords);
    ld_wbase[fsm_pkg::SEC_FV] = bank_base(spare_q, BmWords);
  end

  common_ram_sdp #(.Width(LoadW), .Depth(TcDepth), .RamStyle(TcStyle)) u_tc (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_TC]),
    .waddr_i (TcAW'(ld_waddr[fsm_pkg::SEC_TC])), .wdata_i (ld_wdata),
    .re_i (tc_re), .raddr_i (tc_raddr), .rdata_o (tc_rdata));
  // The comb: port A is the loader's write port during a LOAD (nothing else runs
  // then) and the walk's read port otherwise; port B reads info entries.
  // Port A's address: the walk's read, or the loader's write (S2 selects, see there).
  assign cb_ld_waddr = CbAW'(ld_waddr[fsm_pkg::SEC_CB]);
  assign cb_addr_a   = cb_raddr;
  fsm_comb_ram #(.Width(LoadW), .Depth(CbDepth), .RamStyle(CbStyle)) u_cb (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_CB]), .re_a_i (cb_re), .addr_a_i (cb_addr_a),
    .wdata_i (ld_wdata), .rdata_a_o (cb_rdata),
    .re_b_i (ib_re), .addr_b_i (ib_raddr), .rdata_b_o (ib_rdata));
  common_ram_sdp #(.Width(LoadW), .Depth(BmDepth), .RamStyle(BmStyle)) u_ac (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_AC]),
    .waddr_i (BmAW'(ld_waddr[fsm_pkg::SEC_AC])), .wdata_i (ld_wdata),
    .re_i (info_re), .raddr_i (ac_raddr), .rdata_o (ac_rdata));
  common_ram_sdp #(.Width(LoadW), .Depth(MiDepth), .RamStyle(MiStyle)) u_mi (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_MI]),
    .waddr_i (MiAW'(ld_waddr[fsm_pkg::SEC_MI])), .wdata_i (ld_wdata),
    .re_i (info_re), .raddr_i (mi_raddr), .rdata_o (mi_rdata));
  common_ram_sdp #(.Width(LoadW), .Depth(FtDepth), .RamStyle(FtStyle)) u_ft (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_FT]),
    .waddr_i (FtAW'(ld_waddr[fsm_pkg::SEC_FT])), .wdata_i (ld_wdata),
    .re_i (info_re), .raddr_i (ft_raddr), .rdata_o (ft_rdata));
  common_ram_sdp #(.Width(LoadW), .Depth(BmDepth), .RamStyle(BmStyle)) u_fv (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_FV]),
    .waddr_i (BmAW'(ld_waddr[fsm_pkg::SEC_FV])), .wdata_i (ld_wdata),
    .re_i (info_re), .raddr_i (fv_raddr), .rdata_o (fv_rdata));
  // Mask rows start on memory words: a mask beat is one read, no realignment.
  common_ram_sdp #(.Width(LoadW), .Depth(MrDepth), .RamStyle(MrStyle)) u_mr (
    .clk_i (clk_i), .we_i (ld_we[fsm_pkg::SEC_MR]),
    .waddr_i (MrAW'(ld_waddr[fsm_pkg::SEC_MR])), .wdata_i (ld_wdata),
    .re_i (mr_re), .raddr_i (mr_raddr), .rdata_o (mr_rdata));

  // ---------------------------------------------------------------- loader
  logic        ld_start_q, ld_done;
  logic [7:0]  ld_status;
  logic [31:0] ld_bytes, ld_vocab, ld_states, ld_classes, ld_rows, ld_wpr, ld_start_st, ld_eos;
  logic [31:0] ld_start_info, ld_cb_off;
  assign ld_cb_off = bank_base(spare_q, CbWords) << NEW;   // entries before the spare region
  logic        ld_eosv;
  logic [fsm_pkg::NSEC-1:0][1:0]  ld_ew;

  fsm_loader #(
    .LoadW    (LoadW),
    .VocabMax (VocabMax),
    .StateW   (StateW),
    .ClassW   (ClassW),
    .RowW     (RowW),
    .NsCap    (NsCap),
    .RowCap   (RowCap),
    .TcWords  (TcWords),
    .CbWords  (CbWords),
    .AcWords  (BmWords),
    .MiWords  (MiWords),
    .MrWords  (MrWords),
    .FtWords  (FtWords),
    .FvWords  (BmWords),
    .CkW      (CkW)
  ) u_loader (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .start_i         (ld_start_q),
    .cb_off_i        (ld_cb_off),
    .wr_base_i       (ld_wbase),
    .s_tvalid_i      (load_tvalid_i),
    .s_tready_o      (load_tready_o),
    .s_tdata_i       (load_tdata_i),
    .s_tkeep_i       (load_tkeep_i),
    .s_tlast_i       (load_tlast_i),
    .wr_data_o       (ld_wdata),
    .wr_en_o         (ld_we),
    .wr_addr_o       (ld_waddr),
    .done_o          (ld_done),
    .status_o        (ld_status),
    .bytes_o         (ld_bytes),
    .vocab_o         (ld_vocab),
    .states_o        (ld_states),
    .classes_o       (ld_classes),
    .rows_o          (ld_rows),
    .words_per_row_o (ld_wpr),
    .start_o         (ld_start_st),
    .start_info_o    (ld_start_info),
    .eos_o           (ld_eos),
    .eos_valid_o     (ld_eosv),
    .ew_o            (ld_ew)
  );

  // Ops that may write their slot's state (a MASK waits for them; see S0).
  function automatic logic writes_slot(input logic [2:0] kind);
    writes_slot = (kind != K_MASK) && (kind != K_QUERY) && (kind != K_MISC);
  endfunction

  // ---------------------------------------------------------------- I: input register
  // A command beat is decoded as it arrives and waits in one register, so S0
  // starts from flops: the beat's kind, slot, packet framing, the checks that
  // need no state and whether it must wait for an op in flight (haz_q) are
  // settled a cycle ahead of the accept decision. The decode reads no slot or
  // bank state, so nothing it holds can go stale while the beat waits; the
  // hazard is redone every cycle. cmd_tready_o depends on the core's flops
  // only, never on the beat offered.
  logic [7:0]  c_op;
  logic [7:0]  c_gram_raw;
  logic [15:0] c_slot_raw;
  logic [31:0] c_tok_raw;
  assign c_op       = cmd_tdata_i[7:0];
  assign c_gram_raw = cmd_tdata_i[15:8];
  assign c_slot_raw = cmd_tdata_i[31:16];
  assign c_tok_raw  = cmd_tdata_i[63:32];

  // Packet framing, kept as beats enter: a VALIDATE packet's later beats are
  // tokens for in_vslot_q; a MASK_BATCH packet's later beats each name a slot.
  logic        in_vact_q, in_bact_q;
  logic [15:0] in_vslot_q;
  logic        in_take;
  assign in_take = cmd_tvalid_i && cmd_tready_o;

  logic [2:0]  in_kind;
  logic [7:0]  in_op;
  logic [15:0] in_slot;
  logic        in_res, in_slotop, in_is_load;
  always_comb begin
    in_is_load = 1'b0;
    in_res     = 1'b1;
    in_slotop  = 1'b1;
    if (in_vact_q) begin
      in_kind = K_VTOK;
      in_op   = fsm_pkg::OP_VALIDATE;
      in_slot = in_vslot_q;
      in_res  = cmd_tlast_i;
    end else if (in_bact_q) begin
      // A later beat of a MASK_BATCH packet: one more slot, a MASK of its own.
      in_kind = K_MASK;
      in_op   = fsm_pkg::OP_MASK_BATCH;
      in_slot = c_slot_raw;
    end else begin
      in_op   = c_op;
      in_slot = c_slot_raw;
      unique case (c_op)
        fsm_pkg::OP_BIND:     in_kind = K_BIND;
        fsm_pkg::OP_ADVANCE:  in_kind = K_ADVANCE;
        fsm_pkg::OP_VALIDATE: begin
          in_kind = K_VHDR;
          in_res  = cmd_tlast_i;
        end
        fsm_pkg::OP_MASK, fsm_pkg::OP_MASK_BATCH: in_kind = K_MASK;
        fsm_pkg::OP_RESET:    in_kind = K_RESET;
        fsm_pkg::OP_QUERY:    in_kind = K_QUERY;
        default: begin
          in_kind    = K_MISC;
          in_slotop  = 1'b0;
          in_is_load = (c_op == fsm_pkg::OP_LOAD);
        end
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      in_vact_q <= 1'b0;
      in_bact_q <= 1'b0;
    end else begin
      if (in_take && (in_kind == K_VHDR || in_kind == K_VTOK)) in_vact_q <= !cmd_tlast_i;
      if (in_take && in_op == fsm_pkg::OP_MASK_BATCH)          in_bact_q <= !cmd_tlast_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (in_take && in_kind == K_VHDR) in_vslot_q <= in_slot;
  end

  // What S0 needs of a beat, decoded. The flags repeat what the kind says, so
  // the accept decision and the error priority read one flop each.
  typedef struct packed {
    logic [2:0]  kind;
    logic [7:0]  op;
    logic [15:0] slot;
    logic        res;          // the beat owes a result (a packet's last beat)
    logic        slotop;       // acts on its slot
    logic        slot_ok;      // slot < NSlots
    logic        hzb;          // a BIND on a slot that exists (a hazard for later ops)
    logic        hzw;          // writes a slot that exists
    logic        is_mask;
    logic        is_bind;
    logic        is_vtok;
    logic        is_load;
    logic        op_bad;       // unknown opcode
    logic        needs_bound;  // fails GRAMMAR on an unbound slot
    logic        gram_ok;      // grammar field < NGrammars
    logic [GramW-1:0] gram;    // the grammar field if gram_ok, else 0
    logic [7:0]  gram_raw;
    logic [31:0] tok;
    logic        last;
  } in_beat_t;

  in_beat_t in_beat, x_beat;
  logic     x_valid, s0_ready;
  logic     s0_take;
  always_comb begin
    in_beat.kind        = in_kind;
    in_beat.op          = in_op;
    in_beat.slot        = in_slot;
    in_beat.res         = in_res;
    in_beat.slotop      = in_slotop;
    in_beat.slot_ok     = 32'(in_slot) < 32'(NSlots);
    in_beat.hzb         = in_slotop && in_beat.slot_ok && in_kind == K_BIND;
    in_beat.hzw         = in_slotop && in_beat.slot_ok && writes_slot(in_kind);
    in_beat.is_mask     = in_kind == K_MASK;
    in_beat.is_bind     = in_kind == K_BIND;
    in_beat.is_vtok     = in_kind == K_VTOK;
    in_beat.is_load     = in_is_load;
    in_beat.op_bad      = in_kind == K_MISC && !in_is_load;
    in_beat.needs_bound = in_kind == K_ADVANCE || in_kind == K_VHDR || in_kind == K_MASK ||
                          in_kind == K_RESET || in_kind == K_QUERY;
    in_beat.gram_ok     = 32'(c_gram_raw) < 32'(NGrammars);
    in_beat.gram        = in_beat.gram_ok ? GramW'(c_gram_raw) : '0;
    in_beat.gram_raw    = c_gram_raw;
    in_beat.tok         = c_tok_raw;
    in_beat.last        = cmd_tlast_i;
  end

  // The register takes a beat when it is empty or S0 takes the one it holds.
  assign cmd_tready_o = !x_valid || s0_ready;
  always_ff @(posedge clk_i) begin
    if (!rst_ni)           x_valid <= 1'b0;
    else if (cmd_tready_o) x_valid <= cmd_tvalid_i;
  end
  always_ff @(posedge clk_i) begin
    if (in_take) x_beat <= in_beat;
  end

  // ---------------------------------------------------------------- S0: accept
  // VALIDATE packet in progress: the header's grammar and bank, for its tokens.
  logic [GramW-1:0] v_gram_q;
  logic [BankW-1:0] v_bank_q;
  logic [GramW-1:0] load_gram_q;
  logic [7:0]       load_gram_raw_q;
  logic             load_gram_ok_q;

  logic [2:0]       s0_kind;
  logic [7:0]       s0_op;
  logic [15:0]      s0_slot;
  logic [SlotW-1:0] s0_si;
  logic             s0_slot_ok, s0_slotop, s0_res, s0_bound;
  logic [GramW-1:0] s0_gram;
  logic [BankW-1:0] s0_bank;
  logic [7:0]       s0_err;
  logic [31:0]      s0_tc_byte;
  logic             s0_is_load;

  assign s0_kind    = x_beat.kind;
  assign s0_op      = x_beat.op;
  assign s0_slot    = x_beat.slot;
  assign s0_si      = SlotW'(x_beat.slot);
  assign s0_slot_ok = x_beat.slot_ok;
  assign s0_slotop  = x_beat.slotop;
  assign s0_res     = x_beat.res;
  assign s0_is_load = x_beat.is_load;

  always_comb begin
    s0_bound = sl_bound_q[s0_si];
    if (x_beat.is_bind) begin
      s0_gram = x_beat.gram;
    end else if (x_beat.is_vtok) begin
      s0_gram = v_gram_q;
    end else begin
      s0_gram = s0_bound ? sl_gram_q[s0_si] : '0;
    end
    // A bound slot's bank is stable until a LOAD of its grammar unbinds it. A
    // BIND's bank and grammar check index by the beat's own grammar field, not by
    // s0_gram, so neither waits for the slot reads.
    if (x_beat.is_vtok)      s0_bank = v_bank_q;
    else if (x_beat.is_bind) s0_bank = map_q[x_beat.gram];
    else                     s0_bank = sl_bank_q[s0_si];
    // Errors found here, in priority order; VIOLATED and TOKEN are added at S3.
    s0_err = fsm_pkg::ST_OK;
    if (x_beat.op_bad) begin
      s0_err = fsm_pkg::ST_OPCODE;
    end else if (x_beat.is_bind) begin
      if (!s0_slot_ok) s0_err = fsm_pkg::ST_SLOT;
      else if (!x_beat.gram_ok || !loaded_q[x_beat.gram]) s0_err = fsm_pkg::ST_GRAMMAR;
    end else if (x_beat.needs_bound) begin
      if (!s0_slot_ok) s0_err = fsm_pkg::ST_SLOT;
      else if (!s0_bound) s0_err = fsm_pkg::ST_GRAMMAR;
    end
    // token -> class: byte of the token's class in its bank's region.
    s0_tc_byte = x_beat.tok << ewsh(bp_ew_q[s0_bank][fsm_pkg::SEC_TC]);
  end

  // Per-bank and per-slot values the stages need. Unpacked arrays are only read
  // in always_comb blocks: Icarus 11 does not update continuous assignments of them.
  logic             s0_sl_rempty, s0_sl_acc;
  logic [RowW-1:0]  s0_sl_row;
  logic [BeatW-1:0] s0_b_nbeats;
  logic [TokW:0]    s0_b_vocab;
  logic             s0_b_eosv;
  logic [TokW-1:0]  s0_b_eos;
  logic [1:0]       s1_ew_tc;
  logic [31:0]      s1_classes;
  logic [TokW:0]    s1_vocab;
  logic [1:0]       s4_ew_mi, s4_ew_ft, s5_ew_mi, s5_ew_ft;
  logic [31:0]      s5_rows, s5_vocab, s5_states;
  always_comb begin
    s0_b_vocab   = bp_vocab_q[s0_bank];
    s0_b_nbeats  = bp_nbeats_q[s0_bank];
    s0_b_eosv    = bp_eosv_q[s0_bank];
    s0_b_eos     = bp_eos_q[s0_bank];
    s0_sl_rempty = sl_rempty_q[s0_si];
    s0_sl_acc    = sl_acc_q[s0_si];
    s0_sl_row    = sl_row_q[s0_si];
    s1_ew_tc     = bp_ew_q[p_bank_q[1]][fsm_pkg::SEC_TC];
    s1_classes   = 32'(bp_classes_q[p_bank_q[1]]);
    s1_vocab     = bp_vocab_q[p_bank_q[1]];
    s4_ew_mi     = bp_ew_q[p_bank_q[4]][fsm_pkg::SEC_MI];
    s4_ew_ft     = bp_ew_q[p_bank_q[4]][fsm_pkg::SEC_FT];
    s5_ew_mi     = bp_ew_q[p_bank_q[5]][fsm_pkg::SEC_MI];
    s5_ew_ft     = bp_ew_q[p_bank_q[5]][fsm_pkg::SEC_FT];
    s5_rows      = 32'(bp_rows_q[p_bank_q[5]]);
    s5_states    = 32'(bp_states_q[p_bank_q[5]]);
    s5_vocab     = 32'(bp_vocab_q[p_bank_q[5]]);
  end

  // Hazards: see the header. A BIND in flight on the slot (S0 reads the slot's
  // grammar), or for a MASK any op in flight that may write the slot (a MASK
  // reads the slot's mask row at S0, written back at S5). Everything else is
  // forwarded at S2. The input register decides which of the two a beat is.

  // What each op in flight means for a later op's S0, decided when it entered:
  // p_hzb_q (a BIND) and p_hzw_q (writes its slot), both only for a slot op on a
  // slot that exists, so S0 compares SlotW slot bits against flags, not 16-bit
  // slots against opcodes. An op on a slot past NSlots touches no slot state and
  // is never a hazard (nor waits for one): it ends in SLOT.
  logic [NST:1] p_hzb_q, p_hzw_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      p_hzb_q <= '0;
      p_hzw_q <= '0;
    end else begin
      p_hzb_q[1] <= s0_take && x_beat.hzb;
      p_hzw_q[1] <= s0_take && x_beat.hzw;
      for (int k = 2; k <= NST; k++) begin
        p_hzb_q[k] <= p_hzb_q[k-1];
        p_hzw_q[k] <= p_hzw_q[k-1];
      end
    end
  end

  // The hazard of the beat S0 sees, decided a cycle ahead so that the accept
  // decision reads a flop. Next cycle S1..S5 hold what S0..S4 hold now (S5's op
  // leaves), and the register holds either the beat it holds now (it stays when
  // S0 does not take it, and no op enters S1) or the beat offered now (taken
  // when cmd_tready_o; the beat it replaces then enters S1 exactly when it was
  // valid). haz_stay and haz_new are both formed from flops and the offered
  // beat, so only the final pick waits for the accept decision. Each first
  // asks whether an op due in S1..S5 is a BIND or a writer on the beat's slot,
  // which needs the slot alone, and only then what the beat is, so the
  // offered beat's decode runs beside the slot compares.
  logic             haz_q, haz_stay, haz_new;
  logic [SlotW-1:0] in_si;
  assign in_si = SlotW'(in_beat.slot);
  always_comb begin
    logic stay_b, stay_w, new_b, new_w, eq;
    eq     = x_valid && s0_si == in_si;
    new_b  = eq && x_beat.hzb;
    new_w  = eq && x_beat.hzw;
    stay_b = 1'b0;
    stay_w = 1'b0;
    for (int k = 1; k < NST; k++) begin
      eq     = SlotW'(p_slot_q[k]) == in_si;
      new_b  = new_b || (eq && p_hzb_q[k]);
      new_w  = new_w || (eq && p_hzw_q[k]);
      eq     = SlotW'(p_slot_q[k]) == s0_si;
      stay_b = stay_b || (eq && p_hzb_q[k]);
      stay_w = stay_w || (eq && p_hzw_q[k]);
    end
    haz_stay = x_beat.slotop && x_beat.slot_ok && (stay_b || (x_beat.is_mask && stay_w));
    haz_new  = in_beat.slotop && in_beat.slot_ok && (new_b || (in_beat.is_mask && new_w));
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) haz_q <= 1'b0;
    else         haz_q <= cmd_tready_o ? haz_new : haz_stay;
  end

  // Results in flight must fit in the result buffer. owed_q counts the results
  // owed: in the pipeline, in u_rsp, and a LOAD's while its image loads. It is
  // kept as commands are taken and results handed out, so the accept decision
  // compares one register with a constant; summing the stages and the buffer's
  // level there put a 4-bit adder tree on every S0 register's enable. The
  // assertions below hold it to that sum each cycle.
  logic [RspLW-1:0] rsp_level;
  logic [RspLW-1:0] owed_q;
  logic             credit_ok, pipe_empty, mask_idle;
  logic [1:0]       mask_jobs;     // jobs the streamer holds
  logic             mask_room;     // a MASK may enter S0 (see the mask job below)
  assign credit_ok = owed_q < RspLW'(RspDepth);
  assign pipe_empty = !(|p_v_q);

  logic s0_mask_job;
  assign s0_mask_job = (s0_kind == K_MASK) && (s0_err == fsm_pkg::ST_OK);

  always_comb begin
    s0_ready = !loading_q && credit_ok && !haz_q;
    // Any MASK beat waits for streamer room, failing or not: the decision then
    // needs only the opcode, not the slot's checks.
    if (x_beat.is_mask && !mask_room) s0_ready = 1'b0;
    if (s0_is_load && !(pipe_empty && mask_idle)) s0_ready = 1'b0;
  end

  assign s0_take = x_valid && s0_ready;

  // A LOAD owes its result from the cycle it is taken (s0_res is set for it);
  // a VALIDATE beat that is not its packet's last owes none.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) owed_q <= '0;
    else         owed_q <= owed_q + RspLW'(s0_take && s0_res) - RspLW'(rsp_tvalid_o && rsp_tready_i);
  end

  // token_class read for the op entering S1.
  assign tc_re    = s0_take;
  assign tc_raddr = TcAW'(bank_base(s0_bank, TcWords) + (s0_tc_byte >> LGB));

  // Mask job: the slot's mask fields are registered at S0 (every cycle, so the
  // accept decision is no register enable) and handed to the streamer from S1,
  // where the row's first word (row x stride) is formed. The streamer always
  // takes the job; S0 admits a MASK only while the streamer's jobs plus the one
  // in S1 leave it a free place (MaskJobs).
  localparam int MaskJobs = 3;
  logic             m1_v_q;
  logic [BankW-1:0] m1_bank_q;
  logic [RowW-1:0]  m1_row_q;
  logic             m1_empty_q, m1_acc_q, m1_eosv_q;
  logic [BeatW-1:0] m1_nbeats_q;
  logic [TokW:0]    m1_vocab_q;
  logic [TokW-1:0]  m1_eos_q;
  logic [MrAW-1:0]  m1_base;
  assign mask_room = (32'(mask_jobs) + 32'(m1_v_q)) < 32'(MaskJobs);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) m1_v_q <= 1'b0;
    else         m1_v_q <= s0_take && s0_mask_job;
  end
  always_ff @(posedge clk_i) begin
    m1_bank_q   <= s0_bank;
    m1_row_q    <= s0_sl_row;
    m1_empty_q  <= s0_sl_rempty;
    m1_acc_q    <= s0_sl_acc;
    m1_nbeats_q <= s0_b_nbeats;
    m1_vocab_q  <= s0_b_vocab;
    m1_eosv_q   <= s0_b_eosv;
    m1_eos_q    <= s0_b_eos;
  end
  always_comb m1_base = MrAW'(32'(m1_row_q) * 32'(bp_stride_q[m1_bank_q]));

  fsm_mask_engine #(
    .LoadW  (LoadW),
    .MaskW  (MaskW),
    .BankW  (BankW),
    .AddrW  (MrAW),
    .MrWords (MrWords),
    .BeatW  (BeatW),
    .TokW   (TokW),
    .Depth  (4)
  ) u_mask (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .job_valid_i     (m1_v_q),
    .jobs_o          (mask_jobs),
    .job_bank_i      (m1_bank_q),
    .job_base_i      (m1_base),
    .job_empty_i     (m1_empty_q),
    .job_nbeats_i    (m1_nbeats_q),
    .job_vocab_i     (m1_vocab_q),
    .job_eos_valid_i (m1_eosv_q),
    .job_eos_i       (m1_eos_q),
    .job_accepting_i (m1_acc_q),
    .rd_en_o         (mr_re),
    .rd_addr_o       (mr_raddr),
    .rd_data_i       (mr_rdata),
    .m_tvalid_o      (mask_tvalid_o),
    .m_tready_i      (mask_tready_i),
    .m_tdata_o       (mask_tdata_o),
    .m_tlast_o       (mask_tlast_o),
    .idle_o          (mask_idle),
    .beat_o          (mask_beat_o)
  );

  // ---------------------------------------------------------------- S1: class
  logic [31:0] s1_class;
  logic        s1_tok_bad;     // token >= V of the op's bank
  assign s1_class   = lane(tc_rdata, p_tclane_q, s1_ew_tc);
  assign s1_tok_bad = (33'(p_tokraw_q[1]) >= 33'(s1_vocab));

  // ---------------------------------------------------------------- S2: info position, comb read
  logic [SlotW-1:0]  s2_si;
  logic [IW-1:0]     s2_i, s2_e;     // info position; the comb entry it reads
  logic              s2_viol;
  logic [31:0]       s2_pos;
  logic              s2_fwd3, s2_fwd4, s2_vfwd;
  logic [7:0]        s2_err;

  // S3 outcome, forwarded to S2 (declared here, computed in the S3 section).
  logic [IW-1:0]     s3_ni;         // info position the op leaves the slot at
  logic              s3_nviol, s3_wb;
  logic              s3_wb_fast;    // s3_wb from registers only (forwarding, see S3)
  // The walk S3 hands on, split so that S2 adds before it selects: the op's next
  // info position is the comb entry's payload when s3_take_ok && s3_allowed, else
  // s3_keep (both from registers). An assertion holds it equal to s3_ni.
  logic              s3_take_ok;
  logic [IW-1:0]     s3_keep;
  logic [IW-1:0]     s3_pay;        // the comb entry's payload (S3)
  logic              s3_allowed;    // the comb entry's check is the class (S3)
  logic              s2_sel3;       // S2's info position comes from S3
  logic [IW-1:0]     s2_other;      // ... or from here (S4, the slot, the packet)
  logic [IW-1:0]     s2_e_pay, s2_e_keep, s2_e_other;
  logic [31:0]       s3_npos;
  logic [IW-1:0]     vx_info_d;

  // VALIDATE context: the packet's working state, updated at S3 in order.
  logic [7:0]        vx_err_q;
  logic [IW-1:0]     vx_info_q;
  logic [31:0]       vx_pos_q, vx_idx_q;
  logic              vx_viol_q;
  logic [31:0]       vx_vidx_q, vx_vpos_q, vx_vtok_q;

  always_comb begin
    s2_si  = SlotW'(p_slot_q[2]);
    // Forwarding: the newest write-back to this slot still in the pipeline wins:
    // S3 (computed this cycle), then S4 (written into the slot at this edge).
    s2_fwd3 = p_same3_q && s3_wb_fast;
    s2_fwd4 = p_same4_q && p_wb_q;
    // The VALIDATE beat just ahead (in S3) has the packet's newest working state.
    s2_vfwd = p_v_q[3] && (p_kind_q[3] == K_VHDR || p_kind_q[3] == K_VTOK);
    // The comb entry's address is formed in three candidates, each added as soon
    // as its operand is known, and one select last: the payload of the entry S3 just
    // read is the only operand that arrives late, so the loop from the comb read
    // back to its address is the payload's add and one select.
    if (p_kind_q[2] == K_VTOK) begin
      s2_sel3  = s2_vfwd;
      s2_other = vx_info_q;
      s2_viol  = vx_viol_q;
      s2_pos   = vx_pos_q;
    end else begin
      // The info position (the walk) comes from S3 when it writes the slot; the
      // violated flag and position never do: S3 takes them from S4 a cycle later,
      // so nothing decided after the comb read feeds back into S2.
      s2_sel3  = s2_fwd3;
      s2_other = s2_fwd4 ? p_ni_q : sl_info_q[s2_si];
      if (s2_fwd4) begin
        s2_viol = p_nviol_q;
        s2_pos  = p_npos_q;
      end else begin
        s2_viol = sl_viol_q[s2_si];
        s2_pos  = sl_pos_q[s2_si];
      end
    end
    if (!s2_sel3)                             s2_i = s2_other;
    else if (s3_take_ok && s3_allowed) s2_i = s3_pay;
    else                                      s2_i = s3_keep;
    // Entry i - C + class: one add, class - C formed at S1. Positions are absolute
    // (the loader added the bank's region base), so no region add and no clamp.
    s2_e_pay   = s3_pay + p_cdelta_q;
    s2_e_keep  = s3_keep + p_cdelta_q;
    // While an image loads no op is in flight (s2_sel3 is 0): port A takes the
    // loader's write address through the same select.
    s2_e_other = loading_q ? IW'({cb_ld_waddr, NEW'(0)}) : s2_other + p_cdelta_q;
    if (!s2_sel3)                             s2_e = s2_e_other;
    else if (s3_take_ok && s3_allowed) s2_e = s2_e_pay;
    else                                      s2_e = s2_e_keep;
    s2_err = p_err_q[2];
  end

  assign cb_re    = p_v_q[2];
  assign cb_raddr = CbAW'(s2_e >> NEW);

  // ---------------------------------------------------------------- S3: allowed?, info read
  logic [31:0]       s3_cb;
  logic              s3_accepted, s3_viol_ev;
  logic [31:0]       s3_aux, s3_vpos, s3_vtok;
  logic [7:0]        s3_err;
  // The slot's violated flag and position as S3 sees them: from the op just
  // ahead (now in S4) when it writes the same slot, else as S2 took them.
  logic              s3_fwd4, s3_viol_in;
  logic [31:0]       s3_pos_in, s3_pos_inc;
  // VALIDATE context after this beat
  logic [7:0]        vx_err_d;
  logic [31:0]       vx_pos_d, vx_idx_d, vx_vidx_d, vx_vpos_d, vx_vtok_d;
  logic              vx_viol_d;

  always_comb begin
    logic [BankW-1:0] b;
    b = p_bank_q[3];
    // Entry {payload, check}: the transition exists iff the check is the class.
    s3_cb      = lane(cb_rdata, {p_cblane_q, 2'b00}, fsm_pkg::EW_32);
    s3_pay     = IW'(s3_cb[31:CkW]);
    s3_allowed = p_class_ok3_q && (s3_cb[CkW-1:0] == p_cls3_q);
    s3_fwd4    = p_same34_q && p_wb_q;
    s3_viol_in = s3_fwd4 ? p_nviol_q : p_viol_q;
    s3_pos_in  = s3_fwd4 ? p_npos_q : p_pos_q;
    s3_pos_inc = s3_pos_in + 32'd1;    // beside the comb read, not after it
    // Errors that need the slot's flags, in priority order after S0's.
    s3_err     = p_err_q[3];
    if (s3_err == fsm_pkg::ST_OK && s3_viol_in &&
        (p_kind_q[3] == K_ADVANCE || p_kind_q[3] == K_VHDR)) s3_err = fsm_pkg::ST_VIOLATED;
    else if (s3_err == fsm_pkg::ST_OK && p_kind_q[3] == K_ADVANCE && p_tokraw_q[3][31])
      s3_err = fsm_pkg::ST_TOKEN;   // bit 31 of p_tokraw_q carries "token >= V" (see S1)
    s3_ni      = p_i_q;
    s3_nviol   = s3_viol_in;
    s3_npos    = s3_pos_in;
    s3_accepted = 1'b0;
    s3_wb      = 1'b0;
    s3_aux     = s3_pos_in;
    s3_viol_ev = 1'b0;
    s3_vpos    = s3_pos_in;
    s3_vtok    = p_tokraw_q[3];
    vx_err_d   = vx_err_q;
    vx_info_d  = vx_info_q;
    vx_pos_d   = vx_pos_q;
    vx_idx_d   = vx_idx_q;
    vx_viol_d  = vx_viol_q;
    vx_vidx_d  = vx_vidx_q;
    vx_vpos_d  = vx_vpos_q;
    vx_vtok_d  = vx_vtok_q;
    unique case (p_kind_q[3])
      K_ADVANCE: begin
        s3_accepted = s3_allowed;
        s3_ni       = s3_allowed ? s3_pay : p_i_q;
        s3_npos     = s3_allowed ? s3_pos_inc : s3_pos_in;
        s3_nviol    = !s3_allowed;
        s3_aux      = s3_npos;
        s3_wb       = (s3_err == fsm_pkg::ST_OK);
        s3_viol_ev  = (s3_err == fsm_pkg::ST_OK) && !s3_allowed;
      end
      K_BIND, K_RESET: begin
        s3_ni     = bp_sinfo_q[b];
        s3_nviol  = 1'b0;
        s3_npos   = 32'd0;
        s3_aux    = 32'd0;
        s3_wb     = (s3_err == fsm_pkg::ST_OK);
      end
      K_VHDR, K_VTOK: begin
        if (p_kind_q[3] == K_VHDR) begin
          vx_err_d   = s3_err;
          vx_info_d  = p_i_q;
          vx_pos_d   = s3_pos_in;
          vx_idx_d   = 32'd0;
          vx_viol_d  = 1'b0;
        end else if (vx_err_q == fsm_pkg::ST_OK) begin
          if (p_tokraw_q[3][31]) begin
            vx_err_d = fsm_pkg::ST_TOKEN;
          end else if (!vx_viol_q) begin
            if (s3_allowed) begin
              vx_info_d = s3_pay;
              vx_pos_d  = vx_pos_q + 32'd1;
            end else begin
              vx_viol_d = 1'b1;
              vx_vidx_d = vx_idx_q;
              vx_vpos_d = vx_pos_q;
              vx_vtok_d = {1'b0, p_tokraw_q[3][30:0]};
            end
          end
          vx_idx_d = vx_idx_q + 32'd1;
        end
        s3_err      = vx_err_d;
        s3_ni       = vx_info_d;
        s3_npos     = vx_pos_d;
        s3_nviol    = vx_viol_d;
        s3_accepted = !vx_viol_d;
        s3_aux      = vx_viol_d ? vx_vidx_d : 32'hFFFF_FFFF;
        s3_wb       = p_last_q[3] && (vx_err_d == fsm_pkg::ST_OK);
        s3_viol_ev  = s3_wb && vx_viol_d;
        s3_vpos     = vx_vpos_d;
        s3_vtok     = vx_vtok_d;
      end
      default: begin   // K_MASK, K_QUERY, K_MISC: report, change nothing
      end
    endcase
  end

  // Whether the op in S3 writes its slot back, the same decision as s3_wb but
  // formed from registers alone: it needs no comb entry (an allowed or refused
  // token is written back alike), so S2's forwarding select does not wait for
  // S3's error priority chain. An assertion below holds it equal to s3_wb.
  always_comb begin
    unique case (p_kind_q[3])
      K_ADVANCE:      s3_wb_fast = p_ok3_q && !s3_viol_in && !p_tokraw_q[3][31];
      K_BIND, K_RESET: s3_wb_fast = p_ok3_q;
      K_VTOK:         s3_wb_fast = p_last_q[3] && vx_err_q == fsm_pkg::ST_OK &&
                                   !p_tokraw_q[3][31];
      K_VHDR:         s3_wb_fast = p_last_q[3] && p_ok3_q && !s3_viol_in;
      default:        s3_wb_fast = 1'b0;
    endcase
    // The walk S3 leaves: the payload when allowed and taken, else s3_keep.
    unique case (p_kind_q[3])
      K_ADVANCE: begin
        s3_take_ok = 1'b1;
        s3_keep    = p_i_q;
      end
      K_BIND, K_RESET: begin
        s3_take_ok = 1'b0;
        s3_keep    = bp_sinfo_q[p_bank_q[3]];
      end
      K_VTOK: begin
        s3_take_ok = vx_err_q == fsm_pkg::ST_OK && !p_tokraw_q[3][31] && !vx_viol_q;
        s3_keep    = vx_info_q;
      end
      default: begin   // K_VHDR (the packet starts at the slot's position), and ops that keep it
        s3_take_ok = 1'b0;
        s3_keep    = p_i_q;
      end
    endcase
  end

  // The info entry of the state the result reports, on port B.
  assign ib_re    = p_v_q[3];
  assign ib_raddr = CbAW'(s3_ni >> NEW);

  // ---------------------------------------------------------------- S4: state, info reads, walk write-back
  logic [31:0]       s4_ie;
  logic [StateW-1:0] s4_state;
  logic [SlotW-1:0]  s4_si;
  logic [31:0]       s4_ac_bit, s4_fv_bit, s4_mi_byte, s4_ft_byte;
  assign s4_si    = SlotW'(p_slot_q[4]);
  // The info entry's payload is the state number; the state-indexed regions hold
  // 2^StateW elements, so whatever an image put there stays inside the bank.
  assign s4_ie    = lane(ib_rdata, {p_iblane_q, 2'b00}, fsm_pkg::EW_32);
  assign s4_state = StateW'(s4_ie[31:CkW]);
  always_comb begin
    s4_ac_bit  = 32'(s4_state);
    s4_fv_bit  = 32'(s4_state);
    s4_mi_byte = 32'(s4_state) << ewsh(s4_ew_mi);
    s4_ft_byte = 32'(s4_state) << ewsh(s4_ew_ft);
  end
  assign info_re  = p_v_q[4];
  assign ac_raddr = BmAW'(bank_base(p_bank_q[4], BmWords) + (s4_ac_bit >> LGL));
  assign fv_raddr = BmAW'(bank_base(p_bank_q[4], BmWords) + (s4_fv_bit >> LGL));
  assign mi_raddr = MiAW'(bank_base(p_bank_q[4], MiWords) + (s4_mi_byte >> LGB));
  assign ft_raddr = FtAW'(bank_base(p_bank_q[4], FtWords) + (s4_ft_byte >> LGB));

  // ---------------------------------------------------------------- S5: result, write-back
  logic              s5_acc, s5_fv_raw, s5_fvalid, s5_rempty;
  logic [31:0]       s5_row, s5_ft;
  logic [SlotW-1:0]  s5_si;
  logic              s5_ok;
  logic [127:0]      s5_rsp;
  assign s5_si     = SlotW'(p_slot_q[5]);
  assign s5_acc    = ac_rdata[p_acbit_q];
  assign s5_fv_raw = fv_rdata[p_fvbit_q];
  assign s5_row    = lane(mi_rdata, p_milane_q, s5_ew_mi);
  assign s5_ft     = lane(ft_rdata, p_ftlane_q, s5_ew_ft);
  assign s5_rempty = s5_row >= s5_rows;
  assign s5_fvalid = s5_fv_raw && (s5_ft < s5_vocab);
  assign s5_ok     = (p_err_q[5] == fsm_pkg::ST_OK);

  always_comb begin
    s5_rsp = '0;
    s5_rsp[7:0]   = p_op_q[5];
    s5_rsp[15:8]  = p_err_q[5];
    s5_rsp[47:32] = p_slot_q[5];
    if (p_kind_q[5] == K_MISC) begin
      // LOAD: grammar and bytes received, also when refused
      if (p_op_q[5] == fsm_pkg::OP_LOAD) begin
        s5_rsp[23:16]  = load_gram_raw_q;   // stable: no LOAD is accepted until this leaves
        s5_rsp[127:96] = p5_aux_q;
      end
    end else if (s5_ok) begin
      s5_rsp[23:16]  = 8'(p_gram_q[5]);
      s5_rsp[24]     = p5_accepted_q;
      s5_rsp[25]     = s5_acc;
      s5_rsp[26]     = s5_fvalid;
      s5_rsp[27]     = p5_nviol_q;
      s5_rsp[63:48]  = 16'(p5_state_q);
      s5_rsp[95:64]  = s5_fvalid ? s5_ft : 32'd0;
      s5_rsp[127:96] = p5_aux_q;
    end
  end

  fsm_out_fifo #(
    .Width (128),
    .Depth (RspDepth)
  ) u_rsp (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (p_v_q[5] && p_res_q[5]),
    .in_data_i   (s5_rsp),
    .out_valid_o (rsp_tvalid_o),
    .out_ready_i (rsp_tready_i),
    .out_data_o  (rsp_tdata_o),
    .level_o     (rsp_level)
  );
  assign rsp_tlast_o = 1'b1;

  assign res_valid_o    = p_v_q[5] && p_res_q[5];
  assign res_op_o       = p_op_q[5];
  assign res_status_o   = p_err_q[5];
  assign res_accepted_o = p5_accepted_q;
  assign viol_valid_o   = p_v_q[5] && p5_viol_ev_q;
  assign viol_slot_o    = p_slot_q[5];
  assign viol_pos_o     = p5_vpos_q;
  assign viol_token_o   = p5_vtok_q;

  // ---------------------------------------------------------------- sequencing
  logic load_done_ok;
  assign load_done_ok = ld_done && load_gram_ok_q && ld_status == fsm_pkg::ST_OK;

  // Pipeline control registers
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      p_v_q      <= '0;
      p_same3_q  <= 1'b0;
      p_same4_q  <= 1'b0;
      p_same34_q <= 1'b0;
      loading_q  <= 1'b0;
      ld_start_q <= 1'b0;
    end else begin
      // A LOAD command enters the pipeline only as its result, once the image is judged.
      p_v_q[1] <= (s0_take && !s0_is_load) || (loading_q && ld_done);
      for (int k = 2; k <= NST; k++) p_v_q[k] <= p_v_q[k-1];
      // The ops now in S1, S2, S3 move to S2, S3, S4.
      p_same3_q  <= p_v_q[2] && p_slotop_q[2] && p_slot_q[2] == p_slot_q[1];
      p_same4_q  <= p_v_q[3] && p_slotop_q[3] && p_slot_q[3] == p_slot_q[1];
      p_same34_q <= p_same3_q;
      ld_start_q <= s0_take && s0_is_load;
      if (s0_take && s0_is_load) loading_q <= 1'b1;
      else if (ld_done)          loading_q <= 1'b0;
    end
  end

  // Pipeline datapath registers
  always_ff @(posedge clk_i) begin
    // S0 -> S1 (or the LOAD result, injected when the loader is done)
    if (loading_q && ld_done) begin
      p_kind_q[1]   <= K_MISC;
      p_op_q[1]     <= fsm_pkg::OP_LOAD;
      p_res_q[1]    <= 1'b1;
      p_slotop_q[1] <= 1'b0;
      p_slot_q[1]   <= 16'd0;
      p_gram_q[1]   <= load_gram_q;
      p_bank_q[1]   <= '0;
      p_err_q[1]    <= load_gram_ok_q ? ld_status : fsm_pkg::ST_GRAMMAR;
      p_tokraw_q[1] <= ld_bytes;   // reported in aux
      p_last_q[1]   <= 1'b1;
    end else begin
      p_kind_q[1]   <= s0_kind;
      p_op_q[1]     <= s0_op;
      p_res_q[1]    <= s0_res;
      p_slotop_q[1] <= s0_slotop;
      p_slot_q[1]   <= s0_slot;
      p_gram_q[1]   <= s0_gram;
      p_bank_q[1]   <= s0_bank;
      p_err_q[1]    <= s0_err;
      p_tokraw_q[1] <= x_beat.tok;
      p_last_q[1]   <= x_beat.last;
    end
    p_tclane_q  <= LGB'(s0_tc_byte);
    // S1 -> S2 .. S4 -> S5: the fields every stage carries
    for (int k = 2; k <= NST; k++) begin
      p_kind_q[k]   <= p_kind_q[k-1];
      p_op_q[k]     <= p_op_q[k-1];
      p_res_q[k]    <= p_res_q[k-1];
      p_slotop_q[k] <= p_slotop_q[k-1];
      p_slot_q[k]   <= p_slot_q[k-1];
      p_gram_q[k]   <= p_gram_q[k-1];
      p_bank_q[k]   <= p_bank_q[k-1];
      p_tokraw_q[k] <= p_tokraw_q[k-1];
      p_last_q[k]   <= p_last_q[k-1];
    end
    // Bit 31 marks "token >= V" from S2 on (ids are < 2^24, so it is otherwise
    // free); a LOAD result carries its byte count there instead.
    p_tokraw_q[2][31] <= (p_kind_q[1] == K_MISC) ? p_tokraw_q[1][31] : s1_tok_bad;
    p_err_q[2]   <= p_err_q[1];
    p_cls_q      <= CkW'(s1_class);
    p_cdelta_q   <= IW'(s1_class - s1_classes);
    p_class_ok_q <= s1_class < s1_classes;
    // S2 -> S3
    p_err_q[3]    <= s2_err;
    p_ok3_q       <= (s2_err == fsm_pkg::ST_OK);
    p_cblane_q    <= NEW'(s2_e);
    p_cls3_q      <= p_cls_q;
    p_i_q         <= s2_i;
    p_viol_q      <= s2_viol;
    p_pos_q       <= s2_pos;
    p_class_ok3_q <= p_class_ok_q;
    // S3 -> S4
    p_err_q[4]   <= s3_err;
    p_ni_q       <= s3_ni;
    p_iblane_q   <= NEW'(s3_ni);
    p_nviol_q    <= s3_nviol;
    p_npos_q     <= s3_npos;
    p_accepted_q <= s3_accepted;
    p_wb_q       <= p_v_q[3] && s3_wb;
    p_aux_q      <= (p_kind_q[3] == K_MISC) ? p_tokraw_q[3] : s3_aux;
    p_viol_ev_q  <= p_v_q[3] && s3_viol_ev;
    p_vpos_q     <= s3_vpos;
    p_vtok_q     <= s3_vtok;
    // S4 -> S5
    p_err_q[5]    <= p_err_q[4];
    p5_state_q    <= s4_state;
    p5_nviol_q    <= p_nviol_q;
    p5_accepted_q <= p_accepted_q;
    p5_wb_q       <= p_v_q[4] && p_wb_q;
    p5_aux_q      <= p_aux_q;
    p5_viol_ev_q  <= p_v_q[4] && p_viol_ev_q;
    p5_vpos_q     <= p_vpos_q;
    p5_vtok_q     <= p_vtok_q;
    p_acbit_q     <= LGL'(s4_ac_bit);
    p_fvbit_q     <= LGL'(s4_fv_bit);
    p_milane_q    <= LGB'(s4_mi_byte);
    p_ftlane_q    <= LGB'(s4_ft_byte);
  end

  // VALIDATE packet bookkeeping and context
  always_ff @(posedge clk_i) begin
    if (s0_take && s0_kind == K_VHDR) begin
      v_gram_q <= s0_gram;
      v_bank_q <= s0_bank;
    end
    if (p_v_q[3] && (p_kind_q[3] == K_VHDR || p_kind_q[3] == K_VTOK)) begin
      vx_err_q   <= vx_err_d;
      vx_info_q  <= vx_info_d;
      vx_pos_q   <= vx_pos_d;
      vx_idx_q   <= vx_idx_d;
      vx_viol_q  <= vx_viol_d;
      vx_vidx_q  <= vx_vidx_d;
      vx_vpos_q  <= vx_vpos_d;
      vx_vtok_q  <= vx_vtok_d;
    end
  end

  // LOAD command: remember the target grammar.
  always_ff @(posedge clk_i) begin
    if (s0_take && s0_is_load) begin
      load_gram_q     <= GramW'(x_beat.gram_raw);
      load_gram_raw_q <= x_beat.gram_raw;
      load_gram_ok_q  <= x_beat.gram_ok;
    end
  end

  // Slots, grammar map and banks
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      // sl_bank_q is reset too: a failing op on a never-bound slot reads it at S0.
      for (int i = 0; i < SlotN; i++) begin
        sl_bound_q[i] <= 1'b0;
        sl_bank_q[i]  <= '0;
      end
      for (int g = 0; g < NGrammars; g++) map_q[g] <= BankW'(g);
      spare_q  <= BankW'(NGrammars);
      loaded_q <= '0;
    end else begin
      if (p_v_q[4] && p_wb_q) begin
        sl_bound_q[s4_si] <= 1'b1;
        sl_bank_q[s4_si]  <= p_bank_q[4];
      end
      if (load_done_ok) begin
        // Swap the freshly written spare bank in; every slot on the grammar unbinds.
        map_q[load_gram_q]    <= spare_q;
        spare_q               <= map_q[load_gram_q];
        loaded_q[load_gram_q] <= 1'b1;
        for (int i = 0; i < SlotN; i++) begin
          if (sl_gram_q[i] == load_gram_q) sl_bound_q[i] <= 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (p_v_q[4] && p_wb_q) begin
      sl_gram_q[s4_si]   <= p_gram_q[4];
      sl_info_q[s4_si]   <= p_ni_q;
      sl_viol_q[s4_si]   <= p_nviol_q;
      sl_pos_q[s4_si]    <= p_npos_q;
    end
    // The state's accepting flag and mask row, for MASK (read at S0), a stage later.
    if (p_v_q[5] && p5_wb_q) begin
      sl_acc_q[s5_si]    <= s5_acc;
      sl_row_q[s5_si]    <= RowW'(s5_row);
      sl_rempty_q[s5_si] <= s5_rempty;
    end
    if (load_done_ok) begin
      bp_vocab_q[spare_q]   <= (TokW+1)'(ld_vocab);
      bp_states_q[spare_q]  <= (StateW+1)'(ld_states);
      bp_classes_q[spare_q] <= (ClassW+1)'(ld_classes);
      bp_rows_q[spare_q]    <= RowW'(ld_rows);
      bp_sinfo_q[spare_q]   <= IW'(ld_start_info + ld_cb_off);
      bp_eos_q[spare_q]     <= TokW'(ld_eos);
      bp_eosv_q[spare_q]    <= ld_eosv;
      bp_nbeats_q[spare_q]  <= BeatW'((ld_vocab + 32'(MaskW) - 32'd1) >> LGM);
      bp_stride_q[spare_q]  <= StrideW'(((ld_wpr + 32'd15) >> 4) << (9 - LGL));
      for (int k = 0; k < fsm_pkg::NSEC; k++) begin
        bp_ew_q[spare_q][k]  <= ld_ew[k];
      end
    end
  end

  // ---------------------------------------------------------------- status
  always_comb begin
    loaded_o = '0;
    loaded_o[NGrammars-1:0] = loaded_q;
  end
  assign busy_o    = x_valid || !pipe_empty || loading_q || !mask_idle || rsp_tvalid_o || mask_tvalid_o;
  assign loading_o = loading_q;

  logic unused;
  assign unused = ^{ld_rows, ld_states, ld_classes, ld_wpr, ld_start_st, ld_eos, s4_ie[CkW-1:0],
                    s5_states};

  // Stream protocol on the input ports (valid held, payload stable while stalled, no X);
  // fsm_out_fifo checks the result and mask outputs.
  `COMMON_AXIS_CHECK(u_cmd_chk, fsm_pkg::CMD_W, cmd_tvalid_i, cmd_tready_o, cmd_tdata_i,
                     cmd_tlast_i)
  `COMMON_AXIS_CHECK(u_load_chk, LoadW + LoadW / 8, load_tvalid_i, load_tready_o,
                     {load_tkeep_i, load_tdata_i}, load_tlast_i)

`ifdef COMMON_ASSERT_ON
  // Pipeline invariants, compiled into every simulation (scripts/sim.py defines
  // COMMON_ASSERT_ON). Immediate assertions in a clocked process, so Icarus 11
  // (no concurrent SVA) checks the same things as Verilator.
  logic [31:0] sva_inflight;
  always_comb begin
    sva_inflight = 32'(rsp_level);
    for (int k = 1; k <= NST; k++) sva_inflight = sva_inflight + 32'(p_v_q[k] && p_res_q[k]);
  end
  // The hazard as S0 sees it, recomputed from the stages for haz_q's check:
  // whether a beat on slot b_slot (a MASK if b_mask) waits for an op with these
  // flags on op_slot.
  function automatic logic hits(input logic [SlotW-1:0] op_slot, input logic op_hzb,
                                input logic op_hzw, input logic [SlotW-1:0] b_slot,
                                input logic b_mask);
    hits = op_slot == b_slot && (op_hzb || (b_mask && op_hzw));
  endfunction

  logic sva_haz;
  always_comb begin
    sva_haz = 1'b0;
    for (int k = 1; k <= NST; k++) begin
      sva_haz = sva_haz ||
                hits(SlotW'(p_slot_q[k]), p_hzb_q[k], p_hzw_q[k], s0_si, x_beat.is_mask);
    end
    sva_haz = sva_haz && x_beat.slotop && x_beat.slot_ok;
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Table lanes are aligned to their element width (lane() selects by word,
      // half and byte), for every op that passed its checks (a refused op may
      // name a bank never loaded, whose widths are unknown).
      assert (!(p_v_q[1] && p_err_q[1] == fsm_pkg::ST_OK) ||
              lane_aligned(p_tclane_q[1:0], s1_ew_tc))
        else $fatal(1, "fsm_core: token_class lane %0d not aligned", p_tclane_q);
      assert (!(p_v_q[5] && s5_ok) || (lane_aligned(p_milane_q[1:0], s5_ew_mi) &&
                                      lane_aligned(p_ftlane_q[1:0], s5_ew_ft)))
        else $fatal(1, "fsm_core: mask_index / forced_token lane %0d / %0d not aligned",
                    p_milane_q, p_ftlane_q);
      // A bound slot always names a loaded grammar.
      for (int i = 0; i < NSlots; i++) begin
        assert (!sl_bound_q[i] || loaded_q[sl_gram_q[i]])
          else $fatal(1, "fsm_core: slot %0d bound to unloaded grammar %0d", i, sl_gram_q[i]);
      end
      // Credits: results in flight and buffered never exceed the result buffer,
      // and the running count the accept decision reads is exactly that sum.
      assert (sva_inflight <= 32'(RspDepth))
        else $fatal(1, "fsm_core: %0d results in flight for %0d entries", sva_inflight, RspDepth);
      assert (32'(owed_q) == sva_inflight + 32'(loading_q))
        else $fatal(1, "fsm_core: %0d results owed counted, %0d in flight", owed_q,
                    sva_inflight + 32'(loading_q));
      assert (!(p_v_q[5] && p_res_q[5]) || rsp_level < RspLW'(RspDepth))
        else $fatal(1, "fsm_core: result pushed into a full result buffer");
      // Nothing enters while an image loads; a LOAD enters only on an empty pipeline.
      assert (!s0_take || !loading_q) else $fatal(1, "fsm_core: command taken while loading");
      assert (!(s0_take && s0_is_load) || (pipe_empty && mask_idle))
        else $fatal(1, "fsm_core: LOAD taken with work in flight");
      // The hazard decided a cycle ahead is the one of the beat and the ops now
      // in S1..S5.
      assert (!x_valid || haz_q == sva_haz)
        else $fatal(1, "fsm_core: hazard flop %0b, the beat on slot %0d has %0b", haz_q,
                    x_beat.slot, sva_haz);
      // At most one packet (VALIDATE or MASK_BATCH) is open.
      assert (!(in_vact_q && in_bact_q)) else $fatal(1, "fsm_core: two packets open");
      // A MASK job is handed over only when the streamer takes it.
      assert (!(s0_take && s0_mask_job) || mask_room)
        else $fatal(1, "fsm_core: MASK job taken with no room in the streamer");
      // A bound slot's cached bank is its grammar's bank.
      for (int i = 0; i < NSlots; i++) begin
        assert (!sl_bound_q[i] || sl_bank_q[i] == map_q[sl_gram_q[i]])
          else $fatal(1, "fsm_core: slot %0d caches bank %0d, grammar %0d is in bank %0d", i,
                      sl_bank_q[i], sl_gram_q[i], map_q[sl_gram_q[i]]);
      end
      // Forwarding stays inside one bank (for the ops that use the slot's state: not a
      // BIND, nor an unknown opcode, which carries the slot field but does not act on it).
      if (p_v_q[2] && p_slotop_q[2] && p_kind_q[2] != K_VTOK && p_kind_q[2] != K_BIND &&
          (s2_fwd3 || s2_fwd4)) begin
        assert (p_bank_q[2] == (s2_fwd3 ? p_bank_q[3] : p_bank_q[4]))
          else $fatal(1, "fsm_core: S2 forwarded from another bank");
      end
      if (p_v_q[2] && p_kind_q[2] == K_VTOK && s2_vfwd) begin
        assert (p_bank_q[2] == p_bank_q[3] && p_slot_q[2] == p_slot_q[3])
          else $fatal(1, "fsm_core: VALIDATE beat forwarded from another packet");
      end
      // The walk S2 forwards on is S3's own, wherever S2 may take it: a slot
      // write-back or a packet's working state (elsewhere it may be unset, X).
      if (p_v_q[3] && p_slotop_q[3] && (s3_wb_fast ||
          ((p_kind_q[3] == K_VHDR || p_kind_q[3] == K_VTOK) && vx_err_d == fsm_pkg::ST_OK)))
      begin
        assert (((s3_take_ok && s3_allowed) ? s3_pay : s3_keep) ==
                ((p_kind_q[3] == K_VHDR || p_kind_q[3] == K_VTOK) ? vx_info_d : s3_ni))
          else $fatal(1, "fsm_core: S3 walk split wrongly (kind %0d)", p_kind_q[3]);
      end
      // The early write-back decision S2 forwards on is S3's own.
      if (p_v_q[3]) begin
        assert (s3_wb_fast == s3_wb)
          else $fatal(1, "fsm_core: S3 write-back %0b, forwarded as %0b", s3_wb, s3_wb_fast);
      end
      // The same-slot flags match the slots they were compared for.
      if (p_v_q[2]) begin
        assert (p_same3_q == (p_v_q[3] && p_slotop_q[3] && p_slot_q[3] == p_slot_q[2]))
          else $fatal(1, "fsm_core: stale S2/S3 same-slot flag");
        assert (p_same4_q == (p_v_q[4] && p_slotop_q[4] && p_slot_q[4] == p_slot_q[2]))
          else $fatal(1, "fsm_core: stale S2/S4 same-slot flag");
      end
      if (p_v_q[3]) begin
        assert (p_same34_q == (p_v_q[4] && p_slotop_q[4] && p_slot_q[4] == p_slot_q[3]))
          else $fatal(1, "fsm_core: stale S3/S4 same-slot flag");
      end
      // A slot write-back names an info entry of a state of its grammar's tables.
      if (p_v_q[5] && p5_wb_q) begin
        assert (32'(p5_state_q) < 32'(s5_states))
          else $fatal(1, "fsm_core: slot %0d written with state %0d >= %0d", p_slot_q[5],
                      p5_state_q, s5_states);
      end
      if (p_v_q[4] && p_wb_q) begin
        assert (s4_ie[CkW-1:0] == CkW'(bp_classes_q[p_bank_q[4]]))
          else $fatal(1, "fsm_core: slot %0d left at %0d, not an info entry", p_slot_q[4],
                      p_ni_q);
      end
      // The hazard flags are what their op is, and where it is (they shift unheld).
      for (int k = 1; k <= NST; k++) begin
        assert (p_hzb_q[k] == (p_v_q[k] && p_slotop_q[k] && 32'(p_slot_q[k]) < 32'(NSlots) &&
                               p_kind_q[k] == K_BIND))
          else $fatal(1, "fsm_core: S%0d BIND hazard flag %0b is wrong", k, p_hzb_q[k]);
        assert (p_hzw_q[k] == (p_v_q[k] && p_slotop_q[k] && 32'(p_slot_q[k]) < 32'(NSlots) &&
                               writes_slot(p_kind_q[k])))
          else $fatal(1, "fsm_core: S%0d slot-write hazard flag %0b is wrong", k, p_hzw_q[k]);
      end
      // S0 reads a slot's state only with no BIND of that slot in flight, and a
      // MASK (which reads the mask row too) only with no write to it in flight.
      if (s0_take && s0_slotop && s0_slot_ok) begin
        for (int k = 1; k <= NST; k++) begin
          assert (!(p_v_q[k] && p_slotop_q[k] && p_slot_q[k] == s0_slot &&
                    (p_kind_q[k] == K_BIND || (s0_kind == K_MASK && writes_slot(p_kind_q[k])))))
            else $fatal(1, "fsm_core: op %0d on slot %0d taken with a hazard in S%0d", s0_kind,
                        s0_slot, k);
        end
      end
    end
  end
`endif

endmodule

`default_nettype wire
