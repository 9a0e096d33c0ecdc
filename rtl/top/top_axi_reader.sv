// SPDX-License-Identifier: Apache-2.0
// AXI4 read master: streams `beats_i` 64-bit words from `base_i` out as a stream.
//
// One burst in flight at a time, of up to MaxBurst beats, never across a 4 KiB
// boundary; a burst is only issued when the output FIFO has room for all of
// it, so RREADY stays high and the read channel is never back-pressured.
`default_nettype none

`include "common_macros.svh"

module top_axi_reader #(
  // Beats per burst, 1..256.
  parameter int MaxBurst  = 16,
  // Output FIFO depth in beats, >= MaxBurst.
  parameter int FifoDepth = 32
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,

  input  wire logic        start_i,      // pulse: read beats_i words from base_i
  input  wire logic [63:0] base_i,       // 8-byte aligned
  input  wire logic [31:0] beats_i,
  output logic             done_o,       // level: every requested beat has arrived

  output logic [63:0]      m_araddr_o,
  output logic [7:0]       m_arlen_o,
  output logic             m_arvalid_o,
  input  wire logic        m_arready_i,
  input  wire logic [63:0] m_rdata_i,
  input  wire logic        m_rlast_i,
  input  wire logic        m_rvalid_i,
  output logic             m_rready_o,

  output logic             out_valid_o,
  input  wire logic        out_ready_i,
  output logic [63:0]      out_data_o
);

  `COMMON_PARAM_CHECK(g_bad_burst, MaxBurst >= 1 && MaxBurst <= 256, "top_axi_reader: MaxBurst")
  `COMMON_PARAM_CHECK(g_bad_fifo, FifoDepth >= MaxBurst, "top_axi_reader: FifoDepth")

  localparam int LevelW = $clog2(FifoDepth + 1);

  logic [63:0] addr_q;
  logic [31:0] rem_q;
  logic        in_burst_q;
  logic [LevelW-1:0] level;
  logic        fifo_full, fifo_empty;   // level_o says all the issue logic needs
  logic        fifo_in_ready;

  // Burst length: what is left, capped by MaxBurst and by the next 4 KiB edge.
  logic [31:0] to_4k, len;
  logic [12:0] bytes_to_4k;
  assign bytes_to_4k = 13'h1000 - {1'b0, addr_q[11:0]};
  assign to_4k       = 32'(bytes_to_4k >> 3);
  always_comb begin
    len = rem_q;
    if (len > 32'(MaxBurst)) len = 32'(MaxBurst);
    if (len > to_4k) len = to_4k;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      m_arvalid_o <= 1'b0;
      in_burst_q  <= 1'b0;
      rem_q       <= '0;
    end else begin
      if (start_i) begin
        addr_q <= base_i;
        rem_q  <= beats_i;
      end else if (m_arvalid_o) begin
        if (m_arready_i) begin
          m_arvalid_o <= 1'b0;
          in_burst_q  <= 1'b1;
          addr_q      <= addr_q + {32'h0, len[28:0], 3'b000};
          rem_q       <= rem_q - len;
        end
      end else if (!in_burst_q && rem_q != '0 &&
                   32'(FifoDepth) - 32'(level) >= len) begin
        m_arvalid_o <= 1'b1;
        m_araddr_o  <= addr_q;
        m_arlen_o   <= 8'(len - 1);
      end
      if (m_rvalid_i && m_rlast_i) in_burst_q <= 1'b0;
    end
  end

  assign m_rready_o = 1'b1;   // room was reserved before the burst was asked for
  assign done_o     = (rem_q == '0) && !in_burst_q && !m_arvalid_o && !start_i;

  common_fifo_sync #(
    .Width    (64),
    .Depth    (FifoDepth),
    .RamStyle ("distributed")
  ) u_fifo (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (m_rvalid_i),
    .in_ready_o  (fifo_in_ready),
    .in_data_i   (m_rdata_i),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_o),
    .level_o     (level),
    .full_o      (fifo_full),
    .empty_o     (fifo_empty)
  );

  logic unused;
  assign unused = ^{fifo_in_ready, fifo_full, fifo_empty};

endmodule

`default_nettype wire
