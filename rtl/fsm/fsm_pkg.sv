// SPDX-License-Identifier: Apache-2.0
// Opcodes, status codes, CSR map and table-image constants of the token-FSM validator.
// docs/fsm-protocol.md is the normative description; uvm_env/fsm/protocol.py mirrors
// this file and tests/scripts/test_fsm_protocol.py keeps the two equal.
`default_nettype none

package fsm_pkg;

  // ---------------------------------------------------------------- command beat
  // [7:0] opcode, [15:8] grammar, [31:16] slot, [63:32] token.
  localparam int CMD_W = 64;
  localparam logic [7:0] OP_BIND     = 8'h01;
  localparam logic [7:0] OP_ADVANCE  = 8'h02;
  localparam logic [7:0] OP_VALIDATE = 8'h03;   // header; token beats follow to TLAST
  localparam logic [7:0] OP_MASK     = 8'h04;
  localparam logic [7:0] OP_RESET    = 8'h05;   // RESET_SLOT
  localparam logic [7:0] OP_QUERY    = 8'h06;
  localparam logic [7:0] OP_LOAD     = 8'h07;   // one image from the load stream
  localparam logic [7:0] OP_MASK_BATCH = 8'h08; // a packet: one slot per beat to TLAST

  // ---------------------------------------------------------------- result beat
  // [7:0] opcode echo, [15:8] status, [23:16] grammar, [27:24] flags
  // {violated, forced_valid, accepting, accepted}, [47:32] slot, [63:48] state,
  // [95:64] forced token, [127:96] aux (position, VALIDATE index, LOAD bytes).
  localparam int RSP_W = 128;

  // Status codes. Command errors change no state; LD_* refuse a table image.
  localparam logic [7:0] ST_OK          = 8'h00;
  localparam logic [7:0] ST_OPCODE      = 8'h01;  // unknown opcode
  localparam logic [7:0] ST_SLOT        = 8'h02;  // slot >= NSlots
  localparam logic [7:0] ST_GRAMMAR     = 8'h03;  // grammar out of range / not loaded / slot unbound
  localparam logic [7:0] ST_VIOLATED    = 8'h04;  // ADVANCE / VALIDATE on a violated slot
  localparam logic [7:0] ST_TOKEN       = 8'h05;  // token id >= the grammar's vocabulary size
  localparam logic [7:0] ST_LD_LENGTH   = 8'h08;  // truncated, trailing bytes, bad TKEEP
  localparam logic [7:0] ST_LD_MAGIC    = 8'h09;
  localparam logic [7:0] ST_LD_VERSION  = 8'h0A;  // version, header size, section count, word bits
  localparam logic [7:0] ST_LD_HDR_CRC  = 8'h0B;
  localparam logic [7:0] ST_LD_PAY_CRC  = 8'h0C;
  localparam logic [7:0] ST_LD_DIMS     = 8'h0D;  // dimensions inconsistent with each other
  localparam logic [7:0] ST_LD_CAPACITY = 8'h0E;  // dimensions exceed the core's parameters
  localparam int NUM_STATUS = 16;

  // ---------------------------------------------------------------- CSR word offsets
  localparam int CSR_ID          = 0;
  localparam int CSR_CTRL        = 1;   // [0] irq enable
  localparam int CSR_STATUS      = 2;   // [0] busy, [1] loading
  localparam int CSR_IRQ_STATUS  = 3;   // [0] violation pending (write 1 to clear)
  localparam int CSR_VIOL_SLOT   = 4;   // the violation that set IRQ_STATUS
  localparam int CSR_VIOL_POS    = 5;
  localparam int CSR_VIOL_TOKEN  = 6;
  localparam int CSR_VIOL_COUNT  = 7;   // every violation since reset
  localparam int CSR_LOADED      = 8;   // bit g: grammar g holds tables
  localparam int CSR_LAST_LOAD   = 9;   // [7:0] status of the latest LOAD
  localparam int CSR_NUM_SLOTS   = 10;
  localparam int CSR_NUM_GRAMMARS = 11;
  localparam int CSR_VOCAB_MAX   = 12;
  localparam int CSR_WIDTHS      = 13;  // [7:0] class, [15:8] state, [23:16] row bits
  localparam int CSR_NS_CAP      = 14;  // NsCap: comb entries per grammar
  localparam int CSR_ROW_CAP     = 15;
  localparam int CSR_BUS_WIDTHS  = 16;  // [15:0] MaskW, [31:16] LoadW
  localparam int CSR_COMMANDS    = 17;  // results produced
  localparam int CSR_ADVANCES    = 18;  // ADVANCE results with status OK
  localparam int CSR_ACCEPTED    = 19;  // ... of which the token was allowed
  localparam int CSR_VALIDATES   = 20;
  localparam int CSR_MASKS       = 21;
  localparam int CSR_MASK_BEATS  = 22;
  localparam int CSR_LOADS_OK    = 23;
  localparam int CSR_ERRORS      = 24;  // results with a non-zero status
  localparam int CSR_CYCLES      = 25;  // free-running cycle counter
  localparam int CSR_ERR_BASE    = 32;  // CSR_ERR_BASE + code: results with that status
  localparam int CSR_WORDS       = CSR_ERR_BASE + NUM_STATUS;

  localparam logic [31:0] FSM_ID = 32'h4653_0002;  // "FS", version 2 (image version 2)

  // ---------------------------------------------------------------- table image (docs/table-format.md)
  localparam logic [31:0] IMG_MAGIC        = 32'h4D53_4654;   // "TFSM"
  localparam logic [15:0] IMG_VERSION      = 16'd2;
  localparam int          IMG_HDR_BYTES    = 200;            // 72 + 8 x 16
  localparam int          IMG_HDR_QWORDS   = 25;
  localparam int          IMG_NUM_SECTIONS = 8;
  localparam logic [31:0] IMG_NONE         = 32'hFFFF_FFFF;
  // Sections, in image order (0-based here; the image's ids are 1..8).
  localparam int SEC_TC = 0;  // token_class
  localparam int SEC_BS = 1;  // row_base
  localparam int SEC_CB = 2;  // comb: {check[31:16], next[15:0]}
  localparam int SEC_AC = 3;  // accepting bitmap
  localparam int SEC_MI = 4;  // mask_index
  localparam int SEC_MR = 5;  // mask_rows, each padded to whole 512-bit words
  localparam int SEC_FT = 6;  // forced_token
  localparam int SEC_FV = 7;  // forced_valid bitmap
  localparam int NSEC   = 8;

  // Storage-width codes for a table element: 8, 16 or 32 bits.
  localparam logic [1:0] EW_8  = 2'd0;
  localparam logic [1:0] EW_16 = 2'd1;
  localparam logic [1:0] EW_32 = 2'd2;

  // CRC-32 (zlib / IEEE 802.3), reflected.
  localparam logic [31:0] CRC_POLY = 32'hEDB8_8320;

endpackage

`default_nettype wire
