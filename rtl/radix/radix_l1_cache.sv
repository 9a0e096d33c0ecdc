// SPDX-License-Identifier: Apache-2.0
// L1 cache of one radix table whose backing store is a DDR region (the L2 tier).
// Length: the miss engine, the tag lookup it shares with the core's port, and the
// AXI master that only the engine drives; split, each signal of the lookup would cross.
//
// To the core it looks like common_ram_sdp (one write port, one read port,
// read-first on collisions, data held until the next read replaces it), in
// *core time*: the core advances only in cycles with adv_i high, and every
// latency below counts those cycles ("ticks"). A miss freezes the core: the
// cache raises stall_o, which the core ORs with the other caches' stall_o into
// !adv_i, fills the line from DDR (after writing back a dirty victim) and
// drops stall_o. The core then continues as if the RAM had answered in time,
// so the controller's results do not depend on hits and misses.
//
// Pipeline (ReadLatency >= 2): tick k captures the access in a request
// register; during tick k+1 the request's set is looked up (tags in LUT RAM,
// read asynchronously) and a hit reads or writes the data array at the end
// of tick k+1; a miss sets stall_o at that edge. Read data is on rdata_o
// during tick k+ReadLatency.
//
// DDR layout: entry i of the table is EntryBytes = 2**ceil(log2(ceil(Width/8)))
// bytes at base_i + i*EntryBytes, little-endian, so a 64-byte line (one AXI
// beat of 512 bits) holds 64/EntryBytes entries.
//
// Policy: write-back, write-allocate; Ways-way set-associative with tree
// pseudo-LRU touched by read hits and fills (writes follow reads of the same
// entry in the controller, so reads carry the recency). One miss at a time;
// a dirty victim's write-back and the fill's read are in flight together.
//
// Requests besides reads and writes, sampled at a tick like an access:
//   flush_i  writes every dirty line back and marks it clean (lines stay
//            valid); flush_done_o pulses when the DDR image is complete;
//   clear_i  invalidates every line without write-back and clears a fault.
//
// Faults: an error response (SLVERR or DECERR) or no response within
// TimeoutCycles sets the sticky fault_o with fault_kind_o. The cache then
// releases stall_o, returns zeros for the faulting read, stops all DDR traffic
// (misses are not filled, read data is undefined, writes that miss are
// dropped) and waits for clear_i. A request still waiting for an address or
// data handshake keeps its valid until accepted (AXI requires it); responses
// are matched by ID, and the ID changes with every clear, so a late response to
// a timed-out request is dropped.
`default_nettype none

`include "common_macros.svh"

module radix_l1_cache #(
  // Bits per table entry, 1..512.
  parameter int Width         = 32,
  // Table entries (the DDR region holds Depth*EntryBytes bytes), power of two.
  parameter int Depth         = 4096,
  // Cache geometry: Sets (power of two, >= 2) x Ways (1, 2, 4 or 8) lines of 64 bytes.
  parameter int Sets          = 64,
  parameter int Ways          = 2,
  // Ticks from an access to its data on rdata_o, 2..4 (as common_ram_sdp).
  parameter int ReadLatency   = 2,
  // AXI ID width; the ID is an epoch counter (see Faults above).
  parameter int IdW           = 2,
  // Cycles a DDR request may wait for its response before the fault, >= 16.
  parameter int TimeoutCycles = 4096,
  // Next-line prefetch: on a miss of line m, lines m+1..m+PrefetchDepth are read into a
  // prefetch buffer of as many lines (0 = off, up to 7); see "Prefetch" above.
  parameter int PrefetchDepth = 0,
  // Address width; derived, do not override.
  parameter int AddrW         = $clog2(Depth)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // Byte address of entry 0 in DDR, 64-byte aligned; held stable while in use.
  input  wire logic [63:0]      base_i,

  // The core advances this cycle (no cache of the core stalls).
  input  wire logic             adv_i,

  // Table port: common_ram_sdp semantics, counted in ticks.
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o,

  input  wire logic             flush_i,
  input  wire logic             clear_i,
  output logic                  stall_o,
  output logic                  flush_done_o,
  output logic                  fault_o,
  output logic      [1:0]       fault_kind_o,   // 1 read error, 2 write error, 3 timeout

  // Event counters, wrapping.
  output logic      [31:0]      cnt_hit_o,      // accesses that hit
  output logic      [31:0]      cnt_miss_o,     // accesses that needed a fill
  output logic      [31:0]      cnt_wb_o,       // dirty lines written back
  output logic      [31:0]      cnt_rd_beat_o,  // DDR read beats
  output logic      [31:0]      cnt_wr_beat_o,  // DDR write beats
  output logic      [31:0]      cnt_stall_o,    // cycles stall_o was high
  output logic      [31:0]      cnt_pf_o,       // prefetch reads issued
  output logic      [31:0]      cnt_pf_useful_o,// misses served by a prefetched line

  // AXI4 master to the DDR region: one 64-byte beat per burst.
  output logic [IdW-1:0]        m_axi_awid,
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
  input  wire logic [IdW-1:0]   m_axi_bid,
  input  wire logic [1:0]       m_axi_bresp,
  input  wire logic             m_axi_bvalid,
  output logic                  m_axi_bready,
  output logic [IdW-1:0]        m_axi_arid,
  output logic [63:0]           m_axi_araddr,
  output logic [7:0]            m_axi_arlen,
  output logic [2:0]            m_axi_arsize,
  output logic [1:0]            m_axi_arburst,
  output logic                  m_axi_arvalid,
  input  wire logic             m_axi_arready,
  input  wire logic [IdW-1:0]   m_axi_rid,
  input  wire logic [511:0]     m_axi_rdata,
  input  wire logic [1:0]       m_axi_rresp,
  input  wire logic             m_axi_rlast,
  input  wire logic             m_axi_rvalid,
  output logic                  m_axi_rready
);

  localparam int EntryBytes = 1 << $clog2((Width + 7) / 8);
  localparam int EntryBits  = 8 * EntryBytes;
  localparam int Epl        = 64 / EntryBytes;                 // entries per line
  localparam int EplW       = $clog2(Epl);
  localparam int OffW       = (EplW > 0) ? EplW : 1;
  localparam int LineW      = AddrW - EplW;                    // line index bits
  localparam int SetW       = $clog2(Sets);
  localparam int TagW       = LineW - SetW;
  localparam int WayW       = (Ways > 1) ? $clog2(Ways) : 1;
  localparam int PlruW      = (Ways > 1) ? Ways - 1 : 1;
  localparam int Lines      = Sets * Ways;
  localparam int SlotW      = $clog2(Lines);
  localparam int ToW        = $clog2(TimeoutCycles + 1);

  `COMMON_PARAM_CHECK(g_bad_width, Width >= 1 && Width <= 512, "radix_l1_cache: Width 1..512")
  `COMMON_PARAM_CHECK(g_bad_depth, Depth == (1 << AddrW) && Depth >= 2 * Epl,
                      "radix_l1_cache: Depth must be a power of two of at least two lines")
  `COMMON_PARAM_CHECK(g_bad_sets, Sets >= 2 && Sets == (1 << SetW) && TagW >= 1,
                      "radix_l1_cache: Sets must be a power of two below the table's lines")
  `COMMON_PARAM_CHECK(g_bad_ways, Ways == 1 || Ways == 2 || Ways == 4 || Ways == 8,
                      "radix_l1_cache: Ways must be 1, 2, 4 or 8")
  `COMMON_PARAM_CHECK(g_bad_lat, ReadLatency >= 2 && ReadLatency <= 4,
                      "radix_l1_cache: ReadLatency must be 2..4")
  `COMMON_PARAM_CHECK(g_bad_id, IdW >= 1 && IdW <= 8, "radix_l1_cache: IdW must be 1..8")
  `COMMON_PARAM_CHECK(g_bad_pf, PrefetchDepth >= 0 && PrefetchDepth <= 7 &&
                      (PrefetchDepth == 0 || IdW >= 4),
                      "radix_l1_cache: PrefetchDepth 0..7, and IdW >= 4 to prefetch")
  `COMMON_PARAM_CHECK(g_bad_to, TimeoutCycles >= 16, "radix_l1_cache: TimeoutCycles >= 16")

  // ---------------------------------------------------------------- helpers
  function automatic logic [LineW-1:0] line_of(input logic [AddrW-1:0] a);
    line_of = LineW'(a >> EplW);
  endfunction
  function automatic logic [OffW-1:0] off_of(input logic [AddrW-1:0] a);
    off_of = (EplW == 0) ? '0 : OffW'(a & AddrW'(Epl - 1));
  endfunction
  function automatic logic [SlotW-1:0] slot_of(input logic [WayW-1:0] w,
                                               input logic [SetW-1:0] s);
    slot_of = SlotW'({w, s});
  endfunction
  // Tree pseudo-LRU over Ways leaves: node n's bit points at the half to evict next.
  function automatic logic [PlruW-1:0] plru_touch(input logic [PlruW-1:0] b,
                                                  input logic [WayW-1:0] w);
    logic [PlruW-1:0] r;
    int               n;
    r = b;
    n = 0;
    for (int lv = 0; lv < WayW; lv++) begin
      if (Ways > 1) begin
        r[n] = !w[WayW-1-lv];
        n    = 2 * n + 1 + int'(w[WayW-1-lv]);
      end
    end
    plru_touch = r;
  endfunction
  function automatic logic [WayW-1:0] plru_victim(input logic [PlruW-1:0] b);
    logic [WayW-1:0] w;
    int              n;
    w = '0;
    n = 0;
    for (int lv = 0; lv < WayW; lv++) begin
      if (Ways > 1) begin
        w[WayW-1-lv] = b[n];
        n            = 2 * n + 1 + int'(b[n]);
      end
    end
    plru_victim = w;
  endfunction

  // ---------------------------------------------------------------- DDR addresses
  // A line's byte address, base_i + 64 * line, as a carry-select add: the line covers
  // the low AddrLoW bits, so only those are added; the high bits are base_i's or base_i's
  // plus one, both registered, picked by the carry. A 64-bit add after the tag read or
  // the prefetch slot select was the cache's deepest path. base_i is static while the
  // cache is in use (the kernel refuses a moved region), and every address is formed at
  // least a Sets-cycle E_CLEAR sweep after reset, so the registered copies are current.
  localparam int AddrLoW = LineW + 6;
  logic [AddrLoW-1:0]    base_lo_q;
  logic [63-AddrLoW:0]   base_hi_q, base_hi1_q;
  always_ff @(posedge clk_i) begin
    base_lo_q  <= base_i[AddrLoW-1:0];
    base_hi_q  <= base_i[63:AddrLoW];
    base_hi1_q <= base_i[63:AddrLoW] + 1'b1;
  end
  function automatic logic [63:0] ddr_addr(input logic [LineW-1:0] line);
    logic [AddrLoW:0] lo;
    lo       = {1'b0, base_lo_q} + {1'b0, line, 6'b0};
    ddr_addr = {lo[AddrLoW] ? base_hi1_q : base_hi_q, lo[AddrLoW-1:0]};
  endfunction

  // ---------------------------------------------------------------- request register (tick k)
  logic             rq_re_q, rq_we_q, rq_flush_q, rq_clear_q;
  logic [AddrW-1:0] rq_raddr_q, rq_waddr_q;
  logic [Width-1:0] rq_wdata_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_re_q    <= 1'b0;
      rq_we_q    <= 1'b0;
      rq_flush_q <= 1'b0;
      rq_clear_q <= 1'b0;
      rq_raddr_q <= '0;
      rq_waddr_q <= '0;
      rq_wdata_q <= '0;
    end else if (adv_i) begin
      rq_re_q    <= re_i;
      rq_we_q    <= we_i;
      rq_flush_q <= flush_i;
      rq_clear_q <= clear_i;
      rq_raddr_q <= raddr_i;
      rq_waddr_q <= waddr_i;
      rq_wdata_q <= wdata_i;
    end
  end

  // ---------------------------------------------------------------- engine state
  typedef enum logic [2:0] {
    E_CLEAR, E_IDLE, E_LOOK, E_VRD, E_WAIT, E_FILL, E_FLUSH, E_FL_RD
  } eng_e;
  typedef enum logic [1:0] { J_READ, J_WRITE, J_FLUSH } job_e;

  eng_e             st_q;
  job_e             job_q;
  logic [LineW-1:0] job_line_q;       // the job's line (READ/WRITE)
  logic [OffW-1:0]  job_off_q;
  logic [Width-1:0] job_wdata_q;
  logic             pend_w_q, pend_fl_q;
  logic [AddrW-1:0] pend_waddr_q;
  logic [Width-1:0] pend_wdata_q;
  logic [WayW-1:0]  vway_q;           // victim way of the job
  logic [SetW:0]    sweep_q;          // CLEAR: set index; FLUSH uses fl_q
  logic [SlotW:0]   fl_q;             // FLUSH: next (way, set) slot
  // The engine's set (its job's line, or the flushed slot), kept as a flop written
  // with job_line_q and fl_q: it addresses the tag RAM, whose read feeds the hit
  // compare and the engine's next state, so a mux in front would add a level there.
  logic [SetW-1:0]  jset_q;
  logic             fault_q;
  logic [1:0]       fault_kind_q;
  // AXI ID = {tag, epoch}: tag 0 is the demand read (and every write), tag s+1 the
  // prefetch buffer's slot s; the tag has TgW bits at any depth, so the ID's layout
  // does not change with it. Without prefetch the whole ID is the epoch.
  localparam int TgW    = 3;
  localparam int TagIdW = (PrefetchDepth > 0) ? TgW : 0;
  localparam int EpW    = IdW - TagIdW;
  localparam int NPf    = (PrefetchDepth > 0) ? PrefetchDepth : 1;
  localparam int PfW    = (NPf > 1) ? $clog2(NPf) : 1;
  logic [EpW-1:0]   epoch_q;
  logic             ar_pend_q, r_wait_q, aw_pend_q, w_pend_q, b_wait_q;
  // The AR channel's register: a demand read or a prefetch, held until arready.
  logic             arv_q;
  logic [63:0]      ara_q;
  logic [TgW-1:0]   art_q;           // its tag
  logic [TgW-1:0]   r_tag_q;         // the tag the demand waits for (0 or a pending slot)
  logic [63:0]      araddr_q, awaddr_q;
  logic [511:0]     fill_q;
  logic [ToW-1:0]   to_q;
  logic             flush_done_q;

  assign stall_o = (st_q != E_IDLE);

  // ---------------------------------------------------------------- metadata (LUT RAM)
  // Per way: {valid, tag} per set; dirty bit per (way, set); PLRU bits per set.
  // (Per-way arrays, each with one write port, so each maps to LUT RAM.)
  logic [PlruW-1:0] plru_q  [Sets];
  localparam int TvW = TagW + 1;
  logic [Ways*TvW-1:0] r_tv, w_tv, j_tv;   // way w's {valid, tag} at [w*TvW +: TvW]
  // The tick's two tag reads are registers: each is read at the set its request
  // register will hold after the edge, with that edge's tag write forwarded, so the
  // hit compares start from flops. (The LUT RAM read was the first level of the
  // tick's hit -> next-state path in every cache.) An SVA holds them to the RAM.
  // Yosys folds such a register back onto the RAM's address (the request register),
  // so its estimate reads them combinationally; see docs/synthesis.md.
  logic [Ways*TvW-1:0] r_tv_q, w_tv_q;
  logic [SetW-1:0]     rset_d, wset_d;

  logic [LineW-1:0] rline, wline;
  logic [SetW-1:0]  rset, wset, jset;
  logic [SetW-1:0]  fl_next_set;
  logic [TagW-1:0]  rtag, wtag, jtag;
  logic [Ways-1:0]  r_hits, w_hits, j_hits, j_valid, j_dirty;
  logic [TagW-1:0]  j_tags [Ways];
  logic             r_hit, w_hit, j_hit;
  logic [WayW-1:0]  r_way, w_way, j_way, j_inv_way;
  logic             j_has_inv;
  logic [PlruW-1:0] r_plru, j_plru;

  // The engine's set: its job's line, or the flushed slot.
  logic [WayW-1:0] fl_way;
  assign fl_way = (Ways > 1) ? WayW'(fl_q >> SetW) : '0;
  assign jset = jset_q;
  assign fl_next_set = SetW'(fl_q + 1'b1);
  assign jtag = job_line_q[LineW-1:SetW];
  assign rline = line_of(rq_raddr_q);
  // The sets rq_raddr_q and rq_waddr_q take at the coming edge (request register above).
  assign rset_d = !rst_ni ? '0 : (adv_i ? SetW'(line_of(raddr_i)) : rset);
  assign wset_d = !rst_ni ? '0 : (adv_i ? SetW'(line_of(waddr_i)) : wset);
  assign r_tv   = r_tv_q;
  assign w_tv   = w_tv_q;
  assign wline = line_of(rq_waddr_q);
  assign rset  = rline[SetW-1:0];
  assign rtag  = rline[LineW-1:SetW];
  assign wset  = wline[SetW-1:0];
  assign wtag  = wline[LineW-1:SetW];

  // Each comb block only writes what it computes: Icarus 11 re-ran without end a lookup
  // block that read back the hit vectors it had just written.
  always_comb begin
    for (int w = 0; w < Ways; w++) begin
      r_hits[w]  = r_tv[w*TvW +: TvW] == {1'b1, rtag};
      w_hits[w]  = w_tv[w*TvW +: TvW] == {1'b1, wtag};
      j_hits[w]  = j_tv[w*TvW +: TvW] == {1'b1, jtag};
      j_valid[w] = j_tv[w*TvW + TagW];
      j_tags[w]  = j_tv[w*TvW +: TagW];
    end
  end

  // The way that matches (at most one does, SVA below), and the first invalid way.
  function automatic logic [WayW-1:0] way_of(input logic [Ways-1:0] hits);
    logic [WayW-1:0] r;
    r = '0;
    for (int w = 0; w < Ways; w++) begin
      if (hits[w]) r = r | WayW'(w);
    end
    way_of = r;
  endfunction
  function automatic logic [WayW-1:0] first_invalid(input logic [Ways-1:0] valid);
    logic [WayW-1:0] r;
    r = '0;
    for (int w = Ways - 1; w >= 0; w--) begin
      if (!valid[w]) r = WayW'(w);
    end
    first_invalid = r;
  endfunction

  assign r_way     = way_of(r_hits);
  assign w_way     = way_of(w_hits);
  assign j_way     = way_of(j_hits);
  assign j_inv_way = first_invalid(j_valid);
  assign j_has_inv = !(&j_valid);
  assign r_hit     = |r_hits;
  assign w_hit     = |w_hits;
  assign j_hit     = |j_hits;
  assign r_plru    = plru_q[rset];
  assign j_plru    = plru_q[jset];

  // ---------------------------------------------------------------- data array (block RAM)
  // Port A: the core's reads. Port B: the core's write hits, fills, and the
  // engine's reads of a victim or flushed line.
  logic [511:0]     data_q [Lines];
  logic [511:0]     ram_q, b_q;
  logic             a_en, b_we, b_re;
  logic [SlotW-1:0] a_slot, b_slot;
  logic [511:0]     b_wdata;
  logic [Epl-1:0]   b_mask;

  always_ff @(posedge clk_i) begin
    if (a_en) ram_q <= data_q[a_slot];
    if (b_re) b_q <= data_q[b_slot];
    for (int e = 0; e < Epl; e++) begin
      if (b_we && b_mask[e]) data_q[b_slot][e*EntryBits +: EntryBits] <=
          b_wdata[e*EntryBits +: EntryBits];
    end
  end

  // An entry spread over a line, and the mask of its place.
  function automatic logic [511:0] spread(input logic [Width-1:0] d);
    spread = {Epl{EntryBits'(d)}};
  endfunction
  function automatic logic [Epl-1:0] place(input logic [OffW-1:0] o);
    place = Epl'(1) << o;
  endfunction
  // A line with one entry replaced.
  function automatic logic [511:0] merge(input logic [511:0] l, input logic [OffW-1:0] o,
                                         input logic [Width-1:0] d);
    logic [511:0] r;
    r = l;
    for (int e = 0; e < Epl; e++) begin
      if (OffW'(e) == o) r[e*EntryBits +: EntryBits] = EntryBits'(d);
    end
    merge = r;
  endfunction

  logic tick_idle;   // a tick while the engine is idle: the request acts
  assign tick_idle = adv_i && st_q == E_IDLE;

  logic [Ways-1:0] v_fill_tags_eq;   // for the SVA: the filled tag elsewhere in the set
  always_comb begin
    a_en    = tick_idle && rq_re_q;
    a_slot  = slot_of(r_way, rset);
    b_we    = 1'b0;
    b_re    = 1'b0;
    b_slot  = slot_of(w_way, wset);
    b_wdata = spread(rq_wdata_q);
    b_mask  = place(off_of(rq_waddr_q));
    if (st_q == E_IDLE) begin
      b_we = tick_idle && rq_we_q && w_hit && !rq_clear_q;
    end else if (st_q == E_LOOK) begin
      b_slot  = j_hit ? slot_of(j_way, jset) : slot_of(j_has_inv ? j_inv_way
                                                        : plru_victim(j_plru), jset);
      b_wdata = spread(job_wdata_q);
      b_mask  = place(job_off_q);
      // A write job that hits (its line arrived with an earlier read job).
      b_we    = job_q == J_WRITE && j_hit;
      b_re    = !j_hit;
    end else if (st_q == E_FILL) begin
      b_slot  = slot_of(vway_q, jset);
      b_wdata = job_q == J_WRITE ? merge(fill_q, job_off_q, job_wdata_q) : fill_q;
      b_mask  = '1;
      b_we    = 1'b1;
    end else if (st_q == E_FLUSH) begin
      b_slot = fl_q[SlotW-1:0];
      b_re   = 1'b1;
    end
    for (int w = 0; w < Ways; w++) begin
      v_fill_tags_eq[w] = WayW'(w) != vway_q && j_tv[w*TvW +: TvW] == {1'b1, jtag};
    end
  end

  // ---------------------------------------------------------------- read data pipeline
  logic             patch_v_q;
  logic [511:0]     patch_q;
  logic [OffW-1:0]  off1_q;
  logic [511:0]     line1;
  logic [Width-1:0] sel1;

  assign line1 = patch_v_q ? patch_q : ram_q;
  always_comb begin
    sel1 = '0;
    for (int e = 0; e < Epl; e++) begin
      if (OffW'(e) == off1_q) sel1 = line1[e*EntryBits +: Width];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      off1_q <= '0;
    end else if (a_en) begin
      off1_q <= off_of(rq_raddr_q);
    end
  end

  if (ReadLatency == 2) begin : g_lat2
    assign rdata_o = sel1;
  end else begin : g_latn
    localparam int PipeW = (ReadLatency - 2) * Width;
    logic [PipeW-1:0] pipe_q;
    if (ReadLatency == 3) begin : g_three
      always_ff @(posedge clk_i) if (adv_i) pipe_q <= sel1;
    end else begin : g_more
      always_ff @(posedge clk_i) if (adv_i) pipe_q <= {pipe_q[PipeW-Width-1:0], sel1};
    end
    assign rdata_o = pipe_q[PipeW-1 -: Width];
  end

  // ---------------------------------------------------------------- prefetch buffer
  // A stream buffer of NPf lines beside the cache (PrefetchDepth > 0). A miss of line m
  // that the buffer holds takes the line from it: at once if it has arrived, else when
  // its read does. Either way the slot at once fetches the line after the window, so
  // the window keeps its size. When the miss waits, the slot's new read shares the ID
  // of the read the miss waits on and answers after it (AXI keeps one ID's responses
  // in order): pf_dem_q marks that the slot's next response is the miss's. (The one
  // exception: a read whose AR has not left yet cannot be given away, so the slot
  // stays with the miss and is freed when it answers; the window shrinks by one. So
  // does a slot with PfOutAlloc reads in flight, which takes no new line at all.)
  // A miss that the buffer does not hold restarts the
  // window at m+1..m+PrefetchDepth. The buffer
  // never answers a line the cache holds (the cache is looked up first), so its copy
  // can be stale only while the cache holds the line dirty; the write-back of a line
  // (eviction or flush) drops its slot, and a window never starts at the line being
  // written back. A dropped slot whose read is in flight discards that response (same
  // ID, so it comes first: AXI keeps one ID's responses in order). A slot's reads in
  // flight answer in this order: pf_drop_q dropped ones, the miss's (pf_dem_q), its own.
  logic [NPf-1:0]   pf_v_q, pf_p_q, pf_ar_q;   // data held; read wanted or in flight; AR to send
  logic [NPf-1:0]   pf_dem_q;                  // the next kept response is the waiting miss's
  logic [NPf-1:0]   pf_own_rsp, pf_dq_rsp;     // a kept response: the slot's own; the miss's
  logic [LineW-1:0] pf_line_q [NPf];
  logic [511:0]     pf_data_q [NPf];
  logic [2:0]       pf_out_q  [NPf];          // reads in flight
  logic [2:0]       pf_drop_q [NPf];          // of which dropped
  // A slot allocates only below PfOutAlloc reads in flight: at most one more AR waits
  // (pf_ar_q) and the new one follows, so pf_out_q never passes PfOutMax (3 bits).
  localparam logic [2:0] PfOutMax   = 3'd6;
  localparam logic [2:0] PfOutAlloc = PfOutMax - 3'd1;
  logic [NPf-1:0]   pf_full;                  // no new line for the slot (see alloc)
  logic [LineW:0]   pf_next_q;                // the line after the window
  logic [NPf-1:0]   pf_hit_v, pf_hit_p, pf_rsp, pf_dem_rsp, pf_issue;
  logic [TgW-1:0]   rid_tag;
  logic [EpW-1:0]   rid_ep;
  logic             pf_on;
  assign pf_on   = PrefetchDepth > 0;
  assign rid_tag = (TagIdW > 0) ? TgW'(m_axi_rid >> EpW) : '0;
  assign rid_ep  = EpW'(m_axi_rid);

  // Which slot a job's line is in (at most one: a window holds distinct lines).
  function automatic logic [TgW-1:0] first_of(input logic [NPf-1:0] v);
    first_of = '0;
    for (int i = NPf - 1; i >= 0; i--) if (v[i]) first_of = TgW'(i);
  endfunction
  // E_VRD's line compares and window lines, registered in E_LOOK (which always comes
  // right before it): neither the slots' lines nor the job's line change in between (a
  // slot's line changes only in E_VRD), so E_VRD's decisions start from registers.
  logic [NPf-1:0]   pf_match_q;            // slot t holds (or is reading) the job's line
  logic [LineW:0]   pf_cand_q [NPf];       // job line + t + 1: slot t's line on a restart
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pf_match_q <= '0;
    end else if (st_q == E_LOOK) begin
      for (int t = 0; t < NPf; t++) begin
        pf_match_q[t] <= pf_line_q[t] == job_line_q;
        pf_cand_q[t]  <= (LineW + 1)'(job_line_q) + (LineW + 1)'(t + 1);
      end
    end
  end
  for (genvar t = 0; t < NPf; t++) begin : g_pfm
    // Used in E_VRD only.
    assign pf_hit_v[t] = pf_on && pf_v_q[t] && pf_match_q[t];
    assign pf_hit_p[t] = pf_on && pf_p_q[t] && pf_match_q[t];
    // A response for slot t this cycle (this epoch); the demand's when it waits on t
    // and no older, dropped read of t is still ahead of it.
    assign pf_rsp[t]     = pf_on && m_axi_rvalid && rid_ep == epoch_q && rid_tag == TgW'(t + 1) &&
                           pf_out_q[t] != 3'd0;
    assign pf_dem_rsp[t] = pf_rsp[t] && r_wait_q && r_tag_q == TgW'(t + 1) &&
                           pf_drop_q[t] == 3'd0;
    assign pf_dq_rsp[t]  = pf_rsp[t] && pf_drop_q[t] == 3'd0 && pf_dem_q[t];
    assign pf_own_rsp[t] = pf_rsp[t] && pf_drop_q[t] == 3'd0 && !pf_dem_q[t];
    assign pf_issue[t]   = (!arv_q || m_axi_arready) && !ar_pend_q && pf_ar_q[t] &&
                           first_of(pf_ar_q) == TgW'(t);
    assign pf_full[t]    = pf_out_q[t] >= PfOutAlloc;
  end
  logic             pf_any_v, pf_any_p, pf_now, pf_use, pf_wait, pf_restart;
  logic [TgW-1:0]   pf_hv_s, pf_hp_s, pf_use_s;
  assign pf_any_v = |pf_hit_v;
  assign pf_any_p = |pf_hit_p;
  assign pf_hv_s  = first_of(pf_hit_v);
  assign pf_hp_s  = first_of(pf_hit_p);
  // A miss (in E_VRD) takes its line from a slot that holds it or whose read answers in
  // this very cycle, waits for a slot whose read is on its way, or reads DDR and
  // restarts the window (also when the slot's read answers with an error).
  assign pf_now     = pf_any_p && pf_own_rsp[PfW'(pf_hp_s)];
  assign pf_use     = pf_any_v || (pf_now && !m_axi_rresp[1]);
  assign pf_use_s   = pf_any_v ? pf_hv_s : pf_hp_s;
  assign pf_wait    = !pf_any_v && pf_any_p && !pf_now;
  assign pf_restart = !pf_use && !pf_wait;
  // A miss that waits (this cycle, in E_VRD) gives its slot a new line unless the
  // slot's AR is still to be sent. (Both are also what the testbench's coverage reads.)
  logic             pf_wait_now, pf_refill;
  assign pf_wait_now = pf_wait && st_q == E_VRD;
  // (nor when the slot is full: it then stays with the miss, as when its AR waits)
  assign pf_refill   = pf_wait_now && (!pf_ar_q[PfW'(pf_hp_s)] || pf_issue[PfW'(pf_hp_s)]) &&
                       !pf_full[PfW'(pf_hp_s)];

  // ---------------------------------------------------------------- engine
  logic r_ok, b_ok;   // an expected response of this epoch arrives this cycle
  // The demand's response: tag 0, or the pending slot it waits on.
  assign r_ok = (m_axi_rvalid && r_wait_q && r_tag_q == '0 && rid_tag == '0 &&
                 rid_ep == epoch_q) || |pf_dem_rsp;
  assign b_ok = m_axi_bvalid && b_wait_q && m_axi_bid == IdW'(epoch_q);

  logic [LineW-1:0] v_line;   // the victim's line index
  assign v_line = {j_tags[vway_q], jset};

  // CLEAR ends once no request waits for a handshake and, unless the cache faulted
  // (a hung read may never answer), every prefetch read has answered: then the DDR
  // model's count of reads and the read beats agree after a clear.
  logic pf_idle, clr_exit;
  always_comb begin
    pf_idle = 1'b1;
    for (int t = 0; t < NPf; t++) if (pf_out_q[t] != 3'd0) pf_idle = 1'b0;
  end
  assign clr_exit = st_q == E_CLEAR && sweep_q >= (SetW + 1)'(Sets - 1) && !ar_pend_q &&
                    !arv_q && !aw_pend_q && !w_pend_q && (pf_idle || fault_q);

  // Prefetch slots (see "prefetch buffer").
  logic             wb_now;        // a line is written back from this cycle: drop its slot
  logic [LineW-1:0] wb_line;
  assign wb_now  = (st_q == E_VRD && j_valid[vway_q] && j_dirty[vway_q]) || st_q == E_FL_RD;
  assign wb_line = (st_q == E_FL_RD) ? {j_tags[fl_way], jset} : v_line;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pf_v_q    <= '0;
      pf_p_q    <= '0;
      pf_ar_q   <= '0;
      pf_dem_q  <= '0;
      pf_next_q <= '0;
      for (int t = 0; t < NPf; t++) begin
        pf_out_q[t]  <= '0;
        pf_drop_q[t] <= '0;
      end
    end else begin
      for (int t = 0; t < NPf; t++) begin
        logic       in_flight, kill, alloc;
        logic [2:0] out, drop;
        logic [LineW:0] line;
        out  = pf_out_q[t] + 3'(pf_issue[t]) - 3'(pf_rsp[t]);
        drop = pf_drop_q[t] - 3'(pf_rsp[t] && pf_drop_q[t] != 3'd0);
        // The slot's own read, issued (or issuing now) and not answered after this cycle.
        in_flight = pf_p_q[t] && (!pf_ar_q[t] || pf_issue[t]) && !pf_own_rsp[t];
        if (pf_issue[t]) pf_ar_q[t] <= 1'b0;
        if (pf_dq_rsp[t]) pf_dem_q[t] <= 1'b0;
        if (pf_own_rsp[t]) begin
          pf_p_q[t] <= 1'b0;
          if (!pf_dem_rsp[t] && !m_axi_rresp[1] && st_q != E_CLEAR &&
              !(st_q == E_VRD && pf_use && pf_use_s == TgW'(t))) begin
            pf_v_q[t]    <= 1'b1;
            pf_data_q[t] <= m_axi_rdata;
          end
        end
        // Drop the slot: a restarted window, a write-back of its line, a clear.
        kill  = st_q == E_CLEAR ||
                (st_q == E_VRD && pf_restart) ||
                (wb_now && (pf_v_q[t] || pf_p_q[t]) && pf_line_q[t] == wb_line);
        alloc = 1'b0;
        line  = '0;
        if (pf_on && st_q == E_VRD) begin
          if (pf_restart && t < PrefetchDepth) begin
            alloc = 1'b1;
            line  = pf_cand_q[t];
          end else if (pf_use && pf_use_s == TgW'(t)) begin
            alloc = 1'b1;
            line  = pf_next_q;
            pf_v_q[t] <= 1'b0;   // taken by the miss
          end else if (pf_refill && pf_hp_s == TgW'(t)) begin
            alloc = 1'b1;        // the read in flight becomes the miss's
            line  = pf_next_q;
          end
          // Past the table, or the victim being written back: no prefetch. Nor on a
          // slot with PfOutMax reads in flight: a read DDR answers very late (its ID
          // keeps later ones behind it) while restarts reuse the slot would otherwise
          // overflow the count; the window runs a line short until they answer.
          if (line[LineW] || (j_valid[vway_q] && j_dirty[vway_q] && line[LineW-1:0] == v_line) ||
              pf_full[t])
            alloc = 1'b0;
        end
        if (kill) begin
          pf_v_q[t]   <= 1'b0;
          pf_p_q[t]   <= 1'b0;
          pf_ar_q[t]  <= 1'b0;
          pf_dem_q[t] <= 1'b0;
          // Every read still in flight is now older than any the slot issues next.
          drop = drop + 3'(in_flight) + 3'(pf_dem_q[t] && !pf_dq_rsp[t]);
        end
        if (alloc) begin
          pf_p_q[t]    <= 1'b1;
          pf_ar_q[t]   <= 1'b1;
          pf_line_q[t] <= line[LineW-1:0];
          if (pf_refill) pf_dem_q[t] <= 1'b1;
        end
        if (clr_exit && fault_q) begin
          // The epoch moves on: this epoch's late answers no longer match.
          out  = '0;
          drop = '0;
          pf_dem_q[t] <= 1'b0;
        end
        pf_out_q[t]  <= out;
        pf_drop_q[t] <= drop;
      end
      if (pf_on && st_q == E_VRD) begin
        if (pf_restart) begin
          pf_next_q <= (LineW + 1)'(job_line_q) + (LineW + 1)'(PrefetchDepth + 1);
        end else if ((pf_use || pf_refill) && !pf_next_q[LineW]) begin
          pf_next_q <= pf_next_q + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q         <= E_CLEAR;
      job_q        <= J_READ;
      job_line_q   <= '0;
      job_off_q    <= '0;
      job_wdata_q  <= '0;
      pend_w_q     <= 1'b0;
      pend_fl_q    <= 1'b0;
      pend_waddr_q <= '0;
      pend_wdata_q <= '0;
      vway_q       <= '0;
      sweep_q      <= '0;
      fl_q         <= '0;
      jset_q       <= '0;
      fault_q      <= 1'b0;
      fault_kind_q <= '0;
      epoch_q      <= '0;
      ar_pend_q    <= 1'b0;
      arv_q        <= 1'b0;
      ara_q        <= '0;
      art_q        <= '0;
      r_tag_q      <= '0;
      r_wait_q     <= 1'b0;
      aw_pend_q    <= 1'b0;
      w_pend_q     <= 1'b0;
      b_wait_q     <= 1'b0;
      araddr_q     <= '0;
      awaddr_q     <= '0;
      fill_q       <= '0;
      to_q         <= '0;
      flush_done_q <= 1'b0;
      patch_v_q    <= 1'b0;
      patch_q      <= '0;
    end else begin
      flush_done_q <= 1'b0;
      // Handshakes complete whatever the state: a valid, once raised, stays up. The AR
      // register takes the demand read first, then a prefetch.
      if (!arv_q || m_axi_arready) begin
        if (ar_pend_q) begin
          arv_q     <= 1'b1;
          ara_q     <= araddr_q;
          art_q     <= '0;
          ar_pend_q <= 1'b0;
        end else if (|pf_issue) begin
          arv_q <= 1'b1;
          ara_q <= ddr_addr(pf_line_q[PfW'(first_of(pf_ar_q))]);
          art_q <= first_of(pf_ar_q) + TgW'(1);
        end else begin
          arv_q <= 1'b0;
        end
      end
      if (m_axi_awvalid && m_axi_awready) aw_pend_q <= 1'b0;
      if (m_axi_wvalid && m_axi_wready) w_pend_q <= 1'b0;
      if (r_ok) begin
        r_wait_q <= 1'b0;
        fill_q   <= m_axi_rdata;
      end
      if (b_ok) b_wait_q <= 1'b0;

      unique case (st_q)
        E_CLEAR: begin
          sweep_q <= sweep_q + 1'b1;
          if (sweep_q >= (SetW + 1)'(Sets - 1)) begin
            sweep_q <= sweep_q;
          end
          // The next epoch starts once no old request waits for a handshake.
          if (clr_exit) begin
            st_q       <= E_IDLE;
            sweep_q    <= '0;
            fault_q    <= 1'b0;
            fault_kind_q <= '0;
            epoch_q    <= epoch_q + 1'b1;
          end
        end

        E_IDLE: begin
          if (tick_idle) begin
            if (rq_re_q) patch_v_q <= 1'b0;
            if (rq_clear_q) begin
              st_q <= E_CLEAR;
            end else if (!fault_q) begin
              pend_w_q     <= 1'b0;
              pend_waddr_q <= rq_waddr_q;
              pend_wdata_q <= rq_wdata_q;
              pend_fl_q    <= rq_flush_q;
              if (rq_re_q && !r_hit) begin
                st_q       <= E_LOOK;
                job_q      <= J_READ;
                job_line_q <= line_of(rq_raddr_q);
                jset_q     <= rset;
                job_off_q  <= off_of(rq_raddr_q);
                // A write in the same tick waits behind the read (read-first).
                pend_w_q   <= rq_we_q && !w_hit;
              end else if (rq_we_q && !w_hit) begin
                st_q        <= E_LOOK;
                job_q       <= J_WRITE;
                job_line_q  <= line_of(rq_waddr_q);
                jset_q      <= wset;
                job_off_q   <= off_of(rq_waddr_q);
                job_wdata_q <= rq_wdata_q;
              end else if (rq_flush_q) begin
                st_q      <= E_FLUSH;
                job_q     <= J_FLUSH;
                fl_q      <= '0;
                jset_q    <= '0;
                pend_fl_q <= 1'b0;
              end
            end else if (rq_flush_q) begin
              flush_done_q <= 1'b1;   // nothing can be written back after a fault
            end
          end
        end

        E_LOOK: begin
          if (j_hit) begin
            // Only a write job after a read job of the same line; written above.
            st_q <= E_IDLE;
            if (pend_fl_q) begin
              st_q      <= E_FLUSH;
              job_q     <= J_FLUSH;
              fl_q      <= '0;
              jset_q    <= '0;
              pend_fl_q <= 1'b0;
            end
          end else begin
            vway_q <= j_has_inv ? j_inv_way : plru_victim(j_plru);
            st_q   <= E_VRD;
          end
        end

        E_VRD: begin
          // b_q holds the victim line now; it stays there until the next port-B read.
          // The line comes from the prefetch buffer if it holds it, else from DDR.
          araddr_q  <= ddr_addr(job_line_q);
          r_tag_q   <= '0;
          if (pf_any_v) begin
            fill_q <= pf_data_q[PfW'(pf_hv_s)];
          end else if (pf_use) begin
            fill_q <= m_axi_rdata;
          end else if (pf_wait) begin
            r_wait_q <= 1'b1;
            r_tag_q  <= pf_hp_s + TgW'(1);
          end else begin
            ar_pend_q <= 1'b1;
            r_wait_q  <= 1'b1;
          end
          if (j_valid[vway_q] && j_dirty[vway_q]) begin
            awaddr_q  <= ddr_addr(v_line);
            aw_pend_q <= 1'b1;
            w_pend_q  <= 1'b1;
            b_wait_q  <= 1'b1;
          end
          to_q <= '0;
          st_q <= E_WAIT;
        end

        E_FL_RD: begin
          awaddr_q  <= ddr_addr({j_tags[fl_way], jset});
          aw_pend_q <= 1'b1;
          w_pend_q  <= 1'b1;
          b_wait_q  <= 1'b1;
          to_q      <= '0;
          st_q      <= E_WAIT;
        end

        E_WAIT: begin
          to_q <= to_q + 1'b1;
          if (r_ok && m_axi_rresp[1]) begin
            fault_q      <= 1'b1;
            fault_kind_q <= 2'd1;
          end else if (b_ok && m_axi_bresp[1]) begin
            fault_q      <= 1'b1;
            fault_kind_q <= 2'd2;
          end else if (to_q == ToW'(TimeoutCycles)) begin
            fault_q      <= 1'b1;
            fault_kind_q <= 2'd3;
          end else if (!ar_pend_q && !(arv_q && art_q == '0) && !aw_pend_q && !w_pend_q &&
                       !(r_wait_q && !r_ok) && !(b_wait_q && !b_ok)) begin
            st_q <= (job_q == J_FLUSH) ? E_FLUSH : E_FILL;
            if (job_q == J_FLUSH) begin
              fl_q   <= fl_q + 1'b1;
              jset_q <= fl_next_set;
            end
          end
          if ((r_ok && m_axi_rresp[1]) ||
              (b_ok && m_axi_bresp[1]) ||
              to_q == ToW'(TimeoutCycles)) begin
            // Give up: free the core, drop queued work, answer a waiting flush.
            st_q      <= E_IDLE;
            r_wait_q  <= 1'b0;
            b_wait_q  <= 1'b0;
            pend_w_q  <= 1'b0;
            pend_fl_q <= 1'b0;
            if (job_q == J_READ) begin
              patch_v_q <= 1'b1;
              patch_q   <= '0;
            end
            if (job_q == J_FLUSH || pend_fl_q) flush_done_q <= 1'b1;
          end
        end

        E_FILL: begin
          if (job_q == J_READ) begin
            patch_v_q <= 1'b1;
            patch_q   <= fill_q;
          end
          st_q <= E_IDLE;
          if (pend_w_q) begin
            st_q        <= E_LOOK;
            job_q       <= J_WRITE;
            job_line_q  <= line_of(pend_waddr_q);
            jset_q      <= SetW'(line_of(pend_waddr_q));
            job_off_q   <= off_of(pend_waddr_q);
            job_wdata_q <= pend_wdata_q;
            pend_w_q    <= 1'b0;
          end else if (pend_fl_q) begin
            st_q      <= E_FLUSH;
            job_q     <= J_FLUSH;
            fl_q      <= '0;
            jset_q    <= '0;
            pend_fl_q <= 1'b0;
          end
        end

        E_FLUSH: begin
          if (fl_q == (SlotW + 1)'(Lines)) begin
            st_q         <= E_IDLE;
            flush_done_q <= 1'b1;
          end else if (j_valid[fl_way] && j_dirty[fl_way]) begin
            st_q <= E_FL_RD;   // port B reads the line this cycle
          end else begin
            fl_q   <= fl_q + 1'b1;
            jset_q <= fl_next_set;
          end
        end

        default: st_q <= E_IDLE;
      endcase
    end
  end

  // Metadata writes: one writer per cycle (ticks write hits, the engine the rest).
  logic [Ways-1:0] tw_en, dw_en;
  logic [SetW-1:0] tw_set, dw_set;
  logic [TagW:0]   tw_data;
  logic            dw_data;
  always_comb begin
    tw_en   = '0;
    tw_set  = jset;
    tw_data = {1'b1, jtag};
    dw_en   = '0;
    dw_set  = jset;
    dw_data = 1'b0;
    if (st_q == E_CLEAR) begin
      tw_en   = '1;
      tw_set  = sweep_q[SetW-1:0];
      tw_data = '0;
      dw_en   = '1;
      dw_set  = sweep_q[SetW-1:0];
    end else if (tick_idle && !rq_clear_q) begin
      dw_en   = (rq_we_q && w_hit) ? Ways'(1) << w_way : '0;
      dw_set  = wset;
      dw_data = 1'b1;
    end else if (st_q == E_LOOK && job_q == J_WRITE && j_hit) begin
      dw_en   = Ways'(1) << j_way;
      dw_data = 1'b1;
    end else if (st_q == E_FILL) begin
      tw_en   = Ways'(1) << vway_q;
      dw_en   = Ways'(1) << vway_q;
      dw_data = job_q == J_WRITE;
    end else if (st_q == E_WAIT && job_q == J_FLUSH && b_ok && !m_axi_bresp[1]) begin
      dw_en   = Ways'(1) << fl_way;
    end
  end

  for (genvar w = 0; w < Ways; w++) begin : g_way
    logic [TagW:0] tag_mem [Sets];
    logic          dirty_mem [Sets];
    always_ff @(posedge clk_i) begin
      if (tw_en[w]) tag_mem[tw_set] <= tw_data;
      if (dw_en[w]) dirty_mem[dw_set] <= dw_data;
    end
    always_ff @(posedge clk_i) begin
      r_tv_q[w*TvW +: TvW] <= (tw_en[w] && tw_set == rset_d) ? tw_data : tag_mem[rset_d];
      w_tv_q[w*TvW +: TvW] <= (tw_en[w] && tw_set == wset_d) ? tw_data : tag_mem[wset_d];
    end
`ifdef COMMON_ASSERT_ON
    // Until the clear sweep has passed a set its RAM word is undefined.
    always_ff @(posedge clk_i) begin
      if (rst_ni && st_q != E_CLEAR && (r_tv_q[w*TvW +: TvW] != tag_mem[rset] ||
                                        w_tv_q[w*TvW +: TvW] != tag_mem[wset]))
        $fatal(1, "radix_l1_cache: a registered tag read differs from the tag RAM");
    end
`endif
    always_comb begin
      j_tv[w*TvW +: TvW] = tag_mem[jset];
      j_dirty[w] = dirty_mem[jset];
    end
  end

  always_ff @(posedge clk_i) begin
    if (st_q == E_CLEAR) begin
      plru_q[sweep_q[SetW-1:0]] <= '0;
    end else if (tick_idle && !rq_clear_q) begin
      if (rq_re_q && r_hit) plru_q[rset] <= plru_touch(r_plru, r_way);
    end else if (st_q == E_FILL) begin
      plru_q[jset] <= plru_touch(j_plru, vway_q);
    end
  end

  // ---------------------------------------------------------------- AXI
  assign m_axi_arid    = IdW'({art_q, epoch_q});
  assign m_axi_araddr  = ara_q;
  assign m_axi_arlen   = 8'd0;
  assign m_axi_arsize  = 3'd6;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arvalid = arv_q;
  assign m_axi_rready  = 1'b1;
  assign m_axi_awid    = IdW'(epoch_q);
  assign m_axi_awaddr  = awaddr_q;
  assign m_axi_awlen   = 8'd0;
  assign m_axi_awsize  = 3'd6;
  assign m_axi_awburst = 2'b01;
  assign m_axi_awvalid = aw_pend_q;
  assign m_axi_wdata   = b_q;
  assign m_axi_wstrb   = '1;
  assign m_axi_wlast   = 1'b1;
  assign m_axi_wvalid  = w_pend_q;
  assign m_axi_bready  = 1'b1;

  assign flush_done_o = flush_done_q;
  assign fault_o      = fault_q;
  assign fault_kind_o = fault_kind_q;

  // ---------------------------------------------------------------- counters
  logic [31:0] c_hit_q, c_miss_q, c_wb_q, c_rd_q, c_wr_q, c_stall_q, c_pf_q, c_pfu_q;
  logic        rd_beat;   // a read beat of this epoch that a request waits for
  logic        hit_one, hit_two, tick_rhit, tick_whit;
  assign tick_rhit = tick_idle && !rq_clear_q && rq_re_q && r_hit;
  assign tick_whit = tick_idle && !rq_clear_q && rq_we_q && w_hit;
  assign hit_two   = tick_rhit && tick_whit;
  assign hit_one   = (tick_rhit ^ tick_whit) || (st_q == E_LOOK && j_hit);
  assign rd_beat = (m_axi_rvalid && r_wait_q && r_tag_q == '0 && rid_tag == '0 &&
                    rid_ep == epoch_q) || |pf_rsp;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      c_hit_q   <= '0;
      c_miss_q  <= '0;
      c_wb_q    <= '0;
      c_rd_q    <= '0;
      c_wr_q    <= '0;
      c_stall_q <= '0;
      c_pf_q    <= '0;
      c_pfu_q   <= '0;
    end else begin
      if (|pf_issue && !ar_pend_q && (!arv_q || m_axi_arready)) c_pf_q <= c_pf_q + 1'b1;
      if (st_q == E_VRD && (pf_use || pf_wait)) c_pfu_q <= c_pfu_q + 1'b1;
      // Adds from the register, picked by the hit logic: the tag compares do not feed
      // a carry chain. The E_LOOK hit is a write whose line a read of the same tick
      // filled.
      if (hit_two) begin
        c_hit_q <= c_hit_q + 32'd2;
      end else if (hit_one) begin
        c_hit_q <= c_hit_q + 32'd1;
      end
      if (st_q == E_LOOK && !j_hit) c_miss_q <= c_miss_q + 1'b1;
      if (m_axi_awvalid && m_axi_awready) c_wb_q <= c_wb_q + 1'b1;
      if (rd_beat) c_rd_q <= c_rd_q + 1'b1;
      if (m_axi_wvalid && m_axi_wready) c_wr_q <= c_wr_q + 1'b1;
      if (stall_o) c_stall_q <= c_stall_q + 1'b1;
    end
  end
  assign cnt_hit_o     = c_hit_q;
  assign cnt_miss_o    = c_miss_q;
  assign cnt_wb_o      = c_wb_q;
  assign cnt_rd_beat_o = c_rd_q;
  assign cnt_wr_beat_o = c_wr_q;
  assign cnt_stall_o   = c_stall_q;
  assign cnt_pf_o        = c_pf_q;
  assign cnt_pf_useful_o = c_pfu_q;

  // rlast is 1 on every beat (single-beat bursts); nothing to check it against.
  logic unused;
  assign unused = ^{m_axi_rlast, m_axi_rresp[0], m_axi_bresp[0], v_fill_tags_eq};

`ifdef COMMON_ASSERT_ON
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (adv_i && stall_o) $fatal(1, "radix_l1_cache: the core advanced during a stall");
      if (base_i[5:0] != '0) $fatal(1, "radix_l1_cache: base_i is not 64-byte aligned");
      if (jset_q != ((job_q == J_FLUSH) ? fl_q[SetW-1:0] : job_line_q[SetW-1:0]))
        $fatal(1, "radix_l1_cache: the engine's set register is out of step");
      if (st_q != E_CLEAR && $countones(r_hits) > 1)
        $fatal(1, "radix_l1_cache: a line is cached in two ways (read set)");
      if (st_q != E_CLEAR && $countones(w_hits) > 1)
        $fatal(1, "radix_l1_cache: a line is cached in two ways (write set)");
      for (int t = 0; t < NPf; t++) begin
        if (pf_out_q[t] > PfOutMax || pf_drop_q[t] > pf_out_q[t])
          $fatal(1, "radix_l1_cache: prefetch slot %0d read count out of range", t);
        // Reads in flight on a slot: the dropped ones, the miss's, the slot's own.
        if (!fault_q && pf_out_q[t] != pf_drop_q[t] + 3'(pf_dem_q[t]) +
                                      3'(pf_p_q[t] && !pf_ar_q[t]))
          $fatal(1, "radix_l1_cache: prefetch slot %0d has %0d reads in flight, expected %0d",
                 t, pf_out_q[t], pf_drop_q[t] + 3'(pf_dem_q[t]) + 3'(pf_p_q[t] && !pf_ar_q[t]));
        // The miss owns a slot's read only while it waits on that slot.
        if (!fault_q && pf_dem_q[t] && !(r_wait_q && r_tag_q == TgW'(t + 1)))
          $fatal(1, "radix_l1_cache: prefetch slot %0d keeps a read for a miss that left", t);
      end
      // The window: distinct lines, all before the line the next freed slot fetches
      // (first_of relies on the first; a window that stops advancing breaks both).
      for (int t = 0; t < PrefetchDepth; t++) begin
        if ((pf_v_q[t] || pf_p_q[t]) && {1'b0, pf_line_q[t]} >= pf_next_q)
          $fatal(1, "radix_l1_cache: prefetch slot %0d holds a line past the window", t);
        for (int u = t + 1; u < PrefetchDepth; u++)
          if ((pf_v_q[t] || pf_p_q[t]) && (pf_v_q[u] || pf_p_q[u]) &&
              pf_line_q[t] == pf_line_q[u])
            $fatal(1, "radix_l1_cache: prefetch slots %0d and %0d hold one line", t, u);
      end
      if (st_q == E_FILL && |v_fill_tags_eq)
        $fatal(1, "radix_l1_cache: a fill would cache a line twice");
      if (st_q == E_FILL && (r_wait_q || b_wait_q || ar_pend_q || (arv_q && art_q == '0) ||
                             aw_pend_q || w_pend_q))
        $fatal(1, "radix_l1_cache: a fill before its DDR traffic finished");
    end
  end
  // AXI: a raised valid stays up with its payload until the handshake.
  logic        ar_hold_q, aw_hold_q, w_hold_q;
  logic [63:0] ar_addr_h_q, aw_addr_h_q;
  logic [511:0] w_data_h_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ar_hold_q <= 1'b0;
      aw_hold_q <= 1'b0;
      w_hold_q  <= 1'b0;
    end else begin
      if (ar_hold_q && (!m_axi_arvalid || m_axi_araddr != ar_addr_h_q))
        $fatal(1, "radix_l1_cache: AR valid or address changed before arready");
      if (aw_hold_q && (!m_axi_awvalid || m_axi_awaddr != aw_addr_h_q))
        $fatal(1, "radix_l1_cache: AW valid or address changed before awready");
      if (w_hold_q && (!m_axi_wvalid || m_axi_wdata != w_data_h_q))
        $fatal(1, "radix_l1_cache: W valid or data changed before wready");
      ar_hold_q   <= m_axi_arvalid && !m_axi_arready;
      aw_hold_q   <= m_axi_awvalid && !m_axi_awready;
      w_hold_q    <= m_axi_wvalid && !m_axi_wready;
      ar_addr_h_q <= m_axi_araddr;
      aw_addr_h_q <= m_axi_awaddr;
      w_data_h_q  <= m_axi_wdata;
    end
  end
`endif

endmodule

`default_nettype wire
