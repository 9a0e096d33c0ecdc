// SPDX-License-Identifier: Apache-2.0
// Radix KV-cache controller core, v2: SGLang RadixCache semantics on synchronous RAMs.
//
// Storage (docs/radix-protocol.md has the RAM map with widths and depths):
//   * node table: one word per node (slot 0 is the root), registered read;
//   * LRU list: every live node except the root in a doubly linked list ordered
//     by access stamp (lnext/lprev RAMs); a visited node moves to the tail;
//   * token store: 16-token lines (tokens, KV indices, and two forward links:
//     the next line and the one after it, so a line stream runs at one line per
//     cycle although a link read takes two); an edge is (head line, offset,
//     length), so a split never copies tokens;
//   * child index: radix_child_index, hashed on (namespace, parent, first page);
//   * free lists: radix_free_stack for node slots and for lines;
//   * query buffer (the command's tokens and KV indices, 16 per row) and an
//     output buffer of 16 lane RAMs that puts KV indices at their response
//     position, so the response streams 16 per beat.
// One command runs at a time; the intake loads the next one meanwhile into the
// other query bank (see "intake" below). Every RAM output passes a register before it
// feeds an address. The cycle model is in docs/radix-protocol.md.
// Length: the sequencer's states share the node, LRU, path and line RAM ports
// and their registered read data with the line streamer, the leaf writer and
// the walker; split into modules, those ports and every pipeline flag the
// depth work registered would cross module boundaries as wide buses.
//
// L2 tier (L2 = 1): the tables that grow with the tree (node table, LRU links,
// token lines, free lists, child-index buckets) live in DDR behind one L1 cache
// each (radix_table); their AXI traffic merges in radix_axi_arb. A miss freezes
// the whole core: every register, RAM port and pipeline here and in the child
// index and free lists advances only in cycles with `adv` high, so the core's
// results and its cycle count in ticks are those of the on-chip build (L2 = 0,
// where adv is constant 1 and synthesis drops the enables).
`default_nettype none

`include "common_macros.svh"

module radix_core #(
  // Node-table entries including the root, power of two in [8, 2**20]: a handle
  // carries a 20-bit slot (docs/radix-protocol.md).
  parameter int NodeCap     = 1024,
  // Token capacity, power of two in [64, 2**24] (2**28 with L2); TokenCap/16 lines.
  parameter int TokenCap    = 16384,
  // Longest MATCH / INSERT in tokens, PageSize multiple, 16..65520.
  parameter int MaxLen      = 1024,
  // Tokens per page: 1, 2, 4, 8 or 16. Keys are cut to pages; splits at page edges.
  parameter int PageSize    = 1,
  // Namespaces accepted (SGLang extra_key), 1..256.
  parameter int NumNs       = 16,
  // Stream width: 512 (16 tokens or KV indices per beat).
  parameter int DataW       = 512,
  // Child index geometry (radix_child_index).
  parameter int HashBuckets = 256,
  parameter int HashWays    = 4,
  parameter int StashDepth  = 4,
  // Read latency of the large RAMs (node table, lines, index, query), 2..4.
  parameter int RamLat      = 2,
  // Response FIFO depth in beats, >= 4.
  parameter int RspDepth    = 16,
  // 1: the large tables live in DDR behind L1 caches (m_axi); 0: all on chip.
  parameter int L2          = 0,
  // L1 cache of each L2 table: at most L1Lines lines of 64 bytes (a power of two; never
  // more than half the table), L1Ways-way set-associative (1, 2, 4 or 8).
  parameter int L1Lines     = 512,
  parameter int L1Ways      = 2,
  // Cycles a DDR request may take before the fault, >= 16.
  parameter int L2Timeout   = 4096,
  // Next-line prefetch depth of the token-line caches (tokens, KV indices, links): on a
  // miss of line m, lines m+1.. are read ahead, as an edge's lines are walked in order.
  // 0 = off, up to 7.
  parameter int L2Prefetch  = 7,
  // Verification only: 1 holds the walk stage's requests for the shared ports (the
  // line streamer's issue, the walker's node read and lookup) in pseudo-random
  // cycles, as a busy commit stage would, so the hold paths run while the stages
  // are still serial. 0 in every build (synthesis then drops the generator).
  parameter int StallInject = 0,
  // 1: the next MATCH or INSERT walks while the previous one decides, commits and
  // answers (docs/radix-concurrency.md, "The overlap"); a read signature flags a
  // walk that read what that commit wrote, and the walk runs again. 0: one command
  // at a time.
  parameter int Overlap     = 0,
  // AXI ID width of m_axi; derived, do not override.
  parameter int L2IdW       = radix_pkg::L1_IDW + 4
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // Command stream (docs/radix-protocol.md)
  input  wire logic             cmd_tvalid_i,
  output logic                  cmd_tready_o,
  input  wire logic [DataW-1:0] cmd_tdata_i,
  input  wire logic             cmd_tlast_i,

  // Response stream
  output logic                  rsp_tvalid_o,
  input  wire logic             rsp_tready_i,
  output logic      [DataW-1:0] rsp_tdata_o,
  output logic                  rsp_tlast_o,

  // Status and counters for the CSR block
  output logic                  busy_o,
  output logic                  init_done_o,
  output logic                  error_o,        // one-cycle pulse per refused command
  output logic           [7:0]  last_error_o,
  output logic          [31:0] evictable_o,
  output logic          [31:0] protected_o,
  output logic          [31:0] total_o,        // evictable + protected, a cycle late
  output logic          [31:0] free_nodes_o,
  output logic          [31:0] free_slots_o,
  output logic          [31:0] lookups_o,
  output logic          [31:0] queried_o,
  output logic          [31:0] hit_o,
  output logic          [31:0] inserts_o,
  output logic          [31:0] inserted_o,
  output logic          [31:0] splits_o,
  output logic          [31:0] evicted_nodes_o,
  output logic          [31:0] evicted_tokens_o,
  output logic          [31:0] errors_o,
  output logic          [31:0] busy_cycles_o,
  output logic          [31:0] walk_cycles_o,
  output logic          [31:0] walk_nodes_o,
  output logic          [31:0] index_used_o,
  output logic          [31:0] stash_free_o,
  output logic          [31:0] free_lines_o,
  output logic          [31:0] evict_skips_o,
  output logic          [31:0] intake_ahead_o, // commands taken in while another executed
  // Overlap: walks beside a commit, replays, broadcast hits (split, new leaf), cycles a
  // finished walk and the walker's lookup waited for the commit stage
  output logic          [31:0] ovl_walks_o,
  output logic          [31:0] replays_o,
  output logic          [31:0] conflicts_split_o,
  output logic          [31:0] conflicts_leaf_o,
  output logic          [31:0] walk_wait_o,
  output logic          [31:0] lookup_wait_o,

  // L2 tier; with L2 = 0 the master is idle, flushes complete at once, no fault.
  input  wire logic [63:0]      l2_base_i,        // DDR byte address of the region, 4 KiB aligned
  input  wire logic             l2_flush_i,       // pulse: write every dirty line back
  input  wire logic             l2_clear_i,       // pulse: drop every line, clear the fault
  output logic                  l2_flush_done_o,  // pulse: the flush is complete in DDR
  output logic                  l2_flushing_o,    // a flush is pending or in progress
  output logic                  l2_fault_o,       // sticky until l2_clear_i
  output logic           [1:0]  l2_fault_kind_o,  // 1 read error, 2 write error, 3 timeout
  output logic          [31:0]  l2_hits_o,        // L1 accesses that hit, all tables
  output logic          [31:0]  l2_misses_o,
  output logic          [31:0]  l2_writebacks_o,
  output logic          [31:0]  l2_rd_beats_o,
  output logic          [31:0]  l2_wr_beats_o,
  output logic          [31:0]  l2_stall_o,       // cycles the core was frozen
  output logic          [31:0]  l2_prefetches_o,  // prefetch reads issued
  output logic          [31:0]  l2_pf_useful_o,   // misses a prefetched line served

  output logic [L2IdW-1:0]      m_axi_awid,
  output logic [63:0]           m_axi_awaddr,
  output logic [7:0]            m_axi_awlen,
  output logic [2:0]            m_axi_awsize,
  output logic [1:0]            m_axi_awburst,
  output logic                  m_axi_awvalid,
  input  wire logic             m_axi_awready,
  output logic [511:0]          m_axi_wdata,
  output logic [63:0]           m_axi_wstrb,
  output logic                  m_axi_wlast,
  output logic                  m_axi_wvalid,
  input  wire logic             m_axi_wready,
  input  wire logic [L2IdW-1:0] m_axi_bid,
  input  wire logic [1:0]       m_axi_bresp,
  input  wire logic             m_axi_bvalid,
  output logic                  m_axi_bready,
  output logic [L2IdW-1:0]      m_axi_arid,
  output logic [63:0]           m_axi_araddr,
  output logic [7:0]            m_axi_arlen,
  output logic [2:0]            m_axi_arsize,
  output logic [1:0]            m_axi_arburst,
  output logic                  m_axi_arvalid,
  input  wire logic             m_axi_arready,
  input  wire logic [L2IdW-1:0] m_axi_rid,
  input  wire logic [511:0]     m_axi_rdata,
  input  wire logic [1:0]       m_axi_rresp,
  input  wire logic             m_axi_rlast,
  input  wire logic             m_axi_rvalid,
  output logic                  m_axi_rready
);

  // ---------------------------------------------------------------- sizes
  localparam int L        = radix_pkg::LANES;                 // 16
  localparam int NodeW    = $clog2(NodeCap);
  localparam int LineCap  = TokenCap / L;
  localparam int LineW    = $clog2(LineCap);
  localparam int LenW     = $clog2(MaxLen + 1);
  localparam int QRows    = (MaxLen + L - 1) / L + 2;          // +2: the leaf writer reads ahead
  localparam int QRowW    = $clog2(QRows);
  // Three query-buffer banks, selected by the two row-address bits above the row:
  // the intake loads the next command into one, the walk stage reads the command it
  // walks from another and the commit stage the one it commits from the third.
  localparam int QDepth   = 3 << QRowW;
  localparam int OutRows  = 1 << $clog2((MaxLen + L - 1) / L + 4);
  localparam int OutRowW  = $clog2(OutRows);
  localparam int PathCap  = MaxLen / PageSize + 1;
  localparam int PathW    = $clog2(PathCap + 1);
  // Two path banks, interleaved (the bank is the address's low bit): the walk writes
  // one while the commit reads the other (docs/radix-concurrency.md, step 2a).
  localparam int PathAW   = $clog2(2 * PathCap);
  localparam int GenW     = 8;
  localparam int LockW    = 16;
  localparam int StampW   = 64;   // one stamp per cycle at 1 GHz wraps after 584 years
  localparam int PageBits = 32 * PageSize;
  localparam int BucketW  = $clog2(HashBuckets);
  localparam int WayW     = (HashWays > 1) ? $clog2(HashWays) : 1;
  localparam int StashW   = (StashDepth > 1) ? $clog2(StashDepth) : 1;
  localparam int LocW     = 1 + ((BucketW + WayW > StashW) ? BucketW + WayW : StashW);
  localparam int KidW     = NodeW + 1;
  localparam logic [NodeW-1:0] NIL = '0;   // the root: never in the LRU list, nobody's child

  `COMMON_PARAM_CHECK(g_bad_node_cap, NodeCap >= 8 && NodeCap <= (1 << 20) &&
                      (NodeCap & (NodeCap - 1)) == 0, "radix_core: NodeCap")
  `COMMON_PARAM_CHECK(g_bad_l2, L2 == 0 || L2 == 1, "radix_core: L2 is 0 or 1")
  `COMMON_PARAM_CHECK(g_bad_token_cap, TokenCap >= 64 &&
                      TokenCap <= ((L2 != 0) ? (1 << 28) : (1 << 24)) &&
                      (TokenCap & (TokenCap - 1)) == 0, "radix_core: TokenCap")
  `COMMON_PARAM_CHECK(g_bad_page, PageSize == 1 || PageSize == 2 || PageSize == 4 ||
                      PageSize == 8 || PageSize == 16, "radix_core: PageSize")
  `COMMON_PARAM_CHECK(g_bad_len, MaxLen >= 16 && MaxLen <= 65520 && MaxLen % PageSize == 0,
                      "radix_core: MaxLen")
  `COMMON_PARAM_CHECK(g_bad_ns, NumNs >= 1 && NumNs <= 256, "radix_core: NumNs")
  `COMMON_PARAM_CHECK(g_bad_width, DataW == 512, "radix_core: DataW must be 512")
  `COMMON_PARAM_CHECK(g_bad_lat, RamLat >= 2 && RamLat <= 4, "radix_core: RamLat")
  `COMMON_PARAM_CHECK(g_bad_rsp, RspDepth >= 4, "radix_core: RspDepth")
  `COMMON_PARAM_CHECK(g_bad_l1, L1Lines >= 4 && (L1Lines & (L1Lines - 1)) == 0 &&
                      (L1Ways == 1 || L1Ways == 2 || L1Ways == 4 || L1Ways == 8) &&
                      L1Lines >= 2 * L1Ways, "radix_core: L1Lines / L1Ways")
  `COMMON_PARAM_CHECK(g_bad_idw, L2IdW == radix_pkg::L1_IDW + 4, "radix_core: L2IdW is derived")
  `COMMON_PARAM_CHECK(g_bad_pf, L2Prefetch >= 0 && L2Prefetch <= 7, "radix_core: L2Prefetch")
  `COMMON_PARAM_CHECK(g_bad_inject, StallInject == 0 || StallInject == 1,
                      "radix_core: StallInject is 0 or 1")
  `COMMON_PARAM_CHECK(g_bad_overlap, Overlap == 0 || Overlap == 1,
                      "radix_core: Overlap is 0 or 1")

  // Node word: {hloc, nchild, stamp, lock, len, off, head, parent, ns, gen, valid}
  localparam int O_VALID  = 0;
  localparam int O_GEN    = O_VALID + 1;
  localparam int O_NS     = O_GEN + GenW;
  localparam int O_PARENT = O_NS + 8;
  localparam int O_HEAD   = O_PARENT + NodeW;
  localparam int O_OFF    = O_HEAD + LineW;
  localparam int O_LEN    = O_OFF + 4;
  localparam int O_LOCK   = O_LEN + LenW;
  localparam int O_STAMP  = O_LOCK + LockW;
  localparam int O_NCHILD = O_STAMP + StampW;
  localparam int O_HLOC   = O_NCHILD + KidW;
  localparam int NodeWordW = O_HLOC + LocW;

  // ---------------------------------------------------------------- lane helpers
  // out[s] = lo[s + d] for s + d < 16, else hi[s + d - 16]: 16 tokens starting at lane
  // d of row lo, continuing into row hi.
  function automatic logic [511:0] window(input logic [511:0] lo, input logic [511:0] hi,
                                          input logic [3:0] d);
    logic [1023:0] both;
    both   = {hi, lo};
    window = both[32*d +: 512];
  endfunction
  // out[t] = x[(t - d) mod 16]: rotate lanes up by d.
  function automatic logic [511:0] rot_up(input logic [511:0] x, input logic [3:0] d);
    logic [1023:0] both;
    both   = {x, x};
    rot_up = both[32*(5'd16 - {1'b0, d}) +: 512];
  endfunction

  // Icarus 11 re-runs an always_comb block forever when the block writes a
  // variable twice in one pass, so every such computation is a function.
  function automatic logic [3:0] lowest16(input logic [15:0] v);
    lowest16 = '0;
    for (int i = 15; i >= 0; i--) if (v[i]) lowest16 = 4'(i);
  endfunction
  // Lanes below n in a row: the lanes a partial last row keeps.
  function automatic logic [15:0] tail_lanes(input logic [3:0] n);
    for (int t = 0; t < 16; t++) tail_lanes[t] = (4'(t) < n);
  endfunction
  function automatic logic [511:0] lanes_to_bits(input logic [15:0] m);
    for (int i = 0; i < 16; i++) lanes_to_bits[32*i +: 32] = {32{m[i]}};
  endfunction

  // ---------------------------------------------------------------- state
  typedef enum logic [5:0] {
    S_INIT, S_INIT_WAIT, S_HDR, S_WALK,
    S_DECIDE, S_D_TAIL, S_D_PROBE1, S_D_PROBE2, S_D_CHECK,
    S_C_STAMP, S_C_STAMP_W, S_C_MOVE1, S_C_MOVE2,
    S_C_SPLIT, S_C_SPLIT_W, S_C_SPLIT_IX1, S_C_SPLIT_IX2,
    S_C_LEAF, S_C_LEAF_LINES, S_C_LEAF_IX, S_C_LEAF_W, S_C_LEAF_PAR,
    S_C_APPEND, S_C_RESULT,
    S_E_FIND, S_E_FIND_N, S_E_VICTIM, S_E_STREAM, S_E_UNLINK,
    S_L_START, S_L_CHECK, S_L_APPLY,
    S_OUT, S_TRAIL, S_WAIT, S_L2_CLEAR,
    S_D_TAIL_IX   // last, so the other states keep their codes
  } state_e;
  localparam int NumStates = int'(S_D_TAIL_IX) + 1;  // S_D_TAIL_IX is the last state

  // The sequencer's state is kept one-hot (bit i is state_e i): its `case` then selects
  // on single bits, where a binary code let Yosys' pmux2shiftx index a shift by
  // `state - offset`, a subtract that started the deepest paths of the estimate.
  logic [NumStates-1:0] state_q, ret_q;
  function automatic logic [NumStates-1:0] st(input state_e s);
    st    = '0;
    st[s] = 1'b1;
  endfunction
  // The walk stage of a MATCH or INSERT is a state machine of its own: the
  // sequencer starts it from S_HDR and waits in S_WALK for its hand-over (wk_done),
  // then decides and commits (docs/radix-concurrency.md, step 2a).
  // W_DONE: the walk is over but the sequencer still commits the previous command
  // (Overlap); the walk's results wait there for the hand-over.
  typedef enum logic [2:0] {W_IDLE, W_START, W_WAITPF, W_CMP, W_DRAIN, W_DONE} walk_e;
  walk_e  ws_q;
  logic   wk_done, walk_end, replay_go, odispatch;
  // Overlap bookkeeping: the walk started while a commit ran (wk_ovl_q; its copy
  // for the commit side, cm_ovl_q); the sequencer holds a MATCH or INSERT past its
  // hand-over, or a LOCK or UNLOCK (cm_busy_q); the commit is between a child-index write and the node
  // word it leads to (cm_win_q); a broadcast hit the walk's signature (cf_q).
  logic   wk_ovl_q, cm_ovl_q, cm_busy_q, cm_win_q, cf_q;
  logic   adv;   // the core advances this cycle (see "L2 tier")
  // L2 faults: a cache that saw an error response or a timeout raises its sticky
  // fault. A command working on the tables then is killed: the streamer, leaf
  // writer, walker and output buffer drop what they hold, and the command ends
  // with a MEMORY trailer (after any data beats it had already sent). Until a
  // RESET command every other command is refused with MEMORY without touching the
  // tables; that RESET clears the caches (dropping their lines, which may be
  // stale) and re-initialises every table with generations restarting at 0, as
  // at power-on, since the DDR image may have lost writes.
  // wkill: a fault while only the walk stage works (Overlap: the sequencer answering
  // or idle); the walk stops as under a kill and answers MEMORY from S_HDR.
  logic   kill, wkill, l2_fault, clr_req_q, working;
  logic [3:0] wait_q;

  // Command. MATCH and INSERT pass two stages (docs/radix-concurrency.md, step 2a):
  // the walk stage reads the wk_* fields, loaded at S_HDR for every command; the
  // decision and commit read op_q, ns_q, n_q, len_q and status_q, which a walking
  // command gets at the hand-over (S_DECIDE) and every other command at S_HDR.
  logic [7:0]       wk_op_q, wk_ns_q;
  logic [LenW-1:0]  wk_n_q, wk_len_q;
  logic [7:0]       op_q, ns_q, status_q;
  logic             st_start, lw_start;
  logic [31:0]      arg_q;
  logic [LenW-1:0]  len_q, n_q;
  logic [31:0]      trail_a_q, trail_b_q, trail_c_q;

  // Walk
  logic [NodeW-1:0] node_q, cand_q, result_q;
  logic [LenW-1:0]  pos_q, split_q, rem_q;   // rem_q = n_q - pos_q, set per edge
  logic [LenW:0]    leaf_lines_q;             // lines of the new leaf, set in S_DECIDE
  logic [PathW-1:0] depth_q, d_q;
  logic [PageBits-1:0] page_q, tail_page_q;
  logic [LineW-1:0] split_line_q;
  // the candidate edge
  logic [LineW-1:0] c_head_q;
  logic [3:0]       c_off_q;
  logic [LenW-1:0]  c_len_q;
  logic [LockW-1:0] c_lock_q;
  logic [NodeW-1:0] c_parent_q;
  logic [LocW-1:0]  c_hloc_q;
  logic [KidW-1:0]  c_nchild_q;
  logic [StampW-1:0] c_stamp_q;
  logic [GenW-1:0]  c_gen_q;

  // The walk's results as the decision and commit see them: copies loaded at the
  // hand-over (S_DECIDE), so the walk stage may take the next command meanwhile.
  // The cut node's counts, parent, index location and generation are read again
  // from the node table at the decision (S_D_TAIL), not copied.
  logic [NodeW-1:0] cm_node_q, cm_cand_q, cm_parent_q;
  logic [LenW-1:0]  cm_pos_q, cm_split_q, cm_len_q;
  logic [PathW-1:0] cm_depth_q;
  logic [PageBits-1:0] cm_page_q;
  logic [LineW-1:0] cm_split_line_q, cm_head_q;
  logic [3:0]       cm_off_q;
  logic [LockW-1:0] cm_lock_q;
  logic [LocW-1:0]  cm_hloc_q;
  logic [KidW-1:0]  cm_nchild_q;
  logic [GenW-1:0]  cm_gen_q;

  // Commit
  logic [NodeW-1:0] new_up_q, new_leaf_q, mv_q;
  logic [LocW-1:0]  new_loc_q;
  logic [BucketW-1:0] probe_b1_q;
  logic [WayW:0]    probe_f1_q;
  logic             need_split_q, need_leaf_q;

  // Evict / lock
  logic [31:0]      got_q, freed_q, skips_q;
  logic [NodeW-1:0] walk_q, victim_q;
  logic [1:0]       ev_phase_q;
  logic [3:0]       ev_cnt_q;
  logic [NodeWordW-1:0] p_word_q;   // the victim's parent, read while the lines stream
  logic             early_q;        // this MATCH streams its KV indices while it walks
  logic [StampW-1:0] ref_stamp_q;
  logic [31:0]      delta_q;
  // EVICT: got_q after this victim, and compares made while the lines stream
  logic [31:0]      got_nx_q;
  logic             got_ge_q, got_nx_lt_q, p_leaf_q, p_hi_lt_q, p_hi_eq_q, p_lo_le_q;
  // evictable / protected sizes change one cycle after a state asks for it
  // (two stages: the signed operands are formed, then added; a LOCK reads
  // delta_q RamLat + 1 >= 3 cycles after its last change)
  logic             sz_v_q, sz_ev_sub_q, sz_prot_add_q, sz_prot_sub_q, sz_v2_q;
  logic [LenW-1:0]  sz_len_q;
  logic [31:0]      sz_ev_op_q, sz_prot_op_q;
  logic             out_settle_q;
  logic             lock_pass2_q;

  // Global
  // clock_q: the stamp clock; clock_nx = clock_q + 1, a second counter so no
  // stamp write waits on a 64-bit add. Both step one cycle after clk_inc_q is
  // set; no state reads them in that cycle (the next reader is >= 2 cycles on).
  logic [StampW-1:0] clock_q, clock_nx, op_stamp_q;   // op_stamp_q: this command's stamp
  logic              clk_inc_q, clk_clr_q;
  logic [NodeW-1:0] lru_head_q, lru_tail_q;
  logic [31:0]      evictable_q, protected_q, total_q;
  logic [31:0]      lookups_q, queried_q, hit_q, inserts_q, inserted_q, splits_q;
  logic [31:0]      evicted_nodes_q, evicted_tokens_q, errors_q, busy_cycles_q;
  logic [31:0]      walk_cycles_q, walk_nodes_q;
  logic [7:0]       last_error_q;
  logic             error_q;
  logic             por_q;
  logic [NodeW:0]   init_q;

  common_seg_counter #(.Width(StampW), .SegW(16), .Init(StampW'(0))) u_clock (
    .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (clk_clr_q && adv), .inc_i (clk_inc_q && adv),
    .value_o (clock_q));
  common_seg_counter #(.Width(StampW), .SegW(16), .Init(StampW'(1))) u_clock_nx (
    .clk_i (clk_i), .rst_ni (rst_ni), .clr_i (clk_clr_q && adv), .inc_i (clk_inc_q && adv),
    .value_o (clock_nx));

  // ---------------------------------------------------------------- walker
  // Runs ahead of the line streamer down the path the key would take if every
  // edge matched whole: query page at pf_pos_q -> child index lookup of
  // (ns, pf_par_q, page) -> the child and its edge length -> the next page
  // position. Its loop never waits on a compare or on a node word: the index
  // entry carries the edge length. Each child found has its node word read
  // and queued (edge queue, below) for the streamer. It only reads, so what
  // it found past an edge that does not match whole is simply dropped.
  // Loop: 2 * RamLat + 4 cycles per node (page read, lookup, decision).
  typedef enum logic [2:0] {PF_IDLE, PF_PAGE, PF_LWAIT, PF_HOLD, PF_END} pf_state_e;
  pf_state_e        pf_state_q;
  logic             pf_go, pf_clear, pf_miss_q, pf_stop_q;
  logic [3:0]       pf_cnt_q;
  logic [LenW-1:0]  pf_pos_q, pf_rem_q;
  logic [NodeW-1:0] pf_par_q;
  logic [PageBits-1:0] pf_page_q;
  // A child's node word is read the cycle after its lookup returns (nr_v_q[0]
  // selects the walker's address at the RAM port, outside the sequencer's wide
  // address mux) and queued RamLat cycles later; at most one such read is in
  // flight (the loop is longer).
  logic [RamLat:0]  nr_v_q;
  logic [NodeW-1:0] nr_child_q;
  logic [LenW-1:0]  nr_len_q;
  // Edge queue: (child, node word) in path order, for the streamer.
  localparam int EqDepth = 4;
  logic [NodeWordW-1:0] eq_word_q  [EqDepth];
  logic [NodeW-1:0]     eq_child_q [EqDepth];
  logic [1:0]           eq_wr_q, eq_rd_q;
  logic [2:0]           eq_cnt_q;
  logic                 eq_pop, eq_push, pf_busy;
  logic [NodeWordW-1:0] eq_word;
  logic [LineW-1:0]     e_head;
  logic [3:0]           e_off;
  logic [LenW-1:0]      e_len;
  logic [LockW-1:0]     e_lock;
  logic [NodeW-1:0]     e_parent;
  logic [LocW-1:0]      e_hloc;
  logic [KidW-1:0]      e_nchild;
  logic [StampW-1:0]    e_stamp;
  logic [GenW-1:0]      e_gen;
  logic                 e_valid;
  logic [7:0]           e_ns;
  assign eq_word = eq_word_q[eq_rd_q];
  assign {e_hloc, e_nchild, e_stamp, e_lock, e_len, e_off, e_head, e_parent, e_ns, e_gen,
          e_valid} = eq_word;
  assign eq_push = nr_v_q[RamLat];
  // A lookup, a node read or a push still to come.
  assign pf_busy = (pf_state_q == PF_PAGE) || (pf_state_q == PF_LWAIT) || (nr_v_q != '0);
  logic             pg_re;
  logic [QRowW-1:0] pg_raddr;
  logic [511:0]     pg_rdata;

  // ---------------------------------------------------------------- RAM ports
  // Port arbitration (see "port arbitration" below): the walk stage's units hold.
  logic               st_hold, nr_hold, nr_go, pf_hold;
  logic               cm_rd;   // the commit stage reads the query RAMs or token lines
  // query buffer
  logic               q_we, q_re, seq_q_re_q, st_q_re, lw_q_re;
  logic [QRowW-1:0]   q_waddr, q_raddr, seq_q_raddr_q, st_q_raddr, lw_q_raddr;
  logic               q_wkv;
  logic [511:0]       qtok_rdata, qkv_rdata;
  // The banks the intake loads, the walk stage reads and the commit stage reads:
  // always 0, 1 and 2 in some order. The walk stage moves to the free bank when it
  // hands its command over, so no stage ever reads another stage's bank.
  logic [1:0]         in_bank_q, wk_bank_q, cm_bank_q;
  logic [1:0]         q_wbank, q_rbank;       // the bank bits at the RAM ports
  assign q_wbank = in_bank_q;
  // The streamer is the walk stage's reader of this port; the leaf writer and the
  // decision's read (the tail's query page) are the commit stage's.
  assign q_rbank = st_q_re ? wk_bank_q : cm_bank_q;
  // node table and LRU links
  logic               nd_we, nd_re;
  logic [NodeW-1:0]   nd_waddr, nd_raddr;
  logic [NodeWordW-1:0] nd_wdata, nd_rdata;
  logic               ln_we, lp_we, lk_re;
  logic [NodeW-1:0]   ln_waddr, lp_waddr, ln_wdata, lp_wdata, lk_raddr, ln_rdata, lp_rdata;
  // path
  logic               pa_we, pa_re;
  logic [PathW-1:0]   pa_waddr, pa_raddr;
  // The walk bank and the commit bank; the hand-over (S_DECIDE) swaps them.
  logic               pa_wbank_q, pa_cbank_q;
  logic [PathAW-1:0]  pa_wa, pa_ra;
  assign pa_wa = PathAW'({pa_waddr, pa_wbank_q});
  assign pa_ra = PathAW'({pa_raddr, pa_cbank_q});
  logic [NodeW-1:0]   pa_wdata, pa_rdata;
  // lines
  logic               li_we, li_re, seq_li_re_q;
  logic [LineW-1:0]   li_waddr, li_raddr, seq_li_raddr_q;
  logic [511:0]       li_wtok, li_wkv, li_rtok, li_rkv;
  logic [2*LineW-1:0] li_wlink, li_rlink;
  // output lane buffer
  logic [L-1:0]       ob_we;
  logic [L*OutRowW-1:0] ob_waddr;   // lane t at [t*OutRowW +: OutRowW]
  logic [511:0]       ob_wdata, ob_rdata;
  logic               ob_re;
  logic [OutRowW-1:0] ob_raddr;
  // Two output-buffer banks: the streamer writes ob_wbank_q's, the response reads
  // ob_rbank_q's. A walking command's rows go to the bank the response is not
  // reading; the hand-over gives that bank to the response. An EVICT and an early
  // MATCH stream rows while they write them, so for them the two are the same bank.
  logic               ob_wbank_q, ob_rbank_q;

  // ---------------------------------------------------------------- L2 tier
  // Tables that grow with the tree: each is a radix_table, in DDR behind an L1
  // cache when L2 = 1. A table under 4 x L1Ways lines stays on chip (its cache
  // would hold all of it). DDR regions in this order from l2_base_i, each a
  // multiple of 4 KiB; the child index's buckets come last.
  localparam int T_NODE = 0, T_LNEXT = 1, T_LPREV = 2, T_FREEN = 3, T_LTOK = 4, T_LKV = 5,
                 T_LLINK = 6, T_FREEL = 7, T_INDEX = 8;
  localparam int NT  = 9;
  localparam int CNW = radix_pkg::L1_NCNT * 32;
  localparam int RQW = radix_pkg::L1_REQ_W;
  localparam int RSW = radix_pkg::L1_RSP_W;

  function automatic longint entry_bytes(input int w);
    entry_bytes = longint'(1) << $clog2((w + 7) / 8);
  endfunction
  function automatic longint region(input int w, input int depth);
    region = ((longint'(depth) * entry_bytes(w) + 64'd4095) / 64'd4096) * 64'd4096;
  endfunction
  function automatic longint lines_of_table(input int w, input int depth);
    lines_of_table = (longint'(depth) * entry_bytes(w) + 64'd63) / 64'd64;
  endfunction
  function automatic bit in_ddr(input int w, input int depth);
    in_ddr = (L2 != 0) && (lines_of_table(w, depth) >= longint'(4 * L1Ways));
  endfunction
  // Sets of a table's cache: L1Lines lines in all, but at most half the table.
  function automatic int l1_sets(input int w, input int depth);
    longint lines;
    lines = lines_of_table(w, depth) / 2;
    if (lines > longint'(L1Lines)) lines = longint'(L1Lines);
    l1_sets = (int'(lines) / L1Ways < 2) ? 2 : int'(lines) / L1Ways;
  endfunction

  localparam int IxRowW   = HashWays * (1 + 8 + NodeW + PageBits + LenW + NodeW);
  localparam longint OFF_NODE  = 0;
  localparam longint OFF_LNEXT = OFF_NODE + region(NodeWordW, NodeCap);
  localparam longint OFF_LPREV = OFF_LNEXT + region(NodeW, NodeCap);
  localparam longint OFF_FREEN = OFF_LPREV + region(NodeW, NodeCap);
  localparam longint OFF_LTOK  = OFF_FREEN + region(NodeW, NodeCap);
  localparam longint OFF_LKV   = OFF_LTOK + region(512, LineCap);
  localparam longint OFF_LLINK = OFF_LKV + region(512, LineCap);
  localparam longint OFF_FREEL = OFF_LLINK + region(2 * LineW, LineCap);
  localparam longint OFF_INDEX = OFF_FREEL + region(LineW, LineCap);

  logic [NT-1:0]     t_stall, t_fdone, t_fault;
  logic [2*NT-1:0]   t_kind;
  logic [NT*CNW-1:0] t_cnt;
  logic [NT*RQW-1:0] t_req;
  logic [NT*RSW-1:0] t_rsp;
  logic [NT*64-1:0]  t_base_q;
  logic              t_flush_q, t_clear_q;
  // The core advances in cycles no cache stalls (each stall_o is a register).
  assign adv = !(|t_stall);

  // Region addresses, registered: l2_base_i is static while the core runs.
  always_ff @(posedge clk_i) begin
    t_base_q[64*T_NODE +: 64]  <= l2_base_i + 64'(OFF_NODE);
    t_base_q[64*T_LNEXT +: 64] <= l2_base_i + 64'(OFF_LNEXT);
    t_base_q[64*T_LPREV +: 64] <= l2_base_i + 64'(OFF_LPREV);
    t_base_q[64*T_FREEN +: 64] <= l2_base_i + 64'(OFF_FREEN);
    t_base_q[64*T_LTOK +: 64]  <= l2_base_i + 64'(OFF_LTOK);
    t_base_q[64*T_LKV +: 64]   <= l2_base_i + 64'(OFF_LKV);
    t_base_q[64*T_LLINK +: 64] <= l2_base_i + 64'(OFF_LLINK);
    t_base_q[64*T_FREEL +: 64] <= l2_base_i + 64'(OFF_FREEL);
    t_base_q[64*T_INDEX +: 64] <= l2_base_i + 64'(OFF_INDEX);
  end

  // One radix_table's L2 connections, by table index.
`define RADIX_L2_CONN(t) \
    .rst_ni (rst_ni), .adv_i (adv), .base_i (t_base_q[64*(t) +: 64]), .flush_i (t_flush_q), \
    .clear_i (t_clear_q), .stall_o (t_stall[t]), .flush_done_o (t_fdone[t]), \
    .fault_o (t_fault[t]), .fault_kind_o (t_kind[2*(t) +: 2]), .cnt_o (t_cnt[CNW*(t) +: CNW]), \
    .axi_req_o (t_req[RQW*(t) +: RQW]), .axi_rsp_i (t_rsp[RSW*(t) +: RSW])

  radix_ram #(.Width(512), .Depth(QDepth), .RamStyle("block"), .ReadLatency(RamLat))
    u_qtok (.clk_i(clk_i), .adv_i(adv), .we_i(q_we && !q_wkv), .waddr_i({q_wbank, q_waddr}),
            .wdata_i(cmd_tdata_i), .re_i(q_re), .raddr_i({q_rbank, q_raddr}),
            .rdata_o(qtok_rdata));
  // A second copy of the query tokens gives the walker its own read port.
  radix_ram #(.Width(512), .Depth(QDepth), .RamStyle("block"), .ReadLatency(RamLat))
    u_qpage (.clk_i(clk_i), .adv_i(adv), .we_i(q_we && !q_wkv), .waddr_i({q_wbank, q_waddr}),
             .wdata_i(cmd_tdata_i), .re_i(pg_re), .raddr_i({wk_bank_q, pg_raddr}),
             .rdata_o(pg_rdata));
  radix_ram #(.Width(512), .Depth(QDepth), .RamStyle("block"), .ReadLatency(RamLat))
    u_qkv (.clk_i(clk_i), .adv_i(adv), .we_i(q_we && q_wkv), .waddr_i({q_wbank, q_waddr}),
           .wdata_i(cmd_tdata_i), .re_i(q_re), .raddr_i({q_rbank, q_raddr}),
           .rdata_o(qkv_rdata));
  radix_table #(.Width(NodeWordW), .Depth(NodeCap), .RamStyle("ultra"), .ReadLatency(RamLat),
                .L2(in_ddr(NodeWordW, NodeCap)), .Sets(l1_sets(NodeWordW, NodeCap)),
                .Ways(L1Ways), .TimeoutCycles(L2Timeout))
    u_node (.clk_i(clk_i), .we_i(nd_we), .waddr_i(nd_waddr), .wdata_i(nd_wdata),
            .re_i(nd_re || nr_go), .raddr_i(nr_go ? nr_child_q : nd_raddr),
            .rdata_o(nd_rdata), `RADIX_L2_CONN(T_NODE));
  radix_table #(.Width(NodeW), .Depth(NodeCap), .RamStyle("block"), .ReadLatency(RamLat),
                .L2(in_ddr(NodeW, NodeCap)), .Sets(l1_sets(NodeW, NodeCap)), .Ways(L1Ways),
                .TimeoutCycles(L2Timeout))
    u_lnext (.clk_i(clk_i), .we_i(ln_we), .waddr_i(ln_waddr), .wdata_i(ln_wdata),
             .re_i(lk_re), .raddr_i(lk_raddr), .rdata_o(ln_rdata), `RADIX_L2_CONN(T_LNEXT));
  radix_table #(.Width(NodeW), .Depth(NodeCap), .RamStyle("block"), .ReadLatency(RamLat),
                .L2(in_ddr(NodeW, NodeCap)), .Sets(l1_sets(NodeW, NodeCap)), .Ways(L1Ways),
                .TimeoutCycles(L2Timeout))
    u_lprev (.clk_i(clk_i), .we_i(lp_we), .waddr_i(lp_waddr), .wdata_i(lp_wdata),
             .re_i(lk_re), .raddr_i(lk_raddr), .rdata_o(lp_rdata), `RADIX_L2_CONN(T_LPREV));
  radix_ram #(.Width(NodeW), .Depth(2 * PathCap), .RamStyle("block"), .ReadLatency(RamLat))
    u_path (.clk_i(clk_i), .adv_i(adv), .we_i(pa_we), .waddr_i(pa_wa), .wdata_i(pa_wdata),
            .re_i(pa_re), .raddr_i(pa_ra), .rdata_o(pa_rdata));
  radix_table #(.Width(512), .Depth(LineCap), .RamStyle("ultra"), .ReadLatency(RamLat),
                .L2(in_ddr(512, LineCap)), .Sets(l1_sets(512, LineCap)), .Ways(L1Ways),
                .TimeoutCycles(L2Timeout), .PrefetchDepth(L2Prefetch))
    u_ltok (.clk_i(clk_i), .we_i(li_we), .waddr_i(li_waddr), .wdata_i(li_wtok),
            .re_i(li_re), .raddr_i(li_raddr), .rdata_o(li_rtok), `RADIX_L2_CONN(T_LTOK));
  radix_table #(.Width(512), .Depth(LineCap), .RamStyle("ultra"), .ReadLatency(RamLat),
                .L2(in_ddr(512, LineCap)), .Sets(l1_sets(512, LineCap)), .Ways(L1Ways),
                .TimeoutCycles(L2Timeout), .PrefetchDepth(L2Prefetch))
    u_lkv (.clk_i(clk_i), .we_i(li_we), .waddr_i(li_waddr), .wdata_i(li_wkv),
           .re_i(li_re), .raddr_i(li_raddr), .rdata_o(li_rkv), `RADIX_L2_CONN(T_LKV));
  radix_table #(.Width(2 * LineW), .Depth(LineCap), .RamStyle("ultra"), .ReadLatency(RamLat),
                .L2(in_ddr(2 * LineW, LineCap)), .Sets(l1_sets(2 * LineW, LineCap)),
                .Ways(L1Ways), .TimeoutCycles(L2Timeout), .PrefetchDepth(L2Prefetch))
    u_llink (.clk_i(clk_i), .we_i(li_we), .waddr_i(li_waddr), .wdata_i(li_wlink),
             .re_i(li_re), .raddr_i(li_raddr), .rdata_o(li_rlink), `RADIX_L2_CONN(T_LLINK));

  for (genvar t = 0; t < L; t++) begin : g_ob
    radix_ram #(.Width(32), .Depth(2 * OutRows), .RamStyle("block"), .ReadLatency(1))
      u_lane (.clk_i(clk_i), .adv_i(adv), .we_i(ob_we[t]),
              .waddr_i({ob_wbank_q, ob_waddr[t*OutRowW +: OutRowW]}),
              .wdata_i(ob_wdata[32*t +: 32]), .re_i(ob_re), .raddr_i({ob_rbank_q, ob_raddr}),
              .rdata_o(ob_rdata[32*t +: 32]));
  end

  // free lists
  logic             fn_init, fn_ready, fn_pop, fn_peek, fn_valid, fn_push;
  logic [NodeW-1:0] fn_data, fn_push_data;
  logic [NodeW:0]   fn_count;
  logic             fl_init, fl_ready, fl_pop, fl_valid, fl_push;
  logic [LineW-1:0] fl_data, fl_push_data;
  logic [LineW:0]   fl_count;

  radix_free_stack #(.Depth(NodeCap), .First(1), .ReadLatency(RamLat), .RamStyle("block"),
                     .L2(in_ddr(NodeW, NodeCap)), .Sets(l1_sets(NodeW, NodeCap)),
                     .Ways(L1Ways), .TimeoutCycles(L2Timeout))
    u_free_nodes (.clk_i(clk_i), `RADIX_L2_CONN(T_FREEN), .init_i(fn_init), .ready_o(fn_ready),
                  .pop_i(fn_pop), .peek_i(fn_peek), .pop_valid_o(fn_valid),
                  .pop_data_o(fn_data), .push_i(fn_push), .push_data_i(fn_push_data),
                  .count_o(fn_count));
  radix_free_stack #(.Depth(LineCap), .First(0), .ReadLatency(RamLat), .RamStyle("ultra"),
                     .L2(in_ddr(LineW, LineCap)), .Sets(l1_sets(LineW, LineCap)),
                     .Ways(L1Ways), .TimeoutCycles(L2Timeout))
    u_free_lines (.clk_i(clk_i), `RADIX_L2_CONN(T_FREEL), .init_i(fl_init), .ready_o(fl_ready),
                  .pop_i(fl_pop), .peek_i(1'b0), .pop_valid_o(fl_valid),
                  .pop_data_o(fl_data), .push_i(fl_push), .push_data_i(fl_push_data),
                  .count_o(fl_count));

  // child index
  logic               ix_init, ix_idle, ix_valid, ix_hit, ix_overflow;
  logic [1:0]         ix_op;
  logic [NodeW-1:0]   ix_parent, ix_child_in, ix_child;
  logic [7:0]         ix_ns;   // set with ix_parent: the walker's and the commit's differ
  logic [LenW-1:0]    ix_len_in, ix_len;
  logic [PageBits-1:0] ix_page;
  logic [LocW-1:0]    ix_loc_in, ix_loc;
  logic [BucketW-1:0] ix_bucket;
  logic [WayW:0]      ix_free_ways;
  logic [StashW:0]    ix_stash_free;
  logic [31:0]        ix_used;

  radix_child_index #(
    .HashBuckets (HashBuckets), .HashWays (HashWays), .StashDepth (StashDepth),
    .PageSize (PageSize), .NodeW (NodeW), .LenW (LenW), .RamLat (RamLat), .RamStyle ("ultra"),
    .L2 (in_ddr(IxRowW, HashBuckets)), .Sets (l1_sets(IxRowW, HashBuckets)), .Ways (L1Ways),
    .TimeoutCycles (L2Timeout)
  ) u_index (
    .clk_i (clk_i), `RADIX_L2_CONN(T_INDEX), .init_i (ix_init), .idle_o (ix_idle),
    .op_valid_i (ix_valid), .op_i (ix_op), .ns_i (ix_ns), .parent_i (ix_parent),
    .page_i (ix_page), .child_i (ix_child_in), .len_i (ix_len_in), .loc_i (ix_loc_in),
    .hit_o (ix_hit), .child_o (ix_child), .len_o (ix_len), .loc_o (ix_loc),
    .bucket_o (ix_bucket), .free_ways_o (ix_free_ways), .stash_free_o (ix_stash_free),
    .used_o (ix_used), .overflow_o (ix_overflow)
  );

  // response FIFO
  logic             rsp_push, rsp_ready, rsp_last;
  logic [DataW-1:0] rsp_data;
  logic [$clog2(RspDepth + 1)-1:0] rsp_level;
  logic             rsp_full, rsp_empty;

  common_fifo_sync #(.Width(DataW + 1), .Depth(RspDepth), .RamStyle("distributed")) u_rsp (
    .clk_i (clk_i), .rst_ni (rst_ni),
    .in_valid_i (rsp_push && adv), .in_ready_o (rsp_ready), .in_data_i ({rsp_last, rsp_data}),
    .out_valid_o (rsp_tvalid_o), .out_ready_i (rsp_tready_i),
    .out_data_o ({rsp_tlast_o, rsp_tdata_o}),
    .level_o (rsp_level), .full_o (rsp_full), .empty_o (rsp_empty)
  );

  // ---------------------------------------------------------------- node word fields
  // r_*: the word on the node table's read port; p_*: a victim's parent, kept in p_word_q.
  logic              r_valid,  p_valid;
  logic [GenW-1:0]   r_gen,    p_gen;
  logic [7:0]        r_ns,     p_ns;
  logic [NodeW-1:0]  r_parent, p_parent;
  logic [LineW-1:0]  r_head,   p_head;
  logic [3:0]        r_off,    p_off;
  logic [LenW-1:0]   r_len,    p_len;
  logic [LockW-1:0]  r_lock,   p_lock;
  logic [StampW-1:0] r_stamp,  p_stamp;
  logic [KidW-1:0]   r_nchild, p_nchild;
  logic [LocW-1:0]   r_hloc,   p_hloc;
  assign {r_hloc, r_nchild, r_stamp, r_lock, r_len, r_off, r_head, r_parent, r_ns, r_gen,
          r_valid} = nd_rdata;
  assign {p_hloc, p_nchild, p_stamp, p_lock, p_len, p_off, p_head, p_parent, p_ns, p_gen,
          p_valid} = p_word_q;

  function automatic logic [NodeWordW-1:0] node_word(
      input logic v, input logic [GenW-1:0] gen, input logic [7:0] ns,
      input logic [NodeW-1:0] parent, input logic [LineW-1:0] head, input logic [3:0] off,
      input logic [LenW-1:0] len, input logic [LockW-1:0] lock, input logic [StampW-1:0] stamp,
      input logic [KidW-1:0] nchild, input logic [LocW-1:0] hloc);
    node_word = {hloc, nchild, stamp, lock, len, off, head, parent, ns, gen, v};
  endfunction

  function automatic logic [31:0] handle_of(input logic [NodeW-1:0] slot,
                                            input logic [GenW-1:0] gen);
    handle_of = {4'h0, gen, 20'(slot)};
  endfunction

  // ---------------------------------------------------------------- line streamer
  // Streams the lines of one edge (head, offset, m tokens) at one line per cycle.
  // Mode CMP compares them with the query from position base and, for MATCH,
  // copies the matched KV indices to the output buffer at their query position;
  // mode EVICT copies every KV index to the output buffer at output position
  // base and frees the lines (not the first one when the edge starts mid-line:
  // that line still holds the parent's tail).
  //
  // Cycles: start (st_start seen: edge fields latched), pre (first query row
  // read; the per-edge constants below are derived), then one issue per cycle.
  // A line goes issue -> RAM (RamLat) -> stage A (link bypass, query window
  // registered) -> stage A2 (16 lane compares registered) -> stage B (outcome,
  // output-buffer writes) -> stage W (output position). Positions advance in
  // running registers, so no stage adds a line number to a base.
  logic             st_evict_q, st_active_q, st_done_q, st_copy_q, st_pre_q, st_stop_q;
  logic [3:0]       st_off_q, st_d_q;
  logic [LenW-1:0]  st_m_q;
  logic [31:0]      st_base_q, st_a_q, st_wpos_q, st_wend_q;
  logic [LenW:0]    st_issue_q, st_mis_q, st_left_q;
  logic [LenW-4:0]  st_bk_q, st_bkm1_q;        // k, and k - 1, of the line at stage B
  logic [2:0]       st_fly_q;                  // lines issued, not yet at stage A
  logic             st_more_q;                 // st_left_q != 0
  logic [31:0]      st_babs_q, st_babs16_q;    // base + 16 k - off, and + 16
  logic [31:0]      st_qrow_q;                 // query row that goes with the next issue
  logic [31:0]      st_obrow_q, st_obrow1_q;   // output row of the line at B, and + 1
  logic [L-1:0]     st_fmask_q, st_lmask_q;    // lanes of the first / last line in the edge
  logic             st_end_al_q;               // the edge ends on a line boundary
  logic             st_flow_ok_q;
  logic [4*LineW-1:0] st_known_q;   // line k's address at slot k mod 4
  logic [3:0]       st_known_v_q;
  logic [LineW-1:0] st_split_line_q;
  logic [RamLat-1:0] sp_v_q, qp_v_q, sp_first_q, sp_last_q;
  logic [RamLat*2-1:0]        sp_k_q;      // stage i's k mod 4 at [i*2 +: 2]
  logic [RamLat*LineW-1:0]    sp_addr_q;
  logic [511:0]     qprev_q;
  logic             st_issue;
  logic [LineW-1:0] issue_addr;
  logic [31:0]      ob_rd_q, ob_rows_q;
  // response side (see "response" below): rows read + 1, the last row and its
  // lanes, and the registered "rows left" flag
  logic [31:0]      ob_rd1_q, ob_last_row_q;
  logic [15:0]      ob_tail_q;
  logic             ob_more_q;
  logic             ob_final_q, ob_issue;
  logic [OutRowW:0] ob_inflight_q;

  // Stage A: a line (and, for CMP, its query rows) arrives.
  logic             a_v, a_first, a_last;
  logic [1:0]       a_k;
  logic [LineW-1:0] a_addr;
  assign a_v     = sp_v_q[RamLat-1];
  assign a_first = sp_first_q[RamLat-1];
  assign a_last  = sp_last_q[RamLat-1];
  assign a_k     = sp_k_q[(RamLat-1)*2 +: 2];
  assign a_addr  = sp_addr_q[(RamLat-1)*LineW +: LineW];

  // A link that arrives this cycle is used at once (it left the RAM through the
  // output register), so lines issue back to back: line k brings line k+2.
  logic byp1, byp2, issue_known;
  // In flight (line k included) = issued - k: so issue == k + 2 is two in
  // flight, and for k = 0, issue == 1 is one.
  assign byp1 = a_v && st_active_q && a_first && (st_fly_q == 3'd1);
  assign byp2 = a_v && st_active_q && (st_fly_q == 3'd2);
  assign issue_addr  = byp2 ? li_rlink[2*LineW-1:LineW] :
                       (byp1 ? li_rlink[LineW-1:0] : st_known_q[LineW*st_issue_q[1:0] +: LineW]);
  assign issue_known = byp1 || byp2 || st_known_v_q[st_issue_q[1:0]];
  // The issue and the pre cycle (which reads the first query row) wait while the
  // commit stage holds the query or line read port (st_hold).
  logic st_issue_ok, st_pre_go;
  assign st_issue_ok = st_active_q && !st_pre_q && !st_stop_q && st_more_q &&
                       issue_known && st_flow_ok_q;
  assign st_issue    = st_issue_ok && !st_hold;
  assign st_pre_go   = st_active_q && st_pre_q && !st_hold;
  // CMP: the query row after the line's first query row goes with each line;
  // the first row itself is read in the pre cycle.
  assign st_q_re    = st_active_q && !st_evict_q && (st_pre_go || st_issue);
  assign st_q_raddr = QRowW'(st_pre_q ? st_a_q : st_qrow_q);

  // Stage A -> A2: the query window under the line, and the lanes of the edge.
  logic             a2_v_q, a2_first_q, a2_last_q;
  logic [LineW-1:0] a2_addr_q, a2_next1_q;
  logic [511:0]     a2_tok_q, a2_qwin_q, a2_kv_q;
  logic [L-1:0]     a2_vm_q, a2_eq;
  always_comb begin
    for (int s = 0; s < L; s++) a2_eq[s] = (a2_tok_q[32*s +: 32] == a2_qwin_q[32*s +: 32]);
  end

  // Stage B (registered): first mismatch, lanes to copy.
  logic             b_v_q, b_first_q, b_last_q;
  logic [LineW-1:0] b_addr_q, b_next1_q;
  logic [L-1:0]     b_eq_q, b_vm_q;
  logic [511:0]     b_kv_q;

  // Lanes up to and including lane t's page hold no mismatch: a prefix OR, so
  // the copy mask needs no priority encoder and no shift.
  function automatic logic [L-1:0] clean_pages(input logic [L-1:0] mis);
    logic [L-1:0] seen;
    seen = '0;
    for (int t = 0; t < L; t++) seen[t] = |(mis & ((L'(2) << (t | (PageSize - 1))) - L'(1)));
    clean_pages = ~seen;
  endfunction

  logic [L-1:0]  b_mis, b_copy;
  logic          b_any_mis;
  logic [3:0]    b_first;
  assign b_mis     = b_vm_q & ~b_eq_q;
  assign b_any_mis = !st_evict_q && (b_mis != '0);
  assign b_first   = lowest16(b_mis);
  assign b_copy    = st_evict_q ? b_vm_q : (b_vm_q & clean_pages(b_mis));

  // Output-buffer writes from stage B: lane t takes source lane (t - d) mod 16,
  // at the line's output row, or the next one for the lanes that wrapped.
  logic          b_fire;
  assign b_fire   = b_v_q && st_active_q && !st_stop_q;
  // The writes themselves happen a cycle later, at stage W, from registers.
  logic             wp_v_q, wp_mis_q;
  logic [3:0]       wp_first_q;
  logic [31:0]      wp_babs_q, wp_babs16_q;
  logic [L-1:0]  wp_copy_q;
  logic [511:0]  wp_kv_q;
  logic [31:0]   wp_row_q, wp_row1_q;
  always_comb begin
    ob_wdata = rot_up(wp_kv_q, st_d_q);
    for (int t = 0; t < L; t++) begin
      ob_waddr[t*OutRowW +: OutRowW] = OutRowW'((4'(t) < st_d_q) ? wp_row1_q : wp_row_q);
      ob_we[t] = wp_v_q && st_copy_q && wp_copy_q[4'(t) - st_d_q];
    end
  end
  // EVICT frees each line as it passes stage B.
  assign fl_push      = b_fire && st_evict_q && !(b_first_q && st_off_q != 4'd0);
  assign fl_push_data = b_addr_q;

  // Stage W: output position reached (rows below wpos/16 are complete).

  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) begin
      if (!rst_ni || kill || wkill) begin   // kill, wkill: see "L2 faults"
        st_active_q <= 1'b0;
        st_done_q   <= 1'b0;
        st_pre_q    <= 1'b0;
        st_stop_q   <= 1'b0;
        sp_v_q      <= '0;
        qp_v_q      <= '0;
        a2_v_q      <= 1'b0;
        b_v_q       <= 1'b0;
        wp_v_q      <= 1'b0;
        st_wpos_q   <= '0;
        st_evict_q  <= 1'b0;
        st_flow_ok_q <= 1'b0;
      end else begin
        // Rows restart with each command: a walk's at its start, an EVICT's at S_HDR
        // (not while a walk dispatched during the previous commit waits there).
        if ((state_q[S_HDR] && ws_q == W_IDLE) || ws_q == W_START) st_wpos_q <= '0;
        // issue pipeline
        sp_v_q     <= RamLat'({sp_v_q, st_issue});
        sp_first_q <= RamLat'({sp_first_q, st_issue_q == '0});
        sp_last_q  <= RamLat'({sp_last_q, st_left_q == (LenW + 1)'(1)});
        sp_k_q     <= (RamLat*2)'({sp_k_q, st_issue_q[1:0]});
        st_fly_q   <= st_fly_q + 3'(st_issue) - 3'(a_v);
        sp_addr_q  <= (RamLat*LineW)'({sp_addr_q, issue_addr});
        qp_v_q     <= RamLat'({qp_v_q, st_pre_go && !st_evict_q});
        if (st_issue) begin
          st_issue_q <= st_issue_q + 1'b1;
          st_left_q  <= st_left_q - 1'b1;
          st_more_q  <= (st_left_q != (LenW + 1)'(1));
          st_qrow_q  <= st_qrow_q + 32'd1;
          st_known_v_q[st_issue_q[1:0]] <= 1'b0;
        end
        // EVICT: the writer stays less than the output buffer ahead of the reader
        // (one row of slack for the issue this flag is a cycle late for).
        // Rows ahead, modulo 4 * OutRows: exact, as it never exceeds OutRows.
        // In the pre cycle st_qrow_q is not set yet: st_a_q + 1 is what it will be.
        st_flow_ok_q <= !st_evict_q ||
                        (st_pre_q ? ((OutRowW + 2)'(st_a_q - ob_rd_q) < (OutRowW + 2)'(OutRows - 4))
                                  : ((OutRowW + 2)'(st_qrow_q - ob_rd_q) < (OutRowW + 2)'(OutRows - 3)));
        // pre cycle: per-edge constants
        if (st_pre_go) begin
          st_pre_q    <= 1'b0;
          st_left_q   <= lines_of(st_off_q, st_m_q);
          st_more_q   <= 1'b1;   // m >= 1: at least one line
          st_qrow_q   <= st_a_q + 32'd1;
          st_obrow_q  <= st_a_q;
          st_obrow1_q <= st_a_q + 32'd1;
          st_babs16_q <= st_babs_q + 32'd16;
          st_wend_q   <= st_base_q + 32'(st_m_q);
          for (int s = 0; s < L; s++) begin
            st_fmask_q[s] <= (4'(s) >= st_off_q);
            st_lmask_q[s] <= (4'(s) <= 4'(st_off_q + 4'(st_m_q) - 4'd1));
          end
          st_end_al_q <= (4'(st_off_q + 4'(st_m_q)) == 4'd0);
        end
        // stage A -> A2
        if (qp_v_q[RamLat-1]) qprev_q <= qtok_rdata;
        a2_v_q <= a_v && st_active_q && !st_stop_q;
        if (a_v) begin
          qprev_q    <= qtok_rdata;
          a2_first_q <= a_first;
          a2_last_q  <= a_last;
          a2_addr_q  <= a_addr;
          a2_next1_q <= li_rlink[LineW-1:0];
          a2_tok_q   <= li_rtok;
          a2_qwin_q  <= window(qprev_q, qtok_rdata, st_d_q);
          a2_kv_q    <= li_rkv;
          a2_vm_q    <= (a_first ? st_fmask_q : '1) & (a_last ? st_lmask_q : '1);
          // forward links: line k gives k+1 (only needed for k = 0) and k+2,
          // kept unless an issue takes them straight away (a bypass that meets
          // a stalled issue -- EVICT flow control -- must keep its link)
          if (a_first && !(byp1 && st_issue)) begin
            st_known_q[LineW +: LineW] <= li_rlink[LineW-1:0];
            st_known_v_q[1] <= 1'b1;
          end
          if (!(byp2 && st_issue)) begin
            st_known_q[LineW*2'(a_k + 2'd2) +: LineW] <= li_rlink[2*LineW-1:LineW];
            st_known_v_q[2'(a_k + 2'd2)] <= 1'b1;
          end
        end
        // stage A2 -> B
        b_v_q <= a2_v_q && st_active_q && !st_stop_q;
        if (a2_v_q) begin
          b_first_q <= a2_first_q;
          b_last_q  <= a2_last_q;
          b_addr_q  <= a2_addr_q;
          b_next1_q <= a2_next1_q;
          b_eq_q    <= a2_eq;
          b_vm_q    <= a2_vm_q;
          b_kv_q    <= a2_kv_q;
        end
        // stage B: outcome
        wp_v_q <= b_fire;
        if (b_fire) begin
          wp_mis_q    <= b_any_mis;
          wp_copy_q   <= b_copy;
          wp_kv_q     <= b_kv_q;
          wp_row_q    <= st_obrow_q;
          wp_row1_q   <= st_obrow1_q;
          wp_first_q  <= b_first & ~4'(PageSize - 1);
          wp_babs_q   <= st_babs_q;
          wp_babs16_q <= st_babs16_q;
          st_bk_q     <= st_bk_q + 1'b1;
          st_bkm1_q   <= st_bkm1_q + 1'b1;
          st_babs_q   <= st_babs_q + 32'd16;
          st_babs16_q <= st_babs16_q + 32'd16;
          st_obrow_q  <= st_obrow_q + 32'd1;
          st_obrow1_q <= st_obrow1_q + 32'd1;
          if (b_any_mis) begin
            st_stop_q       <= 1'b1;
            st_done_q       <= 1'b1;
            st_active_q     <= 1'b0;
            // 16 k + first - off, without an adder: lane first is on line k's
            // side of the edge's start when first >= off, else it borrows.
            st_mis_q        <= (b_first >= st_off_q) ? {st_bk_q, 4'(b_first - st_off_q)}
                                                     : {st_bkm1_q, 4'(b_first - st_off_q)};
            st_split_line_q <= b_addr_q;
          end else if (b_last_q) begin
            st_done_q       <= 1'b1;
            st_active_q     <= 1'b0;
            st_mis_q        <= (LenW + 1)'(st_m_q);
            st_split_line_q <= st_end_al_q ? b_next1_q : b_addr_q;
          end
        end
        // stage W
        if (wp_v_q) begin
          st_wpos_q <= wp_mis_q ? wp_babs_q + 32'(wp_first_q)
                     : ((wp_babs16_q < st_wend_q) ? wp_babs16_q : st_wend_q);
        end
        if (st_start) begin
          st_active_q  <= 1'b1;
          st_done_q    <= 1'b0;
          st_stop_q    <= 1'b0;
          st_pre_q     <= 1'b1;
          st_issue_q   <= '0;
          st_left_q    <= '0;
          st_more_q    <= 1'b0;
          st_fly_q     <= '0;
          st_bk_q      <= '0;
          st_bkm1_q    <= '1;
          sp_v_q       <= '0;
          qp_v_q       <= '0;
          a2_v_q       <= 1'b0;
          b_v_q        <= 1'b0;
          wp_v_q       <= 1'b0;
          st_known_q[LineW-1:0] <= c_head_q;
          st_known_v_q <= 4'b0001;
          st_off_q     <= c_off_q;
          st_evict_q   <= (wk_op_q == radix_pkg::OP_EVICT);
          st_copy_q    <= (wk_op_q == radix_pkg::OP_EVICT) || (wk_op_q == radix_pkg::OP_MATCH);
          if (wk_op_q == radix_pkg::OP_EVICT) begin
            st_m_q      <= c_len_q;
            st_base_q   <= got_q;
            st_wpos_q   <= got_q;
            st_babs_q   <= got_q - 32'(c_off_q);
            st_d_q      <= got_q[3:0] - c_off_q;
            st_a_q      <= 32'($signed(got_q - 32'(c_off_q)) >>> 4);
          end else begin
            st_m_q      <= (c_len_q < rem_q) ? c_len_q : rem_q;
            st_base_q   <= 32'(pos_q);
            st_wpos_q   <= 32'(pos_q);
            st_babs_q   <= 32'(pos_q) - 32'(c_off_q);
            st_d_q      <= pos_q[3:0] - c_off_q;
            st_a_q      <= 32'($signed(32'(pos_q) - 32'(c_off_q)) >>> 4);
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- leaf writer
  // Writes the new leaf's lines from the query buffer. Step c reads query rows
  // a+c and pops free line c; line c-2 is written when step c's data arrives,
  // since its two forward links (lines c-1 and c) are known by then.
  // Down-counters (issues left, pops left, arrivals left) and a saturating
  // arrival count, so no step is compared with lw_nl_q + 1.
  logic             lw_active_q;
  logic [LenW:0]    lw_iss_left_q, lw_pop_left_q, lw_arr_left_q;
  logic [1:0]       lw_arr_q;
  logic [3:0]       lw_d_q;
  logic [QRowW-1:0] lw_row_q;
  logic [RamLat-1:0] lw_v_q;
  logic [511:0]     lw_tok1_q, lw_tok2_q, lw_kv1_q, lw_kv2_q;
  logic [LineW-1:0] lw_a1_q, lw_a2_q, lw_head_q;
  logic             lw_issue, lw_v;

  assign lw_issue   = lw_active_q && (lw_iss_left_q != '0);
  assign lw_q_re    = lw_issue;
  assign lw_q_raddr = lw_row_q;
  assign fl_pop     = lw_issue && (lw_pop_left_q != '0);
  assign lw_v       = lw_v_q[RamLat-1];
  assign li_we      = lw_v && (lw_arr_q == 2'd2);
  assign li_waddr   = lw_a2_q;
  assign li_wtok    = window(lw_tok2_q, lw_tok1_q, lw_d_q);
  assign li_wkv     = window(lw_kv2_q, lw_kv1_q, lw_d_q);
  assign li_wlink   = {fl_data, lw_a1_q};   // {next2, next1}

  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) begin
      if (!rst_ni || kill) begin   // kill: see "L2 faults"
        lw_active_q <= 1'b0;
        lw_v_q      <= '0;
      end else begin
        lw_v_q <= RamLat'({lw_v_q, lw_issue});
        if (lw_issue) begin
          lw_row_q      <= lw_row_q + 1'b1;
          lw_iss_left_q <= lw_iss_left_q - 1'b1;
          if (lw_pop_left_q != '0) lw_pop_left_q <= lw_pop_left_q - 1'b1;
        end
        if (lw_v) begin
          lw_tok2_q <= lw_tok1_q;  lw_tok1_q <= qtok_rdata;
          lw_kv2_q  <= lw_kv1_q;   lw_kv1_q  <= qkv_rdata;
          lw_a2_q   <= lw_a1_q;    lw_a1_q   <= fl_data;
          if (lw_arr_q == 2'd0) lw_head_q <= fl_data;
          if (lw_arr_q != 2'd2) lw_arr_q <= lw_arr_q + 1'b1;
          lw_arr_left_q <= lw_arr_left_q - 1'b1;
          if (lw_arr_left_q == '0) lw_active_q <= 1'b0;
        end
        if (lw_start) begin
          lw_active_q   <= 1'b1;
          lw_arr_q      <= '0;
          lw_iss_left_q <= leaf_lines_q + (LenW + 1)'(2);
          lw_pop_left_q <= leaf_lines_q;
          lw_arr_left_q <= leaf_lines_q + (LenW + 1)'(1);
          lw_d_q        <= cm_pos_q[3:0];
          lw_row_q      <= QRowW'(cm_pos_q >> 4);
        end
      end
    end
  end

  // ---------------------------------------------------------------- port muxes
  assign q_re     = seq_q_re_q || st_q_re || lw_q_re;
  assign q_raddr  = st_q_re ? st_q_raddr : (lw_q_re ? lw_q_raddr : seq_q_raddr_q);
  assign li_re    = seq_li_re_q || st_issue;
  assign li_raddr = st_issue ? issue_addr : seq_li_raddr_q;

  // ---------------------------------------------------------------- intake
  // The intake takes a command's beats into the query bank in_bank_q while the
  // sequencer may still be running the previous command from wk_bank_q and
  // cm_bank_q, so a command's load overlaps the previous command's walk, commit and
  // response. Once the last beat is in, the command waits in the descriptor (d_*)
  // with the status its framing checks gave; the sequencer takes it (`dispatch`)
  // when it is idle: its bank becomes the walk stage's, and the intake moves to the
  // walk stage's old bank. The hand-over (S_DECIDE) gives the walk stage's bank to
  // the commit stage and the commit stage's old one to the walk stage. The intake takes
  // no header while the descriptor is full: two commands at most are accepted and
  // unanswered beyond those whose responses are queued (three with a parked one).
  //
  // Parking (Overlap != 0 only, so the serial build keeps its timing): a command that
  // reads no query bank (LOCK, UNLOCK, EVICT, SIZES, RESET, or one the intake refused)
  // moves from the descriptor to the parked slot (p_*) while it waits for both stages
  // to go idle, and the intake loads the next command into its bank meanwhile. The
  // parked command is always the older one and dispatches first, without moving the
  // banks (it held none), so commands still reach the sequencer in arrival order.
  typedef enum logic [1:0] {I_HDR, I_CHECK, I_LOAD, I_DRAIN} intake_e;
  intake_e     in_state_q;
  logic        d_valid_q, dispatch;
  logic [7:0]  d_op_q, d_ns_q, d_status_q;
  logic [31:0] d_arg_q;
  logic        ahead_q;                // the command was accepted while another executed
  logic        p_valid_q, p_ahead_q, d_nobank, p_nobank, park;
  logic [7:0]  p_op_q, p_ns_q, p_status_q;
  logic [31:0] p_arg_q, parked_q;
  // the oldest command waiting: the parked one, else the descriptor's
  logic        hd_valid;
  logic [7:0]  hd_op, hd_ns, hd_status;
  logic [31:0] hd_arg;
  assign hd_valid  = p_valid_q || d_valid_q;
  assign hd_op     = p_valid_q ? p_op_q : d_op_q;
  assign hd_ns     = p_valid_q ? p_ns_q : d_ns_q;
  assign hd_status = p_valid_q ? p_status_q : d_status_q;
  assign hd_arg    = p_valid_q ? p_arg_q : d_arg_q;
  assign d_nobank  = (d_status_q != radix_pkg::ST_OK) ||
                     !(d_op_q == radix_pkg::OP_MATCH || d_op_q == radix_pkg::OP_INSERT);
  assign p_nobank  = (p_status_q != radix_pkg::ST_OK) ||
                     !(p_op_q == radix_pkg::OP_MATCH || p_op_q == radix_pkg::OP_INSERT);
  logic [31:0] ahead_cnt_q;
  logic cmd_fire;
  assign cmd_fire = cmd_tvalid_i && cmd_tready_o;
  // The header beat is registered (I_HDR) and checked in the next cycle
  // (I_CHECK), so no check runs straight off the input port.
  logic [7:0]  h_op, h_ns;
  logic [31:0] h_arg;
  logic        h_last;
  logic        h_len_bad, h_ns_bad, h_kv_bad;   // checks on the header, made at intake
  // Query-buffer write position: row within the tokens or the KV indices, and
  // the beats left before the KV half and before the end (down-counters, so
  // the intake compares with zero instead of adding and comparing).
  logic [QRowW-1:0] ld_row_q;
  logic [LenW:0]    ld_tok_left_q, ld_left_q;
  logic             ld_kv_q, ld_last_q, ld_tok_last_q;   // the counters are at zero

  logic [NodeW-1:0] h_slot;
  logic [GenW-1:0]  h_gen;
  logic             h_slot_ok;
  assign h_slot    = arg_q[NodeW-1:0];
  assign h_gen     = arg_q[20 +: GenW];
  assign h_slot_ok = (arg_q[19:0] < 20'(NodeCap)) && (arg_q[31:28] == 4'h0);

  // query page at the commit's walk position from the row just read
  logic [PageBits-1:0] q_page;
  assign q_page = qtok_rdata[32*cm_pos_q[3:0] +: PageBits];

  // Of the query banks 0, 1 and 2, the one that is neither a nor b (a != b).
  function automatic logic [1:0] third_bank(input logic [1:0] a, input logic [1:0] b);
    third_bank = 2'd3 - a - b;
  endfunction

  // lines spanned from offset o for len tokens, and lines an eviction frees
  function automatic logic [LenW:0] lines_of(input logic [3:0] o, input logic [LenW-1:0] len);
    lines_of = ((LenW + 1)'(o) + (LenW + 1)'(len) + (LenW + 1)'(L - 1)) >> 4;
  endfunction

  // The new leaf's length and lines, registered once the walk is over (S_DECIDE
  // and S_D_PROBE2), long before S_D_CHECK and the leaf writer read them.
  logic [LenW-1:0] leaf_len;
  // Free-list levels as registered flags (the lists do not change during a walk).
  logic            fn_any_q, fn_ge2_q, fl_ok_q;
  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) begin
      fn_any_q <= (fn_count != '0);
      fn_ge2_q <= (fn_count >= (NodeW + 1)'(2));
      fl_ok_q  <= (32'(leaf_lines_q) <= 32'(fl_count));
    end
  end

  // ---------------------------------------------------------------- sequencer
  logic walking, ix_ready, trail_push;
  logic fits;
  logic [StashW+1:0] st_need;
  assign walking  = (ws_q == W_WAITPF) || (ws_q == W_CMP) || (ws_q == W_DRAIN);
  // The walk hands over when the sequencer waits for it (S_WALK) and the previous
  // commit's broadcasts have all been answered; a walk one of them hit runs again
  // instead (replay_go), from the root, with nothing left uncommitted before it.
  logic bc_busy;
  assign walk_end  = (ws_q == W_START && wk_n_q == '0) || (ws_q == W_DRAIN && !pf_busy) ||
                     (ws_q == W_DONE);
  assign wk_done   = walk_end && state_q[S_WALK] && !bc_busy && !cf_q;
  assign replay_go = walk_end && state_q[S_WALK] && !bc_busy && cf_q;
  assign ix_ready = ix_idle && !ix_valid;
  // The child index goes to the walker first: the commit stage takes it only when the
  // walker neither issues a lookup this cycle nor has one whose answer it has yet to
  // take (PF_LWAIT reads the index's outputs when it goes on). Walker first keeps the
  // sequencer's state decode off the walker's issue path; the commit stage waits at
  // most one lookup, since the walker's next one is a page read (RamLat + 1 cycles) away.
  logic ix_ok, pf_issue;
  assign ix_ok = ix_ready && pf_state_q != PF_LWAIT && !pf_issue;

  // ---------------------------------------------------------------- port arbitration
  // The walk stage (walker, line streamer) and the commit stage (sequencer, leaf
  // writer) share the query RAMs' and the token lines' read ports, the node table's
  // read port and the child index. The commit stage goes first: in a cycle it uses
  // a port the walk stage's unit holds its request, and the RAM pipelines behind
  // that unit run on. While the stages are serial the two never ask in the same
  // cycle (asserted below); StallInject adds holds in pseudo-random cycles so the
  // hold paths run anyway.
  // Injected holds: each unit's in a quarter of the cycles, and one unit's (or, one
  // time in four, every unit's) through bursts of 8 to 39 cycles, as long as a commit
  // stage's leaf write, that start in about one cycle in 32. A burst on one unit lets
  // the others run on meanwhile (a node read held past the walker's next lookup).
  logic [15:0] inj_q;
  logic [5:0]  inj_burst_q;
  logic [1:0]  inj_bsel_q;   // 0 streamer, 1 node read, 2 lookup, 3 all
  logic        inj_st, inj_nr, inj_pf, inj_on;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      inj_q       <= 16'hACE1;
      inj_burst_q <= '0;
      inj_bsel_q  <= '0;
    end else if (adv) begin
      inj_q <= {inj_q[14:0], inj_q[15] ^ inj_q[13] ^ inj_q[12] ^ inj_q[10]};
      if (inj_burst_q != '0) begin
        inj_burst_q <= inj_burst_q - 1'b1;
      end else if (inj_q[15:11] == '0) begin
        inj_burst_q <= {1'b0, inj_q[4:0]} + 6'd8;
        inj_bsel_q  <= inj_q[7:6];
      end
    end
  end
  assign inj_on = (StallInject != 0);
  assign inj_st = inj_on && ((inj_burst_q != '0 && (inj_bsel_q == 2'd0 || inj_bsel_q == 2'd3)) ||
                             (inj_q[0] && inj_q[1]));
  assign inj_nr = inj_on && ((inj_burst_q != '0 && (inj_bsel_q == 2'd1 || inj_bsel_q == 2'd3)) ||
                             (inj_q[2] && inj_q[3]));
  assign inj_pf = inj_on && ((inj_burst_q != '0 && (inj_bsel_q == 2'd2 || inj_bsel_q == 2'd3)) ||
                             (inj_q[4] && inj_q[5]));
  assign cm_rd   = lw_q_re || seq_q_re_q || seq_li_re_q;
  assign st_hold = cm_rd || inj_st;
  assign nr_hold = nd_re || inj_nr;
  assign nr_go   = nr_v_q[0] && !nr_hold;
  // The walker's lookup waits while the commit is between a child-index write and the
  // node word that entry leads to, so a walk never reads an entry whose node is not
  // written yet.
  assign pf_hold  = !ix_ready || inj_pf || cm_win_q;
  assign pf_issue = !pf_clear && pf_state_q == PF_PAGE && pf_cnt_q <= 4'd1 && !pf_hold;
  assign eq_pop   = (eq_cnt_q != '0) &&
                    ((ws_q == W_WAITPF) ||
                     (ws_q == W_CMP && st_done_q && !st_start &&
                      st_mis_q >= (LenW + 1)'(c_len_q) && c_len_q != rem_q));

  // ---------------------------------------------------------------- read signature
  // Overlap: the walk adds what it reads to a Bloom signature (radix_read_sig, one
  // context); the commit before it, once all its table writes are issued
  // (S_C_RESULT), broadcasts what it wrote, one key per cycle. A hit sets cf_q and
  // the walk runs again at its hand-over. Keys: [31:30] the kind, [29:0] its operand.
  // Kind 0, a child-index entry: the walker's lookup of (ns, parent, page) reads it,
  // a new leaf or a split's upper node writes one; the operand folds the entry's key.
  // Kind 1, a node: the walker's lookup that finds it goes on to read its word (the
  // split rewrites the cut node's word and gives its parent's entry to the new upper
  // node; a new leaf's and a new upper node's words are written after their entries).
  // Adds go in the cycle the lookup is on the index port (the one after the walker
  // issues it) and the cycle its hit is taken; every key a commit writes is written
  // before S_C_RESULT, more than RamLat cycles before its broadcast, so a read issued
  // before the write has added its key by then.
  localparam int SigInW = 8 + NodeW + PageBits;
  localparam int BcN    = 5;
  function automatic logic [29:0] sig_fold(input logic [7:0] ns, input logic [NodeW-1:0] par,
                                           input logic [PageBits-1:0] pg);
    logic [SigInW-1:0] v;
    v = {pg, par, ns};
    sig_fold = '0;
    for (int i = 0; i < SigInW; i += 30) sig_fold = sig_fold ^ 30'(v >> i);
  endfunction
  logic             sig_add_lk, sig_add_hit, sig_clr, sig_add, sig_bc, sig_hit, sig_lk_q;
  logic [31:0]      sig_add_key;
  logic [BcN-1:0]   bc_v_q, bc_split_q;   // keys still to broadcast; from a split
  logic [31:0]      bc_key_q [BcN];
  logic [1:0]       bc_p_q, bc_ps_q;      // broadcasts of the last two cycles; from a split
  // The lookup's key is added from the index port's registers, the cycle after the
  // walker issued it (ix_valid holds them: nothing else writes them that cycle), so
  // the query page's word select and the key's fold stay off the hash's path.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) sig_lk_q <= 1'b0;
    else if (adv) sig_lk_q <= pf_issue;
  end
  assign sig_add_lk  = sig_lk_q;
  assign sig_add_hit = !pf_clear && pf_state_q == PF_LWAIT && ix_ready &&
                       nr_v_q[RamLat-1:0] == '0 && ix_hit;
  assign sig_clr     = adv && ws_q == W_START;
  assign sig_add     = adv && (sig_add_lk || sig_add_hit);
  assign sig_add_key = sig_add_lk
                       ? {2'd0, sig_fold(ix_ns, ix_parent, ix_page)}
                       : {2'd1, 30'(ix_child)};
  assign sig_bc      = adv && bc_v_q[0] && ws_q != W_IDLE;
  assign bc_busy     = (bc_v_q != '0) || (bc_p_q != '0);
  always_ff @(posedge clk_i) begin
    // The answers come two clock cycles after their broadcasts, frozen cycles or not:
    // the two cycles' record runs on the clock.
    if (!rst_ni) begin
      bc_p_q  <= '0;
      bc_ps_q <= '0;
    end else begin
      bc_p_q  <= {bc_p_q[0], sig_bc};
      bc_ps_q <= {bc_ps_q[0], sig_bc && bc_split_q[0]};
    end
    if (!rst_ni) begin
      bc_v_q  <= '0;
    end else if (adv) begin
      if (Overlap != 0 && state_q[S_C_RESULT]) begin
        bc_v_q      <= {need_leaf_q, need_leaf_q, {3{need_split_q}}};
        bc_split_q  <= 5'b00111;
        bc_key_q[0] <= {2'd1, 30'(cm_cand_q)};
        bc_key_q[1] <= {2'd1, 30'(new_up_q)};
        bc_key_q[2] <= {2'd0, sig_fold(ns_q, new_up_q, tail_page_q)};
        bc_key_q[3] <= {2'd0, sig_fold(ns_q, cm_node_q, cm_page_q)};
        bc_key_q[4] <= {2'd1, 30'(new_leaf_q)};
      end else begin
        bc_v_q     <= bc_v_q >> 1;
        bc_split_q <= bc_split_q >> 1;
        for (int i = 0; i < BcN - 1; i++) bc_key_q[i] <= bc_key_q[i + 1];
      end
    end
  end
  if (Overlap != 0) begin : g_sig
    logic [0:0] hit;
    logic       sig_hit_v;
    radix_read_sig #(.Ctx(1), .SigBits(256), .NumHash(3), .KeyW(32)) u_sig (
      .clk_i, .rst_ni,
      .clr_i (sig_clr), .clr_ctx_i (1'b0),
      .add_i (sig_add), .add_ctx_i (1'b0), .add_key_i (sig_add_key),
      .bc_i (sig_bc), .bc_key_i (bc_key_q[0]), .bc_mask_i (1'b1),
      .hit_valid_o (sig_hit_v), .hit_o (hit));
    assign sig_hit = sig_hit_v && hit[0];
  end else begin : g_no_sig
    logic unused_sig;
    assign unused_sig = ^{sig_clr, sig_add, sig_add_key, sig_bc, bc_key_q[0]};
    assign sig_hit    = 1'b0;
  end

  // Overlap counters: walks started while a commit ran, walks run again, broadcasts
  // that hit a walk (by the writer: a split, a new leaf), cycles a finished walk
  // waited for the commit stage, cycles the walker's lookup waited for it, walks an
  // L2 fault stopped beside the command it cut short (kill), and walks it stopped
  // while the sequencer was idle or sending a trailer (wkill): two counters, so a
  // test can tell which case it reached.
  logic [31:0] ovl_walks_q, replays_q, hits_split_q, hits_leaf_q, wk_wait_q, ix_wait_q;
  logic [31:0] ovl_killed_q, wk_killed_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cf_q         <= 1'b0;
      ovl_walks_q  <= '0;
      replays_q    <= '0;
      hits_split_q <= '0;
      hits_leaf_q  <= '0;
      wk_wait_q    <= '0;
      ix_wait_q    <= '0;
      ovl_killed_q <= '0;
      wk_killed_q  <= '0;
    end else begin
      // An answer comes two clock cycles after its broadcast, frozen cycles or not.
      if (adv && (replay_go || odispatch || ws_q == W_START)) cf_q <= 1'b0;
      if (sig_hit) cf_q <= 1'b1;
      if (sig_hit && bc_ps_q[1]) hits_split_q <= hits_split_q + 1'b1;
      if (sig_hit && !bc_ps_q[1]) hits_leaf_q <= hits_leaf_q + 1'b1;
    end
    if (rst_ni && adv) begin
      if (odispatch) ovl_walks_q <= ovl_walks_q + 1'b1;
      if (replay_go) replays_q <= replays_q + 1'b1;
      if (kill && ws_q != W_IDLE && ws_q != W_DONE && !state_q[S_WALK])
        ovl_killed_q <= ovl_killed_q + 1'b1;
      if (wkill) wk_killed_q <= wk_killed_q + 1'b1;
      if (ws_q == W_DONE) wk_wait_q <= wk_wait_q + 1'b1;
      if (pf_state_q == PF_PAGE && pf_cnt_q <= 4'd1 && (!ix_ready || cm_win_q))
        ix_wait_q <= ix_wait_q + 1'b1;
    end
  end

  // Room for the command's new nodes, lines and index entries (two entries in
  // one bucket need two free ways there, or the stash makes up the rest).
  logic [3:0] tail_lane;
  assign tail_lane = cm_off_q + 4'(cm_split_q);
  always_comb begin
    if (need_split_q && need_leaf_q && probe_b1_q == ix_bucket) begin
      st_need = (probe_f1_q >= (WayW + 1)'(2)) ? '0 : (StashW + 2)'((WayW + 1)'(2) - probe_f1_q);
    end else begin
      st_need = (StashW + 2)'(need_split_q && probe_f1_q == '0) +
                (StashW + 2)'(need_leaf_q && ix_free_ways == '0);
    end
    fits = (st_need <= (StashW + 2)'(ix_stash_free)) &&
           ((need_split_q && need_leaf_q) ? fn_ge2_q
                                          : (!(need_split_q || need_leaf_q) || fn_any_q)) &&
           (!need_leaf_q || fl_ok_q);
  end

  always_comb begin
    cmd_tready_o = adv && (((in_state_q == I_HDR) && !d_valid_q) ||
                           (in_state_q == I_LOAD) || (in_state_q == I_DRAIN));
    q_we    = (in_state_q == I_LOAD) && cmd_fire;
    q_wkv   = ld_kv_q;
    q_waddr = ld_row_q;
  end

  // The sequencer takes the descriptor in its second idle tick, not its first: what
  // the previous command (or the init sweep) changed last settles in registered
  // copies a cycle later (TOTAL, the free-list flags a walk starts from), and the
  // commands must read it as if they ran alone.
  logic hdr_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) hdr_q <= 1'b0;
    else if (adv) hdr_q <= state_q[S_HDR];
  end
  assign dispatch = adv && state_q[S_HDR] && hdr_q && hd_valid && ws_q == W_IDLE;
  // The command dispatched goes to the walk stage: its decision and commit fields
  // are loaded at the hand-over, not here.
  logic hdr_walks;
  assign hdr_walks = (hd_status == radix_pkg::ST_OK) && !l2_fault &&
                     (hd_op == radix_pkg::OP_MATCH || hd_op == radix_pkg::OP_INSERT);
  // Overlap: the next MATCH or INSERT goes to the idle walk stage while the sequencer
  // decides, commits and answers the previous MATCH or INSERT, or runs a LOCK or
  // UNLOCK. A LOCK or UNLOCK writes only lock counts and the size counters; no walk
  // reads those (the decision reads the cut node's word again, lock included, after
  // every older command has committed), so a walk beside one never conflicts. Every
  // other command waits for both stages (EVICT, RESET and SIZES read the whole tree or
  // its counters), and LOCK and UNLOCK wait for the walk stage too: they follow the
  // walking command in order.
  assign odispatch = (Overlap != 0) && adv && cm_busy_q && ws_q == W_IDLE && hd_valid &&
                     hdr_walks;
  // The descriptor's command parks while it waits, unless it leaves this cycle.
  assign park = (Overlap != 0) && adv && d_valid_q && d_nobank && !p_valid_q && !dispatch;

  // The intake: header, its checks, then the payload (or, for a refused command, the
  // rest of its beats, drained); the whole command then waits in the descriptor.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      in_state_q  <= I_HDR;
      d_valid_q   <= 1'b0;
      p_valid_q   <= 1'b0;
      parked_q    <= '0;
      in_bank_q   <= 2'd0;
      wk_bank_q   <= 2'd1;
      cm_bank_q   <= 2'd2;
      ahead_cnt_q <= '0;
    end else if (adv) begin
      if ((dispatch || odispatch) && p_valid_q) begin
        // it held no bank: the intake keeps loading the next command into its own
        p_valid_q <= 1'b0;
        if (p_ahead_q) ahead_cnt_q <= ahead_cnt_q + 1'b1;
      end else if (dispatch || odispatch) begin
        d_valid_q <= 1'b0;
        wk_bank_q <= in_bank_q;
        in_bank_q <= third_bank(in_bank_q, cm_bank_q);
        if (ahead_q) ahead_cnt_q <= ahead_cnt_q + 1'b1;
      end
      // (the descriptor is full, so the intake waits in I_HDR and writes none of it)
      if (park) begin
        p_valid_q  <= 1'b1;
        p_op_q     <= d_op_q;
        p_ns_q     <= d_ns_q;
        p_arg_q    <= d_arg_q;
        p_status_q <= d_status_q;
        p_ahead_q  <= ahead_q;
        d_valid_q  <= 1'b0;
        parked_q   <= parked_q + 1'b1;
      end
      if (state_q[S_DECIDE]) begin
        cm_bank_q <= wk_bank_q;
        wk_bank_q <= third_bank(in_bank_q, wk_bank_q);   // the commit stage's old bank
      end
      unique case (in_state_q)
        I_HDR: if (cmd_fire) begin
          h_op      <= cmd_tdata_i[7:0];
          h_ns      <= cmd_tdata_i[15:8];
          h_arg     <= cmd_tdata_i[63:32];
          h_last    <= cmd_tlast_i;
          h_len_bad <= (cmd_tdata_i[63:32] == 32'h0) || (cmd_tdata_i[63:32] > 32'(MaxLen));
          h_ns_bad  <= (32'(cmd_tdata_i[15:8]) >= 32'(NumNs));
          h_kv_bad  <= (32'(cmd_tdata_i[31:16]) != cmd_tdata_i[63:32]);
          // Counted when the sequencer takes it: a command reset away first is not.
          ahead_q   <= !state_q[S_HDR] && !state_q[S_INIT] && !state_q[S_INIT_WAIT];
          in_state_q <= I_CHECK;
        end
        I_CHECK: begin
          d_op_q     <= h_op;
          d_ns_q     <= h_ns;
          d_arg_q    <= h_arg;
          d_status_q <= radix_pkg::ST_OK;
          // beats of tokens, less one: ceil(n / 16) - 1 = (n - 1) / 16 for n >= 1
          // (n = 0 is refused below); an INSERT sends as many beats of KVs.
          ld_row_q      <= '0;
          ld_kv_q       <= 1'b0;
          ld_tok_left_q <= (LenW + 1)'((h_arg[LenW:0] - 1'b1) >> 4);
          ld_tok_last_q <= (h_arg[LenW:0] <= (LenW + 1)'(L));
          ld_last_q     <= (h_arg[LenW:0] <= (LenW + 1)'(L)) && (h_op != radix_pkg::OP_INSERT);
          ld_left_q     <= (h_op == radix_pkg::OP_INSERT)
                           ? (LenW + 1)'({(h_arg[LenW:0] - 1'b1) >> 4, 1'b1})
                           : (LenW + 1)'((h_arg[LenW:0] - 1'b1) >> 4);
          in_state_q <= h_last ? I_HDR : I_DRAIN;
          d_valid_q  <= h_last;
          unique case (h_op)
            radix_pkg::OP_MATCH, radix_pkg::OP_INSERT: begin
              if (h_len_bad) begin
                d_status_q <= radix_pkg::ST_LENGTH;
              end else if (h_ns_bad) begin
                d_status_q <= radix_pkg::ST_NAMESPACE;
              end else if (h_op == radix_pkg::OP_INSERT && h_kv_bad) begin
                d_status_q <= radix_pkg::ST_KVCOUNT;
              end else if (h_last) begin
                d_status_q <= radix_pkg::ST_FRAMING;
              end else begin
                in_state_q <= I_LOAD;
              end
            end
            radix_pkg::OP_EVICT, radix_pkg::OP_LOCK, radix_pkg::OP_UNLOCK,
            radix_pkg::OP_SIZES, radix_pkg::OP_RESET: begin
              if (!h_last) d_status_q <= radix_pkg::ST_FRAMING;
            end
            default: d_status_q <= radix_pkg::ST_OPCODE;
          endcase
        end
        I_LOAD: if (cmd_fire) begin
          ld_left_q     <= ld_left_q - 1'b1;
          ld_tok_left_q <= ld_tok_left_q - 1'b1;
          ld_last_q     <= (ld_left_q == (LenW + 1)'(1));
          ld_tok_last_q <= (ld_tok_left_q == (LenW + 1)'(1));
          if (!ld_kv_q && ld_tok_last_q) begin
            ld_kv_q  <= 1'b1;
            ld_row_q <= '0;
          end else begin
            ld_row_q <= ld_row_q + 1'b1;
          end
          if (ld_last_q) begin
            if (cmd_tlast_i) begin
              d_valid_q  <= 1'b1;
              in_state_q <= I_HDR;
            end else begin
              d_status_q <= radix_pkg::ST_FRAMING;
              in_state_q <= I_DRAIN;
            end
          end else if (cmd_tlast_i) begin
            d_status_q <= radix_pkg::ST_FRAMING;
            d_valid_q  <= 1'b1;
            in_state_q <= I_HDR;
          end
        end
        I_DRAIN: if (cmd_fire && cmd_tlast_i) begin
          d_valid_q  <= 1'b1;
          in_state_q <= I_HDR;
        end
        default: in_state_q <= I_HDR;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) begin
      // defaults for one-cycle strobes
      nd_re <= 1'b0; nd_we <= 1'b0; lk_re <= 1'b0; ln_we <= 1'b0; lp_we <= 1'b0;
      pa_re <= 1'b0; pa_we <= 1'b0; seq_q_re_q <= 1'b0; seq_li_re_q <= 1'b0;
      fn_pop <= 1'b0; fn_peek <= 1'b0; fn_push <= 1'b0; fn_init <= 1'b0;
      fl_init <= 1'b0; ix_init <= 1'b0; ix_valid <= 1'b0;
      st_start <= 1'b0; lw_start <= 1'b0; pf_go <= 1'b0; pf_clear <= 1'b0; pg_re <= 1'b0;
      error_q <= 1'b0; clk_inc_q <= 1'b0; clk_clr_q <= 1'b0; sz_v_q <= 1'b0;
      clr_req_q <= 1'b0;
      // registered compares for EVICT (operands settle several cycles before use)
      got_nx_lt_q <= (got_nx_q < arg_q);
      p_leaf_q    <= (p_nchild == KidW'(1)) && (p_lock == '0);
      p_hi_lt_q   <= (p_stamp[StampW-1:32] < ref_stamp_q[StampW-1:32]);
      p_hi_eq_q   <= (p_stamp[StampW-1:32] == ref_stamp_q[StampW-1:32]);
      p_lo_le_q   <= (p_stamp[31:0] <= ref_stamp_q[31:0]);
      total_q <= evictable_q + protected_q;
      sz_v2_q      <= sz_v_q;
      sz_ev_op_q   <= sz_ev_sub_q ? 32'd0 - 32'(sz_len_q) : 32'(sz_len_q);
      sz_prot_op_q <= sz_prot_sub_q ? 32'd0 - 32'(sz_len_q)
                                    : (sz_prot_add_q ? 32'(sz_len_q) : 32'd0);
      if (sz_v2_q) begin
        evictable_q <= evictable_q + sz_ev_op_q;
        delta_q     <= delta_q + sz_ev_op_q;
        protected_q <= protected_q + sz_prot_op_q;
      end
      if (!rst_ni) begin
        state_q <= st(S_INIT);
        ws_q    <= W_IDLE;
        init_q <= '0;
        por_q <= 1'b1;
        errors_q <= '0;
        busy_cycles_q <= '0;
        last_error_q <= radix_pkg::ST_OK;
        walk_cycles_q <= '0;
        walk_nodes_q <= '0;
        fn_init <= 1'b1; fl_init <= 1'b1; ix_init <= 1'b1;
        ob_rd_q <= '0; ob_rd1_q <= 32'd1; ob_rows_q <= '0; ob_final_q <= 1'b0;
        out_settle_q <= 1'b0;
        pa_wbank_q <= 1'b0;
        pa_cbank_q <= 1'b1;
        ob_wbank_q <= 1'b0;
        ob_rbank_q <= 1'b1;
        wk_ovl_q   <= 1'b0;
        cm_ovl_q   <= 1'b0;
        cm_busy_q  <= 1'b0;
        cm_win_q   <= 1'b0;
      end else if (kill) begin
        // The command in progress ends here with MEMORY. The fault rises in the tick
        // the failed read's (zero) data arrives, so nothing has used that data yet.
        state_q    <= st(S_TRAIL);
        // A walk dispatched beside the killed commit stops where it is and answers
        // MEMORY from S_HDR (its command has left the descriptor).
        ws_q       <= (ws_q != W_IDLE && !state_q[S_WALK]) ? W_DONE : W_IDLE;
        status_q   <= radix_pkg::ST_MEMORY;
        // A command killed in its walk was never handed over: answer with its opcode.
        if (state_q[S_WALK]) op_q <= wk_op_q;
        trail_a_q  <= '0;
        trail_b_q  <= '0;
        trail_c_q  <= '0;
        ob_rd_q <= '0; ob_rd1_q <= 32'd1; ob_rows_q <= '0; ob_final_q <= 1'b0;
        out_settle_q <= 1'b0;
        cm_win_q     <= 1'b0;
      end else begin
        if (ob_issue) begin
          ob_rd_q  <= ob_rd_q + 1'b1;
          ob_rd1_q <= ob_rd1_q + 1'b1;
        end
        // ---- walker (the sequencer states leave the index and the node table to
        // it while it runs, and clear it before they use them again)
        if (pf_cnt_q != '0) pf_cnt_q <= pf_cnt_q - 1'b1;
        // A held node read stays in stage 0 (nr_go low) and goes the next cycle.
        nr_v_q    <= (RamLat + 1)'({nr_v_q, 1'b0});
        nr_v_q[1] <= nr_go;
        nr_v_q[0] <= nr_v_q[0] && !nr_go;
        if (pf_clear) begin
          pf_state_q <= PF_IDLE;
          pf_stop_q  <= 1'b0;
        end else begin
          unique case (pf_state_q)
            PF_IDLE: if (pf_go) begin
              pg_re      <= 1'b1;
              pg_raddr   <= QRowW'(pf_pos_q >> 4);
              pf_cnt_q   <= 4'(RamLat + 1);
              pf_miss_q  <= 1'b0;
              pf_state_q <= PF_PAGE;
            end
            // The page arrives; the lookup goes out with it (the index is idle:
            // the walker's previous lookup has returned).
            // (The page stays on the port while the lookup waits for the index.)
            PF_PAGE: if (pf_cnt_q <= 4'd1 && !pf_hold) begin
              pf_page_q  <= pg_rdata[32*pf_pos_q[3:0] +: PageBits];
              ix_valid   <= 1'b1;
              ix_op      <= radix_pkg::IX_LOOKUP;
              ix_ns      <= wk_ns_q;
              ix_parent  <= pf_par_q;
              ix_page    <= pg_rdata[32*pf_pos_q[3:0] +: PageBits];
              pf_state_q <= PF_LWAIT;
            end
            // A new child waits until the previous one's node read has returned
            // (nr_child_q and nr_len_q go with it): a held read can still be in
            // flight when the next lookup answers.
            PF_LWAIT: if (ix_ready && nr_v_q[RamLat-1:0] == '0) begin
              if (!ix_hit) begin
                pf_miss_q  <= 1'b1;
                pf_state_q <= PF_END;
              end else begin
                nr_v_q[0]  <= 1'b1;
                nr_child_q <= ix_child;
                nr_len_q   <= ix_len;
                pf_par_q   <= ix_child;
                // The key goes on past this edge: look up the next one, if the
                // queue has room for it (this child's entry, the next one, and
                // one the streamer may not have popped yet).
                if (ix_len < pf_rem_q && !pf_stop_q) begin
                  pf_pos_q <= pf_pos_q + ix_len;
                  pf_rem_q <= pf_rem_q - ix_len;
                  if (eq_cnt_q <= 3'(EqDepth - 3)) begin
                    pg_re      <= 1'b1;
                    pg_raddr   <= QRowW'((pf_pos_q + ix_len) >> 4);
                    pf_cnt_q   <= 4'(RamLat + 1);
                    pf_state_q <= PF_PAGE;
                  end else begin
                    pf_state_q <= PF_HOLD;
                  end
                end else begin
                  pf_state_q <= PF_END;
                end
              end
            end
            PF_HOLD: if (pf_stop_q) begin
              pf_state_q <= PF_END;
            end else if (eq_cnt_q <= 3'(EqDepth - 3)) begin
              pg_re      <= 1'b1;
              pg_raddr   <= QRowW'(pf_pos_q >> 4);
              pf_cnt_q   <= 4'(RamLat + 1);
              pf_state_q <= PF_PAGE;
            end
            default: ;
          endcase
        end
        // ---- edge queue
        if (pf_clear) begin
          eq_wr_q  <= '0;
          eq_rd_q  <= '0;
          eq_cnt_q <= '0;
        end else begin
          if (eq_push) begin
            eq_word_q[eq_wr_q]  <= nd_rdata;
            eq_child_q[eq_wr_q] <= nr_child_q;
            eq_wr_q             <= eq_wr_q + 1'b1;
          end
          if (eq_pop) eq_rd_q <= eq_rd_q + 1'b1;
          eq_cnt_q <= eq_cnt_q + 3'(eq_push) - 3'(eq_pop);
        end
        if (!state_q[S_HDR] && !state_q[S_INIT] && !state_q[S_INIT_WAIT]) begin
          busy_cycles_q <= busy_cycles_q + 1'b1;
        end
        if (walking) begin
          walk_cycles_q <= walk_cycles_q + 1'b1;
        end
        // The streamer takes the next queued edge (W_WAITPF, or W_CMP when
        // the current edge matched whole), with no cycle between the two.
        if (eq_pop) begin
          cand_q     <= eq_child_q[eq_rd_q];
          c_head_q   <= e_head;
          c_off_q    <= e_off;
          c_len_q    <= e_len;
          c_lock_q   <= e_lock;
          c_parent_q <= e_parent;
          c_hloc_q   <= e_hloc;
          c_nchild_q <= e_nchild;
          c_stamp_q  <= e_stamp;
          c_gen_q    <= e_gen;
          st_start   <= 1'b1;
        end
        // -------------------------------------------------- walk stage (reads only; path)
        unique case (ws_q)
          W_START: begin
            node_q   <= NIL;
            pos_q    <= '0;
            rem_q    <= wk_n_q;
            depth_q  <= '0;
            split_q  <= '0;
            walk_cycles_q <= '0;
            walk_nodes_q  <= '0;
            // A MATCH that cannot be refused (a split would find a node slot and,
            // in the stash at worst, an index entry) streams its KV indices while
            // it walks; otherwise they wait until the command has committed. Only
            // a walk that started with the sequencer idle: the response is free
            // and the free counts it reads are final.
            early_q  <= !wk_ovl_q && fn_any_q && (ix_stash_free != '0);
            // An early MATCH's rows reach the response as the walk writes them.
            if (!wk_ovl_q && wk_op_q == radix_pkg::OP_MATCH && fn_any_q && ix_stash_free != '0) begin
              ob_rbank_q <= ob_wbank_q;
            end
            if (wk_n_q == '0) begin
              ws_q    <= wk_done ? W_IDLE : W_DONE;   // hand-over (wk_done)
            end else begin
              pf_go    <= 1'b1;
              pf_pos_q <= '0;
              pf_rem_q <= wk_n_q;
              pf_par_q <= NIL;
              ws_q     <= W_WAITPF;
            end
          end
          // The next edge comes from the walker's queue (eq_pop, below, starts
          // the streamer on it); if the walker found no child there, the walk
          // ends at the page it looked up.
          W_WAITPF: if (!eq_pop && pf_state_q == PF_END && !pf_busy) begin
            page_q  <= pf_page_q;
            ws_q    <= W_DRAIN;
          end else if (eq_pop) begin
            ws_q    <= W_CMP;
          end
          W_CMP: if (st_done_q && !st_start) begin
            walk_nodes_q <= walk_nodes_q + 1'b1;
            pa_we    <= 1'b1;
            pa_waddr <= depth_q;
            pa_wdata <= cand_q;
            depth_q  <= depth_q + 1'b1;
            if (st_mis_q >= (LenW + 1)'(c_len_q)) begin
              // whole edge matched: descend, straight onto the next queued edge
              // if there is one
              pos_q   <= pos_q + c_len_q;
              rem_q   <= rem_q - c_len_q;
              node_q  <= cand_q;
              if (c_len_q == rem_q) begin
                pf_stop_q <= 1'b1;
                ws_q      <= W_DRAIN;
              end else if (!eq_pop) begin
                ws_q    <= W_WAITPF;
              end
            end else begin
              pf_stop_q    <= 1'b1;
              // ends inside this edge: split after whole pages
              split_q      <= LenW'(st_mis_q) & ~LenW'(PageSize - 1);
              pos_q        <= pos_q + (LenW'(st_mis_q) & ~LenW'(PageSize - 1));
              split_line_q <= st_split_line_q;
              ws_q         <= W_DRAIN;
            end
          end
          // A speculative lookup or node read still running must finish before
          // the index and the node table are used again.
          W_DRAIN: if (!pf_busy) begin
            pf_clear <= 1'b1;
            ws_q     <= wk_done ? W_IDLE : (replay_go ? W_START : W_DONE);   // hand-over (wk_done)
          end
          W_DONE: if (wk_done) begin
            ws_q <= W_IDLE;
          end else if (replay_go) begin
            ws_q <= W_START;
          end
          default: ;
        endcase
        // A replayed walk starts with the sequencer idle; a walk dispatched while a
        // commit runs takes the command's walk-side fields here (the descriptor
        // empties at the same edge).
        if (replay_go) wk_ovl_q <= 1'b0;
        if (odispatch) begin
          wk_op_q    <= hd_op;
          wk_ns_q    <= hd_ns;
          wk_len_q   <= LenW'(hd_arg);
          wk_n_q     <= LenW'(hd_arg) & ~LenW'(PageSize - 1);
          wk_ovl_q   <= 1'b1;
          ob_wbank_q <= !ob_rbank_q;
          ws_q       <= W_START;
        end
        // From the tick after the hand-over to the response's last beat (S_TRAIL always
        // leaves with trail_push), so the dispatch needs no decode of the state.
        if (state_q[S_DECIDE] || state_q[S_L_START]) cm_busy_q <= 1'b1;
        else if (trail_push) cm_busy_q <= 1'b0;
        if (wkill) ws_q <= W_DONE;
        unique case (1'b1)
          // -------------------------------------------------- initialisation
          // The free lists and the index clear themselves; the node table is
          // swept here, bumping every generation after a RESET so that no
          // handle from before it is accepted after it.
          state_q[S_INIT]: begin
            if (init_q < (NodeW + 1)'(NodeCap)) begin
              nd_re    <= 1'b1;
              nd_raddr <= init_q[NodeW-1:0];
            end
            init_q <= init_q + 1'b1;
            if (init_q >= (NodeW + 1)'(RamLat + 1)) begin
              nd_we    <= 1'b1;
              nd_waddr <= NodeW'(init_q - (NodeW + 1)'(RamLat + 1));
              nd_wdata <= node_word(init_q == (NodeW + 1)'(RamLat + 1),
                                    por_q ? '0 : r_gen + 1'b1, '0, NIL, '0, '0, '0,
                                    (init_q == (NodeW + 1)'(RamLat + 1)) ? LockW'(1) : '0,
                                    '0, '0, '0);
            end
            if (init_q == (NodeW + 1)'(NodeCap + RamLat)) state_q <= st(S_INIT_WAIT);
          end
          state_q[S_INIT_WAIT]: if (fn_ready && fl_ready && ix_idle) begin
            state_q          <= st(S_HDR);
            por_q            <= 1'b0;
            clk_clr_q        <= 1'b1;
            lru_head_q       <= NIL;
            lru_tail_q       <= NIL;
            evictable_q      <= '0;
            protected_q      <= '0;
            lookups_q        <= '0;
            queried_q        <= '0;
            hit_q            <= '0;
            inserts_q        <= '0;
            inserted_q       <= '0;
            splits_q         <= '0;
            evicted_nodes_q  <= '0;
            evicted_tokens_q <= '0;
            skips_q          <= '0;
          end

          // -------------------------------------------------- command intake
          // The next command, framing already checked by the intake (a refused one
          // has been drained and only answers). What a command reads of the core's
          // state (fault, counters, LRU head) is read here, not at intake.
          // A MATCH or INSERT already walking (dispatched while the previous command
          // committed): the response side is cleared for it, and it goes to the
          // hand-over.
          // (After a fault the walk beside stops first, wkill, then answers MEMORY.)
          state_q[S_HDR]: if (hdr_q && ws_q != W_IDLE && l2_fault) begin
            if (ws_q == W_DONE) begin
              op_q       <= wk_op_q;
              status_q   <= radix_pkg::ST_MEMORY;
              trail_a_q  <= '0;
              trail_b_q  <= '0;
              trail_c_q  <= '0;
              ob_rd_q    <= '0;
              ob_rd1_q   <= 32'd1;
              ob_rows_q  <= '0;
              ob_final_q <= 1'b0;
              ws_q       <= W_IDLE;
              state_q    <= st(S_TRAIL);
            end
          end else if (hdr_q && ws_q != W_IDLE) begin
            trail_a_q  <= '0;
            trail_b_q  <= '0;
            trail_c_q  <= '0;
            ob_rd_q    <= '0;
            ob_rd1_q   <= 32'd1;
            ob_rows_q  <= '0;
            ob_final_q <= 1'b0;
            got_ge_q   <= 1'b0;
            state_q    <= st(S_WALK);
          end else if (hd_valid && hdr_q) begin
            wk_op_q   <= hd_op;
            wk_ovl_q  <= 1'b0;
            wk_ns_q   <= hd_ns;
            wk_len_q  <= LenW'(hd_arg);
            wk_n_q    <= LenW'(hd_arg) & ~LenW'(PageSize - 1);
            // A walking command's decision and commit fields wait for the hand-over.
            if (hdr_walks) ws_q <= W_START;
            // The walk writes the bank the response is not reading; an EVICT writes
            // the bank it streams from.
            ob_wbank_q <= hdr_walks ? !ob_rbank_q : ob_rbank_q;
            if (!hdr_walks) begin
              op_q     <= hd_op;
              ns_q     <= hd_ns;
              arg_q    <= hd_arg;
              len_q    <= LenW'(hd_arg);
              n_q      <= LenW'(hd_arg) & ~LenW'(PageSize - 1);
              status_q <= hd_status;
            end
            trail_a_q <= '0;
            trail_b_q <= '0;
            trail_c_q <= '0;
            ob_rd_q   <= '0;
            ob_rd1_q  <= 32'd1;
            ob_rows_q <= '0;
            ob_final_q <= 1'b0;
            got_ge_q  <= 1'b0;
            if (hd_op == radix_pkg::OP_MATCH || hd_op == radix_pkg::OP_INSERT) begin
              walk_cycles_q <= '0;
              walk_nodes_q  <= '0;
            end
            if (hd_status != radix_pkg::ST_OK) begin
              state_q <= st(S_TRAIL);
            end else begin
              unique case (hd_op)
                radix_pkg::OP_MATCH, radix_pkg::OP_INSERT: state_q <= st(S_WALK);
                radix_pkg::OP_EVICT: begin
                  got_q   <= '0;
                  freed_q <= '0;
                  walk_q  <= lru_head_q;
                  state_q <= (hd_arg == 32'h0) ? st(S_TRAIL) : st(S_E_FIND);
                end
                radix_pkg::OP_LOCK, radix_pkg::OP_UNLOCK: state_q <= st(S_L_START);
                radix_pkg::OP_SIZES: begin
                  trail_a_q <= evictable_q;
                  trail_b_q <= protected_q;
                  trail_c_q <= total_q;
                  state_q   <= st(S_TRAIL);
                end
                default: state_q <= st(S_TRAIL);   // RESET answers, then re-initialises
              endcase
            end
            // After an L2 fault only RESET runs; the rest is refused before any
            // table is touched (a later assignment wins over the case above).
            if (l2_fault && hd_op != radix_pkg::OP_RESET) begin
              status_q  <= radix_pkg::ST_MEMORY;
              trail_a_q <= '0;
              trail_b_q <= '0;
              trail_c_q <= '0;
              state_q   <= st(S_TRAIL);
            end
          end


          // The walk stage runs (below); its hand-over is this state's exit.
          state_q[S_WALK]: if (wk_done) state_q <= st(S_DECIDE);
          // -------------------------------------------------- decide: refuse or commit
          state_q[S_DECIDE]: begin
            // hand-over: the command and its walk's results go to the commit side
            op_q            <= wk_op_q;
            ns_q            <= wk_ns_q;
            n_q             <= wk_n_q;
            len_q           <= wk_len_q;
            status_q        <= radix_pkg::ST_OK;
            cm_ovl_q        <= wk_ovl_q;
            cm_node_q       <= node_q;
            cm_pos_q        <= pos_q;
            cm_depth_q      <= depth_q;
            cm_split_q      <= split_q;
            cm_split_line_q <= split_line_q;
            cm_page_q       <= page_q;
            cm_cand_q       <= cand_q;
            cm_head_q       <= c_head_q;
            cm_off_q        <= c_off_q;
            cm_len_q        <= c_len_q;
            pa_wbank_q      <= pa_cbank_q;
            pa_cbank_q      <= pa_wbank_q;
            ob_rbank_q      <= ob_wbank_q;
            leaf_len        <= wk_n_q - pos_q;
            leaf_lines_q    <= lines_of(4'd0, wk_n_q - pos_q);
            need_split_q    <= (split_q != '0);
            need_leaf_q     <= (wk_op_q == radix_pkg::OP_INSERT) && (pos_q != wk_n_q);
            if (split_q != '0) begin
              // the tail's first page, the slot the upper node will get, and the
              // query page a new leaf under the upper node would start with
              seq_q_re_q    <= 1'b1;
              seq_q_raddr_q <= QRowW'(pos_q >> 4);
              seq_li_re_q <= 1'b1;
              seq_li_raddr_q <= split_line_q;
              // The cut node's word again: the split writes its lock and child counts,
              // stamp, parent and index location back, and an older command's commit
              // may have changed those since the walk copied them (no read-signature
              // key covers them; its edge is covered).
              nd_re    <= 1'b1;
              nd_raddr <= cand_q;
              fn_peek  <= fn_any_q;
              wait_q   <= 4'(RamLat);
              ret_q    <= st(S_D_TAIL);
              state_q  <= st(S_WAIT);
            end else begin
              state_q <= st(S_D_PROBE2);
            end
          end
          state_q[S_D_TAIL]: begin
            cm_lock_q   <= r_lock;
            cm_nchild_q <= r_nchild;
            cm_parent_q <= r_parent;
            cm_hloc_q   <= r_hloc;
            cm_gen_q    <= r_gen;
            tail_page_q <= li_rtok[32*tail_lane +: PageBits];
            cm_page_q   <= q_page;
            new_up_q    <= fn_data;
            if (!fn_any_q) begin
              status_q <= radix_pkg::ST_CAPACITY;
              state_q  <= st(S_TRAIL);
            end else if (ix_ok) begin
              ix_valid  <= 1'b1;
              ix_op     <= radix_pkg::IX_LOOKUP;
              ix_ns     <= ns_q;
              ix_parent <= fn_data;
              ix_page   <= li_rtok[32*tail_lane +: PageBits];
              state_q   <= st(S_D_PROBE1);
            end else begin
              state_q   <= st(S_D_TAIL_IX);   // the walker's lookup has the index
            end
          end
          // The same probe from the registered copies (the read data has moved on).
          state_q[S_D_TAIL_IX]: if (ix_ok) begin
            ix_valid  <= 1'b1;
            ix_op     <= radix_pkg::IX_LOOKUP;
            ix_ns     <= ns_q;
            ix_parent <= new_up_q;
            ix_page   <= tail_page_q;
            state_q   <= st(S_D_PROBE1);
          end
          state_q[S_D_PROBE1]: if (ix_ready) begin
            probe_b1_q <= ix_bucket;
            probe_f1_q <= ix_free_ways;
            state_q    <= st(S_D_PROBE2);
          end
          state_q[S_D_PROBE2]: if (ix_ok || !need_leaf_q) begin
            if (need_leaf_q) begin
              ix_valid  <= 1'b1;
              ix_op     <= radix_pkg::IX_LOOKUP;
              ix_ns     <= ns_q;
              ix_parent <= need_split_q ? new_up_q : cm_node_q;
              ix_page   <= cm_page_q;
            end
            state_q <= st(S_D_CHECK);
          end
          state_q[S_D_CHECK]: if (ix_ready) begin
            if (!fits) begin
              status_q <= radix_pkg::ST_CAPACITY;
              state_q  <= st(S_TRAIL);
            end else begin
              if (op_q == radix_pkg::OP_MATCH) begin
                lookups_q <= lookups_q + 1'b1;
                queried_q <= queried_q + 32'(len_q);
                hit_q     <= hit_q + 32'(cm_pos_q);
                // Nothing refuses the MATCH now and its walk wrote every row before the
                // hand-over (no output-bank write after it, asserted below), so the
                // rows stream while the stamps and the split commit.
                ob_rows_q     <= (32'(cm_pos_q) + 32'd15) >> 4;
                ob_last_row_q <= 32'(cm_pos_q) >> 4;
                ob_tail_q     <= tail_lanes(cm_pos_q[3:0]);
                ob_final_q    <= 1'b1;
              end else begin
                inserts_q <= inserts_q + 1'b1;
              end
              trail_a_q <= 32'(cm_pos_q);
              result_q  <= NIL;
              if (op_q == radix_pkg::OP_MATCH && n_q == '0) begin
                // SGLang returns before touching the tree: no stamp.
                state_q <= st(S_C_RESULT);
              end else begin
                clk_inc_q  <= 1'b1;
                op_stamp_q <= clock_nx;
                d_q        <= '0;
                state_q <= st(S_C_STAMP);
              end
            end
          end

          // -------------------------------------------------- commit: stamp and LRU-move the path
          state_q[S_C_STAMP]: begin
            if (d_q == cm_depth_q) begin
              result_q <= cm_node_q;   // deepest whole node (root if none)
              state_q  <= need_split_q ? st(S_C_SPLIT)
                                       : (need_leaf_q ? st(S_C_LEAF) : st(S_C_RESULT));
            end else begin
              pa_re    <= 1'b1;
              pa_raddr <= d_q;
              wait_q   <= 4'(RamLat);
              ret_q    <= st(S_C_MOVE1);
              state_q  <= st(S_WAIT);
            end
          end
          state_q[S_C_MOVE1]: begin
            mv_q     <= pa_rdata;
            nd_re    <= 1'b1;
            nd_raddr <= pa_rdata;
            lk_re    <= 1'b1;
            lk_raddr <= pa_rdata;
            wait_q   <= 4'(RamLat);
            ret_q    <= st(S_C_STAMP_W);
            state_q  <= st(S_WAIT);
          end
          state_q[S_C_STAMP_W]: begin
            nd_we    <= 1'b1;
            nd_waddr <= mv_q;
            nd_wdata <= node_word(r_valid, r_gen, r_ns, r_parent, r_head, r_off, r_len, r_lock,
                                  clock_q, r_nchild, r_hloc);
            // LRU: unlink mv from where it is (if not already the tail) ...
            if (mv_q != lru_tail_q) begin
              if (lp_rdata == NIL) lru_head_q <= ln_rdata;
              else begin ln_we <= 1'b1; ln_waddr <= lp_rdata; ln_wdata <= ln_rdata; end
              lp_we <= 1'b1; lp_waddr <= ln_rdata; lp_wdata <= lp_rdata;
              state_q <= st(S_C_MOVE2);
            end else begin
              d_q     <= d_q + 1'b1;
              state_q <= st(S_C_STAMP);
            end
          end
          state_q[S_C_MOVE2]: begin
            // ... and append it at the tail.
            ln_we <= 1'b1; ln_waddr <= lru_tail_q; ln_wdata <= mv_q;
            lp_we <= 1'b1; lp_waddr <= mv_q; lp_wdata <= lru_tail_q;
            lru_tail_q <= mv_q;
            d_q     <= d_q + 1'b1;
            state_q <= st(S_C_APPEND);
            ret_q   <= st(S_C_STAMP);
          end
          state_q[S_C_APPEND]: begin
            // mv_q is now the tail: its next link must be NIL.
            ln_we <= 1'b1; ln_waddr <= mv_q; ln_wdata <= NIL;
            if (lru_head_q == NIL) lru_head_q <= mv_q;
            state_q <= ret_q;
          end

          // -------------------------------------------------- commit: split
          // The upper part is a new node at slot new_up_q; the candidate keeps its
          // slot (and handle) and the tail.
          state_q[S_C_SPLIT]: if (ix_ok) begin
            cm_win_q <= 1'b1;
            fn_pop   <= 1'b1;
            nd_re    <= 1'b1;
            nd_raddr <= new_up_q;     // its generation survives
            ix_valid <= 1'b1;         // the parent's entry now leads to the upper node
            ix_op    <= radix_pkg::IX_SETCHILD;
            ix_ns    <= ns_q;
            ix_loc_in   <= cm_hloc_q;
            ix_child_in <= new_up_q;
            ix_len_in   <= cm_split_q;
            wait_q   <= 4'(RamLat);
            ret_q    <= st(S_C_SPLIT_W);
            state_q  <= st(S_WAIT);
          end
          state_q[S_C_SPLIT_W]: begin
            nd_we    <= 1'b1;
            nd_waddr <= new_up_q;
            nd_wdata <= node_word(1'b1, r_gen, ns_q, cm_parent_q, cm_head_q, cm_off_q,
                                  cm_split_q, cm_lock_q, clock_nx, KidW'(1), cm_hloc_q);
            clk_inc_q <= 1'b1;
            splits_q <= splits_q + 1'b1;
            state_q  <= st(S_C_SPLIT_IX1);
          end
          state_q[S_C_SPLIT_IX1]: if (ix_ok) begin
            ix_valid    <= 1'b1;
            ix_op       <= radix_pkg::IX_INSERT;
            ix_ns       <= ns_q;
            ix_parent   <= new_up_q;
            ix_page     <= tail_page_q;
            ix_child_in <= cm_cand_q;
            ix_len_in   <= cm_len_q - cm_split_q;
            state_q     <= st(S_C_SPLIT_IX2);
          end
          state_q[S_C_SPLIT_IX2]: if (ix_ready) begin
            cm_win_q <= 1'b0;   // the cut node's word is written with its new entry
            nd_we    <= 1'b1;
            nd_waddr <= cm_cand_q;
            nd_wdata <= node_word(1'b1, cm_gen_q, ns_q, new_up_q, cm_split_line_q,
                                  (cm_off_q + 4'(cm_split_q)) & 4'hF, cm_len_q - cm_split_q,
                                  cm_lock_q, op_stamp_q, cm_nchild_q, ix_loc);
            // LRU: the upper node is the newest so far
            mv_q     <= new_up_q;
            ln_we <= 1'b1; ln_waddr <= lru_tail_q; ln_wdata <= new_up_q;
            lp_we <= 1'b1; lp_waddr <= new_up_q; lp_wdata <= lru_tail_q;
            lru_tail_q <= new_up_q;
            cm_node_q <= new_up_q;
            result_q <= new_up_q;
            state_q  <= st(S_C_APPEND);
            ret_q    <= need_leaf_q ? st(S_C_LEAF) : st(S_C_RESULT);
          end

          // -------------------------------------------------- commit: new leaf
          state_q[S_C_LEAF]: begin
            fn_pop      <= 1'b1;
            lw_start    <= 1'b1;
            wait_q      <= 4'(RamLat);
            ret_q       <= st(S_C_LEAF_LINES);
            state_q     <= st(S_WAIT);
          end
          state_q[S_C_LEAF_LINES]: begin
            new_leaf_q <= fn_data;
            if (!lw_active_q && !lw_start && ix_ok) begin
              cm_win_q    <= 1'b1;
              ix_valid    <= 1'b1;
              ix_op       <= radix_pkg::IX_INSERT;
              ix_ns       <= ns_q;
              ix_parent   <= cm_node_q;
              ix_page     <= cm_page_q;
              ix_child_in <= fn_data;
              ix_len_in   <= leaf_len;
              state_q     <= st(S_C_LEAF_IX);
            end
          end
          state_q[S_C_LEAF_IX]: if (ix_ready) begin
            new_loc_q <= ix_loc;
            nd_re     <= 1'b1;
            nd_raddr  <= new_leaf_q;
            wait_q    <= 4'(RamLat);
            ret_q     <= st(S_C_LEAF_W);
            state_q   <= st(S_WAIT);
          end
          state_q[S_C_LEAF_W]: begin
            cm_win_q <= 1'b0;   // the new leaf's word is written
            nd_we    <= 1'b1;
            nd_waddr <= new_leaf_q;
            nd_wdata <= node_word(1'b1, r_gen, ns_q, cm_node_q, lw_head_q, 4'd0, leaf_len, '0,
                                  clock_nx, '0, new_loc_q);
            clk_inc_q   <= 1'b1;
            sz_v_q        <= 1'b1;
            sz_len_q      <= leaf_len;
            sz_ev_sub_q   <= 1'b0;
            sz_prot_add_q <= 1'b0;
            sz_prot_sub_q <= 1'b0;
            inserted_q  <= inserted_q + 32'(leaf_len);
            result_q    <= new_leaf_q;
            // parent's child count
            nd_re    <= 1'b1;
            nd_raddr <= cm_node_q;
            wait_q   <= 4'(RamLat);
            ret_q    <= st(S_C_LEAF_PAR);
            state_q  <= st(S_WAIT);
          end
          state_q[S_C_LEAF_PAR]: begin
            if (cm_node_q != NIL) begin
              nd_we    <= 1'b1;
              nd_waddr <= cm_node_q;
              nd_wdata <= node_word(r_valid, r_gen, r_ns, r_parent, r_head, r_off, r_len, r_lock,
                                    r_stamp, r_nchild + 1'b1, r_hloc);
            end
            mv_q  <= new_leaf_q;
            ln_we <= 1'b1; ln_waddr <= lru_tail_q; ln_wdata <= new_leaf_q;
            lp_we <= 1'b1; lp_waddr <= new_leaf_q; lp_wdata <= lru_tail_q;
            lru_tail_q <= new_leaf_q;
            state_q <= st(S_C_APPEND);
            ret_q   <= st(S_C_RESULT);
          end

          // -------------------------------------------------- result handle, then the response
          state_q[S_C_RESULT]: begin
            nd_re    <= 1'b1;
            nd_raddr <= result_q;
            wait_q   <= 4'(RamLat);
            ret_q    <= st(S_OUT);
            state_q  <= st(S_WAIT);
            ob_final_q <= 1'b1;   // a MATCH's rows were set at S_D_CHECK; others have none
          end

          // -------------------------------------------------- evict
          state_q[S_E_FIND]: begin
            if (got_ge_q || walk_q == NIL) begin
              ob_last_row_q <= got_q >> 4;
              ob_tail_q     <= tail_lanes(got_q[3:0]);
              ob_rows_q  <= (got_q + 32'd15) >> 4;
              ob_final_q <= 1'b1;
              trail_a_q  <= got_q;
              trail_b_q  <= freed_q;
              state_q    <= st(S_OUT);
            end else begin
              nd_re    <= 1'b1;
              nd_raddr <= walk_q;
              lk_re    <= 1'b1;
              lk_raddr <= walk_q;
              wait_q   <= 4'(RamLat);
              ret_q    <= st(S_E_FIND_N);
              state_q  <= st(S_WAIT);
            end
          end
          // nd_rdata / ln_rdata / lp_rdata hold walk_q's word and links here.
          state_q[S_E_FIND_N]: begin
            if (got_ge_q || walk_q == NIL) begin
              state_q <= st(S_E_FIND);
            end else if (r_nchild == '0 && r_lock == '0) begin
              victim_q    <= walk_q;
              ref_stamp_q <= r_stamp;
              walk_q      <= ln_rdata;
              state_q     <= st(S_E_VICTIM);
            end else begin
              skips_q <= skips_q + 1'b1;
              walk_q  <= ln_rdata;
              state_q <= st(S_E_FIND);
            end
          end
          // nd_rdata / ln_rdata / lp_rdata hold the victim's word and links here.
          state_q[S_E_VICTIM]: begin
            got_nx_q   <= got_q + 32'(r_len);
            c_head_q   <= r_head;
            c_off_q    <= r_off;
            c_len_q    <= r_len;
            c_parent_q <= r_parent;
            c_hloc_q   <= r_hloc;
            c_gen_q    <= r_gen;
            c_stamp_q  <= r_stamp;
            c_lock_q   <= r_lock;
            c_nchild_q <= r_nchild;
            // unlink from the LRU list
            if (lp_rdata == NIL) lru_head_q <= ln_rdata;
            else begin ln_we <= 1'b1; ln_waddr <= lp_rdata; ln_wdata <= ln_rdata; end
            if (ln_rdata == NIL) lru_tail_q <= lp_rdata;
            else begin lp_we <= 1'b1; lp_waddr <= ln_rdata; lp_wdata <= lp_rdata; end
            // the node is gone: new generation, back on the free list
            nd_we    <= 1'b1;
            nd_waddr <= victim_q;
            nd_wdata <= node_word(1'b0, r_gen + 1'b1, '0, NIL, '0, '0, '0, '0, '0, '0, '0);
            fn_push      <= 1'b1;
            fn_push_data <= victim_q;
            ix_valid  <= 1'b1;
            ix_op     <= radix_pkg::IX_DELETE;
            ix_ns     <= r_ns;
            ix_loc_in <= r_hloc;
            st_start  <= 1'b1;
            // While the lines stream: read the parent, then the next candidate.
            nd_re     <= 1'b1;
            nd_raddr  <= r_parent;
            ev_phase_q <= 2'd0;
            ev_cnt_q   <= 4'(RamLat + 1);
            state_q   <= st(S_E_STREAM);
          end
          state_q[S_E_STREAM]: begin
            if (ev_cnt_q != '0) ev_cnt_q <= ev_cnt_q - 1'b1;
            if (ev_phase_q == 2'd0 && ev_cnt_q == 4'd1) begin
              p_word_q <= nd_rdata;
              if (walk_q != NIL) begin
                nd_re    <= 1'b1;
                nd_raddr <= walk_q;
                lk_re    <= 1'b1;
                lk_raddr <= walk_q;
              end
              ev_cnt_q   <= 4'(RamLat + 1);
              ev_phase_q <= 2'd1;
            end else if (ev_phase_q == 2'd1 && ev_cnt_q == 4'd1) begin
              ev_phase_q <= 2'd2;
            end
            if (ev_phase_q == 2'd2 && st_done_q && !st_start && ix_ready) begin
              got_q            <= got_nx_q;
              got_ge_q         <= !got_nx_lt_q;
              freed_q          <= freed_q + 1'b1;
              sz_v_q           <= 1'b1;
              sz_len_q         <= c_len_q;
              sz_ev_sub_q      <= 1'b1;
              sz_prot_add_q    <= 1'b0;
              sz_prot_sub_q    <= 1'b0;
              evicted_nodes_q  <= evicted_nodes_q + 1'b1;
              evicted_tokens_q <= evicted_tokens_q + 32'(c_len_q);
              ob_rows_q        <= got_nx_q >> 4;
              // the parent loses a child
              if (c_parent_q != NIL) begin
                nd_we    <= 1'b1;
                nd_waddr <= c_parent_q;
                nd_wdata <= node_word(p_valid, p_gen, p_ns, p_parent, p_head, p_off, p_len, p_lock,
                                      p_stamp, p_nchild - 1'b1, p_hloc);
              end
              // A parent that became an evictable leaf and is no newer than the
              // last victim the walk found lies behind the walk: it is the oldest
              // evictable leaf now.
              if (c_parent_q != NIL && p_leaf_q && (p_hi_lt_q || (p_hi_eq_q && p_lo_le_q)) &&
                  got_nx_lt_q) begin
                victim_q <= c_parent_q;
                state_q  <= st(S_E_UNLINK);
              end else if (walk_q == c_parent_q) begin
                state_q <= st(S_E_FIND);     // the prefetched word predates this write
              end else begin
                state_q <= st(S_E_FIND_N);   // the next candidate's word and links are here
              end
            end
          end
          state_q[S_E_UNLINK]: begin
            // read the direct victim and its links
            nd_re    <= 1'b1;
            nd_raddr <= victim_q;
            lk_re    <= 1'b1;
            lk_raddr <= victim_q;
            wait_q   <= 4'(RamLat);
            ret_q    <= st(S_E_VICTIM);
            state_q  <= st(S_WAIT);
          end
          // -------------------------------------------------- lock / unlock: check walk, apply walk
          state_q[S_L_START]: begin
            if (!h_slot_ok) begin
              status_q <= radix_pkg::ST_HANDLE;
              state_q  <= st(S_TRAIL);
            end else begin
              walk_q       <= h_slot;
              delta_q      <= '0;
              lock_pass2_q <= 1'b0;
              nd_re    <= 1'b1;
              nd_raddr <= h_slot;
              wait_q   <= 4'(RamLat);
              ret_q    <= st(S_L_CHECK);
              state_q  <= st(S_WAIT);
            end
          end
          state_q[S_L_CHECK]: begin
            if (!lock_pass2_q && walk_q == h_slot && (!r_valid || r_gen != h_gen)) begin
              status_q <= radix_pkg::ST_HANDLE;
              state_q  <= st(S_TRAIL);
            end else if (walk_q == NIL) begin
              if (!lock_pass2_q) begin
                lock_pass2_q <= 1'b1;
                walk_q   <= h_slot;
                nd_re    <= 1'b1;
                nd_raddr <= h_slot;
                wait_q   <= 4'(RamLat);
                ret_q    <= st(S_L_CHECK);
                state_q  <= st(S_WAIT);
              end else begin
                trail_a_q <= delta_q;
                state_q   <= st(S_TRAIL);
              end
            end else if (!lock_pass2_q) begin
              if (op_q == radix_pkg::OP_UNLOCK && r_lock == '0) begin
                status_q <= radix_pkg::ST_UNDERFLOW;
                state_q  <= st(S_TRAIL);
              end else if (op_q == radix_pkg::OP_LOCK && r_lock == '1) begin
                status_q <= radix_pkg::ST_OVERFLOW;
                state_q  <= st(S_TRAIL);
              end else begin
                walk_q   <= r_parent;
                nd_re    <= 1'b1;
                nd_raddr <= r_parent;
                wait_q   <= 4'(RamLat);
                ret_q    <= st(S_L_CHECK);
                state_q  <= st(S_WAIT);
              end
            end else begin
              nd_we    <= 1'b1;
              nd_waddr <= walk_q;
              if (op_q == radix_pkg::OP_LOCK) begin
                nd_wdata <= node_word(r_valid, r_gen, r_ns, r_parent, r_head, r_off, r_len,
                                      r_lock + 1'b1, r_stamp, r_nchild, r_hloc);
                if (r_lock == '0) begin
                  sz_v_q        <= 1'b1;
                  sz_len_q      <= r_len;
                  sz_ev_sub_q   <= 1'b1;
                  sz_prot_add_q <= 1'b1;
                  sz_prot_sub_q <= 1'b0;
                end
              end else begin
                nd_wdata <= node_word(r_valid, r_gen, r_ns, r_parent, r_head, r_off, r_len,
                                      r_lock - 1'b1, r_stamp, r_nchild, r_hloc);
                if (r_lock == LockW'(1)) begin
                  sz_v_q        <= 1'b1;
                  sz_len_q      <= r_len;
                  sz_ev_sub_q   <= 1'b0;
                  sz_prot_add_q <= 1'b0;
                  sz_prot_sub_q <= 1'b1;
                end
              end
              walk_q   <= r_parent;
              nd_re    <= 1'b1;
              nd_raddr <= r_parent;
              wait_q   <= 4'(RamLat);
              ret_q    <= st(S_L_CHECK);
              state_q  <= st(S_WAIT);
            end
          end

          // -------------------------------------------------- response
          state_q[S_OUT]: begin
            // The result's word arrives in the first S_OUT cycle; the walk stage may
            // read the node table after it.
            if (!out_settle_q && (op_q == radix_pkg::OP_MATCH || op_q == radix_pkg::OP_INSERT)) begin
              trail_b_q <= handle_of(result_q, r_gen);
            end
            // ob_more_q is a cycle late: leave only from the second S_OUT cycle.
            out_settle_q <= 1'b1;
            if (out_settle_q && !ob_more_q && ob_inflight_q == '0) begin
              out_settle_q <= 1'b0;
              state_q      <= st(S_TRAIL);
            end
          end
          state_q[S_TRAIL]: if (trail_push) begin
            if (status_q != radix_pkg::ST_OK) begin
              errors_q     <= errors_q + 1'b1;
              last_error_q <= status_q;
              error_q      <= 1'b1;
            end
            if (op_q == radix_pkg::OP_RESET && status_q == radix_pkg::ST_OK && l2_fault) begin
              // Clear the caches first; S_L2_CLEAR waits out the request.
              clr_req_q <= 1'b1;
              por_q     <= 1'b1;
              wait_q    <= 4'd8;
              state_q   <= st(S_L2_CLEAR);
            end else if (op_q == radix_pkg::OP_RESET && status_q == radix_pkg::ST_OK) begin
              init_q  <= '0;
              fn_init <= 1'b1; fl_init <= 1'b1; ix_init <= 1'b1;
              state_q <= st(S_INIT);
            end else begin
              state_q <= st(S_HDR);
            end
          end

          state_q[S_WAIT]: begin
            wait_q <= wait_q - 1'b1;
            if (wait_q == 4'd1) state_q <= ret_q;
          end

          // The clear request reaches every cache at the next tick and each stalls
          // the core while it invalidates its lines, so the wait is in ticks only.
          state_q[S_L2_CLEAR]: begin
            wait_q <= wait_q - 1'b1;
            if (wait_q == 4'd1) begin
              init_q  <= '0;
              fn_init <= 1'b1; fl_init <= 1'b1; ix_init <= 1'b1;
              state_q <= st(S_INIT);
            end
          end

          default: state_q <= st(S_HDR);
        endcase
      end
      // The walker stops on a reset, on a fault that ends the command (kill) and on one
      // that ends only the walk beside it (wkill). Written last, so it wins over the
      // walker's own updates above in that cycle.
      if (!rst_ni || kill || wkill) begin
        pf_state_q <= PF_IDLE;
        pf_cnt_q   <= '0;
        pf_stop_q  <= 1'b0;
        nr_v_q     <= '0;
        eq_wr_q    <= '0;
        eq_rd_q    <= '0;
        eq_cnt_q   <= '0;
        early_q    <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- response
  // Output-buffer rows go to the response FIFO as they complete (EVICT, a MATCH
  // that walks alone) or once a MATCH's decision is final (S_D_CHECK; they stream
  // beside its stamps and split); a read is issued only when the FIFO is
  // sure to have room for it, so the buffer never waits on the consumer.
  // "More rows" and "room" are registered flags: each is a cycle late, and
  // both are late on the safe side (rows only grow within a command, room
  // only shrinks by the issue the flag already counts).
  logic         ob_data_v_q, ob_room_q;
  logic [31:0]  ob_rows;
  logic [15:0]  ob_keep_q;
  logic [511:0] ob_masked;

  // Rows stream while the command runs for EVICT and an early MATCH (the
  // select is registered: wk_op_q and early_q are set long before any row; the
  // streamer that writes the rows belongs to the walk stage).
  logic ob_stream_q;
  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) begin
      ob_stream_q <= (wk_op_q == radix_pkg::OP_EVICT) || (wk_op_q == radix_pkg::OP_MATCH && early_q);
    end
  end
  assign ob_rows  = ob_final_q ? ob_rows_q : (ob_stream_q ? (st_wpos_q >> 4) : 32'd0);
  assign ob_issue = ob_more_q && ob_room_q;
  assign ob_re    = ob_issue;
  assign ob_raddr = OutRowW'(ob_rd_q);

  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) begin
      if (!rst_ni || kill) begin   // kill: see "L2 faults"
        ob_data_v_q   <= 1'b0;
        ob_inflight_q <= '0;
        ob_more_q     <= 1'b0;
        ob_room_q     <= 1'b0;
      end else begin
        ob_data_v_q   <= ob_issue;
        ob_inflight_q <= ob_inflight_q + (OutRowW + 1)'(ob_issue) - (OutRowW + 1)'(ob_data_v_q);
        ob_more_q     <= !state_q[S_HDR] &&
                         (ob_issue ? (ob_rd1_q < ob_rows) : (ob_rd_q < ob_rows));
        ob_room_q     <= (32'(rsp_level) + 32'(ob_inflight_q) + 32'd3 < 32'(RspDepth));
        if (ob_issue) begin
          ob_keep_q <= (!ob_final_q || ob_rd_q != ob_last_row_q) ? '1 : ob_tail_q;
        end
      end
    end
  end

  // Lanes past the end of the last row are zero.
  assign ob_masked = ob_rdata & lanes_to_bits(ob_keep_q);

  assign trail_push = state_q[S_TRAIL] && rsp_ready && !ob_data_v_q;
  assign rsp_push   = ob_data_v_q || trail_push;
  assign rsp_last   = !ob_data_v_q;
  assign rsp_data   = ob_data_v_q ? ob_masked
                    : {384'h0, trail_c_q, trail_b_q, trail_a_q, 16'h0, status_q, op_q};

  // ---------------------------------------------------------------- L2 glue
  // Flush and clear requests wait for a tick: the caches sample them as accesses.
  // A flush is complete when every table has reported (on-chip tables at once).
  logic [NT-1:0] fdone_q;
  logic          flushing_q, l2_done_q;
  logic [31:0]   l2_stall_q;
  logic [NT-1:0] t_fdone_all;
  assign t_fdone_all = fdone_q | t_fdone;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      t_flush_q  <= 1'b0;
      t_clear_q  <= 1'b0;
      flushing_q <= 1'b0;
      fdone_q    <= '0;
      l2_done_q  <= 1'b0;
      l2_stall_q <= '0;
    end else begin
      if (l2_flush_i) t_flush_q <= 1'b1;
      else if (adv) t_flush_q <= 1'b0;
      if (l2_clear_i || clr_req_q) t_clear_q <= 1'b1;
      else if (adv) t_clear_q <= 1'b0;
      if (!adv) l2_stall_q <= l2_stall_q + 1'b1;
      l2_done_q <= 1'b0;
      if (t_flush_q && adv) begin
        flushing_q <= 1'b1;
        fdone_q    <= t_fdone;   // on-chip tables report in the sampling tick
      end else if (flushing_q) begin
        fdone_q <= t_fdone_all;
        if (t_fdone_all == {NT{1'b1}}) begin
          flushing_q <= 1'b0;
          l2_done_q  <= 1'b1;
        end
      end
    end
  end

  // Counters summed over the tables in two registered steps, groups of up to three
  // tables and then the groups, so neither step is more than a three-input add (the
  // sums are two cycles behind the tables'; software reads them over the CSR port).
  // A flat vector: Icarus 11 does not propagate an assign from an unpacked array word.
  localparam int NG = (NT + 2) / 3;
  function automatic logic [NG*CNW-1:0] sum_groups(input logic [NT*CNW-1:0] cnt);
    sum_groups = '0;
    for (int t = 0; t < NT; t++) begin
      for (int c = 0; c < radix_pkg::L1_NCNT; c++) begin
        sum_groups[CNW*(t/3) + 32*c +: 32] = sum_groups[CNW*(t/3) + 32*c +: 32] +
                                             cnt[CNW*t + 32*c +: 32];
      end
    end
  endfunction
  function automatic logic [CNW-1:0] sum_all(input logic [NG*CNW-1:0] grp);
    sum_all = '0;
    for (int g = 0; g < NG; g++) begin
      for (int c = 0; c < radix_pkg::L1_NCNT; c++) begin
        sum_all[32*c +: 32] = sum_all[32*c +: 32] + grp[CNW*g + 32*c +: 32];
      end
    end
  endfunction
  logic [NG*CNW-1:0] l2_grp_q;
  logic [CNW-1:0]    l2_sum_q;
  always_ff @(posedge clk_i) begin
    l2_grp_q <= sum_groups(t_cnt);
    l2_sum_q <= sum_all(l2_grp_q);
  end

  // The first faulting table gives the kind (a function: see lowest16).
  function automatic logic [1:0] first_kind(input logic [NT-1:0] f, input logic [2*NT-1:0] k);
    first_kind = 2'd0;
    for (int t = NT - 1; t >= 0; t--) if (f[t]) first_kind = k[2*t +: 2];
  endfunction
  logic [1:0] l2_kind;
  assign l2_kind = first_kind(t_fault, t_kind);

  assign l2_flush_done_o = l2_done_q;
  assign l2_flushing_o   = t_flush_q || flushing_q;
  assign l2_fault        = |t_fault;
  assign l2_fault_o      = l2_fault;
  assign kill            = l2_fault && working;
  assign wkill           = l2_fault && !working && ws_q != W_IDLE && ws_q != W_DONE;
  // States that read or write the tables for a command (not intake, refusals,
  // the trailer, the init sweep or the cache clear).
  assign working = !state_q[S_INIT] && !state_q[S_INIT_WAIT] && !state_q[S_HDR] &&
                   !state_q[S_TRAIL] && !state_q[S_L2_CLEAR];
  assign l2_fault_kind_o = l2_kind;
  assign l2_hits_o       = l2_sum_q[32*radix_pkg::L1C_HIT +: 32];
  assign l2_misses_o     = l2_sum_q[32*radix_pkg::L1C_MISS +: 32];
  assign l2_writebacks_o = l2_sum_q[32*radix_pkg::L1C_WB +: 32];
  assign l2_rd_beats_o   = l2_sum_q[32*radix_pkg::L1C_RD_BEAT +: 32];
  assign l2_wr_beats_o   = l2_sum_q[32*radix_pkg::L1C_WR_BEAT +: 32];
  assign l2_stall_o      = l2_stall_q;
  assign l2_prefetches_o = l2_sum_q[32*radix_pkg::L1C_PF +: 32];
  assign l2_pf_useful_o  = l2_sum_q[32*radix_pkg::L1C_PF_USEFUL +: 32];

  radix_axi_arb #(.N(NT), .WqDepth(4)) u_arb (
    .clk_i, .rst_ni, .req_i (t_req), .rsp_o (t_rsp),
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awvalid,
    .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid,
    .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid,
    .m_axi_rready);

`undef RADIX_L2_CONN

  // ---------------------------------------------------------------- outputs
  // A command is accepted and not yet answered (the intake counts from its header).
  assign busy_o           = !state_q[S_HDR] || d_valid_q || p_valid_q ||
                            (in_state_q != I_HDR) || (ws_q != W_IDLE);
  assign intake_ahead_o   = ahead_cnt_q;
  assign init_done_o      = !state_q[S_INIT] && !state_q[S_INIT_WAIT];
  assign last_error_o     = last_error_q;
  assign error_o          = error_q && adv;   // a frozen cycle repeats no pulse
  assign evictable_o      = evictable_q;
  assign protected_o      = protected_q;
  assign total_o          = total_q;
  assign free_nodes_o     = 32'(fn_count);
  assign free_slots_o     = 32'(fl_count) << 4;
  assign lookups_o        = lookups_q;
  assign queried_o        = queried_q;
  assign hit_o            = hit_q;
  assign inserts_o        = inserts_q;
  assign inserted_o       = inserted_q;
  assign splits_o         = splits_q;
  assign evicted_nodes_o  = evicted_nodes_q;
  assign evicted_tokens_o = evicted_tokens_q;
  assign errors_o         = errors_q;
  assign busy_cycles_o    = busy_cycles_q;
  assign walk_cycles_o    = walk_cycles_q;
  assign walk_nodes_o     = walk_nodes_q;
  assign index_used_o     = ix_used;
  assign stash_free_o     = 32'(ix_stash_free);
  assign free_lines_o     = 32'(fl_count);
  assign evict_skips_o    = skips_q;
  assign ovl_walks_o = ovl_walks_q;
  assign replays_o = replays_q;
  assign conflicts_split_o = hits_split_q;
  assign conflicts_leaf_o = hits_leaf_q;
  assign walk_wait_o = wk_wait_q;
  assign lookup_wait_o = ix_wait_q;


  // Stream protocol on both ports (valid held, payload stable while stalled, no X).
  `COMMON_AXIS_CHECK(u_cmd_chk, DataW, cmd_tvalid_i, cmd_tready_o, cmd_tdata_i, cmd_tlast_i)
  `COMMON_AXIS_CHECK(u_rsp_chk, DataW, rsp_tvalid_o, rsp_tready_i, rsp_tdata_o, rsp_tlast_o)

`ifdef COMMON_ASSERT_ON
  // Invariants the design relies on; compiled into every simulation.
  // The commit stage asks for the child index (only the port checks below need this:
  // the arbitration itself is walker first, ix_ok).
  logic seq_ix_want;
  always_comb begin
    unique case (1'b1)
      state_q[S_D_TAIL]:       seq_ix_want = fn_any_q;
      state_q[S_D_TAIL_IX], state_q[S_C_SPLIT], state_q[S_C_SPLIT_IX1],
      state_q[S_E_VICTIM]:     seq_ix_want = 1'b1;
      state_q[S_D_PROBE2]:     seq_ix_want = need_leaf_q;
      state_q[S_C_LEAF_LINES]: seq_ix_want = !lw_active_q && !lw_start;
      default:        seq_ix_want = 1'b0;
    endcase
  end
  // Injected holds that met a request, by unit (StallInject = 1; radix_stall_inject
  // reads them to show each hold path ran).
  logic [31:0] inj_st_cnt_q, inj_nr_cnt_q, inj_pf_cnt_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      inj_st_cnt_q <= '0;
      inj_nr_cnt_q <= '0;
      inj_pf_cnt_q <= '0;
    end else if (adv) begin
      if (inj_st && (st_issue_ok || (st_active_q && st_pre_q))) inj_st_cnt_q <= inj_st_cnt_q + 1;
      if (inj_nr && nr_v_q[0]) inj_nr_cnt_q <= inj_nr_cnt_q + 1;
      if (inj_pf && pf_state_q == PF_PAGE && pf_cnt_q <= 4'd1 && ix_ready)
        inj_pf_cnt_q <= inj_pf_cnt_q + 1;
    end
  end
  // Commit order: each command gets a number when it leaves the descriptor; the
  // sequencer must take them one by one (at S_DECIDE if it walked, else at S_HDR).
  logic [15:0] disp_id_q, wk_id_q, seq_id_q, tk_id;
  logic        take;
  // (A walk killed by an L2 fault is taken where it stands.)
  assign take  = state_q[S_DECIDE] || (state_q[S_WALK] && kill) || (dispatch && !hdr_walks);
  assign tk_id = (state_q[S_DECIDE] || state_q[S_WALK]) ? wk_id_q : disp_id_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      disp_id_q <= '0;
      wk_id_q   <= '0;
      seq_id_q  <= '1;
    end else if (adv) begin
      if (dispatch || odispatch) disp_id_q <= disp_id_q + 1'b1;
      if ((dispatch && hdr_walks) || odispatch) wk_id_q <= disp_id_q;
      if (take) seq_id_q <= tk_id;
    end
  end
  logic ho_q;   // the hand-over (S_DECIDE) ran in the previous tick
  always_ff @(posedge clk_i) begin
    if (adv || !rst_ni) ho_q <= rst_ni && !kill && state_q[S_DECIDE];
  end
  always_ff @(posedge clk_i) begin
    // After an L2 fault the tables' data is undefined until RESET: the invariants hold
    // again once the caches are cleared.
    if (adv || !rst_ni) begin
      if (rst_ni && !l2_fault) begin
        if (ix_overflow) $fatal(1, "radix_core: child index insert without room");
        // The edge length the walker took from the index is the node's own (for a walk
        // that ran alone: one that overlapped a commit may read an entry and a word on
        // either side of a split, and the signature decides whether it runs again).
        if (!wk_ovl_q && eq_push && (!r_valid || r_len != nr_len_q))
          $fatal(1, "radix_core: index entry length %0d != node %0d length %0d",
                 nr_len_q, nr_child_q, r_len);
        if (eq_cnt_q > 3'(EqDepth)) $fatal(1, "radix_core: edge queue overflow");
        // A walk starts with the walker idle and nothing left in its edge queue.
        if (ws_q == W_START && !pf_clear && (eq_cnt_q != '0 || nr_v_q != '0 || !(pf_state_q == PF_IDLE ||
                                                                  pf_state_q == PF_END)))
          $fatal(1, "radix_core: a walk starts with the walker busy or edges queued");
        // The streamer runs out of queued edges only where the walker found no child.
        if (!wk_ovl_q && ws_q == W_WAITPF && !eq_pop && pf_state_q == PF_END && !pf_busy &&
            !pf_miss_q)
          $fatal(1, "radix_core: walk ran out of edges without a missing child");
        if (rsp_push && !rsp_ready) $fatal(1, "radix_core: response pushed into a full FIFO");
        // The intake never writes the bank the sequencer reads, nor fills a full descriptor.
        if (q_we && (q_wbank == wk_bank_q || q_wbank == cm_bank_q))
          $fatal(1, "radix_core: intake writes query bank %0d, which a stage reads", q_wbank);
        if (in_bank_q == 2'd3 || wk_bank_q == 2'd3 || cm_bank_q == 2'd3 ||
            in_bank_q == wk_bank_q || in_bank_q == cm_bank_q || wk_bank_q == cm_bank_q)
          $fatal(1, "radix_core: query banks intake %0d walk %0d commit %0d", in_bank_q,
                 wk_bank_q, cm_bank_q);
        if (d_valid_q && in_state_q == I_CHECK)
          $fatal(1, "radix_core: intake took a header while the descriptor was full");
        // A parked command needs no bank and is older than the descriptor's: it leaves
        // first, and never to the walk stage.
        if (p_valid_q && (!p_nobank || odispatch))
          $fatal(1, "radix_core: parked command %0h (status %0h) walks or needs a bank",
                 p_op_q, p_status_q);
        if (Overlap == 0 && p_valid_q) $fatal(1, "radix_core: a command parked with Overlap = 0");
        if (st_issue && lw_issue) $fatal(1, "radix_core: line streamer and leaf writer both active");
        // The cut node's word read again at the decision equals the walk's copy when
        // the walk ran alone.
        if (state_q[S_D_TAIL] && !cm_ovl_q &&
            {r_valid, r_head, r_off, r_len, r_lock, r_nchild, r_stamp, r_parent, r_hloc, r_gen} !=
            {1'b1, c_head_q, c_off_q, c_len_q, c_lock_q, c_nchild_q, c_stamp_q, c_parent_q,
             c_hloc_q, c_gen_q})
          $fatal(1, "radix_core: cut node %0d changed between its walk and its decision", cand_q);
        // The commit side's copies equal the walk side's right after the hand-over.
        if (ho_q && ({op_q, ns_q, n_q, len_q, status_q, cm_node_q, cm_pos_q, cm_depth_q,
                      cm_split_q, cm_split_line_q, cm_page_q, cm_cand_q, cm_head_q, cm_off_q,
                      cm_len_q} !=
                     {wk_op_q, wk_ns_q, wk_n_q, wk_len_q, radix_pkg::ST_OK, node_q, pos_q,
                      depth_q, split_q, split_line_q, page_q, cand_q, c_head_q, c_off_q,
                      c_len_q}))
          $fatal(1, "radix_core: the hand-over copied the walk's results wrongly");
        // The streamer writes the bank the response reads only for a command whose rows
        // stream as they are written.
        if (ob_we != '0 && ob_wbank_q == ob_rbank_q &&
            !(wk_op_q == radix_pkg::OP_EVICT || (wk_op_q == radix_pkg::OP_MATCH && early_q)))
          $fatal(1, "radix_core: the walk writes output bank %0d, which the response reads",
                 ob_wbank_q);
        // A MATCH's rows are final from its decision on (they stream from there): no row
        // of the bank they stream from is written after that, early streaming or not.
        if (ob_we != '0 && ob_wbank_q == ob_rbank_q && ob_final_q && op_q == radix_pkg::OP_MATCH)
          $fatal(1, "radix_core: a row of bank %0d written after its MATCH's rows were final",
                 ob_wbank_q);
        // Serial: the commit stage never takes a port in a cycle the walk stage asks
        // for it.
        if (Overlap == 0 && (st_issue_ok || (st_active_q && st_pre_q)) && cm_rd)
          $fatal(1, "radix_core: the streamer and the commit stage ask for a read port at once");
        if (Overlap == 0 && nr_v_q[0] && nd_re)
          $fatal(1, "radix_core: the walker and the commit stage ask for the node table at once");
        if (Overlap == 0 && pf_state_q == PF_PAGE && pf_cnt_q <= 4'd1 && !ix_ready)
          $fatal(1, "radix_core: the walker finds the child index busy");
        // The walk never writes the path bank the commit reads.
        if (pa_wbank_q == pa_cbank_q) $fatal(1, "radix_core: walk and commit share path bank %0d",
                                             pa_wbank_q);
        // Overlap: the walker and the commit stage never issue to the index in one
        // cycle, and the walker never looks up while the commit is between an entry
        // and its node's word.
        if (pf_issue && ((seq_ix_want && ix_ok) || cm_win_q))
          $fatal(1, "radix_core: the walker looks up while the commit stage has the index");
        // Lines stream back to back: a link that arrives with the line two issues back
        // (or with the edge's first line, one back) issues the next line in the same
        // cycle unless the issue has another reason to wait. Only cycles would change
        // without it, which no answer shows.
        if (st_active_q && !st_pre_q && !st_stop_q && st_more_q && st_flow_ok_q && !st_hold &&
            a_v && (st_fly_q == 3'd2 || (a_first && st_fly_q == 3'd1)) && !st_issue)
          $fatal(1, "radix_core: the streamer waits for a link that has arrived");
        // The walker's lookup is on the index port when its key is added, alone.
        if (sig_lk_q && (!ix_valid || ix_op != radix_pkg::IX_LOOKUP || sig_add_hit || sig_clr))
          $fatal(1, "radix_core: a lookup's key added with the index port not holding it");
        // A walk runs only beside a MATCH, INSERT, LOCK or UNLOCK; EVICT, SIZES, RESET
        // and the init sweep run with the walk stage idle.
        // The sequencer's state is one-hot: its case and every decode take one bit.
        if (state_q == '0 || (state_q & (state_q - 1'b1)) != '0)
          $fatal(1, "radix_core: sequencer state %b is not one-hot", state_q);
        if (ws_q != W_IDLE && !(state_q[S_HDR] || state_q[S_WALK] || cm_busy_q))
          $fatal(1, "radix_core: a walk runs beside state %b (one-hot)", state_q);
        if (odispatch && !(op_q == radix_pkg::OP_MATCH || op_q == radix_pkg::OP_INSERT ||
                           op_q == radix_pkg::OP_LOCK || op_q == radix_pkg::OP_UNLOCK))
          $fatal(1, "radix_core: a walk dispatched beside opcode %0d", op_q);
        // Commands reach the sequencer in dispatch order, each once.
        if (take && tk_id != seq_id_q + 1'b1)
          $fatal(1, "radix_core: command %0d taken after %0d", tk_id, seq_id_q);
        if (state_q[S_HDR] && (32'(fn_count) + 32'(ix_used) != 32'(NodeCap - 1)))
          $fatal(1, "radix_core: free node slots + index entries != NodeCap - 1");
      end
    end
  end
`endif

  logic unused;
  assign unused = ^{rsp_full, rsp_empty, e_valid, e_ns, pf_miss_q, nr_len_q, fl_valid, fn_valid, p_valid,
                    c_nchild_q, c_stamp_q, ix_overflow, d_q, a_addr, lw_v_q, st_base_q,
                    l2_sum_q[32*radix_pkg::L1C_STALL +: 32]};   // the core counts its own frozen cycles
endmodule

`default_nettype wire
