// SPDX-License-Identifier: Apache-2.0
// Wide up-counter whose carry never ripples through more than one segment in
// a cycle.
//
// The value is split into SegW-bit segments. Each segment keeps a registered
// "all ones" flag, so the carry into segment k is the AND of the flags below
// it (one LUT) instead of a Width-bit carry chain: a 64-bit counter has the
// logic depth of a 16-bit one. The value is exact every cycle; nothing lags.
`default_nettype none

`include "common_macros.svh"

module common_seg_counter #(
  // Counter width, >= 2.
  parameter int               Width = 64,
  // Segment width, 2..Width.
  parameter int               SegW  = 16,
  // Value after reset and after clr_i.
  parameter logic [Width-1:0] Init  = '0
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,   // synchronous, active low
  input  wire logic             clr_i,    // back to Init (wins over inc_i)
  input  wire logic             inc_i,    // add one
  output logic      [Width-1:0] value_o
);

  `COMMON_PARAM_CHECK(g_bad_width, Width >= 2, "common_seg_counter: Width must be >= 2")
  `COMMON_PARAM_CHECK(g_bad_seg, SegW >= 2 && SegW <= Width,
                      "common_seg_counter: SegW must be in 2..Width")

  localparam int NSeg = (Width + SegW - 1) / SegW;
  localparam int PadW = NSeg * SegW;
  localparam logic [PadW-1:0] InitPad = PadW'(Init);

  logic [PadW-1:0] value_q;
  logic [NSeg-1:0] ones_q;    // segment k is all ones

  function automatic logic [NSeg-1:0] ones_of(input logic [PadW-1:0] v);
    for (int k = 0; k < NSeg; k++) ones_of[k] = (v[k*SegW +: SegW] == '1);
  endfunction

  // Segments below k: the carry into segment k needs all of them at all ones.
  function automatic logic [NSeg-1:0] below(input int k);
    below = (NSeg'(1) << k) - NSeg'(1);
  endfunction

  // The incremented value, from the registers alone: every segment whose lower
  // segments are all ones steps. (Written as a next-state block, not as per-segment
  // non-blocking writes in a loop: Verilator 5.049 with --public-flat-rw, as cocotb
  // builds, ran those in a submodule as if a segment's new all-ones flag were visible
  // to the segment above it in the same edge, so the carry came one increment early;
  // see the check below.)
  logic [PadW-1:0] value_inc;
  logic [NSeg-1:0] ones_inc;
  always_comb begin
    value_inc = value_q;
    ones_inc  = ones_q;
    for (int k = 0; k < NSeg; k++) begin
      if ((ones_q & below(k)) == below(k)) begin
        value_inc[k*SegW +: SegW] = value_q[k*SegW +: SegW] + 1'b1;
        ones_inc[k] = (value_q[k*SegW +: SegW] == {{(SegW - 1){1'b1}}, 1'b0});
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clr_i) begin
      value_q <= InitPad;
      ones_q  <= ones_of(InitPad);
    end else if (inc_i) begin
      value_q <= value_inc;
      ones_q  <= ones_inc;
    end
  end

  assign value_o = value_q[Width-1:0];

  if (PadW > Width) begin : g_pad
    logic unused;
    assign unused = ^value_q[PadW-1:Width];
  end

`ifdef COMMON_ASSERT_ON
  // The value steps by exactly one on an increment and holds otherwise (a carry taken
  // early or late shows as a jump), and a reset or clear gives Init.
  logic [Width-1:0] prev_q;
  logic             was_run_q, was_inc_q, was_init_q;
  always_ff @(posedge clk_i) begin
    prev_q     <= value_o;
    was_run_q  <= rst_ni && !clr_i;
    was_init_q <= !rst_ni || clr_i;
    was_inc_q  <= inc_i;
    if (was_run_q && value_o != prev_q + Width'(was_inc_q))
      $fatal(1, "common_seg_counter: %0h after %0h (increment %0b)", value_o, prev_q, was_inc_q);
    if (was_init_q && value_o != Init)
      $fatal(1, "common_seg_counter: %0h after a reset or clear, not %0h", value_o, Init);
  end
`endif

endmodule

`default_nettype wire
