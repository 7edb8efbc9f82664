/*
 * sci_ftdrb.c — FT-DRB (Zarza et al.) in the hosts of the running torus
 * (harness/scisys/ftdrb_sci.md): a FAIL_REPORT for another node's packet becomes a NOTE to that
 * packet's source; every host keeps its own fault table (one entry per ring: stage and attempt
 * numbers); every message a host sends (DATA, ACK, NOTE) takes the first usable multistep path
 * through up to two intermediates, whose hosts relay it (RELAY packets, a bounded relay buffer
 * per host); the destination's ACK carries the message's latency and path, which clears the
 * path's entries and measures the path for the pair's metapath (section 4a: each flow's DATA
 * spread over up to four paths by their latencies). A relay whose buffer holds 64 packets
 * refuses a DATA and answers its source busy (section 6). Everything here is per node: it
 * runs in the host phases, on any thread, touching only the state of the node whose phase it
 * is (a flow's metapath is its source's).
 */
#include "sci_sys_internal.h"

#include <stdlib.h>
#include <string.h>

#define RELQ      256u /* the relay buffer, packets (ftdrb_sci.md section 6) */
#define PERMANENT 3u  /* stage number at which a fault is permanent */
#define TRIAL     10u /* attempt number at which a non-permanent path is tried again */
#define NONE      0xFFFFu /* no intermediate */
#define NPATH     128u   /* path entries per host (ftdrb_sci.md section 3) */
#define NCACHE    64u    /* path selections remembered per host (by destination) */
#define MAXNODES  1024u  /* node indices are 10 bits in a RELAY's route (ftdrb_sci.md section 5) */
#define RESV      192u    /* relay buffer places a relayed DATA never takes (ftdrb_sci.md s.6) */
#define MPMAX     SCI_FTDRB_MPMAX /* members of a metapath (ftdrb_sci.md section 4) */
#define MP_GROW   2u     /* a member is added when the best member's latency is this many times
                            the least the metapath has measured */
#define MP_SETTLE 8u     /* latency ACKs between two additions */
#define FD_BUSY   0xBu   /* a NOTE's reason: a relay refused the packet (ftdrb_sci.md s.6) */
#define MP_PROBE_W 4u    /* the weight of a member slower than member 0: measured, not used (C2) */
#define PROBE0    16u    /* DATA between two probes of a failed direct path, at first (C3) */
#define PROBEMAX  1024u  /* ... doubled at each probe that fails, up to this */

typedef struct fdent {
    uint8_t stage;   /* 0: no entry */
    uint8_t attempt; /* the timer of ftdrb_sci.md section 3 */
    uint16_t notifier;
    uint64_t mark; /* the entry last changed then: older failures are the same notification */
} fdent_t;

/* A path that failed although none of its rings was named: the tables in force took the
 * message off its X-first route (around a broken ring nobody reported: the drivers' and the
 * hardware's detours), and it failed on the detour. Same stage and attempt numbers. */
typedef struct fdpath {
    uint16_t dst, in1, in2;
    uint8_t stage, attempt;
    uint64_t mark;
} fdpath_t;

/* A selection remembered: valid while the host's table is as it was (epoch) and its own rings
 * show the same; only selections that passed no candidate over for its timers are kept (they
 * change no attempt number, so making them again would change nothing). */
typedef struct fdsel {
    uint32_t epoch; /* 0: empty */
    uint16_t dst, in1, in2;
    uint8_t own, use;
} fdsel_t;

/* A metapath (ftdrb_sci.md section 4): per flow (a source-destination pair), the selection's
 * path (member 0) and the paths added when latency grew; the messages are spread over them by
 * smooth weighted round robin, each member's weight inversely proportional to its latency. */
typedef struct mpm {
    uint16_t in1, in2;
    uint32_t lat;   /* the running mean of its latency ACKs (cycles; 0: none yet) */
    int32_t credit; /* the round robin's */
    uint64_t sent;  /* messages sent on it since sci_sys_ftdrb_mark */
} mpm_t;

typedef struct mpath {
    uint32_t epoch;  /* the source's table as it was when the members were checked */
    uint8_t n;       /* members (0: none yet) */
    uint8_t acks;    /* latency ACKs since the last addition */
    uint32_t least;  /* the least latency any member measured since member 0 last changed */
    uint8_t dfailed; /* C1: a direct DATA failed on a fault since the direct path delivered */
    uint16_t gap, since; /* C3: DATA between two probes of the direct path (0: PROBE0), since one */
    uint64_t dmark;  /* when the direct path's state last changed (older failures are stale) */
    uint64_t tmo;    /* the flow's timeout rounds when its last DATA was sent */
    mpm_t m[MPMAX];
} mpath_t;

typedef struct fdnode {
    fdent_t *ent;    /* rings: X of row r at r, Y of column c at H + c */
    uint64_t known;  /* rings with an entry */
    uint64_t perm;   /* ... of which permanent */
    uint64_t sent_at[NTID];  /* per tid (low 8 bits): when it was sent */
    uint32_t ack_flow[NTID]; /* per tid of an ACK this host sent: its flow + 1 (0: not one) */
    uint64_t *note_at;       /* per source node: when this host last notified it */
    uint64_t sent_path[NTID]; /* per tid: sp_make's (0: unknown) */
    fdpath_t path[NPATH];
    unsigned npath;
    uint32_t epoch; /* +1 whenever the table changes (the selections remembered are stale) */
    fdsel_t sel[NCACHE];
    bool fallback; /* the last selection found no usable path */
    pkt_t rq[RELQ];
    unsigned rqh, rqn;
    uint16_t rx_in1, rx_in2; /* the path of the DATA being handed to the host agent (its ACK's) */
    int lastuse;             /* the last selection's verdict (P_CLEAN, P_TRIAL, ...) */
    uint64_t *busy_at;       /* per source node: when this relay last answered it busy ... */
    uint16_t *busy_flow;     /* ... and for which flow */
    sci_ftdrb_stats_t st;
} fdnode_t;

struct scisys_fd {
    fdnode_t *n;
    mpath_t *mp; /* per flow */
    unsigned nmp;
    bool spread; /* metapaths of more than one member (not SCI_FTDRB_NO_SPREAD) */
};

static inline uint64_t xring(unsigned r) { return 1ull << r; }

/* What a host remembers of the path a packet took: destination, intermediates, whether the
 * selection found nothing usable (the packet went direct regardless). */
static inline uint64_t sp_make(unsigned dst, unsigned in1, unsigned in2, bool fallback)
{
    return dst | (uint64_t)in1 << 16 | (uint64_t)in2 << 32 | 1ull << 48 | (uint64_t)fallback << 49;
}
static inline unsigned sp_dst(uint64_t sp) { return sp & 0xFFFFu; }
static inline unsigned sp_in1(uint64_t sp) { return sp >> 16 & 0xFFFFu; }
static inline unsigned sp_in2(uint64_t sp) { return sp >> 32 & 0xFFFFu; }
static inline uint64_t yring(const sci_sys_t *s, unsigned c) { return 1ull << (s->h + c); }

int scisys_ftdrb_open(sci_sys_t *s, char *err, size_t errlen)
{
    if (s->n > MAXNODES || s->w + s->h > 64) {
        snprintf(err, errlen, "FT-DRB runs on tori of up to %u nodes (ftdrb_sci.md section 5)",
                 MAXNODES);
        return -1;
    }
    scisys_fd_t *fd = calloc(1, sizeof *fd);
    if (!fd || !(fd->n = calloc(s->n, sizeof *fd->n))) {
        free(fd);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < s->n; i++)
        if (!(fd->n[i].ent = calloc(s->w + s->h, sizeof(fdent_t))) ||
            !(fd->n[i].note_at = calloc(s->n, sizeof(uint64_t))) ||
            !(fd->n[i].busy_at = calloc(s->n, sizeof(uint64_t))) ||
            !(fd->n[i].busy_flow = calloc(s->n, sizeof(uint16_t)))) {
            s->fd = fd;
            scisys_ftdrb_free(s);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    for (unsigned i = 0; i < s->n; i++)
        fd->n[i].rx_in1 = fd->n[i].rx_in2 = NONE, fd->n[i].epoch = 1;
    fd->spread = s->cfg.ftdrb != SCI_FTDRB_NO_SPREAD;
    s->fd = fd;
    return 0;
}

int scisys_ftdrb_flow_added(sci_sys_t *s)
{
    scisys_fd_t *fd = s->fd;
    if (s->nflow < fd->nmp)
        return 0;
    unsigned cap = fd->nmp ? 2 * fd->nmp : 64;
    mpath_t *m = realloc(fd->mp, cap * sizeof *m);
    if (!m)
        return -1;
    memset(m + fd->nmp, 0, (cap - fd->nmp) * sizeof *m);
    fd->mp = m;
    fd->nmp = cap;
    return 0;
}

void scisys_ftdrb_free(sci_sys_t *s)
{
    if (!s->fd)
        return;
    for (unsigned i = 0; s->fd->n && i < s->n; i++)
        free(s->fd->n[i].ent), free(s->fd->n[i].note_at), free(s->fd->n[i].busy_at),
            free(s->fd->n[i].busy_flow);
    free(s->fd->n);
    free(s->fd->mp);
    free(s->fd);
    s->fd = NULL;
}

/* ---- paths ------------------------------------------------------------------------------ */

/* Host i's LCs whose ring is down or that are disabled: bit 0 X, bit 1 Y. */
static unsigned rings_down(sci_sys_t *s, unsigned i)
{
    unsigned m = 0;
    for (unsigned k = 0; k < 2; k++) {
        uint64_t st = reg_read(s, i, (k ? SCI_NODE_LC_STRIDE : 0) + SCI_REG_STATUS);
        if (!(st & 1u) || (st & 4u))
            m |= 1u << k;
    }
    return m;
}


/* The rings of the X-first route from a to b, and its length in ring hops. */
static uint64_t seg_rings(const sci_sys_t *s, unsigned a, unsigned b, unsigned *hops)
{
    unsigned ax = xn(s, a), ay = yn(s, a), bx = xn(s, b), by = yn(s, b);
    uint64_t m = 0;
    *hops += (bx + s->w - ax) % s->w + (by + s->h - ay) % s->h;
    if (ax != bx)
        m |= xring(ay);
    if (ay != by)
        m |= yring(s, bx);
    return m;
}

static uint64_t path_rings(const sci_sys_t *s, unsigned src, unsigned in1, unsigned in2,
                           unsigned dst, unsigned *hops)
{
    unsigned h = 0, a = src;
    uint64_t m = 0;
    if (in1 != NONE)
        m |= seg_rings(s, a, in1, &h), a = in1;
    if (in2 != NONE)
        m |= seg_rings(s, a, in2, &h), a = in2;
    m |= seg_rings(s, a, dst, &h);
    if (hops)
        *hops = h;
    return m;
}

/* What the table says of a path: */
enum { P_NO = 0, P_CLEAN, P_TRIAL, P_WAIT }; /* permanent entry; none; a trial; timer running */

/* The ring entries of a path's rings m; *wait: those whose timer runs (below TRIAL). */
static int path_use(const fdnode_t *n, uint64_t m, uint64_t *wait)
{
    uint64_t bad = m & n->known;
    *wait = 0;
    if (!bad)
        return P_CLEAN;
    if (bad & n->perm)
        return P_NO;
    for (unsigned r = 0; r < 64; r++)
        if ((bad >> r & 1u) && n->ent[r].attempt < TRIAL)
            *wait |= 1ull << r;
    return *wait ? P_WAIT : P_TRIAL;
}

static fdpath_t *path_find(fdnode_t *n, unsigned dst, unsigned in1, unsigned in2)
{
    for (unsigned k = 0; k < n->npath; k++)
        if (n->path[k].dst == dst && n->path[k].in1 == in1 && n->path[k].in2 == in2)
            return &n->path[k];
    return NULL;
}

/* path_use and the path's own entry; *wait, *we: the ring entries and the path entry whose
 * timer runs. */
static int path_ok(fdnode_t *n, uint64_t m, unsigned dst, unsigned in1, unsigned in2,
                   uint64_t *wait, fdpath_t **we)
{
    int u = path_use(n, m, wait);
    fdpath_t *e = n->npath ? path_find(n, dst, in1, in2) : NULL;
    *we = NULL;
    if (u == P_NO || !e)
        return u;
    if (e->stage >= PERMANENT)
        return P_NO;
    if (e->attempt < TRIAL) {
        *we = e;
        return P_WAIT;
    }
    return u == P_CLEAN ? P_TRIAL : u;
}

/* The best candidates of one group (ftdrb_sci.md section 4): the first usable one and the first
 * passed over for its timers, in the order (length, In1, In2). */
typedef struct best {
    uint64_t ukey, wkey; /* UINT64_MAX: none */
    unsigned u1, u2;
    int use;
    uint64_t wait;
    fdpath_t *we;
} best_t;

/* Whether metapath mp (NULL: none) has the path via a, bb. */
static bool mp_has(const mpath_t *mp, unsigned a, unsigned bb)
{
    for (unsigned j = 0; mp && j < mp->n; j++)
        if (mp->m[j].in1 == a && mp->m[j].in2 == bb)
            return true;
    return false;
}

static void consider(fdnode_t *n, best_t *b, uint64_t key, uint64_t m, unsigned dst, unsigned a,
                     unsigned bb, const mpath_t *ex)
{
    if (key >= b->ukey)
        return; /* after the first usable one: neither used nor timed */
    if (ex) { /* a metapath's next member: clean, and not one already */
        uint64_t wait;
        fdpath_t *we;
        if (!mp_has(ex, a, bb) && path_ok(n, m, dst, a, bb, &wait, &we) == P_CLEAN)
            b->ukey = key, b->u1 = a, b->u2 = bb, b->use = P_CLEAN;
        return;
    }
    uint64_t wait;
    fdpath_t *we;
    int use = path_ok(n, m, dst, a, bb, &wait, &we);
    if (use == P_CLEAN || use == P_TRIAL)
        b->ukey = key, b->u1 = a, b->u2 = bb, b->use = use;
    else if (use == P_WAIT && key < b->wkey)
        b->wkey = key, b->wait = wait, b->we = we;
}

/* Group g's candidates from host i to dst: every In1 (g 1) or every In1 != In2 (g 2), neither
 * i nor dst. One pass, keeping the first in order; a candidate after the first usable one
 * found so far costs only its length. */
static void scan(sci_sys_t *s, fdnode_t *n, unsigned i, unsigned dst, unsigned g, best_t *b,
                 const mpath_t *ex)
{
    uint64_t N = s->n;
    *b = (best_t){.ukey = UINT64_MAX, .wkey = UINT64_MAX};
    for (unsigned a = 0; a < s->n; a++) {
        if (a == i || a == dst)
            continue;
        unsigned h1 = 0;
        uint64_t m1 = seg_rings(s, i, a, &h1);
        if (g == 1) {
            unsigned h = h1;
            uint64_t m = m1 | seg_rings(s, a, dst, &h);
            consider(n, b, (uint64_t)h * N + a, m, dst, a, NONE, ex);
            continue;
        }
        for (unsigned c = 0; c < s->n; c++) {
            if (c == i || c == dst || c == a)
                continue;
            unsigned h = h1;
            uint64_t m = m1 | seg_rings(s, a, c, &h);
            m |= seg_rings(s, c, dst, &h);
            consider(n, b, ((uint64_t)h * N + a) * N + c, m, dst, a, c, ex);
        }
    }
}

/* Host i's path to dst (ftdrb_sci.md section 4): *in1, *in2 (NONE: none). */
static void select_path(sci_sys_t *s, unsigned i, unsigned dst, unsigned *in1, unsigned *in2)
{
    fdnode_t *n = &s->fd->n[i];
    *in1 = *in2 = NONE;
    n->fallback = false;
    n->lastuse = P_CLEAN;
    if (!n->known && !n->npath)
        return;
    /* the host's own rings it sees down count as permanent entries while they are down: the
     * tables in force send an X-first segment that starts on one of them around it, onto
     * rings no notification will name as this segment's */
    unsigned own = rings_down(s, i);
    fdsel_t *c = &n->sel[dst % NCACHE];
    if (c->epoch == n->epoch && c->dst == dst && c->own == own) {
        *in1 = c->in1, *in2 = c->in2;
        n->lastuse = c->use;
        if (c->use == P_TRIAL)
            n->st.trials++;
        else if (c->use != P_CLEAN)
            n->st.no_path++, n->fallback = true;
        return;
    }
    uint64_t ownm = ((own & 1u) ? xring(yn(s, i)) : 0) | ((own & 2u) ? yring(s, xn(s, i)) : 0);
    uint64_t known0 = n->known, perm0 = n->perm;
    n->known |= ownm;
    n->perm |= ownm;
    /* the first candidate passed over only for its timers is the one whose timers run (one
     * path at a time comes up for a trial, the most preferred) */
    uint64_t pend = 0;
    fdpath_t *pend_e = NULL;
    bool pending = false;
    int use = path_ok(n, path_rings(s, i, NONE, NONE, dst, NULL), dst, NONE, NONE, &pend, &pend_e);
    if (use == P_WAIT)
        pending = true;
    else
        pend = 0, pend_e = NULL;
    for (unsigned g = 1; g <= 2 && (use == P_NO || use == P_WAIT); g++) {
        best_t b;
        scan(s, n, i, dst, g, &b, NULL);
        if (!pending && b.wkey != UINT64_MAX && b.wkey < b.ukey)
            pending = true, pend = b.wait, pend_e = b.we;
        if (b.ukey != UINT64_MAX)
            use = b.use, *in1 = b.u1, *in2 = b.u2;
    }
    if (use == P_NO || use == P_WAIT) { /* nothing usable: direct, as if no table (rule 4) */
        *in1 = *in2 = NONE;
        n->st.no_path++;
        n->fallback = true;
    } else if (use == P_TRIAL) {
        n->st.trials++;
    }
    for (unsigned r = 0; r < 64; r++)
        if ((pend >> r & 1u) && n->ent[r].attempt < 255 && ++n->ent[r].attempt == TRIAL)
            scisys_log(s, i, "FT-DRB: fault table: %c ring %u attempt %u: its paths come up for "
                       "a trial", r >= s->h ? 'Y' : 'X', r >= s->h ? r - s->h : r, TRIAL);
    if (pend_e && pend_e->attempt < 255 && ++pend_e->attempt == TRIAL)
        scisys_log(s, i, "FT-DRB: fault table: path to (%u,%u) via %d,%d attempt %u: it comes up "
                   "for a trial", xn(s, pend_e->dst), yn(s, pend_e->dst),
                   pend_e->in1 == NONE ? -1 : (int)pend_e->in1,
                   pend_e->in2 == NONE ? -1 : (int)pend_e->in2, TRIAL);
    n->known = known0;
    n->perm = perm0;
    n->lastuse = n->fallback ? P_NO : use;
    if (pending) { /* the attempt numbers moved: every selection remembered may be stale */
        n->epoch++;
        return;
    }
    *c = (fdsel_t){n->epoch, (uint16_t)dst, (uint16_t)*in1, (uint16_t)*in2, (uint8_t)own,
                   (uint8_t)(n->fallback ? P_NO : use)};
}

/* ---- metapaths (ftdrb_sci.md section 4) ------------------------------------------------- */

/* Host i's own rings it sees down, as ring bits (permanent entries while they are down). */
static uint64_t own_rings(sci_sys_t *s, unsigned i)
{
    unsigned own = rings_down(s, i);
    return ((own & 1u) ? xring(yn(s, i)) : 0) | ((own & 2u) ? yring(s, xn(s, i)) : 0);
}

/* Whether host i's table (and its own rings down, ownm) leave the path via a, b clean. */
static bool path_clean(sci_sys_t *s, fdnode_t *n, unsigned i, unsigned dst, unsigned a,
                       unsigned b, uint64_t ownm)
{
    uint64_t m = path_rings(s, i, a, b, dst, NULL), wait;
    fdpath_t *we;
    return !(m & ownm) && path_ok(n, m, dst, a, b, &wait, &we) == P_CLEAN;
}

static void mp_log(sci_sys_t *s, unsigned k, const mpm_t *m, const char *what)
{
    const flow_t *f = &s->flow[k];
    scisys_log(s, f->src, "FT-DRB: metapath to (%u,%u): %s via %d,%d (%u members)", xn(s, f->dst),
               yn(s, f->dst), what, m->in1 == NONE ? -1 : (int)m->in1,
               m->in2 == NONE ? -1 : (int)m->in2, s->fd->mp[k].n);
}

static void mp_remove(sci_sys_t *s, unsigned k, unsigned j, const char *why)
{
    mpath_t *mp = &s->fd->mp[k];
    mpm_t gone = mp->m[j];
    memmove(&mp->m[j], &mp->m[j + 1], (mp->n - j - 1u) * sizeof mp->m[0]);
    mp->n--;
    s->fd->n[s->flow[k].src].st.mp_dropped++;
    mp_log(s, k, &gone, why);
}

/* Flow k's metapath, its member 0 the selection (in1, in2) of ftdrb_sci.md section 4's rule; a
 * member the source's table no longer leaves clean is dropped. */
static mpath_t *mp_check(sci_sys_t *s, unsigned k, unsigned in1, unsigned in2)
{
    mpath_t *mp = &s->fd->mp[k];
    unsigned i = s->flow[k].src, dst = s->flow[k].dst;
    fdnode_t *n = &s->fd->n[i];
    bool same = mp->n && mp->m[0].in1 == in1 && mp->m[0].in2 == in2;
    if (same && mp->epoch == n->epoch)
        return mp;
    if (!same) { /* a new selection: it leads; the members it had keep their measurements */
        mpm_t m0 = {(uint16_t)in1, (uint16_t)in2, 0, 0, 0}, rest[MPMAX];
        unsigned nr = 0;
        for (unsigned j = 0; j < mp->n; j++)
            if (mp->m[j].in1 == in1 && mp->m[j].in2 == in2)
                m0 = mp->m[j];
            else if (nr < MPMAX - 1u && s->fd->spread) /* the ablation: one member */
                rest[nr++] = mp->m[j];
        mp->m[0] = m0;
        memcpy(&mp->m[1], rest, nr * sizeof rest[0]);
        mp->n = (uint8_t)(1u + nr);
        mp->least = m0.lat;
    }
    if (mp->n > 1) {
        uint64_t ownm = own_rings(s, i);
        for (unsigned j = 1; j < mp->n;)
            if (!path_clean(s, n, i, dst, mp->m[j].in1, mp->m[j].in2, ownm))
                mp_remove(s, k, j, "dropped (its table entries)");
            else
                j++;
    }
    mp->epoch = n->epoch;
    return mp;
}

/* The member the next message takes: smooth weighted round robin, each member's weight
 * 256 * (the least member latency) / (its latency), 256 before its first latency ACK. */
static unsigned mp_pick(mpath_t *mp)
{
    uint32_t lo = 0;
    for (unsigned j = 0; j < mp->n; j++)
        if (mp->m[j].lat && (!lo || mp->m[j].lat < lo))
            lo = mp->m[j].lat;
    int32_t total = 0;
    unsigned b = 0;
    for (unsigned j = 0; j < mp->n; j++) {
        int32_t w = lo && mp->m[j].lat ? (int32_t)(256ull * lo / mp->m[j].lat) : 256;
        w = w < 1 ? 1 : w;
        if (j && mp->m[0].lat && mp->m[j].lat >= mp->m[0].lat)
            w = MP_PROBE_W; /* C2: no faster than member 0 (the direct path): only measured */
        mp->m[j].credit += w;
        total += w;
        if (mp->m[j].credit > mp->m[b].credit)
            b = j;
    }
    mp->m[b].credit -= total;
    return b;
}

/* A member for flow k's metapath: the first clean candidate of section 4's order that is not a
 * member already. Only a pair whose direct path has an entry in its source's table (or crosses
 * one of its own rings down) spreads: fault-free, and for the pairs the faults do not touch,
 * FT-DRB adds nothing. */
static void mp_grow(sci_sys_t *s, unsigned k, const char *why)
{
    mpath_t *mp = &s->fd->mp[k];
    unsigned i = s->flow[k].src, dst = s->flow[k].dst;
    fdnode_t *n = &s->fd->n[i];
    if (!s->fd->spread || mp->n >= MPMAX || !mp->n || (!n->known && !n->npath))
        return;
    uint64_t ownm = own_rings(s, i), known0 = n->known, perm0 = n->perm;
    if (!(path_rings(s, i, NONE, NONE, dst, NULL) & (n->known | ownm)) &&
        !(n->npath && path_find(n, dst, NONE, NONE)))
        return; /* a pair the faults do not touch keeps its direct path */
    unsigned a = NONE, b = NONE;
    bool found = !mp_has(mp, NONE, NONE) && path_clean(s, n, i, dst, NONE, NONE, ownm);
    n->known |= ownm;
    n->perm |= ownm;
    for (unsigned g = 1; g <= 2 && !found; g++) {
        best_t bb;
        scan(s, n, i, dst, g, &bb, mp);
        if (bb.ukey != UINT64_MAX)
            found = true, a = bb.u1, b = bb.u2;
    }
    n->known = known0;
    n->perm = perm0;
    mp->acks = 0;
    if (!found)
        return;
    /* the newcomer starts level with the others: no credit owed */
    mp->m[mp->n++] = (mpm_t){(uint16_t)a, (uint16_t)b, 0, 0, 0};
    n->st.mp_added++;
    mp_log(s, k, &mp->m[mp->n - 1u], why);
}

/* A latency ACK of flow k for a message that took the path via in1, in2. */
static void mp_latency(sci_sys_t *s, unsigned k, unsigned in1, unsigned in2, uint32_t lat)
{
    if (k >= s->fd->nmp)
        return;
    mpath_t *mp = &s->fd->mp[k];
    if (in1 == NONE && mp->dfailed) { /* C1: the direct path delivers again: it leads again */
        mp->dfailed = 0, mp->dmark = s->now;
        scisys_log(s, s->flow[k].src, "FT-DRB: flow %s: the direct path delivers again",
                   s->flow[k].name);
    }
    unsigned j = 0;
    while (j < mp->n && (mp->m[j].in1 != in1 || mp->m[j].in2 != in2))
        j++;
    if (j == mp->n)
        return;
    lat = lat ? lat : 1;
    mp->m[j].lat = mp->m[j].lat ? (3u * mp->m[j].lat + lat + 2u) / 4u : lat;
    if (!mp->least || lat < mp->least)
        mp->least = lat;
    if (mp->acks < 255)
        mp->acks++;
    uint32_t best = UINT32_MAX;
    for (unsigned q = 0; q < mp->n; q++)
        best = mp->m[q].lat && mp->m[q].lat < best ? mp->m[q].lat : best;
    for (unsigned q = 0; q < mp->n; q++)
        if (!mp->m[q].lat)
            return; /* a member not measured yet */
    if (mp->acks >= MP_SETTLE && best > MP_GROW * mp->least)
        mp_grow(s, k, "added (latency grew)");
}

/* The metapath host i's DATA `tid` belongs to, its flow in *k and the path it took in *sp; NULL
 * when tid is no DATA of a flow with a metapath. */
static mpath_t *mp_of_tid(sci_sys_t *s, unsigned i, uint16_t tid, unsigned *k, uint64_t *sp)
{
    const host_t *h = &s->host[i];
    *sp = s->fd->n[i].sent_path[tid % NTID];
    if (h->tidmap[tid % NTID].kind != TK_DATA || !*sp)
        return NULL;
    *k = h->tidmap[tid % NTID].flow;
    return *k < s->fd->nmp && *k < s->nflow ? &s->fd->mp[*k] : NULL;
}

/* The first member from `from` on of the metapath that is the path `sp` took, or -1. */
static int mp_member(const mpath_t *mp, uint64_t sp, unsigned from)
{
    for (unsigned j = from; j < mp->n; j++)
        if (mp->m[j].in1 == sp_in1(sp) && mp->m[j].in2 == sp_in2(sp))
            return (int)j;
    return -1;
}

/* Whether host i's table has changed an entry on its direct path to dst (one of its rings, or
 * the path's own entry) after `since`: it was told of a fault there (C1). */
static bool direct_told(sci_sys_t *s, unsigned i, unsigned dst, uint64_t since)
{
    fdnode_t *n = &s->fd->n[i];
    uint64_t m = n->known ? path_rings(s, i, NONE, NONE, dst, NULL) & n->known : 0;
    for (unsigned r = 0; m && r < 64; r++)
        if ((m >> r & 1u) && n->ent[r].mark > since)
            return true;
    const fdpath_t *e = n->npath ? path_find(n, dst, NONE, NONE) : NULL;
    return e && e->mark > since;
}

/* Flow k's direct path failed (C1, C3): its DATA take the table's selection; a failure after
 * it delivered again, or of a probe, puts the next probe twice as far. */
static void direct_failed(sci_sys_t *s, unsigned k, mpath_t *mp)
{
    if (mp->dmark) {
        unsigned g = 2u * (mp->gap ? mp->gap : PROBE0);
        mp->gap = (uint16_t)(g > PROBEMAX ? PROBEMAX : g);
    }
    if (!mp->dfailed)
        scisys_log(s, s->flow[k].src, "FT-DRB: flow %s: the direct path failed (next probe after "
                   "%u)", s->flow[k].name, mp->gap ? mp->gap : PROBE0);
    mp->dfailed = 1, mp->dmark = s->now, mp->since = 0;
}

/* Our DATA `tid` failed (a FAIL_REPORT or a NOTE; `fault`: a ring down at the notifier, or a
 * reason other than busy retries): a member other than member 0 that it took is dropped; on
 * the direct path, direct_failed (C1, C3). */
static void mp_failed(sci_sys_t *s, unsigned i, uint16_t tid, bool fault)
{
    unsigned k;
    uint64_t sp;
    mpath_t *mp = mp_of_tid(s, i, tid, &k, &sp);
    if (!mp)
        return;
    int j = mp_member(mp, sp, 1);
    if (j >= 0)
        mp_remove(s, k, (unsigned)j, "dropped (failed)");
    if (sp_in1(sp) == NONE && fault && s->fd->n[i].sent_at[tid % NTID] >= mp->dmark)
        direct_failed(s, k, mp); /* not congestion, nor sent before the state last changed */
}

/* A relay refused our DATA `tid` (busy): the member it took counts as twice as slow as the
 * slowest, and the metapath may grow. */
static void mp_busy(sci_sys_t *s, unsigned i, uint16_t tid)
{
    unsigned k;
    uint64_t sp;
    mpath_t *mp = mp_of_tid(s, i, tid, &k, &sp);
    if (!mp)
        return;
    uint32_t hi = mp->least;
    for (unsigned j = 0; j < mp->n; j++)
        hi = mp->m[j].lat > hi ? mp->m[j].lat : hi;
    int j = mp_member(mp, sp, 0);
    if (j < 0)
        return;
    uint64_t l = 2ull * (hi ? hi : 1);
    mp->m[j].lat = l > 0x7FFFFFFF ? 0x7FFFFFFF : (uint32_t)l;
    if (mp->acks >= MP_SETTLE)
        mp_grow(s, k, "added (a relay was busy)");
}

/* ---- sending ---------------------------------------------------------------------------- */

/* The route a RELAY carries in payload words 5 and 6 (ftdrb_sci.md section 5): node indices of 10
 * bits, In2 = In1 for none, and the inner packet's type as a 2-bit code. */
static const uint8_t inner_type[3] = {SCI_T_DATA, SCI_T_ACK, SCI_FD_T_NOTE};

static void route_put(uint16_t *pay, unsigned type, unsigned dst, unsigned in1, unsigned in2)
{
    unsigned e2 = in2 == NONE ? in1 : in2, code = type == SCI_T_ACK ? 1u : type == SCI_T_DATA ? 0u : 2u;
    pay[5] = (uint16_t)(dst | (e2 & 0x3Fu) << 10);
    pay[6] = (uint16_t)(in1 | (e2 >> 6) << 10 | code << 14);
}

/* The route of a RELAY's payload: 0, or -1 when it names no inner type. */
static int route_get(const uint16_t *pay, unsigned *type, unsigned *dst, unsigned *in1,
                     unsigned *in2)
{
    unsigned code = pay[6] >> 14, e2 = (pay[5] >> 10) | (pay[6] >> 10 & 0xFu) << 6;
    *dst = pay[5] & 0x3FFu;
    *in1 = pay[6] & 0x3FFu;
    *in2 = e2 == *in1 ? NONE : e2;
    if (code > 2)
        return -1;
    *type = inner_type[code];
    return 0;
}

/* p (a host packet of host i, payload >= 7 words, built) as a RELAY to in1, carrying the route
 * in payload words 5 and 6. */
static void wrap(sci_sys_t *s, unsigned i, pkt_t *p, unsigned dst, unsigned in1, unsigned in2)
{
    unsigned npay = p->len - SCI_HDR_SYMS - 1u;
    uint16_t *pay = &p->sym[SCI_HDR_SYMS];
    route_put(pay, p->sym[1] >> 8, dst, in1, in2);
    p->len = (uint8_t)sci_packet_build(p->sym, s->id[in1], SCI_FD_T_RELAY, p->sym[2], p->sym[3],
                                       pay, npay);
    s->fd->n[i].st.msp_sent++;
}

/* A DATA of flow k (ftdrb_sci.md section 4a): C1, the direct path while it delivers (the
 * tables in force carry it), the table's selection once it failed; C3, a probe of the direct
 * path every `gap` DATA; then over the metapath led by either. */
void scisys_ftdrb_data(sci_sys_t *s, unsigned k, pkt_t *p)
{
    unsigned i = s->flow[k].src, in1 = NONE, in2 = NONE;
    mpath_t *mp = k < s->fd->nmp ? &s->fd->mp[k] : NULL;
    s->fd->n[i].lastuse = P_CLEAN, s->fd->n[i].fallback = false;
    if (mp && mp->tmo != s->flow[k].tmo_rounds) { /* a timeout: nobody told us what failed */
        if (!mp->dfailed)
            direct_failed(s, k, mp); /* C1: on the direct path, that is its failure */
        mp->tmo = s->flow[k].tmo_rounds;
    }
    if (mp && !mp->dfailed && direct_told(s, i, s->flow[k].dst, mp->dmark))
        direct_failed(s, k, mp); /* C1: told of a fault on it since it last delivered */
    if (!mp || mp->dfailed)
        select_path(s, i, s->flow[k].dst, &in1, &in2);
    uint64_t probe = 0;
    if (mp && mp->dfailed && in1 != NONE && ++mp->since >= (mp->gap ? mp->gap : PROBE0)) {
        mp->since = 0; /* C3: a probe: does the direct path deliver again? */
        in1 = in2 = NONE;
        probe = 1ull << 50;
        scisys_log(s, i, "FT-DRB: flow %s: a probe of the direct path (every %u)",
                   s->flow[k].name, mp->gap ? mp->gap : PROBE0);
    } else if (s->fd->n[i].lastuse == P_CLEAN && mp) { /* over its metapath */
        mp = mp_check(s, k, in1, in2);
        unsigned j = mp->n > 1 ? mp_pick(mp) : 0;
        mp->m[j].sent++;
        in1 = mp->m[j].in1, in2 = mp->m[j].in2;
    }
    s->fd->n[i].sent_at[p->sym[3] % NTID] = s->now;
    s->fd->n[i].sent_path[p->sym[3] % NTID] =
        sp_make(s->flow[k].dst, in1, in2, s->fd->n[i].fallback) | probe;
    if (in1 != NONE)
        wrap(s, i, p, s->flow[k].dst, in1, in2);
}

/* A relayed ACK or NOTE p meeting a full buffer supersedes the stale one there (ftdrb_sci.md
 * R4): an ACK of the same flow, the later next-expected staying, or a NOTE from the same
 * notifier to the same source about a packet for the same node. False when there is none. */
static bool rq_supersede(fdnode_t *n, const pkt_t *p)
{
    const uint16_t *pay = &p->sym[SCI_HDR_SYMS];
    unsigned type, dst, in1, in2, ot, od;
    if (p->sym[1] >> 8 != SCI_FD_T_RELAY || route_get(pay, &type, &dst, &in1, &in2) < 0 ||
        type == SCI_T_DATA)
        return false;
    for (unsigned q = 0; q < n->rqn; q++) {
        pkt_t *o = &n->rq[(n->rqh + q) % RELQ];
        const uint16_t *op = &o->sym[SCI_HDR_SYMS];
        if (o->sym[1] >> 8 != SCI_FD_T_RELAY || o->sym[2] != p->sym[2] ||
            route_get(op, &ot, &od, &in1, &in2) < 0 || ot != type || od != dst ||
            (type == SCI_T_ACK ? (op[0] & 0xFFFu) != (pay[0] & 0xFFFu) : op[2] != pay[2]))
            continue;
        uint32_t was = op[1] | (uint32_t)op[2] << 16, now = pay[1] | (uint32_t)pay[2] << 16;
        if (type != SCI_T_ACK || (int32_t)(now - was) >= 0)
            *o = *p;
        n->st.superseded++;
        return true;
    }
    return false;
}

/* Queue a packet to leave host i after its driver packets and ACKs: false when full. */
static bool rq_push(sci_sys_t *s, unsigned i, const pkt_t *p)
{
    fdnode_t *n = &s->fd->n[i];
    if (n->rqn == RELQ && rq_supersede(n, p))
        return true;
    if (n->rqn == RELQ) {
        if (!n->st.relay_drops++)
            scisys_log(s, i, "FT-DRB: relay buffer full (%u packets): a RELAY dropped", RELQ);
        return false;
    }
    n->rq[(n->rqh + n->rqn++) % RELQ] = *p;
    if (n->rqn > n->st.relay_max)
        n->st.relay_max = n->rqn;
    return true;
}

/* An FT-DRB host packet of host i (ACK or NOTE, npay >= 7 payload words) to node dst by its path,
 * through the relay buffer, never the driver's priority queue (one finding the buffer full is
 * dropped and counted apart: a later ACK makes up, the source still has its timeout). */
static void send_own(sci_sys_t *s, unsigned i, unsigned dst, uint8_t type, const uint16_t *pay,
                     unsigned npay, uint32_t ack_flow)
{
    fdnode_t *n = &s->fd->n[i];
    unsigned in1, in2;
    select_path(s, i, dst, &in1, &in2);
    pkt_t p;
    uint16_t tid = scisys_host_new_tid(s, i);
    p.len = (uint8_t)sci_packet_build(p.sym, s->id[dst], type, s->id[i], tid, pay, npay);
    if (in1 != NONE)
        wrap(s, i, &p, dst, in1, in2);
    if (n->rqn == RELQ) {
        n->st.note_drops++;
        return;
    }
    rq_push(s, i, &p);
    n->sent_at[tid % NTID] = s->now;
    n->sent_path[tid % NTID] = sp_make(dst, in1, in2, false);
    n->ack_flow[tid % NTID] = ack_flow;
}

/* An FT-DRB ACK of host i for flow k (ftdrb_sci.md section 5), 7 words as the relay route needs:
 * {flow | In2 bits 6-9 << 12, next expected lo, hi, latency (15 bits, saturating) | re-sent
 * << 15, In1 | In2 bits 0-5 << 10, 0, 0}. In1 is the ACK's own sender for a direct path, In2
 * = In1 for none (an intermediate is never the destination, nor both intermediates one). */
static void ack_build(uint16_t pay[7], unsigned k, uint32_t expect, uint64_t lat, bool resent,
                      unsigned me, unsigned in1, unsigned in2)
{
    unsigned a = in1 == NONE ? me : in1, b = in2 == NONE ? a : in2;
    pay[0] = (uint16_t)(k | (b >> 6) << 12);
    pay[1] = (uint16_t)expect;
    pay[2] = (uint16_t)(expect >> 16);
    pay[3] = (uint16_t)((lat > 0x7FFF ? 0x7FFF : lat) | (unsigned)resent << 15);
    pay[4] = (uint16_t)(a | (b & 0x3Fu) << 10);
    pay[5] = pay[6] = 0;
}

void scisys_ftdrb_ack(sci_sys_t *s, unsigned i, const uint16_t *data, unsigned k, uint32_t expect)
{
    uint64_t t0 = 0;
    for (unsigned j = 0; j < 4; j++)
        t0 |= (uint64_t)data[7 + j] << (16 * j);
    uint64_t lat = s->now > t0 ? s->now - t0 : 0;
    const fdnode_t *n = &s->fd->n[i];
    uint16_t pay[7];
    ack_build(pay, k, expect, lat, false, i, n->rx_in1, n->rx_in2);
    send_own(s, i, s->flow[k].src, SCI_T_ACK, pay, 7, k + 1u);
}

unsigned scisys_ftdrb_ack_flow(const uint16_t *p) { return p[SCI_HDR_SYMS] & 0xFFFu; }

bool scisys_ftdrb_tx(sci_sys_t *s, unsigned i, pkt_t *out)
{
    fdnode_t *n = &s->fd->n[i];
    if (!n->rqn)
        return false;
    *out = n->rq[n->rqh];
    n->rqh = (n->rqh + 1) % RELQ;
    n->rqn--;
    return true;
}

bool scisys_ftdrb_pending(const sci_sys_t *s, unsigned i) { return s->fd->n[i].rqn != 0; }

void scisys_ftdrb_dead(sci_sys_t *s, unsigned i) { s->fd->n[i].rqn = 0; }

/* ---- learning ----------------------------------------------------------------------------- */

/* The path of our packet `tid` failed on no ring of its own: its path entry. */
static bool learn_path(sci_sys_t *s, unsigned i, uint64_t sp, uint64_t sent)
{
    fdnode_t *n = &s->fd->n[i];
    unsigned dst = sp_dst(sp), in1 = sp_in1(sp), in2 = sp_in2(sp);
    fdpath_t *e = path_find(n, dst, in1, in2);
    bool fresh = false;
    if (!e) {
        if (n->npath == NPATH) { /* full: the oldest non-permanent one goes */
            unsigned v = 0;
            for (unsigned k = 1; k < NPATH; k++)
                if ((n->path[k].stage < PERMANENT && n->path[v].stage >= PERMANENT) ||
                    ((n->path[k].stage >= PERMANENT) == (n->path[v].stage >= PERMANENT) &&
                     n->path[k].mark < n->path[v].mark))
                    v = k;
            n->path[v] = n->path[--n->npath];
        }
        e = &n->path[n->npath++];
        *e = (fdpath_t){(uint16_t)dst, (uint16_t)in1, (uint16_t)in2, 1, 0, s->now};
        fresh = true;
    } else if (sent >= e->mark) {
        e->stage = e->stage < 255 ? e->stage + 1u : 255;
        e->attempt = 0;
        e->mark = s->now;
    } else {
        return false;
    }
    n->epoch++;
    scisys_log(s, i, "FT-DRB: fault table: path to (%u,%u) via %d,%d stage %u%s", xn(s, dst),
               yn(s, dst), in1 == NONE ? -1 : (int)in1, in2 == NONE ? -1 : (int)in2, e->stage,
               e->stage >= PERMANENT ? ", permanent" : "");
    return fresh;
}

/* Ring r (X of row r, Y of column r - H) reported down by node `who`, for our packet sent at
 * `sent`: the entry's stage and attempt numbers (ftdrb_sci.md section 3). Returns whether the
 * table learnt something new. */
static bool note_ring(sci_sys_t *s, unsigned i, unsigned r, unsigned who, uint64_t sent,
                      const char *how)
{
    fdnode_t *n = &s->fd->n[i];
    fdent_t *e = &n->ent[r];
    bool fresh = false;
    if (!e->stage) {
        e->stage = 1;
        fresh = true;
    } else if (sent >= e->mark && e->stage < 255) {
        e->stage++; /* a different notification: a packet sent since the entry changed */
    } else {
        return false; /* the same one again: in flight when the entry last changed */
    }
    e->attempt = 0;
    e->mark = s->now;
    e->notifier = (uint16_t)who;
    n->epoch++;
    n->known |= 1ull << r;
    if (e->stage >= PERMANENT)
        n->perm |= 1ull << r;
    scisys_log(s, i, "FT-DRB: fault table: %c ring %u (%s (%u,%u)) stage %u%s; our packet sent "
               "at %llu", r >= s->h ? 'Y' : 'X', r >= s->h ? r - s->h : r, how, xn(s, who),
               yn(s, who), e->stage, e->stage >= PERMANENT ? ", permanent" : "",
               (unsigned long long)sent);
    return fresh;
}

/* P2S only. A packet that failed at node `who`, none of whose rings down is on the packet's
 * path, was taken off its X-first route. When `who` sits on the X ring of one of the path's
 * segments, past the column where that segment turns onto its Y ring, the hardware carried it
 * on along the X ring because that Y ring was down (the P2S failover, sci_route.md section 2):
 * the FT-DRB paper's router that met the fault would have named it; the source names it for it
 * (ftdrb_sci.md s.3). The LC3 drivers detour elsewhere, and there the inference misleads. */
static bool infer_turn(sci_sys_t *s, unsigned i, unsigned who, uint64_t sp, uint64_t sent)
{
    unsigned hop[4] = {i, sp_in1(sp), sp_in2(sp), sp_dst(sp)}, nh = 0, at[4];
    for (unsigned k = 0; k < 4; k++)
        if (hop[k] != NONE)
            at[nh++] = hop[k];
    bool fresh = false;
    for (unsigned k = 0; k + 1 < nh; k++) {
        unsigned a = at[k], b = at[k + 1];
        if (xn(s, a) == xn(s, b) || yn(s, a) == yn(s, b) || yn(s, who) != yn(s, a) ||
            xn(s, who) == xn(s, b))
            continue;
        /* who is on the segment's X ring; past the turn when it is not between a and b */
        unsigned w = s->w, past = (xn(s, who) + w - xn(s, b)) % w,
                 span = (xn(s, b) + w - xn(s, a)) % w;
        if (past > 0 && past < w - span)
            fresh |= note_ring(s, i, s->h + xn(s, b), yn(s, a) * w + xn(s, b), sent,
                               "inferred: a packet passed its turn at");
    }
    return fresh;
}

/* A notification at host i: node `who` saw `rings` down, failing our packet `tid` sent at
 * `sent`. Returns whether the table learnt something new. */
static bool learn(sci_sys_t *s, unsigned i, unsigned who, unsigned rings, uint16_t tid)
{
    fdnode_t *n = &s->fd->n[i];
    uint64_t sent = n->sent_at[tid % NTID];
    uint64_t sp = n->sent_path[tid % NTID];
    bool fresh = false;
    if (sp >> 50 & 1u)
        return false; /* a probe of a direct path (ftdrb_sci.md 4a, C3) teaches the table nothing */
    if (sp && rings) { /* the rings named are not on the path: it was detoured, and failed
                          (no ring down there: busy or out of echo retries on a live ring,
                          congestion, not a fault: nothing to learn) */
        uint64_t named = 0;
        for (unsigned k = 0; k < 2; k++)
            if (rings >> k & 1u)
                named |= k ? yring(s, xn(s, who)) : xring(yn(s, who));
        unsigned dst = sp_dst(sp), in1 = sp_in1(sp), in2 = sp_in2(sp);
        if (dst < s->n && !(named & path_rings(s, i, in1, in2, dst, NULL))) {
            scisys_log(s, i, "FT-DRB: (%u,%u) failed our packet tid %u (rings %u down there), "
                       "sent at %llu",
                       xn(s, who), yn(s, who), tid, rings, (unsigned long long)sent);
            fresh = learn_path(s, i, sp, sent);
            if (s->cfg.p2s) /* the P2S failover's redirect; the LC3 drivers detour elsewhere */
                fresh |= infer_turn(s, i, who, sp, sent);
        }
    }
    for (unsigned k = 0; k < 2; k++)
        if (rings >> k & 1u)
            fresh |= note_ring(s, i, k ? s->h + xn(s, who) : yn(s, who), who, sent, "from");
    return fresh;
}

/* Our packet with this tid failed (FAIL_REPORT here or a NOTE): what it means for its sender. */
static void own_failed(sci_sys_t *s, unsigned i, uint16_t tid, unsigned reason, bool fresh,
                       unsigned rings)
{
    fdnode_t *n = &s->fd->n[i];
    uint32_t af = n->ack_flow[tid % NTID];
    if (af && af - 1u < s->nflow && s->flow[af - 1u].dst == i) {
        /* an ACK: sent again when the table learnt a new path (else the next one makes up) */
        if (!fresh)
            return;
        flow_t *f = &s->flow[af - 1u];
        n->ack_flow[tid % NTID] = 0;
        uint16_t pay[7];
        ack_build(pay, af - 1u, f->expect, 0, true, i, NONE, NONE);
        send_own(s, i, f->src, SCI_T_ACK, pay, 7, af);
        return;
    }
    mp_failed(s, i, tid, rings || reason != 1u);
    /* the round counts towards resting the flow only when it taught the table nothing (the
     * destination may be dead or cut off: its packets would hold the controllers' buffers) */
    scisys_host_fail_tid(s, i, tid, reason, !fresh, true);
}

bool scisys_ftdrb_fail(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    (void)len;
    unsigned rings = rings_down(s, i);
    unsigned src = node_of_id(s, p[6]);
    if (src == i) { /* our own packet, failed in our LC: the notification is local */
        bool fresh = learn(s, i, i, rings, p[7]);
        own_failed(s, i, p[7], p[4], fresh, rings);
        return true;
    }
    fdnode_t *n = &s->fd->n[i];
    if (src == UINT32_MAX || (n->note_at[src] && s->now < n->note_at[src] + s->cfg.par.fail_backoff))
        return true; /* at most one NOTE per source per back-off: it reacts no faster */
    /* another node's packet, failed here on its way: FT-DRB's special ACK to its source */
    uint16_t pay[7] = {(uint16_t)(rings | p[4] << 8), (uint16_t)i, p[5], p[7], 0, 0, 0};
    n->note_at[src] = s->now;
    n->st.notes_sent++;
    send_own(s, i, src, SCI_FD_T_NOTE, pay, 7, 0);
    return true;
}

static void got_note(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    if (len < 12)
        return;
    const uint16_t *pay = &p[SCI_HDR_SYMS];
    unsigned who = pay[1], tid = pay[3];
    if (who >= s->n)
        return;
    fdnode_t *n = &s->fd->n[i];
    if (pay[0] >> 8 == FD_BUSY) { /* a relay refused our packet: back off, nothing learnt */
        n->st.busy_got++;
        mp_busy(s, i, (uint16_t)tid);
        scisys_host_fail_tid(s, i, (uint16_t)tid, FD_BUSY, false, true);
        return;
    }
    n->st.notes_got++;
    bool fresh = learn(s, i, who, pay[0] & 3u, (uint16_t)tid);
    own_failed(s, i, (uint16_t)tid, pay[0] >> 8, fresh, pay[0] & 3u);
}

/* The latency ACK for a message of flow k that took `path`: its entries are removed. */
void scisys_ftdrb_acked(sci_sys_t *s, unsigned i, unsigned k, const uint16_t *p, unsigned len)
{
    if (len < SCI_HDR_SYMS + 8u)
        return;
    const uint16_t *pay = &p[SCI_HDR_SYMS];
    if (pay[3] >> 15)
        return; /* a re-sent ACK: no message behind it */
    fdnode_t *n = &s->fd->n[i];
    unsigned in1 = pay[4] & 0x3FFu, in2 = (pay[4] >> 10) | (pay[0] >> 12) << 6;
    if (in1 >= s->n || in2 >= s->n)
        return;
    if (in1 == s->flow[k].dst)
        in1 = in2 = NONE; /* direct */
    else if (in2 == in1)
        in2 = NONE;
    /* FT-DRB removes the entries of a path that delivered. On SCI a delivery does not show
     * that the rings of the path's X-first segments are up: the tables in force may have taken
     * the message around one of them. So a ring entry (a controller's status, read when it
     * failed a packet) stays; the path's own entry (an inference) goes. */
    fdpath_t *e = path_find(n, s->flow[k].dst, in1, in2);
    if (e && e->stage < PERMANENT) {
        *e = n->path[--n->npath];
        n->epoch++;
        scisys_log(s, i, "FT-DRB: fault table: path to (%u,%u) via %d,%d cleared (delivered)",
                   xn(s, s->flow[k].dst), yn(s, s->flow[k].dst), in1 == NONE ? -1 : (int)in1,
                   in2 == NONE ? -1 : (int)in2);
    }
    n->st.last_latency = pay[3] & 0x7FFFu;
    mp_latency(s, k, in1, in2, pay[3] & 0x7FFFu);
}

/* ---- receiving ---------------------------------------------------------------------------- */

/* Host i cannot take the relayed DATA p (its relay buffer holds RELQ - RESV packets): it
 * answers the source busy (a NOTE of reason FD_BUSY naming the tid), at most once per source
 * and flow per fail_backoff: the source goes back to its oldest unacknowledged message after
 * the back-off, which sends this one again too (ftdrb_sci.md section 6). */
static void refuse(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned dst)
{
    fdnode_t *n = &s->fd->n[i];
    unsigned src = node_of_id(s, p[2]), k = p[SCI_HDR_SYMS];
    n->st.relay_busy++;
    if (src >= s->n || src == i)
        return;
    if (n->busy_at[src] && s->now < n->busy_at[src] + s->cfg.par.fail_backoff &&
        n->busy_flow[src] == k)
        return; /* told already: its go-back-N sends this one again */
    n->busy_at[src] = s->now;
    n->busy_flow[src] = (uint16_t)k;
    uint16_t pay[7] = {(uint16_t)(FD_BUSY << 8), (uint16_t)i, s->id[dst], p[3], 0, 0, 0};
    send_own(s, i, src, SCI_FD_T_NOTE, pay, 7, 0);
}

static void got_relay(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    fdnode_t *n = &s->fd->n[i];
    if (len < SCI_HDR_SYMS + 8u) {
        scisys_fail(s, "host (%u,%u): a RELAY of %u symbols", xn(s, i), yn(s, i), len);
        return;
    }
    const uint16_t *pay = &p[SCI_HDR_SYMS];
    unsigned npay = len - SCI_HDR_SYMS - 1u, type, dst, in1, in2;
    if (route_get(pay, &type, &dst, &in1, &in2) < 0 || dst >= s->n || in1 >= s->n ||
        (in2 != NONE && in2 >= s->n) || (i != dst && i != in1 && i != in2)) {
        scisys_fail(s, "host (%u,%u): a RELAY whose route (to %u via %u, %u) names no hop here",
                    xn(s, i), yn(s, i), dst, in1, in2);
        return;
    }
    uint16_t q[SCI_MAX_PAYLOAD];
    memcpy(q, pay, npay * sizeof *q);
    if (dst != i) { /* relay it on: the next segment */
        unsigned next = i == in1 && in2 != NONE ? in2 : dst;
        if (type == SCI_T_DATA && n->rqn >= RELQ - RESV) {
            refuse(s, i, p, dst); /* no room for a DATA: busy, its source backs off */
            return;
        }
        pkt_t out;
        out.len = (uint8_t)sci_packet_build(out.sym, s->id[next], SCI_FD_T_RELAY, p[2], p[3], q,
                                            npay);
        if (rq_push(s, i, &out))
            n->st.relayed++;
        return;
    }
    /* the destination: the inner packet, as if it had come direct */
    if (type == SCI_T_DATA) { /* the high half of its first send, from our clock */
        uint32_t lo = q[3] | (uint32_t)q[4] << 16;
        uint64_t t0 = s->now - (uint32_t)((uint32_t)s->now - lo);
        q[5] = (uint16_t)(t0 >> 32);
        q[6] = (uint16_t)(t0 >> 48);
    } else {
        q[5] = q[6] = 0;
    }
    uint16_t in[SCI_MAX_PKT];
    unsigned ilen = sci_packet_build(in, s->id[i], (uint8_t)type, p[2], p[3], q, npay);
    n->rx_in1 = (uint16_t)in1, n->rx_in2 = (uint16_t)in2;
    scisys_host_packet(s, i, in, ilen);
    n->rx_in1 = n->rx_in2 = NONE;
}

bool scisys_ftdrb_rx(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len)
{
    switch (p[1] >> 8) {
    case SCI_FD_T_RELAY: got_relay(s, i, p, len); return true;
    case SCI_FD_T_NOTE: got_note(s, i, p, len); return true;
    default: return false;
    }
}

/* ---- what it did -------------------------------------------------------------------------- */

void sci_sys_ftdrb_stats(const sci_sys_t *s, sci_ftdrb_stats_t *out)
{
    memset(out, 0, sizeof *out);
    if (!s->fd)
        return;
    for (unsigned i = 0; i < s->n; i++) {
        const sci_ftdrb_stats_t *t = &s->fd->n[i].st;
        out->notes_sent += t->notes_sent;
        out->notes_got += t->notes_got;
        out->msp_sent += t->msp_sent;
        out->relayed += t->relayed;
        out->relay_drops += t->relay_drops;
        out->note_drops += t->note_drops;
        out->trials += t->trials;
        out->no_path += t->no_path;
        out->relay_busy += t->relay_busy;
        out->relay_max = t->relay_max > out->relay_max ? t->relay_max : out->relay_max;
        out->busy_got += t->busy_got;
        out->mp_added += t->mp_added;
        out->mp_dropped += t->mp_dropped;
        out->held += t->held;
        out->superseded += t->superseded;
        for (unsigned r = 0; r < s->w + s->h; r++)
            if (s->fd->n[i].ent[r].stage)
                out->entries++, out->permanent += s->fd->n[i].ent[r].stage >= PERMANENT;
    }
}

void scisys_ftdrb_held(sci_sys_t *s, unsigned i) { s->fd->n[i].st.held++; }

unsigned sci_sys_ftdrb_metapath(const sci_sys_t *s, unsigned k, sci_ftdrb_member_t *m)
{
    if (!s->fd || k >= s->nflow || k >= s->fd->nmp)
        return 0;
    const mpath_t *mp = &s->fd->mp[k];
    for (unsigned j = 0; j < mp->n; j++)
        m[j] = (sci_ftdrb_member_t){mp->m[j].in1 == NONE ? -1 : mp->m[j].in1,
                                    mp->m[j].in2 == NONE ? -1 : mp->m[j].in2, mp->m[j].lat,
                                    mp->m[j].sent};
    return mp->n;
}

void sci_sys_ftdrb_mark(sci_sys_t *s)
{
    for (unsigned k = 0; s->fd && k < s->nflow && k < s->fd->nmp; k++)
        for (unsigned j = 0; j < s->fd->mp[k].n; j++)
            s->fd->mp[k].m[j].sent = 0;
}
