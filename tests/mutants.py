#!/usr/bin/env python3
"""Mutation check: break one behaviour of one model and show the spec vectors catch it.

Each mutant is a one-place edit of a copy of rtl/ or csim/ (the tree itself is never touched),
built into build/mut/NAME/ftsim, then every spec vector is played on the mutated model alone.
Only what the edit changes is rebuilt, the rest is the tree's own build: an RTL mutant
re-Verilates the variants of the designs that read its file (rtl/files.txt, through
harness/scripts/designs.py) and their shims; a C model's or the harness's mutated file is
compiled alone (a header: every object that includes it).
The mutant is *killed* when at least one vector fails: that is the pass. A mutant that
survives means the vectors cannot see that behaviour. A mutant whose text is no longer in the
source is an error (exit 2), so the list cannot rot silently when the models change.

A mutant of the upset path may name instead the upset check that must catch it (a sixth
field: the arguments of `ftsim upsetcheck`): it is killed when that check fails on the mutated
binary, which shows the per-element validation of the upset maps bites.

A mutant of the harness (model "harness": FT-DRB's hosts have no device model and no spec
vectors) names the test that must catch it (a sixth field: {"test": command}); the command
runs with FTSIM naming the mutated binary and kills the mutant when it exits 1 with a line
that says FAIL.

usage: tests/mutants.py NAME      run one mutant (exit 0 killed, 1 survived, 2 error)
       tests/mutants.py --list    list the mutants
"""
import glob
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "harness", "scripts"))
import designs  # noqa: E402  (rtl/files.txt: which variants read a file)

# name: (model, file, original text, replacement, the behaviour it breaks[, upsetcheck arguments])
MUTANTS = {
    # ---- C model -------------------------------------------------------------------------
    "csim-lfsr-late": ("csim", "rnp/rn1.c",
        "j = even + (lfsr >> p & 1u);",
        "j = even + (rn1_lfsr_step(lfsr) >> p & 1u);",
        "the choice uses the LFSR one cycle late (rn1.md 5)"),
    "csim-lfsr-bit": ("csim", "rnp/rn1.c",
        "j = even + (lfsr >> p & 1u);",
        "j = even + (lfsr >> (7u - p) & 1u);",
        "the choice uses bit 7-p instead of bit p (rn1.md 5)"),
    "csim-fixed-order": ("csim", "rnp/rn1.c",
        "unsigned p = (m->rot + k) & 7u;",
        "unsigned p = k;",
        "fixed service order, port 0 first every cycle (rn1.md 5)"),
    "csim-reuse-same-cycle": ("csim", "rnp/rn1.c",
        "        rn1_eval_port(m, p, in, &ev, &n.port[p], &n.fwd_out[p]);",
        "        rn1_eval_port(m, p, in, &ev, &n.port[p], &n.fwd_out[p]);\n"
        "        ev.busy &= (uint8_t)~ev.freed;",
        "an output freed this cycle can be chosen this cycle by a later-served port (rn1.md 5)"),
    "csim-hold-counted": ("csim", "rnp/rn1.c",
        "    } else if (w == RN1_HOLD) {\n        ev->bwd[np->bq] |= w;",
        "    } else if (w == RN1_HOLD) {\n        rn1_count(np, w);\n        ev->bwd[np->bq] |= w;",
        "HOLD counted into STATUS/CHECKSUM (rn1.md 2)"),
    "csim-one-hold": ("csim", "rnp/rn1.c",
        "        ev->bwd[np->bq] |= RN1_HOLD;\n        np->state = RN1_S_HOLD;",
        "        ev->bwd[np->bq] |= RN1_HOLD;\n        np->state = RN1_S_FORWARD;",
        "a reverse TURN sends one HOLD, not two (rn1.md 4 REVERSE)"),
    "csim-disabled-as-busy": ("csim", "rnp/rn1.c",
        "        if ((disable >> even & 3u) == 3u)\n            ch.disp = RN1_DISP_DISABLED;",
        "        (void)disable;",
        "blocked-disabled reported as blocked-busy, 00 for 01 (rn1.md 2)"),
    "csim-errors-wrap": ("csim", "rnp/rn1.c",
        "n.errors = (uint16_t)(e > 0xFFFFu ? 0xFFFFu : e);",
        "n.errors = (uint16_t)e;",
        "the error counter wraps instead of saturating (rn1.md 2)"),
    "csim-swallow-uncounted": ("csim", "rnp/rn1.c",
        "    np->count = 0;\n    np->xsum = 0;\n    rn1_count(np, w);",
        "    np->count = 0;\n    np->xsum = 0;\n    if (!(m->swallow >> p & 1u))\n        rn1_count(np, w);",
        "the swallowed word is not counted (rn1.md 2)"),
    "csim-reverse-invalid-uncounted": ("csim", "rnp/rn1.c",
        "        w = in->bwd[cp->bq] & RN1_WORD_MASK;\n        ev->invalid += rn1_is_invalid(w);",
        "        w = in->bwd[cp->bq] & RN1_WORD_MASK;",
        "an invalid word on the live backward input is not counted (rn1.md 2)"),
    "csim-blocked-no-drop": ("csim", "rnp/rn1.c",
        "        *nout = RN1_DROP;\n        np->state = RN1_S_DROP;",
        "        *nout = RN1_IDLE;\n        np->state = RN1_S_DROP;",
        "a blocked TURN is not followed by DROP (rn1.md 4 BLOCKED)"),
    "csim-drop-unarmed": ("csim", "rnp/rn1.c",
        "if ((ev->bc >> cp->bq & 1u) && cp->armed &&",
        "if ((ev->bc >> cp->bq & 1u) &&",
        "backward channel: a drop request honoured in the first FORWARD cycle (rn1.md 7)"),
    "csim-seed-no-reload": ("csim", "rnp/rn1.c",
        "            n.lfsr = rn1_seed_eff(n.seed);\n    }",
        "            (void)0;\n    }",
        "a seed written mid-run does not reload the LFSR (rn1.md 8)"),
    "csim-reset-seed": ("csim", "rnp/rn1.c",
        "    m->seed = RN1_SEED_DEFAULT;",
        "    m->seed = 0xACE2u;",
        "a bare reset loads seed 0xACE2, not the default 0xACE1 (rn1.md, reset)"),
    # ---- C model, SCI ----------------------------------------------------------------------
    "csim-sci-reset-echo-timeout": ("csim", "sci/sci_lc.c",
        "    s->echo_timeout = 200;",
        "    s->echo_timeout = 199;",
        "a bare reset leaves echo_timeout 199, not 200 (sci_lc.md 4, CTRL reset)"),
    "csim-sci-mark-kept": ("csim", "sci/sci_lc.c",
        "rx->sym[c->idx] = c->idx == 1 ? (uint16_t)(sym & ~SCI_MARK) : sym;",
        "rx->sym[c->idx] = sym;",
        "the scrubber mark is not cleared when a packet is taken off the ring (sci/README.md 2)"),
    "csim-sci-echo-unscrubbed": ("csim", "sci/sci_lc.c",
        "    if (c->scrub && (cmd & SCI_MARK)) {",
        "    if (c->scrub && (cmd & SCI_MARK) && !echo) {",
        "the scrubber lets a marked echo pass (sci/README.md 2: packets and echoes are scrubbed)"),
    "csim-sci-busy-no-retx": ("csim", "sci/sci_lc.c",
        "                n->busy[i]++;\n                n->m_rtx |= bit(i);",
        "                n->busy[i]++;",
        "a busy echo does not retransmit the packet (sci/README.md 1)"),
    "csim-sci-retry-limit": ("csim", "sci/sci_lc.c",
        "if (c->timer[i] == 0 && c->retry[i] >= c->retry_limit)",
        "if (c->timer[i] == 0 && c->retry[i] > c->retry_limit)",
        "the echo-timeout retry limit never fails the packet: no failure report (sci/README.md 1)"),
    "csim-sci-full-no-busy": ("csim", "sci/sci_lc.c",
        "        n->parse = SCI_P_DISCARD; /* receive queue full: answered busy */\n"
        "        n->ans = ANS_BUSY;",
        "        n->parse = SCI_P_DISCARD; /* receive queue full: answered busy */\n"
        "        n->ans = ANS_NONE;",
        "a packet discarded for a full receive queue is not answered busy (sci/README.md 2)"),
    "csim-sci-disabled-takes": ("csim", "sci/sci_lc.c",
        "    bool take = c->enable && !echo && !own && lrt_take(lc, ti);",
        "    bool take = !echo && !own && lrt_take(lc, ti);",
        "a disabled LC still takes packets (sci/README.md 2)"),
    "csim-sci-rdown-3": ("csim", "sci/sci_lc.h",
        "#define SCI_RDOWN_CYCLES  4u",
        "#define SCI_RDOWN_CYCLES  3u",
        "ring-down origination after 3 cycles of lost signal detect, not 4 (sci_lc.md 3)"),
    "csim-sci-crc-ignored": ("csim", "sci/sci_lc.c",
        "    if (!good)\n        return;",
        "    if (!good && st == SCI_P_ECHO)\n        return;",
        "a taken packet with a bad CRC is delivered and echoed (sci/README.md 1)"),
    "csim-sci-p2s-one-set": ("csim", "sci/sci_lc.c",
        "    unsigned set = (target_id & SCI_ADDR_SEL) ? 8192u : 0u;",
        "    unsigned set = 0u;",
        "P2S ignores targetId bit 14: one table set for both addresses (sci/README.md 4)"),
    "csim-sci-own-taken": ("csim", "sci/sci_lc.c",
        "    bool own = ab_match(lc, c, src, tid) >= 0 && type != SCI_T_PROBE; /* our own packet, back */",
        "    bool own = false;",
        "an LC takes a packet it inserted itself (sci/README.md 2: only probes to itself)"),
    "csim-sci-rdi-dropped": ("csim", "sci/sci_lc.c",
        "                     : e->rdi_other ? (uint16_t)c->pipe[3]\n"
        "                                    : 0u;",
        "                     : 0u;",
        "ring-down idles of another node are not forwarded (sci/README.md 2)"),
    "csim-sci-insert-over-bypass": ("csim", "sci/sci_lc.c",
        "    if (c->need_idle || c->ins_kind != SCI_INS_NONE || c->byp_n || e->byp_v || c->out_flag ||",
        "    if (c->need_idle || c->ins_kind != SCI_INS_NONE || c->out_flag ||",
        "an insertion starts while bypass traffic waits (sci/README.md 2: bypass first)"),
    "csim-psb-asel-ignored": ("csim", "sci/sci_node.c",
        "    return n->asel[t & SCI_ID_MASK] ? (uint16_t)(t | SCI_ADDR_SEL) : t;",
        "    return t;",
        "the P2S PSB ignores its per-destination address select (sci/README.md 4)"),
    "csim-psb-host-first": ("csim", "sci/sci_node.c",
        "        for (unsigned o = SCI_OWN_LC0; o <= SCI_OWN_HOST; o++) {",
        "        for (unsigned o = SCI_OWN_HOST; o >= SCI_OWN_LC0; o--) {",
        "the B-link serves host packets before packets forwarded from the rings (sci/README.md 2)"),
    "csim-psb-probe-brt": ("csim", "sci/sci_node.c",
        "    bool fo = fo_active(n), probe = (s1 >> 8) == SCI_T_PROBE;",
        "    bool fo = fo_active(n), probe = (s1 >> 8) == SCI_T_PROBE && len > 99u;",
        "the PSB routes a PROBE by its BRT, not to the LC the host names (sci_node.md 2)"),
    "csim-fo-no-addr-bit": ("csim", "sci/sci_node.c",
        "            t = ty != sy ? (uint16_t)(t | SCI_ADDR_SEL) : (uint16_t)(t & ~SCI_ADDR_SEL);",
        "            t &= (uint16_t)~SCI_ADDR_SEL;",
        "P2S failover: a packet redirected from a down X-LC keeps X-first (sci_node.md 6 rule 2)"),
    "csim-fo-no-notify": ("csim", "sci/sci_node.c",
        "    x->nt_owed = fo_on(n, c) && (c->nt_owed || changed);",
        "    x->nt_owed = fo_on(n, c) && c->nt_owed;\n    (void)changed;",
        "P2S failover: no NOTIFY when the Y ring changes (sci_node.md 6 rule 4)"),
    "csim-fo-notify-ignored": ("csim", "sci/sci_node.c",
        "        x->focol_valid = p->sym[4] & 1u;",
        "        x->focol_valid = false;",
        "P2S failover: a NOTIFY received does not set FOCOL (sci_node.md 6 rule 5)"),
    "csim-psb-rsr-late": ("csim", "sci/sci_node.c",
        "        if (c->rr_timer > 1u) {",
        "        if (c->rr_timer > 0u) {",
        "the remote-read timeout comes one cycle late (sci_node.md 2)"),
    # ---- RTL -----------------------------------------------------------------------------
    "rtl-lfsr-bit": ("rtl", "rn1.v",
        "pick       = (hi != 8'h00 && lfsr_i[{1'b0, p}]) ? hi : lo;",
        "pick       = (hi != 8'h00 && lfsr_i[{1'b1, p}]) ? hi : lo;",
        "the choice uses bit p+8 of the LFSR (rn1.md 5)"),
    "rtl-fixed-order": ("rtl", "rn1.v",
        "        ahead = (8'd1 << (p - rot_i)) - 8'd1;\n        ahead = (ahead << rot_i) | (ahead >> (4'd8 - {1'b0, rot_i}));",
        "        ahead = (8'd1 << p) - 8'd1;",
        "fixed service order, port 0 first every cycle (rn1.md 5)"),
    "rtl-reuse-same-cycle": ("rtl", "rn1.v",
        "gnt = choose(req, cand, alloc_q, rot_q,",
        "gnt = choose(req, cand, alloc_next(alloc_q, 64'd0, free), rot_q,",
        "an output freed this cycle can be chosen this cycle (rn1.md 5)"),
    "rtl-hold-counted": ("rtl", "rn1_fport.v",
        "          end else if (is_hold_i) begin\n            nx_bword = W_HOLD;",
        "          end else if (is_hold_i) begin\n            nx_bword = W_HOLD;\n            nx_count = count_i + 6'd1;",
        "HOLD counted into STATUS (rn1.md 2)"),
    "rtl-one-hold": ("rtl", "rn1_fport.v",
        "          nx_bsel  = bq_oh_i;\n          nx_state = ST_HOLD;",
        "          nx_bsel  = bq_oh_i;\n          nx_state = ST_FORWARD;",
        "a reverse TURN sends one HOLD, not two (rn1.md 4 REVERSE)"),
    "rtl-checksum": ("rtl", "rn1_fport.v",
        "          nx_out   = {1'b1, xor_i};",
        "          nx_out   = {1'b1, xor_i ^ {7'd0, count_i[0]}};",
        "CHECKSUM wrong when the count is odd (rn1.md 2)"),
    "rtl-disabled-as-busy": ("rtl", "rn1_fport.v",
        "      dec_disp = (cand_o != 8'h00) ? DISP_BUSY : DISP_DEAD;",
        "      dec_disp = DISP_BUSY;",
        "blocked-disabled reported as blocked-busy (rn1.md 2)"),
    "rtl-errors-wrap": ("rtl", "rn1.v",
        "    return (errors_i > (16'hFFFF - n)) ? 16'hFFFF : (errors_i + n);",
        "    return errors_i + n;",
        "the error counter wraps instead of saturating (rn1.md 2)"),
    "rtl-swallow-turn-disp": ("rtl", "rn1_fport.v",
        "          nx_out   = {1'b1, DISP_BUSY, count_i};",
        "          nx_out   = {1'b1, DISP_DEAD, count_i};",
        "TURN in SWALLOW answers disposition 01 instead of 00 (rn1.md 4 SWALLOW)"),
    "rtl-grant-bc-pulse": ("rtl", "rn1_fport.v",
        "decide = gnt_any_i ? {ST_FORWARD, gnt_idx_i, dec_disp_i, live_w_i, gnt_oh_i, 1'b0}",
        "decide = gnt_any_i ? {ST_FORWARD, gnt_idx_i, dec_disp_i, live_w_i, gnt_oh_i, collapse_i}",
        "backward channel: a granted routing word pulses bc upstream as if blocked (rn1.md 7)"),
    "rtl-bias-inverted": ("rtl", "rn1.v",
        "        if (hi != 8'h00 && busy == lo) begin             // exactly one busy: take the other\n          pick = hi;",
        "        if (hi != 8'h00 && busy == lo) begin             // exactly one busy: take the other\n          pick = lo;",
        "backward channel: the busy hint does not steer the choice away (rn1.md 7)"),
    "rtl-reset-seed": ("rtl", "rn1.v",
        "localparam [63:0] CFG_DEFAULT = 64'h0000_0000_ACE1_0000;",
        "localparam [63:0] CFG_DEFAULT = 64'h0000_0000_ACE2_0000;",
        "a bare reset loads seed 0xACE2, not the default 0xACE1 (rn1.md, reset)"),
    # ---- RTL, SCI ---------------------------------------------------------------------------
    "rtl-sci-reset-echo-timeout": ("rtl", "sci_lc.v",
        "localparam [63:0] CTRL_RESET = 64'h00C8_0004_0801_0000;",
        "localparam [63:0] CTRL_RESET = 64'h00C7_0004_0801_0000;",
        "a bare reset leaves echo_timeout 199, not 200 (sci_lc.md 4, CTRL reset)"),
    "rtl-sci-full-no-busy": ("rtl", "sci_lc.v",
        "                       !rq_free ? ANS_BUSY :",
        "                       !rq_free ? ANS_NONE :",
        "a packet discarded for a full receive queue is not answered busy (sci/README.md 2)"),
    "rtl-sci-disabled-takes": ("rtl", "sci_lc.v",
        "wire        take_ok  = cfg_en && lrt_bit && !fo_skip && !is_echo && !own_src;",
        "wire        take_ok  = lrt_bit && !fo_skip && !is_echo && !own_src;",
        "a disabled LC still takes packets (sci/README.md 2)"),
    "rtl-sci-ring-up-early": ("rtl", "sci_lc.v",
        "(sd1_q >= 7'd64 && since_q >= 7'd64) ? 1'b1 : ring_up_q;",
        "(sd1_q >= 7'd48 && since_q >= 7'd48) ? 1'b1 : ring_up_q;",
        "ring up after 48 clean cycles, not 64 (sci_lc.md 3)"),
    "rtl-psb-probe-brt": ("rtl", "sci_psb.v",
        "  wire [18:0] sf_rt    = fo_redirect(sf_tgt1, sf_probe ? sf_pport : sf_brt, fo_en && !sf_probe,",
        "  wire [18:0] sf_rt    = fo_redirect(sf_tgt1, sf_brt, fo_en && !sf_probe,",
        "the PSB routes a PROBE by its BRT (sci_node.md 2)"),
    "rtl-fo-no-bypass": ("rtl", "sci_psb.v",
        "  assign fo_byp_o   = fo_en && dn1;",
        "  assign fo_byp_o   = 1'b0;",
        "P2S failover: the X-LC takes its own column while the Y-LC is down (sci_node.md 6 rule 3)"),
    "rtl-fo-no-forced-select": ("rtl", "sci_psb.v",
        "  wire        sf_force = fo_force(sf_m0[12:0], fo_en, xw, focol_v, focol_c, sy);",
        "  wire        sf_force = 1'b0;",
        "P2S failover: the notified neighbour does not send the failed column Y-first (sci_node.md 6 rule 1)"),
    # ---- upsets (vectors/README.md "Upsets"; rtl/rn1.md 14, sci_lc.md 8, sci_node.md 8) -----
    "csim-upset-lfsr-bit": ("csim", "rnp/rn1.c",
        "    case RN1_UPSET_LFSR: m->lfsr ^= (uint16_t)(1u << b); return 0;",
        "    case RN1_UPSET_LFSR: m->lfsr ^= (uint16_t)(1u << ((b + 1u) & 15u)); return 0;",
        "an upset of the LFSR flips the next bit up (rn1.md 14)"),
    "csim-upset-lrt-entry": ("csim", "sci/sci_lc_upset.c",
        "    case SCI_E_LRT: lc->ram->lrt[i / 8u] ^= (uint8_t)(1u << i % 8u); break;",
        "    case SCI_E_LRT: lc->ram->lrt[(i ^ 1u) / 8u] ^= (uint8_t)(1u << (i ^ 1u) % 8u); break;",
        "an upset of an LRT entry flips its neighbour (sci_lc.md 8)"),
    "csim-upset-pool-busy": ("csim", "sci/sci_lc_upset.c",
        "    case SCI_E_POOLBUSY: s->busy[i] ^= (uint8_t)m; break;",
        "    case SCI_E_POOLBUSY: s->busy[i] ^= (uint8_t)(m >> 1); break;",
        "an upset of a buffer's busy count flips the bit below (bit 0: none) (sci_lc.md 8)",
        ["tests/upset/lc3_busy.vec", "--only", "pool.busy", "--tries", "24"]),
    "csim-upset-psb-brt": ("csim", "sci/sci_node.c",
        "        case SCI_PE_BRT: n->brt[i] ^= (uint8_t)m; break;",
        "        case SCI_PE_BRT: n->brt[i] ^= (uint8_t)(m & 3u); break;",
        "an upset of bit 2 of a PSB BRT entry is lost (sci_node.md 8)",
        ["vectors/node/golden/psb_route_host.vec", "--only", "psb.brt"]),
    "rtl-upset-state-holds": ("rtl", "rn1_fport.v",
        "      default: begin\n        nx_state = ST_IDLE;\n      end",
        "      default: begin\n        nx_state = state_i;\n      end",
        "a forward port in a state code no state uses stays there, not IDLE (rn1.md 14)"),
    # ---- harness: FT-DRB (Zarza et al.) in the hosts (harness/scisys/ftdrb_sci.md) ------
    "harness-ftdrb-stage-every-note": ("harness", "scisys/sci_ftdrb.c",
        "    } else if (sent >= e->mark && e->stage < 255) {",
        "    } else if ((sent || 1) && e->stage < 255) {",
        "every notification raises the stage, also those of packets in flight when the entry "
        "last changed (ftdrb_sci.md 3)",
        {"test": ["python3", "tests/ftdrb_table.py"]}),
    "harness-ftdrb-no-trial": ("harness", "scisys/sci_ftdrb.c",
        "        if ((bad >> r & 1u) && n->ent[r].attempt < TRIAL)",
        "        if (bad >> r & 1u)",
        "a path notified faulty is never tried again: no trial at attempt 10 (ftdrb_sci.md 3)",
        {"test": ["python3", "tests/ftdrb_table.py"]}),
    "harness-ftdrb-deaf": ("harness", "scisys/sci_ftdrb.c",
        "    n->st.notes_got++;\n    bool fresh = learn(",
        "    n->st.notes_got++;\n    if (len)\n        return;\n    bool fresh = learn(",
        "a source ignores the NOTEs it receives (ftdrb_sci.md 2)",
        {"test": ["python3", "tests/ftdrb_table.py"]}),
    "harness-ftdrb-no-probe": ("harness", "scisys/sci_ftdrb.c",
        "scisys_host_fail_tid(s, i, tid, reason, !fresh, true);",
        "scisys_host_fail_tid(s, i, tid, reason, !fresh, false);",
        "a flow whose packet failed keeps sending its whole window, not one message at a time "
        "until an ACK: the relays of a 4x4 torus with one live column overflow (ftdrb_sci.md 2; "
        "the relays' busy answers keep every pair delivering, but relayed ACKs are dropped; at "
        "one message per pair every 11,000 cycles, since the direct-path rule of 4a relays less)",
        {"test": ["bash", "-c", '"$FTSIM" faultcheck --torus 4x4 --ftdrb --period 11000 --quiet '
                  "--multi-only --fault yring:1+yring:2+node:0,1 | grep ', 0 relay drops' || "
                  "{ echo 'FAIL: relay drops'; exit 1; }"]}),
    # ---- harness: FTGM's detectors under load (sci_sys.md section 8, tests/ft_load.py) ----
    "harness-ft-base-shortest": ("harness", "scisys/sci_sys_recovery.c",
        "    for (k = ST_KEEP; k > 0; k--)\n        if (low[k - 1])\n            return low[k - 1];",
        "    if (low[0])\n        return low[0];",
        "the self-test's base is the shortest learning round trip, not the third quartile (clause "
        "base)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "base"]}),
    "harness-ft-lost-fails": ("harness", "scisys/sci_sys_recovery.c",
        "    else if (moving)\n        st_late(",
        "    else if (moving && 0)\n        st_late(",
        "a read lost while its path's data moves fails the path at once (clause lost)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "lost"]}),
    "harness-ft-unpaced": ("harness", "scisys/sci_sys_recovery.c",
        "    return p / 2u + (p ? f->st_rng % p : 0);",
        "    return p + 0 * f->st_rng;",
        "the self-test's reads come at a fixed period, locking onto periodic traffic (clause paced)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "paced"]}),
    "harness-ft-wd-blocked": ("harness", "scisys/sci_sys_recovery.c",
        "((st & 0x3FFu) && !full[0] && !full[1])",
        "((st & 0x3FFu) && (full[0] || !full[0]) && (full[1] || !full[1]))",
        "the watchdog counts a PSB waiting for a full LC as holding work (clause blocked)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "blocked"]}),
    "harness-ftdrb-no-grow": ("harness", "scisys/sci_ftdrb.c",
        "    if (!s->fd->spread || mp->n >= MPMAX || !mp->n || (!n->known && !n->npath))",
        "    if (s->fd || mp->n >= MPMAX || !mp->n || (!n->known && !n->npath))",
        "a metapath never grows: every pair on one path (ftdrb_sci.md 4a, M4)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "spread"]}),
    "harness-ftdrb-equal-shares": ("harness", "scisys/sci_ftdrb.c",
        "        int32_t w = lo && mp->m[j].lat ? (int32_t)(256ull * lo / mp->m[j].lat) : 256;",
        "        int32_t w = lo && mp->m[j].lat ? 256 : 256;",
        "a metapath's members get equal shares whatever their latencies (ftdrb_sci.md 4a, M2)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "latency"]}),
    "harness-ftdrb-spread-in-ablation": ("harness", "scisys/sci_ftdrb.c",
        "            else if (nr < MPMAX - 1u && s->fd->spread) /* the ablation: one member */",
        "            else if (nr < MPMAX - 1u)",
        "--no-spread keeps the members a pair had when its selection changed (ftdrb_sci.md 4a)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "ablation"]}),
    "harness-ftdrb-no-hold": ("harness", "scisys/sci_sys_host.c",
        "        if (!(f->held >> at & 1u)) {",
        "        if (!(f->held >> at & 1u) && !s->fd) {",
        "a message that overtook its predecessors on another path is dropped, not held for "
        "in-order delivery (ftdrb_sci.md 4a, M6)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "order"]}),
    "harness-ftdrb-no-push-back": ("harness", "scisys/sci_ftdrb.c",
        "        if (type == SCI_T_DATA && n->rqn >= RELQ - RESV) {",
        "        if (type == SCI_T_DATA && n->rqn >= RELQ) {",
        "a relay takes DATA until its buffer is full and then drops, nobody told (ftdrb_sci.md 6, "
        "R1-R3): on the 4x4 torus with one live column, at one message per pair every 9,000 "
        "cycles, half the pairs then deliver nothing (the direct-path rule of 4a relays too little "
        "on xring:0+xring:1 to fill a buffer)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "pushback"]}),
    "rtl-upset-state-discard": ("rtl", "rn1_fport.v",
        "      default: begin\n        nx_state = ST_IDLE;\n      end",
        "      default: begin\n        nx_state = ST_DISCARD;\n      end",
        "a forward port in a state code no state uses goes to DISCARD, not IDLE (rn1.md 14)",
        ["tests/upset/rn1_contend.vec", "vectors/rn1/golden/fuzz-seed12.vec",
         "--only", "f0.state,f1.state,f2.state,f3.state,f4.state,f5.state,f6.state,f7.state"]),
    # ---- harness: FT-DRB (Zarza et al.) on RNP networks (harness/rnp/ftdrb_rnp.md) ---------
    "harness-rnp-mp-never-add": ("harness", "rnp/rnpni_ps.c",
        "    int want = fl > 0 && best > MP_GAIN * fl;",
        "    int want = 0 && fl > 0 && best > MP_GAIN * fl;",
        "sources never add a multistep path to a metapath (ftdrb_rnp.md 4b)",
        {"test": ["python3", "tests/ftdrb_rnp_spec.py", "--only", "4b"]}),
    "harness-rnp-mp-latency-unused": ("harness", "rnp/rnpni_ps.c",
        "        mp->lat[i] = mp->lat[i] < 0 ? lat : mp->lat[i] + (lat - mp->lat[i]) / 4;",
        "        mp->lat[i] = 50.0f;",
        "the latency ACKs are not used: every path counts as equally fast (ftdrb_rnp.md 4c)",
        {"test": ["python3", "tests/ftdrb_rnp_spec.py", "--only", "4c"]}),
    "harness-rnp-relay-drops": ("harness", "rnp/rnpni_ps.c",
        "        ni->st.busy++;\n        return BUSY_BYTE;",
        "        ni->st.busy++;\n        return ACK_BYTE;",
        "a full relay acknowledges a segment and drops it instead of pushing back "
        "(ftdrb_rnp.md 5b)",
        {"test": ["python3", "tests/ftdrb_rnp_spec.py", "--only", "5b"]}),
    "harness-rnp-relay-over-bound": ("harness", "rnp/rnpni_ps.c",
        "    if (ni->rq_len[q] >= cap) { /* full: push back, never drop (ftdrb_rnp.md 5b) */",
        "    if (ni->rq_len[q] > cap) { /* full: push back, never drop (ftdrb_rnp.md 5b) */",
        "a relay takes one segment more than its buffer's bound (ftdrb_rnp.md 5a)",
        {"test": ["python3", "tests/ftdrb_rnp_spec.py", "--only", "5b"]}),
    "harness-rnp-own-sender-relays": ("harness", "rnp/rnpni.c",
        "        } else if (ni->rq_len && ni->pol.one_sender && take_relayed(ni, e, s)) {",
        "        } else if (ni->rq_len && take_relayed(ni, e, s)) {",
        "an endpoint's own sender also takes segments from its relay buffers (ftdrb_rnp.md 5c)",
        {"test": ["python3", "tests/ftdrb_rnp_spec.py", "--only", "5c"]}),
    "harness-rnp-crc8-default": ("harness", "rnp/rnpni.c",
        "static unsigned crc_bytes(const ni_t *ni) { return ni->pol.crc8 ? 1 : 4; }",
        "static unsigned crc_bytes(const ni_t *ni) { return ni->pol.crc8 ? 1 : 1; }",
        "the default end-to-end check is the CRC-8 (ftdrb_rnp.md 6a)",
        {"test": ["python3", "tests/ftdrb_rnp_spec.py", "--only", "6a"]}),
    # ---- RTL, for the formal properties (formal/README.md) ------------------------------
    "rtl-disabled-granted": ("rtl", "rn1_fport.v",
        "    cand_o = cand_all & ~disable_i;",
        "    cand_o = cand_all;",
        "a disabled backward port is still a candidate and can be allocated (rn1.md 5)"),
    "rtl-bc-ungated": ("rtl", "rn1.v",
        "  assign fwd_bc_o = fwd_bc_q & {8{cfg_backchan}};",
        "  assign fwd_bc_o = fwd_bc_q;",
        "the busy hint leaves on bc with the backward channel off (rn1.md 7)"),
    "rtl-forward-turn-counted": ("rtl", "rn1_fport.v",
        "            nx_bword = W_TURN;\n            nx_out   = {1'b1, disp_i, count_i};",
        "            nx_bword = W_TURN;\n            nx_out   = {1'b1, disp_i, count_i + 6'd1};",
        "the TURN is counted into the STATUS it answers (rn1.md 2, 4 FORWARD)"),
    "rtl-sci-irq-lost": ("rtl", "sci_lc.v",
        "  assign irq_d     = ring_fall ? 1'b1 : (wr_clr ? 1'b0 : irq_q);",
        "  assign irq_d     = wr_clr ? 1'b0 : irq_q;",
        "ring up -> down sets no CableNotOk interrupt (sci_lc.md 3)"),
    "rtl-sci-disable-keeps-echoes": ("rtl", "sci_lc.v",
        "  assign eq_cnt_d  = !cfg_en ? 4'd0 :",
        "  assign eq_cnt_d  = !cfg_en ? eq_cnt_q :",
        "disabling the LC does not flush the echo queue's count (sci_lc.md 6 D7)"),
    # ---- harness: FT-DRB's choice between the direct path and relayed ones (ftdrb_sci.md 4a) --
    "harness-ftdrb-direct-by-table": ("harness", "scisys/sci_ftdrb.c",
        "    if (!mp || mp->dfailed)\n        select_path(",
        "    if (mp || mp->dfailed)\n        select_path(",
        "a pair leaves its direct path as soon as its source's table has an entry on it, although "
        "the failover still delivers it (ftdrb_sci.md 4a, C1)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "direct"]}),
    "harness-ftdrb-slower-shares": ("harness", "scisys/sci_ftdrb.c",
        "        if (j && mp->m[0].lat && mp->m[j].lat >= mp->m[0].lat)",
        "        if (j && mp->m[0].lat && mp->m[j].lat >= mp->m[0].lat && 0)",
        "a member slower than member 0 still takes a share in proportion to 1 / its latency "
        "(ftdrb_sci.md 4a, C2)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "faster"]}),
    "harness-ftdrb-never-back": ("harness", "scisys/sci_ftdrb.c",
        "++mp->since >= (mp->gap ? mp->gap : PROBE0)",
        "++mp->since >= (mp->gap ? mp->gap : PROBE0) && 0",
        "a flow whose direct path failed never probes it again (ftdrb_sci.md 4a, C3)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "probe,direct"]}),
    "harness-ftdrb-no-supersede": ("harness", "scisys/sci_ftdrb.c",
        "    if (n->rqn == RELQ && rq_supersede(n, p))",
        "    if (n->rqn == RELQ && rq_supersede(n, p) && 0)",
        "a relayed ACK or NOTE meeting a full relay buffer is dropped although a stale one of the "
        "same flow or notifier is there (ftdrb_sci.md 6, R4)",
        {"test": ["python3", "tests/ftdrb_metapath.py", "--only", "pushback"]}),
    # ---- RTL, RN1's parallel allocator (rtl/rn1.v choose) ----------------------------------
    "rtl-alloc-second-blocked": ("rtl", "rn1.v",
        "          grant[a*8 +: 8] = cand_i[a*8 +: 8] & ~alloc_i & ~taken;",
        "          grant[a*8 +: 8] = 8'h00;",
        "a second routing word for a direction, served after the first in one cycle, is blocked "
        "though the first left an output free (rn1.md 5)"),
    "rtl-alloc-third-granted": ("rtl", "rn1.v",
        "        twice = (earlier & (earlier - 8'd1)) != 8'h00;",
        "        twice = 1'b0;",
        "a third routing word for a direction in one cycle is granted what the first two left "
        "of the free outputs at the start (rn1.md 5)"),
    # ---- RTL: the ports' invariants that make RN1's crossbar invariants inductive (formal/) --
    "rtl-blocked-routed": ("rtl", "rn1_fport.v",
        "      dec_disp = (cand_o != 8'h00) ? DISP_BUSY : DISP_DEAD;",
        "      dec_disp = (cand_o != 8'h00) ? DISP_EVEN : DISP_DEAD;",
        "a blocked routing word gets a routed disposition, 10 for 00 (rn1.md 2, 4 BLOCKED)"),
    "rtl-granted-busy": ("rtl", "rn1_fport.v",
        "      dec_disp = (!mode_i && ((gnt_i & 8'hAA) != 8'h00)) ? DISP_ODD : DISP_EVEN;",
        "      dec_disp = (!mode_i && ((gnt_i & 8'hAA) != 8'h00)) ? DISP_ODD : DISP_BUSY;",
        "a routing word granted the first output gets disposition 00, not 10 (rn1.md 2)"),
    "rtl-armed-after-blocked": ("rtl", "rn1_fport.v",
        "    armed_d = (state_q == ST_FORWARD) || (state_q == ST_STATUS) ||",
        "    armed_d = (state_q == ST_FORWARD) || (state_q == ST_BLOCKED) || (state_q == ST_STATUS) ||",
        "backward channel: armed after BLOCKED, so a bc input drops a blocked STATUS (rn1.md 7 Armed)"),
    # ---- RTL, the node's PSB: the properties from rtl/sci_node.md (formal/node.sby) ---------
    "rtl-psb-host-before-reply": ("rtl", "sci_psb.v",
        "  wire [2:0] pick  = ok0 ? OW_LC0 : ok1 ? OW_LC1 : okrb ? OW_RB : oksf ? OW_HOST : OW_FREE;",
        "  wire [2:0] pick  = ok0 ? OW_LC0 : ok1 ? OW_LC1 : oksf ? OW_HOST : okrb ? OW_RB : OW_FREE;",
        "the host send FIFO takes the B-link before the reply buffer (sci_node.md 3)"),
    "rtl-psb-hout-stale": ("rtl", "sci_psb.v",
        "  assign hout_o      = rf_valid ? {1'b1, rf_rd} : 17'd0;",
        "  assign hout_o      = {rf_valid, rf_rd};",
        "hout shows the RAM's old word while not valid, not 0 (sci_node.md 1)"),
    "rtl-psb-missing-lc-uncounted": ("rtl", "sci_psb.v",
        "  assign disc_d = (ev_disc && disc_q != 16'hFFFF) ? disc_q + 16'd1 : disc_q;",
        "  assign disc_d = (ev_disc && disc_q != 16'hFFFF && port_cur == 3'd7) ? disc_q + 16'd1 : disc_q;",
        "a packet to a port with no LC is discarded but not counted (sci_node.md 2)"),
    "rtl-psb-recv-fifo-room": ("rtl", "sci_psb.v",
        "      r = !first_i || (rf_cnt_i < 4'd8);",
        "      r = !first_i || (rf_cnt_i <= 4'd8);",
        "a packet starts toward a full receive FIFO (sci_node.md 3)"),
    "rtl-psb-rsr-zero-arms": ("rtl", "sci_psb.v",
        "  assign rsr_arm_d = rsr_start ? (rsr_to != 16'd0) :",
        "  assign rsr_arm_d = rsr_start ? 1'b1 :",
        "rsr_timeout 0 still arms the remote-read timer (sci_node.md 2)"),
    # ---- RTL, for the allocator's contract and the send queue's invariants (formal/README.md) --
    "rtl-alloc-both-free": ("rtl", "rn1.v",
        "        grant[a*8 +: 8] = first[a*8 +: 8];",
        "        grant[a*8 +: 8] = cand_i[a*8 +: 8] & ~alloc_i;",
        "the first routing word of a direction is granted both free outputs (rn1.md 5)"),
    "rtl-alloc-next-output": ("rtl", "rn1.v",
        "        first[p*8 +: 8] = pick;",
        "        first[p*8 +: 8] = {pick[6:0], pick[7]};",
        "the allocator grants the output after the one it chose, outside the direction (rn1.md 5)"),
    "rtl-sci-sq-push-head": ("rtl", "sci_lc.v",
        "assign sq_d      = put4(sq_q, sq_tail_q, bi_slot_cur, bi_end);",
        "assign sq_d      = put4(sq_q, sq_head_q, bi_slot_cur, bi_end);",
        "a packet from the B-link is written at the send queue's head, over the next to send "
        "(sci_lc.md 3)"),
    "rtl-sci-fill-slot-moves": ("rtl", "sci_lc.v",
        "assign bi_slot_d = bi_xfer ? bi_slot_cur : bi_slot_q;",
        "assign bi_slot_d = bi_xfer ? free_hit[3:0] : bi_slot_q;",
        "a B-link packet's later symbols go to the lowest free slot, not the one it claimed "
        "(sci_lc.md 3)"),
    # ---- harness: FTGM's self-test, a read's clock (sci_sys.md section 8, clause left) ----
    "harness-ft-read-clock-at-post": ("harness", "scisys/sci_sys_recovery.c",
        "    f->st_deadline = UINT64_MAX;\n",
        "    f->st_deadline = s->now + 2u * s->cfg.par.rsr_timeout + 1000u;\n    f->st_left = true;\n",
        "a self-test read's deadline runs from its post, through the wait in its own node's "
        "queues, not from when it leaves the node (clause left)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "left"]}),
    "harness-ft-fail-report-ignored": ("harness", "scisys/sci_sys_recovery.c",
        "s->ft.n[i].st_tid != tid || reason < 2u)",
        "s->ft.n[i].st_tid != tid || reason < 9u)",
        "a self-test read's FAIL_REPORT for a disabled LC is not its answer: the path waits for "
        "the PSB's timeout reply, 200 us later (clause lost)",
        {"test": ["python3", "tests/upset_ft.py"]}),
    "harness-ft-starved-fails": ("harness", "scisys/sci_sys_recovery.c",
        "    bool starved = path_starved(s, i, dst, f->st_sent);",
        "    bool starved = 0 && path_starved(s, i, dst, f->st_sent);",
        "a read lost while a node on its path could send nothing fails the path (clause starved)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "starved"]}),
    "harness-ft-jitter-ignores-seed": ("harness", "scisys/sci_sys_recovery.c",
        "        f->st_rng = st_rng_start(s->cfg.seed, i);",
        "        f->st_rng = st_rng_start(1u + 0 * s->cfg.seed, i);",
        "the self-test's pacing ignores the run's seed: every seed puts the reads at the same "
        "moments, so a median over seeds is one run repeated (clause seeded)",
        {"test": ["python3", "tests/ft_load.py", "--clause", "seeded"]}),
}

def mutate(name, src):
    """A copy of the mutant's model folder (rtl/ or csim/) under src (relative to the root),
    with the mutant's one edit: its path, or None (said why) when the edit's text is not found
    exactly once. Also what the Icarus runs of exported testbenches break the RTL with."""
    model, fname, old, new, *_ = MUTANTS[name]
    if model == "harness":  # only the mutated file's folder: the build compiles it alone
        model = os.path.join("harness", os.path.dirname(fname))
        fname = os.path.basename(fname)
    shutil.rmtree(os.path.join(ROOT, src, model), ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, model), os.path.join(ROOT, src, model))
    path = os.path.join(ROOT, src, model, fname)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        print(f"mutant {name}: its text occurs {text.count(old)} times in {model}/{fname}; "
              f"update tests/mutants.py to the current source")
        return None
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))
    return os.path.join(src, model)


def run(name):
    model, fname, old, new, what, *seu = MUTANTS[name]
    base = os.path.join("build", "mut", name)
    src = os.path.join(base, "src")
    shutil.rmtree(os.path.join(ROOT, base), ignore_errors=True)
    if not mutate(name, src):
        return 2
    # Start from the tree's own objects (times kept; the copied sources keep theirs too), so
    # make rebuilds only what depends on the mutated file.
    if os.path.isdir(os.path.join(ROOT, "build", "obj")):
        os.makedirs(os.path.join(ROOT, base), exist_ok=True)
        subprocess.run(["cp", "-a", os.path.join(ROOT, "build", "obj"), os.path.join(ROOT, base, "obj")],
                       check=True)
    if model == "harness":
        return run_harness(name, base, src, fname, what, seu[0]["test"])
    # The tree's own Verilated models are shared, never rebuilt here: were they out of date
    # (their commands changed), a mutant's -O0 rebuild would land in the tree's build/.
    make = ["make", "-s", f"BUILD={base}", "VLBUILD=build/vl", "VLRUNTIME=build/vl/runtime",
            "VOPT=-O0", "VSLOW=-O0", "VPAR=0"] + tree_models()
    if model == "rtl":
        # The variants whose model reads the file, re-Verilated under base/vl; the others are
        # the tree's.
        rebuild = [v.name for v in designs.variants_reading(fname, rtl=os.path.join(ROOT, src, "rtl"))]
        if not rebuild:
            print(f"mutant {name}: no design of rtl/files.txt reads rtl/{fname}")
            return 2
        make += [f"RTL_DIR={src}/rtl", f"VLREBUILD={' '.join(rebuild)}", "VEXTRA=-Wno-fatal"]
    elif fname.endswith(".h"):
        # The copied dependency files name the tree's own header, not the mutated copy: drop
        # every object that includes it, so that make rebuilds them against the mutant.
        for d in glob.glob(os.path.join(ROOT, base, "obj", "**", "*.d"), recursive=True):
            with open(d, encoding="utf-8") as f:
                if f"{model}/{fname}" in f.read():
                    for o in (d[:-2] + ".o", d):
                        if os.path.exists(o):
                            os.remove(o)
        make += [f"CSIM_DIR={src}/csim"]
    else:
        obj = f"{base}/obj/{model}/{fname[:-2]}.o"
        if not compile_copy(name, base, src, f"{model}/{fname}", obj):
            return 2
        make += [f"--old-file={obj}"]
    p = subprocess.run(make + [f"{base}/ftsim"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print(f"mutant {name}: does not build:\n{p.stdout.decode(errors='replace')[-2000:]}")
        return 2
    if seu:
        return run_upsetcheck(name, base, model, what, seu[0])
    vecs = sorted(os.path.relpath(v, ROOT)
                  for v in glob.glob(os.path.join(ROOT, "vectors", "*", "spec", "*.vec")))
    p = subprocess.run([os.path.join(base, "ftsim"), "play", *vecs, "--model", model,
                        "--max-msgs", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    failed = [l[5:] for l in out.splitlines() if l.startswith("FAIL ")]
    print(f"mutant {name} ({model}): {what}")
    if p.returncode == 1 and failed:
        print(f"killed by {len(failed)} of {len(vecs)} spec vectors: {', '.join(map(os.path.basename, failed))}")
        first = next((l for l in out.splitlines() if ": cycle " in l), "")
        print(f"first message: {first}")
        why = verdict_check(base, model, failed[0])
        shutil.rmtree(os.path.join(ROOT, base), ignore_errors=True)
        if why:
            print(f"lockstep verdict wrong on {failed[0]}: {why}")
            return 1
        print(f"lockstep on {os.path.basename(failed[0])}: the verdict names {model} as the model "
              "that fails, on a statement line of the cycle")
        return 0
    if p.returncode == 0:
        print("SURVIVED: every spec vector passes on this mutant")
        return 1
    print(f"error playing the vectors (exit {p.returncode}):\n{out[-2000:]}")
    return 2


def run_upsetcheck(name, base, model, what, args):
    """A mutant of the upset path: `ftsim upsetcheck` on the mutated binary must fail."""
    return judge(name, base, f"({model})", what, [os.path.join(base, "ftsim"), "upsetcheck", *args],
                 f"ftsim upsetcheck {' '.join(args)}", r"^\s*FAIL ")


def judge(name, base, where, what, cmd, label, fail_re, env=None):
    """Run the check that must catch mutant `name` (built in base, removed here): killed (0) when
    it exits 1 with a line matching fail_re, survived (1) when it passes, else an error (2)."""
    p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    fails = [l.strip() for l in out.splitlines() if re.search(fail_re, l)]
    print(f"mutant {name} {where}: {what}")
    shutil.rmtree(os.path.join(ROOT, base), ignore_errors=True)
    if p.returncode == 1 and fails:
        print(f"killed by {label}: {fails[0]}")
        return 0
    if p.returncode == 0:
        print(f"SURVIVED: {label} passes on this mutant")
        return 1
    print(f"error running {label} (exit {p.returncode}):\n{out[-2000:]}")
    return 2


def tree_models():
    """make's --old-file for each of the tree's Verilated models: used as they are."""
    return ["--old-file=" + os.path.relpath(lib, ROOT)
            for lib in glob.glob(os.path.join(ROOT, "build", "vl", "*", "V*__ALL.a"))]


def compile_copy(name, base, src, path, obj):
    """The mutated copy of path (under src) compiled into obj as make compiles path (its
    command from make -n, pointed at the copy): True when it compiled, else said why."""
    p = subprocess.run(["make", "-n", f"BUILD={base}", f"-W{path}", obj], cwd=ROOT,
                       capture_output=True, text=True)
    cc = [l for l in p.stdout.splitlines() if f" -c {path} " in l]
    if p.returncode != 0 or len(cc) != 1:
        print(f"mutant {name}: no compile command for {path} from make -n:\n"
              f"{p.stdout[-1500:]}{p.stderr[-500:]}")
        return False
    os.makedirs(os.path.dirname(os.path.join(ROOT, obj)), exist_ok=True)
    p = subprocess.run(["bash", "-c", cc[0].replace(f" -c {path} ", f" -c {src}/{path} ")], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print(f"mutant {name}: does not build:\n{p.stdout.decode(errors='replace')[-2000:]}")
        return False
    return True


def run_harness(name, base, src, fname, what, test):
    """A mutant of the harness: the mutated file compiled as make compiles it, the rest of the
    binary from the tree's objects; then the test that must catch it, on that binary."""
    obj = f"{base}/obj/harness/{fname[:-2]}.o"
    if not compile_copy(name, base, src, f"harness/{fname}", obj):
        return 2
    p = subprocess.run(["make", "-s", f"BUILD={base}", "VLBUILD=build/vl", "VLRUNTIME=build/vl/runtime",
                        f"--old-file={obj}", f"{base}/ftsim"] + tree_models(),
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        print(f"mutant {name}: does not build:\n{p.stdout.decode(errors='replace')[-2000:]}")
        return 2
    env = dict(os.environ, FTSIM=os.path.join(base, "ftsim"))
    return judge(name, base, f"(harness/{fname})", what, test, " ".join(test), r"\bFAIL\b", env)


def verdict_check(base, model, vec):
    """In lockstep, a vector that kills the mutant must show a divergence citing a real statement
    line, then each model's own verdict: the broken one fails, the other passes."""
    p = subprocess.run([os.path.join(base, "ftsim"), "play", vec, "--model", "both"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    other = "rtl" if model == "csim" else "csim"
    m = re.search(r"^" + re.escape(vec) + r":(\d+): cycle \d+: the models diverge", out, re.M)
    if p.returncode == 1 and not m and re.search(r": reg \S+: expected .*, " + model + " reads", out):
        return ""  # a register read the comparator does not watch: the message names the model
    if model == "rtl" and p.returncode == 1 and re.search(
            r"^" + re.escape(vec) + r":[1-9]\d*: cycle \d+: rtl flagged an internal error "
            r"\(assertion\)", out, re.M):
        return ""  # an RTL assertion (rtl/ft_assert.svh) caught it before any output diverged
    if p.returncode != 1 or not m:
        return f"no divergence reported (exit {p.returncode}):\n{out[-800:]}"
    if int(m.group(1)) == 0:
        return "the divergence cites line 0"
    if not re.search(re.escape(vec) + r":[1-9]\d*: cycle \d+: " + model + " alone fails", out):
        return f"no verdict that {model} alone fails:\n{out[-800:]}"
    if f"{other} alone passes every expectation" not in out:
        return f"no verdict that {other} alone passes:\n{out[-800:]}"
    return ""


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    if sys.argv[1] == "--list":
        for n, m in MUTANTS.items():
            print(f"{n:<32} {m[4]}")
        return 0
    if sys.argv[1] not in MUTANTS:
        print(f"unknown mutant {sys.argv[1]!r} (tests/mutants.py --list)")
        return 2
    return run(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
