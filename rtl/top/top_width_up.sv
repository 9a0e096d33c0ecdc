// SPDX-License-Identifier: Apache-2.0
// Packs 64-bit words into wide beats with TKEEP, for a byte count known up front.
//
// Used to stream a table image read from memory into the FSM's load port: the
// last beat carries only the image's remaining bytes (TKEEP) and TLAST.
`default_nettype none

`include "common_macros.svh"

module top_width_up #(
  // Output width: a multiple of 64, 64..1024.
  parameter int OutW = 512
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,

  input  wire logic              start_i,
  input  wire logic [31:0]       bytes_i,      // image size; the words in carry it

  input  wire logic              in_valid_i,
  output logic                   in_ready_o,
  input  wire logic [63:0]       in_data_i,

  output logic                   out_valid_o,
  input  wire logic              out_ready_i,
  output logic [OutW-1:0]        out_data_o,
  output logic [OutW/8-1:0]      out_keep_o,
  output logic                   out_last_o
);

  `COMMON_PARAM_CHECK(g_bad_w, OutW >= 64 && OutW <= 1024 && OutW % 64 == 0, "top_width_up: OutW")

  localparam int N  = OutW / 64;
  localparam int CW = $clog2(N + 1);

  logic [OutW-1:0]   acc_q;
  logic [OutW/8-1:0] keep_q;
  logic [CW-1:0]     n_q;
  logic [31:0]       left_q;     // bytes of the image not yet packed
  logic              full_q;     // out register holds a beat

  logic [31:0] take;             // bytes this word carries
  assign take = (left_q < 32'd8) ? left_q : 32'd8;

  assign in_ready_o  = !full_q && (left_q != '0);
  assign out_valid_o = full_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
      n_q    <= '0;
      left_q <= '0;
    end else if (start_i) begin
      full_q <= 1'b0;
      n_q    <= '0;
      left_q <= bytes_i;
    end else begin
      if (out_valid_o && out_ready_i) full_q <= 1'b0;
      if (in_valid_i && in_ready_o) begin
        left_q <= left_q - take;
        if (n_q == CW'(N - 1) || left_q == take) begin
          full_q <= 1'b1;
          n_q    <= '0;
        end else begin
          n_q <= n_q + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (start_i || (out_valid_o && out_ready_i && !(in_valid_i && in_ready_o))) begin
      keep_q <= '0;
    end
    if (in_valid_i && in_ready_o) begin
      // A beat starts afresh at word 0; clear what the previous beat left.
      for (int b = 0; b < OutW / 8; b++) begin
        if (b / 8 == int'(n_q)) begin
          acc_q[8*b +: 8] <= in_data_i[8*(b % 8) +: 8];
          keep_q[b]       <= (32'(b % 8) < take);
        end else if (n_q == '0) begin
          keep_q[b] <= 1'b0;
        end
      end
      out_last_o <= (left_q == take);
    end
  end

  assign out_data_o = acc_q;
  assign out_keep_o = keep_q;

endmodule

`default_nettype wire
