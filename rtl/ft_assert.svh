// ft_assert.svh -- the one way the RTL states an invariant: `FT_ASSERT(Name_A, cond, (msg)).
//
// Expands to an immediate assertion, checked at every rising edge of clk_i out of reset
// (rst_ni high) on the values of the ending cycle, in an always block named Name_A, so both
// simulators name the failed check in its scope: Verilator "Assertion failed in TOP.rn1.Name_A:
// msg", Icarus "Scope: ....Name_A". Immediate, not concurrent: Icarus 11 has no concurrent
// assertions. A failure is $error, not $fatal: Verilator's context records it (gotError) and
// the harness reports it as the device's internal error after the edge, with the waveform
// closed. msg is $error's whole parenthesised argument list, format and values:
//   `FT_ASSERT(QueueNoOverflow_A, rq_cnt_q <= 4'd8, ("sci_lc: queue overflow rq %0d", rq_cnt_q))
// The module must have clk_i and rst_ni. Nothing is left under SYNTHESIS.
//
// `FT_COVER(Name_C, cond): a cover point on the same edge, out of reset (counted by Verilator
// with --coverage-user, make coverage; Icarus ignores it). Let cond read signals: in a coverage
// build with block splitting on, Verilator 5.006 computed a function called in a cover's
// condition only after the cover had read its result.
//
// `FT_ASSUME(Name_M, cond, (msg)): a constraint on the module's inputs (what the environment
// may drive), citing the contract clause that allows it. In simulation it is checked exactly
// as FT_ASSERT (a vector or fuzz run that breaks it fails, naming it); under FORMAL it is an
// assumption the proofs rely on. An assumption never excludes an input the contract responds to.
//
// Under FORMAL (SymbiYosys, formal/): the same three are bare immediate assert, assume and
// cover statements (no action block: the open frontend's form) on each cycle's values while
// rst_ni is high: the condition simulation samples at that cycle's closing edge. They are
// combinational (always @*), not clocked: Yosys checks a clocked one on values sampled at the
// edge, a step later in the solver's trace, so an induction over them needs one more step,
// and from a state of any value the sampled value is itself free (no 1-step induction closes).
// and `FT_FORMAL_RESET, placed once in a design's top module, assumes reset in the first cycle
// and none after it (the first state is otherwise arbitrary and every invariant would fail at
// step 1). A later reset leaves no state a first one cannot: reset is synchronous and sets every
// register it touches, and what it leaves (configuration, tables) starts arbitrary in a proof.
// Proofs read the RTL with -U SYNTHESIS -D FORMAL (formal/README.md): SYNTHESIS would empty
// every block. With FT_COVER_UNREACHABLE defined too, each FT_COVER becomes the assertion that
// its condition never holds: a proof of it proves the cover unreachable in that design form.
//
// A failure does `FT_ASSERT_FAIL(msg): $error, unless it is defined before this file is read. A
// testbench written by ftsim export-tb defines it as $error that also tells the testbench,
// which then fails the vector as the harness does.
//
// Each definition is one line: Icarus 11 adds a macro's continuation lines to the line number
// it reports for everything in the expansion.
`ifndef FT_ASSERT_SVH
`define FT_ASSERT_SVH

`ifdef SYNTHESIS
`define FT_ASSERT(name, cond, msg)
`define FT_ASSUME(name, cond, msg)
`define FT_COVER(name, cond)
`define FT_FORMAL_RESET
`elsif FORMAL
`define FT_ASSERT(name, cond, msg) always @(*) if (rst_ni) name: assert (cond);
`define FT_ASSUME(name, cond, msg) always @(*) if (rst_ni) name: assume (cond);
`ifdef FT_COVER_UNREACHABLE
`define FT_COVER(name, cond) always @(*) if (rst_ni) name: assert (!(cond));
`else
`define FT_COVER(name, cond) always @(*) if (rst_ni) name: cover (cond);
`endif
`define FT_FORMAL_RESET reg ft_f_first = 1'b1; always @(posedge clk_i) ft_f_first <= 1'b0; always @(*) assume (rst_ni == !ft_f_first);
`else
`ifndef FT_ASSERT_FAIL
`define FT_ASSERT_FAIL(msg) $error msg;
`endif
`define FT_ASSERT_IF(cond, msg) if (rst_ni) assert (cond) else begin `FT_ASSERT_FAIL(msg) end
`define FT_ASSERT(name, cond, msg) always @(posedge clk_i) begin : name `FT_ASSERT_IF(cond, msg) end
`define FT_ASSUME(name, cond, msg) always @(posedge clk_i) begin : name `FT_ASSERT_IF(cond, msg) end
`define FT_COVER(name, cond) always @(posedge clk_i) begin : name if (rst_ni) cover (cond); end
`define FT_FORMAL_RESET
`endif

`endif
