// SPDX-License-Identifier: Apache-2.0
// Turns length-prefixed frames in memory into AXI-Stream frames with TLAST.
//
// Memory holds [L][L words][L'][L' words]...; each length word's low 32 bits
// give the frame's beats. A length of 0 is skipped. A frame longer than the
// words left is cut short (its TLAST comes early, which the core then reports
// as a framing error), so a truncated buffer can never hang the kernel.
`default_nettype none

module top_framer (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,

  input  wire logic        start_i,
  input  wire logic [31:0] words_i,     // words in the buffer, length words included
  output logic             done_o,      // every word consumed
  output logic [31:0]      frames_o,    // frames emitted so far in this run

  input  wire logic        in_valid_i,
  output logic             in_ready_o,
  input  wire logic [63:0] in_data_i,

  output logic             out_valid_o,
  input  wire logic        out_ready_i,
  output logic [63:0]      out_data_o,
  output logic             out_last_o
);

  logic [31:0] rem_q, left_q;   // words left in the buffer / in this frame
  logic        in_frame_q;

  // Length words are consumed here; frame words pass straight through.
  assign out_valid_o = in_frame_q && in_valid_i;
  assign out_data_o  = in_data_i;
  assign out_last_o  = (left_q == 32'd1);
  assign in_ready_o  = in_frame_q ? out_ready_i : (rem_q != '0);
  assign done_o      = (rem_q == '0) && !in_frame_q && !start_i;

  logic [31:0] want;
  assign want = in_data_i[31:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rem_q      <= '0;
      left_q     <= '0;
      in_frame_q <= 1'b0;
      frames_o   <= '0;
    end else if (start_i) begin
      rem_q      <= words_i;
      in_frame_q <= 1'b0;
      frames_o   <= '0;
    end else if (in_valid_i && in_ready_o) begin
      rem_q <= rem_q - 1'b1;
      if (in_frame_q) begin
        left_q <= left_q - 1'b1;
        if (left_q == 32'd1) begin
          in_frame_q <= 1'b0;
          frames_o   <= frames_o + 1'b1;
        end
      end else if (want != '0 && rem_q != 32'd1) begin
        in_frame_q <= 1'b1;
        left_q     <= (want < rem_q - 1'b1) ? want : rem_q - 1'b1;
      end
    end
  end

endmodule

`default_nettype wire
