// SPDX-License-Identifier: Apache-2.0
// Read signatures of the radix controller's walk contexts (docs/radix-concurrency.md).
//
// A walk that runs ahead of older, still uncommitted commands records every key it
// reads (a child-table bucket it looked up, a node whose edge it compared) into its
// context's signature: a Bloom filter of SigBits bits, NumHash bits per key. When an
// older command commits, it broadcasts each key it writes; every younger context whose
// signature holds all of the key's bits may have read the old value and must replay.
// A key that was added always hits (no false negatives); a key that was not may still
// hit when other keys set its bits (a false positive costs a needless replay, never a
// wrong result).
//
// Hashes: H3, one XOR tree per signature-index bit over the key bits its row of a fixed
// pseudo-random matrix selects; no multiplier, two LUT levels for a 32-bit key. The
// rows are linearly independent, so distinct keys rarely share all their indices.
// models/radix_signature.py computes the same matrix and bits.
//
// Ordering contract (what the integration must give and gets):
//   * a broadcast issued in cycle t tests every add issued in a cycle <= t since the
//     context's last clear issued in a cycle <= t;
//   * a clear and an add of one context in the same cycle: the clear is first (the add
//     is the restarted walk's first read);
//   * the answer, hit_o for the contexts in bc_mask_i, is on hit_o with hit_valid_o two
//     cycles after bc_i, and one broadcast may be issued every cycle.
// So a walk must add a key no later than the cycle it issues the RAM read of that key,
// and a commit must broadcast a key no earlier than the cycle its RAM write is issued.
//
// Cost: Ctx x SigBits flip-flops; per context and broadcast, NumHash SigBits:1 selects.
// Every input is registered before it reaches a signature, and the selects read
// registered indices, so no path crosses more than hash or select plus a few gates.
`default_nettype none

`include "common_macros.svh"

module radix_read_sig #(
  // Walk contexts, 1..32.
  parameter int Ctx     = 8,
  // Bits per signature, a power of two in 16..4096.
  parameter int SigBits = 256,
  // Bits set per key, 1..4.
  parameter int NumHash = 3,
  // Key width, 1..64 (docs/radix-concurrency.md gives the key encoding).
  parameter int KeyW    = 32,
  // Derived, do not override.
  parameter int CtxW    = (Ctx > 1) ? $clog2(Ctx) : 1
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,     // synchronous, active low: every signature empty

  // Empty one context's signature (its walk starts or restarts).
  input  wire logic            clr_i,
  input  wire logic [CtxW-1:0] clr_ctx_i,

  // The context read a key.
  input  wire logic            add_i,
  input  wire logic [CtxW-1:0] add_ctx_i,
  input  wire logic [KeyW-1:0] add_key_i,

  // A committing command wrote a key: test the contexts in bc_mask_i.
  input  wire logic            bc_i,
  input  wire logic [KeyW-1:0] bc_key_i,
  input  wire logic [Ctx-1:0]  bc_mask_i,

  // Two cycles after bc_i: the contexts in its mask whose signature holds every bit
  // of its key.
  output logic                 hit_valid_o,
  output logic      [Ctx-1:0]  hit_o
);

  `COMMON_PARAM_CHECK(g_bad_ctx, Ctx >= 1 && Ctx <= 32, "radix_read_sig: Ctx must be 1..32")
  `COMMON_PARAM_CHECK(g_bad_bits, SigBits >= 16 && SigBits <= 4096 &&
                      (SigBits & (SigBits - 1)) == 0,
                      "radix_read_sig: SigBits must be a power of two in 16..4096")
  `COMMON_PARAM_CHECK(g_bad_hash, NumHash >= 1 && NumHash <= 4,
                      "radix_read_sig: NumHash must be 1..4")
  `COMMON_PARAM_CHECK(g_bad_key, KeyW >= 1 && KeyW <= 64, "radix_read_sig: KeyW must be 1..64")

  localparam int IdxW = $clog2(SigBits);

  // Row (h, b) of the H3 matrix: states 2r + 1 (low word) and 2r + 2 (high word) of one
  // xorshift32 stream, r = 64 h + b; models/radix_signature.py repeats it bit for bit.
  // One stream, not a seed per row: xorshift is linear, and rows seeded with nearby
  // integers would span only a few dimensions, so the hashes would collide.
  function automatic logic [63:0] h3_row(input int h, input int b);
    logic [31:0] x;
    x = 32'h9E37_79B9;
    for (int i = 0; i < 2 * (64 * h + b) + 2; i++) begin
      x = x ^ (x << 13);
      x = x ^ (x >> 17);
      x = x ^ (x << 5);
      if (i == 2 * (64 * h + b)) h3_row[31:0] = x;
    end
    h3_row[63:32] = x;
  endfunction

  // One flat vector of NumHash indices per key, hash h at [h*IdxW +: IdxW].
  logic [NumHash*IdxW-1:0] add_idx, bc_idx;
  for (genvar h = 0; h < NumHash; h++) begin : g_hash
    for (genvar b = 0; b < IdxW; b++) begin : g_bit
      localparam logic [63:0] Row = h3_row(h, b);
      assign add_idx[h*IdxW + b] = ^(add_key_i & Row[KeyW-1:0]);
      assign bc_idx[h*IdxW + b]  = ^(bc_key_i & Row[KeyW-1:0]);
    end
  end

  // Stage 1: the requests, hashed.
  logic                    a_v_q, c_v_q, b_v_q;
  logic [CtxW-1:0]         a_ctx_q, c_ctx_q;
  logic [NumHash*IdxW-1:0] a_idx_q, b_idx_q;
  logic [Ctx-1:0]          b_mask_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      a_v_q <= 1'b0;
      c_v_q <= 1'b0;
      b_v_q <= 1'b0;
    end else begin
      a_v_q <= add_i;
      c_v_q <= clr_i;
      b_v_q <= bc_i;
    end
    a_ctx_q  <= add_ctx_i;
    a_idx_q  <= add_idx;
    c_ctx_q  <= clr_ctx_i;
    b_idx_q  <= bc_idx;
    b_mask_q <= bc_mask_i;
  end

  // The staged add's bits as a vector (the same for whichever context it names): a
  // decode per bit against constants, which maps to a compare tree, not a shifter.
  logic [SigBits-1:0] a_bits;
  always_comb begin
    for (int j = 0; j < SigBits; j++) begin
      a_bits[j] = 1'b0;
      for (int h = 0; h < NumHash; h++)
        a_bits[j] = a_bits[j] || (a_idx_q[h*IdxW +: IdxW] == IdxW'(j));
    end
  end

  // The broadcast's hash h lands on a bit the staged add sets.
  logic [NumHash-1:0] b_in_a;
  always_comb begin
    for (int h = 0; h < NumHash; h++) begin
      b_in_a[h] = 1'b0;
      for (int g = 0; g < NumHash; g++)
        b_in_a[h] = b_in_a[h] || (b_idx_q[h*IdxW +: IdxW] == a_idx_q[g*IdxW +: IdxW]);
    end
  end

  // Stage 2: the signatures take the staged clear and add; the staged broadcast tests
  // them as they will be after this edge, so it sees the add and clear of its own
  // issue cycle (the ordering contract above).
  logic [SigBits-1:0] sig_q [Ctx];
  logic [Ctx-1:0]     hit_q;
  logic               hit_v_q;

  for (genvar c = 0; c < Ctx; c++) begin : g_ctx
    logic clr_c, add_c, all_set;
    assign clr_c = c_v_q && (c_ctx_q == CtxW'(c));
    assign add_c = a_v_q && (a_ctx_q == CtxW'(c));

    // Bit j of the context's next signature: kept unless cleared, or set by the add.
    always_comb begin
      all_set = 1'b1;
      for (int h = 0; h < NumHash; h++) begin
        all_set = all_set && ((!clr_c && sig_q[c][b_idx_q[h*IdxW +: IdxW]]) ||
                              (add_c && b_in_a[h]));
      end
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) sig_q[c] <= '0;
      else if (clr_c || add_c) sig_q[c] <= (clr_c ? '0 : sig_q[c]) | (add_c ? a_bits : '0);
      hit_q[c] <= b_mask_q[c] && all_set;
    end
  end

  always_ff @(posedge clk_i) hit_v_q <= rst_ni && b_v_q;

  assign hit_valid_o = hit_v_q;
  assign hit_o       = hit_v_q ? hit_q : '0;

`ifdef COMMON_ASSERT_ON
  // A context's bits are dropped only by a clear: a bit lost any other way would be a
  // missed conflict (a false negative), the one error the scheme must never make.
  // And an add sets every bit of its key.
  logic [SigBits-1:0] prev_q [Ctx];
  logic [SigBits-1:0] added_bits_q;
  logic [Ctx-1:0]     cleared_q, added_q;
  logic               chk_q;
  always_ff @(posedge clk_i) begin
    chk_q        <= rst_ni;
    added_bits_q <= a_bits;
    for (int c = 0; c < Ctx; c++) begin
      prev_q[c]    <= sig_q[c];
      cleared_q[c] <= c_v_q && (c_ctx_q == CtxW'(c));
      added_q[c]   <= a_v_q && (a_ctx_q == CtxW'(c));
      if (chk_q && rst_ni && !cleared_q[c] && (prev_q[c] & ~sig_q[c]) != '0)
        $fatal(1, "radix_read_sig: context %0d lost signature bits without a clear", c);
      if (chk_q && rst_ni && added_q[c] && (added_bits_q & ~sig_q[c]) != '0)
        $fatal(1, "radix_read_sig: context %0d misses bits of a key just added", c);
    end
  end

  // The answer is the signature the broadcast saw: every masked context holding all
  // of the key's bits after the edge that took the broadcast's cycle in (a dropped
  // bypass or a wrong select is a missed conflict too).
  logic [NumHash*IdxW-1:0] b_idx_d;
  logic [Ctx-1:0]          b_mask_d;
  always_ff @(posedge clk_i) begin
    b_idx_d  <= b_idx_q;
    b_mask_d <= b_mask_q;
    if (hit_v_q) begin
      for (int c = 0; c < Ctx; c++) begin
        logic want;
        want = b_mask_d[c];
        for (int h = 0; h < NumHash; h++) want = want && sig_q[c][b_idx_d[h*IdxW +: IdxW]];
        if (hit_q[c] != want)
          $fatal(1, "radix_read_sig: context %0d answered %0b, its signature says %0b",
                 c, hit_q[c], want);
      end
    end
  end

  // A context number past Ctx - 1 is an integration error: the block would drop it.
  always_ff @(posedge clk_i) begin
    if (rst_ni && ((clr_i && 32'(clr_ctx_i) >= Ctx) || (add_i && 32'(add_ctx_i) >= Ctx)))
      $fatal(1, "radix_read_sig: context %0d / %0d out of range (Ctx %0d)",
             clr_ctx_i, add_ctx_i, Ctx);
  end
`endif

endmodule

`default_nettype wire
