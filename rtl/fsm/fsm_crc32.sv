// SPDX-License-Identifier: Apache-2.0
// CRC-32 (zlib polynomial, reflected) over a run of whole 8-byte qwords of one beat, in one cycle.
//
// The run is qwords [lo_i, lo_i + n_i) of data_i, byte 0 first. The register
// convention is zlib's: start at 32'hFFFF_FFFF, and zlib.crc32() = ~crc.
// Method: for a reflected CRC, running bytes m from register R equals running
// m ^ R (R xored into the first four bytes) from register 0, and leading zero
// bytes leave register 0 unchanged. So the run is moved to the top of a zero
// block (fsm_qword_align), and one fixed XOR matrix (each output bit the
// parity of the block under a mask computed at elaboration) gives the data's
// share for any run length. By linearity R's share is separate: for each run
// length n, R sits in qword Q - n of the block, so it is one 32-bit parity per
// output bit and length, and n picks among those.
// With Aligned = 1, data_i is a block fsm_qword_align made (a caller that
// registers it in between) and lo_i is unused.
`default_nettype none

`include "common_macros.svh"

module fsm_crc32 #(
  // Block width in bits: 64, 128, 256 or 512.
  parameter int Width = 512,
  // data_i is already right-aligned (fsm_qword_align's block_o).
  parameter bit Aligned = 1'b0,
  // Derived; do not override.
  parameter int Q     = Width / 64,
  parameter int QW    = (Q > 1) ? $clog2(Q) : 1
) (
  input  wire logic [31:0]      crc_i,
  input  wire logic [Width-1:0] data_i,
  input  wire logic [QW-1:0]    lo_i,    // first qword of the run
  input  wire logic [QW:0]      n_i,     // qwords in the run, 0..Q (0: crc_o = crc_i)
  output logic      [31:0]      crc_o
);

  `COMMON_PARAM_CHECK(g_bad_width, Width == 64 || Width == 128 || Width == 256 || Width == 512,
                      "fsm_crc32: Width must be 64, 128, 256 or 512")

  // Bit i of mask j: bit j of the register after running a block whose only set
  // bit is i, from register 0.
  function automatic logic [Width-1:0] crc_mask(input logic [4:0] j);
    logic [31:0] c;
    logic [Width-1:0] m;
    c = fsm_pkg::CRC_POLY;
    m = '0;
    for (int i = Width - 1; i >= 0; i--) begin
      m[i] = c[j];
      c = (c >> 1) ^ (c[0] ? fsm_pkg::CRC_POLY : 32'h0);
    end
    crc_mask = m;
  endfunction

  logic [Width-1:0] block;
  logic [31:0]      data_run, state_run;
  // R's share for each run length n at [n*32 +: 32]; n = 0 is never picked.
  logic [(Q+1)*32-1:0] state_by_n;

  if (Aligned) begin : g_aligned
    logic unused_lo;
    assign unused_lo = ^lo_i;
    assign block     = data_i;
  end else begin : g_align
    fsm_qword_align #(.Width(Width)) u_align (
      .data_i  (data_i),
      .lo_i    (lo_i),
      .n_i     (n_i),
      .block_o (block)
    );
  end

  // The data's parities depend on the data alone, which changes once per beat.
  for (genvar j = 0; j < 32; j++) begin : g_bit
    // The mask is a constant net and the parities are procedural: Icarus 11
    // runs a continuous '&' bit by bit and rebuilds an inline constant per use.
    wire logic [Width-1:0] mask = crc_mask(5'(j));
    always_comb data_run[j] = ^(block & mask);
    always_comb state_by_n[j] = 1'b0;
    for (genvar n = 1; n <= Q; n++) begin : g_len
      always_comb state_by_n[n*32 + j] = ^(crc_i & mask[(Q - n)*64 +: 32]);
    end
  end
  assign state_run = state_by_n[32'(n_i)*32 +: 32];

  assign crc_o = (n_i == '0) ? crc_i : data_run ^ state_run;

endmodule

`default_nettype wire
