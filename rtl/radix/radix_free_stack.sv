// SPDX-License-Identifier: Apache-2.0
// Free list of the radix controller (node slots or token lines) as a LIFO stack in RAM.
//
// The stack holds the free indices First..Depth-1. init_i refills it in
// Depth-First cycles so that pops return First, First+1, ... in order; this
// order is part of the protocol because handles and hash buckets depend on it
// (models/radix_hw.py mirrors it). pop_i reads entry count-1 and may be asserted
// on consecutive cycles (one pop per cycle); its data appears ReadLatency cycles
// later with pop_valid_o. push_i writes entry count. peek_i reads the top
// without popping. The caller never pops, pushes or peeks in the same cycle,
// never pops an empty stack and never pushes a full one (SVA below).
`default_nettype none

`include "common_macros.svh"

module radix_free_stack #(
  // The table in DDR behind an L1 cache (radix_table): on/off, geometry, timeout.
  parameter bit L2            = 1'b0,
  parameter int Sets          = 64,
  parameter int Ways          = 2,
  parameter int TimeoutCycles = 4096,
  // Entries, >= 2.
  parameter int Depth       = 1024,
  // Lowest free index: 1 for node slots (slot 0 is the root), 0 for lines.
  parameter int First       = 0,
  // Read latency of the stack RAM, >= 1.
  parameter int ReadLatency = 2,
  // Storage hint for common_ram_sdp.
  parameter     RamStyle    = "block",
  // Index width; derived.
  parameter int IdxW        = $clog2(Depth)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,

  // L2 tier of the table (radix_table); idle when L2 = 0.
  input  wire logic                           adv_i,
  input  wire logic [63:0]                    base_i,
  input  wire logic                           flush_i,
  input  wire logic                           clear_i,
  output logic                                stall_o,
  output logic                                flush_done_o,
  output logic                                fault_o,
  output logic      [1:0]                     fault_kind_o,
  output logic [radix_pkg::L1_NCNT*32-1:0]    cnt_o,
  output logic [radix_pkg::L1_REQ_W-1:0]      axi_req_o,
  input  wire logic [radix_pkg::L1_RSP_W-1:0] axi_rsp_i,

  input  wire logic            init_i,       // start a refill (ignores other requests)
  output logic                 ready_o,      // refill finished

  input  wire logic            pop_i,
  input  wire logic            peek_i,
  output logic                 pop_valid_o,  // pop or peek data valid this cycle
  output logic      [IdxW-1:0] pop_data_o,

  input  wire logic            push_i,
  input  wire logic [IdxW-1:0] push_data_i,

  output logic      [IdxW:0]   count_o
);

  `COMMON_PARAM_CHECK(g_bad_depth, Depth >= 2 && First >= 0 && First < Depth,
                      "radix_free_stack: Depth/First")

  localparam logic [IdxW:0] FULL = (IdxW + 1)'(Depth - First);

  logic [IdxW:0]       count_q, fill_q;
  logic                filling_q;
  logic [ReadLatency-1:0] rd_pipe_q;

  logic            we, re;
  logic [IdxW-1:0] waddr, raddr, wdata;

  always_comb begin
    we    = 1'b0;
    waddr = count_q[IdxW-1:0];
    wdata = push_data_i;
    re    = 1'b0;
    raddr = IdxW'(count_q - 1'b1);
    if (filling_q) begin
      // Entry i holds Depth-1-i, so the top (entry count-1) is First.
      we    = 1'b1;
      waddr = fill_q[IdxW-1:0];
      wdata = IdxW'((IdxW + 1)'(Depth - 1) - fill_q);
    end else begin
      we = push_i;
      re = pop_i || peek_i;
    end
  end

  radix_table #(
    .Width       (IdxW),
    .Depth       (Depth),
    .RamStyle    (RamStyle),
    .ReadLatency (ReadLatency),
    .L2          (L2),
    .Sets        (Sets),
    .Ways        (Ways),
    .TimeoutCycles (TimeoutCycles)
  ) u_ram (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .adv_i, .base_i, .flush_i, .clear_i, .stall_o, .flush_done_o, .fault_o, .fault_kind_o,
    .cnt_o, .axi_req_o, .axi_rsp_i,
    .we_i    (we),
    .waddr_i (waddr),
    .wdata_i (wdata),
    .re_i    (re),
    .raddr_i (raddr),
    .rdata_o (pop_data_o)
  );

  always_ff @(posedge clk_i) begin
    if (adv_i || !rst_ni) begin
      if (!rst_ni) begin
        count_q   <= '0;
        fill_q    <= '0;
        filling_q <= 1'b0;
        rd_pipe_q <= '0;
      end else begin
        rd_pipe_q <= ReadLatency'({rd_pipe_q, re});
        if (init_i) begin
          filling_q <= 1'b1;
          fill_q    <= '0;
          count_q   <= '0;
        end else if (filling_q) begin
          fill_q <= fill_q + 1'b1;
          if (fill_q + 1'b1 == FULL) begin
            filling_q <= 1'b0;
            count_q   <= FULL;
          end
        end else if (pop_i) begin
          count_q <= count_q - 1'b1;
        end else if (push_i) begin
          count_q <= count_q + 1'b1;
        end
      end
    end
  end

  assign pop_valid_o = rd_pipe_q[ReadLatency-1];
  assign ready_o     = !filling_q && !init_i;
  assign count_o     = count_q;

`ifdef COMMON_ASSERT_ON
  always_ff @(posedge clk_i) begin
    if (adv_i || !rst_ni) begin
      if (rst_ni && !filling_q && !init_i) begin
        if ((pop_i || peek_i) && count_q == '0) $fatal(1, "radix_free_stack: pop of an empty stack");
        if (push_i && count_q == FULL) $fatal(1, "radix_free_stack: push onto a full stack");
        if (int'(pop_i) + int'(push_i) + int'(peek_i) > 1) $fatal(1, "radix_free_stack: two requests");
      end
    end
  end
`endif

endmodule

`default_nettype wire
