/*
 * fuzz_scilc.c — `ftsim fuzz --device lc3|p2s`: one SCI link controller under seeded random
 * stimulus, the RTL and the C model in lockstep (every output and the debug words each cycle).
 *
 * The stimulus plays the rest of the ring and the node around one LC: upstream traffic on the
 * link input (packets for the LC and for others, its own packets coming back, echoes for the
 * packets it inserted, corrupt and short packets, marked packets, ring-down idles, signal
 * detect lost and back), host packets on the B-link into its send queue with valid/ready,
 * a random bout_ready, and register writes (tables, enable, scrubber, limits, interrupt
 * clear). There is no scoreboard here: the ring-level end-to-end checks are the ring fuzz's
 * (fuzz_sciring.c). A divergence writes a reproducer vector (the whole run from reset) and
 * replays it with a waveform.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_sci.h"
#include "lockstep.h"
#include "play.h"
#include "prng.h"
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_word.h"
#include "vec.h"

#define MAXQ 64

typedef struct {
    uint64_t cycle;
    uint32_t port; /* UINT32_MAX: a register write to addr */
    uint32_t addr;
    uint64_t value, mask;
} logent_t;

typedef struct {
    uint16_t sym[SCI_MAX_PKT + 1];
    unsigned len, pos;
} spkt_t;

typedef struct {
    uint64_t due;
    uint16_t tgt, tid;
    uint8_t type;
} echo_due_t;

typedef struct {
    const fuzz_opts_t *o;
    const dev_design_t *d;
    lockstep_t ls;
    prng_t rng;
    uint64_t t;
    uint64_t in[SCI_P_N];
    int failed;
    char why[700];
    logent_t *log;
    size_t nlog, caplog;
    dev_write_t init[1];
    rec_t *golden; /* --record */
    /* configuration the stimulus knows */
    uint16_t id;
    uint16_t taken[8]; /* ids the LRT takes */
    /* link input */
    spkt_t lp;         /* packet being sent on lin (len 0: none) */
    unsigned gap;      /* idles before the next one */
    unsigned sd_off;   /* cycles left with signal detect lost */
    unsigned rdi_left; /* ring-down idles of another node still to send */
    echo_due_t eq[MAXQ];
    unsigned neq;
    /* link output watcher (the LC's insertions) */
    uint16_t ohdr[4];
    unsigned opos;
    /* B-link in */
    spkt_t bp;
    uint16_t tid_next;
    /* counters */
    uint64_t n_lpkt, n_bpkt, n_echo, n_writes, n_sdloss;
} fz_t;

static void fz_fail(fz_t *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fuzz_first_failure(&f->failed, f->why, sizeof f->why, f->t, fmt, ap);
    va_end(ap);
}

static void log_add(fz_t *f, uint64_t cycle, uint32_t port, uint32_t addr, uint64_t value,
                    uint64_t mask)
{
    if (f->nlog == f->caplog) {
        size_t cap = f->caplog ? f->caplog * 2 : 4096;
        logent_t *n = realloc(f->log, cap * sizeof *n);
        if (!n) {
            fz_fail(f, "out of memory for the reproducer log");
            return;
        }
        f->log = n;
        f->caplog = cap;
    }
    f->log[f->nlog++] = (logent_t){cycle, port, addr, value, mask};
}

static uint16_t rnd_target(fz_t *f)
{
    uint16_t t;
    switch (prng_below(&f->rng, 4)) {
    case 0: t = f->id; break;
    case 1: t = f->taken[prng_below(&f->rng, 8)]; break;
    default: t = (uint16_t)prng_below(&f->rng, 32); break;
    }
    if (f->d == &p2s_design && prng_chance(&f->rng, 1, 3))
        t |= SCI_ADDR_SEL;
    return t;
}

static const uint8_t pkt_types[] = {SCI_T_DATA,        SCI_T_DATA,         SCI_T_ACK,   SCI_T_PROBE,
                                    SCI_T_STATUS_READ, SCI_T_STATUS_REPLY, SCI_T_NOTIFY};

static void build(spkt_t *p, uint16_t tgt, uint8_t type, uint16_t src, uint16_t tid, unsigned npay,
                  prng_t *r)
{
    uint16_t pay[SCI_MAX_PAYLOAD];
    for (unsigned i = 0; i < npay; i++)
        pay[i] = (uint16_t)prng_next(r);
    p->len = sci_packet_build(p->sym, tgt, type, src, tid, pay, npay);
    p->pos = 0;
}

static unsigned rnd_len(fz_t *f)
{
    unsigned r = prng_below(&f->rng, 10);
    return r < 6   ? prng_below(&f->rng, 4)
           : r < 9 ? prng_below(&f->rng, 12)
                   : prng_below(&f->rng, 33);
}

/* The next packet upstream sends on the link: an echo that is due, or random traffic. */
static void link_next(fz_t *f)
{
    for (unsigned i = 0; i < f->neq; i++) {
        if (f->eq[i].due > f->t)
            continue;
        echo_due_t e = f->eq[i];
        f->eq[i] = f->eq[--f->neq];
        build(&f->lp, e.tgt, e.type, (uint16_t)(f->id + 1 + prng_below(&f->rng, 5)), e.tid, 0,
              &f->rng);
        f->n_echo++;
        return;
    }
    uint8_t type = pkt_types[prng_below(&f->rng, sizeof pkt_types)];
    uint16_t src = (uint16_t)prng_below(&f->rng, 32), tid = (uint16_t)prng_below(&f->rng, 64);
    if (prng_chance(&f->rng, 1, 12))
        type = (uint8_t)(SCI_T_ECHO_ACCEPT + prng_below(&f->rng, 3)); /* a stray echo */
    build(&f->lp, rnd_target(f), type, src, tid, rnd_len(f), &f->rng);
    if (prng_chance(&f->rng, 1, 25))
        f->lp.sym[prng_below(&f->rng, f->lp.len)] ^= (uint16_t)(1u << prng_below(&f->rng, 16));
    if (prng_chance(&f->rng, 1, 40))
        f->lp.len = 1 + prng_below(&f->rng, 4); /* a short fragment */
    if (prng_chance(&f->rng, 1, 15))
        f->lp.sym[1] |= SCI_MARK; /* already marked by a scrubber upstream */
    f->n_lpkt++;
}

static void drive_link(fz_t *f)
{
    uint64_t w = 0, sd = 1;
    if (f->sd_off) {
        f->sd_off--;
        sd = 0;
        f->lp.len = 0;
    } else if (f->lp.len && f->lp.pos < f->lp.len) {
        w = SCI_FLAG | f->lp.sym[f->lp.pos++];
    } else {
        f->lp.len = 0;
        if (f->rdi_left) {
            f->rdi_left--;
            w = SCI_RDI_BIT | (uint16_t)(f->id + 7);
        } else if (f->gap) {
            f->gap--;
        } else if (prng_chance(&f->rng, 1, 3000)) {
            f->sd_off = 1 + prng_below(&f->rng, prng_chance(&f->rng, 1, 2) ? 6 : 150);
            f->n_sdloss++;
        } else if (prng_chance(&f->rng, 1, 2500)) {
            f->rdi_left = 1 + prng_below(&f->rng, 80);
        } else {
            link_next(f);
            f->gap =
                prng_chance(&f->rng, 1, 2) ? 1 + prng_below(&f->rng, 3) : prng_below(&f->rng, 60);
        }
    }
    f->in[SCI_P_LIN] = w;
    f->in[SCI_P_LIN_SD] = sd;
}

/* Watch the LC's link output: each packet it inserts (sourceId = its id, not an echo) gets
 * an echo back from downstream later, or none (a lost echo). */
static void watch_out(fz_t *f, uint64_t w)
{
    if (!(w & SCI_FLAG)) {
        if (f->opos >= 4) {
            unsigned type = f->ohdr[1] >> 8;
            int echo = type >= SCI_T_ECHO_ACCEPT && type <= SCI_T_ECHO_ERROR;
            if (!echo && (f->ohdr[2] & SCI_ID_MASK) == f->id && f->neq < MAXQ &&
                !prng_chance(&f->rng, 1, 8)) {
                unsigned r = prng_below(&f->rng, 10);
                uint8_t et = r < 7 ? SCI_T_ECHO_ACCEPT : r < 9 ? SCI_T_ECHO_BUSY : SCI_T_ECHO_ERROR;
                f->eq[f->neq++] =
                    (echo_due_t){f->t + 10 + prng_below(&f->rng, 250), f->ohdr[2], f->ohdr[3], et};
            }
        }
        f->opos = 0;
        return;
    }
    if (f->opos < 4)
        f->ohdr[f->opos] = (uint16_t)w;
    f->opos++;
}

static void drive_blink(fz_t *f, int moved)
{
    if (moved && f->bp.len) {
        if (++f->bp.pos >= f->bp.len)
            f->bp.len = 0;
    }
    if (!f->bp.len && prng_chance(&f->rng, 1, 40)) {
        uint8_t type = pkt_types[prng_below(&f->rng, sizeof pkt_types)];
        build(&f->bp, rnd_target(f), type, f->id, f->tid_next++, rnd_len(f), &f->rng);
        f->n_bpkt++;
    }
    if (f->bp.len) {
        f->in[SCI_P_BIN] =
            SCI_FLAG | f->bp.sym[f->bp.pos] | (f->bp.pos + 1 == f->bp.len ? SCI_LAST : 0);
    } else {
        f->in[SCI_P_BIN] = 0;
    }
    f->in[SCI_P_BOUT_READY] = !prng_chance(&f->rng, 1, 5);
}

static int pick_write(fz_t *f, dev_write_t *w)
{
    if (f->t < 40) { /* the tables: TADDR, LRT, BRT for the taken ids and the own id */
        unsigned k = (unsigned)f->t / 3, step = (unsigned)f->t % 3;
        uint16_t id = k < 8    ? f->taken[k]
                      : k < 10 ? (uint16_t)(k == 8 ? f->id : f->id | SCI_ADDR_SEL)
                               : (uint16_t)prng_below(&f->rng, 40);
        unsigned ti = f->d == &p2s_design
                          ? (((id & SCI_ADDR_SEL) ? 8192u : 0u) | (id & SCI_ID_MASK))
                          : (id & 0xFFu);
        if (step == 0)
            *w = (dev_write_t){SCI_REG_TADDR, ti, 0x3FFF};
        else if (step == 1)
            *w = (dev_write_t){SCI_REG_LRT, prng_chance(&f->rng, 7, 8), 1};
        else
            *w = (dev_write_t){SCI_REG_BRT,
                               prng_chance(&f->rng, 1, 10) ? 7 : prng_below(&f->rng, 4), 7};
        return 1;
    }
    if (!prng_chance(&f->rng, 1, 700))
        return 0;
    switch (prng_below(&f->rng, 6)) {
    case 0: /* enable toggle */
        *w = (dev_write_t){SCI_REG_CTRL, prng_chance(&f->rng, 2, 3) ? 1ull << 16 : 0, 1ull << 16};
        break;
    case 1: *w = (dev_write_t){SCI_REG_STATUS_CLR, 8, 8}; break;
    case 2:
        *w = (dev_write_t){SCI_REG_CTRL, (uint64_t)prng_chance(&f->rng, 1, 4) << 17, 1ull << 17};
        break;
    case 3: /* limits and timeout */
        *w = (dev_write_t){
            SCI_REG_CTRL,
            (uint64_t)prng_below(&f->rng, 4) << 24 | (uint64_t)prng_below(&f->rng, 4) << 32 |
                (uint64_t)(prng_chance(&f->rng, 1, 6) ? 0 : 20 + prng_below(&f->rng, 300)) << 48,
            0xFFFF00FFFF000000ull};
        break;
    case 4: *w = (dev_write_t){SCI_REG_TADDR, prng_below(&f->rng, 40), 0x3FFF}; break;
    default: *w = (dev_write_t){SCI_REG_LRT, prng_chance(&f->rng, 1, 2), 1}; break;
    }
    return 1;
}

static int write_repro(fz_t *f, const char *path)
{
    char err[DEV_ERR_LEN], header[1024];
    snprintf(header, sizeof header,
             "# REPRODUCER written by `ftsim fuzz --device %s --seed %llu`, cycles 0..%llu of the\n"
             "# run. Failure: %s\n",
             f->d->name, (unsigned long long)f->o->seed, (unsigned long long)f->t, f->why);
    rec_t *r = rec_open(path, f->d, f->init, 1, header, 0, err, sizeof err);
    if (!r) {
        fprintf(stderr, "ftsim: %s\n", err);
        return -1;
    }
    uint64_t in[SCI_P_N] = {0};
    size_t k = 0;
    for (uint64_t t = 0; t <= f->t; t++) {
        dev_write_t w, *wr = NULL;
        for (; k < f->nlog && f->log[k].cycle == t; k++) {
            if (f->log[k].port == UINT32_MAX) {
                w = (dev_write_t){f->log[k].addr, f->log[k].value, f->log[k].mask};
                wr = &w;
            } else {
                in[f->log[k].port] = f->log[k].value;
            }
        }
        rec_cycle(r, t, in, wr, NULL, NULL);
    }
    return rec_close(r, f->t + 4, err, sizeof err) ? -1 : 0;
}

static void report_failure(fz_t *f)
{
    printf("FAIL fuzz %s seed %llu: %s\n", f->d->name, (unsigned long long)f->o->seed, f->why);
    const char *dir = f->o->outdir ? f->o->outdir : "build/fuzz";
    mkdir("build", 0777);
    mkdir(dir, 0777);
    char vec[512], fst[512];
    snprintf(vec, sizeof vec, "%s/%s-seed%llu.vec", dir, f->d->name,
             (unsigned long long)f->o->seed);
    snprintf(fst, sizeof fst, "%s/%s-seed%llu.fst", dir, f->d->name,
             (unsigned long long)f->o->seed);
    if (f->t > 2000000) {
        printf("no reproducer: the failure is past cycle 2000000 (rerun with fewer --cycles)\n");
        return;
    }
    if (write_repro(f, vec) < 0)
        return;
    printf("reproducer: %s\n", vec);
    const dev_design_t *const mine[] = {f->d, NULL}; /* a fixed design: nothing to release */
    const dev_catalog_t cat = {.designs = mine};
    fuzz_replay(&cat, vec, fst, LS_BOTH, NULL);
}

static void set_in(fz_t *f, const uint64_t *before)
{
    for (unsigned p = 0; p < SCI_P_N; p++)
        if (f->d->ports[p].dir == DEV_IN && f->in[p] != before[p])
            log_add(f, f->t, p, 0, f->in[p], 0);
}

int fuzz_scilc(const fuzz_scilc_opts_t *so)
{
    const fuzz_opts_t *o = &so->base;
    const dev_design_t *d = so->design;
    fz_t *f = calloc(1, sizeof *f);
    if (!f)
        return 2;
    f->o = o;
    f->d = d;
    prng_seed(&f->rng, o->seed);
    char err[DEV_ERR_LEN], msg[700];
    if (ls_open(&f->ls, d, o->models, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim: %s\n", err);
        free(f);
        return 2;
    }
    f->id = (uint16_t)(1 + prng_below(&f->rng, 20));
    for (unsigned k = 0; k < 8; k++)
        f->taken[k] = (uint16_t)prng_below(&f->rng, 32);
    uint64_t ctrl =
        f->id | 1ull << 16 | (uint64_t)prng_chance(&f->rng, 1, 4) << 17 |
        (uint64_t)prng_below(&f->rng, 4) << 24 | (uint64_t)prng_below(&f->rng, 4) << 32 |
        (uint64_t)(prng_chance(&f->rng, 1, 6) ? 0 : 20 + prng_below(&f->rng, 300)) << 48;
    f->init[0] = (dev_write_t){SCI_REG_CTRL, ctrl, 0xFFFF00FFFF031FFFull};
    ls_reset(&f->ls, f->init, 1);
    f->tid_next = (uint16_t)prng_below(&f->rng, 1000);
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
            "# GOLDEN VECTOR, recorded by `ftsim fuzz --device %s --seed %llu --cycles %llu "
            "--record` on the %s model.\n# Regenerate with `make vectors`; never edit by hand.\n",
            d->name, (unsigned long long)o->seed, (unsigned long long)o->cycles,
            dev_impl_name(f->ls.m[f->ls.n - 1]->impl));
        f->golden = rec_open(o->record, d, f->init, 1, header, 1, err, sizeof err);
        if (!f->golden) {
            fprintf(stderr, "ftsim: %s\n", err);
            ls_close(&f->ls);
            free(f);
            return 2;
        }
    }
    printf("fuzz %s: seed %llu, %llu cycles, models %s; node %u ctrl 0x%016llX\n", d->name,
           (unsigned long long)o->seed, (unsigned long long)o->cycles,
           ls_models_name(o->models),
           f->id, (unsigned long long)ctrl);
    fflush(stdout);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int tty = isatty(2);
    int moved = 0;
    for (f->t = 0; f->t < o->cycles && !f->failed; f->t++) {
        if (tty && !o->quiet && (f->t & 0xFFFFF) == 0 && o->cycles > 2000000)
            fprintf(stderr, "\r  cycle %llu of %llu", (unsigned long long)f->t,
                    (unsigned long long)o->cycles);
        uint64_t before[SCI_P_N];
        memcpy(before, f->in, sizeof before);
        drive_link(f);
        drive_blink(f, moved);
        set_in(f, before);
        dev_write_t w;
        int wr = pick_write(f, &w);
        ls_set_inputs(&f->ls, f->in);
        if (wr) {
            ls_reg_write(&f->ls, &w);
            log_add(f, f->t, UINT32_MAX, w.addr, w.data, w.mask);
            f->n_writes++;
        }
        ls_sample(&f->ls);
        if (ls_diverged(&f->ls, msg, sizeof msg)) {
            fz_fail(f, "the models diverge (first difference): %s", msg);
            break;
        }
        const uint64_t *out = f->ls.out[f->ls.n - 1];
        if (f->golden)
            rec_cycle(f->golden, f->t, f->in, wr ? &w : NULL, out, f->ls.m[f->ls.n - 1]);
        moved = (f->in[SCI_P_BIN] & SCI_FLAG) && out[SCI_P_BIN_READY];
        watch_out(f, out[SCI_P_LOUT]);
        if (ls_tick(&f->ls, msg, sizeof msg)) {
            fz_fail(f, "%s", msg);
            break;
        }
    }
    if (tty && !o->quiet && o->cycles > 2000000)
        fputc('\n', stderr);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (o->wave)
        dev_trace_close(f->ls.m[0]);
    if (f->golden && rec_close(f->golden, f->t ? f->t - 1 : 0, err, sizeof err))
        fprintf(stderr, "ftsim: %s\n", err);
    double secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    printf("  %llu cycles in %.2f s (%.0f cycles/s); link packets %llu, echoes %llu, B-link "
           "packets %llu, register writes %llu, signal-detect losses %llu\n",
           (unsigned long long)f->t, secs, secs > 0 ? (double)f->t / secs : 0.0,
           (unsigned long long)f->n_lpkt, (unsigned long long)f->n_echo,
           (unsigned long long)f->n_bpkt, (unsigned long long)f->n_writes,
           (unsigned long long)f->n_sdloss);
    if (o->cps)
        *o->cps = secs > 0 ? (double)f->t / secs : 0;
    int failed = f->failed;
    if (failed)
        report_failure(f);
    else
        printf("PASS fuzz %s seed %llu (%llu cycles)\n", d->name, (unsigned long long)o->seed,
               (unsigned long long)f->t);
    ls_close(&f->ls);
    free(f->log);
    free(f);
    return failed ? 1 : 0;
}
