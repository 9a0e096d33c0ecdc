// SPDX-License-Identifier: Apache-2.0
// Radix KV-cache controller core: SGLang RadixCache semantics in one sequential engine.
//
// The tree lives in a node table (one entry per node, slot 0 is the root) and a
// token store of linked slots (token, KV index, next slot). An edge is a chain of
// slots, so a split is a pointer update and every free slot is usable. One
// command runs at a time; the cycle model is in docs/radix-protocol.md.
// Commands arrive on cmd_*, responses leave through a FIFO on rsp_*.
`default_nettype none

`include "common_macros.svh"

module radix_core #(
  // Node-table entries including the root, power of two in [4, 2**16].
  parameter int NodeCap   = 256,
  // Token slots (tokens held in the tree), power of two in [4, 2**20].
  parameter int TokenCap  = 4096,
  // Longest MATCH / INSERT in tokens, 1..65535.
  parameter int MaxLen    = 1024,
  // Tokens per page: 1, 2, 4, 8 or 16. Keys are cut to pages; splits at page edges.
  parameter int PageSize  = 1,
  // Namespaces accepted (SGLang extra_key), 1..256.
  parameter int NumNs     = 16,
  // Stream width: two 32-bit tokens or KV indices per beat. Only 64 is supported.
  parameter int DataW     = 64,
  // Depth of the response FIFO in beats, >= 2.
  parameter int RspDepth  = 16
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // Command stream (see docs/radix-protocol.md for the beat formats)
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
  // Cycle model probes: the latest command's walk, for the benchmark.
  output logic          [31:0] walk_cycles_o,
  output logic          [31:0] walk_nodes_o
);

  localparam int NodeW    = $clog2(NodeCap);
  localparam int SlotW    = $clog2(TokenCap);
  localparam int LenW     = $clog2(MaxLen + 1);
  localparam int QW       = $clog2(MaxLen);
  localparam int DepthCap = MaxLen / PageSize + 1;
  localparam int DW       = $clog2(DepthCap + 1);
  localparam int GenW     = 8;
  localparam int LockW    = 16;
  localparam int StampW   = 32;
  localparam int InitW    = (SlotW > NodeW) ? SlotW : NodeW;
  localparam logic [NodeW-1:0] NIL = '0;   // the root is nobody's child or sibling

  `COMMON_PARAM_CHECK(g_bad_node_cap, NodeCap >= 4 && NodeCap <= 65536 &&
                      (NodeCap & (NodeCap - 1)) == 0, "radix_core: NodeCap")
  `COMMON_PARAM_CHECK(g_bad_token_cap, TokenCap >= 4 && TokenCap <= 1048576 &&
                      (TokenCap & (TokenCap - 1)) == 0, "radix_core: TokenCap")
  `COMMON_PARAM_CHECK(g_bad_page, PageSize == 1 || PageSize == 2 || PageSize == 4 ||
                      PageSize == 8 || PageSize == 16, "radix_core: PageSize")
  `COMMON_PARAM_CHECK(g_bad_len, MaxLen >= PageSize && MaxLen <= 65535 &&
                      MaxLen % PageSize == 0, "radix_core: MaxLen")
  `COMMON_PARAM_CHECK(g_bad_ns, NumNs >= 1 && NumNs <= 256, "radix_core: NumNs")
  `COMMON_PARAM_CHECK(g_bad_width, DataW == 64, "radix_core: DataW must be 64")

  // ---------------------------------------------------------------- storage
  // Node table. Reads are combinational (LUT RAM); each array takes at most one
  // write per cycle, by construction of the state machine below.
  logic              n_valid  [NodeCap];
  logic [GenW-1:0]   n_gen    [NodeCap];
  logic [7:0]        n_ns     [NodeCap];
  logic [NodeW-1:0]  n_parent [NodeCap];
  logic [NodeW-1:0]  n_child  [NodeCap];   // first child, NIL if a leaf
  logic [31:0]       n_first  [NodeCap];   // first token of the edge: one-cycle sibling skip
  logic [NodeW-1:0]  n_sib    [NodeCap];   // next sibling; free-list link when free
  logic [SlotW-1:0]  n_head   [NodeCap];
  logic [LenW-1:0]   n_len    [NodeCap];
  logic [LockW-1:0]  n_lock   [NodeCap];
  logic [StampW-1:0] n_stamp  [NodeCap];
  // Token store: a slot per token; chains in key order; free slots chained too.
  logic [31:0]       s_tok    [TokenCap];
  logic [31:0]       s_kv     [TokenCap];
  logic [SlotW-1:0]  s_next   [TokenCap];
  // The command's tokens and KV indices, and the nodes its walk visited.
  logic [31:0]       q_tok    [MaxLen];
  logic [31:0]       q_kv     [MaxLen];
  logic [NodeW-1:0]  path     [DepthCap];

  // ---------------------------------------------------------------- state
  typedef enum logic [5:0] {
    S_INIT, S_HDR, S_LOAD, S_DRAIN,
    S_W_CHILD, S_W_SIB, S_W_CMP, S_W_DONE, S_STAMP,
    S_SPLIT1, S_SPLIT2, S_SPLIT3,
    S_LEAF, S_LEAF_FILL,
    S_M_EMIT_NODE, S_M_EMIT,
    S_E_SCAN, S_E_FREE, S_E_UNLINK, S_E_RELEASE,
    S_L_CHECK, S_L_APPLY,
    S_FLUSH, S_TRAIL0, S_TRAIL1
  } state_e;

  state_e state_q;

  // Command fields
  logic [7:0]        op_q;
  logic [7:0]        ns_q;
  logic [15:0]       kvcnt_q;
  logic [31:0]       arg_q;          // length, num_tokens or handle
  logic [LenW-1:0]   len_q;          // raw token count (MATCH / INSERT)
  logic [LenW-1:0]   n_q;            // page-aligned count
  logic [LenW:0]     beat_q;         // payload beat index
  logic [LenW:0]     beats_q;        // payload beats expected
  logic [7:0]        status_q;

  // Walk
  logic [NodeW-1:0]  node_q;         // deepest fully matched node (root at start)
  logic [NodeW-1:0]  cand_q, prev_q; // child under test and its predecessor
  logic [NodeW-1:0]  split_prev_q;
  logic [LenW-1:0]   pos_q;          // tokens matched so far
  logic [LenW-1:0]   i_q;            // tokens matched within the current edge
  logic [LenW-1:0]   page_i_q;       // last page boundary <= i_q
  logic [SlotW-1:0]  slot_q, page_slot_q;
  logic [LenW-1:0]   split_q;        // tokens of the split's upper part; 0 = no split
  logic [SlotW-1:0]  split_slot_q;   // slot of the tail's first token
  logic [DW-1:0]     depth_q, d_q;
  logic [NodeW-1:0]  new_q;          // node allocated for a split or a leaf
  logic [NodeW-1:0]  result_q;       // node whose handle the response returns
  logic [SlotW-1:0]  prev_slot_q;
  logic [LenW-1:0]   k_q;

  // Eviction and locks
  logic [31:0]       got_q;
  logic [NodeW-1:0]  scan_q, best_q;
  logic              best_ok_q;
  logic [StampW-1:0] best_stamp_q;
  logic [NodeW-1:0]  victim_q;
  logic [NodeW-1:0]  walk_q;
  logic [31:0]       delta_q;

  // Global state
  logic [StampW-1:0] clock_q;
  logic [NodeW-1:0]  free_node_q;
  logic [SlotW-1:0]  free_slot_q;
  logic [31:0]       n_free_nodes_q, n_free_slots_q;
  logic [31:0]       evictable_q, protected_q;
  logic [31:0]       lookups_q, queried_q, hit_q, inserts_q, inserted_q, splits_q;
  logic [31:0]       evicted_nodes_q, evicted_tokens_q, errors_q, busy_cycles_q;
  logic [7:0]        last_error_q;
  logic [31:0]       walk_cycles_q, walk_nodes_q;
  logic [InitW:0]    init_q;
  logic              por_q;          // first init after reset: generations start at 0

  // Response packing: two KV indices per beat.
  logic              half_q;
  logic [31:0]       lo_q;
  logic [31:0]       trail_a_q, trail_b_q, trail_c_q;

  // ---------------------------------------------------------------- response FIFO
  logic             rsp_push, rsp_last, fifo_ready, rsp_full, rsp_empty;
  logic [$clog2(RspDepth + 1)-1:0] rsp_level;
  logic [DataW-1:0] rsp_data;

  common_fifo_sync #(
    .Width    (DataW + 1),
    .Depth    (RspDepth),
    .RamStyle ("distributed")
  ) u_rsp_fifo (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (rsp_push),
    .in_ready_o  (fifo_ready),
    .in_data_i   ({rsp_last, rsp_data}),
    .out_valid_o (rsp_tvalid_o),
    .out_ready_i (rsp_tready_i),
    .out_data_o  ({rsp_tlast_o, rsp_tdata_o}),
    .level_o     (rsp_level),
    .full_o      (rsp_full),
    .empty_o     (rsp_empty)
  );

  // ---------------------------------------------------------------- helpers
  logic             cmd_fire;
  assign cmd_fire = cmd_tvalid_i && cmd_tready_o;

  logic [7:0]  h_op, h_ns;
  logic [15:0] h_kvcnt;
  logic [31:0] h_arg;
  assign h_op    = cmd_tdata_i[7:0];
  assign h_ns    = cmd_tdata_i[15:8];
  assign h_kvcnt = cmd_tdata_i[31:16];
  assign h_arg   = cmd_tdata_i[63:32];

  // Handle = {8'b0, gen, slot}: slot in the low 16 bits, generation above.
  logic [NodeW-1:0] h_slot;
  logic [GenW-1:0]  h_gen;
  logic             h_slot_ok;
  assign h_slot    = arg_q[NodeW-1:0];
  assign h_gen     = arg_q[16 +: GenW];
  // The root's handle is valid: locking it is a no-op, as in SGLang.
  assign h_slot_ok = (arg_q[15:0] < 16'(NodeCap)) && (arg_q[31:24] == 8'h00);

  function automatic logic [31:0] handle_of(input logic [NodeW-1:0] slot,
                                            input logic [GenW-1:0] gen);
    handle_of = {8'h00, gen, 16'(slot)};
  endfunction

  logic [LenW-1:0] qi;                 // query index under comparison
  assign qi = pos_q + i_q;

  logic [LenW-1:0] c_len;
  assign c_len = n_len[cand_q];

  logic page_edge;                     // does i_q+1 start a new page?
  logic [LenW-1:0] i_next;
  assign i_next = i_q + 1'b1;
  // Written per page size: Verilator 5.049 with --coverage crashes on the
  // equivalent mask expression.
  if (PageSize == 1) begin : g_page1
    assign page_edge = 1'b1;
    logic unused_i_next;
    assign unused_i_next = ^i_next;
  end else begin : g_pagen
    assign page_edge = (i_next[$clog2(PageSize)-1:0] == '0);
    logic unused_i_next;
    assign unused_i_next = ^i_next[LenW-1:$clog2(PageSize)];
  end

  logic leaf_ok;                       // evictable leaf at scan_q
  assign leaf_ok = n_valid[scan_q] && (n_child[scan_q] == NIL) && (n_lock[scan_q] == '0);

  // A KV can be emitted this cycle unless it completes a beat the FIFO cannot take.
  logic kv_go;
  assign kv_go = !half_q || fifo_ready;

  // ---------------------------------------------------------------- control
  always_comb begin
    cmd_tready_o = 1'b0;
    rsp_push     = 1'b0;
    rsp_last     = 1'b0;
    rsp_data     = '0;
    unique case (state_q)
      S_HDR, S_LOAD, S_DRAIN: cmd_tready_o = 1'b1;
      S_M_EMIT, S_E_FREE: begin
        rsp_push = half_q;
        rsp_data = {(state_q == S_M_EMIT) ? s_kv[slot_q] : s_kv[slot_q], lo_q};
      end
      S_FLUSH: begin
        rsp_push = half_q;
        rsp_data = {32'h0, lo_q};
      end
      S_TRAIL0: begin
        rsp_push = 1'b1;
        rsp_data = {trail_a_q, 16'h0, status_q, op_q};
      end
      S_TRAIL1: begin
        rsp_push = 1'b1;
        rsp_last = 1'b1;
        rsp_data = {trail_c_q, trail_b_q};
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q          <= S_INIT;
      init_q           <= '0;
      por_q            <= 1'b1;
      clock_q          <= '0;
      half_q           <= 1'b0;
      errors_q         <= '0;
      busy_cycles_q    <= '0;
      walk_cycles_q    <= '0;
      walk_nodes_q     <= '0;
      last_error_q     <= radix_pkg::ST_OK;
      error_o          <= 1'b0;
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
    end else begin
      error_o <= 1'b0;
      if (state_q != S_HDR && state_q != S_INIT) busy_cycles_q <= busy_cycles_q + 1'b1;
      if (state_q == S_W_CHILD || state_q == S_W_SIB || state_q == S_W_CMP) begin
        walk_cycles_q <= walk_cycles_q + 1'b1;
      end

      unique case (state_q)
        // Lay out both free lists and the root, one slot per cycle. A RESET
        // command comes here too; it bumps every generation so that no handle
        // from before the reset is accepted after it.
        S_INIT: begin
          if (init_q < (InitW + 1)'(TokenCap)) begin
            s_next[init_q[SlotW-1:0]] <= SlotW'(init_q + 1'b1);
          end
          if (init_q < (InitW + 1)'(NodeCap)) begin
            n_valid[init_q[NodeW-1:0]] <= (init_q == '0);
            n_gen[init_q[NodeW-1:0]]   <= por_q ? '0 : n_gen[init_q[NodeW-1:0]] + 1'b1;
            n_sib[init_q[NodeW-1:0]]   <= (init_q == '0) ? NIL : NodeW'(init_q + 1'b1);
            n_child[init_q[NodeW-1:0]] <= NIL;
            n_len[init_q[NodeW-1:0]]   <= '0;
            n_lock[init_q[NodeW-1:0]]  <= (init_q == '0) ? LockW'(1) : '0;
            n_stamp[init_q[NodeW-1:0]] <= '0;
            n_ns[init_q[NodeW-1:0]]    <= '0;
            n_parent[init_q[NodeW-1:0]] <= NIL;
          end
          init_q <= init_q + 1'b1;
          if (init_q == (InitW + 1)'((TokenCap > NodeCap ? TokenCap : NodeCap) - 1)) begin
            state_q          <= S_HDR;
            por_q            <= 1'b0;
            free_node_q      <= NodeW'(1);
            free_slot_q      <= '0;
            n_free_nodes_q   <= 32'(NodeCap - 1);
            n_free_slots_q   <= 32'(TokenCap);
            clock_q          <= '0;
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
          end
        end

        // ------------------------------------------------ command intake
        S_HDR: if (cmd_fire) begin
          op_q     <= h_op;
          ns_q     <= h_ns;
          if (h_op == radix_pkg::OP_MATCH || h_op == radix_pkg::OP_INSERT) begin
            walk_cycles_q <= '0;
            walk_nodes_q  <= '0;
          end
          kvcnt_q  <= h_kvcnt;
          arg_q    <= h_arg;
          len_q    <= LenW'(h_arg);
          n_q      <= LenW'(h_arg) & ~LenW'(PageSize - 1);
          beat_q   <= '0;
          status_q <= radix_pkg::ST_OK;
          trail_a_q <= '0;
          trail_b_q <= '0;
          trail_c_q <= '0;
          half_q   <= 1'b0;
          unique case (h_op)
            radix_pkg::OP_MATCH, radix_pkg::OP_INSERT: begin
              // Payload: ceil(len/2) token beats, and as many KV beats for INSERT.
              beats_q <= (LenW + 1)'((h_arg[LenW:0] + 1'b1) >> 1) << (h_op == radix_pkg::OP_INSERT);
              if (h_arg == 32'h0 || h_arg > 32'(MaxLen)) begin
                status_q <= radix_pkg::ST_LENGTH;
                state_q  <= cmd_tlast_i ? S_TRAIL0 : S_DRAIN;
              end else if (32'(h_ns) >= 32'(NumNs)) begin
                status_q <= radix_pkg::ST_NAMESPACE;
                state_q  <= cmd_tlast_i ? S_TRAIL0 : S_DRAIN;
              end else if (h_op == radix_pkg::OP_INSERT && 32'(h_kvcnt) != h_arg) begin
                status_q <= radix_pkg::ST_KVCOUNT;
                state_q  <= cmd_tlast_i ? S_TRAIL0 : S_DRAIN;
              end else if (cmd_tlast_i) begin
                status_q <= radix_pkg::ST_FRAMING;
                state_q  <= S_TRAIL0;
              end else begin
                state_q <= S_LOAD;
              end
            end
            radix_pkg::OP_EVICT, radix_pkg::OP_LOCK, radix_pkg::OP_UNLOCK, radix_pkg::OP_SIZES, radix_pkg::OP_RESET: begin
              if (!cmd_tlast_i) begin
                status_q <= radix_pkg::ST_FRAMING;
                state_q  <= S_DRAIN;
              end else begin
                unique case (h_op)
                  radix_pkg::OP_EVICT: begin
                    got_q   <= '0;
                    scan_q  <= NodeW'(1);
                    best_ok_q <= 1'b0;
                    state_q <= (h_arg == 32'h0) ? S_TRAIL0 : S_E_SCAN;
                  end
                  radix_pkg::OP_LOCK, radix_pkg::OP_UNLOCK: state_q <= S_L_CHECK;
                  radix_pkg::OP_SIZES: begin
                    trail_a_q <= evictable_q;
                    trail_b_q <= protected_q;
                    trail_c_q <= evictable_q + protected_q;
                    state_q   <= S_TRAIL0;
                  end
                  default: state_q <= S_TRAIL0;   // RESET answers, then re-initialises
                endcase
              end
            end
            default: begin
              status_q <= radix_pkg::ST_OPCODE;
              state_q  <= cmd_tlast_i ? S_TRAIL0 : S_DRAIN;
            end
          endcase
        end

        S_LOAD: if (cmd_fire) begin
          // Token beats first, then (INSERT) the KV beats; lane 0 is the earlier one.
          if (beat_q < ((beats_q >> (op_q == radix_pkg::OP_INSERT)))) begin
            q_tok[QW'({beat_q, 1'b0})] <= cmd_tdata_i[31:0];
            q_tok[QW'({beat_q, 1'b1})] <= cmd_tdata_i[63:32];
          end else begin
            q_kv[QW'({beat_q - (beats_q >> 1), 1'b0})] <= cmd_tdata_i[31:0];
            q_kv[QW'({beat_q - (beats_q >> 1), 1'b1})] <= cmd_tdata_i[63:32];
          end
          beat_q <= beat_q + 1'b1;
          if (beat_q + 1'b1 == beats_q) begin
            if (cmd_tlast_i) begin
              // Start the walk at the root.
              node_q  <= NIL;
              pos_q   <= '0;
              depth_q <= '0;
              split_q <= '0;
              state_q <= (n_q == '0) ? S_W_DONE : S_W_CHILD;
            end else begin
              status_q <= radix_pkg::ST_FRAMING;
              state_q  <= S_DRAIN;
            end
          end else if (cmd_tlast_i) begin
            status_q <= radix_pkg::ST_FRAMING;
            state_q  <= S_TRAIL0;
          end
        end

        S_DRAIN: if (cmd_fire && cmd_tlast_i) state_q <= S_TRAIL0;

        // ------------------------------------------------ walk (pure: no writes but path)
        S_W_CHILD: begin
          cand_q  <= n_child[node_q];
          prev_q  <= NIL;
          state_q <= S_W_SIB;
        end

        S_W_SIB: begin
          if (cand_q == NIL) begin
            state_q <= S_W_DONE;
          end else if (n_ns[cand_q] != ns_q || n_first[cand_q] != q_tok[QW'(pos_q)]) begin
            prev_q <= cand_q;
            cand_q <= n_sib[cand_q];
          end else begin
            slot_q      <= n_head[cand_q];
            page_slot_q <= n_head[cand_q];
            i_q         <= '0;
            page_i_q    <= '0;
            state_q     <= S_W_CMP;
          end
        end

        S_W_CMP: begin
          if (i_q == c_len) begin
            // Whole edge matched: descend.
            walk_nodes_q  <= walk_nodes_q + 1'b1;
            path[depth_q] <= cand_q;
            depth_q <= depth_q + 1'b1;
            pos_q   <= pos_q + c_len;
            node_q  <= cand_q;
            state_q <= (pos_q + c_len == n_q) ? S_W_DONE : S_W_CHILD;
          end else if (qi != n_q && s_tok[slot_q] == q_tok[QW'(qi)]) begin
            i_q    <= i_q + 1'b1;
            slot_q <= s_next[slot_q];
            if (page_edge) begin
              page_i_q    <= i_q + 1'b1;
              page_slot_q <= s_next[slot_q];
            end
          end else if (page_i_q == '0) begin
            // Differs inside the first page: a sibling with another key.
            prev_q  <= cand_q;
            cand_q  <= n_sib[cand_q];
            state_q <= S_W_SIB;
          end else begin
            // Ends inside this edge: split after page_i_q tokens.
            walk_nodes_q  <= walk_nodes_q + 1'b1;
            path[depth_q] <= cand_q;
            depth_q      <= depth_q + 1'b1;
            pos_q        <= pos_q + page_i_q;
            split_q      <= page_i_q;
            split_slot_q <= page_slot_q;
            split_prev_q <= prev_q;
            state_q      <= S_W_DONE;
          end
        end

        // Decide: refuse (nothing changes) or commit.
        S_W_DONE: begin
          if (op_q == radix_pkg::OP_MATCH) begin
            if (split_q != '0 && n_free_nodes_q == 32'h0) begin
              status_q <= radix_pkg::ST_CAPACITY;
              state_q  <= S_TRAIL0;
            end else begin
              lookups_q <= lookups_q + 1'b1;
              queried_q <= queried_q + 32'(len_q);
              hit_q     <= hit_q + 32'(pos_q);
              trail_a_q <= 32'(pos_q);
              if (n_q == '0) begin
                // SGLang returns before touching the tree: no stamp.
                trail_b_q <= handle_of(NIL, n_gen[NIL]);
                state_q   <= S_TRAIL0;
              end else begin
                clock_q <= clock_q + 1'b1;
                n_stamp[NIL] <= clock_q + 1'b1;
                d_q     <= '0;
                state_q <= S_STAMP;
              end
            end
          end else begin  // INSERT
            if ((32'(split_q != '0) + 32'(pos_q != n_q)) > n_free_nodes_q ||
                32'(n_q - pos_q) > n_free_slots_q) begin
              status_q <= radix_pkg::ST_CAPACITY;
              state_q  <= S_TRAIL0;
            end else begin
              inserts_q <= inserts_q + 1'b1;
              trail_a_q <= 32'(pos_q);
              clock_q   <= clock_q + 1'b1;
              n_stamp[NIL] <= clock_q + 1'b1;
              d_q       <= '0;
              state_q   <= S_STAMP;
            end
          end
        end

        // Every node the walk visited takes the operation's one stamp.
        S_STAMP: begin
          if (d_q != depth_q) begin
            n_stamp[path[d_q]] <= clock_q;
            d_q <= d_q + 1'b1;
          end else begin
            result_q <= (depth_q == '0) ? NIL : path[depth_q - 1'b1];
            if (split_q != '0) begin
              new_q   <= free_node_q;
              state_q <= S_SPLIT1;
            end else if (op_q == radix_pkg::OP_INSERT && pos_q != n_q) begin
              new_q   <= free_node_q;
              state_q <= S_LEAF;
            end else begin
              state_q <= (op_q == radix_pkg::OP_MATCH) ? S_M_EMIT_NODE : S_TRAIL0;
              d_q     <= '0;
            end
          end
        end

        // ------------------------------------------------ split: upper part is a new node
        S_SPLIT1: begin
          // new_q takes the first split_q tokens of cand_q, its lock and its place.
          n_valid[new_q]  <= 1'b1;
          n_ns[new_q]     <= n_ns[cand_q];
          n_parent[new_q] <= n_parent[cand_q];
          n_child[new_q]  <= cand_q;
          n_sib[new_q]    <= n_sib[cand_q];
          n_head[new_q]   <= n_head[cand_q];
          n_first[new_q]  <= n_first[cand_q];
          n_len[new_q]    <= split_q;
          n_lock[new_q]   <= n_lock[cand_q];
          n_stamp[new_q]  <= clock_q + 1'b1;   // created now: newer than the tail
          clock_q         <= clock_q + 1'b1;
          free_node_q     <= n_sib[new_q];
          n_free_nodes_q  <= n_free_nodes_q - 1'b1;
          splits_q        <= splits_q + 1'b1;
          state_q         <= S_SPLIT2;
        end
        S_SPLIT2: begin
          // The original node keeps its slot (and handle) and the tail.
          n_parent[cand_q] <= new_q;
          n_sib[cand_q]    <= NIL;
          n_head[cand_q]   <= split_slot_q;
          n_first[cand_q]  <= s_tok[split_slot_q];
          n_len[cand_q]    <= n_len[cand_q] - split_q;
          state_q          <= S_SPLIT3;
        end
        S_SPLIT3: begin
          if (split_prev_q == NIL) n_child[n_parent[new_q]] <= new_q;
          else                     n_sib[split_prev_q]      <= new_q;
          path[depth_q - 1'b1] <= new_q;
          result_q <= new_q;
          node_q   <= new_q;
          if (op_q == radix_pkg::OP_INSERT && pos_q != n_q) begin
            new_q   <= free_node_q;
            state_q <= S_LEAF;
          end else begin
            d_q     <= '0;
            state_q <= (op_q == radix_pkg::OP_MATCH) ? S_M_EMIT_NODE : S_TRAIL0;
          end
        end

        // ------------------------------------------------ insert: new leaf
        S_LEAF: begin
          n_valid[new_q]  <= 1'b1;
          n_ns[new_q]     <= ns_q;
          n_parent[new_q] <= node_q;
          n_child[new_q]  <= NIL;
          n_sib[new_q]    <= n_child[node_q];
          n_head[new_q]   <= free_slot_q;
          n_first[new_q]  <= q_tok[QW'(pos_q)];
          n_len[new_q]    <= n_q - pos_q;
          n_lock[new_q]   <= '0;
          n_stamp[new_q]  <= clock_q + 1'b1;
          clock_q         <= clock_q + 1'b1;
          free_node_q     <= n_sib[new_q];
          n_free_nodes_q  <= n_free_nodes_q - 1'b1;
          k_q             <= pos_q;
          state_q         <= S_LEAF_FILL;
        end
        S_LEAF_FILL: begin
          // Link the leaf under its parent once, on the first fill cycle.
          if (k_q == pos_q) n_child[node_q] <= new_q;
          else              s_next[prev_slot_q] <= free_slot_q;
          s_tok[free_slot_q] <= q_tok[QW'(k_q)];
          s_kv[free_slot_q]  <= q_kv[QW'(k_q)];
          prev_slot_q        <= free_slot_q;
          free_slot_q        <= s_next[free_slot_q];
          n_free_slots_q     <= n_free_slots_q - 1'b1;
          k_q                <= k_q + 1'b1;
          if (k_q + 1'b1 == n_q) begin
            evictable_q <= evictable_q + 32'(n_q - pos_q);
            inserted_q  <= inserted_q + 32'(n_q - pos_q);
            result_q    <= new_q;
            state_q     <= S_TRAIL0;
          end
        end

        // ------------------------------------------------ match: stream the KV indices
        S_M_EMIT_NODE: begin
          trail_b_q <= handle_of(result_q, n_gen[result_q]);
          if (d_q == depth_q) begin
            state_q <= S_FLUSH;
          end else begin
            slot_q  <= n_head[path[d_q]];
            k_q     <= '0;
            state_q <= S_M_EMIT;
          end
        end
        S_M_EMIT: if (kv_go) begin
          half_q <= !half_q;
          lo_q   <= s_kv[slot_q];
          slot_q <= s_next[slot_q];
          k_q    <= k_q + 1'b1;
          if (k_q + 1'b1 == n_len[path[d_q]]) begin
            d_q     <= d_q + 1'b1;
            state_q <= S_M_EMIT_NODE;
          end
        end

        // ------------------------------------------------ evict: LRU leaf by full scan
        S_E_SCAN: begin
          if (leaf_ok && (!best_ok_q || n_stamp[scan_q] < best_stamp_q)) begin
            best_q       <= scan_q;
            best_stamp_q <= n_stamp[scan_q];
            best_ok_q    <= 1'b1;
          end
          scan_q <= scan_q + 1'b1;
          if (scan_q == NodeW'(NodeCap - 1)) begin
            if (leaf_ok && (!best_ok_q || n_stamp[scan_q] < best_stamp_q)) begin
              victim_q <= scan_q;
              slot_q   <= n_head[scan_q];
              k_q      <= '0;
              state_q  <= S_E_FREE;
            end else if (best_ok_q) begin
              victim_q <= best_q;
              slot_q   <= n_head[best_q];
              k_q      <= '0;
              state_q  <= S_E_FREE;
            end else begin
              state_q <= S_FLUSH;   // nothing evictable is left
            end
          end
        end
        S_E_FREE: if (kv_go) begin
          // Stream the KV index and return the slot to the free list.
          half_q         <= !half_q;
          lo_q           <= s_kv[slot_q];
          s_next[slot_q] <= free_slot_q;
          free_slot_q    <= slot_q;
          slot_q         <= s_next[slot_q];
          n_free_slots_q <= n_free_slots_q + 1'b1;
          k_q            <= k_q + 1'b1;
          if (k_q + 1'b1 == n_len[victim_q]) begin
            walk_q  <= n_child[n_parent[victim_q]];
            state_q <= S_E_UNLINK;
          end
        end
        S_E_UNLINK: begin
          if (walk_q == victim_q) begin
            n_child[n_parent[victim_q]] <= n_sib[victim_q];
            state_q <= S_E_RELEASE;
          end else if (n_sib[walk_q] == victim_q) begin
            n_sib[walk_q] <= n_sib[victim_q];
            state_q <= S_E_RELEASE;
          end else begin
            walk_q <= n_sib[walk_q];
          end
        end
        S_E_RELEASE: begin
          n_valid[victim_q] <= 1'b0;
          n_gen[victim_q]   <= n_gen[victim_q] + 1'b1;
          n_sib[victim_q]   <= free_node_q;
          free_node_q       <= victim_q;
          n_free_nodes_q    <= n_free_nodes_q + 1'b1;
          got_q             <= got_q + 32'(n_len[victim_q]);
          evictable_q       <= evictable_q - 32'(n_len[victim_q]);
          evicted_nodes_q   <= evicted_nodes_q + 1'b1;
          evicted_tokens_q  <= evicted_tokens_q + 32'(n_len[victim_q]);
          trail_b_q         <= trail_b_q + 1'b1;
          scan_q            <= NodeW'(1);
          best_ok_q         <= 1'b0;
          state_q <= (got_q + 32'(n_len[victim_q]) >= arg_q) ? S_FLUSH : S_E_SCAN;
        end

        // ------------------------------------------------ lock / unlock: two walks
        S_L_CHECK: begin
          if (op_q == radix_pkg::OP_LOCK || op_q == radix_pkg::OP_UNLOCK) begin
            if (!h_slot_ok || !n_valid[h_slot] || n_gen[h_slot] != h_gen) begin
              status_q <= radix_pkg::ST_HANDLE;
              state_q  <= S_TRAIL0;
            end else begin
              walk_q  <= h_slot;
              delta_q <= '0;
              op_q    <= (op_q == radix_pkg::OP_LOCK) ? 8'hF4 : 8'hF5;   // internal: walking
            end
          end else if (walk_q == NIL) begin
            walk_q  <= h_slot;
            op_q    <= (op_q == 8'hF4) ? 8'hE4 : 8'hE5;       // internal: applying
            state_q <= S_L_APPLY;
          end else if (op_q == 8'hF5 && n_lock[walk_q] == '0) begin
            status_q <= radix_pkg::ST_UNDERFLOW;
            op_q     <= radix_pkg::OP_UNLOCK;
            state_q  <= S_TRAIL0;
          end else if (op_q == 8'hF4 && n_lock[walk_q] == '1) begin
            status_q <= radix_pkg::ST_OVERFLOW;
            op_q     <= radix_pkg::OP_LOCK;
            state_q  <= S_TRAIL0;
          end else begin
            walk_q <= n_parent[walk_q];
          end
        end
        S_L_APPLY: begin
          if (walk_q == NIL) begin
            op_q      <= (op_q == 8'hE4) ? radix_pkg::OP_LOCK : radix_pkg::OP_UNLOCK;
            trail_a_q <= delta_q;
            state_q   <= S_TRAIL0;
          end else begin
            if (op_q == 8'hE4) begin
              n_lock[walk_q] <= n_lock[walk_q] + 1'b1;
              if (n_lock[walk_q] == '0) begin
                evictable_q <= evictable_q - 32'(n_len[walk_q]);
                protected_q <= protected_q + 32'(n_len[walk_q]);
                delta_q     <= delta_q - 32'(n_len[walk_q]);
              end
            end else begin
              n_lock[walk_q] <= n_lock[walk_q] - 1'b1;
              if (n_lock[walk_q] == LockW'(1)) begin
                evictable_q <= evictable_q + 32'(n_len[walk_q]);
                protected_q <= protected_q - 32'(n_len[walk_q]);
                delta_q     <= delta_q + 32'(n_len[walk_q]);
              end
            end
            walk_q <= n_parent[walk_q];
          end
        end

        // ------------------------------------------------ response trailer
        S_FLUSH: if (!half_q || fifo_ready) begin
          half_q <= 1'b0;
          if (op_q == radix_pkg::OP_EVICT) trail_a_q <= got_q;
          state_q <= S_TRAIL0;
        end
        S_TRAIL0: if (fifo_ready) begin
          if (op_q == radix_pkg::OP_INSERT && status_q == radix_pkg::ST_OK) begin
            trail_b_q <= handle_of(result_q, n_gen[result_q]);
          end
          if (status_q != radix_pkg::ST_OK) begin
            errors_q     <= errors_q + 1'b1;
            last_error_q <= status_q;
            error_o      <= 1'b1;
          end
          state_q <= S_TRAIL1;
        end
        S_TRAIL1: if (fifo_ready) begin
          if (op_q == radix_pkg::OP_RESET && status_q == radix_pkg::ST_OK) begin
            init_q  <= '0;
            state_q <= S_INIT;
          end else begin
            state_q <= S_HDR;
          end
        end

        default: state_q <= S_HDR;
      endcase
    end
  end

  // ---------------------------------------------------------------- outputs
  assign busy_o           = (state_q != S_HDR);
  assign init_done_o      = (state_q != S_INIT);
  assign last_error_o     = last_error_q;
  assign evictable_o      = evictable_q;
  assign protected_o      = protected_q;
  assign free_nodes_o     = n_free_nodes_q;
  assign free_slots_o     = n_free_slots_q;
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

  logic unused;
  assign unused = ^{kvcnt_q, rsp_level, rsp_full, rsp_empty};

endmodule

`default_nettype wire
