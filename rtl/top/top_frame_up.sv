// SPDX-License-Identifier: Apache-2.0
// Packs a framed stream of 64-bit words into OutW-bit beats, OutW/64 words each.
//
// Frames must be whole beats (the host pads each command beat to OutW bits);
// the word marked last closes the beat and carries TLAST. The earliest word
// goes to the lowest bits. One beat of storage: in_ready_o drops while a full
// beat waits for out_ready_i, and out_valid_o never waits on out_ready_i.
`default_nettype none

`include "common_macros.svh"

module top_frame_up #(
  // Output width: a multiple of 64, 128..1024.
  parameter int OutW = 512
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,

  input  wire logic            in_valid_i,
  output logic                 in_ready_o,
  input  wire logic [63:0]     in_data_i,
  input  wire logic            in_last_i,

  output logic                 out_valid_o,
  input  wire logic            out_ready_i,
  output logic [OutW-1:0]      out_data_o,
  output logic                 out_last_o
);

  `COMMON_PARAM_CHECK(g_bad_w, OutW >= 128 && OutW <= 1024 && OutW % 64 == 0,
                      "top_frame_up: OutW")

  localparam int N  = OutW / 64;
  localparam int CW = $clog2(N);

  logic [CW-1:0] n_q;

  assign in_ready_o = !out_valid_o || out_ready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      n_q         <= '0;
      out_valid_o <= 1'b0;
      out_last_o  <= 1'b0;
    end else begin
      if (out_valid_o && out_ready_i) out_valid_o <= 1'b0;
      if (in_valid_i && in_ready_o) begin
        out_data_o[64*n_q +: 64] <= in_data_i;
        if (n_q == CW'(N - 1) || in_last_i) begin
          n_q         <= '0;
          out_valid_o <= 1'b1;
          out_last_o  <= in_last_i;
        end else begin
          n_q <= n_q + 1'b1;
        end
      end
    end
  end

endmodule

`default_nettype wire
