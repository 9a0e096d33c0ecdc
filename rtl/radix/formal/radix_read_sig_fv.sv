// SPDX-License-Identifier: Apache-2.0
// Formal harness of radix_read_sig, the walk contexts' read signatures: the property the
// overlapped core's conflict detection rests on. For one free key K (anyconst) a shadow
// keeps, per context, whether K was added since the context's last clear, by the block's
// ordering contract (a broadcast in cycle t sees every add of a cycle <= t since the
// last clear of a cycle <= t; a clear and an add of the same cycle: the clear first).
// Asserted:
//   * no false negative: a broadcast of K whose mask holds a context that added K
//     answers hit for that context (a miss would let a walk keep a stale read);
//   * an empty context never hits: cleared (or reset) and nothing added since, its
//     answer is 0 for every key (else a replayed walk could replay forever);
//   * hit_valid_o comes exactly two cycles after a broadcast (reset between drops it),
//     and hit_o only names contexts in that broadcast's mask.
// False positives (a key never added that hits) are allowed: they cost a replay.
// Induction needs the shadow tied to the signature registers: the probe p_sig (every
// context's bits, context 0 lowest) is connected to the flattened DUT's sig_q by
// radix_read_sig.sby, and two invariants say what it holds.
`default_nettype none

module radix_read_sig_fv #(
  parameter int Ctx     = 2,
  parameter int SigBits = 16,
  parameter int NumHash = 2,
  parameter int KeyW    = 8,
  parameter int CtxW    = (Ctx > 1) ? $clog2(Ctx) : 1
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            clr_i,
  input  wire logic [CtxW-1:0] clr_ctx_i,
  input  wire logic            add_i,
  input  wire logic [CtxW-1:0] add_ctx_i,
  input  wire logic [KeyW-1:0] add_key_i,
  input  wire logic            bc_i,
  input  wire logic [KeyW-1:0] bc_key_i,
  input  wire logic [Ctx-1:0]  bc_mask_i
);

  logic           hit_valid;
  logic [Ctx-1:0] hit;
  radix_read_sig #(.Ctx(Ctx), .SigBits(SigBits), .NumHash(NumHash), .KeyW(KeyW)) u_dut (
    .clk_i, .rst_ni, .clr_i, .clr_ctx_i, .add_i, .add_ctx_i, .add_key_i,
    .bc_i, .bc_key_i, .bc_mask_i, .hit_valid_o (hit_valid), .hit_o (hit));

  localparam int IdxW = $clog2(SigBits);

  // Probes, connected by the .sby script (left free they could only fail a proof).
  logic [Ctx*SigBits-1:0] p_sig;

  (* anyconst *) logic [KeyW-1:0] key_k;

  // K's indices, hashed by a second instance of the block (its broadcast key tied to
  // K; probe p_k_idx is its bc_idx): the harness uses the design's own hash, which
  // models/radix_signature.py checks in simulation.
  logic [NumHash*IdxW-1:0] p_k_idx;
  logic                    unused_hv;
  logic [Ctx-1:0]          unused_h;
  radix_read_sig #(.Ctx(Ctx), .SigBits(SigBits), .NumHash(NumHash), .KeyW(KeyW)) u_hash (
    .clk_i, .rst_ni, .clr_i (1'b0), .clr_ctx_i ('0), .add_i (1'b0), .add_ctx_i ('0),
    .add_key_i ('0), .bc_i (1'b0), .bc_key_i (key_k), .bc_mask_i ('0),
    .hit_valid_o (unused_hv), .hit_o (unused_h));

  logic past_q = 1'b0;
  always @(posedge clk_i) begin
    past_q <= 1'b1;
    if (!past_q) assume (!rst_ni);
    // Context numbers past Ctx - 1 are an integration error the block flags.
    if (rst_ni) begin
      if (clr_i) assume (32'(clr_ctx_i) < Ctx);
      if (add_i) assume (32'(add_ctx_i) < Ctx);
    end
  end

  // Shadow state, as a broadcast of this cycle sees it (this cycle's clear, then add).
  logic [Ctx-1:0] has_q, has_d;    // K added since the last clear
  logic [Ctx-1:0] emp_q, emp_d;    // nothing added since the last clear (or reset)
  always_comb begin
    for (int c = 0; c < Ctx; c++) begin
      has_d[c] = (add_i && 32'(add_ctx_i) == c && add_key_i == key_k) ||
                 (has_q[c] && !(clr_i && 32'(clr_ctx_i) == c));
      emp_d[c] = !(add_i && 32'(add_ctx_i) == c) && ((clr_i && 32'(clr_ctx_i) == c) || emp_q[c]);
    end
  end

  // The same shadow one stage later: what the signature registers hold (the block
  // registers its requests before they reach the signatures).
  logic [Ctx-1:0] has_s_q, emp_s_q;
  // Expected answers: valid, K broadcast with context c holding K, context c empty.
  logic           v1_q, v2_q;
  logic [Ctx-1:0] must1_q, must2_q, zero1_q, zero2_q, mask1_q, mask2_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      has_q <= '0;  emp_q <= '1;
      has_s_q <= '0; emp_s_q <= '1;
      v1_q <= 1'b0; v2_q <= 1'b0;
    end else begin
      has_q   <= has_d;
      emp_q   <= emp_d;
      has_s_q <= has_q;
      emp_s_q <= emp_q;
      v1_q    <= bc_i;
      v2_q    <= v1_q;
    end
    must1_q <= (bc_i && bc_key_i == key_k) ? (bc_mask_i & has_d) : '0;
    zero1_q <= bc_i ? (bc_mask_i & emp_d) : '0;
    mask1_q <= bc_i ? bc_mask_i : '0;
    must2_q <= must1_q;
    zero2_q <= zero1_q;
    mask2_q <= mask1_q;
  end

  always @(posedge clk_i) begin
    if (rst_ni && past_q) begin
      assert (hit_valid == v2_q);
      if (hit_valid) begin
        assert ((hit & must2_q) == must2_q);   // no false negative
        assert ((hit & zero2_q) == '0);        // an empty context never hits
        assert ((hit & ~mask2_q) == '0);       // only the contexts asked
      end else begin
        assert (hit == '0);
      end
      // Induction strengthening: the signature registers hold what the one-stage-late
      // shadow says (every bit of K where K was added; nothing where nothing was).
      for (int c = 0; c < Ctx; c++) begin
        if (emp_s_q[c]) assert (p_sig[c*SigBits +: SigBits] == '0);
        if (has_s_q[c])
          for (int h = 0; h < NumHash; h++)
            assert (p_sig[c*SigBits + 32'(p_k_idx[h*IdxW +: IdxW])]);
      end

      cover (hit_valid && must2_q != '0);                       // a conflict found
      cover (hit_valid && (hit & ~must2_q) != '0);              // a hit on another key
      cover (hit_valid && zero2_q != '0 && mask2_q == zero2_q); // an empty context asked
    end
  end

endmodule

`default_nettype wire
