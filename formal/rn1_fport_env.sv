// rn1_fport_env -- formal only (formal/rn1.sby, tasks cvp0 and cvp4): one RN1 forward port with
// exactly the inputs RN1 can give it, so that a cover the port reaches here is reached in RN1.
//
// Every input of rn1_fport in rn1.v is an RN1 input (fwd_i, bwd_i, bwd_bc_i) or a configuration
// field (mode, swallow, disable, backchan) that a register write sets to any value from the
// next cycle on (rtl/rn1.md 8), so they are free here. The one computed input is gnt_i, the
// allocator's answer (rtl/rn1.md 5): 0 unless the port requests, at most one backward port, and
// one of the port's enabled candidates. Each such answer is one RN1 gives: the port requests
// only in IDLE or SWALLOW, where it owns no backward port, so the other seven ports can hold any
// of its candidates (gnt_i 0, blocked), and between two free candidates the LFSR bit of the
// port and the bc inputs choose either. Reset in the first cycle, as FT_FORMAL_RESET in rn1.v.
// FreeGnt = 1 (tasks prt0, prt4, proofs): gnt_i unconstrained too, so what is proven holds for
// any answer of the allocator, the ones RN1 gives among them.
`default_nettype none

module rn1_fport_env #(
  parameter PortIdx = 0,
  parameter FreeGnt = 0
) (
  input  wire        clk_i,
  input  wire [8:0]  fwd_i,
  input  wire [71:0] bwd_i,
  input  wire        mode_i,
  input  wire        swallow_i,
  input  wire [7:0]  disable_i,
  input  wire        bc_en_i,
  input  wire [7:0]  bwd_bc_i,
  input  wire [7:0]  gnt_i
);
  reg first = 1'b1;
  always @(posedge clk_i) first <= 1'b0;
  wire rst_ni = !first;

  wire       req;
  wire [7:0] cand;

  rn1_fport #(.PortIdx(PortIdx)) u_fport (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .fwd_i      (fwd_i),
    .bwd_i      (bwd_i),
    .mode_i     (mode_i),
    .swallow_i  (swallow_i),
    .disable_i  (disable_i),
    .bc_en_i    (bc_en_i),
    .bwd_bc_i   (bwd_bc_i),
    .gnt_i      (gnt_i),
    .req_o      (req),
    .cand_o     (cand),
    .out_o      (),
    .bwd_word_o (),
    .bwd_sel_o  (),
    .free_o     (),
    .err_o      (),
    .idle_o     (),
    .bc_pulse_o (),
    .dbg_o      ()
  );

  always @(*) begin
    if (!FreeGnt) begin
      assume ((gnt_i & ~cand) == 8'h00);           // one of its enabled candidates
      assume ((gnt_i & (gnt_i - 8'd1)) == 8'h00);  // at most one
      if (!req) assume (gnt_i == 8'h00);           // only to a request
    end
  end
endmodule

`default_nettype wire
