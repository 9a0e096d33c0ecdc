// SPDX-License-Identifier: Apache-2.0
// An on-chip RAM of the radix controller in core time: common_ram_sdp whose read,
// write and output pipeline move only in cycles with adv_i high ("ticks").
//
// A core that freezes while an L1 cache waits for DDR must find its RAMs exactly
// as it left them: a read issued at tick k has its data on rdata_o at tick
// k + ReadLatency however many frozen cycles lie between, and the data stays
// until the next read's data replaces it. With adv_i tied high this is
// common_ram_sdp, and synthesis removes the enables (BRAM/URAM output registers
// have clock enables, so the pipeline still maps into them). The array starts at
// zero (InitZero), as FPGA RAM does: rows the core reads ahead of what a command
// wrote then hold defined values, which matters where they reach DDR.
`default_nettype none

module radix_ram #(
  parameter int Width       = 32,
  parameter int Depth       = 512,
  parameter     RamStyle    = "block",
  // Ticks from re_i to rdata_o, 1..8.
  parameter int ReadLatency = 2,
  parameter int AddrW       = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             adv_i,
  input  wire logic             we_i,
  input  wire logic [AddrW-1:0] waddr_i,
  input  wire logic [Width-1:0] wdata_i,
  input  wire logic             re_i,
  input  wire logic [AddrW-1:0] raddr_i,
  output logic      [Width-1:0] rdata_o
);

  logic [Width-1:0] rd;

  // One cycle of latency, and rd holds between reads: a frozen cycle issues none.
  common_ram_sdp #(.Width(Width), .Depth(Depth), .RamStyle(RamStyle), .ReadLatency(1),
                   .InitZero(1'b1)) u_ram (
    .clk_i (clk_i), .we_i (we_i && adv_i), .waddr_i (waddr_i), .wdata_i (wdata_i),
    .re_i (re_i && adv_i), .raddr_i (raddr_i), .rdata_o (rd));

  if (ReadLatency == 1) begin : g_lat1
    assign rdata_o = rd;
  end else begin : g_latn
    // A flat vector: Icarus 11 does not propagate an assign from an unpacked array word.
    localparam int PipeW = (ReadLatency - 1) * Width;
    logic [PipeW-1:0] pipe_q;
    if (ReadLatency == 2) begin : g_two
      always_ff @(posedge clk_i) if (adv_i) pipe_q <= rd;
    end else begin : g_more
      always_ff @(posedge clk_i) if (adv_i) pipe_q <= {pipe_q[PipeW-Width-1:0], rd};
    end
    assign rdata_o = pipe_q[PipeW-1 -: Width];
  end

endmodule

`default_nettype wire
