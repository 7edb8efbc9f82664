/*
 * sci_route.c - routing tables of the 2-D SCI torus, the hop-by-hop tracer and the checks
 * (reachability, legs, changed nodes, queue dependency graph).  See sci_route.md for the
 * algorithm, the variant and why they are right.
 */
#include "sci_route.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry ---------------------------------------------------------------------------- */

static unsigned nx(const sci_torus_t *t, unsigned n) { return n % t->w; }
static unsigned ny(const sci_torus_t *t, unsigned n) { return n / t->w; }
static unsigned dec(unsigned v, unsigned m) { return (v + m - 1) % m; }

unsigned sci_route_node(const sci_torus_t *t, unsigned x, unsigned y) { return x + y * t->w; }

static unsigned id_bits(const sci_torus_t *t)
{
    return (t->var == SCI_VAR_P2S && (t->w > 16 || t->h > 16)) ? 6 : 4;
}

uint16_t sci_route_id(const sci_torus_t *t, unsigned node)
{
    return (uint16_t)(nx(t, node) | (ny(t, node) << id_bits(t)));
}

uint16_t sci_route_index(const sci_torus_t *t, unsigned set, unsigned target)
{
    uint16_t id = sci_route_id(t, target);
    if (t->var == SCI_VAR_LC3)
        return (uint16_t)(id & 0xFFu);
    return (uint16_t)((set ? 0x2000u : 0u) | id); /* TADDR: bit 13 = set (sci_lc.md s.4) */
}

int sci_route_check_torus(const sci_torus_t *t, char *err, size_t errlen)
{
    unsigned max = t->var == SCI_VAR_P2S ? SCI_ROUTE_MAX_P2S : SCI_ROUTE_MAX_LC3;
    if (t->w < 2 || t->h < 2 || t->w > max || t->h > max) {
        snprintf(err, errlen, "a %s torus is 2x2 to %ux%u, not %ux%u",
                 t->var == SCI_VAR_P2S ? "P2S" : "LC3", max, max, t->w, t->h);
        return -1;
    }
    if (t->policy != SCI_POLICY_SPEC && t->policy != SCI_POLICY_STEP) {
        snprintf(err, errlen, "unknown policy %d", (int)t->policy);
        return -1;
    }
    return 0;
}

/* The fault set as rings: a dead node breaks its row's X ring and its column's Y ring. */
static int xdown(const sci_torus_t *t, const sci_faults_t *f, unsigned row)
{
    if (f->xring[row])
        return 1;
    for (unsigned x = 0; x < t->w; x++)
        if (f->dead[sci_route_node(t, x, row)])
            return 1;
    return 0;
}

static int ydown(const sci_torus_t *t, const sci_faults_t *f, unsigned col)
{
    if (f->yring[col])
        return 1;
    for (unsigned y = 0; y < t->h; y++)
        if (f->dead[sci_route_node(t, col, y)])
            return 1;
    return 0;
}

int sci_route_live(const sci_tables_t *tb, unsigned node) { return !tb->f.dead[node]; }

int sci_route_ring_up(const sci_tables_t *tb, unsigned dim, unsigned ring)
{
    return dim == 0 ? !xdown(&tb->t, &tb->f, ring) : !ydown(&tb->t, &tb->f, ring);
}

/* ---- tables ------------------------------------------------------------------------------ */

static sci_entry_t *ent(sci_tables_t *tb, unsigned node, unsigned set, unsigned target)
{
    return &tb->e[((size_t)node * tb->nsets + set) * tb->n + target];
}

const sci_entry_t *sci_route_entry(const sci_tables_t *tb, unsigned node, unsigned set,
                                   unsigned target)
{
    return &tb->e[((size_t)node * tb->nsets + set) * tb->n + target];
}

/* Set 0, X-first, sci_route.md section 2: LC3 and P2S alike. */
static sci_entry_t preload_xfirst(const sci_torus_t *t, unsigned node, unsigned target)
{
    unsigned x = nx(t, node), y = ny(t, node), tx = nx(t, target), ty = ny(t, target);
    int self = node == target;
    sci_entry_t e;
    e.pport = (uint8_t)(self ? SCI_PORT_HOST : tx != x ? SCI_PORT_X : SCI_PORT_Y);
    e.xtake = (uint8_t)(tx == x || (tx == dec(x, t->w) && ty != y));
    e.xport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_Y);
    e.ytake = (uint8_t)(self || (tx != x && (ty == y || ty == dec(y, t->h))));
    e.yport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_X);
    return e;
}

/* Set 1 under SPEC: Y-first, the mirror image of set 0 (extras included). */
static sci_entry_t preload_yfirst(const sci_torus_t *t, unsigned node, unsigned target)
{
    unsigned x = nx(t, node), y = ny(t, node), tx = nx(t, target), ty = ny(t, target);
    int self = node == target;
    sci_entry_t e;
    e.pport = (uint8_t)(self ? SCI_PORT_HOST : ty != y ? SCI_PORT_Y : SCI_PORT_X);
    e.ytake = (uint8_t)(ty == y || (ty == dec(y, t->h) && tx != x));
    e.yport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_X);
    e.xtake = (uint8_t)(self || (ty != y && (tx == x || tx == dec(x, t->w))));
    e.xport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_Y);
    return e;
}

/* Set 1 under STEP: one step down the Y ring, then X-first from the next row.  The Y-LC takes
 * every packet for another column (fault-free set-1 traffic on column x for column x is the
 * last leg and is for this column); the X-LC keeps the set-0 pick-up of the upstream column. */
static sci_entry_t preload_ystep(const sci_torus_t *t, unsigned node, unsigned target)
{
    unsigned x = nx(t, node), y = ny(t, node), tx = nx(t, target), ty = ny(t, target);
    int self = node == target;
    sci_entry_t e;
    e.pport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_Y);
    e.ytake = (uint8_t)(self || tx != x);
    e.yport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_X);
    e.xtake = (uint8_t)(tx == x || (tx == dec(x, t->w) && ty != y));
    e.xport = (uint8_t)(self ? SCI_PORT_HOST : SCI_PORT_Y);
    return e;
}

static void preload(sci_tables_t *tb)
{
    const sci_torus_t *t = &tb->t;
    for (unsigned n = 0; n < tb->n; n++)
        for (unsigned d = 0; d < tb->n; d++) {
            *ent(tb, n, 0, d) = preload_xfirst(t, n, d);
            if (tb->nsets > 1)
                *ent(tb, n, 1, d) =
                    t->policy == SCI_POLICY_STEP ? preload_ystep(t, n, d) : preload_yfirst(t, n, d);
        }
}

/* P2S hardware failover at a PSB whose `down` LC is down: every entry naming it names the
 * other LC; a redirected set-0 packet gets bit 14 (ASEL) when flip() says so. */
static void p2s_failover(sci_tables_t *tb, unsigned n, unsigned down,
                         int (*flip)(const sci_tables_t *, unsigned, unsigned))
{
    unsigned other = down == SCI_PORT_X ? SCI_PORT_Y : SCI_PORT_X;
    for (unsigned d = 0; d < tb->n; d++)
        for (unsigned s = 0; s < tb->nsets; s++) {
            sci_entry_t *e = ent(tb, n, s, d);
            if (e->pport != down)
                continue;
            e->pport = (uint8_t)other;
            if (s == 0 && flip(tb, n, d))
                tb->asel[(size_t)n * tb->n + d] = 1;
        }
}

/* Bit 14 iff ty != sy: the P2S failover (sci_route.md s.7 item 2), for the X-LC-down PSB under
 * SPEC and for the Y-LC-down PSB under STEP. */
static int flip_other_row(const sci_tables_t *tb, unsigned n, unsigned d)
{
    return ny(&tb->t, n) != ny(&tb->t, d);
}
static int flip_never(const sci_tables_t *tb, unsigned n, unsigned d)
{
    (void)tb, (void)n, (void)d;
    return 0;
}
/* STEP, X-LC down: every packet for another column goes set 1 (one Y step, then X-first). */
static int flip_other_col(const sci_tables_t *tb, unsigned n, unsigned d)
{
    return nx(&tb->t, n) != nx(&tb->t, d);
}

static int row_has_dead(const sci_torus_t *t, const sci_faults_t *f, unsigned r)
{
    for (unsigned x = 0; x < t->w; x++)
        if (f->dead[sci_route_node(t, x, r)])
            return 1;
    return 0;
}

/* X ring of row r down.  STEP uses its step rule for a ring fault only: when the row holds a
 * dead node (known after the driver's pass, sci_route.md s.6) it loads the LC3 rule of
 * sci_route.md s.2 on both variants (set 0 sent to the Y-LC), which keeps every route within 3
 * legs. */
static void change_xring(sci_tables_t *tb, unsigned r)
{
    const sci_torus_t *t = &tb->t;
    int step = t->policy == SCI_POLICY_STEP && !row_has_dead(t, &tb->f, r);
    int (*flip)(const sci_tables_t *, unsigned, unsigned) = t->policy == SCI_POLICY_SPEC
                                                                ? flip_other_row
                                                            : step ? flip_other_col
                                                                   : flip_never;
    for (unsigned x = 0; x < t->w; x++) {
        unsigned n = sci_route_node(t, x, r);
        if (!sci_route_live(tb, n))
            continue;
        if (t->var == SCI_VAR_P2S) {
            p2s_failover(tb, n, SCI_PORT_X, flip);
        } else {
            for (unsigned d = 0; d < tb->n; d++)
                if (nx(t, d) != x)
                    ent(tb, n, 0, d)->pport = SCI_PORT_Y;
        }
        /* LC3 STEP: the downstream Y neighbour (x, r+1), notified, takes every packet for
         * another column off column x, except for a column it knows has its Y ring down
         * (there the preloaded pick-up serves the column detour). */
        unsigned m = sci_route_node(t, x, (r + 1) % t->h);
        if (t->var == SCI_VAR_LC3 && step && sci_route_live(tb, m))
            for (unsigned d = 0; d < tb->n; d++) {
                unsigned tx = nx(t, d);
                if (tx == x || (tx == dec(x, t->w) && ydown(t, &tb->f, tx)))
                    continue;
                ent(tb, m, 0, d)->ytake = 1;
            }
    }
}

/* Y ring of column c down. */
static void change_yring(sci_tables_t *tb, unsigned c)
{
    const sci_torus_t *t = &tb->t;
    unsigned c1 = (c + 1) % t->w;
    for (unsigned y = 0; y < t->h; y++) {
        unsigned n = sci_route_node(t, c, y);
        if (sci_route_live(tb, n)) {
            if (t->var == SCI_VAR_P2S) {
                p2s_failover(tb, n, SCI_PORT_Y,
                             t->policy == SCI_POLICY_STEP ? flip_other_row : flip_never);
            } else {
                for (unsigned ty = 0; ty < t->h; ty++)
                    if (ty != y)
                        ent(tb, n, 0, sci_route_node(t, c, ty))->pport = SCI_PORT_X;
            }
            for (unsigned s = 0; s < tb->nsets; s++)
                for (unsigned ty = 0; ty < t->h; ty++)
                    if (ty != y)
                        ent(tb, n, s, sci_route_node(t, c, ty))->xtake = 0;
        }
        /* The downstream X neighbour (c+1, y), notified. */
        unsigned m = sci_route_node(t, c1, y);
        if (!sci_route_live(tb, m))
            continue;
        for (unsigned ty = 0; ty < t->h; ty++) {
            unsigned d = sci_route_node(t, c, ty);
            if (t->var == SCI_VAR_P2S && t->policy == SCI_POLICY_STEP)
                ent(tb, m, 1, d)->ytake = (uint8_t)(ty == y); /* set 1 Y-first for column c */
            if (ty == y)
                continue;
            if (t->var == SCI_VAR_P2S)
                tb->asel[(size_t)m * tb->n + d] = 1;
            else
                ent(tb, m, 0, d)->pport = SCI_PORT_Y;
        }
    }
}

/* --bad-flip: every source flips its packets for column c to Y-first (LC3 and the STEP set 1
 * have no Y-first address: there "Y-first" is set 0 sent to the Y-LC, which the preloaded
 * ty == y pick-up turns at (sx, ty): the same path). */
static void bad_flip(sci_tables_t *tb, unsigned c)
{
    const sci_torus_t *t = &tb->t;
    for (unsigned n = 0; n < tb->n; n++) {
        unsigned sx = nx(t, n), sy = ny(t, n);
        if (sx == c || !sci_route_live(tb, n))
            continue;
        for (unsigned ty = 0; ty < t->h; ty++) {
            unsigned d = sci_route_node(t, c, ty);
            if (ty == sy)
                continue;
            if (t->var == SCI_VAR_P2S && t->policy == SCI_POLICY_SPEC) {
                tb->asel[(size_t)n * tb->n + d] = 1;
            } else {
                if (tb->asel)
                    tb->asel[(size_t)n * tb->n + d] = 0;
                ent(tb, n, 0, d)->pport = SCI_PORT_Y;
            }
        }
    }
}

void sci_route_p2s_failover(sci_tables_t *tb, unsigned node, int xdown, int ydown, int focol_valid,
                            unsigned focol)
{
    const sci_torus_t *t = &tb->t;
    unsigned sx = nx(t, node), sy = ny(t, node);
    if (tb->nsets < 2)
        return;
    for (unsigned d = 0; d < tb->n; d++) {
        unsigned tx = nx(t, d), ty = ny(t, d);
        uint8_t *asel = &tb->asel[(size_t)node * tb->n + d];
        if (focol_valid && tx == focol && ty != sy)
            *asel = 1;
        sci_entry_t *e = ent(tb, node, *asel, d);
        if (xdown && e->pport == SCI_PORT_X) {
            *asel = ty != sy;
            ent(tb, node, *asel, d)->pport = SCI_PORT_Y;
        } else if (ydown && e->pport == SCI_PORT_Y) {
            *asel = 0;
            ent(tb, node, 0, d)->pport = SCI_PORT_X;
        }
        if (ydown && tx == sx && d != node)
            for (unsigned s2 = 0; s2 < tb->nsets; s2++)
                ent(tb, node, s2, d)->xtake = 0;
    }
}

int sci_route_tables(const sci_torus_t *t, const sci_faults_t *f, sci_tables_t *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (sci_route_check_torus(t, err, errlen) < 0)
        return -1;
    out->t = *t;
    if (f)
        out->f = *f;
    out->n = t->w * t->h;
    out->nsets = t->var == SCI_VAR_P2S ? 2 : 1;
    out->e = calloc((size_t)out->n * out->nsets * out->n, sizeof *out->e);
    if (t->var == SCI_VAR_P2S)
        out->asel = calloc((size_t)out->n * out->n, 1);
    if (!out->e || (t->var == SCI_VAR_P2S && !out->asel)) {
        sci_route_free(out);
        snprintf(err, errlen, "out of memory for %ux%u tables", t->w, t->h);
        return -1;
    }
    preload(out);
    for (unsigned r = 0; r < t->h; r++)
        if (xdown(t, &out->f, r))
            change_xring(out, r);
    for (unsigned c = 0; c < t->w; c++)
        if (ydown(t, &out->f, c))
            change_yring(out, c);
    if (out->f.bad_flip)
        for (unsigned c = 0; c < t->w; c++)
            if (ydown(t, &out->f, c))
                bad_flip(out, c);
    return 0;
}

void sci_route_free(sci_tables_t *tb)
{
    free(tb->e);
    free(tb->asel);
    tb->e = NULL;
    tb->asel = NULL;
}

unsigned sci_route_diff(const sci_tables_t *a, const sci_tables_t *b, uint8_t *changed)
{
    unsigned count = 0, n = a->n;
    for (unsigned node = 0; node < n; node++) {
        int ch = 0;
        for (unsigned s = 0; s < a->nsets && !ch; s++)
            for (unsigned d = 0; d < n && !ch; d++) {
                const sci_entry_t *p = sci_route_entry(a, node, s, d),
                                  *q = sci_route_entry(b, node, s, d);
                ch = p->xtake != q->xtake || p->xport != q->xport || p->ytake != q->ytake ||
                     p->yport != q->yport || p->pport != q->pport;
            }
        if (!ch && a->asel && b->asel)
            ch = memcmp(a->asel + (size_t)node * n, b->asel + (size_t)node * n, n) != 0;
        changed[node] = (uint8_t)ch;
        count += (unsigned)ch;
    }
    return count;
}

unsigned sci_route_expected_changes(const sci_torus_t *t, const sci_faults_t *f, uint8_t *expected)
{
    unsigned n = t->w * t->h, count = 0;
    memset(expected, 0, n);
    for (unsigned node = 0; node < n; node++) {
        unsigned x = nx(t, node), y = ny(t, node);
        int e = xdown(t, f, y) || ydown(t, f, x) || ydown(t, f, dec(x, t->w));
        if (t->var == SCI_VAR_LC3 && t->policy == SCI_POLICY_STEP)
            e = e || (xdown(t, f, dec(y, t->h)) && !row_has_dead(t, f, dec(y, t->h)));
        if (f->bad_flip)
            for (unsigned c = 0; c < t->w; c++)
                e = e || ydown(t, f, c);
        expected[node] = (uint8_t)(e && !f->dead[node]);
        count += expected[node];
    }
    return count;
}

static const char *port_name(unsigned p)
{
    switch (p) {
    case SCI_PORT_HOST: return "host";
    case SCI_PORT_X: return "X";
    case SCI_PORT_Y: return "Y";
    case SCI_PORT_DISCARD: return "drop";
    default: return "?";
    }
}

void sci_route_print_node(const sci_tables_t *tb, unsigned node, FILE *fp)
{
    const sci_torus_t *t = &tb->t;
    fprintf(fp,
            "node (%u,%u) id 0x%03x%s: per target, set by set: PSB port, X-LC take/port, "
            "Y-LC take/port%s\n",
            nx(t, node), ny(t, node), sci_route_id(t, node),
            sci_route_live(tb, node) ? "" : " (dead)", tb->asel ? ", ASEL" : "");
    for (unsigned d = 0; d < tb->n; d++) {
        fprintf(fp, "  (%u,%u) id 0x%03x:", nx(t, d), ny(t, d), sci_route_id(t, d));
        for (unsigned s = 0; s < tb->nsets; s++) {
            const sci_entry_t *e = sci_route_entry(tb, node, s, d);
            fprintf(fp, "  set%u[0x%04x] psb %-4s x %c/%-4s y %c/%-4s", s, sci_route_index(t, s, d),
                    port_name(e->pport), e->xtake ? 'T' : '-', port_name(e->xport),
                    e->ytake ? 'T' : '-', port_name(e->yport));
        }
        if (tb->asel)
            fprintf(fp, "  asel %u", tb->asel[(size_t)node * tb->n + d]);
        fputc('\n', fp);
    }
}

/* ---- tracer ------------------------------------------------------------------------------ */

const char *sci_route_status_name(sci_trace_status_t s)
{
    static const char *const names[] = {"delivered",
                                        "lost (send queue of a down LC)",
                                        "scrubbed (went round its ring)",
                                        "discarded by a BRT",
                                        "misdelivered",
                                        "loop (too many legs)",
                                        "dead source"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static void push(sci_trace_t *tr, unsigned node, unsigned q)
{
    if (tr->nhops < SCI_ROUTE_MAX_HOPS) {
        tr->hop[tr->nhops].node = (uint16_t)node;
        tr->hop[tr->nhops].q = (uint8_t)q;
        tr->nhops++;
    }
}

/* One ring leg: inserted by `from` on ring `dim`; returns the node whose LC takes it, or -1 if
 * the scrubber removes it (it reached the scrubber marked).  The scrubber of a ring is its
 * position-0 node (x = 0 on an X ring, y = 0 on a Y ring). */
static int ring_leg(const sci_tables_t *tb, unsigned from, unsigned dim, unsigned set, unsigned dst,
                    unsigned *passes)
{
    const sci_torus_t *t = &tb->t;
    unsigned len = dim == 0 ? t->w : t->h, pos = from;
    int marked = 0;
    *passes = 0;
    for (unsigned step = 0; step < 2 * len + 2; step++) {
        unsigned x = nx(t, pos), y = ny(t, pos);
        pos =
            dim == 0 ? sci_route_node(t, (x + 1) % t->w, y) : sci_route_node(t, x, (y + 1) % t->h);
        int scrubber = (dim == 0 ? nx(t, pos) : ny(t, pos)) == 0;
        if (scrubber && marked)
            return -1;
        const sci_entry_t *e = sci_route_entry(tb, pos, set, dst);
        int take = pos != from && (dim == 0 ? e->xtake : e->ytake);
        if (take)
            return (int)pos;
        if (scrubber) {
            marked = 1;
            (*passes)++;
        }
    }
    return -1;
}

sci_trace_status_t sci_route_trace(const sci_tables_t *tb, unsigned src, unsigned dst, int set,
                                   sci_trace_t *tr)
{
    const sci_torus_t *t = &tb->t;
    memset(tr, 0, sizeof *tr);
    tr->last = (uint16_t)src;
    if (!sci_route_live(tb, src))
        return tr->status = SCI_TR_DEAD_SOURCE;
    unsigned s = set >= 0 ? (unsigned)set : tb->asel ? tb->asel[(size_t)src * tb->n + dst] : 0;
    if (s >= tb->nsets)
        s = 0;
    tr->set = s;
    unsigned cur = src, port = sci_route_entry(tb, src, s, dst)->pport;
    for (;;) {
        tr->last = (uint16_t)cur;
        if (port == SCI_PORT_HOST)
            return tr->status = cur == dst ? SCI_TR_DELIVERED : SCI_TR_MISDELIVERED;
        if (port != SCI_PORT_X && port != SCI_PORT_Y)
            return tr->status = SCI_TR_DISCARDED;
        unsigned dim = port == SCI_PORT_X ? 0 : 1;
        unsigned ring = dim == 0 ? ny(t, cur) : nx(t, cur);
        push(tr, cur, dim == 0 ? SCI_Q_SEND_X : SCI_Q_SEND_Y);
        if (!sci_route_ring_up(tb, dim, ring))
            return tr->status = SCI_TR_LOST_DOWN;
        if (tr->legs == SCI_ROUTE_MAX_LEGS)
            return tr->status = SCI_TR_LOOP;
        for (unsigned k = 0; k < tr->legs; k++)
            if (tr->leg_dim[k] == dim && tr->leg_ring[k] == ring)
                tr->ring_twice = 1;
        tr->leg_dim[tr->legs] = (uint8_t)dim;
        tr->leg_ring[tr->legs] = (uint16_t)ring;
        tr->legs++;
        unsigned passes;
        int taker = ring_leg(tb, cur, dim, s, dst, &passes);
        if (passes > tr->scrub_passes)
            tr->scrub_passes = passes;
        if (taker < 0) {
            tr->scrub_passes = 2;
            return tr->status = SCI_TR_SCRUBBED;
        }
        cur = (unsigned)taker;
        push(tr, cur, dim == 0 ? SCI_Q_RECV_X : SCI_Q_RECV_Y);
        const sci_entry_t *e = sci_route_entry(tb, cur, s, dst);
        port = dim == 0 ? e->xport : e->yport;
    }
}

void sci_route_qname(const sci_tables_t *tb, unsigned v, char *buf, size_t len)
{
    static const char *const q[] = {"sendX", "recvX", "sendY", "recvY"};
    unsigned node = v / 4;
    snprintf(buf, len, "(%u,%u).%s", nx(&tb->t, node), ny(&tb->t, node), q[v % 4]);
}

void sci_route_print_trace(const sci_tables_t *tb, const sci_trace_t *tr, FILE *fp)
{
    char b[32];
    fprintf(fp, "set %u, %u legs:", tr->set, tr->legs);
    for (unsigned i = 0; i < tr->nhops; i++) {
        sci_route_qname(tb, tr->hop[i].node * 4u + tr->hop[i].q, b, sizeof b);
        fprintf(fp, " %s", b);
    }
    fprintf(fp, " -> %s at (%u,%u)%s\n", sci_route_status_name(tr->status), nx(&tb->t, tr->last),
            ny(&tb->t, tr->last), tr->ring_twice ? " (a ring used twice)" : "");
}

/* ---- queue dependency graph -------------------------------------------------------------- */

typedef struct graph {
    unsigned v;
    uint64_t *bits; /* v * v adjacency bits */
} graph_t;

static int has_edge(const graph_t *g, unsigned a, unsigned b)
{
    size_t i = (size_t)a * g->v + b;
    return (int)((g->bits[i / 64] >> (i % 64)) & 1u);
}

static int add_edge(graph_t *g, unsigned a, unsigned b)
{
    size_t i = (size_t)a * g->v + b;
    uint64_t m = (uint64_t)1 << (i % 64);
    if (g->bits[i / 64] & m)
        return 0;
    g->bits[i / 64] |= m;
    return 1;
}

/* Iterative DFS with colours; on a back edge a -> b, the cycle is b .. a on the stack. */
static int find_cycle(const graph_t *g, sci_check_t *c)
{
    unsigned v = g->v;
    uint8_t *colour = calloc(v, 1);
    unsigned *stack = malloc(sizeof *stack * (v + 1)), *next = malloc(sizeof *next * (v + 1));
    if (!colour || !stack || !next) {
        free(colour), free(stack), free(next);
        return -1;
    }
    int found = 0;
    for (unsigned root = 0; root < v && !found; root++) {
        if (colour[root])
            continue;
        unsigned sp = 0;
        stack[sp] = root, next[sp] = 0, sp++;
        colour[root] = 1;
        while (sp && !found) {
            unsigned a = stack[sp - 1], b = next[sp - 1];
            while (b < v && !has_edge(g, a, b))
                b++;
            if (b == v) {
                colour[a] = 2;
                sp--;
                continue;
            }
            next[sp - 1] = b + 1;
            if (colour[b] == 1) {
                unsigned k = sp;
                while (k > 0 && stack[k - 1] != b)
                    k--;
                c->cycle_len = 0;
                for (unsigned i = k - 1;
                     i < sp && c->cycle_len < sizeof c->cycle / sizeof c->cycle[0]; i++)
                    c->cycle[c->cycle_len++] = stack[i];
                found = 1;
            } else if (colour[b] == 0) {
                colour[b] = 1;
                stack[sp] = b, next[sp] = 0, sp++;
            }
        }
    }
    free(colour), free(stack), free(next);
    return found;
}

int sci_route_check(const sci_tables_t *tb, int set, sci_check_t *c)
{
    memset(c, 0, sizeof *c);
    graph_t g = {.v = 4 * tb->n};
    g.bits = calloc(((size_t)g.v * g.v + 63) / 64, sizeof *g.bits);
    if (!g.bits)
        return -1;
    c->vertices = g.v;
    int first = 1;
    for (unsigned s = 0; s < tb->n; s++)
        for (unsigned d = 0; d < tb->n; d++) {
            if (s == d || !sci_route_live(tb, s) || !sci_route_live(tb, d))
                continue;
            sci_trace_t tr;
            sci_route_trace(tb, s, d, set, &tr);
            c->pairs++;
            int ok = tr.status == SCI_TR_DELIVERED && tr.legs <= 3 && !tr.ring_twice;
            if (tr.status == SCI_TR_DELIVERED)
                c->reached++;
            if (tr.status == SCI_TR_SCRUBBED)
                c->scrub_twice++;
            if (tr.legs > c->max_legs)
                c->max_legs = tr.legs;
            if (tr.legs > 3)
                c->over_legs++;
            if (tr.ring_twice)
                c->ring_twice++;
            if (!ok && first) {
                first = 0;
                c->first_bad_src = s, c->first_bad_dst = d, c->first_bad_status = tr.status;
            }
            for (unsigned i = 0; i + 1 < tr.nhops; i++)
                c->edges += (unsigned)add_edge(&g, tr.hop[i].node * 4u + tr.hop[i].q,
                                               tr.hop[i + 1].node * 4u + tr.hop[i + 1].q);
        }
    int cyc = find_cycle(&g, c);
    free(g.bits);
    if (cyc < 0)
        return -1;
    c->cyclic = cyc;
    return (c->reached == c->pairs && !c->over_legs && !c->ring_twice && !c->cyclic) ? 0 : 1;
}

void sci_route_print_cycle(const sci_tables_t *tb, const sci_check_t *c, FILE *fp)
{
    char b[32];
    if (!c->cyclic) {
        fprintf(fp, "queue dependency graph: acyclic (%u vertices, %u edges)\n", c->vertices,
                c->edges);
        return;
    }
    fprintf(fp, "queue dependency graph: CYCLE of %u queues (%u vertices, %u edges):", c->cycle_len,
            c->vertices, c->edges);
    for (unsigned i = 0; i < c->cycle_len; i++) {
        sci_route_qname(tb, c->cycle[i], b, sizeof b);
        fprintf(fp, " %s ->", b);
    }
    if (c->cycle_len == sizeof c->cycle / sizeof c->cycle[0]) {
        fprintf(fp, " ... (longer than shown)\n");
        return;
    }
    sci_route_qname(tb, c->cycle[0], b, sizeof b);
    fprintf(fp, " %s\n", b);
}

/* ---- parsing ------------------------------------------------------------------------------- */

static int parse_uint(const char *s, char **end, unsigned *v)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long x = strtoul(s, end, 10);
    if (errno || x > 1000)
        return -1;
    *v = (unsigned)x;
    return 0;
}

int sci_route_parse_size(const char *s, unsigned *w, unsigned *h)
{
    char *e;
    if (!s || parse_uint(s, &e, w) < 0 || (*e != 'x' && *e != 'X') ||
        parse_uint(e + 1, &e, h) < 0 || *e)
        return -1;
    return 0;
}

int sci_route_parse_xy(const char *s, unsigned *x, unsigned *y, char sep_end)
{
    char *e;
    if (parse_uint(s, &e, x) < 0 || *e != ',' || parse_uint(e + 1, &e, y) < 0 || *e != sep_end)
        return -1;
    return 0;
}

int sci_route_parse_fault(const sci_torus_t *t, const char *s, sci_faults_t *f)
{
    unsigned v, x, y;
    char *e;
    if (!strncmp(s, "xring:", 6) && !parse_uint(s + 6, &e, &v) && !*e && v < t->h)
        f->xring[v] = 1;
    else if (!strncmp(s, "yring:", 6) && !parse_uint(s + 6, &e, &v) && !*e && v < t->w)
        f->yring[v] = 1;
    else if (!strncmp(s, "node:", 5) && !sci_route_parse_xy(s + 5, &x, &y, '\0') && x < t->w &&
             y < t->h)
        f->dead[sci_route_node(t, x, y)] = 1;
    else
        return -1;
    return 0;
}
