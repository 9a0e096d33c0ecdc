// SPDX-License-Identifier: Apache-2.0
// Full-throughput skid buffer (register slice) for a valid/ready stream.
//
// Both out_valid_o/out_data_o and in_ready_o come straight from flops, so the
// slice cuts the forward and the backward combinational path at once while
// still moving one beat per cycle. The second ("skid") register catches the
// beat that was already in flight when the consumer dropped ready.
`default_nettype none

`include "common_macros.svh"

module common_skid_buffer #(
  // Bits of payload per beat, >= 1.
  parameter int          Width = 32
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,   // synchronous, active low

  // Upstream
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [Width-1:0] in_data_i,

  // Downstream
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic      [Width-1:0] out_data_o
);

  `COMMON_PARAM_CHECK(g_bad_width, Width >= 1, "common_skid_buffer: Width must be >= 1")

  logic             out_valid_q, skid_valid_q;
  logic [Width-1:0] out_data_q, skid_data_q;

  // The output register may take a new beat when it is empty or draining.
  logic out_free;
  assign out_free = !out_valid_q || out_ready_i;

  // Control flops: synchronous reset.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      skid_valid_q <= 1'b0;
    end else if (skid_valid_q) begin
      if (out_ready_i) begin
        out_valid_q  <= 1'b1;
        skid_valid_q <= 1'b0;
      end
    end else if (out_free) begin
      out_valid_q <= in_valid_i;
    end else if (in_valid_i) begin
      skid_valid_q <= 1'b1;
    end
  end

  // Datapath flops: no reset.
  always_ff @(posedge clk_i) begin
    if (skid_valid_q) begin
      if (out_ready_i) out_data_q <= skid_data_q;
    end else if (out_free) begin
      if (in_valid_i) out_data_q <= in_data_i;
    end else if (in_valid_i) begin
      skid_data_q <= in_data_i;
    end
  end

  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;

  // Protocol on both ports: upstream's promise and this buffer's (simulation only).
  `COMMON_AXIS_CHECK(u_in_chk, Width, in_valid_i, in_ready_o, in_data_i, 1'b0)
  `COMMON_AXIS_CHECK(u_out_chk, Width, out_valid_o, out_ready_i, out_data_o, 1'b0)

endmodule

`default_nettype wire
