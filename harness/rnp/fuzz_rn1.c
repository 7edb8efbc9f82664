/*
 * fuzz_rn1.c — `ftsim fuzz --device rn1`: endpoint models on all 16 ports of one RN1 open
 * random connections, while the RTL and the C model run in lockstep. Independently of the
 * models, a scoreboard checks the protocol end to end (rtl/rn1.md sections 2-5):
 *   - every word a destination receives is the word its source drove one cycle earlier
 *     (an invalid control word arriving as DROP), from the routing word to the close;
 *   - every STATUS/CHECKSUM a source receives carries the count and XOR the source computed
 *     over its own counted words, a disposition consistent with where its words went (the
 *     destination that received them, or nobody: 00, or 01 exactly when the direction's
 *     ports were all disabled), and comes exactly one and two cycles after the TURN;
 *   - a blocked connection answers DROP right after CHECKSUM; reverse words are the
 *     destination's, one cycle later; a reverse TURN gives exactly two HOLDs;
 *   - an output that no connection owns stays IDLE.
 * The routing word carries the source's number in d[2:0] so that a destination knows whom
 * it hears from without asking the router.
 *
 * A failure writes a reproducer vector (the stimulus since the last cycle at which the
 * router was quiet, replayable with `ftsim play`) and its FST waveform.
 */
#include "fuzz_rnp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lockstep.h"
#include "play.h"
#include "prng.h"
#include "rn1_dev.h"
#include "rnp_word.h"

#define NP 8

typedef struct cfg {
    uint8_t swallow, disable, mode, backchan;
    uint16_t seed;
} cfg_t;

enum { SQ_QUIET, SQ_SEND, SQ_TURNED, SQ_REPLY, SQ_CLOSE };
enum { DQ_LISTEN, DQ_RECV, DQ_HOLD1, DQ_HOLD2, DQ_REPLY };

typedef struct src {
    int st;
    uint16_t cur, last; /* drive this cycle, last cycle */
    unsigned left;      /* words before the final action of this phase */
    unsigned dir, seq, turns;
    int swallow_pending; /* the next c=1 word is the swallowed one */
    int routed;          /* the routing word has been driven */
    cfg_t decide_cfg;    /* configuration in force in the deciding cycle */
    unsigned count;
    uint8_t xr;
    int dest; /* backward port that received the routing word, or -1 */
    int disp; /* disposition from the first STATUS, or -1 */
    uint64_t t_turn;
} src_t;

typedef struct dst {
    int st;
    uint16_t cur, last;
    uint8_t bc; /* bc input of this backward port in the next cycle */
    int src;
    unsigned left;
} dst_t;

typedef struct stats {
    uint64_t opened, routed, blocked00, blocked01, fturns, rturns, sdrops, ddrops, idledrops,
        invalid, cfgwrites, quiet, maxcount;
} stats_t;

typedef struct fz {
    const fuzz_opts_t *o;
    int plain;         /* default configuration, no mid-run writes */
    uint16_t *capture; /* the inputs of every cycle, or NULL */
    prng_t rng;
    lockstep_t ls;
    cfg_t cfg; /* in force this cycle */
    src_t s[NP];
    dst_t d[NP];
    uint64_t in[RN1_NPORTS];
    uint64_t t;
    int pause;
    int loose; /* the backward channel has been on since the router was last quiet */
    uint64_t next_pause;
    stats_t st;
    int failed;
    char why[700];
    /* reproducer: the stimulus since the last quiet cycle q */
    uint64_t q;
    cfg_t q_cfg;
    uint16_t q_lfsr;
    uint64_t q_in[RN1_NPORTS];
    struct logent {
        uint64_t cycle;
        uint32_t port;
        uint64_t value, mask;
    } * log; /* port UINT32_MAX: a CFG write */
    size_t nlog, caplog;
    rec_t *golden;
} fz_t;

static void fz_fail(fz_t *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fuzz_first_failure(&f->failed, f->why, sizeof f->why, f->t, fmt, ap);
    va_end(ap);
}

/* An end-to-end protocol check failed. While the backward channel is on, a drop can cut any
 * stream short, so these checks stand down and lockstep alone compares the models (the
 * network fuzz checks the backward channel end to end). */
#define fz_bad(f, ...)               \
    do {                             \
        if (!(f)->loose)             \
            fz_fail(f, __VA_ARGS__); \
    } while (0)

/* A word's name, formatted only where a failure is reported (every cycle would cost the run a
 * third of its time): the returned array lives to the end of the call it is an argument of. */
typedef struct wname { char s[32]; } wname_t;
static wname_t wname(uint16_t w)
{
    wname_t n;
    rnp_format_word(RNP_KIND_WORD, w, 0, n.s, sizeof n.s);
    return n;
}

/* The word that leaves a router for word w on a live input: invalid control words as DROP. */
static uint16_t passed(uint16_t w) { return rnp_is_invalid(w) ? RNP_DROP : w; }

static uint16_t invalid_word(fz_t *f)
{
    uint16_t w;
    do
        w = (uint16_t)prng_below(&f->rng, 256);
    while (!rnp_is_invalid(w));
    return w;
}

/* Backward ports of direction k for forward port p, under configuration c. */
static unsigned dir_ports(const cfg_t *c, unsigned p, unsigned k, unsigned *ports)
{
    if (c->mode == 0) {
        ports[0] = 2 * k;
        ports[1] = 2 * k + 1;
        return 2;
    }
    ports[0] = (p < 4 ? 0u : 4u) + k;
    return 1;
}

void fuzz_first_failure(int *failed, char *why, size_t len, uint64_t cycle, const char *fmt,
                        va_list ap)
{
    if (*failed)
        return;
    *failed = 1;
    int n = snprintf(why, len, "cycle %llu: ", (unsigned long long)cycle);
    if (n >= 0 && (size_t)n < len)
        vsnprintf(why + n, len - (size_t)n, fmt, ap);
}

/* ---- sources (forward ports, upstream side) ----------------------------------------- */

static unsigned rand_len(fz_t *f)
{
    uint32_t r = prng_below(&f->rng, 100);
    return r < 60   ? prng_below(&f->rng, 6)
           : r < 95 ? prng_below(&f->rng, 40)
                    : 60 + prng_below(&f->rng, 120);
}

static void src_open(fz_t *f, unsigned i, const cfg_t *next)
{
    src_t *s = &f->s[i];
    s->st = SQ_SEND;
    s->left = rand_len(f);
    s->dir = prng_below(&f->rng, 4);
    s->seq = (s->seq + 1) & 7;
    s->turns = 0;
    s->swallow_pending = (next->swallow >> i) & 1;
    s->routed = 0;
    s->count = 0;
    s->xr = 0;
    s->dest = -1;
    s->disp = -1;
    f->st.opened++;
}

/* The final action of a forward phase. */
static uint16_t src_final(fz_t *f, src_t *s)
{
    uint32_t r = prng_below(&f->rng, 100);
    if (r < (f->pause ? 40u : 65u) && s->turns < 4)
        return RNP_TURN;
    if (r < 88)
        return RNP_DROP;
    if (r < 96)
        return RNP_IDLE;
    return invalid_word(f);
}

/* What source i drives in the next cycle (next: the configuration in force then). */
static void src_plan(fz_t *f, unsigned i, const cfg_t *next)
{
    src_t *s = &f->s[i];
    s->last = s->cur;
    switch (s->st) {
    case SQ_QUIET:
        if (!f->pause && prng_chance(&f->rng, 1, 6)) {
            src_open(f, i, next);
            break; /* fall into SEND below */
        }
        s->cur = prng_chance(&f->rng, 1, 200) ? invalid_word(f) : RNP_IDLE;
        return;
    case SQ_TURNED:
    case SQ_REPLY:
        s->cur = RNP_HOLD; /* ignored by the router until it turns the connection back */
        return;
    case SQ_CLOSE:
        s->cur = RNP_DROP;
        s->st = SQ_QUIET;
        return;
    default: break;
    }
    /* SQ_SEND */
    uint16_t w;
    if (s->swallow_pending || !s->routed) {
        if (!s->routed && !s->swallow_pending && s->count > 0 && prng_chance(&f->rng, 1, 8)) {
            w = src_final(f, s); /* TURN/DROP while waiting in SWALLOW */
        } else if (s->count > 0 && prng_chance(&f->rng, 1, 6)) {
            w = RNP_HOLD; /* ignored in SWALLOW */
        } else if (s->swallow_pending) {
            w = (uint16_t)(RNP_C | prng_below(&f->rng, 256));
            s->swallow_pending = 0;
        } else {
            w = (uint16_t)(RNP_C | (s->dir << 6) | (s->seq << 3) | i);
            s->routed = 1;
            s->decide_cfg = *next;
        }
    } else if (s->left == 0) {
        w = src_final(f, s);
    } else {
        s->left--;
        w = prng_chance(&f->rng, 1, 8) ? RNP_HOLD : (uint16_t)(RNP_C | prng_below(&f->rng, 256));
    }
    if (w & RNP_C) {
        s->count++;
        s->xr ^= (uint8_t)w;
    }
    if (s->count > f->st.maxcount)
        f->st.maxcount = s->count;
    s->cur = w;
}

static void src_check_status(fz_t *f, unsigned i, uint16_t w)
{
    src_t *s = &f->s[i];
    if (!(w & RNP_C) || (w & 0x3Fu) != (s->count & 0x3Fu)) {
        fz_bad(f, "f%u: expected STATUS with count %u (mod 64 = %u), saw %s", i, s->count,
               s->count & 63u, wname(w).s);
        return;
    }
    int disp = (w >> 6) & 3;
    if (s->disp >= 0) {
        if (disp != s->disp)
            fz_bad(f, "f%u: STATUS disposition %d differs from the first STATUS's %d", i, disp,
                   s->disp);
        return;
    }
    s->disp = disp;
    if (s->dest >= 0) {
        int want = s->decide_cfg.mode == 0 ? 2 | (s->dest & 1) : 2;
        if (disp != want)
            fz_bad(f, "f%u: b%d received the routing word, but STATUS says disposition %d", i,
                   s->dest, disp);
        else
            f->st.routed++;
        return;
    }
    if (disp >= 2) {
        fz_bad(f, "f%u: STATUS says routed (disposition %d) but no backward port received it", i,
               disp);
        return;
    }
    unsigned ports[2], n = dir_ports(&s->decide_cfg, i, s->dir, ports), all_off = 1;
    for (unsigned k = 0; k < n; k++)
        if (!((s->decide_cfg.disable >> ports[k]) & 1))
            all_off = 0;
    int want = s->routed && all_off ? 1 : 0;
    if (disp != want)
        fz_bad(f, "f%u: blocked with disposition %d, expected %d (direction %u %s)", i, disp, want,
               s->dir, all_off ? "all disabled" : "has an enabled port");
    else if (disp)
        f->st.blocked01++;
    else
        f->st.blocked00++;
}

/* Source i sees word w on its output in cycle t. */
static void src_observe(fz_t *f, unsigned i, uint16_t w)
{
    src_t *s = &f->s[i];
    switch (s->st) {
    case SQ_CLOSE: break;
    case SQ_QUIET:
    case SQ_SEND:
        if (w != RNP_IDLE)
            fz_bad(f, "f%u: output carries %s while the source is not turned", i,
                   wname(w).s);
        break;
    case SQ_TURNED:
        if (f->t == s->t_turn + 1) {
            src_check_status(f, i, w);
        } else if (f->t == s->t_turn + 2) {
            if (w != (RNP_C | s->xr)) {
                fz_bad(f, "f%u: expected CHECKSUM %s, saw %s", i,
                       wname((uint16_t)(RNP_C | s->xr)).s, wname(w).s);
            }
        } else if (s->dest < 0) {
            if (w != RNP_DROP)
                fz_bad(f, "f%u: blocked connection: expected DROP after CHECKSUM, saw %s", i,
                       wname(w).s);
            s->st = SQ_QUIET;
        } else {
            s->st = SQ_REPLY;
        }
        if (s->st != SQ_REPLY)
            break;
        /* the first reply word */
        __attribute__((fallthrough));
    case SQ_REPLY: {
        uint16_t want = passed(f->d[s->dest].last);
        if (w != want) {
            fz_bad(f, "f%u: reverse word from b%d: expected %s (driven a cycle earlier), saw %s", i,
                   s->dest, wname(want).s, wname(w).s);
        }
        if (w == RNP_TURN) {
            s->st = SQ_SEND;
            s->left = rand_len(f);
        } else if (w == RNP_DROP || w == RNP_IDLE) {
            s->st = SQ_QUIET;
        }
        break;
    }
    }
    /* The drive of this cycle that ends the phase takes effect now. */
    if (s->st == SQ_SEND && (s->cur == RNP_TURN || s->cur == RNP_DROP || s->cur == RNP_IDLE ||
                             rnp_is_invalid(s->cur))) {
        if (s->cur == RNP_TURN) {
            s->st = SQ_TURNED;
            s->t_turn = f->t;
            s->turns++;
            f->st.fturns++;
        } else {
            s->st = SQ_QUIET;
            f->st.sdrops += s->cur == RNP_DROP;
            f->st.idledrops += s->cur == RNP_IDLE;
            f->st.invalid += rnp_is_invalid(s->cur);
        }
    }
}

/* ---- destinations (backward ports, downstream side) --------------------------------- */

static void dst_plan(fz_t *f, unsigned j)
{
    dst_t *d = &f->d[j];
    d->last = d->cur;
    d->bc = 0;
    if (f->cfg.backchan) {
        /* idle: a random busy hint; in a connection: now and then drop it from this end */
        if (d->st == DQ_LISTEN)
            d->bc = prng_chance(&f->rng, 1, 4);
        else if (prng_chance(&f->rng, 1, 60)) {
            d->bc = 1;
            d->st = DQ_LISTEN;
        }
    }
    if (d->st != DQ_REPLY) {
        /* ignored by the router: drive noise now and then */
        uint32_t r = prng_below(&f->rng, 100);
        d->cur = r < 90   ? RNP_IDLE
                 : r < 95 ? (uint16_t)(RNP_C | prng_below(&f->rng, 256))
                          : invalid_word(f);
        return;
    }
    if (d->left > 0) {
        d->left--;
        d->cur =
            prng_chance(&f->rng, 1, 6) ? RNP_HOLD : (uint16_t)(RNP_C | prng_below(&f->rng, 256));
        return;
    }
    uint32_t r = prng_below(&f->rng, 100);
    if (r < (f->pause ? 20u : 45u) && f->s[d->src].turns < 4)
        d->cur = RNP_TURN;
    else if (r < 85)
        d->cur = RNP_DROP;
    else if (r < 95)
        d->cur = RNP_IDLE;
    else
        d->cur = invalid_word(f);
}

static void dst_new(fz_t *f, unsigned j, uint16_t w)
{
    dst_t *d = &f->d[j];
    unsigned i = w & 7u;
    src_t *s = &f->s[i];
    if (s->st != SQ_SEND || !s->routed || s->last != w || s->dest >= 0) {
        fz_bad(f, "b%u: a routing word %s that f%u did not just send", j, wname(w).s, i);
        return;
    }
    unsigned ports[2], n = dir_ports(&s->decide_cfg, i, s->dir, ports), ok = 0;
    for (unsigned k = 0; k < n; k++)
        ok |= ports[k] == j;
    if (!ok || ((s->decide_cfg.disable >> j) & 1))
        fz_bad(f, "b%u: f%u's routing word for direction %u arrived on a port %s", j, i, s->dir,
               ok ? "that was disabled" : "of another direction");
    s->dest = (int)j;
    d->st = DQ_RECV;
    d->src = (int)i;
}

static void dst_observe(fz_t *f, unsigned j, uint16_t w)
{
    dst_t *d = &f->d[j];
    switch (d->st) {
    case DQ_LISTEN:
        if (w & RNP_C)
            dst_new(f, j, w);
        else if (w != RNP_IDLE)
            fz_bad(f, "b%u: unowned output carries %s", j, wname(w).s);
        break;
    case DQ_HOLD1:
    case DQ_HOLD2:
        if (w != RNP_HOLD)
            fz_bad(f, "b%u: expected HOLD %s after the reverse TURN, saw %s", j,
                   d->st == DQ_HOLD1 ? "one cycle" : "two cycles", wname(w).s);
        d->st = d->st == DQ_HOLD1 ? DQ_HOLD2 : DQ_RECV;
        break;
    case DQ_RECV: {
        uint16_t want = passed(f->s[d->src].last);
        if (w != want) {
            fz_bad(f, "b%u: word from f%d: expected %s (driven a cycle earlier), saw %s", j, d->src,
                   wname(want).s, wname(w).s);
        }
        if (w == RNP_TURN) {
            d->st = DQ_REPLY;
            d->left = rand_len(f) / 2;
        } else if (w == RNP_DROP || w == RNP_IDLE) {
            d->st = DQ_LISTEN;
        }
        break;
    }
    case DQ_REPLY:
        if (w != RNP_IDLE)
            fz_bad(f, "b%u: output carries %s while the connection is reversed", j, wname(w).s);
        if (d->cur == RNP_TURN) {
            d->st = DQ_HOLD1;
            f->st.rturns++;
        } else if (d->cur == RNP_DROP || d->cur == RNP_IDLE || rnp_is_invalid(d->cur)) {
            d->st = DQ_LISTEN;
            f->st.ddrops++;
        }
        break;
    }
}

/* ---- configuration ------------------------------------------------------------------ */

static void cfg_random(fz_t *f, cfg_t *c)
{
    c->mode = prng_chance(&f->rng, 1, 3) ? 1 : 0;
    c->swallow = prng_chance(&f->rng, 1, 2) ? (uint8_t)prng_below(&f->rng, 256) : 0;
    c->disable = 0;
    for (unsigned j = 0; j < NP; j++)
        if (prng_chance(&f->rng, 1, 6))
            c->disable |= (uint8_t)(1u << j);
    c->seed = (uint16_t)prng_below(&f->rng, 65536);
    c->backchan = prng_chance(&f->rng, 1, 3) ? 1 : 0;
}

static dev_write_t cfg_write(const cfg_t *c, uint64_t mask)
{
    dev_write_t w = {RN1_REG_CFG, 0, mask};
    w.data = (uint64_t)c->swallow | ((uint64_t)c->disable << 8) | ((uint64_t)c->seed << 16) |
             ((uint64_t)c->mode << 32) | ((uint64_t)c->backchan << 40);
    w.data &= mask;
    return w;
}

/* Maybe write a configuration change in this cycle; returns 1 and the write if so. */
static int cfg_maybe(fz_t *f, dev_write_t *w, cfg_t *next)
{
    *next = f->cfg;
    if (f->plain || !prng_chance(&f->rng, 1, 3000))
        return 0;
    cfg_t r;
    cfg_random(f, &r);
    uint64_t mask = 0;
    uint32_t pick = prng_below(&f->rng, 32) | 1u;
    if (pick & 1) {
        next->disable = r.disable;
        mask |= 0xFF00;
    }
    if (pick & 2) {
        next->swallow = r.swallow;
        mask |= 0xFF;
    }
    if (pick & 4) {
        next->seed = r.seed;
        mask |= 0xFFFF0000ull;
    }
    if (pick & 8) {
        next->mode = r.mode;
        mask |= 1ull << 32;
    }
    if (pick & 16) {
        next->backchan = r.backchan;
        mask |= 1ull << 40;
    }
    *w = cfg_write(next, mask);
    f->st.cfgwrites++;
    return 1;
}

/* ---- reproducer --------------------------------------------------------------------- */

static void log_input(fz_t *f, uint64_t cycle, uint32_t port, uint64_t value, uint64_t mask)
{
    if (f->nlog == f->caplog) {
        size_t cap = f->caplog ? f->caplog * 2 : 4096;
        struct logent *n = realloc(f->log, cap * sizeof *n);
        if (!n) {
            fz_fail(f, "out of memory for the reproducer log");
            return;
        }
        f->log = n;
        f->caplog = cap;
    }
    f->log[f->nlog++] = (struct logent){cycle, port, value, mask};
}

/* The router is quiet (every port IDLE, nothing allocated) on a cycle that is 0 mod 8, so
 * the rest of the run replays from a reset whose seed is the LFSR value now. */
static int router_quiet(fz_t *f, const uint64_t *out)
{
    if ((f->t & 7u) != 0)
        return 0;
    for (unsigned p = 0; p < RN1_NPORTS; p++)
        if (rn1_design.ports[p].dir == DEV_OUT && out[p] != 0)
            return 0;
    for (unsigned i = 0; i < NP; i++)
        if (f->s[i].st != SQ_QUIET || f->d[i].st != DQ_LISTEN)
            return 0;
    /* The debug snapshot (rtl/rn1.md: ERRORS, ALLOC, LFSR, PORT0..7) costs no model eval. */
    uint64_t dbg[RN1_NDEBUG];
    dev_debug(f->ls.m[f->ls.n - 1], dbg);
    if (dbg[1] != 0)
        return 0;
    for (unsigned p = 0; p < NP; p++)
        if ((dbg[3 + p] & 0xFu) != 0)
            return 0;
    return 1;
}

static void mark_quiet(fz_t *f)
{
    f->q = f->t;
    f->q_cfg = f->cfg;
    uint64_t dbg[RN1_NDEBUG];
    dev_debug(f->ls.m[f->ls.n - 1], dbg);
    f->q_lfsr = (uint16_t)dbg[2];
    memcpy(f->q_in, f->in, sizeof f->q_in);
    f->nlog = 0;
    f->st.quiet++;
}

static int write_repro(fz_t *f, const char *path)
{
    char err[DEV_ERR_LEN], header[1024];
    snprintf(header, sizeof header,
             "# REPRODUCER written by `ftsim fuzz --device rn1 --seed %llu`.\n"
             "# Cycle 0 here is cycle %llu of that run (the router was quiet then; its LFSR\n"
             "# value becomes the seed). Failure: %s\n",
             (unsigned long long)f->o->seed, (unsigned long long)f->q, f->why);
    cfg_t c = f->q_cfg;
    c.seed = f->q_lfsr;
    dev_write_t init = cfg_write(&c, 0x1FFFFFFFFFFull);
    rec_t *r = rec_open(path, &rn1_design, &init, 1, header, 0, err, sizeof err);
    if (!r) {
        fprintf(stderr, "ftsim: %s\n", err);
        return -1;
    }
    uint64_t in[RN1_NPORTS];
    memcpy(in, f->q_in, sizeof in);
    size_t k = 0;
    for (uint64_t t = f->q; t <= f->t; t++) {
        dev_write_t w, *wr = NULL;
        for (; k < f->nlog && f->log[k].cycle == t; k++) {
            if (f->log[k].port == UINT32_MAX) {
                w = (dev_write_t){RN1_REG_CFG, f->log[k].value, f->log[k].mask};
                wr = &w;
            } else {
                in[f->log[k].port] = f->log[k].value;
            }
        }
        rec_cycle(r, t - f->q, in, wr, NULL, NULL);
    }
    return rec_close(r, f->t - f->q + 4, err, sizeof err) ? -1 : 0;
}

static void report_failure(fz_t *f)
{
    printf("FAIL fuzz rn1 seed %llu: %s\n", (unsigned long long)f->o->seed, f->why);
    const char *dir = f->o->outdir ? f->o->outdir : "build/fuzz";
    mkdir("build", 0777);
    mkdir(dir, 0777);
    char vec[512], fst[512];
    snprintf(vec, sizeof vec, "%s/rn1-seed%llu.vec", dir, (unsigned long long)f->o->seed);
    snprintf(fst, sizeof fst, "%s/rn1-seed%llu.fst", dir, (unsigned long long)f->o->seed);
    if (write_repro(f, vec) < 0)
        return;
    printf("reproducer: %s (cycles %llu..%llu of the run)\n", vec, (unsigned long long)f->q,
           (unsigned long long)f->t);
    static const dev_design_t *const rn1_only[] = {&rn1_design, NULL};
    static const dev_catalog_t rn1_catalog = {.designs = rn1_only};
    fuzz_replay(&rn1_catalog, vec, fst, LS_BOTH, NULL);
}

void fuzz_replay(const dev_catalog_t *cat, const char *vec, const char *fst, unsigned models,
                 const char *hint)
{
    vec_t v;
    char err[DEV_ERR_LEN];
    if (vec_load(vec, cat, &v, err, sizeof err)) {
        printf("reproducer does not parse: %s\n", err);
        return;
    }
    play_opts_t po = {.models = models == LS_CSIM ? LS_CSIM : LS_BOTH,
                      .wave = models == LS_CSIM ? NULL : fst,
                      .max_msgs = 3};
    printf("replaying it%s:\n", po.wave ? " with a waveform" : "");
    fflush(stdout);
    int rc = play_run(&v, &po);
    vec_free(&v);
    if (po.wave && hint)
        printf("waveform: %s   %s\n", fst, hint);
    else if (po.wave)
        printf("waveform: %s   (make wave V=%s)\n", fst, vec);
    if (rc == 0)
        printf("note: the replay shows no divergence; the failure is an end-to-end check above\n");
}

/* ---- the run -------------------------------------------------------------------------- */

static void apply_drives(fz_t *f)
{
    for (unsigned i = 0; i < NP; i++) {
        uint64_t v[3] = {f->s[i].cur, f->d[i].cur, f->d[i].bc};
        uint32_t port[3] = {RN1_P_FIN(i), RN1_P_BIN(i), RN1_P_BBC(i)};
        for (unsigned k = 0; k < 3; k++)
            if (f->in[port[k]] != v[k]) {
                f->in[port[k]] = v[k];
                log_input(f, f->t + 1, port[k], v[k], 0); /* driven from the next cycle */
            }
    }
}

static void print_stats(const fz_t *f, double secs)
{
    const stats_t *s = &f->st;
    printf("  %llu cycles in %.2f s (%.0f cycles/s); connections %llu: routed %llu, blocked 00 "
           "%llu, blocked 01 %llu\n",
           (unsigned long long)f->t, secs, secs > 0 ? (double)f->t / secs : 0.0,
           (unsigned long long)s->opened, (unsigned long long)s->routed,
           (unsigned long long)s->blocked00, (unsigned long long)s->blocked01);
    printf("  turns forward %llu, reverse %llu; drops by source %llu, by destination %llu, idle "
           "%llu, invalid %llu; config writes %llu; quiet points %llu; longest count %llu\n",
           (unsigned long long)s->fturns, (unsigned long long)s->rturns,
           (unsigned long long)s->sdrops, (unsigned long long)s->ddrops,
           (unsigned long long)s->idledrops, (unsigned long long)s->invalid,
           (unsigned long long)s->cfgwrites, (unsigned long long)s->quiet,
           (unsigned long long)s->maxcount);
}

static int fuzz_loop(fz_t *f)
{
    char msg[600];
    cfg_t next;
    dev_write_t w;
    int tty = isatty(2);
    uint64_t n = f->o->cycles;
    for (f->t = 0; f->t < n && !f->failed; f->t++) {
        if (tty && !f->o->quiet && (f->t & 0xFFFFF) == 0 && n > 2000000)
            fprintf(stderr, "\r  cycle %llu of %llu (%.0f%%)", (unsigned long long)f->t,
                    (unsigned long long)n, 100.0 * (double)f->t / (double)n);
        if (f->capture)
            for (unsigned i = 0; i < 2 * NP; i++)
                f->capture[f->t * 2 * NP + i] = (uint16_t)f->in[i];
        int wr = cfg_maybe(f, &w, &next);
        ls_set_inputs(&f->ls, f->in);
        if (wr) {
            ls_reg_write(&f->ls, &w);
            log_input(f, f->t, UINT32_MAX, w.data, w.mask);
        }
        ls_sample(&f->ls);
        if (ls_diverged(&f->ls, msg, sizeof msg)) {
            fz_fail(f, "the models diverge (first difference): %s", msg);
            break;
        }
        if (f->golden)
            rec_cycle(f->golden, f->t, f->in, wr ? &w : NULL, f->ls.out[f->ls.n - 1],
                      f->ls.m[f->ls.n - 1]);
        /* Destinations first: their checks read the sources' drives of the last cycle and
         * must not see a source's state already moved on by its drive of this cycle. */
        const uint64_t *out = f->ls.out[f->ls.n - 1];
        for (unsigned i = 0; i < NP; i++)
            dst_observe(f, i, (uint16_t)out[RN1_P_BOUT(i)]);
        for (unsigned i = 0; i < NP; i++) {
            src_observe(f, i, (uint16_t)out[RN1_P_FOUT(i)]);
            if (out[RN1_P_FBC(i)] && !f->cfg.backchan)
                fz_fail(f, "f%u.bc is 1 with the backward channel off", i);
            if (out[RN1_P_FBC(i)] && f->s[i].st != SQ_QUIET)
                f->s[i].st = SQ_CLOSE; /* the router dropped us: close our end */
        }
        if (f->failed)
            break;
        if (!wr && router_quiet(f, out)) {
            f->loose = f->cfg.backchan;
            mark_quiet(f);
            f->pause = 0;
            f->next_pause = f->t + 500 + prng_below(&f->rng, 6000);
        }
        if (f->t >= f->next_pause)
            f->pause = 1;
        for (unsigned i = 0; i < NP; i++) {
            src_plan(f, i, &next);
            dst_plan(f, i);
        }
        if (ls_tick(&f->ls, msg, sizeof msg)) {
            fz_fail(f, "%s", msg);
            break;
        }
        f->cfg = next;
        f->loose |= f->cfg.backchan;
        apply_drives(f);
    }
    if (tty && !f->o->quiet && n > 2000000)
        fputc('\n', stderr);
    return f->failed;
}

int fuzz_rn1(const fuzz_rn1_opts_t *ro)
{
    const fuzz_opts_t *o = &ro->base;
    fz_t *f = calloc(1, sizeof *f);
    if (!f)
        return 2;
    f->o = o;
    f->plain = ro->plain;
    f->capture = ro->capture;
    prng_seed(&f->rng, o->seed);
    char err[DEV_ERR_LEN];
    if (ls_open(&f->ls, ro->design ? ro->design : &rn1_design, o->models, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim: %s\n", err);
        free(f);
        return 2;
    }
    cfg_random(f, &f->cfg);
    if (f->plain)
        f->cfg = (cfg_t){.seed = 0xACE1};
    dev_write_t init = cfg_write(&f->cfg, 0x1FFFFFFFFFFull);
    ls_reset(&f->ls, &init, 1);
    f->loose = f->cfg.backchan;
    if (o->wave &&
        dev_trace_open_window(f->ls.m[0], o->wave, o->wave_from, o->wave_to, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim: %s\n", err);
        ls_close(&f->ls);
        free(f);
        return 2;
    }
    if (o->record) {
        char header[512];
        snprintf(
            header, sizeof header,
            "# GOLDEN VECTOR, recorded by `ftsim fuzz --device rn1 --seed %llu --cycles %llu "
            "--record` on the %s model.\n# Regenerate with `make vectors`; never edit by hand.\n",
            (unsigned long long)o->seed, (unsigned long long)o->cycles,
            dev_impl_name(f->ls.m[f->ls.n - 1]->impl));
        f->golden = rec_open(o->record, &rn1_design, &init, 1, header, 1, err, sizeof err);
        if (!f->golden) {
            fprintf(stderr, "ftsim: %s\n", err);
            ls_close(&f->ls);
            free(f);
            return 2;
        }
    }
    for (unsigned i = 0; i < NP; i++) {
        f->s[i].st = SQ_QUIET;
        f->d[i].st = DQ_LISTEN;
    }
    f->next_pause = 2000;
    mark_quiet(f);
    f->st.quiet = 0;
    printf("fuzz rn1: seed %llu, %llu cycles, models %s; start config mode=%s swallow=0x%02X "
           "disable=0x%02X seed=0x%04X backchan=%u\n",
           (unsigned long long)o->seed, (unsigned long long)o->cycles,
           ls_models_name(o->models),
           f->cfg.mode ? "dual" : "dilated", f->cfg.swallow, f->cfg.disable, f->cfg.seed,
           f->cfg.backchan);
    fflush(stdout);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int failed = fuzz_loop(f);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    if (o->wave)
        dev_trace_close(f->ls.m[0]);
    if (f->golden && rec_close(f->golden, f->t ? f->t - 1 : 0, err, sizeof err))
        fprintf(stderr, "ftsim: %s\n", err);
    print_stats(f, secs);
    if (o->cps)
        *o->cps = secs > 0 ? (double)f->t / secs : 0;
    if (failed)
        report_failure(f);
    else
        printf("PASS fuzz rn1 seed %llu (%llu cycles)\n", (unsigned long long)o->seed,
               (unsigned long long)f->t);
    ls_close(&f->ls);
    free(f->log);
    free(f);
    return failed ? 1 : 0;
}
