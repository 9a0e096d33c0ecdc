// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite protocol checker for a slave port: a passive monitor, no outputs.
//
// Every channel (AW, W, B, AR, R) gets common_axis_checker's rules: valid held
// until ready, payload stable while stalled, no X/Z on valid and ready. Beyond
// the channels, checked from the cycle after reset on:
//   * a B is offered only for a write whose AW and W were both taken in an
//     earlier cycle and not yet answered (one response per write, none early);
//   * an R is offered only for a read whose AR was taken earlier and not yet
//     answered;
//   * no X/Z on BRESP while BVALID, nor on RRESP while RVALID.
// RDATA is not checked for X: a register without reset reads X until written.
// A violation calls $fatal with the instance path, which fails the test.
//
// Built only with `define COMMON_ASSERT_ON (scripts/sim.py sets it for every
// simulation); otherwise the module is empty. The response rules are immediate
// assertions in an always_ff, which Verilator (--assert) and Icarus 11 both run.
// Instantiate beside a slave port with `COMMON_AXIL_CHECK (common_macros.svh).
`default_nettype none

module common_axil_checker #(
  parameter int AddrW = 8,
  // Responses a slave may owe at once; the counters are this wide, plus one bit.
  parameter int PendW = 4
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [AddrW-1:0] awaddr_i,
  input  wire logic             awvalid_i,
  input  wire logic             awready_i,
  input  wire logic [31:0]      wdata_i,
  input  wire logic [3:0]       wstrb_i,
  input  wire logic             wvalid_i,
  input  wire logic             wready_i,
  input  wire logic [1:0]       bresp_i,
  input  wire logic             bvalid_i,
  input  wire logic             bready_i,
  input  wire logic [AddrW-1:0] araddr_i,
  input  wire logic             arvalid_i,
  input  wire logic             arready_i,
  input  wire logic [31:0]      rdata_i,
  input  wire logic [1:0]       rresp_i,
  input  wire logic             rvalid_i,
  input  wire logic             rready_i
);

`ifdef COMMON_ASSERT_ON
  common_axis_checker #(.DataW(AddrW)) u_aw (
    .clk_i, .rst_ni, .valid_i(awvalid_i), .ready_i(awready_i), .data_i(awaddr_i),
    .last_i(1'b0));
  common_axis_checker #(.DataW(36)) u_w (
    .clk_i, .rst_ni, .valid_i(wvalid_i), .ready_i(wready_i), .data_i({wstrb_i, wdata_i}),
    .last_i(1'b0));
  common_axis_checker #(.DataW(2)) u_b (
    .clk_i, .rst_ni, .valid_i(bvalid_i), .ready_i(bready_i), .data_i(bresp_i),
    .last_i(1'b0));
  common_axis_checker #(.DataW(AddrW)) u_ar (
    .clk_i, .rst_ni, .valid_i(arvalid_i), .ready_i(arready_i), .data_i(araddr_i),
    .last_i(1'b0));
  common_axis_checker #(.DataW(34)) u_r (
    .clk_i, .rst_ni, .valid_i(rvalid_i), .ready_i(rready_i), .data_i({rresp_i, rdata_i}),
    .last_i(1'b0));

  // Handshakes so far, modulo 2^(PendW+1): the differences are what is owed.
  logic [PendW:0] aw_q, w_q, b_q, ar_q, r_q;
  logic [PendW:0] owed_aw, owed_w, owed_r;
  assign owed_aw = aw_q - b_q;
  assign owed_w  = w_q - b_q;
  assign owed_r  = ar_q - r_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      aw_q <= '0;
      w_q  <= '0;
      b_q  <= '0;
      ar_q <= '0;
      r_q  <= '0;
    end else begin
      if (awvalid_i && awready_i) aw_q <= aw_q + 1'b1;
      if (wvalid_i && wready_i)   w_q  <= w_q + 1'b1;
      if (bvalid_i && bready_i)   b_q  <= b_q + 1'b1;
      if (arvalid_i && arready_i) ar_q <= ar_q + 1'b1;
      if (rvalid_i && rready_i)   r_q  <= r_q + 1'b1;
      if (bvalid_i === 1'b1) begin
        assert (owed_aw != '0 && owed_w != '0)
          else $fatal(1, "%m: AXI4-Lite B offered without a write whose AW and W were taken");
        assert (!$isunknown(bresp_i))
          else $fatal(1, "%m: AXI4-Lite X/Z on BRESP while BVALID");
      end
      if (rvalid_i === 1'b1) begin
        assert (owed_r != '0)
          else $fatal(1, "%m: AXI4-Lite R offered without a read whose AR was taken");
        assert (!$isunknown(rresp_i))
          else $fatal(1, "%m: AXI4-Lite X/Z on RRESP while RVALID");
      end
    end
  end
`else
  logic unused;
  assign unused = ^{clk_i, rst_ni, awaddr_i, awvalid_i, awready_i, wdata_i, wstrb_i, wvalid_i,
                    wready_i, bresp_i, bvalid_i, bready_i, araddr_i, arvalid_i, arready_i,
                    rdata_i, rresp_i, rvalid_i, rready_i};
`endif

endmodule
