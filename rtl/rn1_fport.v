`default_nettype none
// rn1_fport -- the RNP connection state machine of one RN1 forward port.
//
// Interface contract and timing: one instance per forward port p (parameter PortIdx). Every
// cycle the port looks at its one live input (its own forward input `fwd_i` in IDLE, SWALLOW,
// FORWARD and BLOCKED; the input of its allocated backward port `bq`, taken from `bwd_i`, in
// REVERSE; none in STATUS, CHECKSUM, HOLD and DROP). When a routing word is on the live input
// it raises `req_o` with `cand_o`, the enabled backward ports of the word's direction (dilated:
// b(2k), b(2k+1); dual: b(k) for f0..f3, b(4+k) for f4..f7; minus `disable_i`). The parent
// arbitrates all ports in rotating order and returns `gnt_i` in the same cycle: the one-hot
// backward port given to this port, or 0 when blocked. `gnt_i` must not depend on anything but
// `req_o`/`cand_o` (it does not: they are computed in a block that never reads `gnt_i`).
// Outputs, all combinational next values for the parent's output registers of the next cycle:
//   out_o       word for this port's forward output (`out`);
//   bwd_word_o  word for the backward output selected by the one-hot `bwd_sel_o` (0 = none);
//   free_o      one-hot backward port released this cycle (closing word on a live input);
//   err_o       an invalid control word is on the live input;
//   dbg_o       PORT register: {xor, 2'b0, count, 6'b0, disp, 1'b0, bq, state} (rn1.md).
// Configuration inputs (`mode_i` 0 dilated / 1 dual, `swallow_i`, `disable_i`) are the
// registered configuration in force during this cycle.
//
// State held: state (4-bit code, rn1.md), bq (3), disposition (2), count (6, mod 64) and XOR (8)
// of the counted words. bq, disp, count and xor keep their values after a connection closes.
// Synchronous active-low reset: IDLE, all fields 0.
//
// Parameters: PortIdx, 0..7, the forward port number (selects the half in dual mode).

module rn1_fport #(
  parameter PortIdx = 0
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire  [8:0]  fwd_i,       // this port's forward input
  input  wire  [71:0] bwd_i,       // all backward inputs; b(j) is bwd_i[j*9 +: 9]
  input  wire         mode_i,      // 0 dilated, 1 dual
  input  wire         swallow_i,   // this port's SWALLOW bit
  input  wire  [7:0]  disable_i,   // disabled backward ports
  input  wire  [7:0]  gnt_i,       // one-hot backward port granted to this cycle's request
  output logic        req_o,       // a routing word is deciding this cycle
  output logic [7:0]  cand_o,      // enabled backward ports of its direction
  output logic [8:0]  out_o,       // next value of this port's forward output
  output logic [8:0]  bwd_word_o,  // next value of the backward output in bwd_sel_o
  output logic [7:0]  bwd_sel_o,   // one-hot backward output bwd_word_o goes to (0 = none)
  output logic [7:0]  free_o,      // one-hot backward port freed this cycle
  output logic        err_o,       // invalid control word on the live input
  output logic [31:0] dbg_o        // PORT debug register
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

  // Dispositions (rnp.md section 2).
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

  // Which input is live (rnp.md section 4; rn1.md decision 2). The case's default is the
  // block's default: assigning live_w twice per evaluation makes Icarus 11 loop (zero delay).
  always_comb begin
    case (state_q)
      ST_IDLE, ST_SWALLOW, ST_FORWARD, ST_BLOCKED: live_w = fwd_i;
      ST_REVERSE:                                  live_w = bwd_i[bq_q*WORD_W +: WORD_W];
      default:                                     live_w = W_IDLE;  // both inputs ignored
    endcase
  end

  // Word class, routing request and candidates. Must not read gnt_i (see header).
  always_comb begin
    is_turn = (live_w == W_TURN);
    is_hold = (live_w == W_HOLD);
    is_drop = (live_w == W_DROP);
    is_inv  = !live_c && (live_w != W_IDLE) && !is_turn && !is_hold && !is_drop;
    err_o   = is_inv;

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

  // Next state and outputs.
  always_comb begin
    state_d    = state_q;
    bq_d       = bq_q;
    disp_d     = disp_q;
    count_d    = count_q;
    xor_d      = xor_q;
    out_o      = W_IDLE;
    bwd_word_o = W_IDLE;
    bwd_sel_o  = 8'h00;
    free_o     = 8'h00;

    case (state_q)
      // IDLE: a c=1 word opens a connection (count/xor restart); c=0 words keep IDLE.
      ST_IDLE: begin
        if (live_c) begin
          count_d = 6'd1;
          xor_d   = live_d;
          if (!swallow_i) begin
            bq_d   = gnt_any ? gnt_idx : 3'd0;
            disp_d = dec_disp;
            if (gnt_any) begin
              state_d    = ST_FORWARD;
              bwd_word_o = live_w;
              bwd_sel_o  = gnt_i;
            end else begin
              state_d = ST_BLOCKED;
            end
          end else begin
            state_d = ST_SWALLOW;
          end
        end
      end

      // SWALLOW: the next c=1 word is the routing word; HOLD ignored; TURN as in BLOCKED
      // with disposition 00; DROP, IDLE or invalid close.
      ST_SWALLOW: begin
        if (live_c) begin
          count_d = count_q + 6'd1;
          xor_d   = xor_q ^ live_d;
          bq_d    = gnt_any ? gnt_idx : 3'd0;
          disp_d  = dec_disp;
          if (gnt_any) begin
            state_d    = ST_FORWARD;
            bwd_word_o = live_w;
            bwd_sel_o  = gnt_i;
          end else begin
            state_d = ST_BLOCKED;
          end
        end else if (is_turn) begin
          bq_d    = 3'd0;
          disp_d  = DISP_BUSY;
          out_o   = {1'b1, DISP_BUSY, count_q};
          state_d = ST_STATUS;
        end else if (!is_hold) begin
          state_d = ST_IDLE;
        end
      end

      // FORWARD: words go to bq; c=1 counted; TURN returns STATUS; DROP/IDLE/invalid close.
      ST_FORWARD: begin
        bwd_sel_o = bq_onehot;
        if (live_c) begin
          bwd_word_o = live_w;
          count_d    = count_q + 6'd1;
          xor_d      = xor_q ^ live_d;
        end else if (is_hold) begin
          bwd_word_o = W_HOLD;
        end else if (is_turn) begin
          bwd_word_o = W_TURN;
          out_o      = {1'b1, disp_q, count_q};
          state_d    = ST_STATUS;
        end else if (is_drop || is_inv) begin
          bwd_word_o = W_DROP;
          free_o     = bq_onehot;
          state_d    = ST_IDLE;
        end else begin
          bwd_word_o = W_IDLE;
          free_o     = bq_onehot;
          state_d    = ST_IDLE;
        end
      end

      // BLOCKED: c=1 counted and discarded; HOLD ignored; TURN returns STATUS; others close.
      ST_BLOCKED: begin
        if (live_c) begin
          count_d = count_q + 6'd1;
          xor_d   = xor_q ^ live_d;
        end else if (is_turn) begin
          out_o   = {1'b1, disp_q, count_q};
          state_d = ST_STATUS;
        end else if (!is_hold) begin
          state_d = ST_IDLE;
        end
      end

      // STATUS: STATUS is on out; CHECKSUM next; then REVERSE if routed, else CHECKSUM.
      ST_STATUS: begin
        out_o   = {1'b1, xor_q};
        state_d = (disp_q == DISP_EVEN || disp_q == DISP_ODD) ? ST_REVERSE : ST_CHECKSUM;
      end

      // CHECKSUM (blocked only): CHECKSUM is on out; DROP next.
      ST_CHECKSUM: begin
        out_o   = W_DROP;
        state_d = ST_DROP;
      end

      // REVERSE: words of bq go to out; TURN sends TURN up and HOLD down; others close.
      ST_REVERSE: begin
        if (live_c || is_hold) begin
          out_o = live_w;
        end else if (is_turn) begin
          out_o      = W_TURN;
          bwd_word_o = W_HOLD;
          bwd_sel_o  = bq_onehot;
          state_d    = ST_HOLD;
        end else if (is_drop || is_inv) begin
          out_o   = W_DROP;
          free_o  = bq_onehot;
          state_d = ST_IDLE;
        end else begin
          out_o   = W_IDLE;
          free_o  = bq_onehot;
          state_d = ST_IDLE;
        end
      end

      // HOLD: HOLD is on bq and goes out again next; then FORWARD.
      ST_HOLD: begin
        bwd_word_o = W_HOLD;
        bwd_sel_o  = bq_onehot;
        state_d    = ST_FORWARD;
      end

      // DROP (blocked only): DROP is on out; IDLE next.
      ST_DROP: begin
        state_d = ST_IDLE;
      end

      // Unused codes (DISCARD is reserved): recover to IDLE.
      default: begin
        state_d = ST_IDLE;
      end
    endcase
  end

  always_comb begin
    dbg_o = {xor_q, 2'b00, count_q, 6'b000000, disp_q, 1'b0, bq_q, state_q};
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= ST_IDLE;
      bq_q    <= 3'd0;
      disp_q  <= 2'b00;
      count_q <= 6'd0;
      xor_q   <= 8'h00;
    end else begin
      state_q <= state_d;
      bq_q    <= bq_d;
      disp_q  <= disp_d;
      count_q <= count_d;
      xor_q   <= xor_d;
    end
  end

endmodule

`default_nettype wire
