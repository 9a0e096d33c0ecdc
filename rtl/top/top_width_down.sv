// SPDX-License-Identifier: Apache-2.0
// Serialises a wide stream into 64-bit words, lowest word first.
`default_nettype none

`include "common_macros.svh"

module top_width_down #(
  // Input width: a multiple of 64, 64..1024.
  parameter int InW = 512
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,

  input  wire logic           in_valid_i,
  output logic                in_ready_o,
  input  wire logic [InW-1:0] in_data_i,
  input  wire logic           in_last_i,

  output logic                out_valid_o,
  input  wire logic           out_ready_i,
  output logic [63:0]         out_data_o,
  output logic                out_last_o     // last word of an input beat marked last
);

  `COMMON_PARAM_CHECK(g_bad_w, InW >= 64 && InW <= 1024 && InW % 64 == 0, "top_width_down: InW")

  localparam int N  = InW / 64;
  localparam int CW = $clog2(N + 1);

  logic [InW-1:0] buf_q;
  logic [CW-1:0]  left_q;
  logic           last_q;

  // Take a new beat when empty, or as the last word of the current one leaves.
  assign in_ready_o  = (left_q == '0) || (left_q == CW'(1) && out_ready_i);
  assign out_valid_o = (left_q != '0);
  assign out_data_o  = buf_q[63:0];
  assign out_last_o  = last_q && (left_q == CW'(1));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      left_q <= '0;
    end else if (in_valid_i && in_ready_o) begin
      left_q <= CW'(N);
    end else if (out_valid_o && out_ready_i) begin
      left_q <= left_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_valid_i && in_ready_o) begin
      buf_q  <= in_data_i;
      last_q <= in_last_i;
    end else if (out_valid_o && out_ready_i) begin
      buf_q <= buf_q >> 64;
    end
  end

endmodule

`default_nettype wire
