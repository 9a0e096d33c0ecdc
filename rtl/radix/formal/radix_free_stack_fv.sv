// SPDX-License-Identifier: Apache-2.0
// Formal harness of radix_free_stack, the radix core's free lists (node slots, token
// lines): conservation of indices. A shadow bitmap tracks which indices the caller
// holds (popped and not pushed back). Asserted:
//   * a pop returns an index in First..Depth-1 that nobody holds (no double
//     allocation), and a peek returns the index the next pop will unless a push
//     came in between;
//   * free + held + pops in flight = Depth - First whenever the stack is ready
//     after a refill (nothing is lost or created; before the first refill after
//     reset the stack is empty, and the core always refills it first);
//   * after a refill the pops return First, First+1, ... in order (the protocol's
//     handle order) -- checked on the first pop after init;
//   * a refill takes Depth - First cycles: ready_o is low from init_i until then and
//     high after (the core's RESET time, which no answer shows, so no test sees it).
// Assumed (the caller, as radix_core behaves and its SVA check): one request per
// cycle, only while ready; no pop or peek of an empty stack, no push onto a full one;
// a push returns an index the caller holds; a refill starts with no pop in flight.
// Bounded model check (radix_free_stack.sby). Formal only.
`default_nettype none

module radix_free_stack_fv #(
  parameter int Depth       = 4,
  parameter int First       = 1,
  parameter int ReadLatency = 2,
  parameter int IdxW        = $clog2(Depth)
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            init_i,
  input  wire logic            pop_i,
  input  wire logic            peek_i,
  input  wire logic            push_i,
  input  wire logic [IdxW-1:0] push_data_i
);

  logic            ready, pop_valid;
  logic [IdxW-1:0] pop_data;
  logic [IdxW:0]   count;

  // The on-chip build, advancing every cycle: the L2 ports are tied off.
  logic                               l2_stall, l2_done, l2_fault;
  logic [1:0]                         l2_kind;
  logic [radix_pkg::L1_NCNT*32-1:0]   l2_cnt;
  logic [radix_pkg::L1_REQ_W-1:0]     l2_req;
  radix_free_stack #(.Depth(Depth), .First(First), .ReadLatency(ReadLatency)) u_dut (
    .clk_i (clk_i), .rst_ni (rst_ni), .adv_i (1'b1), .base_i (64'h0), .flush_i (1'b0),
    .clear_i (1'b0), .stall_o (l2_stall), .flush_done_o (l2_done), .fault_o (l2_fault),
    .fault_kind_o (l2_kind), .cnt_o (l2_cnt), .axi_req_o (l2_req), .axi_rsp_i ('0),
    .init_i (init_i), .ready_o (ready),
    .pop_i (pop_i), .peek_i (peek_i), .pop_valid_o (pop_valid), .pop_data_o (pop_data),
    .push_i (push_i), .push_data_i (push_data_i), .count_o (count));

  localparam int Full = Depth - First;

  logic past_valid_q = 1'b0;
  logic init_seen_q  = 1'b0;     // a reset has happened: the state is reachable
  logic [Depth-1:0] held_q;
  logic [ReadLatency-1:0] pop_pipe_q, peek_pipe_q;
  logic [IdxW:0] in_flight;      // pops requested whose data has not come back
  logic          first_pop_q;    // the next pop is the first since the refill
  logic [IdxW-1:0] expect_q;     // what a refill's pops return, in order
  logic          peeked_q;       // a peek's data is in peek_data_q and no push came after it
  logic          peek_ok_q;      // no push since the last peek was asked for
  logic          refilled_q;     // a refill has been asked for since reset
  logic [IdxW-1:0] peek_data_q;
  logic [IdxW+1:0] since_q;      // cycles since the last init_i (saturates past Full)

  always_comb begin
    in_flight = '0;
    for (int i = 0; i < ReadLatency; i++) in_flight = in_flight + (IdxW + 1)'(pop_pipe_q[i]);
  end

  function automatic int popcount(input logic [Depth-1:0] v);
    popcount = 0;
    for (int i = 0; i < Depth; i++) popcount = popcount + int'(v[i]);
  endfunction

  logic pop_ret, peek_ret;
  assign pop_ret  = pop_valid && pop_pipe_q[ReadLatency-1];
  assign peek_ret = pop_valid && peek_pipe_q[ReadLatency-1];

  // The caller's rules.
  always @(posedge clk_i) begin
    past_valid_q <= 1'b1;
    if (!past_valid_q) assume (!rst_ni);
    if (rst_ni) begin
      assume (int'(pop_i) + int'(peek_i) + int'(push_i) + int'(init_i) <= 1);
      if (!ready) assume (!pop_i && !peek_i && !push_i);
      if (count == '0) assume (!pop_i && !peek_i);
      if (count == (IdxW + 1)'(Full)) assume (!push_i);
      if (push_i) assume (held_q[push_data_i]);
      if (init_i) assume (in_flight == '0 && pop_pipe_q == '0 && peek_pipe_q == '0);
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      init_seen_q <= 1'b1;
      held_q      <= '0;
      pop_pipe_q  <= '0;
      peek_pipe_q <= '0;
      first_pop_q <= 1'b0;
      peeked_q    <= 1'b0;
      peek_ok_q   <= 1'b0;
      refilled_q  <= 1'b0;
    end else begin
      pop_pipe_q  <= ReadLatency'({pop_pipe_q, pop_i});
      peek_pipe_q <= ReadLatency'({peek_pipe_q, peek_i});
      if (init_i) since_q <= (IdxW + 2)'(1);
      else if (32'(since_q) <= Full) since_q <= since_q + 1'b1;
      if (init_i) begin
        refilled_q  <= 1'b1;
        held_q      <= '0;
        first_pop_q <= 1'b1;
        expect_q    <= IdxW'(First);
        peeked_q    <= 1'b0;
      end else begin
        if (pop_ret) held_q[pop_data] <= 1'b1;
        if (push_i) begin
          held_q[push_data_i] <= 1'b0;
          first_pop_q <= 1'b0;
        end
        if (pop_ret) begin
          expect_q <= expect_q + 1'b1;
          peeked_q <= 1'b0;
        end
        if (peek_i) peek_ok_q <= 1'b1;
        if (peek_ret) begin
          peeked_q    <= peek_ok_q && !push_i;
          peek_data_q <= pop_data;
        end
        if (push_i) begin
          peeked_q  <= 1'b0;
          peek_ok_q <= 1'b0;
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (rst_ni && init_seen_q) begin
      if (pop_ret) begin
        assert (32'(pop_data) >= 32'(First) && 32'(pop_data) < 32'(Depth));
        assert (!held_q[pop_data]);
        if (first_pop_q) assert (pop_data == expect_q);
        if (peeked_q) assert (pop_data == peek_data_q);
      end
      if (refilled_q && !init_i) assert (ready == (32'(since_q) > Full));
      if (refilled_q && ready && !init_i)
        assert (32'(count) + 32'(popcount(held_q)) + 32'(in_flight) == 32'(Full));
      cover (ready && count == '0);                    // everything handed out
      cover (pop_ret && held_q == '0 && !first_pop_q); // popped again after a push
      cover (peek_ret);
    end
  end

endmodule

`default_nettype wire
