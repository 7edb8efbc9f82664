/* rnpni.c — RNP network endpoints: messages, the link fault table (the monitor), senders with
 * retry and diagnosis, and receivers. The per-source tables and relays are rnpni_ps.c; what
 * both share, rnpni_state.h. See rnpni.h for the message format and the diagnosis rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rnp_word.h"
#include "rnpni_state.h"

enum { S_IDLE, S_WAIT, S_SEND, S_REPLY, S_CLOSE };
enum { R_IDLE, R_RECV, R_ACK, R_XOR, R_COUNT, R_DROP };

static uint8_t crc8(const uint8_t *p, unsigned n)
{
    uint8_t c = 0;
    for (unsigned i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (uint8_t)(c & 0x80 ? (c << 1) ^ 0x07 : c << 1);
    }
    return c;
}

/* The end-to-end check: a CRC-32 by default (a stuck bit corrupts every word it changes, in
 * the same column, which the routers' longitudinal XOR misses whenever the count is even: a
 * CRC-8 lets one such message in 256 through, ftdrb_rnp.md 6); CRC-8 only when the policy asks
 * for the weakened check. Its bytes. */
static unsigned crc_bytes(const ni_t *ni) { return ni->pol.crc8 ? 1 : 4; }

static uint32_t crc32(const uint8_t *p, unsigned n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (unsigned i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = c & 1u ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

/* Append the check to p[0..n-1]; the new length. */
static unsigned put_check(const ni_t *ni, uint8_t *p, unsigned n)
{
    if (crc_bytes(ni) == 1) {
        p[n] = crc8(p, n);
        return n + 1;
    }
    uint32_t c = crc32(p, n);
    for (unsigned i = 0; i < 4; i++)
        p[n + i] = (uint8_t)(c >> (8 * i));
    return n + 4;
}

/* Does p[0..n-1] end with the right check over a header (6 bytes) and what follows? */
static int check_ok(const ni_t *ni, const uint8_t *p, unsigned n)
{
    unsigned k = crc_bytes(ni);
    if (n < 6 + k)
        return 0;
    if (k == 1)
        return crc8(p, n - 1) == p[n - 1];
    uint32_t c = crc32(p, n - 4);
    return p[n - 4] == (uint8_t)c && p[n - 3] == (uint8_t)(c >> 8) &&
           p[n - 2] == (uint8_t)(c >> 16) && p[n - 1] == (uint8_t)(c >> 24);
}

ni_t *ni_create(const rnpnet_topo_t *t, const ni_policy_t *pol, uint64_t seed, int backchan)
{
    ni_t *ni = calloc(1, sizeof *ni);
    if (!ni)
        return NULL;
    ni->t = t;
    ni->pol = *pol;
    ni->backchan = backchan;
    prng_seed(&ni->rng, seed);
    ni->qcap = 64;
    ni->snd = calloc(2 * t->n, sizeof *ni->snd); /* [e]: its own messages; [n + e]: relaying */
    ni->rcv = calloc(t->n * 2, sizeof *ni->rcv);
    ni->queue = calloc((size_t)t->n * ni->qcap, sizeof *ni->queue);
    ni->qhead = calloc(t->n, sizeof *ni->qhead);
    ni->qlen = calloc(t->n, sizeof *ni->qlen);
    ni->next_seq = calloc(t->n, sizeof *ni->next_seq);
    ni->last_rx = calloc((size_t)t->n * t->n, sizeof *ni->last_rx);
    ni->disable = calloc(t->nrouters, 1);
    if (!ni->snd || !ni->rcv || !ni->queue || !ni->qhead || !ni->qlen || !ni->next_seq ||
        !ni->last_rx || !ni->disable || (per_source(ni) && ni_ps_alloc(ni) < 0)) {
        ni_free(ni);
        return NULL;
    }
    return ni;
}

void ni_free(ni_t *ni)
{
    if (!ni)
        return;
    free(ni->snd), free(ni->rcv), free(ni->queue), free(ni->qhead), free(ni->qlen);
    free(ni->next_seq), free(ni->last_rx), free(ni->disable), free(ni->msgs);
    free(ni->ps), free(ni->ps_n), free(ni->ps_ver), free(ni->ps_plan), free(ni->stamp);
    free(ni->mp), free(ni->floor);
    free(ni->front), free(ni->next), free(ni->rq), free(ni->rq_head), free(ni->rq_len);
    free(ni->seen);
    for (unsigned e = 0; ni->sid && e < ni->t->n; e++)
        free(ni->sid[e]);
    free(ni->sid), free(ni->sid_cap);
    free(ni);
}

void ni_set_callbacks(ni_t *ni, void *ctx, ni_diag_fn diag, ni_done_fn done, ni_done_fn rx)
{
    ni->ctx = ctx;
    ni->diag = diag;
    ni->done = done;
    ni->rx = rx;
}

void ni_set_hooks(ni_t *ni, ni_attempt_fn attempt, ni_misrx_fn misrx)
{
    ni->attempt = attempt;
    ni->misrx = misrx;
}

const ni_stats_t *ni_stats(const ni_t *ni) { return &ni->st; }

const ni_msg_t *ni_msg(const ni_t *ni, uint32_t id)
{
    return id < ni->nmsgs ? &ni->msgs[id] : NULL;
}

unsigned ni_in_flight(const ni_t *ni)
{
    unsigned n = 0;
    for (unsigned e = 0; e < ni->t->n; e++)
        n += ni->qlen[e] + (ni->snd[e].m != NULL) + (ni->snd[ni->t->n + e].m != NULL) +
             (ni->rq_len ? ni->rq_len[e * 2] + ni->rq_len[e * 2 + 1] : 0);
    return n;
}

/* Remember message m's id under its source and sequence number (per-source tables: a relay
 * names the message it carries by them, ftdrb_rnp.md 4). */
static int sid_note(ni_t *ni, const ni_msg_t *m)
{
    if (ni->sid_cap[m->src] <= m->seq) {
        uint32_t cap = ni->sid_cap[m->src] ? ni->sid_cap[m->src] : 64;
        while (cap <= m->seq)
            cap *= 2;
        uint32_t *n = realloc(ni->sid[m->src], cap * sizeof *n);
        if (!n)
            return -1;
        ni->sid[m->src] = n;
        ni->sid_cap[m->src] = cap;
    }
    ni->sid[m->src][m->seq] = m->id;
    return 0;
}

/* Messages live in one growing array; senders and queues point into it by index. A new
 * message, not queued anywhere yet; NULL out of memory. */
ni_msg_t *ni_new_msg(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len,
                     const uint8_t *data)
{
    if (ni->nmsgs == ni->capmsgs) {
        size_t cap = ni->capmsgs ? ni->capmsgs * 2 : 1024;
        ni_msg_t *n = realloc(ni->msgs, cap * sizeof *n);
        if (!n)
            return NULL;
        /* re-point the senders and queues at the moved array */
        for (unsigned e = 0; e < ni->t->n; e++) {
            for (unsigned j = e; j < 2 * ni->t->n; j += ni->t->n)
                if (ni->snd[j].m)
                    ni->snd[j].m = n + (ni->snd[j].m - ni->msgs);
            for (unsigned q = 0; q < ni->qcap; q++)
                if (ni->queue[e * ni->qcap + q])
                    ni->queue[e * ni->qcap + q] = n + (ni->queue[e * ni->qcap + q] - ni->msgs);
            for (unsigned q = 0; ni->rq && q < 2 * NI_RELAY_BUF; q++)
                if (ni->rq[e * 2 * NI_RELAY_BUF + q])
                    ni->rq[e * 2 * NI_RELAY_BUF + q] =
                        n + (ni->rq[e * 2 * NI_RELAY_BUF + q] - ni->msgs);
        }
        ni->msgs = n;
        ni->capmsgs = cap;
    }
    ni_msg_t *m = &ni->msgs[ni->nmsgs];
    memset(m, 0, sizeof *m);
    m->id = (uint32_t)ni->nmsgs++;
    m->src = (uint16_t)src;
    m->dst = (uint16_t)dst;
    m->seq = ni->next_seq[src]++;
    m->len = (uint16_t)len;
    for (unsigned i = 0; i < len; i++)
        m->data[i] = data ? data[i] : (uint8_t)prng_below(&ni->rng, 256);
    m->t_created = cycle;
    m->orig = m->id;
    m->final_dst = (uint16_t)dst;
    m->hop2 = NI_NONE;
    if (ni->sid && sid_note(ni, m) < 0)
        return NULL;
    return m;
}

static const ni_msg_t *send_msg(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len,
                                const uint8_t *data)
{
    if (ni->qlen[src] == ni->qcap || len > NI_MAX_PAYLOAD)
        return NULL;
    ni_msg_t *m = ni_new_msg(ni, cycle, src, dst, len, data);
    if (!m)
        return NULL;
    ni->queue[src * ni->qcap + (ni->qhead[src] + ni->qlen[src]) % ni->qcap] = m;
    ni->qlen[src]++;
    ni->st.sent++;
    return m;
}

const ni_msg_t *ni_send(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len)
{
    return send_msg(ni, cycle, src, dst, len, NULL);
}

const ni_msg_t *ni_send_data(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len,
                             const uint8_t *data)
{
    return send_msg(ni, cycle, src, dst, len, data);
}

/* ---- the link fault table -------------------------------------------------------------- */

static lft_t *lft_find(ni_t *ni, unsigned router, unsigned port)
{
    for (unsigned i = 0; i < ni->nlft; i++)
        if (ni->lft[i].used && ni->lft[i].router == router && ni->lft[i].port == port)
            return &ni->lft[i];
    return NULL;
}

static void mask_write(ni_t *ni, unsigned router, unsigned port, int on)
{
    if (port >= 8)
        return; /* an injection link: its source stops choosing that port */
    uint8_t m = ni->disable[router];
    m = (uint8_t)(on ? (m | (1u << port)) : (m & ~(1u << port)));
    ni->disable[router] = m;
    if (ni->wq_len == MAX_WRITES)
        return;
    dev_write_t w = {(router << 8) | 0x00u, (uint64_t)m << 8, 0xFF00};
    ni->wq[(ni->wq_head + ni->wq_len++) % MAX_WRITES] = w;
}

/* A diagnosis names (router, port): add an entry or raise its stage number; mask it. */
static void lft_note(ni_t *ni, unsigned router, unsigned port)
{
    lft_t *e = lft_find(ni, router, port);
    if (!e) {
        for (unsigned i = 0; i < ni->nlft && !e; i++)
            if (!ni->lft[i].used)
                e = &ni->lft[i];
        if (!e && ni->nlft < MAX_LFT)
            e = &ni->lft[ni->nlft++];
        if (!e)
            return;
        memset(e, 0, sizeof *e);
        e->used = 1;
        e->router = router;
        e->port = port;
    }
    e->stage++;
    e->attempt = 0;
    e->trial = 0;
    if (e->stage == ni->pol.perm_stage)
        ni->st.permanent++;
    if (!e->masked) {
        e->masked = 1;
        ni->st.masked++;
        mask_write(ni, router, port, 1);
    }
}

/* An attempt could have used (r, j) had it not been masked: raise the attempt number; at
 * trial_attempts a non-permanent entry is unmasked for a trial (FT-DRB (Zarza et al.),
 * section 3.2). */
static void lft_need(ni_t *ni, unsigned r, unsigned j)
{
    lft_t *e = lft_find(ni, r, j);
    if (!e || !e->masked || e->stage >= ni->pol.perm_stage)
        return;
    if (++e->attempt >= ni->pol.trial_attempts) {
        e->masked = 0;
        e->trial = 1;
        ni->st.unmasked++;
        mask_write(ni, r, j, 0);
    }
}

/* Through router r in direction k: both outputs of the direction were options. */
static void lft_would_need(ni_t *ni, unsigned r, unsigned k)
{
    lft_need(ni, r, 2 * k);
    lft_need(ni, r, 2 * k + 1);
}

/* A delivered attempt used (r, j): an entry on trial there is cleared. */
static void lft_used_ok(ni_t *ni, unsigned r, unsigned j)
{
    lft_t *e = lft_find(ni, r, j);
    if (e && e->trial && !e->masked) {
        e->used = 0;
        ni->st.cleared++;
    }
}

unsigned ni_masked_now(const ni_t *ni)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ni->nlft; i++)
        n += ni->lft[i].used && ni->lft[i].masked;
    return n;
}

void ni_print_lft(const ni_t *ni)
{
    printf("  link fault table: %u entries in use\n", ni->nlft);
    for (unsigned i = 0; i < ni->nlft; i++) {
        const lft_t *e = &ni->lft[i];
        if (!e->used)
            continue;
        if (e->port >= 8)
            printf("    s%u.%u", e->router, e->port - 8);
        else
            printf("    r%u.b%u", e->router, e->port);
        printf("  stage %u%s  attempt %u  %s\n", e->stage,
               e->stage >= ni->pol.perm_stage ? " (permanent)" : "", e->attempt,
               e->masked  ? "masked"
               : e->trial ? "on trial"
                          : "unmasked");
    }
}

/* ---- senders ----------------------------------------------------------------------------- */

static unsigned swallowed_before(unsigned k) { return k == 0 ? 0 : (k - 1) / 4; }

static void build_attempt(ni_t *ni, uint64_t cycle, unsigned e, sender_t *s)
{
    const rnpnet_topo_t *t = ni->t;
    ni_msg_t *m = s->m;
    if (per_source(ni)) {
        ni_ps_choose(ni, e, s, ni_free_ports(ni, cycle, e, s));
    } else {
        /* the injection port: one whose link is not masked, if there is one */
        lft_t *l0 = ni->pol.use_lft ? lft_find(ni, e, 8) : NULL,
              *l1 = ni->pol.use_lft ? lft_find(ni, e, 9) : NULL;
        int ok0 = !(l0 && l0->masked), ok1 = !(l1 && l1->masked);
        s->port = ok0 && ok1 ? prng_below(&ni->rng, 2) : ok1 ? 1u : 0u;
        for (unsigned st = 0; st < t->stages; st++)
            s->xd[st] = (uint8_t)prng_below(&ni->rng, 4);
        s->to = m->dst;
        s->flag = 0;
        s->hop2 = NI_NONE;
    }
    uint16_t rw[4];
    unsigned xd[NI_MAX_STAGES];
    for (unsigned st = 0; st < t->stages; st++)
        xd[st] = s->xd[st];
    s->nroute = rnpnet_route_words(t, s->to, xd, rw);
    uint8_t hdr[6 + NI_MAX_PAYLOAD + 4];
    unsigned srcf = m->src | (s->flag ? RELAY_FLAG : 0u);
    hdr[0] = (uint8_t)srcf;
    hdr[1] = (uint8_t)(srcf >> 8);
    hdr[2] = (uint8_t)s->to; /* a corrupted routing word can deliver elsewhere: say where to */
    hdr[3] = (uint8_t)(s->to >> 8);
    hdr[4] = (uint8_t)m->seq;
    hdr[5] = (uint8_t)(m->seq >> 8);
    unsigned nh = 6;
    if (s->flag) { /* the relay header: the original, its final destination, the second hop */
        const ni_msg_t *o = &ni->msgs[m->orig];
        unsigned rh[4] = {o->src, o->seq, m->final_dst, s->hop2};
        for (unsigned i = 0; i < 4; i++) {
            hdr[nh++] = (uint8_t)rh[i];
            hdr[nh++] = (uint8_t)(rh[i] >> 8);
        }
    }
    memcpy(hdr + nh, m->data, m->len);
    nh += m->len;
    nh = put_check(ni, hdr, nh);
    s->nw = 0;
    for (unsigned i = 0; i < s->nroute; i++)
        s->w[s->nw++] = rw[i];
    for (unsigned i = 0; i < nh; i++)
        s->w[s->nw++] = (uint16_t)(RNP_C | hdr[i]);
    s->w[s->nw++] = RNP_TURN;
    /* What each router on the path must count: the c=1 words not swallowed before it, as the
     * wiring has rotated them. k = stages is the destination: it sees what the last router
     * forwarded (a word that router swallowed is counted there but never arrives), with the
     * last router's rotation (endpoint links do not rotate). */
    unsigned nc = s->nw - 1;
    for (unsigned k = 0; k <= t->stages; k++) {
        unsigned m0 = swallowed_before(k);
        uint8_t x = 0;
        for (unsigned i = m0; i < nc; i++)
            x ^= (uint8_t)s->w[i];
        s->exp_count[k] = (uint8_t)((nc - m0) & 63u);
        s->exp_xor[k] = rnp_rotl(x, k < t->stages ? k : t->stages - 1);
    }
    s->pos = 0;
    s->known = 0;
    s->bad_stage = s->blocked_stage = s->dropped_stage = -1;
    s->collapsed = -1;
    s->answer = s->dst_xor = s->dst_count = -1;
    s->prt[0] = t->inj[e * 2 + s->port] / 8;
    m->attempts++;
    ni->st.attempts++;
}

/* The link into router k of this attempt's path, for a diagnosis. */
static void link_into(const ni_t *ni, unsigned e, const sender_t *s, unsigned k, unsigned *r,
                      unsigned *p)
{
    (void)ni;
    if (k == 0) {
        *r = e;
        *p = 8 + s->port;
    } else {
        *r = s->prt[k - 1];
        *p = s->pport[k - 1];
    }
}

static void finish_attempt(ni_t *ni, uint64_t cycle, unsigned e, sender_t *s)
{
    const rnpnet_topo_t *t = ni->t;
    ni_outcome_t out;
    int loc = -1; /* the stage whose incoming link is named, or S for the ejection link */
    if (s->collapsed >= 0)
        out = NI_BLOCKED;
    else if (s->bad_stage >= 0)
        out = NI_CORRUPTED, loc = s->bad_stage;
    else if (s->blocked_stage >= 0)
        out = NI_BLOCKED;
    else if (s->dropped_stage == -2)
        out = NI_DROPPED;
    else if (s->dropped_stage >= 0)
        out = NI_DROPPED, loc = s->dropped_stage;
    else if (s->answer < 0)
        out = NI_DROPPED, loc = (int)t->stages;  /* no answer: the link to the destination */
    else if (s->dst_xor < 0 || s->dst_count < 0) /* the reply was cut after the answer */
        out = s->answer == ACK_BYTE ? NI_DELIVERED : NI_CORRUPTED;
    else if (s->dst_xor != s->exp_xor[t->stages] || s->dst_count != s->exp_count[t->stages])
        out = NI_CORRUPTED, loc = (int)t->stages; /* after the last router's check: ejection */
    else if (s->answer == ACK_BYTE)
        out = NI_DELIVERED;
    else if (s->answer == BUSY_BYTE && per_source(ni))
        out = NI_BLOCKED; /* a relay's buffer was full: contention, not a fault */
    else
        out = NI_CORRUPTED; /* NAK with every check right: flips the XOR cannot see; no place */
    /* A check that covers fewer words than the one before it (the stage before swallowed the
     * exhausted routing word) cannot locate: flips that cancelled in the earlier XOR can show
     * in the later one. Only a first mismatch between checks of the same words names a link. */
    if (out == NI_CORRUPTED && loc >= 1 && rnpnet_swallows((unsigned)loc - 1))
        loc = -1;
    ni->st.outcome[out]++;
    if (ni->attempt) {
        ni_path_t path = {s->t0, e, s->port, s->known, {0}, {0}};
        memcpy(path.router, s->prt, sizeof path.router);
        memcpy(path.out, s->pport, sizeof path.out);
        ni->attempt(ni->ctx, cycle, s->m, out, &path, loc >= 0 && (unsigned)loc <= s->known);
    }
    if (loc >= 0) {
        unsigned r, p;
        if ((unsigned)loc == t->stages) {
            r = s->prt[t->stages - 1];
            p = s->pport[t->stages - 1];
        } else {
            link_into(ni, e, s, (unsigned)loc, &r, &p);
        }
        /* a link into a router the path never reached cannot be named */
        if ((unsigned)loc <= s->known) {
            ni->st.located++;
            if (ni->diag) {
                ni_path_t path = {s->t0, e, s->port, s->known, {0}, {0}};
                memcpy(path.router, s->prt, sizeof path.router);
                memcpy(path.out, s->pport, sizeof path.out);
                ni->diag(ni->ctx, cycle, &path, r, p, out);
            }
            if (per_source(ni))
                ni_ps_note(ni, e, r, p);
            else if (ni->pol.use_lft)
                lft_note(ni, r, p);
        }
    }
    if (per_source(ni) && out == NI_DELIVERED) {
        ni_ps_crossed_ok(ni, e, e, 8 + s->port);
        for (unsigned k = 0; k < s->known; k++)
            ni_ps_crossed_ok(ni, e, s->prt[k], s->pport[k]);
    } else if (ni->pol.use_lft && !per_source(ni)) {
        unsigned upto = s->known + (s->blocked_stage >= 0); /* a blocking router had options too */
        for (unsigned k = 0; k < upto && k < t->stages; k++) {
            int dg = rnpnet_digit(t, k, s->to);
            lft_would_need(ni, s->prt[k], dg < 0 ? s->xd[k] : (unsigned)dg);
            if (out == NI_DELIVERED && k < s->known)
                lft_used_ok(ni, s->prt[k], s->pport[k]);
        }
        lft_need(ni, e, 8 + (s->port ^ 1u)); /* the other injection port, if masked */
        if (out == NI_DELIVERED)
            lft_used_ok(ni, e, 8 + s->port);
    }
    ni_msg_t *m = s->m;
    if (per_source(ni) && out == NI_BLOCKED && s->answer == BUSY_BYTE && m->state == 0)
        ni_ps_busy(ni, m); /* the relay pushed back: its path's latency goes up */
    if (m->state == 1 || m->state == 2 ||
        (out == NI_DELIVERED && per_source(ni) && ni_ps_delivered(ni, cycle, s))) {
        /* per-source tables: done already (a relayed copy reached the destination first), or
         * the custody passed on */
        s->m = NULL;
        s->st = S_IDLE;
        return;
    }
    if (out == NI_DELIVERED) {
        m->state = 1;
        m->t_done = cycle;
        if (per_source(ni))
            ni_ps_latency(ni, m, cycle, 1); /* the latency ACK of the direct path */
        ni->st.delivered++;
        ni->st.latency_sum += cycle - m->t_created;
        ni->st.words_delivered += m->len;
        if (ni->done)
            ni->done(ni->ctx, cycle, m, 1);
        s->m = NULL;
        s->st = S_IDLE;
        return;
    }
    if (m->attempts >= ni->pol.retry_limit && m->step) {
        ni_ps_segment_failed(ni, cycle, m);
        s->m = NULL;
        s->st = S_IDLE;
        return;
    }
    if (m->attempts >= ni->pol.retry_limit) {
        m->state = 2;
        m->t_done = cycle;
        if (per_source(ni))
            ni_ps_latency(ni, m, cycle, 0);
        ni->st.failed++;
        if (ni->done)
            ni->done(ni->ctx, cycle, m, 0);
        s->m = NULL;
        s->st = S_IDLE;
        return;
    }
    unsigned cap = 1u << (m->attempts < 10 ? m->attempts : 10);
    if (cap > ni->pol.backoff_max)
        cap = ni->pol.backoff_max;
    s->wait_until = cycle + 1 + prng_below(&ni->rng, cap ? cap : 1);
    s->st = S_WAIT;
}

/* The cycle at which a block at stage st comes back to the source on the bc line. */
static uint64_t collapse_cycle(const sender_t *s, unsigned st)
{
    return s->t0 + st / 4 + 2 * st + 1;
}

/* Sender e reads its port's output word w (and bc) of this cycle. */
static void sender_observe(ni_t *ni, uint64_t cycle, unsigned e, sender_t *s, uint16_t w,
                           unsigned bc)
{
    const rnpnet_topo_t *t = ni->t;
    if (s->st != S_SEND && s->st != S_REPLY)
        return;
    if (ni->backchan && bc && s->collapsed < 0) {
        for (unsigned st = 0; st < t->stages; st++)
            if (collapse_cycle(s, st) == cycle)
                s->collapsed = (int)st;
        if (s->collapsed < 0)
            s->collapsed = (int)t->stages; /* a drop from further on: blocked all the same */
        s->st = S_CLOSE;
        return;
    }
    if (s->st != S_REPLY || cycle <= s->t_turn)
        return; /* the TURN is on our own wire this cycle: the replies start next cycle */
    uint64_t rel = cycle - s->t_turn;
    if (rel >= 1 && rel <= 2 * t->stages) {
        unsigned k = (unsigned)(rel - 1) / 2;
        int is_status = (rel & 1u) != 0;
        if (!(w & RNP_C)) { /* the stream stops: blocked (after CHECKSUM) or dropped */
            if (s->blocked_stage < 0 && is_status)
                s->dropped_stage = (int)k;
            else if (s->blocked_stage < 0)
                s->dropped_stage = -2; /* lost between a STATUS and its CHECKSUM: the path changed
                                          during the reply (a router died): nothing to name */
            finish_attempt(ni, cycle, e, s);
            return;
        }
        uint8_t d = rnp_rotl((uint8_t)w, k);
        if (is_status) {
            unsigned disp = d >> 6;
            if ((d & 63u) != s->exp_count[k] && s->bad_stage < 0)
                s->bad_stage = (int)k;
            if (disp < 2) {
                s->blocked_stage = (int)k;
            } else {
                int dg = rnpnet_digit(t, k, s->to);
                unsigned dir = dg < 0 ? s->xd[k] : (unsigned)dg;
                s->pport[k] = 2 * dir + (disp & 1u);
                s->known = k + 1;
                if (k + 1 < t->stages) {
                    int32_t nx = t->down[s->prt[k] * 8 + s->pport[k]];
                    s->prt[k + 1] = nx >= 0 ? (unsigned)nx / 8 : 0;
                }
            }
        } else if (d != s->exp_xor[k] && s->bad_stage < 0) {
            s->bad_stage = (int)k;
        }
        return;
    }
    if (rel >= 2 * t->stages + 1 && rel <= 2 * t->stages + 3) {
        if (!(w & RNP_C)) {
            finish_attempt(ni, cycle, e, s);
            return;
        }
        int v = rnp_rotl((uint8_t)w, t->stages - 1);
        if (rel == 2 * t->stages + 1)
            s->answer = v;
        else if (rel == 2 * t->stages + 2)
            s->dst_xor = v;
        else
            s->dst_count = v;
        return;
    }
    /* after the answer: the destination's DROP (or anything) ends the attempt */
    finish_attempt(ni, cycle, e, s);
}

/* Per-source tables: the next segment of e's relay buffers, R2 first, then R1 (ftdrb_rnp.md 5). */
static int take_relayed(ni_t *ni, unsigned e, sender_t *s)
{
    for (int step = 1; step >= 0; step--) {
        unsigned q = e * 2 + (unsigned)step;
        if (!ni->rq_len[q])
            continue;
        s->m = ni->rq[q * NI_RELAY_BUF + ni->rq_head[q]];
        ni->rq[q * NI_RELAY_BUF + ni->rq_head[q]] = NULL;
        ni->rq_head[q] = (ni->rq_head[q] + 1) % NI_RELAY_BUF;
        ni->rq_len[q]--;
        return 1;
    }
    return 0;
}

/* Does sender s hold its injection port for the next cycle (an attempt on the wire, or the
 * DROP that closes it)? */
static int holds_port(const sender_t *s, uint64_t cycle)
{
    return s->st == S_SEND || s->st == S_REPLY || s->st == S_CLOSE || cycle + 1 <= s->drop_at;
}

/* The injection ports sender s of endpoint e may take for an attempt starting next cycle:
 * bit k port k; the port the endpoint's other sender holds is not free (ftdrb_rnp.md 5). */
unsigned ni_free_ports(const ni_t *ni, uint64_t cycle, unsigned e, const sender_t *s)
{
    const sender_t *o = &ni->snd[s == &ni->snd[e] ? ni->t->n + e : e];
    return holds_port(o, cycle) ? 3u & ~(1u << o->port) : 3u;
}

/* Sender s of endpoint e decides its drive for the next cycle. The relay sender (relay != 0,
 * per-source tables with relays) serves only the relay buffers; the own sender its queue, and
 * with ni_policy_t.one_sender the relay buffers first, as one sender for both. */
static uint16_t sender_plan(ni_t *ni, uint64_t cycle, unsigned e, sender_t *s, int relay)
{
    switch (s->st) {
    case S_IDLE:
        if (relay) {
            if (!(ni->rq_len && !ni->pol.one_sender && take_relayed(ni, e, s)))
                return RNP_IDLE;
        } else if (ni->rq_len && ni->pol.one_sender && take_relayed(ni, e, s)) {
            ni->st.own_relayed++;
        } else {
            if (!ni->qlen[e])
                return RNP_IDLE;
            s->m = ni->queue[e * ni->qcap + ni->qhead[e]];
            ni->queue[e * ni->qcap + ni->qhead[e]] = NULL;
            ni->qhead[e] = (ni->qhead[e] + 1) % ni->qcap;
            ni->qlen[e]--;
        }
        s->wait_until = cycle + 1;
        s->st = S_WAIT;
        /* fall through */
    case S_WAIT:
        if (cycle + 1 < s->wait_until || !ni_free_ports(ni, cycle, e, s))
            return RNP_IDLE;
        build_attempt(ni, cycle, e, s);
        s->t0 = cycle + 1;
        if (s->m->attempts == 1)
            s->m->t_first = s->t0;
        s->st = S_SEND;
        /* fall through */
    case S_SEND: {
        uint16_t w = s->w[s->pos++];
        if (w == RNP_TURN) {
            s->t_turn = cycle + 1;
            s->st = S_REPLY;
        }
        return w;
    }
    case S_REPLY: return RNP_HOLD;
    case S_CLOSE: /* collapsed by the backward channel: close our end, then retry */
        finish_attempt(ni, cycle, e, s);
        s->drop_at = cycle + 1;
        return RNP_DROP;
    }
    return RNP_IDLE;
}

/* ---- receivers ----------------------------------------------------------------------------- */

static void receiver_observe(ni_t *ni, uint64_t cycle, unsigned d, unsigned k, uint16_t w)
{
    const rnpnet_topo_t *t = ni->t;
    receiver_t *r = &ni->rcv[d * 2 + k];
    if (r->st == R_IDLE) {
        if (w & RNP_C) { /* the last routing word opens the connection */
            r->st = R_RECV;
            r->n = 0;
            r->xr = (uint8_t)w;
            r->count = 1;
            r->words = 1;
        }
        return;
    }
    if (r->st != R_RECV)
        return;
    if (w & RNP_C) {
        /* Longer than any message: a connection opened by a control bit stuck at 1. With the
         * backward channel the destination drops it (rtl/rn1.md section 7); the router upstream
         * then discards the stuck input's words and frees the path. */
        if (++r->words > 4 * (8 + NI_MAX_PAYLOAD) && ni->backchan) {
            r->drop_bc = 1;
            r->st = R_IDLE;
            return;
        }
        r->xr ^= (uint8_t)w;
        r->count = (uint8_t)((r->count + 1u) & 63u);
        if (r->n < sizeof r->buf)
            r->buf[r->n++] = rnp_rotl((uint8_t)w, 4u * 4u - (t->stages - 1u)); /* rotr 2(S-1) */
        return;
    }
    if (w == RNP_HOLD)
        return;
    if (w != RNP_TURN) { /* closed before the TURN: nothing delivered */
        r->st = R_IDLE;
        return;
    }
    int ok = check_ok(ni, r->buf, r->n);
    unsigned plen = ok ? r->n - 6 - crc_bytes(ni) : 0; /* the payload's bytes */
    unsigned src = ok ? r->buf[0] | (unsigned)r->buf[1] << 8 : 0;
    unsigned dst = ok ? r->buf[2] | (unsigned)r->buf[3] << 8 : 0;
    int flag = per_source(ni) && (src & RELAY_FLAG);
    if (per_source(ni))
        src &= ~RELAY_FLAG;
    ok = ok && src < t->n && dst == d;
    r->verdict = ok ? ACK_BYTE : NAK_BYTE;
    if (!ok && ni->misrx && dst != d && src < t->n && check_ok(ni, r->buf, r->n))
        ni->misrx(ni->ctx, cycle, src, (unsigned)(r->buf[4] | r->buf[5] << 8), d);
    if (!ok) {
        ni->st.nak++;
    } else if (per_source(ni)) {
        r->verdict = ni_ps_receive(ni, cycle, d, src, flag, (unsigned)(r->buf[4] | r->buf[5] << 8),
                                   r->buf + 6, plen);
        ni->st.nak += r->verdict == NAK_BYTE;
    } else {
        uint16_t seq = (uint16_t)(r->buf[4] | r->buf[5] << 8);
        uint16_t *last = &ni->last_rx[(size_t)d * t->n + src];
        if ((uint16_t)(seq + 1) == *last || (*last && (uint16_t)(*last - seq - 1) < 0x8000u)) {
            ni->st.dup_rx++; /* a retry of a delivered message: acknowledge it again */
        } else {
            *last = (uint16_t)(seq + 1);
            if (ni->rx) {
                ni_msg_t m = {
                    .src = (uint16_t)src, .dst = (uint16_t)d, .seq = seq, .len = (uint16_t)plen};
                memcpy(m.data, r->buf + 6, m.len);
                ni->rx(ni->ctx, cycle, &m, 1);
            }
        }
    }
    r->st = R_ACK;
}

static uint16_t receiver_plan(ni_t *ni, unsigned d, unsigned k)
{
    receiver_t *r = &ni->rcv[d * 2 + k];
    switch (r->st) {
    case R_ACK: r->st = R_XOR; return (uint16_t)(RNP_C | r->verdict);
    case R_XOR: /* then its own CHECKSUM and count, like one more router on the path */
        r->st = R_COUNT;
        return (uint16_t)(RNP_C | r->xr);
    case R_COUNT: r->st = R_DROP; return (uint16_t)(RNP_C | r->count);
    case R_DROP: r->st = R_IDLE; return RNP_DROP;
    default: return RNP_IDLE;
    }
}

int ni_cycle(ni_t *ni, uint64_t cycle, const uint64_t *out, uint64_t *in, dev_write_t *wr)
{
    const rnpnet_topo_t *t = ni->t;
    for (unsigned e = 0; e < t->n; e++) {
        for (unsigned j = e; j < 2 * t->n; j += t->n) {
            sender_t *s = &ni->snd[j];
            unsigned k = s->port;
            sender_observe(ni, cycle, e, s, (uint16_t)out[rnpnet_port(e, k, RNPNET_SOUT)],
                           (unsigned)out[rnpnet_port(e, k, RNPNET_SBC)]);
        }
        for (unsigned q = 0; q < 2; q++)
            receiver_observe(ni, cycle, e, q, (uint16_t)out[rnpnet_port(e, q, RNPNET_DOUT)]);
    }
    for (unsigned e = 0; e < t->n; e++) {
        sender_t *s0 = &ni->snd[e], *s1 = &ni->snd[t->n + e];
        uint16_t w0 = sender_plan(ni, cycle, e, s0, 0);
        uint16_t w1 = ni->rq_len ? sender_plan(ni, cycle, e, s1, 1) : RNP_IDLE;
        for (unsigned q = 0; q < 2; q++) {
            /* the two senders never hold one port (ni_free_ports); an idle one drives IDLE */
            in[rnpnet_port(e, q, RNPNET_SIN)] = q == s0->port && w0 != RNP_IDLE   ? w0
                                                : q == s1->port && w1 != RNP_IDLE ? w1
                                                                                  : RNP_IDLE;
            in[rnpnet_port(e, q, RNPNET_DIN)] = receiver_plan(ni, e, q);
            in[rnpnet_port(e, q, RNPNET_DBC)] = ni->rcv[e * 2 + q].drop_bc;
            ni->rcv[e * 2 + q].drop_bc = 0;
        }
    }
    if (!ni->wq_len)
        return 0;
    *wr = ni->wq[ni->wq_head];
    ni->wq_head = (ni->wq_head + 1) % MAX_WRITES;
    ni->wq_len--;
    return 1;
}
