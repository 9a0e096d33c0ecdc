// SPDX-License-Identifier: Apache-2.0
// Child index of the radix tree: (namespace, parent node, first page of the edge)
// -> (child, length of the child's edge).
//
// A set-associative hash table in one RAM (HashBuckets words of HashWays
// entries) plus a small fully associative stash in flops. Every entry keeps the
// whole key, so a hash collision is resolved by comparing namespace, parent
// and the complete first page: the lookup cost is the same whether the parent
// has one child or ten thousand.
//
// Placement: an insert takes the lowest free way of its bucket, else the lowest
// free stash entry. Entries never move, so a node can remember where its entry
// lives (loc) and a split or an eviction updates it without a lookup. The
// caller checks room first (free_ways_o of the probed bucket, stash_free_o);
// models/radix_hw.py mirrors the hash and the placement so that a full index
// is predicted exactly.
//
// The entry also keeps the child's edge length, so a walk knows where the
// next key page starts as soon as the lookup returns, without first reading
// the child's node word (that read leaves the walk's critical loop).
//
// One operation at a time: op_valid_i starts it (only while idle_o) and reads
// the bucket in the same cycle, from the hashed key. The key compares are
// registered as the row arrives; the way select is a cycle later (X_SEL).
// idle_o rises again, with the results on the outputs, RamLat + 2 advancing
// cycles after op_valid_i for a LOOKUP, one cycle more for the operations
// that write the row back (an assertion holds the RTL to this).
`default_nettype none

`include "common_macros.svh"

module radix_child_index #(
  // The table in DDR behind an L1 cache (radix_table): on/off, geometry, timeout.
  parameter bit L2            = 1'b0,
  parameter int Sets          = 64,
  parameter int Ways          = 2,
  parameter int TimeoutCycles = 4096,
  parameter int HashBuckets = 256,   // buckets, power of two >= 2
  parameter int HashWays    = 4,     // entries per bucket, 1..8
  parameter int StashDepth  = 4,     // stash entries, 1..16
  parameter int PageSize    = 1,     // tokens in the key's page, 1..16
  parameter int NodeW       = 10,    // node-slot width
  parameter int LenW        = 11,    // edge-length width
  parameter int RamLat      = 2,     // bucket RAM read latency, >= 1
  parameter     RamStyle    = "ultra",
  // Derived; do not override.
  parameter int BucketW     = $clog2(HashBuckets),
  parameter int WayW        = (HashWays > 1) ? $clog2(HashWays) : 1,
  parameter int StashW      = (StashDepth > 1) ? $clog2(StashDepth) : 1,
  parameter int LocW        = 1 + ((BucketW + WayW > StashW) ? BucketW + WayW : StashW),
  parameter int PageBits    = 32 * PageSize
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,

  // L2 tier of the table (radix_table); idle when L2 = 0.
  input  wire logic                           adv_i,
  input  wire logic [63:0]                    base_i,
  input  wire logic                           flush_i,
  input  wire logic                           clear_i,
  output logic                                stall_o,
  output logic                                flush_done_o,
  output logic                                fault_o,
  output logic      [1:0]                     fault_kind_o,
  output logic [radix_pkg::L1_NCNT*32-1:0]    cnt_o,
  output logic [radix_pkg::L1_REQ_W-1:0]      axi_req_o,
  input  wire logic [radix_pkg::L1_RSP_W-1:0] axi_rsp_i,

  input  wire logic                init_i,      // clear every entry (HashBuckets cycles)
  output logic                     idle_o,

  input  wire logic                op_valid_i,
  input  wire logic [1:0]          op_i,        // radix_pkg::IX_*
  input  wire logic [7:0]          ns_i,
  input  wire logic [NodeW-1:0]    parent_i,
  input  wire logic [PageBits-1:0] page_i,
  input  wire logic [NodeW-1:0]    child_i,     // INSERT, SETCHILD
  input  wire logic [LenW-1:0]     len_i,       // INSERT, SETCHILD: the child's edge length
  input  wire logic [LocW-1:0]     loc_i,       // SETCHILD, DELETE

  output logic                     hit_o,       // LOOKUP: key present
  output logic      [NodeW-1:0]    child_o,     // LOOKUP: its child
  output logic      [LenW-1:0]     len_o,       // LOOKUP: the child's edge length
  output logic      [LocW-1:0]     loc_o,       // LOOKUP: where it is; INSERT: where it went
  output logic      [BucketW-1:0]  bucket_o,    // LOOKUP: the key's bucket
  output logic      [WayW:0]       free_ways_o, // LOOKUP: free ways in that bucket
  output logic      [StashW:0]     stash_free_o,
  output logic      [31:0]         used_o,      // live entries
  output logic                     overflow_o   // an INSERT found no room (caller bug)
);

  `COMMON_PARAM_CHECK(g_bad_buckets, HashBuckets >= 2 && (HashBuckets & (HashBuckets - 1)) == 0,
                      "radix_child_index: HashBuckets must be a power of two >= 2")
  `COMMON_PARAM_CHECK(g_bad_ways, HashWays >= 1 && HashWays <= 8, "radix_child_index: HashWays")
  `COMMON_PARAM_CHECK(g_bad_bw, BucketW >= 1, "radix_child_index: BucketW")
  `COMMON_PARAM_CHECK(g_bad_stash, StashDepth >= 1 && StashDepth <= 16,
                      "radix_child_index: StashDepth")

  // Entry layout: {valid, ns, parent, page, len, child}.
  localparam int EntryW = 1 + 8 + NodeW + PageBits + LenW + NodeW;
  localparam int KeyW   = 8 + NodeW + PageBits;
  localparam int RowW   = HashWays * EntryW;

  typedef enum logic [2:0] {X_IDLE, X_INIT, X_WAIT, X_SEL, X_WRITE} xstate_e;
  xstate_e state_q;

  logic [1:0]            op_q;
  logic [KeyW-1:0]       key_q;
  logic [NodeW-1:0]      child_q;
  logic [LenW-1:0]       len_q;
  logic [LocW-1:0]       loc_q;
  logic [BucketW-1:0]    bucket_q, init_q;
  logic [7:0]            wait_q;
  logic [31:0]           used_q;

  logic [StashDepth-1:0] st_valid_q;
  logic [KeyW-1:0]       st_key_q   [StashDepth];
  logic [NodeW-1:0]      st_child_q [StashDepth];
  logic [LenW-1:0]       st_len_q   [StashDepth];

  // ---------------------------------------------------------------- hash
  // XOR of rotated key words, an xorshift mix, then folded to BucketW bits.
  // No multiplier: the whole function is a few levels of XOR. (A function, as
  // Icarus 11 loops on always_comb blocks that write a variable twice.)
  function automatic logic [BucketW-1:0] bucket_of(input logic [7:0] ns,
                                                   input logic [NodeW-1:0] parent,
                                                   input logic [PageBits-1:0] page);
    logic [31:0] p32, t, acc, mix;
    p32 = 32'(parent);
    acc = 32'(ns) ^ ((p32 << 8) | (p32 >> 24));
    for (int i = 0; i < PageSize; i++) begin
      t   = page[32*i +: 32];
      acc = acc ^ ((t << ((5 * i + 16) % 32)) | (t >> (32 - (5 * i + 16) % 32)));
    end
    mix = acc ^ (acc >> 16);
    mix = mix ^ (mix << 7);
    mix = mix ^ (mix >> 11);
    bucket_of = '0;
    for (int s = 0; s < 32; s += BucketW) bucket_of = bucket_of ^ BucketW'(mix >> s);
  endfunction

  logic [BucketW-1:0] h_bucket;
  assign h_bucket = bucket_of(ns_i, parent_i, page_i);

  // ---------------------------------------------------------------- bucket RAM
  logic            ram_we, ram_re, accept;
  logic [BucketW-1:0] ram_waddr, ram_raddr, op_bucket;
  logic [RowW-1:0] ram_wdata, ram_rdata, row_q;

  radix_table #(
    .Width       (RowW),
    .Depth       (HashBuckets),
    .RamStyle    (RamStyle),
    .ReadLatency (RamLat),
    .L2          (L2),
    .Sets        (Sets),
    .Ways        (Ways),
    .TimeoutCycles (TimeoutCycles)
  ) u_buckets (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .adv_i, .base_i, .flush_i, .clear_i, .stall_o, .flush_done_o, .fault_o, .fault_kind_o,
    .cnt_o, .axi_req_o, .axi_rsp_i,
    .we_i    (ram_we),
    .waddr_i (ram_waddr),
    .wdata_i (ram_wdata),
    .re_i    (ram_re),
    .raddr_i (ram_raddr),
    .rdata_o (ram_rdata)
  );

  // ---------------------------------------------------------------- compare (RAM output)
  // The row leaves the RAM through its output register, so the compares run
  // on it directly and are registered with it.
  logic [HashWays-1:0]   way_hit, way_free, way_hit_q, way_free_q;
  logic [StashDepth-1:0] st_hit, st_hit_q;
  always_comb begin
    for (int w = 0; w < HashWays; w++) begin
      way_free[w] = !ram_rdata[w*EntryW + EntryW - 1];
      way_hit[w]  = ram_rdata[w*EntryW + EntryW - 1] &&
                    (ram_rdata[w*EntryW + LenW + NodeW +: KeyW] == key_q);
    end
    for (int s = 0; s < StashDepth; s++) begin
      st_hit[s] = st_valid_q[s] && (st_key_q[s] == key_q);
    end
  end

  // Lowest set bit of each vector, and counts.
  function automatic logic [4:0] lowest(input logic [15:0] v);
    lowest = '0;
    for (int i = 15; i >= 0; i--) if (v[i]) lowest = 5'(i);
  endfunction
  function automatic logic [4:0] count(input logic [15:0] v);
    count = '0;
    for (int i = 0; i < 16; i++) count = count + 5'(v[i]);
  endfunction

  logic               any_way_hit, any_way_free, any_st_hit, any_st_free;
  logic [WayW-1:0]    hit_way, free_way;
  logic [StashW-1:0]  hit_st, free_st;
  logic [WayW:0]      n_free_ways;
  logic [StashW:0]    n_st_free;
  logic [StashDepth-1:0] st_free;
  assign st_free      = ~st_valid_q;
  assign any_way_hit  = (way_hit_q != '0);
  assign any_way_free = (way_free_q != '0);
  assign any_st_hit   = (st_hit_q != '0);
  assign any_st_free  = (st_free != '0);
  assign hit_way      = WayW'(lowest(16'(way_hit_q)));
  assign free_way     = WayW'(lowest(16'(way_free_q)));
  assign hit_st       = StashW'(lowest(16'(st_hit_q)));
  assign free_st      = StashW'(lowest(16'(st_free)));
  assign n_free_ways  = (WayW + 1)'(count(16'(way_free_q)));
  assign n_st_free    = (StashW + 1)'(count(16'(st_free)));

  // The {len, child} fields of one way, selected without a multiply.
  function automatic logic [LenW+NodeW-1:0] way_child(input logic [RowW-1:0] row,
                                                      input logic [WayW-1:0] way);
    way_child = '0;
    for (int w = 0; w < HashWays; w++) begin
      if (WayW'(w) == way) way_child = row[w*EntryW +: LenW + NodeW];
    end
  endfunction

  function automatic logic [LocW-1:0] loc_bucket(input logic [BucketW-1:0] b,
                                                 input logic [WayW-1:0] w);
    loc_bucket = LocW'({b, w});
  endfunction
  function automatic logic [LocW-1:0] loc_stash(input logic [StashW-1:0] s);
    loc_stash = LocW'(s) | (LocW'(1) << (LocW - 1));
  endfunction

  logic            loc_in_stash;
  logic [WayW-1:0] loc_way;
  logic [StashW-1:0] loc_st;
  assign loc_in_stash = loc_q[LocW-1];
  assign loc_way      = loc_q[WayW-1:0];
  assign loc_st       = loc_q[StashW-1:0];

  // ---------------------------------------------------------------- control
  // The bucket row an INSERT, SETCHILD or DELETE writes back.
  function automatic logic [RowW-1:0] row_update(input logic [RowW-1:0] row,
                                                 input logic [1:0] op,
                                                 input logic [WayW-1:0] way,
                                                 input logic [EntryW-1:0] entry,
                                                 input logic [LenW+NodeW-1:0] child);
    // A loop over ways with constant offsets: EntryW is no power of two, and a
    // variable way * EntryW would be a runtime multiply on the write-data path.
    row_update = row;
    for (int w = 0; w < HashWays; w++) begin
      if (WayW'(w) == way) begin
        unique case (op)
          radix_pkg::IX_INSERT:   row_update[w*EntryW +: EntryW] = entry;
          radix_pkg::IX_SETCHILD: row_update[w*EntryW +: LenW + NodeW] = child;
          radix_pkg::IX_DELETE:   row_update[w*EntryW + EntryW - 1] = 1'b0;
          default: ;
        endcase
      end
    end
  endfunction

  // SETCHILD and DELETE address the bucket the entry lives in.
  assign accept    = (state_q == X_IDLE) && !init_i && op_valid_i;
  assign op_bucket = (op_i == radix_pkg::IX_SETCHILD || op_i == radix_pkg::IX_DELETE)
                     ? loc_i[WayW +: BucketW] : h_bucket;
  assign ram_re    = accept;
  assign ram_raddr = op_bucket;
  assign ram_we    = (state_q == X_INIT) ||
                     ((state_q == X_WRITE) &&
                      ((op_q == radix_pkg::IX_INSERT && any_way_free) ||
                       ((op_q == radix_pkg::IX_SETCHILD || op_q == radix_pkg::IX_DELETE) &&
                        !loc_in_stash)));
  assign ram_waddr = (state_q == X_INIT) ? init_q : bucket_q;
  assign ram_wdata = (state_q == X_INIT) ? '0
                   : row_update(row_q, op_q,
                                (op_q == radix_pkg::IX_INSERT) ? free_way : loc_way,
                                {1'b1, key_q, len_q, child_q}, {len_q, child_q});

  always_ff @(posedge clk_i) begin
    if (adv_i || !rst_ni) begin
      if (!rst_ni) begin
        state_q    <= X_IDLE;
        st_valid_q <= '0;
        used_q     <= '0;
        overflow_o <= 1'b0;
      end else begin
        overflow_o <= 1'b0;
        unique case (state_q)
          X_IDLE: begin
            if (init_i) begin
              state_q    <= X_INIT;
              init_q     <= '0;
              st_valid_q <= '0;
              used_q     <= '0;
            end else if (op_valid_i) begin
              op_q    <= op_i;
              key_q   <= {ns_i, parent_i, page_i};
              child_q <= child_i;
              len_q   <= len_i;
              loc_q   <= loc_i;
              bucket_q <= op_bucket;
              wait_q   <= 8'(RamLat - 1);
              state_q  <= X_WAIT;
            end
          end
          X_INIT: begin
            init_q <= init_q + 1'b1;
            if (init_q == BucketW'(HashBuckets - 1)) state_q <= X_IDLE;
          end
          X_WAIT: begin
            wait_q <= wait_q - 1'b1;
            if (wait_q == 8'd0) begin
              row_q      <= ram_rdata;
              way_hit_q  <= way_hit;
              way_free_q <= way_free;
              st_hit_q   <= st_hit;
              state_q    <= X_SEL;
            end
          end
          X_SEL: begin
            // Results of a LOOKUP, from the registered compare vectors. A LOOKUP
            // writes nothing, so it is done here.
            hit_o        <= any_way_hit || any_st_hit;
            {len_o, child_o} <= any_way_hit ? way_child(row_q, hit_way)
                                            : {st_len_q[hit_st], st_child_q[hit_st]};
            loc_o        <= any_way_hit ? loc_bucket(bucket_q, hit_way) : loc_stash(hit_st);
            bucket_o     <= bucket_q;
            free_ways_o  <= n_free_ways;
            if (op_q == radix_pkg::IX_LOOKUP) begin
              state_q <= X_IDLE;
            end else begin
              state_q <= X_WRITE;
            end
          end
          X_WRITE: begin
            unique case (op_q)
              radix_pkg::IX_INSERT: begin
                used_q <= used_q + 1'b1;
                if (any_way_free) begin
                  loc_o <= loc_bucket(bucket_q, free_way);
                end else if (any_st_free) begin
                  loc_o                <= loc_stash(free_st);
                  st_valid_q[free_st]  <= 1'b1;
                  st_key_q[free_st]    <= key_q;
                  st_child_q[free_st]  <= child_q;
                  st_len_q[free_st]    <= len_q;
                end else begin
                  overflow_o <= 1'b1;
                end
              end
              radix_pkg::IX_SETCHILD: if (loc_in_stash) begin
                st_child_q[loc_st] <= child_q;
                st_len_q[loc_st]   <= len_q;
              end
              radix_pkg::IX_DELETE: begin
                used_q <= used_q - 1'b1;
                if (loc_in_stash) st_valid_q[loc_st] <= 1'b0;
              end
              default: ;
            endcase
            state_q <= X_IDLE;
          end
          default: state_q <= X_IDLE;
        endcase
      end
    end
  end

  assign idle_o       = (state_q == X_IDLE) && !init_i;
  assign stash_free_o = n_st_free;
  assign used_o       = used_q;

`ifdef COMMON_ASSERT_ON
  // The timing contract in the header: the row is taken exactly RamLat advancing
  // cycles after the read was issued (a longer wait still answers right, but every
  // walk pays for it).
  logic [7:0] a_ticks_q;
  always_ff @(posedge clk_i) begin
    if (adv_i || !rst_ni) begin
      a_ticks_q <= (state_q == X_WAIT && a_ticks_q != 8'hff) ? a_ticks_q + 1'b1 : 8'd0;
      if (rst_ni && state_q == X_SEL && a_ticks_q != 8'(RamLat))
        $fatal(1, "radix_child_index: the bucket row was taken %0d cycles after its read, not %0d",
               a_ticks_q, RamLat);
      if (rst_ni && overflow_o) $fatal(1, "radix_child_index: INSERT without room");
      if (rst_ni && state_q == X_WRITE && op_q == radix_pkg::IX_INSERT && (any_way_hit || any_st_hit))
        $fatal(1, "radix_child_index: INSERT of a key that is present");
    end
  end
`endif

endmodule

`default_nettype wire
