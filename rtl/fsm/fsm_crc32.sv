// SPDX-License-Identifier: Apache-2.0
// CRC-32 (zlib polynomial, reflected) over a run of whole 8-byte qwords of one beat, in one cycle.
//
// The run is qwords [lo_i, lo_i + n_i) of data_i, byte 0 first. The register
// convention is zlib's: start at 32'hFFFF_FFFF, and zlib.crc32() = ~crc.
// Method: for a reflected CRC, running bytes m from register R equals running
// m ^ R (R xored into the first four bytes) from register 0, and leading zero
// bytes leave register 0 unchanged. So the run is moved to the top of a zero
// block, R is xored into its first word, and one fixed XOR matrix (each output
// bit the parity of the block under a mask computed at elaboration) gives the
// new register for any run length. By linearity R's share is a separate
// 32-bit parity per output bit.
`default_nettype none

`include "common_macros.svh"

module fsm_crc32 #(
  // Block width in bits: 64, 128, 256 or 512.
  parameter int Width = 512,
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
  logic [31:0]      data_run, state_run, crc_run;
  logic [QW-1:0]    rot;        // qword j of the block is qword (j + rot) mod Q of the data
  logic [QW-1:0]    first;      // qword of the block where the run starts (mod Q)

  // Right-align the run: qword j of the block takes qword lo + j - (Q - n),
  // taken mod Q with narrow adds (Q is a power of two), so the select is a
  // rotation by a value two small adds away from the ports.
  always_comb begin
    // A one-qword block has no choice of start (and QW is padded to 1 bit).
    rot   = (Q > 1) ? QW'(32'(lo_i) + 32'(n_i)) : '0;
    first = (Q > 1) ? QW'(32'(Q) - 32'(n_i)) : '0;
    block = '0;
    for (int j = 0; j < Q; j++) begin
      if ((QW+1)'(j) + n_i >= (QW+1)'(Q)) begin
        block[j*64 +: 64] = data_i[32'(QW'(32'(j) + 32'(rot))) * 64 +: 64];
      end
    end
  end

  // The map is linear, so the register's share (its 32 bits xored into the
  // run's first word) is taken apart from the data's: the wide parities then
  // depend on the data alone, which changes once per beat.
  for (genvar j = 0; j < 32; j++) begin : g_bit
    // The mask is a constant net and the parities are procedural: Icarus 11
    // runs a continuous '&' bit by bit and rebuilds an inline constant per use.
    wire logic [Width-1:0] mask = crc_mask(5'(j));
    always_comb data_run[j]  = ^(block & mask);
    always_comb state_run[j] = ^(crc_i & mask[32'(first) * 64 +: 32]);
  end
  assign crc_run = data_run ^ state_run;

  assign crc_o = (n_i == '0) ? crc_i : crc_run;

endmodule

`default_nettype wire
