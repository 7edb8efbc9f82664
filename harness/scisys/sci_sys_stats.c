/*
 * sci_sys_stats.c — what the running torus measured: per-flow counts, latencies and
 * delivery gaps, the time series of bytes and latency, scrubbed packets.
 */
#include "sci_sys_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t later(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The delivery of message seq ends two gaps: the one between deliveries, and the one seen
 * from the source, which began when the source had something offered and undelivered: at the
 * last delivery, or, when it had caught up, when the message was offered (sci_sys.md 2). */
static void gap_note(sci_sys_t *s, flow_t *f, uint32_t seq)
{
    uint64_t from = later(f->last_dl, f->gap_from);
    if (s->now - from > f->max_gap) {
        f->max_gap = s->now - from;
        f->max_gap_at = s->now;
    }
    uint64_t wfrom = later(from, f->t_offer[seq % s->cfg.par.window]);
    if (s->now > wfrom && s->now - wfrom > f->wait_max) {
        f->wait_max = s->now - wfrom;
        f->wait_max_at = s->now;
    }
    f->last_dl = s->now;
}

static void bin_add(sci_sys_t *s, uint64_t bytes, double lat)
{
    if (!s->cfg.bin_cycles)
        return;
    uint64_t b = s->now / s->cfg.bin_cycles;
    if (b >= s->capbins) {
        unsigned cap = s->capbins ? s->capbins : 256;
        while (cap <= b)
            cap *= 2;
        uint64_t *nb = realloc(s->bin_bytes, cap * sizeof *nb);
        uint64_t *nn = realloc(s->bin_latn, cap * sizeof *nn);
        double *nl = realloc(s->bin_lat, cap * sizeof *nl);
        if (!nb || !nn || !nl) {
            free(nb == s->bin_bytes ? NULL : nb);
            scisys_fail(s, "out of memory (time series)");
            return;
        }
        memset(nb + s->capbins, 0, (cap - s->capbins) * sizeof *nb);
        memset(nn + s->capbins, 0, (cap - s->capbins) * sizeof *nn);
        memset(nl + s->capbins, 0, (cap - s->capbins) * sizeof *nl);
        s->bin_bytes = nb, s->bin_latn = nn, s->bin_lat = nl;
        s->capbins = cap;
    }
    if (b + 1 > s->nbins)
        s->nbins = (unsigned)b + 1;
    s->bin_bytes[b] += bytes;
    s->bin_lat[b] += lat;
    s->bin_latn[b]++;
}

/* Flow f's messages delivered per time bin. Returns -1 (the system failed) when the series
 * cannot grow. */
static int flow_bin_add(sci_sys_t *s, flow_t *f)
{
    unsigned b = (unsigned)(s->now / s->cfg.bin_cycles);
    if (b >= f->nbin_msgs) {
        unsigned cap = f->nbin_msgs ? f->nbin_msgs : 64;
        while (cap <= b)
            cap *= 2;
        uint32_t *nb = realloc(f->bin_msgs, cap * sizeof *nb);
        if (!nb) {
            scisys_fail(s, "out of memory (time series)");
            return -1;
        }
        memset(nb + f->nbin_msgs, 0, (cap - f->nbin_msgs) * sizeof *nb);
        f->bin_msgs = nb;
        f->nbin_msgs = cap;
    }
    f->bin_msgs[b]++;
    return 0;
}

int scisys_stats_delivery(sci_sys_t *s, unsigned k, double lat)
{
    flow_t *f = &s->flow[k];
    f->delivered++;
    f->bytes_dl += f->bytes;
    f->lat_sum += lat;
    gap_note(s, f, f->expect - 1u); /* the ledger has counted it */
    if (s->par)
        scisys_par_delivery(s, k, lat); /* the series every flow shares: after the phase */
    else
        scisys_stats_series(s, k, lat);
    if (s->cfg.bin_cycles) /* this flow's deliveries over time */
        return flow_bin_add(s, f);
    return 0;
}

void scisys_stats_series(sci_sys_t *s, unsigned k, double lat)
{
    bin_add(s, s->flow[k].bytes, lat);
    scisys_obs_delivery(s, k);
}

unsigned sci_sys_nflows(const sci_sys_t *s) { return s->nflow; }

void sci_sys_flow_stats(const sci_sys_t *s, unsigned k, sci_flow_stats_t *st)
{
    flow_t *f = (flow_t *)&s->flow[k]; /* brings its generator up to now */
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", f->name);
    st->src = f->src;
    st->dst = f->dst;
    st->generated = scisys_flow_gen((sci_sys_t *)s, f);
    st->sent = f->sent;
    st->delivered = f->delivered;
    st->acked = f->acked;
    st->dups = f->dups;
    st->first_sent = f->sent_hi;
    st->retx = f->sent - f->sent_hi;
    /* offered: what the application wrote, and the write it is blocked in (a saturating flow
     * always has one more than it sent) */
    st->offered = f->stop_at == UINT64_MAX && f->interval == 0 && s->now >= f->start
                      ? (uint64_t)f->sent_hi + 1u
                      : st->generated + scisys_flow_blocked(s, f);
    st->held = st->offered > st->first_sent ? st->offered - st->first_sent : 0;
    st->tmo_rounds = f->tmo_rounds;
    st->fail_reports = f->fails;
    st->bytes = f->bytes_dl;
    st->lat_sum = f->lat_sum;
    st->last_delivery = f->last_dl;
    st->max_gap = f->max_gap;
    st->max_gap_at = f->max_gap_at;
    st->wait_max = f->wait_max;
    st->wait_max_at = f->wait_max_at;
    st->outstanding = st->generated > f->base ? st->generated - f->base : 0;
}

void sci_sys_reset_gaps(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nflow; k++) {
        s->flow[k].gap_from = s->now;
        s->flow[k].max_gap = 0;
        s->flow[k].max_gap_at = 0;
        s->flow[k].wait_max = 0;
        s->flow[k].wait_max_at = 0;
    }
}

void sci_sys_close_gaps(sci_sys_t *s)
{
    for (unsigned k = 0; k < s->nflow; k++) {
        flow_t *f = &s->flow[k];
        uint64_t from = later(f->last_dl, f->gap_from), wfrom = UINT64_MAX;
        if (scisys_flow_gen(s, f) > f->expect) {
            if (s->now - from > f->max_gap) {
                f->max_gap = s->now - from;
                f->max_gap_at = s->now;
            }
            wfrom = later(from, f->interval ? f->t_offer[f->expect % s->cfg.par.window] : 0);
        } else if (scisys_flow_blocked(s, f)) {
            wfrom = later(from, f->blocked_from); /* caught up, and blocked in the next write */
        }
        if (wfrom < s->now && s->now - wfrom > f->wait_max) {
            f->wait_max = s->now - wfrom;
            f->wait_max_at = s->now;
        }
    }
}

unsigned sci_sys_bins(const sci_sys_t *s, const uint64_t **bytes, const double **lat_sum,
                      const uint64_t **lat_n)
{
    *bytes = s->bin_bytes;
    *lat_sum = s->bin_lat;
    *lat_n = s->bin_latn;
    return s->nbins;
}

uint32_t sci_sys_flow_bin(const sci_sys_t *s, unsigned flow, unsigned bin)
{
    const flow_t *f = &s->flow[flow];
    return bin < f->nbin_msgs ? f->bin_msgs[bin] : 0;
}

uint64_t sci_sys_scrubbed(sci_sys_t *s)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < s->n; i++)
        for (unsigned k = 0; k < 2; k++)
            n += reg_read(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_COUNTS) >> 16 & 0xFFFFu;
    return n;
}
