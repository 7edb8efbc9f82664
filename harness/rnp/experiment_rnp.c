/*
 * experiment_rnp.c — `ftsim experiment rnp-load | rnp-patterns | rnp-policy`: measurements of
 * RNP networks of RN1s with the endpoints of rnpni.c (source-responsible retry, diagnosis, the
 * link fault table) and faults on the wires.
 *
 *   rnp-load      64 endpoints, uniform traffic, offered load swept; 0, 1, 4 and 16 random
 *                 faults (injected at cycle 0); plain, +link fault table, +backward channel,
 *                 +both: delivered fraction, retries per message, latency, accepted throughput.
 *   rnp-patterns  the standard permutations (bit reversal, perfect shuffle, butterfly, matrix
 *                 transpose, complement) and uniform, fault-free and with 4 faults.
 *   rnp-policy    permanent, transient (one flip) and intermittent (a flip in 2% of words)
 *                 link faults under three source policies: no table, mask at the first
 *                 diagnosis (naive), and FT-DRB's stage and attempt numbers.
 * Each prints a table, writes CSV under --out (default build/experiments), and `make paper`
 * turns the CSVs into PNG plots (harness/scripts/plot.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment.h"
#include "experiment_rnp.h"
#include "lockstep.h"
#include "prng.h"
#include "rnpni.h"
#include "rnpnet.h"

const char *const rnp_pat_names[NPAT] = {"uniform",   "bit-reversal", "perfect-shuffle",
                                         "butterfly", "transpose",    "complement"};
#define pat_names rnp_pat_names
enum { FK_MIXED, FK_PERMANENT, FK_TRANSIENT, FK_INTERMITTENT };
static const char *const fk_names[] = {"mixed", "permanent", "transient", "intermittent"};

typedef struct run_cfg {
    unsigned endpoints, faults, fault_kind, pattern, gap; /* a message every ~gap cycles/endpoint */
    int backchan, lft;
    unsigned perm_stage; /* 1: naive (first diagnosis is permanent); 3: FT-DRB's */
    uint64_t cycles, seed;
    unsigned models;
} run_cfg_t;

typedef struct run_res {
    double delivered_frac, retries, latency, throughput, offered;
    uint64_t sent, delivered, failed, masked_end;
} run_res_t;

const dev_design_t *rnp_open(unsigned endpoints, unsigned models, lockstep_t *ls, char *err)
{
    const dev_design_t *d = rnpnet_design(endpoints, endpoints >= 256 ? 1 : 0, 1, err, DEV_ERR_LEN);
    if (d && ls_open(ls, d, models, err, DEV_ERR_LEN) < 0) {
        dev_design_release(d);
        return NULL;
    }
    return d;
}

/* The permutations are pattern.h's on N = 2^b endpoints (transpose: the index's halves
 * swapped); uniform draws once, never s. */
unsigned rnp_pat_dst(unsigned pat, unsigned s, unsigned n, prng_t *rng)
{
    if (pat == PAT_COMPLEMENT)
        return n - 1 - s;
    if (pat != PAT_UNIFORM)
        return traffic_pattern_bits((int)pat, traffic_bits(n), s);
    unsigned d = prng_below(rng, n - 1);
    return d + (d >= s);
}

static void random_fault(prng_t *rng, const rnpnet_topo_t *t, unsigned kind, rnpnet_fault_t *x)
{
    memset(x, 0, sizeof *x);
    unsigned k = prng_below(rng, 6);
    if (kind == FK_MIXED)
        x->kind = k == 0   ? RNPNET_F_DEAD_ROUTER
                  : k == 1 ? RNPNET_F_DEAD_LINK
                  : k == 2 ? RNPNET_F_STUCK_C1
                  : k == 3 ? RNPNET_F_STUCK_BIT
                           : RNPNET_F_FLIP;
    else if (kind == FK_PERMANENT)
        x->kind = k < 3 ? RNPNET_F_DEAD_LINK : RNPNET_F_STUCK_BIT;
    else
        x->kind = RNPNET_F_FLIP;
    /* links between routers (not the last stage's, which would cut endpoints off) */
    x->router = prng_below(rng, t->nrouters - t->per_stage);
    x->port = prng_below(rng, 8);
    x->bit = prng_below(rng, 8);
    x->value = prng_below(rng, 2);
    x->prob_ppm = kind == FK_TRANSIENT      ? 0
                  : kind == FK_INTERMITTENT ? 20000
                                            : (k == 4 ? 0 : 300000);
}

/* What the run's hosts received, checked against what was sent (ftdrb_rnp.md 6a): a message
 * delivered that was never sent, or not to that endpoint, or not with that payload, is
 * corrupt, and fails the run. ids[src][seq] is the message's id. */
typedef struct rx_check {
    ni_t *ni;
    uint32_t **ids, *cap;
    uint64_t corrupt;
} rx_check_t;

static int rx_note(rx_check_t *x, const ni_msg_t *m)
{
    if (x->cap[m->src] <= m->seq) {
        uint32_t cap = x->cap[m->src] ? x->cap[m->src] * 2 : 64;
        while (cap <= m->seq)
            cap *= 2;
        uint32_t *n = realloc(x->ids[m->src], cap * sizeof *n);
        if (!n)
            return -1;
        x->ids[m->src] = n;
        x->cap[m->src] = cap;
    }
    x->ids[m->src][m->seq] = m->id;
    return 0;
}

static void rx_check(void *ctx, uint64_t cycle, const ni_msg_t *m, int ok)
{
    (void)cycle, (void)ok;
    rx_check_t *x = ctx;
    const ni_msg_t *o = m->seq < x->cap[m->src] ? ni_msg(x->ni, x->ids[m->src][m->seq]) : NULL;
    if (!o || o->src != m->src || o->seq != m->seq || o->dst != m->dst || o->len != m->len ||
        memcmp(o->data, m->data, m->len))
        x->corrupt++;
}

/* One run; -1 with a message in err (DEV_ERR_LEN) when it cannot. */
static int run_one(const run_cfg_t *c, run_res_t *r, char *err)
{
    lockstep_t ls;
    const dev_design_t *d = rnp_open(c->endpoints, c->models, &ls, err);
    if (!d)
        return -1;
    const rnpnet_topo_t *t = rnpnet_topo_of(d);
    prng_t rng;
    prng_seed(&rng, c->seed);
    ni_policy_t pol = {.retry_limit = 60,
                       .backoff_max = 64,
                       .use_lft = c->lft,
                       .perm_stage = c->perm_stage,
                       .trial_attempts = 10};
    ni_t *ni = ni_create(t, &pol, c->seed, c->backchan);
    uint64_t *in = calloc(d->nports, sizeof *in);
    rx_check_t x = {ni, calloc(t->n, sizeof *x.ids), calloc(t->n, sizeof *x.cap), 0};
    int rc = -1;
    if (!ni || !in || !x.ids || !x.cap) {
        snprintf(err, DEV_ERR_LEN, "out of memory");
        goto out;
    }
    ni_set_callbacks(ni, &x, NULL, NULL, rx_check);
    dev_write_t init = {RNPNET_NETCFG, 0x1234u | ((uint64_t)c->backchan << 16), 0x1FFFF};
    ls_reset(&ls, &init, 1);
    for (unsigned i = 0; i < c->faults; i++) {
        rnpnet_fault_t x;
        char text[96], cmd[110];
        random_fault(&rng, t, c->fault_kind, &x);
        rnpnet_fault_format(&x, text, sizeof text);
        snprintf(cmd, sizeof cmd, "fault %s", text);
        for (unsigned k = 0; k < ls.n; k++)
            dev_control(ls.m[k], cmd, err, DEV_ERR_LEN);
    }
    uint64_t stop = c->cycles - c->cycles / 5, offered = 0;
    for (uint64_t now = 0; now < c->cycles; now++) {
        if (now < stop)
            for (unsigned e = 0; e < t->n; e++)
                if (prng_chance(&rng, 1, c->gap)) {
                    unsigned dst = rnp_pat_dst(c->pattern, e, t->n, &rng);
                    const ni_msg_t *m = dst != e ? ni_send(ni, now, e, dst, 8) : NULL;
                    if (m && rx_note(&x, m) < 0) {
                        snprintf(err, DEV_ERR_LEN, "out of memory");
                        goto out;
                    }
                    offered += m != NULL;
                }
        dev_write_t w;
        ls_set_inputs(&ls, in);
        ls_sample(&ls);
        if (ni_cycle(ni, now, ls.out[ls.n - 1], in, &w))
            ls_reg_write(&ls, &w);
        ls_tick(&ls, err, DEV_ERR_LEN);
    }
    const ni_stats_t *s = ni_stats(ni);
    memset(r, 0, sizeof *r);
    r->sent = s->sent;
    r->delivered = s->delivered;
    r->failed = s->failed;
    r->delivered_frac = s->sent ? (double)s->delivered / (double)s->sent : 0;
    r->retries = s->delivered ? (double)s->attempts / (double)(s->delivered + s->failed) - 1.0 : 0;
    r->latency = s->delivered ? (double)s->latency_sum / (double)s->delivered : 0;
    r->throughput = (double)s->delivered / (double)stop / t->n;
    r->offered = (double)offered / (double)stop / t->n;
    r->masked_end = ni_masked_now(ni);
    rc = 0;
    if (x.corrupt) { /* a corrupted delivery fails the run, and so the experiment */
        snprintf(err, DEV_ERR_LEN, "%llu corrupted messages delivered (seed %llu, %u faults)",
                 (unsigned long long)x.corrupt, (unsigned long long)c->seed, c->faults);
        rc = -1;
    }
out:
    ls_close(&ls);
    ni_free(ni);
    free(in);
    for (unsigned e = 0; x.ids && e < t->n; e++)
        free(x.ids[e]);
    free(x.ids), free(x.cap);
    dev_design_release(d);
    return rc;
}

static FILE *open_csv(const exp_opts_t *o, const char *name, const char *header)
{
    mkdir("build", 0777);
    mkdir(o->outdir, 0777);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.csv", o->outdir, name);
    FILE *f = fopen(path, "w");
    if (f)
        fprintf(f, "%s\n", header);
    else
        fprintf(stderr, "ftsim experiment: cannot write %s\n", path);
    return f;
}

static void progress(const exp_opts_t *o, unsigned i, unsigned n)
{
    if (o->quiet || !isatty(2))
        return;
    unsigned w = 30, k = n ? i * w / n : w;
    fprintf(stderr, "\r  [%.*s%*s] %u/%u runs", (int)k, "##############################",
            (int)(w - k), "", i, n);
    if (i == n)
        fputc('\n', stderr);
}

static const char *const cfg_names[4] = {"plain", "lft", "backchan", "lft+backchan"};
static const char *const pol_names[3] = {"no table", "naive (mask at first)", "FT-DRB stages"};
static const unsigned load_gaps[] = {400, 200, 100, 60, 40};
static const unsigned load_faults[] = {0, 1, 4, 16};

enum { X_LOAD, X_PATTERNS, X_POLICY };

/* An experiment as a campaign (harness/core/campaign.h): its runs by index, the report's
 * CSV file. */
typedef struct rcamp {
    const exp_opts_t *o;
    int which;
    unsigned n; /* runs */
    FILE *csv;
    int parallel; /* the runs in worker processes: the progress bar is drawn here */
} rcamp_t;

/* Run i's configuration: rnp-load by configuration, fault count, load; rnp-patterns by
 * pattern, fault-free or not; rnp-policy by fault kind, policy. */
static void cfg_of(const rcamp_t *k, unsigned i, run_cfg_t *c)
{
    const exp_opts_t *o = k->o;
    *c = (run_cfg_t){.endpoints = 64,
                     .fault_kind = FK_MIXED,
                     .pattern = PAT_UNIFORM,
                     .gap = 60,
                     .backchan = 1,
                     .lft = 1,
                     .perm_stage = 3,
                     .cycles = o->cycles,
                     .seed = o->seed,
                     .models = o->models};
    if (k->which == X_LOAD) {
        unsigned cf = i / 20, fi = i / 5 % 4;
        c->faults = load_faults[fi];
        c->gap = load_gaps[i % 5];
        c->backchan = cf >= 2;
        c->lft = cf & 1;
        c->seed = o->seed + fi;
    } else if (k->which == X_PATTERNS) {
        c->pattern = i / 2;
        c->faults = i % 2 ? 4 : 0;
    } else {
        unsigned pl = i % 3;
        c->faults = 12;
        c->fault_kind = FK_PERMANENT + i / 3;
        c->lft = pl > 0;
        c->perm_stage = pl == 1 ? 1 : 3;
    }
}

/* A campaign run: run i, its results as a record. */
static int r_run(void *ctx, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const rcamp_t *k = ctx;
    run_cfg_t c;
    run_res_t r;
    char why[DEV_ERR_LEN];
    cfg_of(k, i, &c);
    if (!k->parallel)
        progress(k->o, i, k->n);
    if (run_one(&c, &r, why) < 0) {
        campaign_w_str(w, "error", why);
        return 0;
    }
    campaign_w_dbl(w, "offered", r.offered);
    campaign_w_dbl(w, "throughput", r.throughput);
    campaign_w_dbl(w, "delivered_frac", r.delivered_frac);
    campaign_w_dbl(w, "retries", r.retries);
    campaign_w_dbl(w, "latency", r.latency);
    campaign_w_u64(w, "sent", r.sent);
    campaign_w_u64(w, "delivered", r.delivered);
    campaign_w_u64(w, "failed", r.failed);
    campaign_w_u64(w, "masked_end", r.masked_end);
    return 0;
}

/* Run i's CSV line and table row. */
static void r_print(const rcamp_t *k, unsigned i, const run_res_t *r)
{
    run_cfg_t c;
    cfg_of(k, i, &c);
    if (k->which == X_LOAD) {
        unsigned cf = i / 20, g = i % 5;
        fprintf(k->csv, "%s,%u,%u,%.5f,%.5f,%.4f,%.3f,%.1f\n", cfg_names[cf], c.faults, c.gap,
                r->offered, r->throughput, r->delivered_frac, r->retries, r->latency);
        if (g == 2 || g == 4)
            printf("| %s | %u | %.4f | %.4f | %.3f | %.2f | %.0f |\n", cfg_names[cf], c.faults,
                   r->offered, r->throughput, r->delivered_frac, r->retries, r->latency);
    } else if (k->which == X_PATTERNS) {
        fprintf(k->csv, "%s,%u,%.5f,%.5f,%.4f,%.3f,%.1f\n", pat_names[c.pattern], c.faults,
                r->offered, r->throughput, r->delivered_frac, r->retries, r->latency);
        printf("| %s | %u | %.4f | %.3f | %.2f | %.0f |\n", pat_names[c.pattern], c.faults,
               r->throughput, r->delivered_frac, r->retries, r->latency);
    } else {
        fprintf(k->csv, "%s,%s,%.5f,%.4f,%.3f,%.1f,%llu\n", fk_names[c.fault_kind],
                pol_names[i % 3], r->throughput, r->delivered_frac, r->retries, r->latency,
                (unsigned long long)r->masked_end);
        printf("| %s | %s | %.4f | %.3f | %.2f | %.0f | %llu |\n", fk_names[c.fault_kind],
               pol_names[i % 3], r->throughput, r->delivered_frac, r->retries, r->latency,
               (unsigned long long)r->masked_end);
    }
}

/* A campaign record, in run order, into the table and the CSV; a run that could not run ends
 * the experiment. */
static int r_take(void *ctx, unsigned i, const char *text, char *err, size_t errlen)
{
    const rcamp_t *k = ctx;
    campaign_rec_t rec;
    if (campaign_rec_parse(&rec, text, err, errlen) < 0)
        return -1;
    int rc = 0;
    if (campaign_rec_has(&rec, "error")) {
        fprintf(stderr, "ftsim experiment: %s\n", campaign_rec_str(&rec, "error"));
        rc = 1;
    } else {
        run_res_t r = {.offered = campaign_rec_dbl(&rec, "offered"),
                       .throughput = campaign_rec_dbl(&rec, "throughput"),
                       .delivered_frac = campaign_rec_dbl(&rec, "delivered_frac"),
                       .retries = campaign_rec_dbl(&rec, "retries"),
                       .latency = campaign_rec_dbl(&rec, "latency"),
                       .sent = campaign_rec_u64(&rec, "sent"),
                       .delivered = campaign_rec_u64(&rec, "delivered"),
                       .failed = campaign_rec_u64(&rec, "failed"),
                       .masked_end = campaign_rec_u64(&rec, "masked_end")};
        if (rec.bad) {
            snprintf(err, errlen, "run %u: a record without '%s'", i, rec.bad);
            rc = -1;
        } else {
            r_print(k, i, &r);
        }
    }
    campaign_rec_free(&rec);
    return rc;
}

static void r_progress(void *ctx, unsigned done, unsigned total)
{
    const rcamp_t *k = ctx;
    progress(k->o, done, total);
}

/* What the table says before its rows; the CSV's header. */
static void r_head(const rcamp_t *k)
{
    const exp_opts_t *o = k->o;
    unsigned long long cyc = (unsigned long long)o->cycles;
    if (k->which == X_LOAD) {
        printf("rnp-load: 64 endpoints, uniform traffic, 8-byte messages, %llu cycles a run, "
               "faults injected at cycle 0 (mixed kinds)\n\n",
               cyc);
        printf("| config | faults | offered (msg/ep/cycle) | accepted | delivered | retries/msg "
               "| latency (cycles) |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|\n");
    } else if (k->which == X_PATTERNS) {
        printf("rnp-patterns: 64 endpoints, a message every ~60 cycles per endpoint, link fault "
               "table and backward channel on, %llu cycles a run\n\n",
               cyc);
        printf("| pattern | faults | accepted | delivered | retries/msg | latency "
               "|\n|---|---:|---:|---:|---:|---:|\n");
    } else {
        printf("rnp-policy: 64 endpoints, 12 faults on router-to-router links, a message every "
               "~60 cycles per endpoint, backward channel on, %llu cycles a run\n\n",
               cyc);
        printf("| faults | policy | accepted | delivered | retries/msg | latency | links masked "
               "at end |\n");
        printf("|---|---|---:|---:|---:|---:|---:|\n");
    }
}

int experiment_rnp(const char *name, const exp_opts_t *o, campaign_t *c)
{
    static const char *const names[] = {"rnp-load", "rnp-patterns", "rnp-policy"};
    static const char *const csv_head[] = {
        "config,faults,gap,offered,throughput,delivered_frac,retries,latency",
        "pattern,faults,offered,throughput,delivered_frac,retries,latency",
        "faults,policy,throughput,delivered_frac,retries,latency,masked_end"};
    static const unsigned runs[] = {4 * 4 * 5, 2 * NPAT, 9};
    if (!strcmp(name, "ftdrb-rnp"))
        return experiment_ftdrb_rnp(o, c);
    rcamp_t k = {.o = o, .which = -1, .parallel = campaign_parallel(c)};
    for (int x = 0; x < 3; x++)
        if (!strcmp(name, names[x]))
            k.which = x;
    if (k.which < 0)
        return -1;
    k.n = runs[k.which];
    campaign_param(c, "experiment", "%s", name);
    campaign_param(c, "cycles", "%llu", (unsigned long long)o->cycles);
    campaign_param(c, "seed", "%llu", (unsigned long long)o->seed);
    campaign_param(c, "model", "%s",
                   o->models == LS_BOTH  ? "both"
                   : o->models == LS_RTL ? "rtl"
                                         : "csim");
    campaign_param(c, "out", "%s", o->outdir);
    if (campaign_reporting(c)) {
        if (!(k.csv = open_csv(o, name, csv_head[k.which])))
            return 2;
        r_head(&k);
    }
    campaign_hooks_t h = {r_run, r_take, r_progress};
    char err[600];
    int rc = campaign_exec(c, k.n, &h, &k, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "ftsim experiment: %s\n", err);
    if (rc == 0 && !campaign_merged(c))
        progress(o, k.n, k.n);
    if (k.csv)
        fclose(k.csv);
    if (rc == 0 && k.which == X_LOAD && campaign_reporting(c))
        printf("\n(rows at two of the five loads; all in %s/rnp-load.csv)\n", o->outdir);
    return rc ? 2 : 0;
}
