// SPDX-License-Identifier: Apache-2.0
// Right-aligns a run of whole qwords into a zero block, for fsm_crc32.
//
// The run is qwords [lo_i, lo_i + n_i) of data_i, taken mod Q; it becomes the
// top n_i qwords of block_o, in order, and every qword below it is zero. For
// a reflected CRC from register 0, leading zero bytes change nothing, so one
// fixed XOR matrix over the block gives the run's CRC for any n_i. Kept
// apart from the matrix so that a caller can register the block between the
// two (fsm_loader does, for the payload CRC).
`default_nettype none

module fsm_qword_align #(
  // Block width in bits: 64, 128, 256 or 512 (fsm_crc32 checks it).
  parameter int Width = 512,
  // Derived; do not override.
  parameter int Q     = Width / 64,
  parameter int QW    = (Q > 1) ? $clog2(Q) : 1
) (
  input  wire logic [Width-1:0] data_i,
  input  wire logic [QW-1:0]    lo_i,     // first qword of the run
  input  wire logic [QW:0]      n_i,      // qwords in the run, 0..Q
  output logic      [Width-1:0] block_o
);

  logic [QW-1:0] rot;   // qword j of the block is qword (j + rot) mod Q of the data

  // Qword j of the block takes qword lo + j - (Q - n), mod Q with narrow adds
  // (Q is a power of two), so the select is a rotation by a value two small
  // adds away from the ports.
  always_comb begin
    // A one-qword block has no choice of start (and QW is padded to 1 bit).
    rot     = (Q > 1) ? QW'(32'(lo_i) + 32'(n_i)) : '0;
    block_o = '0;
    for (int j = 0; j < Q; j++) begin
      if ((QW+1)'(j) + n_i >= (QW+1)'(Q)) begin
        block_o[j*64 +: 64] = data_i[32'(QW'(32'(j) + 32'(rot))) * 64 +: 64];
      end
    end
  end

endmodule

`default_nettype wire
