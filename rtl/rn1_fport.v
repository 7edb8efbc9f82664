`default_nettype none
// rn1_fport -- the RNP connection state machine of one RN1 forward port.
//
// rn1 has one per forward port (PortIdx 0..7, which selects the half in dual mode). Each cycle
// the port looks at its live input; a routing word raises req_o with its candidates cand_o and
// rn1, arbitrating all ports in rotating order, answers with gnt_i in the same cycle. gnt_i
// depends on req_o/cand_o only, and the block that computes them never reads gnt_i, so there is
// no combinational loop. Every output is a next value for rn1's output registers (port list).
// States, transitions, debug encoding and the backward channel are rtl/rn1.md's.
//
// Coding rule (see rn1.v): every always_comb assigns each of its outputs exactly once per
// evaluation; logic that needs defaults-then-overrides lives in an automatic function.

`include "ft_assert.svh"

module rn1_fport #(
  parameter PortIdx = 0
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire  [8:0]  fwd_i,       // this port's forward input
  input  wire  [71:0] bwd_i,       // all backward inputs; b(j) is bwd_i[j*9 +: 9]
  // Configuration in force during this cycle (rn1's registers).
  input  wire         mode_i,      // 0 dilated, 1 dual
  input  wire         swallow_i,   // this port's SWALLOW bit
  input  wire  [7:0]  disable_i,   // disabled backward ports
  input  wire         bc_en_i,     // backchan: the backward channel is on this cycle
  input  wire  [7:0]  bwd_bc_i,    // bc inputs of all backward ports; b(j) is bit j
  input  wire  [7:0]  gnt_i,       // one-hot backward port granted to this cycle's request
  output logic        req_o,       // a routing word is deciding this cycle
  output logic [7:0]  cand_o,      // enabled backward ports of its direction
  output logic [8:0]  out_o,       // next value of this port's forward output
  output logic [8:0]  bwd_word_o,  // next value of the backward output in bwd_sel_o
  output logic [7:0]  bwd_sel_o,   // one-hot backward output bwd_word_o goes to (0 = none)
  output logic [7:0]  free_o,      // one-hot backward port freed this cycle (closing word, drop)
  output logic        err_o,       // invalid control word on the live input, no drop winning
  output logic        idle_o,      // the port is IDLE in the next cycle
  output logic        bc_pulse_o,  // bc is 1 next cycle: a backward drop, or a blocked collapse
  /*verilator tracing_off*/ // not in waveforms: its fields are, by name (rn1.v, dbg_o)
  output logic [31:0] dbg_o        // PORT debug register
  /*verilator tracing_on*/
);

  localparam WORD_W = 9;

  // Words (c = bit 8).
  localparam [8:0] W_IDLE = 9'h000;
  localparam [8:0] W_TURN = 9'h055;
  localparam [8:0] W_HOLD = 9'h0AA;
  localparam [8:0] W_DROP = 9'h0FF;

  // State codes (rn1.md, shared with the C model and the harness).
  localparam [3:0] ST_IDLE     = 4'd0;
  localparam [3:0] ST_SWALLOW  = 4'd1;
  localparam [3:0] ST_FORWARD  = 4'd2;
  localparam [3:0] ST_BLOCKED  = 4'd3;
  localparam [3:0] ST_STATUS   = 4'd4;
  localparam [3:0] ST_CHECKSUM = 4'd5;
  localparam [3:0] ST_REVERSE  = 4'd6;
  localparam [3:0] ST_HOLD     = 4'd7;
  localparam [3:0] ST_DROP     = 4'd8;
  localparam [3:0] ST_DISCARD  = 4'd9;

  // Dispositions (rn1.md section 2).
  localparam [1:0] DISP_BUSY = 2'b00;  // blocked, some port of the direction enabled
  localparam [1:0] DISP_DEAD = 2'b01;  // blocked, every port of the direction disabled
  localparam [1:0] DISP_EVEN = 2'b10;  // routed, first equivalent output
  localparam [1:0] DISP_ODD  = 2'b11;  // routed, second equivalent output (dilated only)

  // In dual mode f0..f3 use b0..b3 and f4..f7 use b4..b7.
  localparam [0:0] HALF = (PortIdx >= 4) ? 1'b1 : 1'b0;

  logic [3:0] state_q, state_d;
  logic [2:0] bq_q, bq_d;
  logic [1:0] disp_q, disp_d;
  logic [5:0] count_q, count_d;
  logic [7:0] xor_q, xor_d;
  logic       armed_q, armed_d;

  // The live input word and its fields (W_IDLE when no input is live).
  logic [8:0] live_w;
  wire        live_c   = live_w[8];
  wire  [7:0] live_d   = live_w[7:0];
  wire  [1:0] live_dir = live_w[7:6];

  logic       is_turn, is_hold, is_drop, is_inv;
  logic [7:0] cand_all;

  // Decision outcome for this cycle.
  logic       gnt_any;
  logic [2:0] gnt_idx;
  logic [1:0] dec_disp;
  logic [7:0] bq_onehot;

  // Backward drop request from the bc input of bq, taken this cycle.
  logic       drop_req;

  // Which input is live (rn1.md section 4 and decision 2). The case's default is the
  // block's default, so live_w is assigned once per evaluation (coding rule above).
  always_comb begin
    case (state_q)
      ST_IDLE, ST_SWALLOW, ST_FORWARD, ST_BLOCKED,
      ST_DISCARD:                                  live_w = fwd_i;
      ST_REVERSE:                                  live_w = bwd_i[bq_q*WORD_W +: WORD_W];
      default:                                     live_w = W_IDLE;  // both inputs ignored
    endcase
  end

  // Word class, backward drop request, routing request and candidates. Must not read gnt_i
  // (see header). armed_q implies that the state owns bq: FORWARD after IDLE/SWALLOW and a
  // blocked STATUS come from states that own none, so they are never armed.
  always_comb begin
    is_turn  = (live_w == W_TURN);
    is_hold  = (live_w == W_HOLD);
    is_drop  = (live_w == W_DROP);
    is_inv   = !live_c && (live_w != W_IDLE) && !is_turn && !is_hold && !is_drop;
    drop_req = bc_en_i && armed_q && bwd_bc_i[bq_q] &&
               ((state_q == ST_FORWARD) || (state_q == ST_STATUS) ||
                (state_q == ST_REVERSE) || (state_q == ST_HOLD));
    err_o    = is_inv && !drop_req;  // a word a drop request wins over is ignored

    if (mode_i) begin
      cand_all = 8'd1 << {HALF, live_dir};
    end else begin
      cand_all = 8'd3 << {live_dir, 1'b0};
    end
    cand_o = cand_all & ~disable_i;

    req_o = live_c && (((state_q == ST_IDLE) && !swallow_i) || (state_q == ST_SWALLOW));
  end

  // Outcome of this cycle's decision (only used when req_o is high).
  always_comb begin
    gnt_any   = (gnt_i != 8'h00);
    gnt_idx   = {(gnt_i & 8'hF0) != 8'h00, (gnt_i & 8'hCC) != 8'h00, (gnt_i & 8'hAA) != 8'h00};
    bq_onehot = 8'd1 << bq_q;
    if (gnt_any) begin
      dec_disp = (!mode_i && ((gnt_i & 8'hAA) != 8'h00)) ? DISP_ODD : DISP_EVEN;
    end else begin
      dec_disp = (cand_o != 8'h00) ? DISP_BUSY : DISP_DEAD;
    end
  end

  // Next state and outputs: {state, bq, disp, count, xor, out, bwd_word, bwd_sel, free, bc}.
  // drop_i (a backward drop request taken this cycle) wins over the live word; collapse_i (the
  // backward channel is on) turns a blocked routing word into a collapse to DISCARD.
  function automatic [57:0] fsm_next(
    input [3:0] state_i, input [2:0] bq_i, input [1:0] disp_i, input [5:0] count_i,
    input [7:0] xor_i, input [8:0] live_w_i, input live_c_i, input [7:0] live_d_i,
    input is_turn_i, input is_hold_i, input is_drop_i, input is_inv_i, input swallow_en_i,
    input [7:0] gnt_oh_i, input gnt_any_i, input [2:0] gnt_idx_i, input [1:0] dec_disp_i,
    input [7:0] bq_oh_i, input collapse_i, input drop_i);
    logic [3:0] nx_state;
    logic [2:0] nx_bq;
    logic [1:0] nx_disp;
    logic [5:0] nx_count;
    logic [7:0] nx_xor;
    logic [8:0] nx_out, nx_bword;
    logic [7:0] nx_bsel, nx_free;
    logic       nx_bc;
    // The routing decision of this cycle, taken the same way in IDLE and SWALLOW:
    // {state, bq, disp, bwd_word, bwd_sel, bc}. Granted: FORWARD, the routing word leaves on the
    // granted port. Blocked: BLOCKED, or DISCARD with a bc pulse when collapse_i.
    logic [26:0] decide;

    decide = gnt_any_i ? {ST_FORWARD, gnt_idx_i, dec_disp_i, live_w_i, gnt_oh_i, 1'b0}
                       : {collapse_i ? ST_DISCARD : ST_BLOCKED, 3'd0, dec_disp_i, W_IDLE, 8'h00,
                          collapse_i};
    nx_state = state_i;
    nx_bq    = bq_i;
    nx_disp  = disp_i;
    nx_count = count_i;
    nx_xor   = xor_i;
    nx_out   = W_IDLE;
    nx_bword = W_IDLE;
    nx_bsel  = 8'h00;
    nx_free  = 8'h00;
    nx_bc    = 1'b0;

    case (state_i)
      // IDLE: a c=1 word opens a connection (count/xor restart); c=0 words keep IDLE. A blocked
      // routing word goes to BLOCKED, or with the backward channel on to DISCARD and bc 1.
      ST_IDLE: begin
        if (live_c_i) begin
          nx_count = 6'd1;
          nx_xor   = live_d_i;
          if (!swallow_en_i) begin
            {nx_state, nx_bq, nx_disp, nx_bword, nx_bsel, nx_bc} = decide;
          end else begin
            nx_state = ST_SWALLOW;
          end
        end
      end

      // SWALLOW: the next c=1 word is the routing word (blocked: as in IDLE); HOLD ignored;
      // TURN as in BLOCKED with disposition 00 (bq 0), backward channel or not; DROP, IDLE or
      // invalid close.
      ST_SWALLOW: begin
        if (live_c_i) begin
          nx_count = count_i + 6'd1;
          nx_xor   = xor_i ^ live_d_i;
          {nx_state, nx_bq, nx_disp, nx_bword, nx_bsel, nx_bc} = decide;
        end else if (is_turn_i) begin
          nx_bq    = 3'd0;
          nx_disp  = DISP_BUSY;
          nx_out   = {1'b1, DISP_BUSY, count_i};
          nx_state = ST_STATUS;
        end else if (!is_hold_i) begin
          nx_state = ST_IDLE;
        end
      end

      // FORWARD: words go to bq; c=1 counted; TURN returns STATUS; DROP/IDLE/invalid close.
      // A backward drop frees bq (IDLE on it and on out next) and goes to DISCARD.
      ST_FORWARD: begin
        if (drop_i) begin
          nx_free  = bq_oh_i;
          nx_bc    = 1'b1;
          nx_state = ST_DISCARD;
        end else begin
          nx_bsel = bq_oh_i;
          if (live_c_i) begin
            nx_bword = live_w_i;
            nx_count = count_i + 6'd1;
            nx_xor   = xor_i ^ live_d_i;
          end else if (is_hold_i) begin
            nx_bword = W_HOLD;
          end else if (is_turn_i) begin
            nx_bword = W_TURN;
            nx_out   = {1'b1, disp_i, count_i};
            nx_state = ST_STATUS;
          end else if (is_drop_i || is_inv_i) begin
            nx_bword = W_DROP;
            nx_free  = bq_oh_i;
            nx_state = ST_IDLE;
          end else begin
            nx_bword = W_IDLE;
            nx_free  = bq_oh_i;
            nx_state = ST_IDLE;
          end
        end
      end

      // BLOCKED: c=1 counted and discarded; HOLD ignored; TURN returns STATUS; others close.
      ST_BLOCKED: begin
        if (live_c_i) begin
          nx_count = count_i + 6'd1;
          nx_xor   = xor_i ^ live_d_i;
        end else if (is_turn_i) begin
          nx_out   = {1'b1, disp_i, count_i};
          nx_state = ST_STATUS;
        end else if (!is_hold_i) begin
          nx_state = ST_IDLE;
        end
      end

      // STATUS: STATUS is on out; CHECKSUM next; then REVERSE if routed, else CHECKSUM.
      // A backward drop (routed only: armed) frees bq and puts DROP on out instead of CHECKSUM.
      ST_STATUS: begin
        if (drop_i) begin
          nx_out   = W_DROP;
          nx_free  = bq_oh_i;
          nx_bc    = 1'b1;
          nx_state = ST_IDLE;
        end else begin
          nx_out   = {1'b1, xor_i};
          nx_state = (disp_i == DISP_EVEN || disp_i == DISP_ODD) ? ST_REVERSE : ST_CHECKSUM;
        end
      end

      // CHECKSUM (blocked only): CHECKSUM is on out; DROP next.
      ST_CHECKSUM: begin
        nx_out   = W_DROP;
        nx_state = ST_DROP;
      end

      // REVERSE: words of bq go to out; TURN sends TURN up and HOLD down; others close.
      // A backward drop frees bq and puts DROP on out.
      ST_REVERSE: begin
        if (drop_i) begin
          nx_out   = W_DROP;
          nx_free  = bq_oh_i;
          nx_bc    = 1'b1;
          nx_state = ST_IDLE;
        end else if (live_c_i || is_hold_i) begin
          nx_out = live_w_i;
        end else if (is_turn_i) begin
          nx_out   = W_TURN;
          nx_bword = W_HOLD;
          nx_bsel  = bq_oh_i;
          nx_state = ST_HOLD;
        end else if (is_drop_i || is_inv_i) begin
          nx_out   = W_DROP;
          nx_free  = bq_oh_i;
          nx_state = ST_IDLE;
        end else begin
          nx_out   = W_IDLE;
          nx_free  = bq_oh_i;
          nx_state = ST_IDLE;
        end
      end

      // HOLD: HOLD is on bq and goes out again next; then FORWARD. A backward drop frees bq
      // and goes to DISCARD (IDLE on bq and out next).
      ST_HOLD: begin
        if (drop_i) begin
          nx_free  = bq_oh_i;
          nx_bc    = 1'b1;
          nx_state = ST_DISCARD;
        end else begin
          nx_bword = W_HOLD;
          nx_bsel  = bq_oh_i;
          nx_state = ST_FORWARD;
        end
      end

      // DROP (blocked connections, and after a TURN in DISCARD): DROP is on out; IDLE next.
      ST_DROP: begin
        nx_state = ST_IDLE;
      end

      // DISCARD (backward channel): c=1 words and HOLD discarded, not counted; TURN answers
      // DROP through the DROP state; DROP, IDLE or invalid return to IDLE; out otherwise IDLE.
      ST_DISCARD: begin
        if (is_turn_i) begin
          nx_out   = W_DROP;
          nx_state = ST_DROP;
        end else if (!live_c_i && !is_hold_i) begin
          nx_state = ST_IDLE;
        end
      end

      // Unused codes: recover to IDLE.
      default: begin
        nx_state = ST_IDLE;
      end
    endcase

    return {nx_state, nx_bq, nx_disp, nx_count, nx_xor, nx_out, nx_bword, nx_bsel, nx_free,
            nx_bc};
  endfunction

  always_comb begin
    {state_d, bq_d, disp_d, count_d, xor_d, out_o, bwd_word_o, bwd_sel_o, free_o, bc_pulse_o} =
        fsm_next(state_q, bq_q, disp_q, count_q, xor_q, live_w, live_c, live_d,
                 is_turn, is_hold, is_drop, is_inv, swallow_i,
                 gnt_i, gnt_any, gnt_idx, dec_disp, bq_onehot, bc_en_i, drop_req);
  end

  // IDLE next cycle (busy hint), and armed: this cycle's state owns bq, so the bc input of bq
  // is a drop request in the next cycle.
  always_comb begin
    idle_o  = (state_d == ST_IDLE);
    armed_d = (state_q == ST_FORWARD) || (state_q == ST_STATUS) ||
              (state_q == ST_REVERSE) || (state_q == ST_HOLD);
  end

  always_comb begin
    dbg_o = {xor_q, 2'b00, count_q, 3'b000, armed_q, 2'b00, disp_q, 1'b0, bq_q, state_q};
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= ST_IDLE;
      bq_q    <= 3'd0;
      disp_q  <= 2'b00;
      count_q <= 6'd0;
      xor_q   <= 8'h00;
      armed_q <= 1'b0;
    end else begin
      state_q <= state_d;
      bq_q    <= bq_d;
      disp_q  <= disp_d;
      count_q <= count_d;
      xor_q   <= xor_d;
      armed_q <= armed_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Cover points (make coverage): every state of rtl/rn1.md section 12 and every legal
  // transition, the backward drop and the collapse by the state they leave.
`ifndef SYNTHESIS
  wire [3:0] cs = state_q;  // (short names: one cover a line)
  wire [3:0] ns = state_d;
  `FT_COVER(StIdle_C, cs == ST_IDLE)
  `FT_COVER(StSwallow_C, cs == ST_SWALLOW)
  `FT_COVER(StForward_C, cs == ST_FORWARD)
  `FT_COVER(StBlocked_C, cs == ST_BLOCKED)
  `FT_COVER(StStatus_C, cs == ST_STATUS)
  `FT_COVER(StChecksum_C, cs == ST_CHECKSUM)
  `FT_COVER(StReverse_C, cs == ST_REVERSE)
  `FT_COVER(StHold_C, cs == ST_HOLD)
  `FT_COVER(StDrop_C, cs == ST_DROP)
  `FT_COVER(StDiscard_C, cs == ST_DISCARD)
  `FT_COVER(IdleToSwallow_C, cs == ST_IDLE && ns == ST_SWALLOW)
  `FT_COVER(IdleToForward_C, cs == ST_IDLE && ns == ST_FORWARD)
  `FT_COVER(IdleToBlocked_C, cs == ST_IDLE && ns == ST_BLOCKED)
  `FT_COVER(IdleToDiscard_C, cs == ST_IDLE && ns == ST_DISCARD)
  `FT_COVER(SwallowStays_C, cs == ST_SWALLOW && ns == ST_SWALLOW)
  `FT_COVER(SwallowToForward_C, cs == ST_SWALLOW && ns == ST_FORWARD)
  `FT_COVER(SwallowToBlocked_C, cs == ST_SWALLOW && ns == ST_BLOCKED)
  `FT_COVER(SwallowToDiscard_C, cs == ST_SWALLOW && ns == ST_DISCARD)
  `FT_COVER(SwallowToStatus_C, cs == ST_SWALLOW && ns == ST_STATUS)
  `FT_COVER(SwallowToIdle_C, cs == ST_SWALLOW && ns == ST_IDLE)
  `FT_COVER(ForwardStays_C, cs == ST_FORWARD && ns == ST_FORWARD)
  `FT_COVER(ForwardToStatus_C, cs == ST_FORWARD && ns == ST_STATUS)
  `FT_COVER(ForwardToIdle_C, cs == ST_FORWARD && ns == ST_IDLE)
  `FT_COVER(ForwardToDiscard_C, cs == ST_FORWARD && ns == ST_DISCARD)
  `FT_COVER(BlockedStays_C, cs == ST_BLOCKED && ns == ST_BLOCKED)
  `FT_COVER(BlockedToStatus_C, cs == ST_BLOCKED && ns == ST_STATUS)
  `FT_COVER(BlockedToIdle_C, cs == ST_BLOCKED && ns == ST_IDLE)
  `FT_COVER(StatusToReverse_C, cs == ST_STATUS && ns == ST_REVERSE)
  `FT_COVER(StatusToChecksum_C, cs == ST_STATUS && ns == ST_CHECKSUM)
  `FT_COVER(StatusToIdle_C, cs == ST_STATUS && ns == ST_IDLE)
  `FT_COVER(ChecksumToDrop_C, cs == ST_CHECKSUM && ns == ST_DROP)
  `FT_COVER(ReverseStays_C, cs == ST_REVERSE && ns == ST_REVERSE)
  `FT_COVER(ReverseToHold_C, cs == ST_REVERSE && ns == ST_HOLD)
  `FT_COVER(ReverseToIdle_C, cs == ST_REVERSE && ns == ST_IDLE && !drop_req)
  `FT_COVER(ReverseDropToIdle_C, cs == ST_REVERSE && ns == ST_IDLE && drop_req)
  `FT_COVER(HoldToForward_C, cs == ST_HOLD && ns == ST_FORWARD)
  `FT_COVER(HoldToDiscard_C, cs == ST_HOLD && ns == ST_DISCARD)
  `FT_COVER(DropToIdle_C, cs == ST_DROP && ns == ST_IDLE)
  `FT_COVER(DiscardStays_C, cs == ST_DISCARD && ns == ST_DISCARD)
  `FT_COVER(DiscardToDrop_C, cs == ST_DISCARD && ns == ST_DROP)
  `FT_COVER(DiscardToIdle_C, cs == ST_DISCARD && ns == ST_IDLE)
  // An invalid word counted, and one a backward drop wins over (not counted).
  `FT_COVER(InvalidCounted_C, err_o)
  `FT_COVER(InvalidUnderDrop_C, is_inv && drop_req)

  // Properties from the contract (rtl/rn1.md; proven by formal/, checked in every simulation),
  // each with the cover of its premise. f_* name a premise.
  wire f_fwd_hold   = cs == ST_FORWARD && is_hold && !drop_req;
  wire f_fwd_turn   = cs == ST_FORWARD && is_turn && !drop_req;
  wire f_status     = cs == ST_STATUS && !drop_req;
  wire f_rev_turn   = cs == ST_REVERSE && is_turn && !drop_req;
  wire f_hold       = cs == ST_HOLD && !drop_req;
  wire f_swal_turn  = cs == ST_SWALLOW && is_turn;
  wire f_granted    = req_o && gnt_any;
  // rn1.md 4 FORWARD: HOLD leaves on bq, not counted.
  `FT_ASSERT(HoldNotCounted_A, !f_fwd_hold || (count_d == count_q && bwd_word_o == W_HOLD),
             ("rn1_fport: HOLD in FORWARD counted or not passed on"))
  `FT_COVER(HoldNotCounted_C, f_fwd_hold)
  // rn1.md 4 FORWARD: TURN in t puts STATUS (disposition, count) on out in t+1, TURN on bq.
  `FT_ASSERT(ForwardTurnStatus_A,
             !f_fwd_turn || (ns == ST_STATUS && out_o == {1'b1, disp_q, count_q} &&
                             bwd_word_o == W_TURN),
             ("rn1_fport: TURN in FORWARD not answered by STATUS"))
  `FT_COVER(ForwardTurnStatus_C, f_fwd_turn)
  // rn1.md 2 and 4: the cycle after STATUS carries CHECKSUM, the XOR of the counted words.
  `FT_ASSERT(StatusThenChecksum_A, !f_status || out_o == {1'b1, xor_q},
             ("rn1_fport: CHECKSUM %h after STATUS, XOR %h", out_o, xor_q))
  `FT_COVER(StatusThenChecksum_C, f_status && disp_q[1])
  // rn1.md 4 REVERSE: TURN from bq in u puts TURN on out in u+1 and HOLD on bq in u+1, u+2.
  `FT_ASSERT(ReverseTurnHolds_A,
             !f_rev_turn || (ns == ST_HOLD && out_o == W_TURN && bwd_word_o == W_HOLD),
             ("rn1_fport: TURN in REVERSE not answered by TURN and HOLD"))
  `FT_COVER(ReverseTurnHolds_C, f_rev_turn)
  `FT_ASSERT(HoldTwice_A, !f_hold || (ns == ST_FORWARD && bwd_word_o == W_HOLD),
             ("rn1_fport: the second HOLD of a reverse TURN missing"))
  `FT_COVER(HoldTwice_C, f_hold)
  // rn1.md 4 SWALLOW: a TURN before any routing word is answered with disposition 00.
  `FT_ASSERT(SwallowTurnBusy_A, !f_swal_turn || (ns == ST_STATUS && out_o[7:6] == DISP_BUSY),
             ("rn1_fport: TURN in SWALLOW answered with disposition %b", out_o[7:6]))
  `FT_COVER(SwallowTurnBusy_C, f_swal_turn)
  // rn1.md 7: a granted routing word sends no bc pulse upstream (only a blocked one collapses).
  `FT_ASSERT(GrantNoPulse_A, !f_granted || !bc_pulse_o, ("rn1_fport: bc pulse on a grant"))
  `FT_COVER(GrantNoPulse_C, f_granted && bc_en_i)
  // The state a port is in agrees with its disposition: what makes RN1's invariants
  // (BwdAllocOnce_A, AllocIsOwned_A, BwdDrivenOnce_A) inductive, since which states own bq
  // (FORWARD, REVERSE, HOLD, a routed STATUS) and which free it follow from these.
  // rn1.md 2 Disposition and 4: FORWARD follows a chosen output, and REVERSE and HOLD a routed
  // STATUS, so a connection in them is routed (10 or 11).
  `FT_ASSERT(OwnerIsRouted_A, !(cs == ST_FORWARD || cs == ST_REVERSE || cs == ST_HOLD) || disp_q[1],
             ("rn1_fport: state %0d with disposition %b", cs, disp_q))
  `FT_COVER(OwnerIsRouted_C, (cs == ST_FORWARD || cs == ST_REVERSE || cs == ST_HOLD) && disp_q[0])
  // rn1.md 2 Disposition and 4 BLOCKED: a blocked connection is 00 or 01.
  `FT_ASSERT(BlockedNotRouted_A, cs != ST_BLOCKED || !disp_q[1],
             ("rn1_fport: BLOCKED with disposition %b", disp_q))
  `FT_COVER(BlockedNotRouted_C, cs == ST_BLOCKED && disp_q[0])
  // rn1.md 7 Armed: armed in STATUS only after FORWARD (a TURN of a routed connection), never
  // after BLOCKED or SWALLOW, so a drop request frees only an owned bq.
  `FT_ASSERT(ArmedStatusRouted_A, !(cs == ST_STATUS && armed_q) || disp_q[1],
             ("rn1_fport: armed in STATUS with disposition %b", disp_q))
  `FT_COVER(ArmedStatusRouted_C, cs == ST_STATUS && armed_q && bc_en_i)
`endif

endmodule

`default_nettype wire
