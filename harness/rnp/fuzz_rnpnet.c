/*
 * fuzz_rnpnet.c — `ftsim fuzz --device rnpnet`: random traffic between the endpoints of an
 * RNP network with K random faults injected at random times, the network's two
 * implementations (every router RTL, every router C model) in lockstep. Independently of
 * the models, a scoreboard checks what the endpoints see:
 *   - a message is delivered at most once, to its destination, with the payload it was sent;
 *   - a message acknowledged to its source was delivered;
 *   - a message its source gives up had no fault-free path when it gave up;
 *   - every fault location a source names (corrupted or dropped, rnpni.h) is a link that has
 *     a fault, or the link into a dead router: no false diagnosis.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "fuzz_rnp.h"
#include "lockstep.h"
#include "play.h"
#include "prng.h"
#include "rnpni.h"
#include "rnpnet.h"

typedef struct sent {
    uint16_t dst, len;
    uint8_t data[NI_MAX_PAYLOAD];
    uint8_t rx, done; /* deliveries seen; 1 delivered (ACK), 2 failed */
} sent_t;

typedef struct nf {
    const fuzz_opts_t *o;          /* what every fuzzer takes */
    const fuzz_rnpnet_opts_t *net; /* the network's own options */
    const rnpnet_topo_t *topo;
    prng_t rng;
    lockstep_t ls;
    ni_t *ni;
    sent_t **byseq; /* per source: indexed by sequence number */
    unsigned *nseq;
    uint8_t *dead;        /* per router */
    uint8_t *linkf;       /* per link (router*8+port, then injection links): has had a fault */
    uint8_t *linkbad;     /* per link: a fault is in force (for path existence) */
    rnpnet_fault_t *plan; /* the faults to inject */
    uint64_t *plan_at;
    unsigned nplan, nextf;
    uint64_t t, located, excused, checked_fail;
    dev_write_t init;
    uint64_t *fault_at; /* per router / per link: the cycle its fault was injected (0: none) */
    struct nlog {
        uint64_t cycle;
        uint32_t port, addr;
        uint64_t value, mask;
        char *text;
    } * log;
    size_t nlog, caplog; /* the stimulus, for a reproducer (port UINT32_MAX: write; text: fault) */
    uint64_t *fwd_since; /* per router forward port: the cycle it last was not in FORWARD */
    uint8_t *fwd_bq;     /* per router forward port: its output */
    uint64_t *dbg;
    uint64_t *router_at;
    int failed;
    char why[600];
} nf_t;

static void nf_fail(nf_t *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fuzz_first_failure(&f->failed, f->why, sizeof f->why, f->t, fmt, ap);
    va_end(ap);
}

static unsigned link_index(const rnpnet_topo_t *t, unsigned r, unsigned p)
{
    return p >= 8 ? t->nrouters * 8 + r * 2 + (p - 8) : r * 8 + p;
}

/* ---- the scoreboard ------------------------------------------------------------------------ */

static sent_t *lookup(nf_t *f, unsigned src, unsigned seq)
{
    return seq < f->nseq[src] ? &f->byseq[src][seq] : NULL;
}

static void on_rx(void *ctx, uint64_t cycle, const ni_msg_t *m, int ok)
{
    nf_t *f = ctx;
    (void)cycle, (void)ok;
    sent_t *s = lookup(f, m->src, m->seq);
    if (!s) {
        nf_fail(f, "d%u received a message from s%u seq %u that was never sent", m->dst, m->src,
                m->seq);
        return;
    }
    if (s->dst != m->dst || s->len != m->len || memcmp(s->data, m->data, m->len) != 0)
        nf_fail(f, "d%u received s%u seq %u with a corrupt payload or the wrong destination",
                m->dst, m->src, m->seq);
    if (++s->rx > 1)
        nf_fail(f, "d%u received s%u seq %u twice", m->dst, m->src, m->seq);
}

/* Is there a path from src to dst avoiding every faulty router and link? */
/* A forward port in FORWARD for far longer than any message (no TURN, no close) holds its
 * output for good: a connection opened by a control bit stuck at 1 (the RNP note's "permanently
 * allocated" paths). Its output is not free for anyone's path. */
#define HELD_CYCLES 1000u
static int held(const nf_t *f, unsigned r, unsigned j)
{
    for (unsigned p = 0; p < 8; p++)
        if (f->fwd_bq[r * 8 + p] == j + 1 && f->t - f->fwd_since[r * 8 + p] > HELD_CYCLES)
            return 1;
    return 0;
}

static void track_held(nf_t *f)
{
    const rnpnet_topo_t *t = f->topo;
    /* in lockstep the comparator has read every router's debug state this cycle already */
    const uint64_t *dbg = f->dbg;
    if (f->ls.n == 2)
        dbg = f->ls.dbg[1];
    else
        dev_debug(f->ls.m[0], f->dbg);
    for (unsigned r = 0; r < t->nrouters; r++)
        for (unsigned p = 0; p < 8; p++) {
            uint64_t port = dbg[r * 11 + 3 + p];
            if ((port & 0xFu) != 2) { /* not FORWARD */
                f->fwd_since[r * 8 + p] = f->t;
                f->fwd_bq[r * 8 + p] = 0;
            } else {
                f->fwd_bq[r * 8 + p] = (uint8_t)(((port >> 4) & 7u) + 1);
            }
        }
}

static int reach(const nf_t *f, unsigned r, unsigned dst)
{
    const rnpnet_topo_t *t = f->topo;
    if (f->dead[r])
        return 0;
    unsigned s = rnpnet_stage(t, r);
    int dg = rnpnet_digit(t, s, dst);
    for (unsigned k = 0; k < 4; k++) {
        if (dg >= 0 && (unsigned)dg != k)
            continue;
        for (unsigned j = 2 * k; j < 2 * k + 2; j++) {
            if (f->linkbad[link_index(t, r, j)] || held(f, r, j))
                continue;
            int32_t to = t->down[r * 8 + j];
            if (to < 0 ? (unsigned)(-to - 1) / 2 == dst : reach(f, (unsigned)to / 8, dst))
                return 1;
        }
    }
    return 0;
}

static int fault_free_path(const nf_t *f, unsigned src, unsigned dst)
{
    for (unsigned k = 0; k < 2; k++)
        if (!f->linkbad[link_index(f->topo, src, 8 + k)] &&
            reach(f, f->topo->inj[src * 2 + k] / 8, dst))
            return 1;
    return 0;
}

static void on_done(void *ctx, uint64_t cycle, const ni_msg_t *m, int delivered)
{
    nf_t *f = ctx;
    (void)cycle;
    sent_t *s = lookup(f, m->src, m->seq);
    if (!s)
        return;
    s->done = delivered ? 1 : 2;
    if (delivered && s->rx == 0)
        nf_fail(f, "s%u seq %u was acknowledged but never delivered", m->src, m->seq);
    if (!delivered) {
        f->checked_fail++;
        if (fault_free_path(f, m->src, m->dst))
            nf_fail(f,
                    "s%u gave up seq %u to d%u after %u attempts although a fault-free path "
                    "exists",
                    m->src, m->seq, m->dst, m->attempts);
    }
}

/* A fault injected on the attempt's path while the attempt was under way changes the evidence
 * in the middle of it (a router dying as the replies pass); the source cannot tell, and its
 * guess is not held against it. */
static int struck_mid_attempt(const nf_t *f, const ni_path_t *p)
{
    const rnpnet_topo_t *t = f->topo;
    if (f->fault_at[link_index(t, p->src, 8 + p->port)] >= p->t0 + 1)
        return 1;
    for (unsigned k = 0; k < p->n; k++)
        if (f->router_at[p->router[k]] >= p->t0 + 1 ||
            f->fault_at[link_index(t, p->router[k], p->out[k])] >= p->t0 + 1)
            return 1;
    return 0;
}

static void on_diag(void *ctx, uint64_t cycle, const ni_path_t *path, unsigned router,
                    unsigned port, ni_outcome_t kind)
{
    nf_t *f = ctx;
    const rnpnet_topo_t *t = f->topo;
    unsigned src = path->src;
    (void)cycle;
    f->located++;
    if (f->linkf[link_index(t, router, port)])
        return;
    if (port >= 8 ? f->dead[t->inj[router * 2 + (port - 8)] / 8]
                  : (t->down[router * 8 + port] >= 0 && f->dead[t->down[router * 8 + port] / 8]))
        return;
    if (struck_mid_attempt(f, path)) {
        f->excused++;
        return;
    }
    char link[32];
    if (port >= 8)
        snprintf(link, sizeof link, "s%u.%u", router, port - 8);
    else
        snprintf(link, sizeof link, "r%u.b%u", router, port);
    nf_fail(f, "s%u diagnosed %s on %s, which has no fault", src,
            kind == NI_CORRUPTED ? "corruption" : "a drop", link);
}

/* ---- faults --------------------------------------------------------------------------------- */

static void plan_faults(nf_t *f, unsigned k, uint64_t cycles)
{
    const rnpnet_topo_t *t = f->topo;
    f->plan = calloc(k ? k : 1, sizeof *f->plan);
    f->plan_at = calloc(k ? k : 1, sizeof *f->plan_at);
    for (unsigned i = 0; i < k; i++) {
        rnpnet_fault_t *x = &f->plan[i];
        unsigned kind = prng_below(&f->rng, 7);
        x->kind = kind == 0   ? RNPNET_F_DEAD_ROUTER
                  : kind == 1 ? RNPNET_F_DEAD_LINK
                  : kind == 2 ? RNPNET_F_STUCK_C1
                  : kind == 3 ? RNPNET_F_STUCK_BIT
                              : RNPNET_F_FLIP;
        /* a link leaving a router of any stage but the last, or an injection link */
        if (x->kind != RNPNET_F_DEAD_ROUTER && prng_chance(&f->rng, 1, 8)) {
            x->router = prng_below(&f->rng, t->n);
            x->port = 8 + prng_below(&f->rng, 2);
        } else {
            x->router =
                prng_below(&f->rng, t->nrouters - (x->kind == RNPNET_F_DEAD_ROUTER ? 0 : 0));
            x->port = prng_below(&f->rng, 8);
        }
        x->bit = prng_below(&f->rng, 8);
        x->value = prng_below(&f->rng, 2);
        x->prob_ppm = kind == 4 ? 0 : kind == 5 ? 20000 : 300000; /* transient, intermittent */
        f->plan_at[i] = prng_below(&f->rng, (uint32_t)(cycles / 2 + 1));
    }
    f->nplan = k;
}

#define REPRO_MAX_LOG 4000000u /* a longer run is reproduced by its command line alone */

static void log_ev(nf_t *f, uint64_t cycle, uint32_t port, uint32_t addr, uint64_t value,
                   uint64_t mask, const char *text)
{
    if (f->nlog > REPRO_MAX_LOG)
        return;
    if (f->nlog == f->caplog) {
        size_t cap = f->caplog ? f->caplog * 2 : 65536;
        struct nlog *n = realloc(f->log, cap * sizeof *n);
        if (!n)
            return;
        f->log = n;
        f->caplog = cap;
    }
    f->log[f->nlog++] = (struct nlog){cycle, port, addr, value, mask, text ? strdup(text) : NULL};
}

static void inject_due(nf_t *f)
{
    for (unsigned i = 0; i < f->nplan; i++) {
        if (f->plan_at[i] != f->t)
            continue;
        rnpnet_fault_t *x = &f->plan[i];
        char text[96], cmd[110], err[DEV_ERR_LEN];
        rnpnet_fault_format(x, text, sizeof text);
        snprintf(cmd, sizeof cmd, "fault %s", text);
        for (unsigned k = 0; k < f->ls.n; k++)
            if (dev_control(f->ls.m[k], cmd, err, sizeof err) < 0)
                nf_fail(f, "%s", err);
        log_ev(f, f->t, UINT32_MAX - 1, 0, 0, 0, cmd);
        if (x->kind == RNPNET_F_DEAD_ROUTER) {
            f->dead[x->router] = 1;
            f->router_at[x->router] = f->t + 1;
        } else {
            unsigned L = link_index(f->topo, x->router, x->port);
            f->linkf[L] = 1;
            f->linkbad[L] = 1;
            f->fault_at[L] = f->t + 1;
        }
        if (!f->o->quiet)
            printf("  cycle %llu: %s\n", (unsigned long long)f->t, cmd);
    }
}

/* ---- the run ---------------------------------------------------------------------------------- */

static void traffic(nf_t *f, uint64_t stop_at)
{
    if (f->t >= stop_at)
        return;
    for (unsigned e = 0; e < f->topo->n; e++) {
        if (!prng_chance(&f->rng, 1, f->net->gap ? f->net->gap : 150))
            continue;
        unsigned d = prng_below(&f->rng, f->topo->n - 1);
        d += d >= e;
        unsigned len = 1 + prng_below(&f->rng, 16);
        const ni_msg_t *m = ni_send(f->ni, f->t, e, d, len);
        if (!m)
            continue;
        if (m->seq >= f->nseq[e]) {
            unsigned n = f->nseq[e] ? f->nseq[e] * 2 : 64;
            while (n <= m->seq)
                n *= 2;
            sent_t *x = realloc(f->byseq[e], n * sizeof *x);
            if (!x) {
                nf_fail(f, "out of memory");
                return;
            }
            memset(x + f->nseq[e], 0, (n - f->nseq[e]) * sizeof *x);
            f->byseq[e] = x;
            f->nseq[e] = n;
        }
        sent_t *s = &f->byseq[e][m->seq];
        s->dst = m->dst;
        s->len = m->len;
        memcpy(s->data, m->data, m->len);
    }
}

static int run(nf_t *f)
{
    const dev_design_t *d = f->ls.d;
    uint64_t *in = calloc(d->nports, sizeof *in), *prev = calloc(d->nports, sizeof *prev);
    char msg[600];
    if (!in || !prev) {
        free(in), free(prev);
        return 1;
    }
    uint64_t n = f->o->cycles, stop_traffic = n - n / 10;
    int tty = isatty(2) && !f->o->quiet;
    char err[DEV_ERR_LEN];
    if (f->o->wave && dev_trace_open_window(f->ls.m[0], f->o->wave, f->o->wave_from, f->o->wave_to,
                                            err, sizeof err) < 0)
        nf_fail(f, "%s", err);
    for (f->t = 0; f->t < n && !f->failed; f->t++) {
        if (tty && (f->t & 0x3FFF) == 0)
            fprintf(stderr, "\r  cycle %llu of %llu (%.0f%%), in flight %u ",
                    (unsigned long long)f->t, (unsigned long long)n,
                    100.0 * (double)f->t / (double)n, ni_in_flight(f->ni));
        inject_due(f);
        traffic(f, stop_traffic);
        dev_write_t w;
        for (unsigned p = 0; p < d->nports; p++)
            if (d->ports[p].dir == DEV_IN && in[p] != prev[p]) {
                prev[p] = in[p];
                log_ev(f, f->t, p, 0, in[p], 0, NULL);
            }
        ls_set_inputs(&f->ls, in);
        ls_sample(&f->ls);
        if (ls_diverged(&f->ls, msg, sizeof msg)) {
            nf_fail(f, "the models diverge (first difference): %s", msg);
            break;
        }
        track_held(f);
        int wr = ni_cycle(f->ni, f->t, f->ls.out[f->ls.n - 1], in, &w);
        if (wr) {
            ls_reg_write(&f->ls, &w);
            log_ev(f, f->t, UINT32_MAX, w.addr, w.data, w.mask, NULL);
        }
        if (ls_tick(&f->ls, msg, sizeof msg))
            nf_fail(f, "%s", msg);
    }
    if (tty)
        fputc('\n', stderr);
    if (f->o->wave)
        dev_trace_close(f->ls.m[0]);
    free(in), free(prev);
    return f->failed;
}

/* The run as a vector: every input change, register write and fault from cycle 0 to the
 * failure, replayable with `ftsim play` (the endpoints' reactions are in the drives). */
static int write_repro(nf_t *f, const char *path)
{
    const dev_design_t *d = f->ls.d;
    char err[DEV_ERR_LEN], header[1024];
    snprintf(header, sizeof header,
             "# REPRODUCER written by `ftsim fuzz --device rnpnet --seed %llu` (%s).\n"
             "# Failure: %s\n",
             (unsigned long long)f->o->seed, d->name, f->why);
    rec_t *r = rec_open(path, d, &f->init, 1, header, 0, err, sizeof err);
    if (!r) {
        printf("%s\n", err);
        return -1;
    }
    uint64_t *in = calloc(d->nports, sizeof *in);
    size_t k = 0;
    for (uint64_t t = 0; t <= f->t && in; t++) {
        dev_write_t w, *wr = NULL;
        for (; k < f->nlog && f->log[k].cycle == t; k++) {
            struct nlog *e = &f->log[k];
            if (e->text)
                rec_control(r, t, e->text);
            else if (e->port == UINT32_MAX)
                w = (dev_write_t){e->addr, e->value, e->mask}, wr = &w;
            else
                in[e->port] = e->value;
        }
        rec_cycle(r, t, in, wr, NULL, NULL);
    }
    free(in);
    return rec_close(r, f->t + 4, err, sizeof err);
}

/* What a reproducer or a recording names: a network of this family. */
static const dev_lookup_t net_lookups[] = {rnpnet_find_design, NULL};
static const dev_catalog_t net_catalog = {.lookups = net_lookups};

static void report_failure(nf_t *f)
{
    const fuzz_opts_t *o = f->o;
    const fuzz_rnpnet_opts_t *net = f->net;
    printf("FAIL fuzz rnpnet seed %llu: %s\n", (unsigned long long)o->seed, f->why);
    printf(
        "reproduce: ftsim fuzz --device rnpnet --endpoints %u --faults %u --seed %llu --cycles %llu"
        "%s%s --wave build/fuzz/rnpnet-seed%llu.fst --wave-from %llu\n",
        net->endpoints, net->faults, (unsigned long long)o->seed, (unsigned long long)o->cycles,
        net->backchan ? " --backchan" : "", net->no_lft ? " --no-lft" : "",
        (unsigned long long)o->seed, (unsigned long long)(f->t > 2000 ? f->t - 2000 : 0));
    if (f->nlog > REPRO_MAX_LOG || f->t > 400000) {
        printf(
            "(the run is too long for a reproducer vector: the command above is the reproducer)\n");
        return;
    }
    const char *dir = o->outdir ? o->outdir : "build/fuzz";
    mkdir("build", 0777);
    mkdir(dir, 0777);
    char vec[512], fst[512];
    snprintf(vec, sizeof vec, "%s/rnpnet-seed%llu.vec", dir, (unsigned long long)o->seed);
    snprintf(fst, sizeof fst, "%s/rnpnet-seed%llu.fst", dir, (unsigned long long)o->seed);
    if (write_repro(f, vec) < 0)
        return;
    printf("reproducer: %s\n", vec);
    fflush(stdout);
    fuzz_replay(&net_catalog, vec, fst, LS_BOTH,
                "(every router, scopes r0..; harness/scripts/path_gtkw.py makes a layout)");
}

int fuzz_rnpnet(const fuzz_rnpnet_opts_t *net)
{
    const fuzz_opts_t *o = &net->base;
    char err[DEV_ERR_LEN];
    unsigned extra = net->extra >= 0 ? (unsigned)net->extra : (net->endpoints >= 256 ? 1u : 0u);
    const dev_design_t *d = rnpnet_design(net->endpoints, extra, o->seed, err, sizeof err);
    if (!d) {
        fprintf(stderr, "ftsim fuzz: %s\n", err);
        return 2;
    }
    nf_t *f = calloc(1, sizeof *f);
    if (!f) {
        dev_design_release(d);
        return 2;
    }
    f->o = o;
    f->net = net;
    f->topo = rnpnet_topo_of(d);
    prng_seed(&f->rng, o->seed ^ 0x6E6574ull);
    if (ls_open(&f->ls, d, o->models, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim fuzz: %s\n", err);
        free(f);
        dev_design_release(d);
        return 2;
    }
    const rnpnet_topo_t *t = f->topo;
    f->byseq = calloc(t->n, sizeof *f->byseq);
    f->nseq = calloc(t->n, sizeof *f->nseq);
    f->dead = calloc(t->nrouters, 1);
    f->linkf = calloc(t->nrouters * 8 + t->n * 2, 1);
    f->linkbad = calloc(t->nrouters * 8 + t->n * 2, 1);
    f->fault_at = calloc(t->nrouters * 8 + t->n * 2, sizeof *f->fault_at);
    f->router_at = calloc(t->nrouters, sizeof *f->router_at);
    f->fwd_since = calloc(t->nrouters * 8, sizeof *f->fwd_since);
    f->fwd_bq = calloc(t->nrouters * 8, 1);
    f->dbg = calloc(d->ndebug, sizeof *f->dbg);
    ni_policy_t pol = {.retry_limit = net->retries ? net->retries : 400,
                       .backoff_max = 64,
                       .use_lft = !net->no_lft,
                       .perm_stage = 3,
                       .trial_attempts = 10,
                       /* the fuzzer checks the routers, and its recorded vectors keep the wire
                          they were recorded with: the weakened check (its own check of every
                          delivery still fails a run on a corrupted one) */
                       .crc8 = 1};
    f->ni = ni_create(t, &pol, o->seed, net->backchan);
    if (!f->byseq || !f->nseq || !f->dead || !f->linkf || !f->linkbad || !f->ni || !f->fault_at ||
        !f->router_at || !f->fwd_since || !f->fwd_bq || !f->dbg) {
        fprintf(stderr, "ftsim fuzz: out of memory\n");
        return 2;
    }
    ni_set_callbacks(f->ni, f, on_diag, on_done, on_rx);
    f->init = (dev_write_t){RNPNET_NETCFG,
                            (uint64_t)(prng_below(&f->rng, 65535) + 1) |
                                ((uint64_t)(net->backchan ? 1 : 0) << 16),
                            0x1FFFF};
    ls_reset(&f->ls, &f->init, 1);
    plan_faults(f, net->faults, o->cycles);
    printf("fuzz rnpnet: seed %llu, %llu cycles, %u endpoints, %u stages, %u routers, %u faults, "
           "backchan %d, link fault table %s, models %s\n",
           (unsigned long long)o->seed, (unsigned long long)o->cycles, t->n, t->stages, t->nrouters,
           net->faults, net->backchan, net->no_lft ? "off" : "on",
           o->models == LS_BOTH  ? "rtl+csim lockstep"
           : o->models == LS_RTL ? "rtl"
                                 : "csim");
    fflush(stdout);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int failed = run(f);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    const ni_stats_t *s = ni_stats(f->ni);
    printf("  %llu cycles in %.2f s (%.0f cycles/s)\n", (unsigned long long)f->t, secs,
           secs > 0 ? (double)f->t / secs : 0.0);
    printf("  messages %llu: delivered %llu, failed %llu (each checked: no fault-free path), in "
           "flight %u; attempts %llu\n",
           (unsigned long long)s->sent, (unsigned long long)s->delivered,
           (unsigned long long)s->failed, ni_in_flight(f->ni), (unsigned long long)s->attempts);
    printf("  outcomes: delivered %llu, blocked %llu, corrupted %llu, dropped %llu; located %llu "
           "(on faulty links, or %llu on a path a fault struck mid-attempt); duplicates absorbed "
           "%llu, NAKs %llu\n",
           (unsigned long long)s->outcome[NI_DELIVERED], (unsigned long long)s->outcome[NI_BLOCKED],
           (unsigned long long)s->outcome[NI_CORRUPTED], (unsigned long long)s->outcome[NI_DROPPED],
           (unsigned long long)f->located, (unsigned long long)f->excused,
           (unsigned long long)s->dup_rx, (unsigned long long)s->nak);
    printf(
        "  link fault table: masked %llu, unmasked for trial %llu, cleared %llu, permanent %llu\n",
        (unsigned long long)s->masked, (unsigned long long)s->unmasked,
        (unsigned long long)s->cleared, (unsigned long long)s->permanent);
    if (!o->quiet)
        ni_print_lft(f->ni);
    if (o->cps)
        *o->cps = secs > 0 ? (double)f->t / secs : 0;
    if (!failed && o->record) {
        /* a golden vector: the run's stimulus, then every output of it on the C model */
        char stim[600];
        snprintf(stim, sizeof stim, "%s.stim", o->record);
        snprintf(f->why, sizeof f->why, "none (recorded with --record)");
        vec_t v;
        char err[DEV_ERR_LEN];
        if (write_repro(f, stim) == 0 && vec_load(stim, &net_catalog, &v, err, sizeof err) == 0) {
            record_run(&v, DEV_IMPL_CSIM, o->record);
            vec_free(&v);
        }
        remove(stim);
    }
    if (failed)
        report_failure(f);
    else
        printf("PASS fuzz rnpnet seed %llu (%llu cycles)\n", (unsigned long long)o->seed,
               (unsigned long long)f->t);
    ls_close(&f->ls);
    ni_free(f->ni);
    for (unsigned e = 0; e < t->n; e++)
        free(f->byseq[e]);
    free(f->byseq), free(f->nseq), free(f->dead), free(f->linkf), free(f->linkbad);
    free(f->fault_at), free(f->router_at), free(f->fwd_since), free(f->fwd_bq), free(f->dbg);
    for (size_t i = 0; i < f->nlog; i++)
        free(f->log[i].text);
    free(f->log);
    free(f->plan), free(f->plan_at), free(f);
    dev_design_release(d);
    return failed ? 1 : 0;
}
