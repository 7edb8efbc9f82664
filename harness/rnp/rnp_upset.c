/* rnp_upset.c — the host as the monitoring subsystem of an RNP network (watchdog, self-test of
 * the pairs in use, recovery from the configuration it keeps) and one upset-campaign run on it
 * (rnp_upset.h; the reasoning behind every bound: harness/rnp/README.md, "Monitoring"). */
#include "rnp_upset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "prng.h"
#include "rn1_dev.h"
#include "rnpni.h"
#include "rnpnet.h"

#define MSG_LEN      8u /* data and test messages alike */
#define NETSEED_MASK 0xFFFFu
#define NP_ATTEMPTS  30u    /* no progress: a source's oldest message tried this often */
#define NO_GIVE_UP   1000000u /* the sources' retry limit: in effect none */
#define L_TEST       1500u  /* a test message: first attempt to ACK, at most (README) */
#define LATE_MUL     2u     /* late: beyond LATE_MUL x the golden run's largest latency ... */
#define LATE_ADD     200u   /* ... + LATE_ADD cycles */
#define DRAIN_MAX    40000u /* a drain that has not emptied the network by then is given up */
#define MAX_ROUNDS   8u     /* re-probe rounds of one recovery before the monitor gives up */
#define WQ_CAP       4096u
#define SIG_NONE     (~0ull) /* an allocated backward port that no forward port owns */

enum { K_DATA, K_TEST, K_PROBE };

typedef struct mrec {
    uint8_t kind, rxn, corrupt, misrouted, verdict; /* verdict: test given a pass or fail */
    uint64_t rx_cycle;
} mrec_t;

typedef struct idlist {
    uint32_t *id;
    unsigned n, cap, head; /* head: the oldest message not done */
} idlist_t;

typedef struct sys {
    const rnp_upset_cfg_t *c;
    const rnpnet_topo_t *t;
    int golden;
    lockstep_t ls;
    int ls_open;
    ni_t *ni;
    uint64_t *in, *dbg;
    prng_t traffic;
    uint32_t rate_ppm;
    const uint16_t *partners;
    mrec_t *rec;
    size_t nrec, caprec;
    idlist_t *per_src; /* every message of a source, by sequence number */
    uint8_t *inuse;    /* pairs (s, d) data used since the last self-test round */
    ni_path_t *last_path;
    /* the monitor */
    uint64_t *kept; /* per router: the CFG word as the monitor loaded it, masks included */
    dev_write_t wq[WQ_CAP];
    unsigned wq_head, wq_len;
    uint64_t *sig;   /* per router x 16 resources (8 backward, 8 forward): last signature */
    uint8_t *sig_n;  /* consecutive watchdog samples with that signature */
    uint32_t *tests; /* test and probe messages not yet given a verdict */
    unsigned ntests, captests;
    uint32_t *np_id; /* per source: the message id + 1 last flagged as no progress */
    /* recovery */
    int recovering, probing, need_round;
    unsigned probe_left, probe_failed, rounds;
    uint8_t *rewritten;
    int all_rewritten; /* this recovery has rewritten every router's configuration */
    uint64_t last_action, rec_end;
    /* what the run saw */
    uint64_t flip_at;
    int flipped;
    uint64_t det[UPSET_NDETECTORS];
    rnp_upset_stats_t st;
    int diverged;
    char err[DEV_ERR_LEN];
} sys_t;

void rnp_upset_cfg_default(rnp_upset_cfg_t *c)
{
    *c = (rnp_upset_cfg_t){.endpoints = 64,
                         .load = 0.5,
                         .warmup = 3000,
                         .window = 20000,
                         .t_wd = 1000,
                         .t_st = 5000,
                         .selftest = 1,
                         .watchdog = 1,
                         .models = LS_CSIM,
                         .seed = 1};
}

/* ---- sites ------------------------------------------------------------------------------- */

static int in_column(const char *column, const char *name)
{
    static const char *const config[] = {"swallow", "disable", "seed", "mode", "backchan", NULL};
    if (!strcmp(column, "all"))
        return 1;
    if (!strcmp(column, "lfsr"))
        return !strcmp(name, "lfsr");
    if (!strcmp(column, "config")) {
        for (unsigned i = 0; config[i]; i++)
            if (!strcmp(name, config[i]))
                return 1;
        return 0;
    }
    if (!strcmp(column, "port"))
        return !strcmp(name, "alloc") || !strcmp(name, "rot") ||
               ((name[0] == 'f' || name[0] == 'b') && name[1] >= '0' && name[1] <= '9');
    return 0;
}

static const dev_design_t *net_of(const rnp_upset_cfg_t *c, char *err, size_t errlen)
{
    return rnpnet_design(c->endpoints, c->endpoints >= 256 ? 1 : 0, 1, err, errlen);
}

/* Sites are enumerated without building the network (a campaign asks for each one): the
 * routers are stages x n/4 (one extra stage from 256 endpoints, as net_of builds them), each
 * with RN1's map under its prefix, as dev_upset_format writes a network's upsets. */
unsigned rnp_upset_site(const rnp_upset_cfg_t *c, const char *column, unsigned k, char *buf, size_t len)
{
    unsigned e = c->endpoints, stages = c->endpoints >= 256 ? 1 : 0;
    if (e < 16 || e > 1024 || (e & (e - 1)) || !(e & 0x55555555u))
        return 0;
    for (unsigned x = e; x > 1; x >>= 2)
        stages++;
    const dev_design_t *p = &rn1_design;
    unsigned n = 0, nrouters = stages * (e / 4);
    for (unsigned r = 0; r < nrouters; r++)
        for (unsigned i = 0; i < p->nupsets; i++) {
            const dev_upset_t *u = &p->upsets[i];
            if (!in_column(column, u->name))
                continue;
            unsigned cells = (u->count ? u->count : 1u) * u->width;
            if (k >= n && k < n + cells && buf && len) {
                dev_upset_bit_t s = {u, i, 0, (k - n) / u->width, (uint8_t)((k - n) % u->width)};
                char one[64];
                dev_upset_format(p, &s, one, sizeof one);
                snprintf(buf, len, "r%u.%s", r, one);
            }
            n += cells;
        }
    return n;
}

/* ---- the ledger's records ------------------------------------------------------------------ */

static mrec_t *rec_of(sys_t *s, uint32_t id) { return id < s->nrec ? &s->rec[id] : NULL; }

/* Append id to a growing array (first capacity `first`, then doubling): 0, or -1 out of memory. */
static int push_id(uint32_t **a, unsigned *n, unsigned *cap, unsigned first, uint32_t id)
{
    if (*n == *cap) {
        unsigned c = *cap ? *cap * 2 : first;
        uint32_t *x = realloc(*a, c * sizeof *x);
        if (!x)
            return -1;
        *a = x;
        *cap = c;
    }
    (*a)[(*n)++] = id;
    return 0;
}

static int add_rec(sys_t *s, const ni_msg_t *m, int kind)
{
    if (m->id >= s->caprec) {
        size_t cap = s->caprec ? s->caprec * 2 : 4096;
        while (cap <= m->id)
            cap *= 2;
        mrec_t *r = realloc(s->rec, cap * sizeof *r);
        if (!r)
            return -1;
        memset(r + s->caprec, 0, (cap - s->caprec) * sizeof *r);
        s->rec = r;
        s->caprec = cap;
    }
    s->rec[m->id].kind = (uint8_t)kind;
    s->nrec = m->id + 1u > s->nrec ? m->id + 1u : s->nrec;
    idlist_t *l = &s->per_src[m->src];
    return push_id(&l->id, &l->n, &l->cap, 256, m->id); /* index = sequence number */
}

static mrec_t *rec_by_seq(sys_t *s, unsigned src, unsigned seq, uint32_t *id)
{
    if (src >= s->t->n)
        return NULL;
    idlist_t *l = &s->per_src[src];
    /* the sequence number is 16 bits: the latest message that has it */
    for (unsigned i = seq; i < l->n; i += 65536u)
        if (i + 65536u >= l->n) {
            *id = l->id[i];
            return rec_of(s, l->id[i]);
        }
    return NULL;
}

static int track_test(sys_t *s, uint32_t id)
{
    return push_id(&s->tests, &s->ntests, &s->captests, 512, id);
}

/* ---- the monitor's actions ------------------------------------------------------------------ */

static void wq_push(sys_t *s, dev_write_t w)
{
    if (s->wq_len < WQ_CAP)
        s->wq[(s->wq_head + s->wq_len++) % WQ_CAP] = w;
}

static void rewrite_cfg(sys_t *s, unsigned r)
{
    wq_push(s, (dev_write_t){r << 8, s->kept[r], RNPNET_CFG_MASK});
    s->st.rewrites++;
}

static void reset_router(sys_t *s, unsigned r)
{
    char cmd[32], err[DEV_ERR_LEN];
    snprintf(cmd, sizeof cmd, "reset r%u", r);
    for (unsigned k = 0; k < s->ls.n; k++)
        if (dev_control(s->ls.m[k], cmd, err, sizeof err) < 0)
            snprintf(s->err, sizeof s->err, "%s", err);
    /* the reset loaded the network's configuration; the masks are the monitor's to restore */
    if (s->kept[r] & 0xFF00u)
        wq_push(s, (dev_write_t){r << 8, s->kept[r], 0xFF00u});
    s->st.resets++;
}

static void send_probe_round(sys_t *s, uint64_t cycle);

/* A detector fired on `routers` (the failing path, or the hung router): record it, then
 * recover them from the kept configuration (a router already rewritten in this recovery, or
 * one the watchdog named, is reset), then re-probe. */
static void detect(sys_t *s, upset_detector_t det, uint64_t cycle, const unsigned *routers,
                   unsigned nr, int reset, int record)
{
    if (s->golden)
        s->st.golden_detections++;
    if (record && s->flipped && !s->det[det])
        s->det[det] = cycle;
    if (!s->recovering) {
        s->recovering = 1;
        s->rounds = 0;
        s->all_rewritten = 0;
        memset(s->rewritten, 0, s->t->nrouters);
    }
    /* The first detection of a recovery rewrites every router's configuration, not only the
     * path's: the host keeps all of it, the writes are one a router (48 cycles on rnpnet64),
     * and an upset the failing attempt's STATUS words cannot name (a router past the point
     * where it stopped, a swallow count that moved the path) is then gone too; as FTGM's
     * recovery reloads the whole NCP and its tables, not a routine. The routers named again
     * within the same recovery are reset. */
    if (!reset && !s->all_rewritten) {
        for (unsigned r = 0; r < s->t->nrouters; r++) {
            rewrite_cfg(s, r);
            s->rewritten[r] = 1;
        }
        s->all_rewritten = 1;
        nr = 0;
    }
    for (unsigned i = 0; i < nr; i++) {
        unsigned r = routers[i];
        if (r >= s->t->nrouters)
            continue;
        if (reset || s->rewritten[r])
            reset_router(s, r);
        else
            rewrite_cfg(s, r);
        s->rewritten[r] = 1;
    }
    s->last_action = cycle;
    s->need_round = 1; /* sent once the rewrites are in (sys_cycle_out) */
}

/* The routers an attempt's STATUS words named, and the one where it stopped. */
static unsigned path_routers(const sys_t *s, const ni_path_t *p, unsigned *out)
{
    unsigned n = p->n < s->t->stages ? p->n + 1 : s->t->stages;
    for (unsigned i = 0; i < n; i++)
        out[i] = p->router[i];
    return n;
}

/* ---- self-test ----------------------------------------------------------------------------- */

static void test_payload(unsigned src, unsigned dst, uint8_t *p)
{
    for (unsigned i = 0; i < MSG_LEN; i++)
        p[i] = (uint8_t)(0xA5u ^ (i * 0x3Bu) ^ src ^ (dst << 3));
}

static void send_test(sys_t *s, uint64_t cycle, unsigned src, unsigned dst, int kind)
{
    uint8_t data[MSG_LEN];
    test_payload(src, dst, data);
    const ni_msg_t *m = ni_send_data(s->ni, cycle, src, dst, MSG_LEN, data);
    if (!m || add_rec(s, m, kind) < 0 || track_test(s, m->id) < 0)
        return;
    s->st.test_msgs++;
    if (kind == K_PROBE) {
        s->st.reprobes++;
        s->probe_left++;
    }
}

/* The periodic self-test: every T_st cycles each source sends one test message over every
 * pair it used since its last round. The sources take their turns spread over the interval
 * (source e at phase e x T_st / n), so the tests do not all meet at the destinations at once. */
static void selftest_round(sys_t *s, uint64_t cycle)
{
    unsigned n = s->t->n;
    uint64_t t_st = s->c->t_st, step = t_st / n;
    if (cycle < t_st)
        return;
    for (unsigned a = 0; a < n; a++) {
        if (cycle % t_st != (a * step) % t_st)
            continue;
        for (unsigned b = 0; b < n; b++)
            if (s->inuse[a * n + b]) {
                s->inuse[a * n + b] = 0;
                send_test(s, cycle, a, b, K_TEST);
            }
    }
}

/* A recovery's re-probe: every pair of the traffic (the partners of every source). */
static void send_probe_round(sys_t *s, uint64_t cycle)
{
    s->need_round = 0;
    if (s->rounds >= MAX_ROUNDS) {
        s->recovering = 0; /* given up: the recovery ends unconfirmed */
        return;
    }
    s->rounds++;
    s->probing = 1;
    s->probe_failed = 0;
    s->probe_left = 0;
    for (unsigned a = 0; a < s->t->n; a++)
        for (unsigned k = 0; k < RNP_UPSET_PARTNERS; k++)
            send_test(s, cycle, a, s->partners[a * RNP_UPSET_PARTNERS + k], K_PROBE);
    if (!s->probe_left)
        s->probing = 0;
}

static void probe_done(sys_t *s, uint64_t cycle, int ok)
{
    if (!ok)
        s->probe_failed++;
    if (!s->probe_left || --s->probe_left)
        return;
    s->probing = 0;
    if (!s->probe_failed && !s->need_round) {
        s->recovering = 0;
        s->rec_end = cycle;
    } else if (s->rounds >= MAX_ROUNDS) {
        s->recovering = 0; /* given up: the recovery ends unconfirmed */
        s->need_round = 0;
    } else {
        s->need_round = 1;
    }
}

/* A test or probe message failed (an attempt corrupted or dropped, a wrong or missing
 * delivery, late, given up): a self-test detection (a probe's: only with the self-test on;
 * with it off the failure escalates the recovery all the same). */
static void test_failed(sys_t *s, uint64_t cycle, mrec_t *r, const ni_path_t *p)
{
    if (r->verdict)
        return;
    r->verdict = 2;
    unsigned rt[NI_MAX_STAGES + 1], nr = p ? path_routers(s, p, rt) : 0;
    if (r->kind == K_PROBE)
        probe_done(s, cycle, 0);
    detect(s, UPSET_DET_SELFTEST, cycle, rt, nr, 0, s->c->selftest);
}

static void test_passed(sys_t *s, uint64_t cycle, mrec_t *r)
{
    if (r->verdict)
        return;
    r->verdict = 1;
    if (r->kind == K_PROBE)
        probe_done(s, cycle, 1);
}

/* Late tests: every outstanding test is looked at every 16 cycles. */
static void check_tests(sys_t *s, uint64_t cycle)
{
    unsigned w = 0;
    for (unsigned i = 0; i < s->ntests; i++) {
        uint32_t id = s->tests[i];
        mrec_t *r = rec_of(s, id);
        const ni_msg_t *m = ni_msg(s->ni, id);
        if (!r || !m || r->verdict)
            continue;
        uint64_t from = m->t_first ? m->t_first : m->t_created;
        uint64_t bound = m->t_first ? L_TEST : 4u * L_TEST;
        if (m->state == 0 && cycle > from + bound) {
            test_failed(s, cycle, r, &s->last_path[m->src]);
            continue;
        }
        s->tests[w++] = id;
    }
    s->ntests = w;
}

/* ---- watchdog ------------------------------------------------------------------------------- */

static int is_connected(unsigned state)
{
    return state == 2 || state == 4 || state == 6 || state == 7;
}

/* Every t_wd cycles: each router's debug words. A backward port allocated with the same owner
 * (the owning forward port's whole debug word, or no owner at all) at consecutive samples
 * T_wd apart has been held longer than any legal connection lasts; so has a forward port out
 * of IDLE with the same debug word. No owner: two samples; an owner: three (two different
 * legal connections can show the same word, about once in 2^9). A source whose oldest message
 * has been tried NP_ATTEMPTS times makes no progress. */
static void watchdog(sys_t *s, uint64_t cycle)
{
    const rnpnet_topo_t *t = s->t;
    dev_debug(s->ls.m[s->ls.n - 1], s->dbg);
    for (unsigned r = 0; r < t->nrouters; r++) {
        const uint64_t *w = &s->dbg[r * RN1_NDEBUG];
        uint64_t alloc = w[1] & 0xFFu;
        int hung = 0;
        for (unsigned j = 0; j < 16; j++) {
            uint64_t sig = 0;
            int held = 0, need = 3;
            if (j < 8 && (alloc >> j & 1u)) {
                held = 1;
                sig = SIG_NONE;
                for (unsigned p = 0; p < 8; p++) {
                    uint64_t pw = w[3 + p] & 0xFFFFFFFFu;
                    if (is_connected(pw & 15u) && ((pw >> 4) & 7u) == j)
                        sig = pw | (uint64_t)p << 32;
                }
                need = sig == SIG_NONE ? 2 : 3;
            } else if (j >= 8 && (w[3 + j - 8] & 15u) != 0) {
                held = 1;
                sig = w[3 + j - 8] & 0xFFFFFFFFu;
            }
            unsigned x = r * 16 + j;
            if (!held) {
                s->sig_n[x] = 0;
                continue;
            }
            s->sig_n[x] = (uint8_t)(s->sig_n[x] && s->sig[x] == sig ? s->sig_n[x] + 1u : 1u);
            s->sig[x] = sig;
            if (s->sig_n[x] >= need)
                hung = 1;
        }
        if (hung) {
            memset(&s->sig_n[r * 16], 0, 16);
            detect(s, UPSET_DET_WATCHDOG, cycle, &r, 1, 1, 1);
        }
    }
    for (unsigned e = 0; e < t->n; e++) {
        idlist_t *l = &s->per_src[e];
        while (l->head < l->n) {
            const ni_msg_t *m = ni_msg(s->ni, l->id[l->head]);
            if (m && m->state == 0)
                break;
            l->head++;
        }
        if (l->head == l->n)
            continue;
        const ni_msg_t *m = ni_msg(s->ni, l->id[l->head]);
        if (m->attempts >= NP_ATTEMPTS && s->np_id[e] != m->id + 1u) {
            s->np_id[e] = m->id + 1u;
            unsigned rt[NI_MAX_STAGES + 1], nr = path_routers(s, &s->last_path[e], rt);
            detect(s, UPSET_DET_WATCHDOG, cycle, rt, nr, 0, 1);
        }
    }
}

/* ---- the endpoints' hooks ------------------------------------------------------------------- */

static void on_rx(void *ctx, uint64_t cycle, const ni_msg_t *m, int ok)
{
    (void)ok;
    sys_t *s = ctx;
    uint32_t id;
    mrec_t *r = rec_by_seq(s, m->src, m->seq, &id);
    if (!r) /* nothing sent has that source and number */
        return;
    const ni_msg_t *o = ni_msg(s->ni, id);
    int bad = !o || o->dst != m->dst || o->len != m->len || memcmp(o->data, m->data, m->len);
    if (r->rxn < 255)
        r->rxn++;
    if (r->rxn == 1)
        r->rx_cycle = cycle;
    if (bad) /* a test's verdict comes with its ACK (on_done), its attempt's path known */
        r->corrupt = 1;
}

static void on_done(void *ctx, uint64_t cycle, const ni_msg_t *m, int delivered)
{
    sys_t *s = ctx;
    mrec_t *r = rec_of(s, m->id);
    if (!r)
        return;
    if (r->kind == K_DATA) {
        if (!delivered) { /* retry exhaustion: the protocol's own detector */
            unsigned rt[NI_MAX_STAGES + 1], nr = path_routers(s, &s->last_path[m->src], rt);
            detect(s, UPSET_DET_PROTOCOL, cycle, rt, nr, 0, 1);
        }
        return;
    }
    if (delivered && r->rxn && !r->corrupt)
        test_passed(s, cycle, r);
    else
        test_failed(s, cycle, r, &s->last_path[m->src]);
}

static void on_attempt(void *ctx, uint64_t cycle, const ni_msg_t *m, ni_outcome_t out,
                       const ni_path_t *p, int named)
{
    sys_t *s = ctx;
    mrec_t *r = rec_of(s, m->id);
    s->last_path[m->src] = *p;
    if (!r)
        return;
    if (r->kind == K_DATA)
        s->st.data_attempts++;
    else
        s->st.test_attempts++;
    if (out != NI_CORRUPTED && out != NI_DROPPED)
        return;
    if (r->kind == K_DATA && out == NI_DROPPED)
        r->misrouted = 1; /* an attempt that vanished on the way */
    /* an attempt under way when the monitor last rewrote or reset a router may have been cut
     * by the recovery itself: not a detection */
    if (s->last_action && p->t0 <= s->last_action)
        return;
    unsigned rt[NI_MAX_STAGES + 1], nr = path_routers(s, p, rt);
    if (r->kind != K_DATA)
        test_failed(s, cycle, r, p);
    else if (named)
        detect(s, UPSET_DET_PROTOCOL, cycle, rt, nr, 0, 1);
}

static void on_misrx(void *ctx, uint64_t cycle, unsigned src, unsigned seq, unsigned at)
{
    (void)at, (void)cycle;
    sys_t *s = ctx;
    uint32_t id;
    mrec_t *r = rec_by_seq(s, src, seq, &id);
    if (!r)
        return;
    /* a test's own attempt ends in a NAK and fails there, with its path */
    r->misrouted = 1;
}

/* ---- one system: network, endpoints, monitor ------------------------------------------------- */

static void sys_free(sys_t *s)
{
    if (s->ls_open)
        ls_close(&s->ls);
    ni_free(s->ni);
    for (unsigned e = 0; s->per_src && e < s->t->n; e++)
        free(s->per_src[e].id);
    free(s->per_src), free(s->in), free(s->dbg), free(s->rec), free(s->inuse);
    free(s->last_path), free(s->kept), free(s->sig), free(s->sig_n), free(s->tests);
    free(s->np_id), free(s->rewritten);
}

static int sys_open(sys_t *s, const rnp_upset_cfg_t *c, const dev_design_t *d, unsigned models,
                    const uint16_t *partners, int golden, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->t = rnpnet_topo_of(d);
    s->golden = golden;
    s->partners = partners;
    const rnpnet_topo_t *t = s->t;
    if (ls_open(&s->ls, d, models, err, errlen) < 0)
        return -1;
    s->ls_open = 1;
    /* The sources keep every message until it is acknowledged (FTGM's host copies of the
     * send tokens): no retry limit gives a message up; a source that makes no progress is the
     * watchdog's (NP_ATTEMPTS), and the monitor recovers the network under it. */
    ni_policy_t pol = {.retry_limit = NO_GIVE_UP, .backoff_max = 64, .use_lft = 0,
                       .perm_stage = 3, .trial_attempts = 10};
    s->ni = ni_create(t, &pol, c->seed, 1);
    s->in = calloc(d->nports, sizeof *s->in);
    s->dbg = calloc(d->ndebug, sizeof *s->dbg);
    s->per_src = calloc(t->n, sizeof *s->per_src);
    s->inuse = calloc((size_t)t->n * t->n, 1);
    s->last_path = calloc(t->n, sizeof *s->last_path);
    s->kept = calloc(t->nrouters, sizeof *s->kept);
    s->sig = calloc((size_t)t->nrouters * 16, sizeof *s->sig);
    s->sig_n = calloc((size_t)t->nrouters * 16, 1);
    s->np_id = calloc(t->n, sizeof *s->np_id);
    s->rewritten = calloc(t->nrouters, 1);
    if (!s->ni || !s->in || !s->dbg || !s->per_src || !s->inuse || !s->last_path || !s->kept ||
        !s->sig || !s->sig_n || !s->np_id || !s->rewritten) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ni_set_callbacks(s->ni, s, NULL, on_done, on_rx);
    ni_set_hooks(s->ni, on_attempt, on_misrx);
    prng_seed(&s->traffic, c->seed ^ 0x7472616666696Full);
    double ppm = c->load * RNP_UPSET_SAT_PPM;
    s->rate_ppm = ppm < 0 ? 0 : ppm > 1e6 ? 1000000u : (uint32_t)(ppm + 0.5);
    /* boot: the network's configuration, which the monitor keeps as it loaded it */
    uint16_t netseed = (uint16_t)(c->seed & NETSEED_MASK);
    dev_write_t init = {RNPNET_NETCFG, netseed | (1ull << 16), 0x1FFFF};
    ls_reset(&s->ls, &init, 1);
    for (unsigned r = 0; r < t->nrouters; r++)
        s->kept[r] = rnpnet_router_cfg(t, netseed, 1, r);
    return 0;
}

/* The first half of a cycle: the hosts queue traffic and tests, the inputs go in, an upset
 * if it is due, the outputs come out. */
static void sys_cycle_in(sys_t *s, uint64_t now, int gen, const dev_upset_bit_t *flip)
{
    const rnpnet_topo_t *t = s->t;
    if (gen)
        for (unsigned e = 0; e < t->n; e++) {
            int go = prng_below(&s->traffic, 1000000u) < s->rate_ppm;
            unsigned dst =
                s->partners[e * RNP_UPSET_PARTNERS + prng_below(&s->traffic, RNP_UPSET_PARTNERS)];
            if (!go)
                continue;
            const ni_msg_t *m = ni_send(s->ni, now, e, dst, MSG_LEN);
            if (!m) { /* the source's queue is full: offered, not generated */
                s->st.refused++;
                continue;
            }
            if (add_rec(s, m, K_DATA) < 0)
                continue;
            s->st.data_msgs++;
            s->inuse[e * t->n + dst] = 1;
        }
    if (gen && s->c->selftest && s->c->t_st)
        selftest_round(s, now);
    ls_set_inputs(&s->ls, s->in);
    if (flip) {
        if (ls_upset(&s->ls, flip, s->err, sizeof s->err) == 0) {
            s->flipped = 1;
            s->flip_at = now;
        }
    }
    ls_sample(&s->ls);
    if (s->ls.n == 2 && !s->diverged) {
        char msg[DEV_ERR_LEN];
        if (ls_diverged(&s->ls, msg, sizeof msg))
            s->diverged = 1;
    }
}

/* The second half: the endpoints read and drive, the monitor looks and writes, the clock. */
static void sys_cycle_out(sys_t *s, uint64_t now)
{
    dev_write_t w;
    if (ni_cycle(s->ni, now, s->ls.out[s->ls.n - 1], s->in, &w)) {
        unsigned r = w.addr >> 8;
        if (r < s->t->nrouters && (w.addr & 0xFFu) == RN1_REG_CFG)
            s->kept[r] = (s->kept[r] & ~w.mask) | (w.data & w.mask); /* the table's masks */
        wq_push(s, w);
    }
    if (s->c->watchdog && s->c->t_wd && now && now % s->c->t_wd == 0)
        watchdog(s, now);
    if (now % 16 == 0)
        check_tests(s, now);
    if (s->wq_len) {
        ls_reg_write(&s->ls, &s->wq[s->wq_head]);
        s->wq_head = (s->wq_head + 1) % WQ_CAP;
        s->wq_len--;
    } else if (s->need_round && !s->probing) {
        send_probe_round(s, now); /* the recovery's writes are all in: re-probe */
    }
    char msg[DEV_ERR_LEN];
    if (ls_tick(&s->ls, msg, sizeof msg))
        s->diverged = 1;
}

static int sys_quiet(const sys_t *s)
{
    return ni_in_flight(s->ni) == 0 && !s->probing && !s->need_round && s->wq_len == 0;
}

/* ---- the run -------------------------------------------------------------------------------- */

static int state_equal(sys_t *g, sys_t *f)
{
    device_t *a = g->ls.m[g->ls.n - 1], *b = f->ls.m[f->ls.n - 1];
    dev_debug(a, g->dbg);
    dev_debug(b, f->dbg);
    if (memcmp(g->dbg, f->dbg, a->design->ndebug * sizeof *g->dbg))
        return 0;
    for (unsigned r = 0; r < g->t->nrouters; r++)
        if (dev_reg_read(a, r << 8 | RN1_REG_CFG) != dev_reg_read(b, r << 8 | RN1_REG_CFG))
            return 0;
    return 1;
}

static void drain(sys_t *s, uint64_t *now, uint64_t end)
{
    uint64_t t0 = *now;
    while (*now < end && !sys_quiet(s)) {
        sys_cycle_in(s, *now, 0, NULL);
        sys_cycle_out(s, *now);
        ++*now;
    }
    s->st.drain_cycles = *now - t0;
    s->st.drained = sys_quiet(s);
}

static uint64_t max_latency(const sys_t *s, int kind)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < s->nrec; i++) {
        const mrec_t *r = &s->rec[i];
        const ni_msg_t *m = ni_msg(s->ni, (uint32_t)i);
        if (!m || r->kind != kind || !r->rxn)
            continue;
        uint64_t l = kind == K_DATA ? r->rx_cycle - m->t_created
                                    : (m->t_done > m->t_first ? m->t_done - m->t_first : 0);
        mx = l > mx ? l : mx;
    }
    return mx;
}

static void ledger(const sys_t *s, uint64_t late_bound, uint64_t end, upset_result_t *r,
                   uint64_t *by_end)
{
    for (size_t i = 0; i < s->nrec; i++) {
        const mrec_t *x = &s->rec[i];
        const ni_msg_t *m = ni_msg(s->ni, (uint32_t)i);
        if (x->kind != K_DATA || !m)
            continue;
        r->generated++;
        if (x->rxn)
            r->delivered++;
        else
            r->lost++;
        r->duplicated += x->rxn > 1;
        r->corrupted += x->corrupt;
        r->misrouted += x->misrouted;
        r->late += x->rxn && x->rx_cycle - m->t_created > late_bound;
        *by_end += x->rxn && x->rx_cycle < end;
    }
}

static void partners_of(const rnp_upset_cfg_t *c, unsigned n, uint16_t *p)
{
    prng_t g;
    prng_seed(&g, c->seed ^ 0x706172746E657273ull);
    for (unsigned e = 0; e < n; e++)
        for (unsigned k = 0; k < RNP_UPSET_PARTNERS; k++) {
            unsigned d;
            int again;
            do { /* distinct partners, never the source itself */
                d = prng_below(&g, n);
                again = d == e;
                for (unsigned i = 0; i < k; i++)
                    again |= p[e * RNP_UPSET_PARTNERS + i] == d;
            } while (again);
            p[e * RNP_UPSET_PARTNERS + k] = (uint16_t)d;
        }
}

static void fill_result(const sys_t *f, uint64_t at, upset_result_t *r)
{
    memcpy(r->det_cycle, f->det, sizeof r->det_cycle);
    r->first = UPSET_DET_NONE;
    uint64_t best = 0;
    for (int d = UPSET_DET_WATCHDOG; d < UPSET_NDETECTORS; d++)
        if (f->det[d] && (!best || f->det[d] < best)) {
            best = f->det[d];
            r->first = (upset_detector_t)d;
        }
    uint64_t a = f->det[UPSET_DET_WATCHDOG], b = f->det[UPSET_DET_SELFTEST];
    uint64_t ws = a && b ? (a < b ? a : b) : a ? a : b;
    r->detect_latency = ws ? ws - at : 0;
    r->recover_latency = best && f->rec_end >= best ? f->rec_end - best : 0;
    r->recoveries = f->st.resets + f->st.rewrites;
    r->asserted = f->ls.asserted;
    r->diverged = f->diverged;
}

int rnp_upset_run_stats(const rnp_upset_cfg_t *c, const char *site, uint64_t at_offset, upset_result_t *r,
                      rnp_upset_stats_t *st, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (st)
        memset(st, 0, sizeof *st);
    const dev_design_t *d = net_of(c, err, errlen);
    if (!d)
        return -1;
    dev_upset_bit_t seu;
    int noflip = !site || !strcmp(site, "none");
    if (!noflip) {
        char target[64], *sp;
        snprintf(target, sizeof target, "%s", site);
        if (!(sp = strrchr(target, ' '))) {
            snprintf(err, errlen, "bad site '%s' (want TARGET bitB, as 'r5.lfsr bit3')", site);
            dev_design_release(d);
            return -1;
        }
        *sp = 0;
        if (dev_upset_find(d, target, sp + 1, &seu, err, errlen) < 0) {
            dev_design_release(d);
            return -1;
        }
    }
    snprintf(r->site, sizeof r->site, "%s", noflip ? "none" : site);
    const rnpnet_topo_t *t = rnpnet_topo_of(d);
    uint16_t *partners = calloc((size_t)t->n * RNP_UPSET_PARTNERS, sizeof *partners);
    sys_t *g = calloc(1, sizeof *g), *f = calloc(1, sizeof *f);
    int rc = -1;
    if (!partners || !g || !f) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    partners_of(c, t->n, partners);
    if (sys_open(g, c, d, LS_CSIM, partners, 1, err, errlen) < 0 ||
        sys_open(f, c, d, c->models ? c->models : LS_CSIM, partners, 0, err, errlen) < 0)
        goto out;
    uint64_t at = c->warmup + at_offset, end = at + c->window, now = 0;
    r->at = at;
    for (; now < end; now++) {
        sys_cycle_in(g, now, 1, NULL);
        sys_cycle_in(f, now, 1, now == at && !noflip ? &seu : NULL);
        if (now >= at && !r->out_differed &&
            memcmp(g->ls.out[g->ls.n - 1], f->ls.out[f->ls.n - 1], d->nports * sizeof(uint64_t)))
            r->out_differed = 1;
        sys_cycle_out(g, now);
        sys_cycle_out(f, now);
    }
    if (f->err[0] && !f->flipped && !noflip) {
        snprintf(err, errlen, "%s", f->err);
        goto out;
    }
    r->state_differs = !state_equal(g, f);
    uint64_t ng = now, nf = now;
    drain(g, &ng, end + DRAIN_MAX);
    drain(f, &nf, end + DRAIN_MAX);
    uint64_t gmax = max_latency(g, K_DATA);
    uint64_t bound = LATE_MUL * gmax + LATE_ADD;
    uint64_t by_end = 0;
    ledger(f, bound, end, r, &by_end);
    fill_result(f, at, r);
    r->outcome = upset_classify(r);
    if (st) {
        *st = f->st;
        st->golden_max_latency = gmax;
        st->late_bound = bound;
        st->golden_detections = g->st.golden_detections;
        st->test_max_latency = max_latency(g, K_TEST);
        st->delivered_by_end = by_end;
        st->cycles = end;
    }
    rc = 0;
out:
    if (g)
        sys_free(g);
    if (f)
        sys_free(f);
    free(g), free(f), free(partners);
    dev_design_release(d);
    return rc;
}
