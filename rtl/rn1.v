`default_nettype none
// rn1 -- RN1 router: 8 forward x 8 backward ports, circuit switched, one register stage, RNP.
//
// One rn1_fport per forward port runs its connection state machine; this module arbitrates
// their routing words in rotating order (LFSR choice among free candidates, allocation mask),
// holds the configuration, LFSR, error counter and output registers (words and bc bits), and
// decodes the register port. The contract -- ports, timing, reset and configuration, register
// map, debug encoding, decisions where sections 1-8 are silent, backward channel -- is rtl/rn1.md.
//
// Coding rule, for Icarus 11.0 (-g2012): every always_comb assigns each of its outputs exactly
// once per evaluation; logic that needs defaults-then-overrides or loop accumulation lives in
// an automatic function whose result the always_comb assigns. Icarus 11.0 wakes always_comb
// processes that none of their inputs asked for (steveicarus/iverilog#508, fixed after 11.0);
// that is harmless for a process whose outputs change at most once per evaluation, but a
// process that sets a signal twice (default, then override) then re-triggers without end at
// zero delay. Functions also avoid constant part-selects of variables, which Icarus 11 reports
// ("sorry: constant selects in always_* processes") when they are read in an always_comb.

`include "ft_assert.svh"

module rn1 (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire  [71:0] fwd_i,
  output wire  [71:0] fwd_o,
  output wire  [7:0]  fwd_bc_o,
  output wire  [71:0] bwd_o,
  input  wire  [71:0] bwd_i,
  input  wire  [7:0]  bwd_bc_i,
  input  wire         reg_we_i,
  input  wire  [7:0]  reg_waddr_i,
  input  wire  [63:0] reg_wdata_i,
  input  wire  [7:0]  reg_wstrb_i,
  input  wire  [7:0]  reg_raddr_i,
  output logic [63:0] reg_rdata_o,
  // The debug words (dbg_o, dbg_port, each rn1_fport's dbg_o) are not in waveforms: they copy
  // registers that are, under their own names, and their 864 bits cost a third of an FST dump.
  /*verilator tracing_off*/
  output wire  [351:0] dbg_o
  /*verilator tracing_on*/
);

  localparam NPORT  = 8;
  localparam WORD_W = 9;

  localparam [7:0] ADDR_CFG    = 8'h00;
  localparam [7:0] ADDR_ERRORS = 8'h01;
  localparam [7:0] ADDR_ALLOC  = 8'h02;
  localparam [7:0] ADDR_LFSR   = 8'h03;
  localparam [7:0] ADDR_ID     = 8'h04;
  localparam [7:0] ADDR_PORT   = 8'h10;  // 0x10..0x17

  localparam [63:0] ID_VALUE = 64'h0000_0000_524E_3101;
  // Implemented CFG bits, and their reset defaults (dilated, no swallow/disable, seed 0xACE1).
  localparam [63:0] CFG_MASK    = 64'h0000_0101_FFFF_FFFF;
  localparam [63:0] CFG_DEFAULT = 64'h0000_0000_ACE1_0000;

  localparam [15:0] SEED_ZERO = 16'hACE1;  // loaded for a zero seed
  localparam [15:0] LFSR_TAPS = 16'hB400;

  // ---------------------------------------------------------------------------------------
  // Registers
  logic [63:0]  cfg_q, cfg_d;
  logic [15:0]  lfsr_q, lfsr_d;
  logic [2:0]   rot_q, rot_d;
  logic [7:0]   alloc_q, alloc_d;
  logic [15:0]  errors_q, errors_d;
  logic [71:0]  fwd_q;
  wire  [71:0]  fwd_d;          // next forward outputs, driven by the rn1_fport instances
  logic [71:0]  bwd_q, bwd_d;
  logic [7:0]   fwd_bc_q, fwd_bc_d;

  // Configuration fields in force during this cycle.
  wire  [7:0]   cfg_swallow  = cfg_q[7:0];
  wire  [7:0]   cfg_disable  = cfg_q[15:8];
  wire          cfg_mode     = cfg_q[32];
  wire          cfg_backchan = cfg_q[40];
  wire  [15:0]  cfg_seed_d   = cfg_d[31:16];  // seed after this edge's write / default

  // Per forward port signals, port p at [p*w +: w]; the nets are driven by the rn1_fport
  // instances, gnt by the arbitration below.
  wire  [7:0]   req;
  wire  [63:0]  cand;
  logic [63:0]  gnt;
  wire  [71:0]  bwd_word;
  wire  [63:0]  bwd_sel;
  wire  [63:0]  free;
  wire  [7:0]   err;
  wire  [7:0]   idle;      // port p is IDLE next cycle
  wire  [7:0]   bc_pulse;  // port p's bc is 1 next cycle (backward drop or blocked collapse)
  /*verilator tracing_off*/ // (see dbg_o)
  wire  [255:0] dbg_port;
  /*verilator tracing_on*/

  // ---------------------------------------------------------------------------------------
  // Configuration: byte-strobed write of CFG; defaults at a reset edge without a write.
  function automatic [63:0] cfg_next(input [63:0] cfg_i, input rst_n_i, input we_i,
                                     input [7:0] waddr_i, input [63:0] wdata_i,
                                     input [7:0] wstrb_i);
    logic [63:0] wmask, nx;
    wmask = 64'd0;
    for (int k = 0; k < 8; k++) begin
      wmask[k*8 +: 8] = {8{wstrb_i[k]}};
    end
    wmask = wmask & CFG_MASK;
    nx    = cfg_i;
    if (!rst_n_i && !we_i) begin
      nx = CFG_DEFAULT;
    end else if (we_i && (waddr_i == ADDR_CFG)) begin
      nx = (cfg_i & ~wmask) | (wdata_i & wmask);
    end
    return nx;
  endfunction

  logic seed_written;

  always_comb begin
    cfg_d        = cfg_next(cfg_q, rst_ni, reg_we_i, reg_waddr_i, reg_wdata_i, reg_wstrb_i);
    seed_written = reg_we_i && (reg_waddr_i == ADDR_CFG) && ((reg_wstrb_i & 8'h0C) != 8'h00);
  end

  // ---------------------------------------------------------------------------------------
  // LFSR: holds seed_eff(seed) through reset and on a seed write, else steps once per cycle.
  always_comb begin
    if (!rst_ni || seed_written) begin
      lfsr_d = (cfg_seed_d != 16'h0000) ? cfg_seed_d : SEED_ZERO;
    end else begin
      lfsr_d = (lfsr_q >> 1) ^ (((lfsr_q & 16'h0001) != 16'h0000) ? LFSR_TAPS : 16'h0000);
    end
  end

  // Rotation pointer: port rot_q is served first this cycle; 0 in cycle 0.
  always_comb begin
    rot_d = rot_q + 3'd1;
  end

  // ---------------------------------------------------------------------------------------
  // Routing decisions in rotating order (rn1.md 5): port rot_q is served first, and a port sees
  // the outputs taken by earlier-served ports. Outputs freed this cycle are still in alloc_q, so
  // they cannot be re-chosen this cycle. With two free, bc_i (the bc inputs, 0 unless backchan
  // is on) biases the choice away from the one output whose bc is 1; otherwise lfsr bit p
  // decides.
  //
  // Computed for all ports at once, not one after another: two ports' candidate sets are equal
  // or disjoint (a direction's two outputs, or one in dual mode, less the same disabled ones:
  // rn1_fport), so a port competes only with the requesting ports of its own set, and the
  // outputs of its set free when it is served follow from the set's free outputs at the start
  // of the cycle (F) and the requesting ports of that set served before it: none, it chooses
  // from F; one, it gets what that port's choice left of F (nothing when F held one output);
  // two or more, nothing (a set has at most two outputs). The first-served port's choice sees
  // F, as a lone port would. The order, the pick and the count are each a few gates deep
  // whatever the port count; the serial form was a chain through all eight ports.
  // make equiv proves that the two forms grant the same in every state (synth/alloc_equiv.py).
  function automatic [63:0] choose(input [7:0] req_i, input [63:0] cand_i, input [7:0] alloc_i,
                                   input [2:0] rot_i, input [15:0] lfsr_i, input [7:0] bc_i);
    logic [63:0] grant, first;
    logic [7:0]  free_ports, lo, hi, busy, pick, ahead, same, earlier, taken;
    logic [2:0]  p;
    logic        twice;
    // Each requesting port's choice among its set's free outputs, as if served first in its set.
    first = 64'd0;
    p     = 3'd0;
    for (int i = 0; i < NPORT; i++) begin
      if (req_i[p]) begin
        free_ports = cand_i[p*8 +: 8] & ~alloc_i;
        lo         = free_ports & (~free_ports + 8'd1);  // the lower (even) free port
        hi         = free_ports & ~lo;                   // the odd one when both are free
        busy       = bc_i & free_ports;                  // free outputs whose bc is 1
        pick       = (hi != 8'h00 && lfsr_i[{1'b0, p}]) ? hi : lo;
        if (hi != 8'h00 && busy == lo) begin             // exactly one busy: take the other
          pick = hi;
        end else if (hi != 8'h00 && busy == hi) begin
          pick = lo;
        end
        first[p*8 +: 8] = pick;
      end
      p = p + 3'd1;
    end
    // Each requesting port's grant from the requesting ports of its set served before it. The
    // ports served before port p (p counts with a) are rot_i, rot_i + 1, .., p - 1 modulo NPORT:
    // the p - rot_i lowest bits, rotated left by rot_i. Ports that do not request are passed
    // over, which costs the gates nothing and spares the simulators most of the work.
    grant = 64'd0;
    p     = 3'd0;
    for (int a = 0; a < NPORT; a++) begin
      if (req_i[a]) begin
        ahead = (8'd1 << (p - rot_i)) - 8'd1;
        ahead = (ahead << rot_i) | (ahead >> (4'd8 - {1'b0, rot_i}));
        for (int b = 0; b < NPORT; b++) begin
          same[b] = cand_i[b*8 +: 8] == cand_i[a*8 +: 8];
        end
        earlier = req_i & ahead & same;
        taken   = 8'h00;
        for (int b = 0; b < NPORT; b++) begin
          taken = taken | (earlier[b] ? first[b*8 +: 8] : 8'h00);
        end
        twice = (earlier & (earlier - 8'd1)) != 8'h00;  // two or more served before
        if (twice) begin
          grant[a*8 +: 8] = 8'h00;
        end else if (earlier == 8'h00) begin
          grant[a*8 +: 8] = first[a*8 +: 8];
        end else begin
          grant[a*8 +: 8] = cand_i[a*8 +: 8] & ~alloc_i & ~taken;
        end
      end
      p = p + 3'd1;
    end
    return grant;
  endfunction

  always_comb begin
    gnt = choose(req, cand, alloc_q, rot_q, lfsr_q, bwd_bc_i & {8{cfg_backchan}});
  end

  // ---------------------------------------------------------------------------------------
  // Allocation mask: outputs granted this cycle are added, outputs freed this cycle removed.
  function automatic [7:0] alloc_next(input [7:0] alloc_i, input [63:0] gnt_i,
                                      input [63:0] free_i);
    logic [7:0] granted, freed;
    granted = 8'h00;
    freed   = 8'h00;
    for (int p = 0; p < NPORT; p++) begin
      granted = granted | gnt_i[p*8 +: 8];
      freed   = freed | free_i[p*8 +: 8];
    end
    return (alloc_i & ~freed) | granted;
  endfunction

  // Error counter: adds the live inputs carrying an invalid word, saturating at 0xFFFF.
  function automatic [15:0] errors_next(input [15:0] errors_i, input [7:0] err_i);
    logic [15:0] n;
    n = 16'd0;
    for (int p = 0; p < NPORT; p++) begin
      n = n + {15'd0, err_i[p]};
    end
    return (errors_i > (16'hFFFF - n)) ? 16'hFFFF : (errors_i + n);
  endfunction

  // Crossbar: backward output j carries the word of the forward port that selects it.
  function automatic [71:0] xbar(input [63:0] sel_i, input [71:0] word_i);
    logic [71:0] o;
    o = 72'd0;
    for (int p = 0; p < NPORT; p++) begin
      for (int j = 0; j < NPORT; j++) begin
        if (sel_i[p*8 + j]) begin
          o[j*WORD_W +: WORD_W] = o[j*WORD_W +: WORD_W] | word_i[p*WORD_W +: WORD_W];
        end
      end
    end
    return o;
  endfunction

  // Next bc registers: port p's bit is 1 when p is IDLE next cycle and fewer than two backward
  // ports (of p's half in dual mode) are free after this cycle's grants and frees (not
  // allocated in alloc_i, not disabled this cycle), or when p pulses (backward drop, blocked
  // collapse). Computed whatever backchan is; the pulses only happen while it is on.
  function automatic [7:0] bc_next(input [7:0] alloc_i, input [7:0] disable_i, input mode_i,
                                   input [7:0] idle_i, input [7:0] pulse_i);
    logic [7:0] avail, half, o;
    logic [3:0] n;
    avail = ~alloc_i & ~disable_i;
    o     = 8'h00;
    for (int p = 0; p < NPORT; p++) begin
      if (!mode_i) begin
        half = 8'hFF;
      end else if (p < 4) begin
        half = 8'h0F;
      end else begin
        half = 8'hF0;
      end
      n = 4'd0;
      for (int j = 0; j < NPORT; j++) begin
        n = n + {3'd0, avail[j] & half[j]};
      end
      o[p] = (idle_i[p] && (n < 4'd2)) || pulse_i[p];
    end
    return o;
  endfunction

  always_comb begin
    alloc_d  = alloc_next(alloc_q, gnt, free);
    errors_d = errors_next(errors_q, err);
    bwd_d    = xbar(bwd_sel, bwd_word);
  end

  always_comb begin
    fwd_bc_d = bc_next(alloc_d, cfg_disable, cfg_mode, idle, bc_pulse);
  end

  // ---------------------------------------------------------------------------------------
  // Forward ports.
  for (genvar g = 0; g < NPORT; g++) begin : gen_fport
    rn1_fport #(
      .PortIdx (g)
    ) u_fport (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .fwd_i      (fwd_i[g*WORD_W +: WORD_W]),
      .bwd_i      (bwd_i),
      .mode_i     (cfg_mode),
      .swallow_i  (cfg_swallow[g]),
      .disable_i  (cfg_disable),
      .bc_en_i    (cfg_backchan),
      .bwd_bc_i   (bwd_bc_i),
      .gnt_i      (gnt[g*8 +: 8]),
      .req_o      (req[g]),
      .cand_o     (cand[g*8 +: 8]),
      .out_o      (fwd_d[g*WORD_W +: WORD_W]),
      .bwd_word_o (bwd_word[g*WORD_W +: WORD_W]),
      .bwd_sel_o  (bwd_sel[g*8 +: 8]),
      .free_o     (free[g*8 +: 8]),
      .err_o      (err[g]),
      .idle_o     (idle[g]),
      .bc_pulse_o (bc_pulse[g]),
      .dbg_o      (dbg_port[g*32 +: 32])
    );
  end

  // ---------------------------------------------------------------------------------------
  // Wave taps: per-port views of the flattened buses, so that waves/rn1.gtkw can show each
  // port by name (a GTKWave save file cannot slice a bus). Nothing reads them.
  // public_flat_rd keeps Verilator from removing them as dead logic before tracing.
  for (genvar g = 0; g < NPORT; g++) begin : gen_tap
    wire [WORD_W-1:0] f_in  /* verilator public_flat_rd */ = fwd_i[g*WORD_W +: WORD_W];  // f<g> in
    wire [WORD_W-1:0] f_out /* verilator public_flat_rd */ = fwd_q[g*WORD_W +: WORD_W];  // f<g> out
    wire [WORD_W-1:0] b_out /* verilator public_flat_rd */ = bwd_q[g*WORD_W +: WORD_W];  // b<g> out
    wire [WORD_W-1:0] b_in  /* verilator public_flat_rd */ = bwd_i[g*WORD_W +: WORD_W];  // b<g> in
  end

  // ---------------------------------------------------------------------------------------
  // Register read port and debug snapshot.
  wire       raddr_is_port = ((reg_raddr_i & 8'hF8) == ADDR_PORT);
  wire [2:0] raddr_port    = reg_raddr_i[2:0];

  function automatic [63:0] reg_read(input [7:0] raddr_i, input is_port_i,
                                     input [2:0] port_i, input [63:0] cfg_i,
                                     input [15:0] errors_i, input [7:0] alloc_i,
                                     input [15:0] lfsr_i, input [255:0] ports_i);
    logic [63:0] r;
    r = 64'd0;
    if (is_port_i) begin
      r = {32'd0, ports_i[port_i*32 +: 32]};
    end else begin
      case (raddr_i)
        ADDR_CFG:    r = cfg_i;
        ADDR_ERRORS: r = {48'd0, errors_i};
        ADDR_ALLOC:  r = {56'd0, alloc_i};
        ADDR_LFSR:   r = {48'd0, lfsr_i};
        ADDR_ID:     r = ID_VALUE;
        default:     r = 64'd0;  // unmapped
      endcase
    end
    return r;
  endfunction

  always_comb begin
    reg_rdata_o = reg_read(reg_raddr_i, raddr_is_port, raddr_port, cfg_q, errors_q, alloc_q,
                           lfsr_q, dbg_port);
  end

  assign dbg_o    = {dbg_port, 16'd0, lfsr_q, 24'd0, alloc_q, 16'd0, errors_q};
  assign fwd_o    = fwd_q;
  assign bwd_o    = bwd_q;
  assign fwd_bc_o = fwd_bc_q & {8{cfg_backchan}};

  // ---------------------------------------------------------------------------------------
  // Registers. cfg_d and lfsr_d carry their own reset rules (configuration during reset).
  always_ff @(posedge clk_i) begin
    cfg_q  <= cfg_d;
    lfsr_q <= lfsr_d;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rot_q    <= 3'd0;
      alloc_q  <= 8'h00;
      errors_q <= 16'h0000;
      fwd_q    <= 72'd0;
      bwd_q    <= 72'd0;
      fwd_bc_q <= 8'h00;
    end else begin
      rot_q    <= rot_d;
      alloc_q  <= alloc_d;
      errors_q <= errors_d;
      fwd_q    <= fwd_d;
      bwd_q    <= bwd_d;
      fwd_bc_q <= fwd_bc_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Invariants (checked at every edge out of reset, on the values of the ending cycle).
`ifndef SYNTHESIS
  localparam [3:0] ST_FORWARD = 4'd2;  // codes of the states that own a backward port
  localparam [3:0] ST_STATUS  = 4'd4;
  localparam [3:0] ST_REVERSE = 4'd6;
  localparam [3:0] ST_HOLD    = 4'd7;
  localparam [3:0] ST_LAST    = 4'd9;  // DISCARD

  // {dup, owned, bad_state, drv_dup}: backward ports owned twice, owned set (ports in
  // FORWARD, REVERSE, HOLD, or STATUS of a routed connection), forward ports in an illegal
  // state, backward outputs selected by two forward ports.
  function automatic [31:0] check(input [255:0] ports_i, input [63:0] sel_i);
    logic [3:0] st;
    logic [2:0] bq;
    logic [1:0] disp;
    logic [7:0] owned, dup, drv, drv_dup, bad;
    owned   = 8'h00;
    dup     = 8'h00;
    drv     = 8'h00;
    drv_dup = 8'h00;
    bad     = 8'h00;
    for (int p = 0; p < NPORT; p++) begin
      st   = ports_i[p*32 +: 4];
      bq   = ports_i[p*32 + 4 +: 3];
      disp = ports_i[p*32 + 8 +: 2];
      if (st == ST_FORWARD || st == ST_REVERSE || st == ST_HOLD ||
          (st == ST_STATUS && disp >= 2'b10)) begin
        dup   = dup | (owned & (8'd1 << bq));
        owned = owned | (8'd1 << bq);
      end
      if (st > ST_LAST) begin
        bad = bad | (8'd1 << p);
      end
      drv_dup = drv_dup | (drv & sel_i[p*8 +: 8]);
      drv     = drv | sel_i[p*8 +: 8];
    end
    return {dup, owned, bad, drv_dup};
  endfunction

  logic [7:0] chk_owned, chk_dup, chk_drv_dup, chk_bad_state;

  always_comb begin
    {chk_dup, chk_owned, chk_bad_state, chk_drv_dup} = check(dbg_port, bwd_sel);
  end

  // For the cover points: backward outputs driven, forward ports granted this cycle.
  function automatic [15:0] drv_gnt(input [63:0] sel_i, input [63:0] gnt_i);
    logic [7:0] d, g;
    d = 8'h00;
    g = 8'h00;
    for (int p = 0; p < NPORT; p++) begin
      d    = d | sel_i[p*8 +: 8];
      g[p] = gnt_i[p*8 +: 8] != 8'h00;
    end
    return {d, g};
  endfunction

  logic [7:0] xbar_drv, gnt_any;

  always_comb begin
    {xbar_drv, gnt_any} = drv_gnt(bwd_sel, gnt);
  end

  // No backward port is allocated to two forward ports.
  `FT_ASSERT(BwdAllocOnce_A, chk_dup == 8'h00,
             ("rn1: backward ports %b allocated to two forward ports", chk_dup))
  `FT_COVER(BwdAllocOnce_C, chk_owned == 8'hFF)  // every backward port owned at once

  // The allocation mask is the set of backward ports owned by ports in FORWARD, STATUS (routed),
  // REVERSE or HOLD.
  `FT_ASSERT(AllocIsOwned_A, alloc_q == chk_owned,
             ("rn1: alloc %b != owned backward ports %b", alloc_q, chk_owned))
  `FT_COVER(AllocIsOwned_C, (gnt != 64'd0) && (free != 64'd0))  // granted and freed at one edge

  // Every forward port is in a legal state.
  `FT_ASSERT(FwdStateLegal_A, chk_bad_state == 8'h00,
             ("rn1: forward ports %b in an illegal state", chk_bad_state))
  `FT_COVER(FwdStateLegal_C, idle == 8'h00)  // no forward port IDLE next cycle

  // No backward output gets a word from two forward ports.
  `FT_ASSERT(BwdDrivenOnce_A, chk_drv_dup == 8'h00,
             ("rn1: backward outputs %b driven by two forward ports", chk_drv_dup))
  `FT_COVER(BwdDrivenOnce_C, xbar_drv == 8'hFF)  // every backward output driven at once

  // Arbitration and the registers' corners (rtl/rn1.md sections 2, 5, 7, 8).
  `FT_COVER(TwoRequests_C, (req & (req - 8'd1)) != 8'h00)  // two routing words in one cycle
  `FT_COVER(RequestBlocked_C, (req & ~gnt_any) != 8'h00)   // a routing word granted nothing
  `FT_COVER(ErrorsSaturate_C, errors_q == 16'hFFFF && err != 8'h00)
  `FT_COVER(SeedWritten_C, seed_written)
  `FT_COVER(DualMode_C, cfg_mode && req != 8'h00)

  // Properties from the contract (rtl/rn1.md; proven by formal/, checked in every simulation),
  // each with the cover of its premise. The environment needs no assumption: the contract
  // answers every word, register write and bc input, so RN1 has no FT_ASSUME.
  function automatic [7:0] gnt_or(input [63:0] gnt_i);
    logic [7:0] o;
    o = 8'h00;
    for (int p = 0; p < NPORT; p++) begin
      o = o | gnt_i[p*8 +: 8];
    end
    return o;
  endfunction

  logic [7:0] f_gnt;

  always_comb begin
    f_gnt = gnt_or(gnt);
  end

  // The allocator's answer (rn1.md 5): {one each, in its candidates, disjoint}.
  function automatic [2:0] gnt_check(input [63:0] gnt_i, input [7:0] req_i, input [63:0] cand_i);
    logic [7:0] g, seen;
    logic       one, inc, dis;
    one  = 1'b1;
    inc  = 1'b1;
    dis  = 1'b1;
    seen = 8'h00;
    // No routing word and no grant: every check holds (the simulators skip the loop).
    if (req_i != 8'h00 || gnt_i != 64'd0) begin
      for (int p = 0; p < NPORT; p++) begin
        g = gnt_i[p*8 +: 8];
        if (((g & (g - 8'd1)) != 8'h00) || (!req_i[p] && g != 8'h00)) begin
          one = 1'b0;
        end
        if ((g & ~cand_i[p*8 +: 8]) != 8'h00) begin
          inc = 1'b0;
        end
        if ((g & seen) != 8'h00) begin
          dis = 1'b0;
        end
        seen = seen | g;
      end
    end
    return {one, inc, dis};
  endfunction

  // The premises of two covers: {a port granted one of two free outputs, two ports of one
  // direction granted at one edge}. Only the covers read them.
  function automatic [1:0] gnt_premise(input [63:0] gnt_i, input [63:0] cand_i,
                                       input [7:0] alloc_i);
    logic [7:0] g, f;
    logic       chose, two;
    chose = 1'b0;
    two   = 1'b0;
    if (gnt_i != 64'd0) begin  // both need a grant (the simulators skip the loop)
      for (int p = 0; p < NPORT; p++) begin
        g = gnt_i[p*8 +: 8];
        f = cand_i[p*8 +: 8] & ~alloc_i;
        if (g != 8'h00 && (f & (f - 8'd1)) != 8'h00) begin
          chose = 1'b1;
        end
        for (int q = 0; q < p; q++) begin
          if (g != 8'h00 && gnt_i[q*8 +: 8] != 8'h00 && cand_i[q*8 +: 8] == cand_i[p*8 +: 8]) begin
            two = 1'b1;
          end
        end
      end
    end
    return {chose, two};
  endfunction

  logic f_gnt_one, f_gnt_inc, f_gnt_dis, f_gnt_chose, f_gnt_two;

  always_comb begin
    {f_gnt_one, f_gnt_inc, f_gnt_dis} = gnt_check(gnt, req, cand);
    {f_gnt_chose, f_gnt_two}          = gnt_premise(gnt, cand, alloc_q);
  end

  // rn1.md 5: a routing word is granted one backward port or none, and none without one.
  `FT_ASSERT(GrantOneEach_A, f_gnt_one,
             ("rn1: a forward port granted two backward ports, or one without a routing word"))
  `FT_COVER(GrantOneEach_C, f_gnt_chose)  // granted one of two free outputs
  // rn1.md 5: a routing word is granted only one of its candidates (its direction's outputs).
  `FT_ASSERT(GrantInCand_A, f_gnt_inc, ("rn1: a forward port granted a port not of its direction"))
  `FT_COVER(GrantInCand_C, f_gnt != 8'h00 && cfg_mode)  // one candidate in dual mode
  // rn1.md 5: two routing words of one direction in one cycle are granted different outputs.
  `FT_ASSERT(GrantDisjoint_A, f_gnt_dis, ("rn1: one backward port granted to two forward ports"))
  `FT_COVER(GrantDisjoint_C, f_gnt_two)
`ifdef FORMAL
`ifdef RN1_ALLOC_ASSUMED
  // formal/rn1.sby task prf only: the allocator's answer is cut to a free input (cutpoint) and
  // its contract assumed: the three properties above and GrantNotAllocated_A below, which
  // task top proves of the allocator itself.
  always @(*)
    if (rst_ni) assume (f_gnt_one && f_gnt_inc && f_gnt_dis && (f_gnt & alloc_q) == 8'h00);
`endif
`endif
  // rn1.md 5 Freeing: a port is chosen only when not allocated, never in the cycle it is freed.
  `FT_ASSERT(GrantNotAllocated_A, (f_gnt & alloc_q) == 8'h00,
             ("rn1: allocated backward ports %b granted", f_gnt & alloc_q))
  `FT_COVER(GrantNotAllocated_C, f_gnt != 8'h00 && (free & {8{alloc_q}}) != 64'd0)
  // rn1.md 5 Free outputs: a disabled backward port is never allocated.
  `FT_ASSERT(GrantNotDisabled_A, (f_gnt & cfg_disable) == 8'h00,
             ("rn1: disabled backward ports %b granted", f_gnt & cfg_disable))
  `FT_COVER(GrantNotDisabled_C, f_gnt != 8'h00 && cfg_disable != 8'h00)
  // rn1.md 7: with backchan 0 every fwd_bc_o bit is 0.
  `FT_ASSERT(BcSilentWhenOff_A, cfg_backchan || fwd_bc_o == 8'h00,
             ("rn1: bc outputs %b with the backward channel off", fwd_bc_o))
  `FT_COVER(BcSilentWhenOff_C, !cfg_backchan && fwd_bc_q != 8'h00)
  `FT_FORMAL_RESET
`endif

endmodule

`default_nettype wire
