// SPDX-License-Identifier: Apache-2.0
// AXI4 write master: writes a stream of 64-bit words to memory from `base_i` on.
//
// Words are buffered in a FIFO and written in bursts of up to MaxBurst beats
// (never across a 4 KiB boundary); `flush_i` says no more words will come, so
// a short last burst may go. Words beyond `cap_i` are dropped and counted as
// an overflow instead of being written past the buffer.
`default_nettype none

`include "common_macros.svh"

module top_axi_writer #(
  parameter int MaxBurst  = 16,   // 1..256
  parameter int FifoDepth = 32    // >= MaxBurst
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,

  input  wire logic        start_i,
  input  wire logic [63:0] base_i,
  input  wire logic [31:0] cap_i,        // buffer capacity in words
  input  wire logic        flush_i,      // level: the stream has ended
  output logic             idle_o,       // nothing buffered or in flight
  output logic [31:0]      written_o,    // words written (<= cap_i)
  output logic             overflow_o,   // words were dropped for lack of space

  input  wire logic        in_valid_i,
  output logic             in_ready_o,
  input  wire logic [63:0] in_data_i,

  output logic [63:0]      m_awaddr_o,
  output logic [7:0]       m_awlen_o,
  output logic             m_awvalid_o,
  input  wire logic        m_awready_i,
  output logic [63:0]      m_wdata_o,
  output logic             m_wlast_o,
  output logic             m_wvalid_o,
  input  wire logic        m_wready_i,
  input  wire logic        m_bvalid_i,
  output logic             m_bready_o
);

  `COMMON_PARAM_CHECK(g_bad_burst, MaxBurst >= 1 && MaxBurst <= 256, "top_axi_writer: MaxBurst")
  `COMMON_PARAM_CHECK(g_bad_fifo, FifoDepth >= MaxBurst, "top_axi_writer: FifoDepth")

  localparam int LevelW = $clog2(FifoDepth + 1);

  typedef enum logic [1:0] {W_IDLE, W_ADDR, W_DATA, W_RESP} wstate_e;
  wstate_e state_q;

  logic [63:0] addr_q;
  logic [31:0] left_q;          // capacity left, in words
  logic [7:0]  beat_q, len_q;
  logic [LevelW-1:0] level;
  logic        fifo_full, fifo_empty;   // level_o says all the issue logic needs
  logic        fifo_valid, fifo_pop;
  logic [63:0] fifo_data;

  logic [31:0] to_4k, len;
  logic [12:0] bytes_to_4k;
  assign bytes_to_4k = 13'h1000 - {1'b0, addr_q[11:0]};
  assign to_4k       = 32'(bytes_to_4k >> 3);
  always_comb begin
    len = 32'(level);
    if (len > 32'(MaxBurst)) len = 32'(MaxBurst);
    if (len > to_4k) len = to_4k;
    if (len > left_q) len = left_q;
  end

  // Drop mode: the buffer is full, so words are consumed without being written.
  logic dropping;
  assign dropping = (state_q == W_IDLE) && (left_q == '0) && fifo_valid;

  assign fifo_pop   = dropping || (m_wvalid_o && m_wready_i);
  assign m_wvalid_o = (state_q == W_DATA) && fifo_valid;
  assign m_wdata_o  = fifo_data;
  assign m_wlast_o  = (beat_q == len_q);
  assign m_bready_o = (state_q == W_RESP);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= W_IDLE;
      m_awvalid_o <= 1'b0;
      written_o   <= '0;
      overflow_o  <= 1'b0;
      left_q      <= '0;
    end else begin
      unique case (state_q)
        W_IDLE: begin
          if (start_i) begin
            addr_q     <= base_i;
            left_q     <= cap_i;
            written_o  <= '0;
            overflow_o <= 1'b0;
          end else if (dropping) begin
            overflow_o <= 1'b1;
          end else if (left_q != '0 && level != '0 &&
                       (32'(level) >= len && (len == 32'(MaxBurst) || len == to_4k ||
                        len == left_q || flush_i))) begin
            m_awvalid_o <= 1'b1;
            m_awaddr_o  <= addr_q;
            m_awlen_o   <= 8'(len - 1);
            len_q       <= 8'(len - 1);
            beat_q      <= '0;
            state_q     <= W_ADDR;
          end
        end
        W_ADDR: if (m_awready_i) begin
          m_awvalid_o <= 1'b0;
          state_q     <= W_DATA;
        end
        W_DATA: if (m_wvalid_o && m_wready_i) begin
          beat_q <= beat_q + 1'b1;
          if (m_wlast_o) begin
            addr_q    <= addr_q + {52'h0, {1'b0, len_q} + 9'd1, 3'b000};
            left_q    <= left_q - 32'(len_q + 8'd1);
            written_o <= written_o + 32'(len_q + 8'd1);
            state_q   <= W_RESP;
          end
        end
        W_RESP: if (m_bvalid_i) state_q <= W_IDLE;
        default: state_q <= W_IDLE;
      endcase
    end
  end

  assign idle_o = (state_q == W_IDLE) && (level == '0) && !start_i;

  common_fifo_sync #(
    .Width    (64),
    .Depth    (FifoDepth),
    .RamStyle ("distributed")
  ) u_fifo (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_o),
    .in_data_i   (in_data_i),
    .out_valid_o (fifo_valid),
    .out_ready_i (fifo_pop),
    .out_data_o  (fifo_data),
    .level_o     (level),
    .full_o      (fifo_full),
    .empty_o     (fifo_empty)
  );

  logic unused;
  assign unused = ^{fifo_full, fifo_empty};

endmodule

`default_nettype wire
