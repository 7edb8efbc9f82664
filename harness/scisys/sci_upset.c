/*
 * sci_upset.c — one run of an upset campaign on a loaded SCI torus (sci_upset.h; the contract is
 * harness/scisys/sci_sys.md section 9).
 */
#include "sci_upset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "lockstep.h"
#include "prng.h"
#include "sci_route.h"
#include "sci_sys.h"
#include "sci_torus.h"

void sci_upset_cfg_default(sci_upset_cfg_t *c)
{
    memset(c, 0, sizeof *c);
    c->w = c->h = 3;
    c->models = LS_CSIM;
    c->every_us = 20.0;
    c->time_scale = 1000.0;
    c->warmup = 60000;  /* the self-test's learning rounds are over by then */
    c->span = 50000;    /* one self-test interval at this scale */
    c->window = 150000; /* three self-test intervals: detection, recovery, the traffic after */
    c->ft = SCI_FT_ON;
    c->seed = 1;
    c->node = 4; /* (1,1) */
}

/* The register fields of a node: the LCs' CTRL and TADDR, the PSB's. */
static int is_reg(const char *name)
{
    static const char *const regs[] = {"x.node",      "x.enable",      "x.scrubber",
                                       "x.busy_limit", "x.retry_limit", "x.echo_timeout",
                                       "x.taddr",     "y.node",        "y.enable",
                                       "y.scrubber",  "y.busy_limit",  "y.retry_limit",
                                       "y.echo_timeout", "y.taddr",    "psb.node",
                                       "psb.rsr_timeout", "psb.taddr", "psb.fo_en",
                                       "psb.xw",      "psb.ntgt",      NULL};
    for (unsigned k = 0; regs[k]; k++)
        if (!strcmp(name, regs[k]))
            return 1;
    return 0;
}

unsigned sci_upset_site(const sci_upset_cfg_t *c, const char *column, unsigned k, char *buf,
                      size_t len)
{
    const dev_design_t *d = sci_torus_design(c->p2s, c->w, c->h);
    if (!d)
        return 0;
    const dev_design_t *pd = d->part_design;
    char pre[32];
    d->part_prefix(d, c->node, pre, sizeof pre);
    unsigned n = 0;
    int tables = !strcmp(column, "tables"), regs = !strcmp(column, "regs"),
        node = !strcmp(column, "node");
    sci_torus_t t = {c->w, c->h, c->p2s ? SCI_VAR_P2S : SCI_VAR_LC3, SCI_POLICY_SPEC};
    for (unsigned e = 0; e < pd->nupsets && (tables || regs || node); e++) {
        const dev_upset_t *u = &pd->upsets[e];
        if (u->flags & DEV_UPSET_RTL_ONLY)
            continue; /* classified on the C model */
        if (tables && strcmp(u->name, "x.lrt") && strcmp(u->name, "x.brt"))
            continue;
        if (regs && (u->count || !is_reg(u->name)))
            continue;
        if (tables && c->p2s) { /* the entries in use: the ids that exist, both sets */
            for (unsigned set = 0; set < 2; set++)
                for (unsigned dst = 0; dst < c->w * c->h; dst++)
                    for (unsigned b = 0; b < u->width; b++, n++)
                        if (n == k)
                            snprintf(buf, len, "%s%s[0x%x] bit%u", pre, u->name,
                                     sci_route_index(&t, set, dst), b);
            continue;
        }
        unsigned cnt = u->count ? u->count : 1;
        for (unsigned i = 0; i < cnt; i++)
            for (unsigned b = 0; b < u->width; b++, n++)
                if (n == k) {
                    if (u->count)
                        snprintf(buf, len, "%s%s[0x%x] bit%u", pre, u->name, i, b);
                    else
                        snprintf(buf, len, "%s%s bit%u", pre, u->name, b);
                }
    }
    dev_design_release(d);
    return n;
}

/* The loaded torus: every node two flows to seeded random destinations. */
static sci_sys_t *open_sys(const sci_upset_cfg_t *c, unsigned models, char *err, size_t errlen)
{
    sci_sys_cfg_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.w = c->w, cfg.h = c->h, cfg.p2s = c->p2s, cfg.models = models;
    sci_sys_params_default(&cfg.par);
    cfg.par.time_scale = c->time_scale;
    cfg.seed = c->seed;
    cfg.no_skip = 1;
    cfg.ft = c->ft | SCI_FT_TOLERANT;
    cfg.out_digest = 1;
    sci_sys_t *s = sci_sys_new(&cfg, err, errlen);
    if (!s)
        return NULL;
    prng_t rng;
    prng_seed(&rng, c->seed);
    unsigned n = c->w * c->h;
    uint64_t every = (uint64_t)(c->every_us * 100.0);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < 2; j++) {
            unsigned d = prng_below(&rng, n - 1);
            d += d >= i;
            char name[32];
            snprintf(name, sizeof name, "f%u.%u", i, j);
            if (sci_sys_add_flow(s, name, i, d, 64, every,
                                 sci_sys_now(s) + prng_below(&rng, (uint32_t)every), err,
                                 errlen) < 0) {
                sci_sys_free(s);
                return NULL;
            }
        }
    return s;
}

/* Is the site a table entry no id uses (LC3: 256 entries, 9 ids on 3 x 3)? */
static int unused_entry(const sci_upset_cfg_t *c, const char *site)
{
    const char *b = strchr(site, '[');
    if (!b || (!strstr(site, "lrt[") && !strstr(site, "brt[")))
        return 0;
    unsigned idx = (unsigned)strtoul(b + 1, NULL, 0);
    sci_torus_t t = {c->w, c->h, c->p2s ? SCI_VAR_P2S : SCI_VAR_LC3, SCI_POLICY_SPEC};
    for (unsigned set = 0; set < (c->p2s ? 2u : 1u); set++)
        for (unsigned d = 0; d < c->w * c->h; d++)
            if (sci_route_index(&t, set, d) == idx)
                return 0;
    return 1;
}

int sci_upset_run(const sci_upset_cfg_t *c, const char *site, uint64_t at_offset, upset_result_t *r,
                char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->site, sizeof r->site, "%s", site);
    sci_sys_t *g = open_sys(c, LS_CSIM, err, errlen);
    if (!g)
        return -1;
    sci_sys_t *f = open_sys(c, c->models, err, errlen);
    if (!f) {
        sci_sys_free(g);
        return -1;
    }
    uint64_t base = sci_sys_now(f), at = base + c->warmup + at_offset;
    char what[96], msg[400];
    snprintf(what, sizeof what, "seu %s", site);
    int rc = 0;
    if (sci_sys_fault(f, at, what, err, errlen) < 0) {
        rc = -1;
        goto out;
    }
    r->at = at - base;
    uint64_t end = at + c->window, chunk = 64;
    uint64_t prot_first = 0;
    for (uint64_t t = sci_sys_now(f); t < end;) {
        t = t + chunk < end ? t + chunk : end;
        if (sci_sys_run(g, t, msg, sizeof msg) < 0) {
            snprintf(err, errlen, "the golden run failed: %s", msg);
            rc = -1;
            goto out;
        }
        if (sci_sys_run(f, t, msg, sizeof msg) < 0) {
            if (strstr(msg, "diverged")) {
                r->diverged = 1;
                break;
            }
            snprintf(err, errlen, "%s", msg);
            rc = -1;
            goto out;
        }
        sci_ft_stats_t fs, gs;
        sci_sys_ft_stats(f, &fs);
        sci_sys_ft_stats(g, &gs);
        if (!prot_first && t > at && fs.prot_events > gs.prot_events)
            prot_first = t;
        if (sci_sys_out_digest(f) != sci_sys_out_digest(g))
            r->out_differed = 1;
    }
    r->state_differs = sci_sys_state_digest(f) != sci_sys_state_digest(g);
    int table_site = strstr(site, "lrt[") || strstr(site, "brt[") || strstr(site, "asel[");
    /* the flows stop; what is outstanding drains */
    sci_sys_stop_flows(f);
    sci_sys_stop_flows(g);
    uint64_t lim = sci_sys_now(f) + 4000000u;
    int sf = r->diverged ? 1 : sci_sys_settle(f, lim, msg, sizeof msg);
    int sg = sci_sys_settle(g, lim, msg, sizeof msg);
    if (sf < 0 && strstr(msg, "diverged"))
        r->diverged = 1, sf = 1;
    if (sf < 0 || sg < 0) {
        snprintf(err, errlen, "%s", msg);
        rc = -1;
        goto out;
    }
    sci_ft_stats_t fs, gs;
    sci_sys_ft_stats(f, &fs);
    sci_sys_ft_stats(g, &gs);
    r->golden_alarms = gs.count[1] + gs.count[2] + gs.count[4];
    const uint64_t dets[5] = {0, fs.first[1], fs.first[2], prot_first, fs.first[4]};
    for (unsigned k = 1; k < UPSET_NDETECTORS; k++) {
        r->det_cycle[k] = dets[k] > at ? dets[k] - base : 0;
        if (r->det_cycle[k] && (!r->first || r->det_cycle[k] < r->det_cycle[r->first]))
            r->first = (upset_detector_t)k;
    }
    uint64_t d1 = 0;
    for (unsigned k = 1; k <= 4; k += 1)
        if (k != 3 && r->det_cycle[k] && (!d1 || r->det_cycle[k] < d1))
            d1 = r->det_cycle[k];
    r->detect_latency = d1 ? d1 - r->at : 0;
    r->recover_latency = d1 && fs.recoveries && fs.rec_end > base + d1 ? fs.rec_end - (base + d1) : 0;
    r->recoveries = fs.recoveries;
    unsigned nf = sci_sys_nflows(f);
    uint64_t dl = 0, gen = 0;
    for (unsigned k = 0; k < nf; k++) {
        sci_flow_stats_t a, b;
        sci_sys_flow_stats(f, k, &a);
        sci_sys_flow_stats(g, k, &b);
        gen += a.generated;
        dl += a.delivered;
        /* a flow that waited much longer than in the golden run: a latency anomaly */
        if (a.wait_max > 2u * b.wait_max + 2000u)
            r->late++;
    }
    r->generated = gen;
    r->delivered = dl - fs.dup_delivered;
    r->duplicated = fs.dup_delivered;
    r->lost = sf == 1 && gen > r->delivered ? gen - r->delivered : sf == 1 ? 0 : gen - r->delivered;
    r->misrouted = fs.misrouted;
    r->corrupted = fs.corrupted;
    lockstep_t *ls = sci_sys_lockstep(f);
    r->asserted = ls->asserted;
    /* a table upset: the tables in force read back from both runs (the debug words do not
     * hold them); an entry no id uses is not read back: nothing reads it, and only a
     * recovery's reload writes it back */
    if (table_site && !r->diverged) {
        sci_tables_t ta, tb;
        char e2[200];
        if (sci_sys_read_tables(f, &ta, e2, sizeof e2) == 0) {
            if (sci_sys_read_tables(g, &tb, e2, sizeof e2) == 0) {
                uint8_t *ch = calloc(c->w * c->h, 1);
                if (ch && sci_route_diff(&ta, &tb, ch))
                    r->state_differs = 1;
                free(ch);
                sci_route_free(&tb);
            }
            sci_route_free(&ta);
        }
    }
    if (unused_entry(c, site) && fs.recoveries == 0)
        r->state_differs = 1;
    r->outcome = upset_classify(r);
out:
    sci_sys_free(f);
    sci_sys_free(g);
    return rc;
}
