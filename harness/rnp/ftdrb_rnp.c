/*
 * ftdrb_rnp.c — `ftsim experiment ftdrb-rnp`: FT-DRB (Zarza et al.) measured as its paper
 * measures it, on an RNP network at the paper's scale (contract harness/rnp/ftdrb_rnp.md).
 *
 * rnpnet1024 (one extra stage, the C model), the paper's five permutations and uniform traffic,
 * 0, 6 and 60 permanent link faults (dead links and stuck data bits) on router-to-router links,
 * injected at random times during a warm-up under load; then a settling time; then a
 * measuring window at the stated load; then the traffic stops and the network drains. Each
 * configuration with the per-source tables (and relays) and with the monitor's global table,
 * over several seeds. Performance against the fault-free run of the same pattern and table:
 * the paper's metric (latency difference) and the ratio 100 L0 / Lf.
 *
 * The load: the first runs of the campaign sweep uniform fault-free traffic to measure the
 * saturation throughput; the experiment offers a fixed rate (--gap) chosen from that sweep
 * at about half of it, and the report prints both so the fraction is measured, not assumed.
 *
 * The ledger checks every run end to end: every message sent is, after the drain, delivered
 * at its destination exactly once with its payload, or reported failed to its source (and
 * then delivered at most once); a message reported delivered is there. Any other outcome is a
 * violation and the experiment exits 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment_rnp.h"
#include "json_io.h"
#include "lockstep.h"
#include "prng.h"
#include "rnpni.h"
#include "rnpnet.h"

/* The tables compared: per-source with relays (FT-DRB), per-source without (the relays'
 * worth measured), the monitor's global table that masks ports in the routers. */
enum { SC_PER_SOURCE, SC_NO_RELAY, SC_GLOBAL, NSCOPE };
static const char *const scope_names[NSCOPE] = {"per-source", "per-source (no relays)", "global"};
#define NFAULTS 3
#define NSWEEP  6

/* The experiment's shape: full, or the quick one the tests run. */
typedef struct fr_shape {
    unsigned endpoints, seeds, faults[NFAULTS], gap, sweep_gaps[NSWEEP];
    uint64_t warmup, settle, window, drain;
} fr_shape_t;

typedef struct fr_cfg {
    unsigned endpoints, pattern, faults, scope, gap, models;
    int dedup_last; /* a mutant for the tests: the final destination dedups as the global mode */
    int crc8;       /* a mutant: the weakened end-to-end check (a corrupted delivery fails) */
    int no_spread, one_sender; /* ablations (rnpni.h) */
    unsigned relay_buf;
    uint64_t warmup, settle, window, drain, seed;
} fr_cfg_t;

typedef struct fr_res {
    double latency, throughput, retries;
    uint64_t msgs, delivered, failed, relayed, segments, busy, no_clear, entries;
    uint64_t dup, lost, told_wrong, corrupt; /* the ledger's violations */
    /* the metapath's shares (window, delivered): pairs, pairs that used more than one path,
     * their paths, their messages and of them direct; the largest multistep share of a pair
     * with at least 8 messages (per mille) */
    uint64_t pairs, spread, spread_paths, spread_msgs, spread_direct, max_msp;
    uint64_t relay_peak, own_relayed; /* ni_stats_t's */
} fr_res_t;

/* The ledger of one run: every original message by (source, seq), how often it arrived. */
typedef struct fr_led {
    ni_t *ni;
    uint32_t **ids, *cap; /* per source: original id by sequence number, UINT32_MAX none */
    uint8_t *rxc;         /* per message id: times delivered at its destination (saturating) */
    size_t nrx;
    uint64_t corrupt;
} fr_led_t;

static int led_note(fr_led_t *l, const ni_msg_t *m)
{
    if (l->cap[m->src] <= m->seq) {
        uint32_t cap = l->cap[m->src] ? l->cap[m->src] : 64;
        while (cap <= m->seq)
            cap *= 2;
        uint32_t *n = realloc(l->ids[m->src], cap * sizeof *n);
        if (!n)
            return -1;
        for (uint32_t i = l->cap[m->src]; i < cap; i++)
            n[i] = UINT32_MAX;
        l->ids[m->src] = n;
        l->cap[m->src] = cap;
    }
    l->ids[m->src][m->seq] = m->id;
    if (m->id >= l->nrx) {
        size_t cap = l->nrx ? l->nrx * 2 : 4096;
        while (cap <= m->id)
            cap *= 2;
        uint8_t *n = realloc(l->rxc, cap);
        if (!n)
            return -1;
        memset(n + l->nrx, 0, cap - l->nrx);
        l->rxc = n;
        l->nrx = cap;
    }
    return 0;
}

/* A message delivered to a host: it must be one that was sent, to here, with its payload. */
static void on_rx(void *ctx, uint64_t cycle, const ni_msg_t *m, int ok)
{
    (void)cycle, (void)ok;
    fr_led_t *l = ctx;
    uint32_t id = m->seq < l->cap[m->src] ? l->ids[m->src][m->seq] : UINT32_MAX;
    const ni_msg_t *o = id == UINT32_MAX ? NULL : ni_msg(l->ni, id);
    if (!o || o->dst != m->dst || o->len != m->len || memcmp(o->data, m->data, m->len)) {
        l->corrupt++;
        return;
    }
    if (l->rxc[id] < 255)
        l->rxc[id]++;
}

/* The faults: distinct router-to-router links (not the last stage's ejection links, which
 * would cut endpoints off), dead or with a data bit stuck, at random cycles of the warm-up. */
typedef struct fr_fault {
    uint64_t at;
    rnpnet_fault_t f;
} fr_fault_t;

static int by_time(const void *a, const void *b)
{
    const fr_fault_t *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

static void plan_faults(const rnpnet_topo_t *t, const fr_cfg_t *c, fr_fault_t *fl)
{
    prng_t rng;
    prng_seed(&rng, c->seed * 0x9E3779B97F4A7C15ull + c->faults); /* the same for every pattern
                                                                     and table */
    for (unsigned i = 0; i < c->faults; i++) {
        rnpnet_fault_t *x = &fl[i].f;
        memset(x, 0, sizeof *x);
        for (int again = 1; again;) {
            x->router = prng_below(&rng, t->nrouters - t->per_stage);
            x->port = prng_below(&rng, 8);
            again = 0;
            for (unsigned j = 0; j < i; j++)
                again |= fl[j].f.router == x->router && fl[j].f.port == x->port;
        }
        x->kind = prng_below(&rng, 2) ? RNPNET_F_DEAD_LINK : RNPNET_F_STUCK_BIT;
        x->bit = prng_below(&rng, 8);
        x->value = prng_below(&rng, 2);
        fl[i].at = prng_below(&rng, (uint32_t)c->warmup);
    }
    qsort(fl, c->faults, sizeof *fl, by_time);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The metapath's shares in the window: each delivered message as (source, destination, its
 * path's first and second intermediate), sorted; a pair's run of keys, its paths. */
static void shares(const fr_cfg_t *c, fr_led_t *l, fr_res_t *r)
{
    uint64_t ws = c->warmup + c->settle, we = ws + c->window, *k = malloc(r->delivered * 8 + 8);
    size_t n = 0;
    if (!k)
        return;
    for (unsigned e = 0; e < c->endpoints; e++)
        for (uint32_t q = 0; q < l->cap[e]; q++) {
            uint32_t id = l->ids[e][q];
            const ni_msg_t *m = id == UINT32_MAX ? NULL : ni_msg(l->ni, id);
            if (!m || m->state != 1 || m->t_created < ws || m->t_created >= we)
                continue;
            unsigned v1 = m->relayed ? m->via1 : 0xFFFFu, v2 = m->relayed ? m->via2 : 0xFFFFu;
            k[n++] = (uint64_t)m->src << 48 | (uint64_t)m->dst << 32 | (uint64_t)v1 << 16 | v2;
        }
    qsort(k, n, 8, by_u64);
    for (size_t i = 0; i < n;) {
        size_t j = i, paths = 0, direct = 0;
        for (; j < n && k[j] >> 32 == k[i] >> 32; j++) {
            paths += j == i || k[j] != k[j - 1];
            direct += (k[j] & 0xFFFFFFFFu) == 0xFFFFFFFFu;
        }
        r->pairs++;
        if (paths > 1) {
            r->spread++, r->spread_paths += paths, r->spread_msgs += j - i;
            r->spread_direct += direct;
        }
        uint64_t msp = (j - i - direct) * 1000 / (j - i);
        if (j - i >= 8 && msp > r->max_msp)
            r->max_msp = msp;
        i = j;
    }
    free(k);
}

/* The ledger's verdict on every original message, after the drain; the window's figures. */
static void settle_accounts(const fr_cfg_t *c, fr_led_t *l, fr_res_t *r)
{
    uint64_t ws = c->warmup + c->settle, we = ws + c->window, lat = 0;
    for (unsigned e = 0; e < c->endpoints; e++)
        for (uint32_t q = 0; q < l->cap[e]; q++) {
            uint32_t id = l->ids[e][q];
            if (id == UINT32_MAX)
                continue;
            const ni_msg_t *m = ni_msg(l->ni, id);
            unsigned n = l->rxc[id];
            r->dup += n > 1;
            r->told_wrong += m->state == 1 && n != 1;
            r->lost += m->state == 0 || m->state == 3;
            if (m->t_created < ws || m->t_created >= we)
                continue;
            r->msgs++;
            if (m->state == 1) {
                r->delivered++;
                r->relayed += m->relayed;
                lat += m->t_done - m->t_created;
            }
            r->failed += m->state == 2;
        }
    r->corrupt = l->corrupt;
    shares(c, l, r);
    r->latency = r->delivered ? (double)lat / (double)r->delivered : 0;
    r->throughput = (double)r->delivered / (double)c->window / c->endpoints;
}

/* One run; -1 with a message in err (DEV_ERR_LEN) when it cannot. */
static int fr_run(const fr_cfg_t *c, fr_res_t *r, char *err)
{
    memset(r, 0, sizeof *r);
    lockstep_t ls;
    const dev_design_t *d = rnp_open(c->endpoints, c->models, &ls, err);
    if (!d)
        return -1;
    const rnpnet_topo_t *t = rnpnet_topo_of(d);
    ni_policy_t pol = {.retry_limit = 60,
                       .backoff_max = 64,
                       .use_lft = 1,
                       .perm_stage = 3,
                       .trial_attempts = 10,
                       .lft_scope = c->scope == SC_GLOBAL ? NI_LFT_GLOBAL : NI_LFT_PER_SOURCE,
                       .relays = c->scope == SC_PER_SOURCE,
                       .no_spread = c->no_spread,
                       .one_sender = c->one_sender,
                       .relay_buf = c->relay_buf,
                       .crc8 = c->crc8, /* the default CRC-32 unless the mutant weakens it */
                       .dedup_last = c->dedup_last};
    fr_led_t l = {0};
    l.ni = ni_create(t, &pol, c->seed, 1);
    l.ids = calloc(t->n, sizeof *l.ids);
    l.cap = calloc(t->n, sizeof *l.cap);
    uint64_t *in = calloc(d->nports, sizeof *in);
    fr_fault_t *fl = calloc(c->faults + 1, sizeof *fl);
    int rc = -1;
    snprintf(err, DEV_ERR_LEN, "out of memory");
    if (!l.ni || !l.ids || !l.cap || !in || !fl)
        goto out;
    ni_set_callbacks(l.ni, &l, NULL, NULL, on_rx);
    dev_write_t init = {RNPNET_NETCFG, 0x1234u | (1ull << 16), 0x1FFFF};
    ls_reset(&ls, &init, 1);
    plan_faults(t, c, fl);
    prng_t rng;
    prng_seed(&rng, c->seed);
    uint64_t ws = c->warmup + c->settle, we = ws + c->window, now = 0;
    unsigned nf = 0;
    ni_stats_t s0 = {0}, s1 = {0};
    for (; now < we + c->drain; now++) {
        if (now == ws)
            s0 = *ni_stats(l.ni);
        if (now == we)
            s1 = *ni_stats(l.ni);
        if (now >= we && !ni_in_flight(l.ni))
            break; /* drained */
        for (; nf < c->faults && fl[nf].at == now; nf++) {
            char text[96], cmd[110];
            rnpnet_fault_format(&fl[nf].f, text, sizeof text);
            snprintf(cmd, sizeof cmd, "fault %s", text);
            for (unsigned k = 0; k < ls.n; k++)
                if (dev_control(ls.m[k], cmd, err, DEV_ERR_LEN) < 0)
                    goto out;
        }
        for (unsigned e = 0; now < we && e < t->n; e++)
            if (prng_chance(&rng, 1, c->gap)) {
                unsigned dst = rnp_pat_dst(c->pattern, e, t->n, &rng);
                const ni_msg_t *m = dst != e ? ni_send(l.ni, now, e, dst, 8) : NULL;
                if (m && led_note(&l, m) < 0)
                    goto out;
            }
        dev_write_t w;
        ls_set_inputs(&ls, in);
        ls_sample(&ls);
        if (ni_cycle(l.ni, now, ls.out[ls.n - 1], in, &w))
            ls_reg_write(&ls, &w);
        if (ls_tick(&ls, err, DEV_ERR_LEN) < 0)
            goto out;
    }
    settle_accounts(c, &l, r);
    const ni_stats_t *s = ni_stats(l.ni);
    uint64_t bad = (s1.attempts - s0.attempts) -
                   (s1.outcome[NI_DELIVERED] - s0.outcome[NI_DELIVERED]),
             done = (s1.delivered + s1.failed) - (s0.delivered + s0.failed);
    r->retries = done ? (double)bad / (double)done : 0;
    r->segments = s->segments;
    r->busy = s->busy;
    r->no_clear = s->no_clear;
    r->relay_peak = s->relay_peak;
    r->own_relayed = s->own_relayed;
    r->entries = c->scope == SC_GLOBAL ? ni_masked_now(l.ni) : s->lft_entries;
    rc = 0;
out:
    ls_close(&ls);
    ni_free(l.ni);
    for (unsigned e = 0; l.ids && e < t->n; e++)
        free(l.ids[e]);
    free(l.ids), free(l.cap), free(l.rxc), free(in), free(fl);
    dev_design_release(d);
    return rc;
}

/* ---- the campaign: the sweep's runs, then pattern x faults x table x seed ------------------ */

/* The default shape, measured to take about 8 minutes with --jobs 2 (README). The sweep's
 * gaps are offered loads of 1/gap messages per endpoint per cycle; gap is the one the
 * measurements use (about half the saturation the sweep finds). */
static const fr_shape_t shape_full = {.endpoints = 1024,
                                      .seeds = 3,
                                      .faults = {0, 6, 60},
                                      .gap = 88,
                                      .sweep_gaps = {200, 100, 50, 25, 15, 10},
                                      .warmup = 3000,
                                      .settle = 2000,
                                      .window = 6000,
                                      .drain = 20000};
static const fr_shape_t shape_quick = {.endpoints = 64,
                                       .seeds = 1,
                                       .faults = {0, 6, 16},
                                       .gap = 60,
                                       .sweep_gaps = {200, 100, 50, 25, 15, 10},
                                       .warmup = 1500,
                                       .settle = 500,
                                       .window = 2000,
                                       .drain = 8000};

typedef struct fcamp {
    const exp_opts_t *o;
    fr_shape_t sh;
    unsigned n, nmain; /* runs in all; of them after the sweep */
    int parallel, dedup_last, crc8, no_spread, one_sender;
    unsigned relay_buf;
    fr_res_t *res;
    int *ok;
    unsigned done;
} fcamp_t;

static void cfg_of(const fcamp_t *k, unsigned i, fr_cfg_t *c)
{
    const fr_shape_t *sh = &k->sh;
    *c = (fr_cfg_t){.endpoints = sh->endpoints,
                    .pattern = PAT_UNIFORM,
                    .scope = SC_GLOBAL,
                    .gap = sh->gap,
                    .models = k->o->models,
                    .dedup_last = k->dedup_last,
                    .crc8 = k->crc8,
                    .no_spread = k->no_spread,
                    .one_sender = k->one_sender,
                    .relay_buf = k->relay_buf,
                    .warmup = sh->warmup,
                    .settle = sh->settle,
                    .window = sh->window,
                    .drain = sh->drain,
                    .seed = k->o->seed};
    if (i < NSWEEP) { /* uniform, fault-free, the global table (nothing to learn) */
        c->gap = sh->sweep_gaps[i];
        return;
    }
    i -= NSWEEP;
    unsigned seed = i % sh->seeds;
    i /= sh->seeds;
    c->scope = i % NSCOPE;
    i /= NSCOPE;
    c->faults = sh->faults[i % NFAULTS];
    c->pattern = i / NFAULTS;
    c->seed = k->o->seed + seed;
}

static unsigned run_index(const fcamp_t *k, unsigned pat, unsigned fi, unsigned sc, unsigned sd)
{
    return NSWEEP + ((pat * NFAULTS + fi) * NSCOPE + sc) * k->sh.seeds + sd;
}

static void progress(const fcamp_t *k, unsigned i, unsigned n)
{
    if (k->o->quiet || k->o->json)
        return;
    if (!isatty(2)) { /* plain lines: a log keeps them readable */
        if (i == n || i % (n / 10 ? n / 10 : 1) == 0)
            fprintf(stderr, "ftdrb-rnp: %u/%u runs\n", i, n);
        return;
    }
    unsigned w = 30, b = n ? i * w / n : w;
    fprintf(stderr, "\r  [%.*s%*s] %u/%u runs", (int)b, "##############################",
            (int)(w - b), "", i, n);
    if (i == n)
        fputc('\n', stderr);
}

static int f_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const fcamp_t *k = ctx;
    fr_cfg_t c;
    fr_res_t r;
    char why[DEV_ERR_LEN];
    cfg_of(k, i, &c);
    if (!k->parallel)
        progress(k, i, k->n);
    if (fr_run(&c, &r, why) < 0) {
        campaign_w_str(w, "error", why);
        return 0;
    }
    campaign_w_dbl(w, "latency", r.latency);
    campaign_w_dbl(w, "throughput", r.throughput);
    campaign_w_dbl(w, "retries", r.retries);
    const uint64_t v[] = {r.msgs,     r.delivered, r.failed, r.relayed, r.segments,   r.busy,
                          r.no_clear, r.entries,   r.dup,    r.lost,    r.told_wrong, r.corrupt,
                          r.pairs,    r.spread,    r.spread_paths, r.spread_msgs, r.spread_direct,
                          r.max_msp,  r.relay_peak, r.own_relayed};
    campaign_w_u64s(w, "counts", v, sizeof v / sizeof *v);
    return 0;
}

static int f_take(void *ctx, unsigned i, const char *text, char *err, size_t errlen)
{
    fcamp_t *k = ctx;
    campaign_rec_t rec;
    if (campaign_rec_parse(&rec, text, err, errlen) < 0)
        return -1;
    int rc = 0;
    if (campaign_rec_has(&rec, "error")) {
        fprintf(stderr, "ftsim experiment: run %u: %s\n", i, campaign_rec_str(&rec, "error"));
        rc = 1;
    } else {
        fr_res_t *r = &k->res[i];
        uint64_t v[20];
        r->latency = campaign_rec_dbl(&rec, "latency");
        r->throughput = campaign_rec_dbl(&rec, "throughput");
        r->retries = campaign_rec_dbl(&rec, "retries");
        if (campaign_rec_u64s(&rec, "counts", v, 20) != 20 && !rec.bad)
            rec.bad = "counts";
        if (rec.bad) {
            snprintf(err, errlen, "run %u: a record without '%s'", i, rec.bad);
            rc = -1;
        } else {
            r->msgs = v[0], r->delivered = v[1], r->failed = v[2], r->relayed = v[3];
            r->segments = v[4], r->busy = v[5], r->no_clear = v[6], r->entries = v[7];
            r->dup = v[8], r->lost = v[9], r->told_wrong = v[10], r->corrupt = v[11];
            r->pairs = v[12], r->spread = v[13], r->spread_paths = v[14];
            r->spread_msgs = v[15], r->spread_direct = v[16], r->max_msp = v[17];
            r->relay_peak = v[18], r->own_relayed = v[19];
            k->ok[i] = 1;
        }
    }
    k->done++;
    campaign_rec_free(&rec);
    return rc;
}

static void f_progress(void *ctx, unsigned done, unsigned total) { progress(ctx, done, total); }

/* ---- the report ---------------------------------------------------------------------------- */

/* One pattern x fault count x table over the seeds. */
typedef struct fr_row {
    double latency, retries, entries;
    uint64_t msgs, delivered, failed, relayed, segments, busy, no_clear, viol;
    uint64_t pairs, spread, spread_paths, spread_msgs, spread_direct, max_msp;
} fr_row_t;

static fr_row_t row_of(const fcamp_t *k, unsigned pat, unsigned fi, unsigned sc)
{
    fr_row_t w = {0};
    for (unsigned sd = 0; sd < k->sh.seeds; sd++) {
        const fr_res_t *r = &k->res[run_index(k, pat, fi, sc, sd)];
        w.latency += r->latency / k->sh.seeds; /* the mean of the seeds' means */
        w.retries += r->retries / k->sh.seeds;
        w.entries += (double)r->entries / k->sh.seeds;
        w.msgs += r->msgs, w.delivered += r->delivered, w.failed += r->failed;
        w.relayed += r->relayed, w.segments += r->segments, w.busy += r->busy;
        w.no_clear += r->no_clear;
        w.viol += r->dup + r->lost + r->told_wrong + r->corrupt;
        w.pairs += r->pairs, w.spread += r->spread, w.spread_paths += r->spread_paths;
        w.spread_msgs += r->spread_msgs, w.spread_direct += r->spread_direct;
        if (r->max_msp > w.max_msp)
            w.max_msp = r->max_msp;
    }
    return w;
}

static double perf_of(double l0, double lf) { return lf > 0 ? 100.0 * l0 / lf : 0; }

/* The FT-DRB paper's Figure 3, for the table and the plot: average, worst, best. */
static const double paper_avg = 97, paper_worst = 88, paper_best = 100;

static FILE *open_out(const exp_opts_t *o, const char *name)
{
    mkdir("build", 0777);
    mkdir(o->outdir, 0777);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", o->outdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "ftsim experiment: cannot write %s\n", path);
    return f;
}

/* The saturation throughput: what the network accepts at the sweep's heaviest offered load,
 * where every source's queue is full and refuses the rest. (Below saturation a window can
 * accept more than that for a while, the queues absorbing it, at latencies that grow without
 * bound: that is not a throughput the network sustains.) */
static double saturation(const fcamp_t *k) { return k->res[NSWEEP - 1].throughput; }

static void print_markdown(const fcamp_t *k, double sat)
{
    const fr_shape_t *sh = &k->sh;
    double load = 1.0 / sh->gap;
    printf("ftdrb-rnp: rnpnet%u (%s), 8-byte messages, backward channel on; faults on "
           "router-to-router links (dead or a data bit stuck) at random cycles of a %llu-cycle "
           "warm-up, %llu cycles to settle, a %llu-cycle measuring window; %u seed%s\n\n",
           sh->endpoints, sh->endpoints >= 256 ? "one extra stage" : "no extra stage",
           (unsigned long long)sh->warmup, (unsigned long long)sh->settle,
           (unsigned long long)sh->window, sh->seeds, sh->seeds > 1 ? "s" : "");
    printf("Saturation (uniform traffic, fault-free, global table):\n\n| offered (msg/endpoint/"
           "cycle) | accepted | latency |\n|---:|---:|---:|\n");
    for (unsigned i = 0; i < NSWEEP; i++)
        printf("| %.4f | %.4f | %.0f |\n", 1.0 / sh->sweep_gaps[i], k->res[i].throughput,
               k->res[i].latency);
    printf("\nsaturation %.4f msg/endpoint/cycle; load used %.4f (1 message every %u cycles "
           "per endpoint) = %.0f %% of it\n\n",
           sat, load, sh->gap, sat > 0 ? 100.0 * load / sat : 0);
    printf("| pattern | faults | table | latency fault-free | latency | difference (FT-DRB's "
           "metric) | performance %% | delivered | failed (told) | relayed | retries/msg | table "
           "entries |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (unsigned p = 0; p < NPAT; p++)
        for (unsigned fi = 1; fi < NFAULTS; fi++)
            for (unsigned sc = 0; sc < NSCOPE; sc++) {
                fr_row_t z = row_of(k, p, 0, sc), w = row_of(k, p, fi, sc);
                printf("| %s | %u | %s | %.1f | %.1f | %+.1f | %.1f | %llu/%llu | %llu | %llu "
                       "| %.3f | %.1f |\n",
                       rnp_pat_names[p], sh->faults[fi], scope_names[sc], z.latency, w.latency,
                       w.latency - z.latency, perf_of(z.latency, w.latency),
                       (unsigned long long)w.delivered, (unsigned long long)w.msgs,
                       (unsigned long long)w.failed, (unsigned long long)w.relayed, w.retries,
                       w.entries);
            }
    printf("\nThe metapath's shares (per-source tables with relays; delivered messages of the "
           "window; a pair spreads when it used more than one path)%s:\n\n| pattern | faults | "
           "pairs spreading | paths per spreading pair | direct share there | multistep share "
           "| largest multistep share of a pair |\n|---|---:|---:|---:|---:|---:|---:|\n",
           k->no_spread ? " (--no-spread: relayed whenever no direct choice is clear)" : "");
    for (unsigned p = 0; p < NPAT; p++)
        for (unsigned fi = 0; fi < NFAULTS; fi++) {
            fr_row_t w = row_of(k, p, fi, SC_PER_SOURCE);
            printf("| %s | %u | %llu/%llu | %.2f | %.1f %% | %.2f %% | %.1f %% |\n",
                   rnp_pat_names[p], sh->faults[fi], (unsigned long long)w.spread,
                   (unsigned long long)w.pairs,
                   w.spread ? (double)w.spread_paths / (double)w.spread : 0,
                   w.spread_msgs ? 100.0 * (double)w.spread_direct / (double)w.spread_msgs : 0,
                   w.delivered ? 100.0 * (double)w.relayed / (double)w.delivered : 0,
                   w.max_msp / 10.0);
        }
    printf("\nPerformance over the FT-DRB paper's five patterns (uniform aside), against its "
           "Figure 3 (average %.0f %%, worst %.0f %%, best %.0f %%):\n\n| faults | table | "
           "average | worst | best |\n|---:|---|---:|---|---|\n",
           paper_avg, paper_worst, paper_best);
    for (unsigned fi = 1; fi < NFAULTS; fi++)
        for (unsigned sc = 0; sc < NSCOPE; sc++) {
            double sum = 0, lo = 1e9, hi = -1;
            unsigned plo = 1, phi = 1;
            for (unsigned p = PAT_BITREV; p < NPAT; p++) {
                double v = perf_of(row_of(k, p, 0, sc).latency, row_of(k, p, fi, sc).latency);
                sum += v;
                if (v < lo)
                    lo = v, plo = p;
                if (v > hi)
                    hi = v, phi = p;
            }
            printf("| %u | %s | %.1f %% | %.1f %% (%s) | %.1f %% (%s) |\n", sh->faults[fi],
                   scope_names[sc], sum / (NPAT - 1), lo, rnp_pat_names[plo], hi,
                   rnp_pat_names[phi]);
        }
}

static void write_csv(const fcamp_t *k, FILE *f)
{
    fprintf(f, "pattern,faults,table,latency_ff,latency,diff,perf,msgs,delivered,failed,relayed,"
               "segments,busy,no_clear,retries,entries,violations,pairs,pairs_spread,"
               "spread_paths,spread_direct_share,max_multistep_share\n");
    for (unsigned p = 0; p < NPAT; p++)
        for (unsigned fi = 0; fi < NFAULTS; fi++)
            for (unsigned sc = 0; sc < NSCOPE; sc++) {
                fr_row_t z = row_of(k, p, 0, sc), w = row_of(k, p, fi, sc);
                fprintf(f,
                        "%s,%u,%s,%.2f,%.2f,%.2f,%.2f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                        "%.4f,%.1f,%llu,%llu,%llu,%llu,%.4f,%.3f\n",
                        rnp_pat_names[p], k->sh.faults[fi], scope_names[sc], z.latency, w.latency,
                        w.latency - z.latency, perf_of(z.latency, w.latency),
                        (unsigned long long)w.msgs, (unsigned long long)w.delivered,
                        (unsigned long long)w.failed, (unsigned long long)w.relayed,
                        (unsigned long long)w.segments, (unsigned long long)w.busy,
                        (unsigned long long)w.no_clear, w.retries, w.entries,
                        (unsigned long long)w.viol, (unsigned long long)w.pairs,
                        (unsigned long long)w.spread, (unsigned long long)w.spread_paths,
                        w.spread_msgs ? (double)w.spread_direct / (double)w.spread_msgs : 0,
                        w.max_msp / 1000.0);
            }
}

static void print_json(const fcamp_t *k, double sat, uint64_t viol)
{
    const fr_shape_t *sh = &k->sh;
    json_object *doc = json_object_new_object(), *sweep = json_object_new_array();
    json_object *rows = json_object_new_array(), *paper = json_object_new_object();
    json_io_add(doc, "experiment", json_io_str("ftdrb-rnp"));
    json_io_add(doc, "endpoints", json_io_u64(sh->endpoints));
    json_io_add(doc, "seeds", json_io_u64(sh->seeds));
    json_io_add(doc, "warmup", json_io_u64(sh->warmup));
    json_io_add(doc, "settle", json_io_u64(sh->settle));
    json_io_add(doc, "window", json_io_u64(sh->window));
    json_io_add(doc, "saturation", json_io_fixed(sat, 6));
    json_io_add(doc, "load", json_io_fixed(1.0 / sh->gap, 6));
    json_io_add(doc, "load_fraction", json_io_fixed(sat > 0 ? 1.0 / sh->gap / sat : 0, 4));
    for (unsigned i = 0; i < NSWEEP; i++) {
        json_object *pt = json_object_new_object();
        json_io_add(pt, "offered", json_io_fixed(1.0 / sh->sweep_gaps[i], 6));
        json_io_add(pt, "accepted", json_io_fixed(k->res[i].throughput, 6));
        json_object_array_add(sweep, pt);
    }
    json_io_add(doc, "sweep", sweep);
    for (unsigned p = 0; p < NPAT; p++)
        for (unsigned fi = 0; fi < NFAULTS; fi++)
            for (unsigned sc = 0; sc < NSCOPE; sc++) {
                fr_row_t z = row_of(k, p, 0, sc), w = row_of(k, p, fi, sc);
                json_object *r = json_object_new_object();
                json_io_add(r, "pattern", json_io_str(rnp_pat_names[p]));
                json_io_add(r, "faults", json_io_u64(sh->faults[fi]));
                json_io_add(r, "table", json_io_str(scope_names[sc]));
                json_io_add(r, "latency_ff", json_io_fixed(z.latency, 3));
                json_io_add(r, "latency", json_io_fixed(w.latency, 3));
                json_io_add(r, "diff", json_io_fixed(w.latency - z.latency, 3));
                json_io_add(r, "perf", json_io_fixed(perf_of(z.latency, w.latency), 3));
                json_io_add(r, "msgs", json_io_u64(w.msgs));
                json_io_add(r, "delivered", json_io_u64(w.delivered));
                json_io_add(r, "failed", json_io_u64(w.failed));
                json_io_add(r, "relayed", json_io_u64(w.relayed));
                json_io_add(r, "segments", json_io_u64(w.segments));
                json_io_add(r, "busy", json_io_u64(w.busy));
                json_io_add(r, "no_clear", json_io_u64(w.no_clear));
                json_io_add(r, "retries", json_io_fixed(w.retries, 4));
                json_io_add(r, "entries", json_io_fixed(w.entries, 1));
                json_io_add(r, "violations", json_io_u64(w.viol));
                json_io_add(r, "pairs", json_io_u64(w.pairs));
                json_io_add(r, "pairs_spread", json_io_u64(w.spread));
                json_io_add(r, "spread_msgs", json_io_u64(w.spread_msgs));
                json_io_add(r, "spread_direct", json_io_u64(w.spread_direct));
                json_io_add(r, "spread_paths", json_io_u64(w.spread_paths));
                json_io_add(r, "spread_direct_share",
                            json_io_fixed(w.spread_msgs ? (double)w.spread_direct /
                                                              (double)w.spread_msgs
                                                        : 0,
                                          4));
                json_io_add(r, "max_multistep_share", json_io_fixed(w.max_msp / 1000.0, 3));
                json_object_array_add(rows, r);
            }
    json_io_add(doc, "rows", rows);
    /* FT-DRB (Zarza et al.)'s own figures, beside ours */
    json_io_add(paper, "average", json_io_fixed(paper_avg, 0));
    json_io_add(paper, "worst", json_io_fixed(paper_worst, 0));
    json_io_add(paper, "best", json_io_fixed(paper_best, 0));
    json_io_add(doc, "paper", paper);
    json_io_add(doc, "violations", json_io_u64(viol));
    uint64_t peak = 0, own = 0;
    for (unsigned i = NSWEEP; i < k->n; i++) {
        peak = k->res[i].relay_peak > peak ? k->res[i].relay_peak : peak;
        own += k->res[i].own_relayed;
    }
    json_io_add(doc, "relay_buffer_bound", json_io_u64(k->relay_buf ? k->relay_buf : NI_RELAY_BUF));
    uint64_t busy = 0;
    for (unsigned i = NSWEEP; i < k->n; i++)
        busy += k->res[i].busy;
    json_io_add(doc, "busy", json_io_u64(busy));
    json_io_add(doc, "relay_peak", json_io_u64(peak));
    json_io_add(doc, "own_sender_relayed", json_io_u64(own));
    json_io_write(stdout, doc);
    json_object_put(doc);
}

/* Every run's ledger: the violations, each run's named on stderr. */
static uint64_t violations(const fcamp_t *k)
{
    uint64_t v = 0;
    for (unsigned i = NSWEEP; i < k->n; i++) {
        const fr_res_t *r = &k->res[i];
        uint64_t n = r->dup + r->lost + r->told_wrong + r->corrupt;
        if (!n)
            continue;
        fr_cfg_t c;
        cfg_of(k, i, &c);
        fprintf(stderr,
                "ftdrb-rnp: run %u (%s, %u faults, %s table, seed %llu): %llu duplicated, %llu "
                "lost or not done when the drain ended, %llu reported delivered but not there, "
                "%llu corrupt or misdelivered\n",
                i, rnp_pat_names[c.pattern], c.faults, scope_names[c.scope],
                (unsigned long long)c.seed, (unsigned long long)r->dup, (unsigned long long)r->lost,
                (unsigned long long)r->told_wrong, (unsigned long long)r->corrupt);
        v += n;
    }
    return v;
}

int experiment_ftdrb_rnp(const exp_opts_t *o, campaign_t *c)
{
    fcamp_t k = {.o = o,
                 .sh = o->quick ? shape_quick : shape_full,
                 .parallel = campaign_parallel(c),
                 .dedup_last = o->dedup_last,
                 .crc8 = o->crc8,
                 .no_spread = o->no_spread,
                 .one_sender = o->one_sender,
                 .relay_buf = o->relay_buf};
    if (o->seeds)
        k.sh.seeds = o->seeds;
    if (o->endpoints)
        k.sh.endpoints = o->endpoints;
    if (o->cycles_set)
        k.sh.window = o->cycles;
    k.nmain = NPAT * NFAULTS * NSCOPE * k.sh.seeds;
    k.n = NSWEEP + k.nmain;
    campaign_param(c, "experiment", "ftdrb-rnp");
    campaign_param(c, "endpoints", "%u", k.sh.endpoints);
    campaign_param(c, "seeds", "%u", k.sh.seeds);
    campaign_param(c, "window", "%llu", (unsigned long long)k.sh.window);
    campaign_param(c, "quick", "%d", o->quick);
    campaign_param(c, "mutant", "%s", o->dedup_last ? "dedup-last" : o->crc8 ? "crc8" : "none");
    campaign_param(c, "ablation", "%s",
                   o->no_spread && o->one_sender ? "no-spread,one-sender"
                   : o->no_spread                ? "no-spread"
                   : o->one_sender               ? "one-sender"
                                                 : "none");
    campaign_param(c, "relay_buf", "%u", o->relay_buf);
    campaign_param(c, "seed", "%llu", (unsigned long long)o->seed);
    campaign_param(c, "model", "%s",
                   o->models == LS_BOTH  ? "both"
                   : o->models == LS_RTL ? "rtl"
                                         : "csim");
    k.res = calloc(k.n, sizeof *k.res);
    k.ok = calloc(k.n, sizeof *k.ok);
    if (!k.res || !k.ok) {
        free(k.res), free(k.ok);
        fprintf(stderr, "ftsim experiment: out of memory\n");
        return 2;
    }
    campaign_hooks_t h = {f_run, f_take, f_progress};
    char err[600];
    int rc = campaign_exec(c, k.n, &h, &k, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "ftsim experiment: %s\n", err);
    if (rc == 0 && !campaign_merged(c) && !k.parallel)
        progress(&k, k.n, k.n);
    int out = rc ? 2 : 0;
    if (rc == 0 && campaign_reporting(c)) {
        double sat = saturation(&k);
        uint64_t viol = violations(&k);
        FILE *f = open_out(o, "ftdrb-rnp.csv");
        if (f) {
            write_csv(&k, f);
            fclose(f);
        }
        if (o->json)
            print_json(&k, sat, viol);
        else
            print_markdown(&k, sat);
        if (!f)
            out = 2;
        else if (viol) {
            fprintf(stderr,
                    "ftdrb-rnp: %llu messages neither delivered once nor failed to their "
                    "source\n",
                    (unsigned long long)viol);
            out = 1;
        } else if (!o->json) {
            printf("\nledger: every message delivered once or failed to its source, in every "
                   "run\n");
        }
    }
    free(k.res), free(k.ok);
    return out;
}
