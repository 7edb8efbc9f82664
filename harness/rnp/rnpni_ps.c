/* rnpni_ps.c — the endpoints' per-source tables and relays (FT-DRB (Zarza et al.) on RNP,
 * contract harness/rnp/ftdrb_rnp.md): each source's own table, its direct choices around what it
 * learnt, multistep paths through relays, and the relays' receive side. */
#include <stdlib.h>
#include <string.h>

#include "rnpni_state.h"

int ni_ps_alloc(ni_t *ni)
{
    const rnpnet_topo_t *t = ni->t;
    ni->ps = calloc((size_t)t->n * PS_MAX, sizeof *ni->ps);
    ni->ps_n = calloc(t->n, 1);
    ni->ps_ver = calloc(t->n, sizeof *ni->ps_ver);
    ni->ps_plan = calloc(t->n, sizeof *ni->ps_plan);
    ni->mp = calloc((size_t)t->n * MP_PAIRS, sizeof *ni->mp);
    ni->floor = calloc(t->n, sizeof *ni->floor);
    ni->stamp = calloc(t->nrouters, sizeof *ni->stamp);
    ni->front = calloc(t->per_stage, sizeof *ni->front);
    ni->next = calloc(t->per_stage, sizeof *ni->next);
    ni->rq = calloc((size_t)t->n * 2 * NI_RELAY_BUF, sizeof *ni->rq);
    ni->rq_head = calloc((size_t)t->n * 2, sizeof *ni->rq_head);
    ni->rq_len = calloc((size_t)t->n * 2, sizeof *ni->rq_len);
    ni->seen_cap = 1u << 16;
    ni->seen = calloc(ni->seen_cap, sizeof *ni->seen);
    ni->sid = calloc(t->n, sizeof *ni->sid);
    ni->sid_cap = calloc(t->n, sizeof *ni->sid_cap);
    return ni->ps && ni->ps_n && ni->ps_ver && ni->ps_plan && ni->mp && ni->floor && ni->stamp && ni->front && ni->next &&
                   ni->rq && ni->rq_head && ni->rq_len && ni->seen && ni->sid && ni->sid_cap
               ? 0
               : -1;
}

/* ---- per-source tables and multistep paths (ftdrb_rnp.md) ------------------------------------ */

static ps_entry_t *ps_tab(ni_t *ni, unsigned e) { return &ni->ps[(size_t)e * PS_MAX]; }

/* An entry blocks a choice while permanent, or until its attempt number reaches the trial. */
static int ps_blocks(const ni_t *ni, const ps_entry_t *x)
{
    return x->stage >= ni->pol.perm_stage || x->attempt < ni->pol.trial_attempts;
}

static int ps_find(ni_t *ni, unsigned e, unsigned r, unsigned p)
{
    ps_entry_t *tb = ps_tab(ni, e);
    for (unsigned i = 0; i < ni->ps_n[e]; i++)
        if (tb[i].router == r && tb[i].port == p)
            return (int)i;
    return -1;
}

/* Source e's own diagnosis names (r, p): a new entry at stage 1, or its stage raised; the
 * attempt number starts again (ftdrb_rnp.md 2). */
void ni_ps_note(ni_t *ni, unsigned e, unsigned r, unsigned p)
{
    int i = ps_find(ni, e, r, p);
    if (i < 0) {
        if (ni->ps_n[e] == PS_MAX) {
            ni->st.lft_full++;
            return;
        }
        i = ni->ps_n[e]++;
        ps_tab(ni, e)[i] = (ps_entry_t){(uint16_t)r, (uint8_t)p, 0, 0};
        ni->st.lft_entries++;
    }
    ps_entry_t *x = &ps_tab(ni, e)[i];
    if (x->stage < 255)
        x->stage++;
    x->attempt = 0;
    if (x->stage == ni->pol.perm_stage)
        ni->st.permanent++;
    ni->ps_ver[e]++;
}

/* Source e's attempt was delivered across (r, p): an entry there goes (FT-DRB clears a path's
 * entries when its latency ACK comes back). */
void ni_ps_crossed_ok(ni_t *ni, unsigned e, unsigned r, unsigned p)
{
    int i = ps_find(ni, e, r, p);
    if (i < 0)
        return;
    ps_entry_t *tb = ps_tab(ni, e);
    tb[i] = tb[--ni->ps_n[e]];
    ni->st.cleared++;
    ni->st.lft_entries--;
    ni->ps_ver[e]++;
}

/* Does table `tab` have an entry that blocks anything? (Most tables are empty: no walk.) */
static int ps_any_blocking(const ni_t *ni, unsigned tab)
{
    const ps_entry_t *tb = &ni->ps[(size_t)tab * PS_MAX];
    for (unsigned i = 0; i < ni->ps_n[tab]; i++)
        if (ps_blocks(ni, &tb[i]))
            return 1;
    return 0;
}

/* The blocking entries of table `tab` that direct choice c (injection port c & 1, the extra
 * digits c >> 1, two bits a stage) of endpoint a toward b can cross, as a mask of entry
 * indices. The links it can cross come from the static wiring (ftdrb_rnp.md 3): from the
 * injection router, both outputs of the direction each stage takes, to the routers they lead
 * to; the walk marks those routers, and an entry's link is crossable when its router was
 * reached and its port is in that stage's direction. */
static uint64_t ps_blocking(ni_t *ni, unsigned tab, unsigned a, unsigned c, unsigned b)
{
    const rnpnet_topo_t *t = ni->t;
    unsigned dirs[NI_MAX_STAGES];
    if (++ni->gen == 0) { /* wrapped: old marks could read as new */
        memset(ni->stamp, 0, t->nrouters * sizeof *ni->stamp);
        ni->gen = 1;
    }
    unsigned nf = 1, k = c & 1u;
    ni->front[0] = t->inj[a * 2 + k] / 8;
    ni->stamp[ni->front[0]] = ni->gen;
    for (unsigned st = 0; st < t->stages; st++) {
        int dg = rnpnet_digit(t, st, b);
        dirs[st] = dg < 0 ? (c >> (1 + 2 * st)) & 3u : (unsigned)dg;
        unsigned nn = 0;
        for (unsigned i = 0; i < nf; i++)
            for (unsigned j = 2 * dirs[st]; j < 2 * dirs[st] + 2; j++) {
                int32_t to = t->down[ni->front[i] * 8 + j];
                if (to < 0 || ni->stamp[to / 8] == ni->gen)
                    continue;
                ni->stamp[to / 8] = ni->gen;
                ni->next[nn++] = (unsigned)to / 8;
            }
        unsigned *sw = ni->front;
        ni->front = ni->next;
        ni->next = sw;
        nf = nn;
    }
    uint64_t hit = 0;
    const ps_entry_t *tb = ps_tab(ni, tab);
    for (unsigned i = 0; i < ni->ps_n[tab]; i++) {
        const ps_entry_t *x = &tb[i];
        if (!ps_blocks(ni, x))
            continue;
        if (x->port >= 8 ? x->router == a && x->port == 8 + k
                         : ni->stamp[x->router] == ni->gen &&
                               x->port / 2u == dirs[rnpnet_stage(t, x->router)])
            hit |= 1ull << i;
    }
    return hit;
}

static unsigned ps_nchoices(const ni_t *ni) { return 2u << (2 * ni->t->extra); }

/* Is some direct choice of endpoint a toward b clear of table tab's blocking entries? */
static int ps_clear(ni_t *ni, unsigned tab, unsigned a, unsigned b)
{
    if (!ps_any_blocking(ni, tab))
        return 1;
    for (unsigned c = 0; c < ps_nchoices(ni); c++)
        if (!ps_blocking(ni, tab, a, c, b))
            return 1;
    return 0;
}

/* Where source e's scan for intermediates toward d starts: a hash of the pair, so that the
 * relay load of many blocked pairs spreads over the endpoints instead of piling on endpoint 0. */
static unsigned ps_scan_start(const ni_t *ni, unsigned e, unsigned d)
{
    return (unsigned)(((uint64_t)e * 2654435761u + (uint64_t)d * 40503u + 12345u) % ni->t->n);
}

/* Source e's multistep path to d (ftdrb_rnp.md 4): fewest segments, then the order of a scan of
 * the endpoints from ps_scan_start, the first PS_SPREAD one-intermediate paths (or the first
 * two-intermediate one); the answer kept until e's table changes. 1 with *i1 (and *i2, or
 * NI_NONE) when there is one. */
static int ps_relay(ni_t *ni, unsigned e, unsigned d, unsigned *i1, unsigned *i2)
{
    ps_plan_t *pl = &ni->ps_plan[e];
    if (!(pl->valid && pl->dst == d && pl->ver == ni->ps_ver[e])) {
        const unsigned n = ni->t->n, lim = 32, s0 = ps_scan_start(ni, e, d);
        unsigned a[32], b[32], na = 0, nb = 0;
        *pl = (ps_plan_t){ni->ps_ver[e], (uint16_t)d, {0}, NI_NONE, 1, 0};
        for (unsigned j = 0, i = s0; j < n && pl->found < PS_SPREAD; j++, i = (i + 1) % n)
            if (i != e && i != d && ps_clear(ni, e, e, i) && ps_clear(ni, e, i, d))
                pl->i1[pl->found++] = (uint16_t)i;
        for (unsigned j = 0, i = s0; j < n && !pl->found && na < lim; j++, i = (i + 1) % n)
            if (i != e && i != d && ps_clear(ni, e, e, i))
                a[na++] = i;
        for (unsigned j = 0, i = s0; j < n && !pl->found && na && nb < lim; j++, i = (i + 1) % n)
            if (i != e && i != d && ps_clear(ni, e, i, d))
                b[nb++] = i;
        for (unsigned x = 0; x < na && !pl->found; x++)
            for (unsigned y = 0; y < nb && !pl->found; y++)
                if (a[x] != b[y] && ps_clear(ni, e, a[x], b[y]))
                    pl->i1[0] = (uint16_t)a[x], pl->i2 = (uint16_t)b[y], pl->found = 1;
    }
    /* FT-DRB spreads a pair's traffic over its multistep paths: one at random a message */
    *i1 = pl->found ? pl->i1[prng_below(&ni->rng, pl->found)] : NI_NONE;
    *i2 = pl->i2;
    return pl->found != 0;
}

/* A direct choice of endpoint a toward b by table tab, on an injection port of `ports` (bit k:
 * port k free): at random among the clear ones; with none, the one with the fewest blocking
 * entries (ties at random). *met: the blocking entries of every choice. Returns the choice;
 * *clear whether it is clear. */
static unsigned ps_direct(ni_t *ni, unsigned tab, unsigned a, unsigned b, unsigned ports,
                          int *clear, uint64_t *met)
{
    unsigned nc = ps_nchoices(ni), best[128], nbest = 0, fewest = 65;
    if (nc > 128) /* past three extra stages the later ones take digit 0 */
        nc = 128;
    *met = 0;
    for (unsigned c = 0; c < nc; c++) {
        if (!(ports >> (c & 1u) & 1u))
            continue;
        uint64_t h = ps_any_blocking(ni, tab) ? ps_blocking(ni, tab, a, c, b) : 0;
        unsigned cnt = (unsigned)__builtin_popcountll(h);
        *met |= h;
        if (cnt < fewest)
            fewest = cnt, nbest = 0;
        if (cnt == fewest)
            best[nbest++] = c;
    }
    *clear = fewest == 0;
    return best[prng_below(&ni->rng, nbest)];
}

/* ---- the metapath (ftdrb_rnp.md 4) --------------------------------------------------------- */

#define MP_GAIN     1.5f /* a path is used while its latency is within this of the best; paths
                            are added while the best is beyond this of the source's floor */
#define MP_COOL0    16u  /* messages of the pair between the first additions of paths */
#define MP_COOL_MAX 1024u

/* Source e's metapath toward d, or NULL; with `make`, a new one (direct path only) in place of
 * the least recently used. */
static ps_mpath_t *mp_get(ni_t *ni, unsigned e, unsigned d, int make, uint64_t now)
{
    ps_mpath_t *mp = &ni->mp[(size_t)e * MP_PAIRS], *old = mp;
    for (unsigned i = 0; i < MP_PAIRS; i++) {
        if (mp[i].valid && mp[i].dst == d) {
            if (make)
                mp[i].used = now;
            return &mp[i];
        }
        if (!mp[i].valid || (old->valid && mp[i].used < old->used))
            old = &mp[i];
    }
    if (!make)
        return NULL;
    *old = (ps_mpath_t){.dst = (uint16_t)d, .i1 = {NI_NONE}, .i2 = {NI_NONE}, .lat = {-1},
                        .n = 1, .valid = 1, .ver = ni->ps_ver[e], .cool = MP_COOL0, .used = now};
    return old;
}

static void mp_drop(ps_mpath_t *mp, unsigned i)
{
    for (unsigned j = i; j + 1 < mp->n; j++) {
        mp->i1[j] = mp->i1[j + 1], mp->i2[j] = mp->i2[j + 1];
        mp->lat[j] = mp->lat[j + 1], mp->probing[j] = mp->probing[j + 1];
    }
    mp->n--;
}

static int mp_find_path(const ps_mpath_t *mp, unsigned i1, unsigned i2)
{
    for (unsigned i = 0; i < mp->n; i++)
        if (mp->i1[i] == i1 && mp->i2[i] == i2)
            return (int)i;
    return -1;
}

/* Are the segments of multistep path (i1, i2) from e to d clear by e's own table? */
static int mp_clear(ni_t *ni, unsigned e, unsigned d, unsigned i1, unsigned i2)
{
    return ps_clear(ni, e, e, i1) &&
           (i2 == NI_NONE ? ps_clear(ni, e, i1, d) : ps_clear(ni, e, i1, i2) && ps_clear(ni, e, i2, d));
}

/* The next multistep path of e's metapath toward d not in it yet: one intermediate, the scan
 * of the endpoints going on where it stopped; with none, two (the first 32 candidates of each
 * segment from the scan's start). 1 with *i1 and *i2 when found. */
static int mp_next(ni_t *ni, unsigned e, ps_mpath_t *mp, unsigned *i1, unsigned *i2)
{
    const unsigned n = ni->t->n, d = mp->dst, s0 = ps_scan_start(ni, e, d);
    for (; mp->scan < n; mp->scan++) {
        unsigned i = (s0 + mp->scan) % n;
        if (i != e && i != d && mp_find_path(mp, i, NI_NONE) < 0 && mp_clear(ni, e, d, i, NI_NONE)) {
            *i1 = i, *i2 = NI_NONE;
            mp->scan++;
            return 1;
        }
    }
    unsigned a[32], b[32], na = 0, nb = 0;
    for (unsigned j = 0, i = s0; j < n && na < 32; j++, i = (i + 1) % n)
        if (i != e && i != d && ps_clear(ni, e, e, i))
            a[na++] = i;
    for (unsigned j = 0, i = s0; j < n && na && nb < 32; j++, i = (i + 1) % n)
        if (i != e && i != d && ps_clear(ni, e, i, d))
            b[nb++] = i;
    for (unsigned x = 0; x < na; x++)
        for (unsigned y = 0; y < nb; y++)
            if (a[x] != b[y] && mp_find_path(mp, a[x], b[y]) < 0 && ps_clear(ni, e, a[x], b[y])) {
                *i1 = a[x], *i2 = b[y];
                return 1;
            }
    return 0;
}

/* The choice rule (ftdrb_rnp.md 4): the path of e's metapath toward d a new message takes.
 * Paths whose segments the table no longer clears go; a path is added, after a wait that
 * grows fourfold each time, while the best latency is beyond MP_GAIN of the source's floor
 * (the direct path measured: a known fault it cannot avoid shows as retries in its latency); a new path takes one message to
 * be measured; then the direct path and every path within MP_GAIN of the best share the
 * traffic in proportion to 1 / latency, slower multistep paths go. Returns the path index. */
static unsigned mp_choose(ni_t *ni, unsigned e, ps_mpath_t *mp)
{
    if (mp->ver != ni->ps_ver[e]) {
        for (unsigned i = mp->n; i-- > 1;)
            if (!mp_clear(ni, e, mp->dst, mp->i1[i], mp->i2[i]))
                mp_drop(mp, i);
        mp->ver = ni->ps_ver[e];
        mp->scan = 0;
        mp->cool = MP_COOL0;
    }
    float best = -1;
    int probing = 0;
    for (unsigned i = 0; i < mp->n; i++) {
        if (mp->lat[i] >= 0 && (best < 0 || mp->lat[i] < best))
            best = mp->lat[i];
        probing |= mp->probing[i];
    }
    for (unsigned i = mp->n; best >= 0 && i-- > 1;)
        if (mp->lat[i] > MP_GAIN * best)
            mp_drop(mp, i);
    float fl = ni->floor[e];
    int want = fl > 0 && best > MP_GAIN * fl;
    unsigned i1, i2;
    mp->msgs++;
    if (want && mp->lat[0] >= 0 && !probing && mp->n < MP_PATHS && mp->msgs >= mp->next_add) {
        mp->next_add = mp->msgs + mp->cool;
        mp->cool = mp->cool * 4 > MP_COOL_MAX ? MP_COOL_MAX : mp->cool * 4;
        if (mp_next(ni, e, mp, &i1, &i2)) {
            unsigned k = mp->n++;
            mp->i1[k] = (uint16_t)i1, mp->i2[k] = (uint16_t)i2;
            mp->lat[k] = -1;
            mp->probing[k] = 1;
            return k; /* its first message measures it */
        }
    }
    if (mp->n == 1 || best < 0)
        return 0;
    float w[MP_PATHS], sum = 0;
    for (unsigned i = 0; i < mp->n; i++) {
        w[i] = i == 0 ? 1.0f / (mp->lat[0] >= 0 ? mp->lat[0] : best)
                      : mp->lat[i] >= 0 ? 1.0f / mp->lat[i] : 0;
        sum += w[i];
    }
    float x = (float)prng_below(&ni->rng, 1u << 24) / (float)(1u << 24) * sum;
    for (unsigned i = 0; i < mp->n; i++) {
        if (x < w[i])
            return i;
        x -= w[i];
    }
    return 0;
}

/* The latency ACK of original m (ftdrb_rnp.md 4): its latency from its first attempt, into its
 * path's average and the source's floor; a message given up takes its path out. */
void ni_ps_latency(ni_t *ni, const ni_msg_t *m, uint64_t cycle, int delivered)
{
    if (!m->routed || m->t_first == 0)
        return;
    float lat = (float)(cycle - m->t_first);
    ps_mpath_t *mp = mp_get(ni, m->src, m->dst, 0, 0);
    if (delivered && m->via1 == NI_NONE && (ni->floor[m->src] == 0 || lat < ni->floor[m->src]))
        ni->floor[m->src] = lat;
    int i = mp ? mp_find_path(mp, m->via1, m->via2) : -1;
    if (i < 0)
        return;
    mp->probing[i] = 0;
    if (!delivered && i > 0)
        mp_drop(mp, (unsigned)i);
    else
        mp->lat[i] = mp->lat[i] < 0 ? lat : mp->lat[i] + (lat - mp->lat[i]) / 4;
}

/* A relay answered BUSY to original m's first segment: its path's latency rises by a quarter,
 * so the source sends less that way (ftdrb_rnp.md 5). */
void ni_ps_busy(ni_t *ni, const ni_msg_t *m)
{
    ps_mpath_t *mp = m->routed ? mp_get(ni, m->src, m->dst, 0, 0) : NULL;
    int i = mp ? mp_find_path(mp, m->via1, m->via2) : -1;
    if (i > 0 && mp->lat[i] >= 0)
        mp->lat[i] *= 1.25f;
}

/* Sender e plans this attempt of s->m with its own table on a port of `ports`: injection port,
 * extra digits, and where to on the wire (ftdrb_rnp.md 3 and 4). */
void ni_ps_choose(ni_t *ni, unsigned e, sender_t *s, unsigned ports)
{
    ni_msg_t *m = s->m;
    int clear;
    uint64_t met;
    unsigned c = ps_direct(ni, e, e, m->dst, ports, &clear, &met);
    s->to = m->dst;
    s->flag = m->step != 0;
    s->hop2 = m->hop2;
    if (!clear) {
        /* every direct choice passed over: FT-DRB's timer on the non-permanent entries met */
        ps_entry_t *tb = ps_tab(ni, e);
        for (unsigned i = 0; i < ni->ps_n[e]; i++)
            if ((met >> i & 1u) && tb[i].stage < ni->pol.perm_stage && tb[i].attempt < 255 &&
                ++tb[i].attempt == ni->pol.trial_attempts)
                ni->ps_ver[e]++;
    }
    int can = ni->pol.relays && m->step == 0 && m->len + NI_RELAY_HDR <= NI_MAX_PAYLOAD;
    unsigned i1 = NI_NONE, i2 = NI_NONE;
    if (can && !ni->pol.no_spread) {
        ps_mpath_t *mp = mp_get(ni, e, m->dst, 1, m->id);
        if (m->routed && mp_find_path(mp, m->via1, m->via2) < 0)
            m->routed = 0; /* its path went: the message takes another */
        if (!m->routed) {
            unsigned k = mp_choose(ni, e, mp);
            m->via1 = mp->i1[k], m->via2 = mp->i2[k];
            m->routed = 1;
        }
        i1 = m->via1, i2 = m->via2;
    } else if (can && !clear && !ps_relay(ni, e, m->dst, &i1, &i2)) {
        i1 = NI_NONE;
    }
    if (i1 != NI_NONE) {
        m->via1 = (uint16_t)i1, m->via2 = (uint16_t)i2; /* the path it took, for the shares */
        c = ps_direct(ni, e, e, i1, ports, &clear, &met);
        s->to = i1;
        s->hop2 = i2;
        s->flag = 1;
    } else if (!clear) {
        ni->st.no_clear++; /* the retry is the escape */
    }
    s->port = c & 1u;
    for (unsigned st = 0; st < ni->t->stages; st++)
        s->xd[st] = (uint8_t)(st < ni->t->extra ? (c >> (1 + 2 * st)) & 3u : 0u);
}

/* The set of (endpoint, source, seq) taken (ftdrb_rnp.md 4): 1 when added, 0 when it was there. */
static uint64_t seen_key(unsigned d, unsigned src, unsigned seq)
{
    return ((uint64_t)(d + 1) << 32) | (uint64_t)src << 16 | seq;
}

static size_t seen_slot(const uint64_t *tab, size_t cap, uint64_t k)
{
    size_t h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
    while (tab[h] && tab[h] != k)
        h = (h + 1) & (cap - 1);
    return h;
}

static int seen_has(const ni_t *ni, unsigned d, unsigned src, unsigned seq)
{
    uint64_t k = seen_key(d, src, seq);
    return ni->seen[seen_slot(ni->seen, ni->seen_cap, k)] == k;
}

static int seen_add(ni_t *ni, unsigned d, unsigned src, unsigned seq)
{
    if (2 * (ni->seen_n + 1) > ni->seen_cap) {
        size_t cap = ni->seen_cap * 2;
        uint64_t *n = calloc(cap, sizeof *n);
        if (n) {
            for (size_t i = 0; i < ni->seen_cap; i++)
                if (ni->seen[i])
                    n[seen_slot(n, cap, ni->seen[i])] = ni->seen[i];
            free(ni->seen);
            ni->seen = n;
            ni->seen_cap = cap;
        }
    }
    uint64_t k = seen_key(d, src, seq);
    size_t h = seen_slot(ni->seen, ni->seen_cap, k);
    if (ni->seen[h] == k)
        return 0;
    ni->seen[h] = k;
    ni->seen_n++;
    return 1;
}

static void deliver_rx(ni_t *ni, uint64_t cycle, unsigned src, unsigned d, unsigned seq,
                       const uint8_t *data, unsigned len)
{
    if (!ni->rx)
        return;
    ni_msg_t m = {
        .src = (uint16_t)src, .dst = (uint16_t)d, .seq = (uint16_t)seq, .len = (uint16_t)len};
    memcpy(m.data, data, len);
    ni->rx(ni->ctx, cycle, &m, 1);
}

/* Has destination d taken (src, seq)? The set, or with the dedup_last mutant the global mode's
 * last sequence number per source, which is wrong once messages can overtake each other.
 * Takes it if not. */
static int taken_before(ni_t *ni, unsigned d, unsigned src, unsigned seq)
{
    if (!ni->pol.dedup_last)
        return !seen_add(ni, d, src, seq);
    uint16_t *last = &ni->last_rx[(size_t)d * ni->t->n + src];
    if ((uint16_t)(seq + 1) == *last || (*last && (uint16_t)(*last - seq - 1) < 0x8000u))
        return 1;
    *last = (uint16_t)(seq + 1);
    return 0;
}

/* Endpoint d took a whole message addressed to it (CRC right) from wire source src: deliver
 * it, take it as a relay, or refuse it (ftdrb_rnp.md 4). Returns the answer. */
uint8_t ni_ps_receive(ni_t *ni, uint64_t cycle, unsigned d, unsigned src, int flag, unsigned seq,
                      const uint8_t *pl, unsigned len)
{
    if (!flag) {
        if (taken_before(ni, d, src, seq)) {
            ni->st.dup_rx++;
            return ACK_BYTE;
        }
        deliver_rx(ni, cycle, src, d, seq, pl, len);
        return ACK_BYTE;
    }
    if (len < NI_RELAY_HDR)
        return NAK_BYTE;
    unsigned osrc = pl[0] | (unsigned)pl[1] << 8, oseq = pl[2] | (unsigned)pl[3] << 8,
             fdst = pl[4] | (unsigned)pl[5] << 8, hop2 = pl[6] | (unsigned)pl[7] << 8;
    if (osrc >= ni->t->n || fdst >= ni->t->n || oseq >= ni->sid_cap[osrc] ||
        (hop2 != NI_NONE && hop2 >= ni->t->n))
        return NAK_BYTE;
    if (seen_has(ni, d, src, seq)) { /* a retry of a segment taken: its ACK was lost */
        ni->st.dup_rx++;
        return ACK_BYTE;
    }
    if (fdst == d) { /* the final destination: deduplicated by the original */
        seen_add(ni, d, src, seq);
        if (taken_before(ni, d, osrc, oseq)) {
            ni->st.dup_rx++;
            return ACK_BYTE;
        }
        deliver_rx(ni, cycle, osrc, d, oseq, pl + NI_RELAY_HDR, len - NI_RELAY_HDR);
        return ACK_BYTE;
    }
    unsigned step = src == osrc ? 0 : 1, q = d * 2 + step; /* R1 from the source, else R2 */
    unsigned cap = ni->pol.relay_buf && ni->pol.relay_buf < NI_RELAY_BUF ? ni->pol.relay_buf
                                                                        : NI_RELAY_BUF;
    if (ni->rq_len[q] >= cap) { /* full: push back, never drop (ftdrb_rnp.md 5b) */
        ni->st.busy++;
        return BUSY_BYTE;
    }
    unsigned next = step == 0 && hop2 != NI_NONE ? hop2 : fdst;
    ni_msg_t *g = ni_new_msg(ni, cycle, d, next, len - NI_RELAY_HDR, pl + NI_RELAY_HDR);
    if (!g)
        return BUSY_BYTE;
    seen_add(ni, d, src, seq);
    g->orig = ni->sid[osrc][oseq];
    g->final_dst = (uint16_t)fdst;
    g->hop2 = (uint16_t)hop2;
    g->step = (uint8_t)(step + 1);
    ni->rq[q * NI_RELAY_BUF + (ni->rq_head[q] + ni->rq_len[q]) % NI_RELAY_BUF] = g;
    ni->rq_len[q]++;
    if (ni->rq_len[q] > ni->st.relay_peak)
        ni->st.relay_peak = ni->rq_len[q];
    ni->st.segments++;
    return ACK_BYTE;
}

/* A delivered attempt with per-source tables. Returns 1 when it was a segment's or a relayed
 * attempt's (custody passed on, or the original delivered at its destination); 0 for an
 * original's direct delivery, which the caller reports. */
int ni_ps_delivered(ni_t *ni, uint64_t cycle, const sender_t *s)
{
    ni_msg_t *m = s->m;
    if (m->step == 0 && s->to == m->dst)
        return 0;
    if (m->step == 0) { /* taken by the first intermediate: its custody */
        m->state = 3;
        m->relayed = 1;
        return 1;
    }
    m->state = 1;
    m->t_done = cycle;
    ni_msg_t *o = &ni->msgs[m->orig];
    if (s->to == m->final_dst && (o->state == 0 || o->state == 3)) {
        o->state = 1;
        o->t_done = cycle;
        o->relayed = 1;
        ni_ps_latency(ni, o, cycle, 1); /* the latency ACK of the path it took */
        ni->st.delivered++;
        ni->st.relayed++;
        ni->st.latency_sum += cycle - o->t_created;
        ni->st.words_delivered += o->len;
        if (ni->done)
            ni->done(ni->ctx, cycle, o, 1);
    }
    return 1;
}

/* A segment given up by its relay: the original's source is told, if the original was in
 * custody (a source still trying its original itself reports it itself). */
void ni_ps_segment_failed(ni_t *ni, uint64_t cycle, ni_msg_t *m)
{
    m->state = 2;
    m->t_done = cycle;
    ni_msg_t *o = &ni->msgs[m->orig];
    if (o->state != 3)
        return;
    o->state = 2;
    o->t_done = cycle;
    ni_ps_latency(ni, o, cycle, 0); /* the path failed: it goes */
    ni->st.failed++;
    if (ni->done)
        ni->done(ni->ctx, cycle, o, 0);
}
