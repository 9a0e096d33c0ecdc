// SPDX-License-Identifier: Apache-2.0
// Test wrapper: common_seg_counter one level down, twice: once with clr_i from the port,
// once with clr_i tied off (how radix_occupancy builds its histogram bins).
//
// An earlier version of the counter (per-segment non-blocking writes in a loop) was
// simulated wrong by the Verilator 5.049 build cocotb makes (--public-flat-rw) when the
// counter was a submodule with clr_i a constant 0: the carry came one increment early,
// while the same file as the simulation top counted right. seg_counter_random_sub runs
// seg_counter_random's stimulus through this wrapper so that shape is simulated too.
`default_nettype none

module common_seg_counter_sub #(
  parameter int               Width = 64,
  parameter int               SegW  = 16,
  parameter logic [Width-1:0] Init  = '0
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             clr_i,
  input  wire logic             inc_i,
  output logic      [Width-1:0] value_o,     // cleared by clr_i and rst_ni
  output logic      [Width-1:0] value_nc_o   // cleared by rst_ni only
);

  common_seg_counter #(
    .Width(Width),
    .SegW (SegW),
    .Init (Init)
  ) u_counter (
    .clk_i,
    .rst_ni,
    .clr_i,
    .inc_i,
    .value_o
  );

  common_seg_counter #(
    .Width(Width),
    .SegW (SegW),
    .Init (Init)
  ) u_counter_nc (
    .clk_i,
    .rst_ni,
    .clr_i   (1'b0),
    .inc_i,
    .value_o (value_nc_o)
  );

endmodule

`default_nettype wire
