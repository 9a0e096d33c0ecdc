// SPDX-License-Identifier: Apache-2.0
// Opcodes, status codes and field positions of the radix controller's streams.
// docs/radix-protocol.md is the normative description; keep the two in step.
`default_nettype none

package radix_pkg;

  // Command opcodes (command header beat, bits [7:0]).
  localparam logic [7:0] OP_MATCH  = 8'h01;
  localparam logic [7:0] OP_INSERT = 8'h02;
  localparam logic [7:0] OP_EVICT  = 8'h03;
  localparam logic [7:0] OP_LOCK   = 8'h04;
  localparam logic [7:0] OP_UNLOCK = 8'h05;
  localparam logic [7:0] OP_SIZES  = 8'h06;
  localparam logic [7:0] OP_RESET  = 8'h07;

  // Response status (first trailer beat, bits [15:8]).
  localparam logic [7:0] ST_OK        = 8'h00;
  localparam logic [7:0] ST_OPCODE    = 8'h01;  // unknown opcode
  localparam logic [7:0] ST_LENGTH    = 8'h02;  // length zero or above MaxLen
  localparam logic [7:0] ST_FRAMING   = 8'h03;  // TLAST disagrees with the length
  localparam logic [7:0] ST_KVCOUNT   = 8'h04;  // INSERT kv count != token count
  localparam logic [7:0] ST_CAPACITY  = 8'h05;  // no free node or token slot
  localparam logic [7:0] ST_UNDERFLOW = 8'h06;  // UNLOCK would go below zero
  localparam logic [7:0] ST_HANDLE    = 8'h07;  // stale or invalid handle
  localparam logic [7:0] ST_NAMESPACE = 8'h08;  // namespace out of range
  localparam logic [7:0] ST_OVERFLOW  = 8'h09;  // LOCK would overflow lock_ref

  // CSR word offsets (byte address = 4 * index).
  localparam int CSR_ID           = 0;
  localparam int CSR_CTRL         = 1;   // [0] irq enable
  localparam int CSR_STATUS       = 2;   // [0] busy, [1] init done
  localparam int CSR_IRQ_STATUS   = 3;   // [0] error seen (write 1 to clear)
  localparam int CSR_NODE_CAP     = 4;
  localparam int CSR_TOKEN_CAP    = 5;
  localparam int CSR_MAX_LEN      = 6;
  localparam int CSR_PAGE_SIZE    = 7;
  localparam int CSR_EVICTABLE    = 8;
  localparam int CSR_PROTECTED    = 9;
  localparam int CSR_TOTAL        = 10;
  localparam int CSR_FREE_NODES   = 11;
  localparam int CSR_FREE_SLOTS   = 12;
  localparam int CSR_LOOKUPS      = 13;
  localparam int CSR_QUERIED      = 14;
  localparam int CSR_HIT          = 15;
  localparam int CSR_INSERTS      = 16;
  localparam int CSR_INSERTED     = 17;
  localparam int CSR_SPLITS       = 18;
  localparam int CSR_EVICTED_NODES  = 19;
  localparam int CSR_EVICTED_TOKENS = 20;
  localparam int CSR_ERRORS       = 21;
  localparam int CSR_BUSY_CYCLES  = 22;
  localparam int CSR_LAST_ERROR   = 23;  // status code of the latest error
  localparam int CSR_NUM_NS       = 24;
  localparam int CSR_WALK_CYCLES  = 25;  // latest MATCH/INSERT: cycles spent walking
  localparam int CSR_WALK_NODES   = 26;  // latest MATCH/INSERT: edges entered
  localparam int CSR_HASH_BUCKETS = 27;  // child-index geometry
  localparam int CSR_HASH_WAYS    = 28;
  localparam int CSR_STASH_DEPTH  = 29;
  localparam int CSR_INDEX_USED   = 30;  // live child-index entries
  localparam int CSR_STASH_FREE   = 31;
  localparam int CSR_FREE_LINES   = 32;  // free 16-token lines
  localparam int CSR_EVICT_SKIPS  = 33;  // nodes the eviction walk passed over (locked / inner)
  localparam int CSR_WORDS        = 34;

  localparam logic [31:0] RADIX_ID = 32'h5244_0002;  // "RD", version 2

  // Tokens (and KV indices) per line of the token store and per 512-bit beat.
  localparam int LANES = 16;

  // Child-index operations (radix_child_index op_i).
  localparam logic [1:0] IX_LOOKUP   = 2'd0;
  localparam logic [1:0] IX_INSERT   = 2'd1;
  localparam logic [1:0] IX_SETCHILD = 2'd2;
  localparam logic [1:0] IX_DELETE   = 2'd3;

endpackage

`default_nettype wire
