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

  logic             in_ready, out_valid;
  logic [Width-1:0] out_data;

  common_skid_buffer #(.Width(Width)) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data)
  );

  logic             init, tag_live;
  logic [CntW-1:0]  occ, tag_ahead;
  logic [Width-1:0] tag_data;

  common_stream_props #(
    .Width      (Width),
    .Capacity   (2),
    .MaxLatency (0),
    .CntW       (CntW)
  ) u_props (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_i  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_i (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_i  (out_data),
    .tag_i       (tag_i),
    .init_o      (init),
    .occ_o       (occ),
    .tag_live_o  (tag_live),
    .tag_ahead_o (tag_ahead),
    .tag_data_o  (tag_data)
  );

  // Probe, driven by the .sby script: u_dut.skid_data_q.
  logic [Width-1:0] p_skid_data;

  // Inductive invariants: the out register holds the head, the skid register
  // (full exactly when in_ready is low) the second beat.
  always @(*) begin
    if (init) begin
      assert (occ == CntW'(out_valid) + CntW'(!in_ready));
      if (!in_ready) assert (out_valid);
      if (tag_live && tag_ahead == 1) assert (p_skid_data == tag_data);
    end
  end

endmodule

`default_nettype wire
