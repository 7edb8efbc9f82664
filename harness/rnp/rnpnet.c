/* rnpnet.c — RNP networks of RN1s: topology, faults on the wires, the composite device. A
 * network's design is built on request and belongs to the caller (dev.h). */
#include "rnpnet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prng.h"
#include "rn1_dev.h"
#include "rnp_word.h"
#include "vl_trace.h"

/* ---- topology ----------------------------------------------------------------------------- */

static unsigned groups_at(const rnpnet_topo_t *t, unsigned s)
{
    return s < t->extra ? 1u : 1u << (2u * (s - t->extra));
}

/* Shuffle wires[] over slots (their order), then repair: the two wires of a pair (pair[w],
 * same value) must not land on one router (slot / 8) when the group has more than one. */
static int place(prng_t *rng, uint32_t *wires, unsigned nw, const uint32_t *pair, unsigned routers)
{
    for (unsigned i = nw - 1; i > 0; i--) {
        unsigned j = prng_below(rng, i + 1);
        uint32_t x = wires[i];
        wires[i] = wires[j];
        wires[j] = x;
    }
    if (routers < 2)
        return 0;
    for (unsigned tries = 0; tries < 200000; tries++) {
        int bad = -1;
        for (unsigned i = 0; i < nw && bad < 0; i++)
            for (unsigned k = i + 1; k < nw && (k / 8) == (i / 8); k++)
                if (pair[wires[i]] == pair[wires[k]])
                    bad = (int)k;
        if (bad < 0)
            return 0;
        unsigned o = prng_below(rng, nw);
        uint32_t x = wires[bad];
        wires[bad] = wires[o];
        wires[o] = x;
    }
    return -1;
}

static int build_boundary(rnpnet_topo_t *t, prng_t *rng, unsigned s)
{
    unsigned ps = t->per_stage, g0 = groups_at(t, s), g1 = groups_at(t, s + 1);
    unsigned rpg0 = ps / g0, rpg1 = ps / g1, nw = rpg1 * 8;
    uint32_t *wires = malloc(nw * sizeof *wires), *pair = malloc(ps * 8 * sizeof *pair);
    uint32_t *map = malloc(nw * sizeof *map);
    if (!wires || !pair || !map)
        return free(wires), free(pair), free(map), -1;
    for (unsigned i = 0; i < ps * 8; i++)
        pair[i] = i / 2;
    for (unsigned g = 0; g < g1; g++) {
        unsigned n = 0;
        /* the wires feeding child group g: parent group g/4 (or the one group), direction g%4 */
        for (unsigned i = 0; i < ps; i++) {
            unsigned pg = i / rpg0;
            for (unsigned j = 0; j < 8; j++) {
                int feeds = s < t->extra ? 1 : (pg * 4 + j / 2 == g);
                if (feeds)
                    map[n] = i * 8 + j, wires[n] = n, n++;
            }
        }
        if (n != nw)
            return free(wires), free(pair), free(map), -1;
        uint32_t *pr = malloc(nw * sizeof *pr);
        if (!pr)
            return free(wires), free(pair), free(map), -1;
        for (unsigned w = 0; w < nw; w++)
            pr[w] = pair[map[w]];
        int rc = place(rng, wires, nw, pr, rpg1);
        free(pr);
        if (rc < 0)
            return free(wires), free(pair), free(map), -1;
        for (unsigned k = 0; k < nw; k++) {
            unsigned up_r = s * ps + map[wires[k]] / 8, up_j = map[wires[k]] % 8;
            unsigned dn_r = (s + 1) * ps + g * rpg1 + k / 8, dn_f = k % 8;
            t->down[up_r * 8 + up_j] = (int32_t)(dn_r * 8 + dn_f);
            t->up[dn_r * 8 + dn_f] = (int32_t)(up_r * 8 + up_j);
        }
    }
    free(wires);
    free(pair);
    free(map);
    return 0;
}

int rnpnet_topo_build(rnpnet_topo_t *t, unsigned n, unsigned extra, uint64_t seed, char *err,
                      size_t errlen)
{
    memset(t, 0, sizeof *t);
    unsigned k = 0;
    while ((1u << (2 * k)) < n)
        k++;
    if (n < 16 || n > 1024 || (1u << (2 * k)) != n || extra > 4) {
        snprintf(err, errlen,
                 "a network takes 16, 64, 256 or 1024 endpoints and 0..4 extra stages");
        return -1;
    }
    t->n = n;
    t->extra = extra;
    t->stages = k + extra;
    t->per_stage = n / 4;
    t->nrouters = t->stages * t->per_stage;
    t->seed = seed;
    t->down = malloc(t->nrouters * 8 * sizeof *t->down);
    t->up = malloc(t->nrouters * 8 * sizeof *t->up);
    t->inj = malloc(n * 2 * sizeof *t->inj);
    t->ej = malloc(n * 2 * sizeof *t->ej);
    if (!t->down || !t->up || !t->inj || !t->ej) {
        rnpnet_topo_free(t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    prng_t rng;
    prng_seed(&rng, seed ^ 0x5249504E4554ull);
    /* injection: endpoint e's two ports on two different stage-0 routers */
    uint32_t *w = malloc(2 * n * sizeof *w), *pair = malloc(2 * n * sizeof *pair);
    if (!w || !pair) {
        free(w), free(pair), rnpnet_topo_free(t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < 2 * n; i++)
        w[i] = i, pair[i] = i / 2;
    int rc = place(&rng, w, 2 * n, pair, t->per_stage);
    for (unsigned slot = 0; slot < 2 * n && rc == 0; slot++) {
        t->inj[w[slot]] = slot; /* stage 0: router slot/8, forward port slot%8 */
        t->up[slot] = -(int32_t)(1 + w[slot]);
    }
    free(w);
    free(pair);
    for (unsigned s = 0; s + 1 < t->stages && rc == 0; s++)
        rc = build_boundary(t, &rng, s);
    /* ejection: the last stage has one router per destination group g = d / 4 */
    unsigned last = (t->stages - 1) * t->per_stage;
    for (unsigned d = 0; d < n && rc == 0; d++)
        for (unsigned p = 0; p < 2; p++) {
            unsigned r = last + d / 4, j = 2 * (d % 4) + p;
            t->ej[d * 2 + p] = r * 8 + j;
            t->down[r * 8 + j] = -(int32_t)(1 + d * 2 + p);
        }
    if (rc) {
        rnpnet_topo_free(t);
        snprintf(err, errlen, "could not wire the network (seed %llu)", (unsigned long long)seed);
        return -1;
    }
    return 0;
}

void rnpnet_topo_free(rnpnet_topo_t *t)
{
    free(t->down);
    free(t->up);
    free(t->inj);
    free(t->ej);
    memset(t, 0, sizeof *t);
}

int rnpnet_digit(const rnpnet_topo_t *t, unsigned s, unsigned d)
{
    if (s < t->extra)
        return -1;
    return (int)((d >> (2u * (t->stages - 1u - s))) & 3u);
}

unsigned rnpnet_route_words(const rnpnet_topo_t *t, unsigned d, const unsigned *xd, uint16_t *w)
{
    unsigned nw = (t->stages + 3) / 4;
    for (unsigned k = 0; k < nw; k++)
        w[k] = RNP_C;
    for (unsigned s = 0; s < t->stages; s++) {
        int dg = rnpnet_digit(t, s, d);
        unsigned digit = dg < 0 ? (xd ? xd[s] & 3u : 0u) : (unsigned)dg;
        w[s / 4] |= (uint16_t)(digit << (6u - 2u * (s % 4)));
    }
    return nw;
}

/* Depth-first over every injection port, extra digit and dilation port. */
static void walk(const rnpnet_topo_t *t, unsigned r, unsigned d, unsigned *paths, uint8_t *seen)
{
    unsigned s = rnpnet_stage(t, r);
    seen[r] = 1;
    int dg = rnpnet_digit(t, s, d);
    for (unsigned k = 0; k < 4; k++) {
        if (dg >= 0 && (unsigned)dg != k)
            continue;
        for (unsigned j = 2 * k; j < 2 * k + 2; j++) {
            int32_t to = t->down[r * 8 + j];
            if (to < 0)
                *paths += ((unsigned)(-to - 1) / 2 == d);
            else
                walk(t, (unsigned)to / 8, d, paths, seen);
        }
    }
}

void rnpnet_count_paths(const rnpnet_topo_t *t, unsigned s, unsigned d, rnpnet_paths_t *out)
{
    uint8_t *seen = calloc(t->nrouters, 1);
    memset(out, 0, sizeof *out);
    if (!seen)
        return;
    for (unsigned k = 0; k < 2; k++)
        walk(t, t->inj[s * 2 + k] / 8, d, &out->paths, seen);
    for (unsigned st = 0; st < t->stages && st < 8; st++)
        for (unsigned i = 0; i < t->per_stage; i++)
            out->routers[st] += seen[st * t->per_stage + i];
    free(seen);
}

/* ---- faults ------------------------------------------------------------------------------- */

static int parse_link(const char *s, unsigned *router, unsigned *port)
{
    unsigned a, b;
    char tail;
    if (sscanf(s, "r%u.b%u%c", &a, &b, &tail) == 2 && b < 8) {
        *router = a, *port = b;
        return 0;
    }
    if (sscanf(s, "s%u.%u%c", &a, &b, &tail) == 2 && b < 2) {
        *router = a, *port = 8 + b;
        return 0;
    }
    return -1;
}

int rnpnet_fault_parse(const char *text, rnpnet_fault_t *f, int *heal, char *err, size_t errlen)
{
    char w[4][32] = {{0}};
    char extra[32] = "";
    int n = sscanf(text, "%31s %31s %31s %31s %31s", w[0], w[1], w[2], w[3], extra);
    memset(f, 0, sizeof *f);
    *heal = 0;
    unsigned a;
    char tail;
    if (n >= 1 && !strcasecmp(w[0], "heal") && n == 1) {
        *heal = 1;
        return 0;
    }
    if (n == 2 && !strcasecmp(w[0], "kill") && sscanf(w[1], "r%u%c", &a, &tail) == 1) {
        f->kind = RNPNET_F_DEAD_ROUTER;
        f->router = a;
        return 0;
    }
    if (n >= 2 && parse_link(w[1], &f->router, &f->port) == 0) {
        if (!strcasecmp(w[0], "cut") && n == 2) {
            f->kind = RNPNET_F_DEAD_LINK;
            return 0;
        }
        if (!strcasecmp(w[0], "stuck1") && n == 2) {
            f->kind = RNPNET_F_STUCK_C1;
            return 0;
        }
        unsigned bit, v;
        if (!strcasecmp(w[0], "flip") && n >= 3 && sscanf(w[2], "bit%u%c", &bit, &tail) == 1 &&
            bit < 8) {
            f->kind = RNPNET_F_FLIP;
            f->bit = bit;
            if (n == 3)
                return 0;
            if (n == 4 && sscanf(w[3], "ppm%u%c", &v, &tail) == 1 && v > 0 && v <= 1000000) {
                f->prob_ppm = v;
                return 0;
            }
        }
        if (!strcasecmp(w[0], "stuck") && n == 4 && sscanf(w[2], "bit%u%c", &bit, &tail) == 1 &&
            bit < 8 && (!strcmp(w[3], "0") || !strcmp(w[3], "1"))) {
            f->kind = RNPNET_F_STUCK_BIT;
            f->bit = bit;
            f->value = (unsigned)(w[3][0] - '0');
            return 0;
        }
    }
    snprintf(err, errlen,
             "bad fault '%s' (kill rR | cut LINK | stuck1 LINK | flip LINK bitB [ppmN] | stuck "
             "LINK bitB 0|1 | heal; LINK is rR.bJ or sE.K)",
             text);
    return -1;
}

void rnpnet_fault_format(const rnpnet_fault_t *f, char *buf, size_t len)
{
    char link[32];
    if (f->port >= 8)
        snprintf(link, sizeof link, "s%u.%u", f->router, f->port - 8);
    else
        snprintf(link, sizeof link, "r%u.b%u", f->router, f->port);
    switch (f->kind) {
    case RNPNET_F_DEAD_ROUTER: snprintf(buf, len, "kill r%u", f->router); break;
    case RNPNET_F_DEAD_LINK: snprintf(buf, len, "cut %s", link); break;
    case RNPNET_F_STUCK_C1: snprintf(buf, len, "stuck1 %s", link); break;
    case RNPNET_F_FLIP:
        if (f->prob_ppm)
            snprintf(buf, len, "flip %s bit%u ppm%u", link, f->bit, f->prob_ppm);
        else
            snprintf(buf, len, "flip %s bit%u", link, f->bit);
        break;
    case RNPNET_F_STUCK_BIT: snprintf(buf, len, "stuck %s bit%u %u", link, f->bit, f->value); break;
    }
}

/* ---- the design ------------------------------------------------------------------------------ */

typedef struct netdesign {
    dev_design_t d; /* what the hooks are handed; as_net() gets the rest */
    rnpnet_topo_t t;
    char name[32], summary[160];
    dev_port_t *ports;
    dev_reg_t *regs;
    uint32_t *debug_addrs;
    const dev_design_t *router; /* whose devices the routers are: rn1_design, or another
                                 * harness's RN1 with its ports (rnpnet_find_design_on) */
} netdesign_t;

static const char *const net_controls[] = {"fault", "reset", NULL};

/* "reset rK": router K's number, or -1. */
static int parse_reset(const rnpnet_topo_t *t, const char *text)
{
    unsigned r;
    char tail;
    if (strncasecmp(text, "reset ", 6) != 0 || sscanf(text + 6, " r%u %c", &r, &tail) != 1 ||
        r >= t->nrouters)
        return -1;
    return (int)r;
}

static int net_check_control(const dev_design_t *d, const char *text, char *err, size_t errlen)
{
    const rnpnet_topo_t *t = rnpnet_topo_of(d);
    rnpnet_fault_t f;
    int heal;
    if (strncasecmp(text, "reset ", 6) == 0) {
        if (parse_reset(t, text) >= 0)
            return 0;
        snprintf(err, errlen, "bad control '%s' (reset rK, K < %u)", text, t->nrouters);
        return -1;
    }
    if (strncasecmp(text, "fault ", 6) != 0) {
        snprintf(err, errlen, "unknown control '%s'", text);
        return -1;
    }
    if (rnpnet_fault_parse(text + 6, &f, &heal, err, errlen) < 0)
        return -1;
    if (!heal && ((f.port >= 8 && f.router >= t->n) || (f.port < 8 && f.router >= t->nrouters))) {
        snprintf(err, errlen, "'%s': %s %u does not exist (%u routers, %u endpoints)", text,
                 f.port >= 8 ? "endpoint" : "router", f.router, t->nrouters, t->n);
        return -1;
    }
    return 0;
}

static const netdesign_t *as_net(const dev_design_t *d) { return DEV_DESIGN_OF(d, netdesign_t, d); }

const rnpnet_topo_t *rnpnet_topo_of(const dev_design_t *d) { return &as_net(d)->t; }

static char *dupf(const char *fmt, unsigned a, const char *b)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, a, b);
    return strdup(buf);
}

static int build_ports(netdesign_t *nd)
{
    static const char *const fmt[RNPNET_NKIND] = {"s%u.%s", "s%u.%s", "s%u.%s.bc",
                                                  "d%u.%s", "d%u.%s", "d%u.%s.bc"};
    static const dev_dir_t dir[RNPNET_NKIND] = {DEV_IN, DEV_OUT, DEV_OUT, DEV_OUT, DEV_IN, DEV_IN};
    unsigned n = nd->t.n * 2 * RNPNET_NKIND;
    nd->ports = calloc(n, sizeof *nd->ports);
    if (!nd->ports)
        return -1;
    for (unsigned e = 0; e < nd->t.n; e++)
        for (unsigned k = 0; k < 2; k++)
            for (unsigned q = 0; q < RNPNET_NKIND; q++) {
                dev_port_t *p = &nd->ports[rnpnet_port(e, k, q)];
                p->name = dupf(fmt[q], e, k ? "1" : "0");
                p->dir = dir[q];
                p->width = (q == RNPNET_SBC || q == RNPNET_DBC) ? 1 : 9;
                p->kind = (q == RNPNET_SBC || q == RNPNET_DBC) ? RNP_KIND_BIT : RNP_KIND_WORD;
                if (!p->name)
                    return -1;
            }
    nd->d.ports = nd->ports;
    nd->d.nports = n;
    return 0;
}

static int build_regs(netdesign_t *nd)
{
    const dev_design_t *r1 = &rn1_design;
    unsigned n = 2 + nd->t.nrouters * r1->nregs;
    nd->regs = calloc(n, sizeof *nd->regs);
    nd->debug_addrs = calloc(nd->t.nrouters * r1->ndebug, sizeof *nd->debug_addrs);
    if (!nd->regs || !nd->debug_addrs)
        return -1;
    nd->regs[0] = (dev_reg_t){"seed", RNPNET_NETCFG, 0, 16, DEV_REG_CONFIG, 0xACE1, NULL};
    nd->regs[1] = (dev_reg_t){"backchan", RNPNET_NETCFG, 16, 1, DEV_REG_CONFIG, 0, NULL};
    unsigned k = 2;
    for (unsigned r = 0; r < nd->t.nrouters; r++) {
        for (unsigned i = 0; i < r1->nregs; i++) {
            dev_reg_t x = r1->regs[i];
            char buf[48];
            snprintf(buf, sizeof buf, "r%u.%s", r, x.name);
            x.name = strdup(buf);
            x.addr = (r << 8) | x.addr;
            x.flags = (uint8_t)(x.flags & ~DEV_REG_CONFIG); /* per-router: written with reg <- */
            if (!x.name)
                return -1;
            nd->regs[k++] = x;
        }
        for (unsigned j = 0; j < r1->ndebug; j++)
            nd->debug_addrs[r * r1->ndebug + j] = (r << 8) | r1->debug_addrs[j];
    }
    nd->d.regs = nd->regs;
    nd->d.nregs = k;
    nd->d.debug_addrs = nd->debug_addrs;
    nd->d.ndebug = nd->t.nrouters * r1->ndebug;
    return 0;
}

static void *net_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                        const dev_ops_t **ops, char *err, size_t errlen);

static void net_part_prefix(const dev_design_t *d, unsigned k, char *buf, size_t len)
{
    (void)d;
    snprintf(buf, len, "r%u.", k);
}

/* The names build_ports and build_regs allocated (a half-built design too), then the design. */
static void net_release(const dev_design_t *d)
{
    netdesign_t *nd = (netdesign_t *)as_net(d);
    for (unsigned i = 0; nd->ports && i < nd->t.n * 2 * RNPNET_NKIND; i++)
        free((char *)nd->ports[i].name);
    for (unsigned i = 2; nd->regs && i < 2 + nd->t.nrouters * rn1_design.nregs; i++)
        free((char *)nd->regs[i].name);
    free(nd->ports), free(nd->regs), free(nd->debug_addrs);
    rnpnet_topo_free(&nd->t);
    free(nd);
}

const dev_design_t *rnpnet_design(unsigned n, unsigned extra, uint64_t wiring_seed, char *err,
                                  size_t errlen)
{
    netdesign_t *nd = calloc(1, sizeof *nd);
    if (!nd || rnpnet_topo_build(&nd->t, n, extra, wiring_seed, err, errlen) < 0) {
        free(nd);
        return NULL;
    }
    if (build_ports(nd) < 0 || build_regs(nd) < 0) {
        net_release(&nd->d);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (wiring_seed == 1 && extra == (n >= 256 ? 1u : 0u))
        snprintf(nd->name, sizeof nd->name, "rnpnet%u", n);
    else
        snprintf(nd->name, sizeof nd->name, "rnpnet%ux%uw%llu", n, extra,
                 (unsigned long long)wiring_seed);
    snprintf(
        nd->summary, sizeof nd->summary,
        "RNP network of RN1s: %u endpoints, %u stages (%u extra), %u routers, wiring seed %llu", n,
        nd->t.stages, extra, nd->t.nrouters, (unsigned long long)wiring_seed);
    nd->d.name = nd->name;
    nd->d.summary = nd->summary;
    nd->d.record_regs = NULL;
    nd->d.parse_word = rnp_parse_word;
    nd->d.format_word = rnp_format_word;
    nd->d.control_words = net_controls;
    nd->d.check_control = net_check_control;
    nd->d.create = net_create;
    nd->d.release = net_release;
    nd->router = &rn1_design;
    nd->d.part_design = &rn1_design; /* upsets: router r's, as its registers, `r<r>.NAME` */
    nd->d.nparts = nd->t.nrouters;
    nd->d.part_prefix = net_part_prefix;
    return &nd->d;
}

const dev_design_t *rnpnet_find_design_on(const char *name, const dev_design_t *router)
{
    const dev_design_t *d = rnpnet_find_design(name);
    if (d) /* built just now for this caller, who owns it */
        ((netdesign_t *)as_net(d))->router = router;
    return d;
}

/* rnpnetN[xE][wS]: N endpoints, E extra stages (default 1 from 256 endpoints, else 0),
 * wiring seed S (default 1). rnpnet16, rnpnet64, rnpnet256 are the documented devices. */
const dev_design_t *rnpnet_find_design(const char *name)
{
    char err[DEV_ERR_LEN];
    unsigned n = 0, e = ~0u;
    unsigned long long w = 1;
    const char *p = name;
    if (strncasecmp(p, "rnpnet", 6) != 0)
        return NULL;
    p += 6;
    char *end;
    n = (unsigned)strtoul(p, &end, 10);
    if (end == p)
        return NULL;
    p = end;
    if (*p == 'x' || *p == 'X') {
        e = (unsigned)strtoul(p + 1, &end, 10);
        if (end == p + 1)
            return NULL;
        p = end;
    }
    if (*p == 'w' || *p == 'W') {
        errno = 0;
        w = strtoull(p + 1, &end, 10);
        if (end == p + 1 || errno)
            return NULL;
        p = end;
    }
    if (*p || (n != 16 && n != 64 && n != 256 && n != 1024))
        return NULL;
    if (e == ~0u)
        e = n >= 256 ? 1 : 0;
    return rnpnet_design(n, e, w, err, sizeof err);
}

/* ---- the composite device ------------------------------------------------------------------ */

#define MAX_FAULTS 64

typedef struct netdev {
    const netdesign_t *nd;
    const rnpnet_topo_t *t;
    device_t **r;
    uint64_t *rin, *rout; /* per router RN1_NPORTS words */
    uint64_t *ein;        /* the network's own inputs (nports) */
    uint8_t *dead;        /* per router */
    int16_t *lf;          /* per link: index into faults, or -1 */
    rnpnet_fault_t faults[MAX_FAULTS];
    unsigned nfaults;
    prng_t rng; /* intermittent flips; the same in both implementations */
    uint16_t netseed;
    uint8_t backchan;
    dev_impl_t impl;
    void *trace; /* one FST for every router (RTL), or NULL */
} netdev_t;

static unsigned nlinks(const rnpnet_topo_t *t) { return t->nrouters * 8 + t->n * 2; }
static unsigned link_id(const rnpnet_topo_t *t, unsigned router, unsigned port)
{
    return port >= 8 ? t->nrouters * 8 + router * 2 + (port - 8) : router * 8 + port;
}

static uint16_t router_seed(uint16_t netseed, unsigned r)
{
    uint64_t x = ((uint64_t)netseed << 20) ^ (r * 0x9E3779B9u);
    uint16_t s = (uint16_t)prng_splitmix64(&x);
    return s ? s : 0xACE1;
}

/* A word crossing link L going forward (toward the destination), after the wiring's rotation. */
static uint16_t fwd_fault(netdev_t *n, unsigned L, uint16_t w)
{
    if (n->lf[L] < 0)
        return w;
    rnpnet_fault_t *f = &n->faults[n->lf[L]];
    switch (f->kind) {
    case RNPNET_F_DEAD_LINK: return 0;
    case RNPNET_F_STUCK_C1: return (uint16_t)(w | RNP_C);
    case RNPNET_F_STUCK_BIT:
        return (uint16_t)(f->value ? (w | (1u << f->bit)) : (w & ~(1u << f->bit)));
    case RNPNET_F_FLIP:
        if (!(w & RNP_C))
            return w;
        if (f->prob_ppm == 0) { /* transient: the next c=1 word, once */
            n->lf[L] = -1;
            return (uint16_t)(w ^ (1u << f->bit));
        }
        return prng_below(&n->rng, 1000000) < f->prob_ppm ? (uint16_t)(w ^ (1u << f->bit)) : w;
    default: return w;
    }
}

static int link_dead(const netdev_t *n, unsigned L)
{
    return n->lf[L] >= 0 && n->faults[n->lf[L]].kind == RNPNET_F_DEAD_LINK;
}

static uint16_t rotl_word(uint16_t w) { return (uint16_t)((w & RNP_C) | rnp_rotl2((uint8_t)w)); }
static uint16_t rotr_word(uint16_t w) { return (uint16_t)((w & RNP_C) | rnp_rotr2((uint8_t)w)); }

/* Every router's inputs of this cycle from its neighbours' outputs and the network inputs. */
static void compose(netdev_t *n)
{
    const rnpnet_topo_t *t = n->t;
    for (unsigned r = 0; r < t->nrouters; r++) {
        uint64_t *in = &n->rin[r * RN1_NPORTS];
        for (unsigned i = 0; i < 8; i++) { /* forward port i: from upstream */
            int32_t up = t->up[r * 8 + i];
            uint16_t w;
            unsigned L;
            if (up < 0) {
                unsigned e = (unsigned)(-up - 1);
                L = link_id(t, e / 2, 8 + e % 2);
                w = (uint16_t)n->ein[rnpnet_port(e / 2, e % 2, RNPNET_SIN)];
            } else {
                unsigned ur = (unsigned)up / 8, uj = (unsigned)up % 8;
                L = link_id(t, ur, uj);
                w = n->dead[ur] ? 0
                                : rotl_word((uint16_t)n->rout[ur * RN1_NPORTS + RN1_P_BOUT(uj)]);
            }
            in[RN1_P_FIN(i)] = fwd_fault(n, L, w);
        }
        for (unsigned j = 0; j < 8; j++) { /* backward port j: from downstream */
            int32_t dn = t->down[r * 8 + j];
            unsigned L = link_id(t, r, j);
            uint16_t w = 0;
            uint64_t bc = 0;
            if (dn < 0) {
                unsigned e = (unsigned)(-dn - 1);
                w = (uint16_t)n->ein[rnpnet_port(e / 2, e % 2, RNPNET_DIN)];
                bc = n->ein[rnpnet_port(e / 2, e % 2, RNPNET_DBC)];
            } else if (!n->dead[(unsigned)dn / 8]) {
                unsigned dr = (unsigned)dn / 8, df = (unsigned)dn % 8;
                w = rotr_word((uint16_t)n->rout[dr * RN1_NPORTS + RN1_P_FOUT(df)]);
                bc = n->rout[dr * RN1_NPORTS + RN1_P_FBC(df)];
            }
            if (link_dead(n, L))
                w = 0, bc = 0;
            in[RN1_P_BIN(j)] = w;
            in[RN1_P_BBC(j)] = bc;
        }
    }
}

static void refresh_outputs(netdev_t *n)
{
    for (unsigned r = 0; r < n->t->nrouters; r++)
        dev_get_outputs(n->r[r], &n->rout[r * RN1_NPORTS]);
}

static void nd_destroy(void *self)
{
    netdev_t *n = self;
    if (n->trace)
        ftsim_vl_trace_close(n->trace);
    for (unsigned r = 0; r < n->t->nrouters && n->r; r++)
        dev_close(n->r[r]);
    free(n->r), free(n->rin), free(n->rout), free(n->ein), free(n->dead), free(n->lf);
    free(n);
}

static void nd_set_reset(void *self, bool a)
{
    netdev_t *n = self;
    for (unsigned r = 0; r < n->t->nrouters; r++)
        n->r[r]->ops->set_reset(n->r[r]->self, a);
}

static void nd_set_inputs(void *self, const uint64_t *in)
{
    netdev_t *n = self;
    memcpy(n->ein, in, n->nd->d.nports * sizeof *in);
}

static void nd_get_outputs(void *self, uint64_t *out)
{
    netdev_t *n = self;
    const rnpnet_topo_t *t = n->t;
    for (unsigned e = 0; e < t->n; e++)
        for (unsigned k = 0; k < 2; k++) {
            unsigned in = t->inj[e * 2 + k], ir = in / 8, ip = in % 8;
            unsigned ej = t->ej[e * 2 + k], er = ej / 8, ep = ej % 8;
            int cut_in = link_dead(n, link_id(t, e, 8 + k));
            const uint64_t *ro = &n->rout[ir * RN1_NPORTS], *eo = &n->rout[er * RN1_NPORTS];
            out[rnpnet_port(e, k, RNPNET_SOUT)] = n->dead[ir] || cut_in ? 0 : ro[RN1_P_FOUT(ip)];
            out[rnpnet_port(e, k, RNPNET_SBC)] = n->dead[ir] || cut_in ? 0 : ro[RN1_P_FBC(ip)];
            out[rnpnet_port(e, k, RNPNET_DOUT)] =
                n->dead[er] ? 0 : fwd_fault(n, link_id(t, er, ep), (uint16_t)eo[RN1_P_BOUT(ep)]);
        }
}

uint64_t rnpnet_router_cfg(const rnpnet_topo_t *t, uint16_t netseed, int backchan, unsigned r)
{
    return (rnpnet_swallows(rnpnet_stage(t, r)) ? 0xFFull : 0) |
           ((uint64_t)router_seed(netseed, r) << 16) | ((uint64_t)(backchan & 1) << 40);
}

static void nd_write_router_cfg(netdev_t *n, unsigned r, int during_reset)
{
    (void)during_reset;
    dev_write_t w = {RN1_REG_CFG, rnpnet_router_cfg(n->t, n->netseed, n->backchan, r),
                     RNPNET_CFG_NET_MASK};
    dev_reg_write(n->r[r], &w);
}

/* `reset rK`: router K alone as dev_reset resets a device (reset held two cycles, the
 * network's configuration of K written in a third, then released), its cycles run on K
 * between two cycles of the network; K's `disable` takes its reset value 0 (the monitor that
 * masked ports writes them again). Every implementation does the same, so lockstep goes on. */
static void nd_reset_router(netdev_t *n, unsigned r)
{
    device_t *dv = n->r[r];
    uint64_t idle[RN1_NPORTS] = {0};
    dv->ops->set_reset(dv->self, true);
    dv->ops->set_inputs(dv->self, idle);
    for (int i = 0; i < 2; i++)
        dv->ops->tick(dv->self, UINT64_MAX);
    nd_write_router_cfg(n, r, 1);
    dv->ops->tick(dv->self, UINT64_MAX);
    dv->ops->set_reset(dv->self, false);
    /* the router's own cycle count runs on with the network's, so its trace stays aligned */
    refresh_outputs(n);
}

static void nd_reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    netdev_t *n = self;
    if (addr == RNPNET_NETCFG) {
        if (mask & 0xFFFFu)
            n->netseed = (uint16_t)((n->netseed & ~mask) | (data & mask & 0xFFFFu));
        if (mask & 0x10000u)
            n->backchan = (uint8_t)((data >> 16) & 1u);
        for (unsigned r = 0; r < n->t->nrouters; r++)
            nd_write_router_cfg(n, r, 0);
        return;
    }
    unsigned r = addr >> 8;
    if (r < n->t->nrouters) {
        dev_write_t w = {addr & 0xFFu, data, mask};
        dev_reg_write(n->r[r], &w);
    }
}

static uint64_t nd_reg_read(void *self, uint32_t addr)
{
    netdev_t *n = self;
    if (addr == RNPNET_NETCFG)
        return n->netseed | ((uint64_t)n->backchan << 16);
    unsigned r = addr >> 8;
    return r < n->t->nrouters ? dev_reg_read(n->r[r], addr & 0xFFu) : 0;
}

static void nd_debug(void *self, uint64_t *words)
{
    netdev_t *n = self;
    for (unsigned r = 0; r < n->t->nrouters; r++)
        dev_debug(n->r[r], &words[r * RN1_NDEBUG]);
}

static void nd_tick(void *self, uint64_t cycle)
{
    netdev_t *n = self;
    compose(n);
    for (unsigned r = 0; r < n->t->nrouters; r++)
        dev_set_inputs(n->r[r], &n->rin[r * RN1_NPORTS]);
    if (!n->trace || !ftsim_vl_trace_on(n->trace, cycle)) { /* outside the window: untraced */
        for (unsigned r = 0; r < n->t->nrouters; r++)
            n->r[r]->ops->tick(n->r[r]->self, cycle);
    } else {
        /* every router's edge in three phases, so the shared waveform sees them together
         * (dev.h: cycle t at 10 t ns with the clock high, 10 t + 5 ns low, edge at 10 t + 10) */
        for (int ph = 0; ph < 3; ph++) {
            for (unsigned r = 0; r < n->t->nrouters; r++)
                n->r[r]->ops->phase(n->r[r]->self, ph);
            if (ph < 2)
                ftsim_vl_trace_dump(n->trace,
                                    cycle * DEV_NS_PER_CYCLE + (ph ? DEV_NS_PER_CYCLE / 2 : 0));
        }
    }
    refresh_outputs(n);
}

static int nd_trace_open(void *self, const char *path, char *err, size_t errlen)
{
    netdev_t *n = self;
    if (n->impl != DEV_IMPL_RTL) {
        snprintf(err, errlen, "%s: the C model writes no waveform; use --model rtl or both", path);
        return -1;
    }
    if (n->trace) {
        snprintf(err, errlen, "%s: a waveform is already open", path);
        return -1;
    }
    if (!n->r[0]->ops->trace_attach) { /* the routers cannot share one (SystemC units) */
        snprintf(err, errlen, "%s: a network's waveform is written by build/ftsim", path);
        return -1;
    }
    void *tr = ftsim_vl_trace_new();
    for (unsigned r = 0; r < n->t->nrouters; r++)
        n->r[r]->ops->trace_attach(n->r[r]->self, tr);
    if (ftsim_vl_trace_open(tr, path, err, errlen) < 0)
        return -1; /* the unopened trace is dropped with the process; the models still run */
    n->trace = tr;
    return 0;
}

static void nd_trace_close(void *self, uint64_t cycle)
{
    netdev_t *n = self;
    if (!n->trace)
        return;
    if (ftsim_vl_trace_on(n->trace, cycle)) {
        for (unsigned r = 0; r < n->t->nrouters; r++)
            n->r[r]->ops->phase(n->r[r]->self, 0);
        ftsim_vl_trace_dump(n->trace, cycle * DEV_NS_PER_CYCLE);
        for (unsigned r = 0; r < n->t->nrouters; r++)
            n->r[r]->ops->phase(n->r[r]->self, 1); /* the clock low again: the next edge is one */
    }
    ftsim_vl_trace_close(n->trace);
    n->trace = NULL;
}

static void nd_trace_window(void *self, uint64_t from, uint64_t to)
{
    netdev_t *n = self;
    if (n->trace)
        ftsim_vl_trace_window(n->trace, from, to);
}

static int nd_internal_error(void *self)
{
    netdev_t *n = self;
    int worst = 0; /* 1, a mismatch, over 2, an assertion after an upset (dev.h) */
    for (unsigned r = 0; r < n->t->nrouters && worst != 1; r++) {
        int e = n->r[r]->ops->internal_error(n->r[r]->self);
        if (e && (worst == 0 || e == 1))
            worst = e;
    }
    return worst;
}

/* An upset of router s->part's element: its device's, then the outputs anew. */
static int nd_upset(void *self, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    netdev_t *n = self;
    dev_upset_bit_t x = *s;
    x.part = 0;
    if (s->part >= n->t->nrouters || dev_upset(n->r[s->part], &x, err, errlen) < 0)
        return -1;
    refresh_outputs(n);
    return 0;
}

static int nd_control(void *self, const char *cmd, char *err, size_t errlen)
{
    netdev_t *n = self;
    if (net_check_control(&n->nd->d, cmd, err, errlen) < 0)
        return -1;
    int rr = parse_reset(n->t, cmd);
    if (rr >= 0) {
        nd_reset_router(n, (unsigned)rr);
        return 0;
    }
    rnpnet_fault_t f;
    int heal;
    rnpnet_fault_parse(cmd + 6, &f, &heal, err, errlen);
    if (heal) {
        n->nfaults = 0;
        memset(n->dead, 0, n->t->nrouters);
        memset(n->lf, 0xFF, nlinks(n->t) * sizeof *n->lf);
        return 0;
    }
    if (n->nfaults == MAX_FAULTS) {
        snprintf(err, errlen, "at most %d faults at once", MAX_FAULTS);
        return -1;
    }
    n->faults[n->nfaults] = f;
    if (f.kind == RNPNET_F_DEAD_ROUTER)
        n->dead[f.router] = 1;
    else
        n->lf[link_id(n->t, f.router, f.port)] = (int16_t)n->nfaults;
    n->nfaults++;
    return 0;
}

static const dev_ops_t net_ops = {
    .destroy = nd_destroy,
    .set_reset = nd_set_reset,
    .set_inputs = nd_set_inputs,
    .get_outputs = nd_get_outputs,
    .reg_write = nd_reg_write,
    .reg_read = nd_reg_read,
    .debug = nd_debug,
    .tick = nd_tick,
    .trace_open = nd_trace_open,
    .trace_close = nd_trace_close,
    .internal_error = nd_internal_error,
    .control = nd_control,
    .trace_window = nd_trace_window,
    .upset = nd_upset,
};

static void *net_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                        const dev_ops_t **ops, char *err, size_t errlen)
{
    (void)inst;
    const netdesign_t *nd = as_net(d);
    const rnpnet_topo_t *t = &nd->t;
    netdev_t *n = calloc(1, sizeof *n);
    if (!n)
        goto oom;
    n->nd = nd;
    n->t = t;
    n->netseed = 0xACE1;
    n->r = calloc(t->nrouters, sizeof *n->r);
    n->rin = calloc((size_t)t->nrouters * RN1_NPORTS, sizeof *n->rin);
    n->rout = calloc((size_t)t->nrouters * RN1_NPORTS, sizeof *n->rout);
    n->ein = calloc(nd->d.nports, sizeof *n->ein);
    n->dead = calloc(t->nrouters, 1);
    n->lf = malloc(nlinks(t) * sizeof *n->lf);
    if (!n->r || !n->rin || !n->rout || !n->ein || !n->dead || !n->lf)
        goto oom;
    memset(n->lf, 0xFF, nlinks(t) * sizeof *n->lf);
    prng_seed(&n->rng, 0x666C6970ull);
    n->impl = impl;
    for (unsigned r = 0; r < t->nrouters; r++) {
        char name[16];
        snprintf(name, sizeof name, "r%u", r);
        n->r[r] = dev_open_named(as_net(d)->router, impl, name, err, errlen);
        if (!n->r[r]) {
            nd_destroy(n);
            return NULL;
        }
    }
    *ops = &net_ops;
    return n;
oom:
    if (n)
        nd_destroy(n);
    snprintf(err, errlen, "out of memory");
    return NULL;
}
