// SPDX-License-Identifier: Apache-2.0
// Formal harness of common_skid_buffer: the stream contract (common_stream_props)
// with Capacity 2 and no latency, plus the invariants that make it inductive.
// Formal only; common_skid_buffer.sby connects the probe p_skid_data to the
// flattened DUT's skid register (Yosys has no hierarchical references).
`default_nettype none

module common_skid_buffer_fv #(
  parameter int Width = 4
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_valid_i,
  input  wire logic [Width-1:0] in_data_i,
  input  wire logic             out_ready_i,
  input  wire logic             tag_i
);

  localparam int CntW = 3;

  // DUT outputs, named as the contract's ports (connected by `.*`).
  logic             in_ready_i, out_valid_i;
  logic [Width-1:0] out_data_i;

  common_skid_buffer #(.Width(Width)) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_i),
    .in_data_i   (in_data_i),
    .out_valid_o (out_valid_i),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_i)
  );

  // The contract's outputs, named as its ports (connected by `.*`).
  logic             init_o, tag_live_o;
  logic [CntW-1:0]  occ_o, tag_ahead_o;
  logic [Width-1:0] tag_data_o;

  common_stream_props #(
    .Width      (Width),
    .Capacity   (2),
    .MaxLatency (0),
    .CntW       (CntW)
  ) u_props (.*);

  // Probe, driven by the .sby script: u_dut.skid_data_q.
  logic [Width-1:0] p_skid_data;

  // Inductive invariants: the out register holds the head, the skid register
  // (full exactly when in_ready_i is low) the second beat.
  always @(*) begin
    if (init_o) begin
      assert (occ_o == CntW'(out_valid_i) + CntW'(!in_ready_i));
      if (!in_ready_i) assert (out_valid_i);
      if (tag_live_o && tag_ahead_o == 1) assert (p_skid_data == tag_data_o);
    end
  end

endmodule

`default_nettype wire
