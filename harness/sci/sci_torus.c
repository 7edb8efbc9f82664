/*
 * sci_torus.c — a W x H 2-D SCI torus, composed in the harness from W * H torus node models
 * (the RTL or the C model of rtl/sci_node.md with NLC = 2: LC 0 the X-LC, LC 1 the Y-LC), as
 * harness/sci/sci_ring.c composes a ring. Devices `torusWxH` (LC3, W, H = 2..16) and `p2storusWxH`
 * (P2S, W, H = 2..32).
 *
 * Contract:
 * - Nodes: (x, y) is node index y * W + x; its id is sci_route_id() (harness/sci/sci_route.h: x =
 *   bits [3:0], y = bits [7:4]; P2S tori wider or taller than 16: x = [5:0], y = [11:6]).
 * - Wiring (direct wires, one register stage per hop as in the ring): the X ring of row y runs
 *   (x, y).X-LC out -> (x+1 mod W, y).X-LC in; the Y ring of column x runs (x, y).Y-LC out ->
 *   (x, y+1 mod H).Y-LC in.
 * - Ports per node, prefixed `nX.Y.`: inputs `hin`, `hout.ready`; outputs `hin.ready` (idle 1),
 *   `hout`, `irq.x`, `irq.y` (hin/hout words {last, valid, sym}, as the ring), and, to observe
 *   the fabric, the X and Y link words the node sends as its downstream neighbour receives them
 *   (after cuts and power): `lx`, `lx.sd`, `ly`, `ly.sd` (sd idle 1).
 * - Registers: node (x, y)'s register a at ((y*W + x) << 8) | a, named `nX.Y.NAME` after the
 *   node design's names (`n1.0.x.ring_up`, `n0.1.y.node`, `n0.0.psb.brt`, `n0.0.rsr_timeout`).
 *   Config keys default to the node's design defaults, except: x.node, y.node and psb.node =
 *   the node's id; x.scrubber = 1 at (0, y) (the scrubber of X ring y), y.scrubber = 1 at
 *   (x, 0) (the scrubber of Y ring x), 0 elsewhere.
 * - Tables (RAMs, kept over reset) loaded when the device is created, in reset cycles: the
 *   fault-free tables of sci_route_tables() (policy SPEC: sci_route.md section 2, P2S set 1 Y-first
 *   as sci_route.md section 2): X-LC and Y-LC LRT and BRT, PSB BRT, P2S ASEL. Only entries of
 *   ids that exist and fields that differ from the reset value 0 are written; every other
 *   entry keeps its reset value 0 (LRT bypass, BRT port 0).
 * - Configuration during reset: every reset cycle of the device is a configuration cycle of
 *   every node (sci_node.md section 4). The device keeps the configuration (the CTRL registers
 *   of both LCs and the PSB, and the PSB's NTGT, per node) as the defaults above merged with every register write
 *   made during reset. In each reset cycle the node a write addresses performs it; every
 *   other node gets a full write of one of its four configuration registers (X-LC CTRL,
 *   Y-LC CTRL, PSB CTRL, PSB NTGT), in rotation. So after any four reset cycles every node holds the
 *   configuration, whatever number of configuration writes the vector's reset carries (the
 *   vector layer takes up to VEC_MAX_WRITES = 4096 addresses: a 32 x 32 torus's four a node). Asserting the device's reset restores the defaults.
 * - Controls (vector statements `@N WORD ...`), effective from cycle N:
 *   `cut x X,Y` / `restore x X,Y`: the cable out of (X, Y)'s X-LC is pulled / put back: node
 *   (X+1, Y) sees signal detect 0 and word 0 from cycle N on; `cut y X,Y` / `restore y X,Y`
 *   the same for the Y-LC's cable to (X, Y+1).
 *   `off X,Y`: power down: the node is held in reset from cycle N (the edge ending N is a reset
 *   edge) and its outputs are dead from cycle N: both link outputs sd 0 and word 0, host
 *   ports at their idle values (hin.ready 1, hout 0, irq.x 0, irq.y 0). Register writes to it
 *   are dropped; reads return the held-in-reset model's registers.
 *   `on X,Y`: power up, as a driver brings a node back: the edge ending cycle N is a plain
 *   reset edge (CTRLs to their reset values), the edges ending N+1 .. N+4 are reset edges
 *   writing the node's configuration (X-LC CTRL, Y-LC CTRL, PSB CTRL, PSB NTGT, as configured at the
 *   device's reset: node ids, scrubber bits, limits); the node runs from cycle N+4. Its
 *   outputs are the node model's from cycle N (powered, in reset), register writes to it in
 *   N..N+4 are dropped. Its tables survive in this model: the RAMs keep their contents over
 *   the power cycle (real RAM would not; a driver would reload them). `on` of a node that is
 *   on and `off` of a node that is off change nothing.
 *   `reset X,Y`: a running node reset by its driver (recovery from an upset): as `on`, the
 *   edge ending N is a plain reset edge and N+1 .. N+4 write the node's configuration, except
 *   that both LCs' CTRL is written with enable 0, so the node comes out of it with its LCs
 *   disabled and its tables as they were (RAM keeps them over reset): the driver reloads the
 *   tables and enables the LCs. Register writes to it in N..N+4 are dropped. Of a node that
 *   is off it changes nothing.
 * - Debug words: every node's (rtl/sci_node.md section 5), node by node.
 * - Threads (sci_torus_set_pool; the RTL in parts): the nodes' edges of a cycle run on several
 *   threads; every output, register, debug word and waveform value is the same as on one.
 * - Ownership: a torus's design is built on request and belongs to the caller (dev.h); its
 *   nodes' design is a fixed one.
 */
#include "sci_torus.h"
#include "sci_fabric.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sci_dev.h"
#include "sci_node.h"
#include "sci_route.h"
#include "sci_word.h"
#include "tpool.h"
#include "vl_ctx.h"
#include "vl_trace.h"

/* The configuration registers a node gets in every configuration cycle, in rotation: the three
 * CTRLs and the PSB's NOTIFY target (P2S failover; reads 0 and ignores writes on LC3). */
#define NCTRL 4u
static const uint8_t ctrl_addr[NCTRL] = {SCI_REG_CTRL, SCI_NODE_LC_STRIDE + SCI_REG_CTRL,
                                         SCI_PSB_CTRL, SCI_PSB_NTGT};
#define POWER_UP_CYCLES (1u + NCTRL) /* one plain reset cycle, then the configuration writes */

typedef struct torusdesign {
    dev_design_t d;
    int p2s;
    unsigned w, h, n;
    sci_torus_t t;
    const dev_design_t *node; /* a fixed design (sci_node_design): nothing to release */
    unsigned rtl_parts;       /* the RTL's nodes in this many parts (sci_torus_set_rtl_parts) */
    char name[40], summary[112];
    dev_port_t *ports;
    dev_reg_t *regs;
    uint32_t *debug_addrs;
    char (*names)[40];
    uint16_t *ids;
    uint64_t *ctrl_dflt; /* [node * NCTRL + k]: the default configuration */
} torusdesign_t;

static const torusdesign_t *as_torus(const dev_design_t *d)
{
    return DEV_DESIGN_OF(d, torusdesign_t, d);
}

static void *torus_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                          const dev_ops_t **ops, char *err, size_t errlen);

static const char *const torus_controls[] = {"cut", "restore", "off", "on", "reset", NULL};

static const char *const port_names[SCI_TORUS_NK] = {
    "hin", "hout.ready", "hin.ready", "hout", "irq.x", "irq.y", "lx", "lx.sd", "ly", "ly.sd"};

/* ---- controls ---------------------------------------------------------------------------- */

static int parse_ctl(const torusdesign_t *td, const char *text, int *op, unsigned *dim,
                     unsigned *node, char *err, size_t errlen)
{
    return sci_torus_parse_ctl(td->w, td->h, td->name, text, op, dim, node, err, errlen);
}

static int torus_check_control(const dev_design_t *d, const char *text, char *err, size_t errlen)
{
    int op;
    unsigned dim, node;
    return parse_ctl(as_torus(d), text, &op, &dim, &node, err, errlen);
}

/* ---- designs ----------------------------------------------------------------------------- */

static int is_torus(const dev_design_t *d) { return d->create == torus_create; }

static void torus_part_prefix(const dev_design_t *d, unsigned k, char *buf, size_t len)
{
    const torusdesign_t *td = as_torus(d);
    snprintf(buf, len, "n%u.%u.", k % td->w, k / td->w);
}

static int torus_upset_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                            unsigned max);

static void free_design(torusdesign_t *td)
{
    if (!td)
        return;
    free(td->ports), free(td->regs), free(td->debug_addrs), free(td->names), free(td->ids);
    free(td->ctrl_dflt), free(td);
}

static void torus_release(const dev_design_t *d) { free_design((torusdesign_t *)as_torus(d)); }

const dev_design_t *sci_torus_design(int p2s, unsigned w, unsigned h)
{
    p2s = p2s ? 1 : 0;
    unsigned max = p2s ? SCI_TORUS_MAX_P2S : SCI_TORUS_MAX_LC3;
    if (w < 2 || h < 2 || w > max || h > max)
        return NULL;
    torusdesign_t *td = calloc(1, sizeof *td);
    if (!td)
        return NULL;
    td->p2s = p2s;
    td->w = w;
    td->h = h;
    td->n = w * h;
    td->t.w = w;
    td->t.h = h;
    td->t.var = p2s ? SCI_VAR_P2S : SCI_VAR_LC3;
    td->t.policy = SCI_POLICY_SPEC;
    td->node = sci_node_design(p2s, 2);
    const dev_design_t *nd = td->node;
    unsigned n = td->n;
    td->ports = calloc((size_t)n * SCI_TORUS_NK, sizeof *td->ports);
    td->regs = calloc((size_t)n * nd->nregs, sizeof *td->regs);
    td->debug_addrs = calloc((size_t)n * nd->ndebug, sizeof *td->debug_addrs);
    td->names = calloc((size_t)n * (SCI_TORUS_NK + nd->nregs), sizeof *td->names);
    td->ids = calloc(n, sizeof *td->ids);
    td->ctrl_dflt = calloc((size_t)n * NCTRL, sizeof *td->ctrl_dflt);
    if (!td->ports || !td->regs || !td->debug_addrs || !td->names || !td->ids || !td->ctrl_dflt) {
        free_design(td);
        return NULL;
    }
    size_t nn = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned x = i % w, y = i / w;
        td->ids[i] = sci_route_id(&td->t, i);
        for (unsigned k = 0; k < SCI_TORUS_NK; k++) {
            dev_port_t *p = &td->ports[(size_t)i * SCI_TORUS_NK + k];
            snprintf(td->names[nn], sizeof td->names[nn], "n%u.%u.%s", x, y, port_names[k]);
            p->name = td->names[nn++];
            p->dir = k < SCI_TP_HIN_READY ? DEV_IN : DEV_OUT;
            p->width = (k == SCI_TP_HIN || k == SCI_TP_HOUT) ? 18
                       : (k == SCI_TP_LX || k == SCI_TP_LY)  ? 17
                                                             : 1;
            p->kind = p->width == 17   ? SCI_KIND_LINK
                      : p->width == 18 ? SCI_KIND_BLINK
                                       : SCI_KIND_BIT;
            p->idle = k == SCI_TP_HIN_READY || k == SCI_TP_LX_SD || k == SCI_TP_LY_SD;
        }
        for (unsigned r = 0; r < nd->nregs; r++) {
            dev_reg_t reg = nd->regs[r];
            const char *base = nd->regs[r].name;
            snprintf(td->names[nn], sizeof td->names[nn], "n%u.%u.%s", x, y, base);
            reg.name = td->names[nn++];
            reg.addr = ((uint32_t)i << 8) | nd->regs[r].addr;
            if (!strcmp(base, "x.node") || !strcmp(base, "y.node") || !strcmp(base, "psb.node"))
                reg.dflt = td->ids[i];
            if (!strcmp(base, "x.scrubber"))
                reg.dflt = x == 0;
            if (!strcmp(base, "y.scrubber"))
                reg.dflt = y == 0;
            /* P2S: hardware failover on, the id layout, NOTIFY to the downstream X neighbour */
            if (!strcmp(base, "psb.fo_en"))
                reg.dflt = (unsigned)p2s;
            if (!strcmp(base, "psb.xw"))
                reg.dflt = w > 16 || h > 16;
            if (!strcmp(base, "psb.ntgt"))
                reg.dflt = p2s ? sci_route_id(&td->t, sci_torus_index(w, (x + 1) % w, y)) : 0;
            td->regs[(size_t)i * nd->nregs + r] = reg;
            if (reg.flags & DEV_REG_CONFIG)
                for (unsigned c = 0; c < NCTRL; c++)
                    if (nd->regs[r].addr == ctrl_addr[c]) {
                        uint64_t m = dev_field_mask(&reg);
                        uint64_t *v = &td->ctrl_dflt[(size_t)i * NCTRL + c];
                        *v = (*v & ~m) | ((reg.dflt << reg.lsb) & m);
                    }
        }
        for (unsigned k = 0; k < nd->ndebug; k++)
            td->debug_addrs[(size_t)i * nd->ndebug + k] = ((uint32_t)i << 8) | nd->debug_addrs[k];
    }
    snprintf(td->name, sizeof td->name, "%storus%ux%u", p2s ? "p2s" : "", w, h);
    snprintf(td->summary, sizeof td->summary,
             "%ux%u %s nodes on a 2-D SCI torus (harness/sci/sci_torus.c)", w, h,
             p2s ? "P2S" : "LC3");
    td->d.name = td->name;
    td->d.summary = td->summary;
    td->d.ports = td->ports;
    td->d.nports = n * SCI_TORUS_NK;
    td->d.regs = td->regs;
    td->d.nregs = n * nd->nregs;
    td->d.debug_addrs = td->debug_addrs;
    td->d.ndebug = n * nd->ndebug;
    td->d.parse_word = sci_parse_word;
    td->d.format_word = sci_format_word;
    td->d.parse_seq = sci_parse_seq;
    td->d.control_words = torus_controls;
    td->d.check_control = torus_check_control;
    td->d.create = torus_create;
    td->d.release = torus_release;
    td->d.part_design = nd; /* upsets: node (x,y)'s, as its registers, `n<x>.<y>.NAME` */
    td->d.nparts = n;
    td->d.part_prefix = torus_part_prefix;
    td->d.upset_live = torus_upset_live;
    return &td->d;
}

const dev_design_t *sci_torus_find_design(const char *name)
{
    int p2s = 0;
    if (!strncasecmp(name, "p2s", 3)) {
        p2s = 1;
        name += 3;
    }
    if (strncasecmp(name, "torus", 5))
        return NULL;
    const char *s = name + 5;
    char *end;
    if (*s < '0' || *s > '9')
        return NULL;
    unsigned long w = strtoul(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return NULL;
    s = end + 1;
    if (*s < '0' || *s > '9')
        return NULL;
    unsigned long h = strtoul(s, &end, 10);
    if (end == s || *end || w > 64 || h > 64)
        return NULL;
    return sci_torus_design(p2s, (unsigned)w, (unsigned)h);
}

unsigned sci_torus_dims(const dev_design_t *d, unsigned *w, unsigned *h)
{
    const torusdesign_t *td = is_torus(d) ? as_torus(d) : NULL;
    unsigned ww = td ? td->w : 0, hh = td ? td->h : 0;
    if (w)
        *w = ww;
    if (h)
        *h = hh;
    return ww * hh;
}

int sci_torus_p2s(const dev_design_t *d) { return is_torus(d) && as_torus(d)->p2s; }

unsigned sci_torus_port(const dev_design_t *d, unsigned x, unsigned y, unsigned kind)
{
    const torusdesign_t *td = as_torus(d);
    return sci_torus_index(td->w, x, y) * SCI_TORUS_NK + kind;
}

uint32_t sci_torus_addr(const dev_design_t *d, unsigned x, unsigned y, unsigned a)
{
    const torusdesign_t *td = as_torus(d);
    return ((uint32_t)sci_torus_index(td->w, x, y) << 8) | (a & 0xFFu);
}

uint16_t sci_torus_node_id(const dev_design_t *d, unsigned x, unsigned y)
{
    const torusdesign_t *td = as_torus(d);
    return td->ids[sci_torus_index(td->w, x, y)];
}

/* ---- the composite device ------------------------------------------------------------- */

typedef struct torusdev {
    const torusdesign_t *td;
    unsigned n, w, h, np; /* nodes, dimensions, ports per node model */
    device_t **node;
    void **self;           /* node[i]->self, in a row (step_nodes reaches the model from it) */
    const dev_ops_t *nops; /* every node's ops (one design, one implementation) */
    uint64_t *nin;         /* per node model: its input ports */
    uint64_t *nout;        /* per node model: its output ports, as its last edge left them */
    uint64_t *lnk;   /* [node * 2 + dim]: the link word node sends, as its downstream neighbour
                      * receives it (after cuts and power): word | sd << 32 */
    uint64_t *lnew;  /* the same, from the edge under way (committed after it: commit) */
    uint8_t *want;   /* the node takes the next edge (see the clock edge below): in `next` */
    uint8_t *moved1; /* the edge under way: the node's model did not tell it changed nothing */
    uint8_t *inedge; /* on threads: the node takes the edge under way (in list) */
    unsigned *list;  /* the nodes of the edge under way */
    unsigned *next;  /* the nodes that take the next edge (wake), in the order they woke */
    unsigned nlist, nnext;
    bool all;                /* every node takes every edge (noskip, or FTSIM_TORUS_STEP_ALL) */
    bool packed;             /* the C model, not all: step_node_packed */
    bool noskip;             /* the node model has no skip (the RTL) */
    uint64_t edges, stepped; /* edges, and node edges taken (FTSIM_SKIP_STATS) */
    uint64_t *ein;           /* the torus's own inputs */
    uint64_t *eout;          /* the torus's own outputs, as the last edge left them (node_eout) */
    bool eout_stale;         /* a control or a reset changed some since */
    uint8_t *cut;            /* [node * 2 + dim] */
    uint8_t *off;            /* powered down */
    uint8_t *pup;            /* power-up reset cycles still to go */
    uint8_t *rst_dis;        /* the power-up cycles are a `reset`'s: the LCs come out disabled */
    uint64_t *ctrl;          /* the configuration: [node * NCTRL + k] */
    bool in_reset;
    int wrote;    /* node a device write addressed this cycle, -1 none */
    unsigned rot; /* rotation of the configuration writes during reset */
    dev_impl_t impl;
    void *trace;    /* the waveform; trace_own: the torus's own (dev_trace_open), not shared */
    bool trace_own;
    /* the edge under way (see step_node), and where it runs */
    tpool_t *pool;     /* NULL: on the calling thread */
    unsigned nparts;   /* RTL in parts: nodes part_lo[p] .. part_lo[p + 1] - 1 in context ctx[p] */
    unsigned part_lo[TPOOL_MAX + 1];
    void *ctx[TPOOL_MAX];
    atomic_bool moved; /* skipping: some node's edge changed its state */
    atomic_int ierr;   /* a node model flagged an internal error (sticky, as each node's): bit 0
                        * a mismatch, bit 1 an assertion after an upset (dev.h) */
    uint64_t step_cycle, step_max;
    unsigned step_ctrl; /* in reset: the configuration register of this edge's rotation */
    bool step_skip;     /* skip (dev_ops_t.skip) instead of tick */
} torusdev_t;

static uint64_t *nin(torusdev_t *t, unsigned i) { return &t->nin[(size_t)i * t->np]; }
static uint64_t *nout(torusdev_t *t, unsigned i) { return &t->nout[(size_t)i * t->np]; }
static unsigned tport(unsigned i, unsigned kind) { return i * SCI_TORUS_NK + kind; }

/* Node i's dim output link (0 X, 1 Y) as its downstream neighbour receives it, from its
 * model's outputs o: word | sd << 32. */
static uint64_t link_word(const torusdev_t *t, unsigned i, unsigned dim, const uint64_t *o)
{
    if (t->cut[i * 2 + dim] || t->off[i])
        return 0;
    return (o[sci_node_port(2, SCI_NP_LOUT, dim)] & 0xFFFFFFFFull) |
           o[sci_node_port(2, SCI_NP_LOUT_SD, dim)] << 32;
}

/* The node downstream of node i on its dim ring. */
static unsigned downstream(const torusdev_t *t, unsigned i, unsigned dim)
{
    if (dim)
        return i + t->w < t->n ? i + t->w : i + t->w - t->n;
    return (i + 1) % t->w ? i + 1 : i + 1 - t->w;
}

/* Node i takes the next edge. */
static void wake(torusdev_t *t, unsigned i)
{
    t->next[t->nnext] = i; /* without a branch: kept unless woken already (next has n + 1) */
    t->nnext += !t->want[i];
    t->want[i] = 1;
}

/* Node i's links anew from its outputs, power and cables (after a control or an upset); the
 * node and its two downstream neighbours take the next edge. */
static void relink(torusdev_t *t, unsigned i)
{
    for (unsigned d = 0; d < 2; d++) {
        t->lnk[i * 2 + d] = link_word(t, i, d, nout(t, i));
        wake(t, downstream(t, i, d));
    }
    wake(t, i);
}

/* Node i's inputs of this cycle: the links from its upstream X and Y neighbours (wired
 * directly: their link words of this cycle, in lnk), its host ports from the torus's inputs. */
static void compose_node(torusdev_t *t, unsigned i)
{
    unsigned left = i % t->w ? i - 1 : i + t->w - 1;
    unsigned above = i >= t->w ? i - t->w : i + t->n - t->w;
    uint64_t *in = nin(t, i), lx = t->lnk[left * 2], ly = t->lnk[above * 2 + 1];
    in[sci_node_port(2, SCI_NP_LIN, 0)] = lx & 0xFFFFFFFFull;
    in[sci_node_port(2, SCI_NP_LIN_SD, 0)] = lx >> 32;
    in[sci_node_port(2, SCI_NP_LIN, 1)] = ly & 0xFFFFFFFFull;
    in[sci_node_port(2, SCI_NP_LIN_SD, 1)] = ly >> 32;
    in[sci_node_port(2, SCI_NP_HIN, 0)] = t->ein[tport(i, SCI_TP_HIN)];
    in[sci_node_port(2, SCI_NP_HOUT_READY, 0)] = t->ein[tport(i, SCI_TP_HOUT_READY)];
}

/* Node i's ports among the torus's outputs, from its model's outputs o, its power and its
 * cables. */
static void node_eout(torusdev_t *t, unsigned i, const uint64_t *o)
{
    uint64_t *out = t->eout;
    if (t->off[i]) {
        out[tport(i, SCI_TP_HIN_READY)] = 1;
        out[tport(i, SCI_TP_HOUT)] = 0;
        out[tport(i, SCI_TP_IRQ_X)] = 0;
        out[tport(i, SCI_TP_IRQ_Y)] = 0;
    } else {
        out[tport(i, SCI_TP_HIN_READY)] = o[sci_node_port(2, SCI_NP_HIN_READY, 0)];
        out[tport(i, SCI_TP_HOUT)] = o[sci_node_port(2, SCI_NP_HOUT, 0)];
        out[tport(i, SCI_TP_IRQ_X)] = o[sci_node_port(2, SCI_NP_IRQ, 0)];
        out[tport(i, SCI_TP_IRQ_Y)] = o[sci_node_port(2, SCI_NP_IRQ, 1)];
    }
    bool dead[2] = {t->cut[i * 2] || t->off[i], t->cut[i * 2 + 1] || t->off[i]};
    out[tport(i, SCI_TP_LX)] = dead[0] ? 0 : o[sci_node_port(2, SCI_NP_LOUT, 0)];
    out[tport(i, SCI_TP_LX_SD)] = dead[0] ? 0 : o[sci_node_port(2, SCI_NP_LOUT_SD, 0)];
    out[tport(i, SCI_TP_LY)] = dead[1] ? 0 : o[sci_node_port(2, SCI_NP_LOUT, 1)];
    out[tport(i, SCI_TP_LY_SD)] = dead[1] ? 0 : o[sci_node_port(2, SCI_NP_LOUT_SD, 1)];
}

static void refresh(torusdev_t *t)
{
    for (unsigned i = 0; i < t->n; i++) {
        dev_get_outputs(t->node[i], nout(t, i));
        node_eout(t, i, nout(t, i));
        for (unsigned d = 0; d < 2; d++)
            t->lnk[i * 2 + d] = link_word(t, i, d, nout(t, i));
    }
    for (unsigned i = 0; i < t->n; i++)
        wake(t, i);
    t->eout_stale = false;
}

/* A reset or a register write into node i: it takes the next edge. The edge itself (pre_edge,
 * post_edge, on any thread) uses the plain ones: the node is in that edge, and commit wakes
 * it for the next. */
static void node_reset_plain(torusdev_t *t, unsigned i, bool a)
{
    t->node[i]->ops->set_reset(t->node[i]->self, a);
}

static void node_write_plain(torusdev_t *t, unsigned i, uint32_t a, uint64_t data, uint64_t mask)
{
    t->node[i]->ops->reg_write(t->node[i]->self, a, data, mask);
}

static void node_reset(torusdev_t *t, unsigned i, bool a)
{
    node_reset_plain(t, i, a);
    wake(t, i);
}

static void node_write(torusdev_t *t, unsigned i, uint32_t a, uint64_t data, uint64_t mask)
{
    node_write_plain(t, i, a, data, mask);
    wake(t, i);
}

static void tr_destroy(void *self)
{
    torusdev_t *t = self;
    if (getenv("FTSIM_SKIP_STATS") && t->edges)
        fprintf(stderr, "sci_torus: %llu edges, %.1f of %u nodes a edge\n",
                (unsigned long long)t->edges, (double)t->stepped / (double)t->edges, t->n);
    if (t->trace)
        ftsim_vl_trace_close(t->trace);
    for (unsigned i = 0; t->node && i < t->n; i++)
        if (t->node[i])
            dev_close(t->node[i]);
    for (unsigned p = 0; p < t->nparts; p++)
        if (t->ctx[p])
            ftsim_vl_ctx_free(t->ctx[p]);
    free(t->node), free(t->nin), free(t->nout), free(t->ein), free(t->cut), free(t->off);
    free(t->pup), free(t->rst_dis), free(t->ctrl), free(t->eout), free(t->lnk), free(t->lnew);
    free(t->want), free(t->moved1), free(t->inedge), free(t->list), free(t->next), free(t->self);
    free(t);
}

static void tr_set_reset(void *self, bool a)
{
    torusdev_t *t = self;
    if (a && !t->in_reset) {
        /* a device reset powers every node and restores the default configuration */
        memset(t->off, 0, t->n);
        t->eout_stale = true;
        memset(t->pup, 0, t->n);
        memcpy(t->ctrl, t->td->ctrl_dflt, (size_t)t->n * NCTRL * sizeof *t->ctrl);
        t->rot = 0;
        for (unsigned i = 0; i < t->n; i++)
            relink(t, i);
    }
    t->in_reset = a;
    for (unsigned i = 0; i < t->n; i++)
        node_reset(t, i, a);
}

static void tr_set_inputs(void *self, const uint64_t *in)
{
    torusdev_t *t = self;
    for (unsigned i = 0; i < t->n; i++) {
        uint64_t h = in[tport(i, SCI_TP_HIN)], r = in[tport(i, SCI_TP_HOUT_READY)];
        if (h != t->ein[tport(i, SCI_TP_HIN)] || r != t->ein[tport(i, SCI_TP_HOUT_READY)]) {
            t->ein[tport(i, SCI_TP_HIN)] = h;
            t->ein[tport(i, SCI_TP_HOUT_READY)] = r;
            wake(t, i);
        }
    }
}

/* The outputs: each node's as its last edge left them (step_node), unless a control or a
 * reset changed a node's power or cables since. */
static void tr_get_outputs(void *self, uint64_t *out)
{
    torusdev_t *t = self;
    if (t->eout_stale) {
        for (unsigned i = 0; i < t->n; i++)
            node_eout(t, i, nout(t, i));
        t->eout_stale = false;
    }
    const size_t first = SCI_TP_HIN_READY, nk = SCI_TORUS_NK - SCI_TP_HIN_READY;
    for (unsigned i = 0; i < t->n; i++)
        memcpy(&out[tport(i, first)], &t->eout[tport(i, first)], nk * sizeof *out);
}

static int ctrl_index(uint32_t a)
{
    for (unsigned c = 0; c < NCTRL; c++)
        if (a == ctrl_addr[c])
            return (int)c;
    return -1;
}

static void tr_reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    torusdev_t *t = self;
    unsigned i = addr >> 8;
    uint32_t a = addr & 0xFFu;
    if (i >= t->n)
        return;
    if (t->in_reset) {
        /* configuration: merged into the device's copy, performed by the node addressed */
        int c = ctrl_index(a);
        if (c >= 0) {
            uint64_t *v = &t->ctrl[(size_t)i * NCTRL + (unsigned)c];
            *v = (*v & ~mask) | (data & mask);
            node_write(t, i, a, *v, ~0ull);
        } else {
            node_write(t, i, a, data, mask);
        }
        t->wrote = (int)i;
        return;
    }
    if (t->off[i] || t->pup[i])
        return; /* a node powered down or powering up takes no write */
    node_write(t, i, a, data, mask);
}

static uint64_t tr_reg_read(void *self, uint32_t addr)
{
    torusdev_t *t = self;
    unsigned i = addr >> 8;
    return i < t->n ? dev_reg_read(t->node[i], addr & 0xFFu) : 0;
}

static void tr_debug(void *self, uint64_t *w)
{
    torusdev_t *t = self;
    unsigned k = t->td->node->ndebug;
    for (unsigned i = 0; i < t->n; i++)
        dev_debug(t->node[i], &w[(size_t)i * k]);
}

/* ---- the clock edge ---------------------------------------------------------------------
 * A node's edge depends only on its own state and inputs, and its inputs only on what its
 * neighbours output before the edge (every link is a register stage) and on the torus's
 * inputs. So the nodes step on the threads of a pool (sci_torus_set_pool) in any order: a node
 * reads its upstream neighbours' link words from lnk, and puts its own new ones into lnew;
 * after the edge, commit copies the ones that changed into lnk. What the nodes report beyond
 * themselves is two flags (an edge that changed state, an internal error), the same whichever
 * thread set them.
 *
 * Only the nodes with work take the edge (want): a node model that has skip (the C model)
 * says, by returning max, that its edge left its state exactly as it was, so that another edge
 * with the same inputs changes nothing (dev.h, dev_ops_t.skip). Such a node is left out of the
 * next edges until one of its inputs changes (an upstream link word in commit, a host port in
 * tr_set_inputs), the torus writes a register into it or resets it (node_write, node_reset:
 * reset, power, configuration), an upset flips its state, or a control changes its cables or
 * power (relink). Its edge would be a no-op: state, outputs and internal error unchanged; and
 * its outputs (nout, eout, lnk) are the ones it last made. A model without skip (the RTL)
 * takes every edge. */

/* The register writes the device makes into node i before this edge: during reset one
 * configuration register in rotation (except into the node a device write addressed), while
 * powering up the node's configuration. */
static void pre_edge(torusdev_t *t, unsigned i)
{
    if (t->in_reset) {
        if ((int)i != t->wrote)
            node_write_plain(t, i, ctrl_addr[t->step_ctrl],
                             t->ctrl[(size_t)i * NCTRL + t->step_ctrl], ~0ull);
    } else if (t->pup[i] && t->pup[i] < POWER_UP_CYCLES) {
        unsigned c = POWER_UP_CYCLES - 1u - t->pup[i];
        uint64_t v = t->ctrl[(size_t)i * NCTRL + c];
        if (t->rst_dis[i] && c < 2) /* the two LCs' CTRL: enable 0 */
            v &= ~(1ull << SCI_CTRL_ENABLE_BIT);
        node_write_plain(t, i, ctrl_addr[c], v, ~0ull);
    }
}

/* After the edge: a node powering up leaves reset once its configuration is written. */
static void post_edge(torusdev_t *t, unsigned i)
{
    if (!t->in_reset && t->pup[i] && --t->pup[i] == 0) {
        node_reset_plain(t, i, false);
        t->moved1[i] = 1; /* out of reset: the next edge is another */
    }
}

/* step_node for the C model (t->packed: not every node every edge), its inputs packed straight
 * from the link words and host ports (sci_node_csim_step_packed). A C node never flags an
 * internal error (dev_csim_internal_error); its outputs in nout are current unless it moved. */
static void step_node_packed(torusdev_t *t, unsigned i)
{
    unsigned left = i % t->w ? i - 1 : i + t->w - 1;
    unsigned above = i >= t->w ? i - t->w : i + t->n - t->w;
    uint64_t lx = t->lnk[left * 2], ly = t->lnk[above * 2 + 1], *o = nout(t, i);
    uint64_t in = sci_node_pack_in(lx, lx >> 32, ly, ly >> 32, t->ein[tport(i, SCI_TP_HIN)],
                                   t->ein[tport(i, SCI_TP_HOUT_READY)]);
    if (!t->step_skip)
        pre_edge(t, i);
    t->moved1[i] = sci_node_csim_step_packed(t->self[i], in, o);
    if (!t->step_skip)
        post_edge(t, i);
    else if (t->moved1[i])
        atomic_store_explicit(&t->moved, true, memory_order_relaxed);
    if (!t->moved1[i])
        return; /* its state as it was: so are its outputs (registers, rtl/sci_node.md) */
    node_eout(t, i, o);
    t->lnew[i * 2] = link_word(t, i, 0, o);
    t->lnew[i * 2 + 1] = link_word(t, i, 1, o);
}

static void step_node(torusdev_t *t, unsigned i)
{
    const dev_ops_t *ops = t->nops;
    void *m = t->self[i];
    compose_node(t, i);
    ops->set_inputs(m, nin(t, i));
    if (t->step_skip) {
        bool moved = ops->skip(m, t->step_cycle, t->step_max) != t->step_max;
        t->moved1[i] = moved;
        if (moved)
            atomic_store_explicit(&t->moved, true, memory_order_relaxed);
    } else {
        pre_edge(t, i);
        if (t->all)
            ops->tick(m, t->step_cycle);
        else /* as tick, and says whether the edge changed the node's state */
            t->moved1[i] = ops->skip(m, t->step_cycle, 2) != 2;
        post_edge(t, i);
    }
    int e = ops->internal_error(m);
    if (e)
        atomic_fetch_or_explicit(&t->ierr, e == 1 ? 1 : 2, memory_order_relaxed);
    if (!t->all && !t->moved1[i])
        return; /* its state as it was: so are its outputs (registers, rtl/sci_node.md) */
    uint64_t *o = nout(t, i);
    ops->get_outputs(m, o);
    node_eout(t, i, o);
    t->lnew[i * 2] = link_word(t, i, 0, o);
    t->lnew[i * 2 + 1] = link_word(t, i, 1, o);
}

/* How far ahead step_nodes fetches a node model's first bytes (where a model keeps its
 * state: the C node's inputs, PSB and LC registers; its tables come after), and how many. A
 * 32 x 32 torus's models are some 70 MB: a node's edge would otherwise start with misses. */
#define PREFETCH_AHEAD 2u
#define PREFETCH_BYTES 256u

/* The edge with a waveform (RTL) of nodes a .. b - 1, whose models trace into `trace`: their
 * edges in three phases around its dumps, so that it sees them together (sci_fabric_tick);
 * otherwise as step_node. */
static void step_traced(torusdev_t *t, unsigned a, unsigned b, void *trace)
{
    for (unsigned i = a; i < b; i++) {
        compose_node(t, i);
        dev_set_inputs(t->node[i], nin(t, i));
        pre_edge(t, i);
    }
    sci_fabric_tick(t->node + a, b - a, trace, t->step_cycle);
    for (unsigned i = a; i < b; i++) {
        post_edge(t, i);
        uint64_t *o = nout(t, i);
        dev_get_outputs(t->node[i], o);
        node_eout(t, i, o);
        t->lnew[i * 2] = link_word(t, i, 0, o);
        t->lnew[i * 2 + 1] = link_word(t, i, 1, o);
    }
    int e = sci_fabric_internal_error(t->node + a, b - a);
    if (e)
        atomic_fetch_or_explicit(&t->ierr, e == 1 ? 1 : 2, memory_order_relaxed);
}

/* The RTL in parts: part p's nodes, in its own context, on one thread at a time; with a
 * waveform, into its part of it (ftsim_vl_trace_part). */
static void step_parts(void *ctx, unsigned lo, unsigned hi)
{
    torusdev_t *t = ctx;
    for (unsigned p = lo; p < hi; p++) {
        unsigned a = t->part_lo[p], b = t->part_lo[p + 1];
        if (t->trace)
            step_traced(t, a, b, sci_fabric_part_trace(t->trace, p, t->trace_own));
        else
            for (unsigned i = a; i < b; i++)
                step_node(t, i);
    }
}

/* On threads, the edge's nodes by index: each thread starts on its own share of the torus,
 * the same every edge and the same as the hosts' loop (sci_sys_threads.c), so a node's state
 * stays in one core's cache. */
static void step_index(void *ctx, unsigned lo, unsigned hi)
{
    torusdev_t *t = ctx;
    for (unsigned i = lo; i < hi; i++)
        if (t->inedge[i])
            (t->packed ? step_node_packed : step_node)(t, i);
}

static void step_nodes(void *ctx, unsigned lo, unsigned hi)
{
    torusdev_t *t = ctx;
    for (unsigned k = lo; k < hi; k++) {
        if (PREFETCH_AHEAD && k + PREFETCH_AHEAD < hi) {
            const char *p = t->self[t->list[k + PREFETCH_AHEAD]];
            for (unsigned o = 0; o < PREFETCH_BYTES; o += 64)
                __builtin_prefetch(p + o, 1);
        }
        (t->packed ? step_node_packed : step_node)(t, t->list[k]);
    }
}

/* The nodes that take this edge: all of them in reset or without skip; else those woken
 * (commit keeps a node powering up awake). Their wants are taken. */
static void gather(torusdev_t *t)
{
    for (unsigned k = 0; k < t->nnext; k++)
        t->want[t->next[k]] = 0;
    if (t->all || t->in_reset) {
        for (unsigned i = 0; i < t->n; i++)
            t->list[i] = i;
        t->nlist = t->n;
    } else {
        unsigned *l = t->list;
        t->list = t->next;
        t->next = l;
        t->nlist = t->nnext;
    }
    t->nnext = 0;
    for (unsigned k = 0; t->pool && k < t->nlist; k++)
        t->inedge[t->list[k]] = 1;
}

/* After the edge: the link words that changed, and who takes the next edge: a node whose
 * model did not say its edge changed nothing (or without skip), a node powering up, and the
 * downstream neighbours of a link that changed. */
static void commit(torusdev_t *t)
{
    for (unsigned k = 0; k < t->nlist; k++) {
        unsigned i = t->list[k];
        t->inedge[i] = 0;
        if (t->all || t->moved1[i]) {
            for (unsigned d = 0; d < 2; d++)
                if (t->lnew[i * 2 + d] != t->lnk[i * 2 + d]) {
                    t->lnk[i * 2 + d] = t->lnew[i * 2 + d];
                    wake(t, downstream(t, i, d));
                }
            wake(t, i);
        } else if (t->pup[i])
            wake(t, i);
    }
}

/* One edge of every node with work (step_node), on the pool's threads when the torus has
 * one. Returns true when, skipping, some node's edge changed its state. */
static bool step(torusdev_t *t)
{
    atomic_store_explicit(&t->moved, false, memory_order_relaxed);
    gather(t);
    t->edges++;
    t->stepped += t->nlist;
    if (t->nparts > 1) { /* every node (all): the parts' nodes, a part on one thread */
        tpool_for(t->pool, t->nparts, step_parts, t);
        if (t->trace && !t->trace_own) /* the sharer's models (the observer), at the same times */
            sci_fabric_tick(t->node, 0, t->trace, t->step_cycle);
    } else if (t->trace) /* on the calling thread: the one waveform of every node */
        step_traced(t, 0, t->n, t->trace);
    else if (t->pool && tpool_threads(t->pool) > 1)
        tpool_for(t->pool, t->n, step_index, t);
    else
        tpool_for(t->pool, t->nlist, step_nodes, t);
    commit(t);
    t->wrote = -1;
    return atomic_load_explicit(&t->moved, memory_order_relaxed);
}

static void tr_tick(void *self, uint64_t cycle)
{
    torusdev_t *t = self;
    if (t->in_reset)
        t->step_ctrl = t->rot++ % NCTRL;
    t->step_skip = false;
    t->step_cycle = cycle;
    step(t);
}

/* One edge for every node; max when every node model says the edge changed nothing (C
 * models only; an RTL node has no skip and is ticked as usual). A node left out of the edge
 * (see above) is one that would say so. */
static uint64_t tr_skip(void *self, uint64_t cycle, uint64_t max)
{
    torusdev_t *t = self;
    bool quiet = !t->in_reset && !t->trace && !t->noskip;
    for (unsigned i = 0; quiet && i < t->n; i++)
        quiet = !t->pup[i];
    if (!quiet) {
        tr_tick(self, cycle);
        return 1;
    }
    t->step_skip = true;
    t->step_cycle = cycle;
    t->step_max = max;
    return step(t) ? 1 : max;
}

int sci_torus_set_pool(device_t *d, tpool_t *pool, char *err, size_t errlen)
{
    if (!sci_torus_dims(d->design, NULL, NULL)) {
        snprintf(err, errlen, "threads step a torus's nodes; %s is not a torus", d->design->name);
        return -1;
    }
    torusdev_t *t = d->self;
    /* the RTL on threads only in parts, each in its own context (sci_torus_set_rtl_parts) */
    t->pool = d->impl == DEV_IMPL_CSIM || t->nparts > 1 ? pool : NULL;
    return 0;
}

void sci_torus_set_rtl_parts(const dev_design_t *d, unsigned parts)
{
    if (!d || !is_torus(d))
        return;
    torusdesign_t *td = (torusdesign_t *)as_torus(d); /* built for the caller (dev.h) */
    td->rtl_parts = parts;
}

/* An upset of node s->part's element: its device's, then its outputs anew. */
static int tr_upset(void *self, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    torusdev_t *t = self;
    dev_upset_bit_t x = *s;
    x.part = 0;
    if (s->part >= t->n || dev_upset(t->node[s->part], &x, err, errlen) < 0)
        return -1;
    dev_get_outputs(t->node[s->part], nout(t, s->part));
    node_eout(t, s->part, nout(t, s->part));
    relink(t, s->part);
    return 0;
}

static int torus_upset_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                            unsigned max)
{
    torusdev_t *t = m->self;
    device_t *nd = part < t->n ? t->node[part] : NULL;
    if (!nd || !nd->design->upset_live)
        return -1;
    return nd->design->upset_live(nd, 0, entry, bit, idx, max);
}

static int tr_internal_error(void *self)
{
    torusdev_t *t = self;
    int e = atomic_load_explicit(&t->ierr, memory_order_relaxed);
    return (e & 1) ? 1 : (e & 2) ? 2 : 0;
}

int sci_torus_trace_share(device_t *d, void *tr, char *err, size_t errlen)
{
    torusdev_t *t = d->self;
    if (!sci_torus_dims(d->design, &(unsigned){0}, &(unsigned){0}) || d->impl != DEV_IMPL_RTL) {
        snprintf(err, errlen, "a shared waveform needs the RTL of a torus");
        return -1;
    }
    if (t->trace) {
        snprintf(err, errlen, "the torus already writes a waveform");
        return -1;
    }
    sci_fabric_trace_attach(t->node, t->n, t->part_lo, t->nparts, false, tr);
    t->trace = tr;
    return 0;
}

static int tr_trace_open(void *self, const char *path, char *err, size_t errlen)
{
    torusdev_t *t = self;
    t->trace_own = true;
    return sci_fabric_trace_open(t->node, t->n, t->part_lo, t->nparts, t->impl, &t->trace, path,
                                 err, errlen);
}

static void tr_trace_close(void *self, uint64_t cycle)
{
    torusdev_t *t = self;
    sci_fabric_trace_close(t->node, t->n, t->part_lo, t->nparts, t->trace_own, &t->trace, cycle);
}

static void tr_trace_window(void *self, uint64_t from, uint64_t to)
{
    if (((torusdev_t *)self)->trace)
        ftsim_vl_trace_window(((torusdev_t *)self)->trace, from, to);
}

static int tr_control(void *self, const char *cmd, char *err, size_t errlen)
{
    torusdev_t *t = self;
    int op;
    unsigned dim, i;
    if (parse_ctl(t->td, cmd, &op, &dim, &i, err, errlen) < 0)
        return -1;
    t->eout_stale = true;
    switch (op) {
    case SCI_CTL_CUT:
    case SCI_CTL_RESTORE: t->cut[i * 2 + dim] = op == SCI_CTL_CUT; break;
    case SCI_CTL_OFF:
        if (!t->off[i]) {
            t->off[i] = 1;
            t->pup[i] = 0;
            node_reset(t, i, true);
        }
        break;
    case SCI_CTL_ON:
        if (t->off[i]) {
            t->off[i] = 0;
            t->pup[i] = POWER_UP_CYCLES;
            t->rst_dis[i] = 0;
            node_reset(t, i, true);
        }
        break;
    case SCI_CTL_RESET:
        if (!t->off[i]) {
            t->pup[i] = POWER_UP_CYCLES;
            t->rst_dis[i] = 1;
            node_reset(t, i, true);
        }
        break;
    }
    relink(t, i);
    return 0;
}

static const dev_ops_t torus_ops = {
    .destroy = tr_destroy,
    .set_reset = tr_set_reset,
    .set_inputs = tr_set_inputs,
    .get_outputs = tr_get_outputs,
    .reg_write = tr_reg_write,
    .reg_read = tr_reg_read,
    .debug = tr_debug,
    .tick = tr_tick,
    .trace_open = tr_trace_open,
    .trace_close = tr_trace_close,
    .internal_error = tr_internal_error,
    .control = tr_control,
    .skip = tr_skip,
    .trace_window = tr_trace_window,
    .upset = tr_upset,
};

/* One write into node i during a reset cycle at creation (tables survive reset). */
static void boot_write(torusdev_t *t, unsigned i, uint32_t a, uint64_t data, uint64_t mask)
{
    device_t *m = t->node[i];
    m->ops->reg_write(m->self, a, data, mask);
    m->ops->tick(m->self, UINT64_MAX);
}

/* The TADDR registers a table load ends with: per block (X-LC, Y-LC, PSB) the last index it
 * wrote, UINT64_MAX for none. */
enum { BLK_X, BLK_Y, BLK_PSB, NBLK };
static const uint32_t blk_taddr[NBLK] = {SCI_REG_TADDR, SCI_NODE_LC_STRIDE + SCI_REG_TADDR,
                                         SCI_PSB_TADDR};

/* Table entry `reg` = v at index idx of node i: a configuration cycle writing TADDR (unless
 * the last one did), then one writing the entry. A C model takes the entry directly (a 32 x 32
 * torus's tables are some ten million such cycles); boot_tables then writes its TADDR
 * registers the last index each block had, so the node ends as the cycles would leave it. */
static void boot_entry(torusdev_t *t, unsigned i, unsigned blk, uint64_t *last, uint64_t idx,
                       uint32_t reg, uint64_t v, uint64_t mask)
{
    if (t->impl == DEV_IMPL_CSIM &&
        sci_node_csim_table_load(t->node[i], reg, (uint32_t)idx, v) == 0) {
        last[blk] = idx;
        return;
    }
    if (last[blk] != idx) {
        boot_write(t, i, blk_taddr[blk], idx, 0x3FFF);
        last[blk] = idx;
    }
    boot_write(t, i, reg, v, mask);
}

/* Node i's fault-free tables from tb (see the top of this file): only the entries that differ
 * from the reset value 0. */
static void boot_tables(torusdev_t *t, unsigned i, const sci_tables_t *tb)
{
    const torusdesign_t *td = t->td;
    const uint32_t lc[2] = {0, SCI_NODE_LC_STRIDE};
    uint64_t last[NBLK] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
    for (unsigned s = 0; s < tb->nsets; s++)
        for (unsigned d = 0; d < t->n; d++) {
            const sci_entry_t *e = sci_route_entry(tb, i, s, d);
            uint64_t idx = sci_route_index(&td->t, s, d);
            uint8_t take[2] = {e->xtake, e->ytake}, port[2] = {e->xport, e->yport};
            for (unsigned k = 0; k < 2; k++) {
                if (take[k])
                    boot_entry(t, i, k, last, idx, lc[k] + SCI_REG_LRT, 1, 1);
                if (port[k])
                    boot_entry(t, i, k, last, idx, lc[k] + SCI_REG_BRT, port[k], 7);
            }
            if (e->pport)
                boot_entry(t, i, BLK_PSB, last, idx, SCI_PSB_BRT, e->pport, 7);
        }
    if (td->p2s)
        for (unsigned d = 0; d < t->n; d++)
            if (tb->asel[(size_t)i * t->n + d])
                boot_entry(t, i, BLK_PSB, last, td->ids[d], SCI_PSB_ASEL, 1, 1);
    if (t->impl == DEV_IMPL_CSIM) /* the entries went in directly: the TADDRs they leave */
        for (unsigned k = 0; k < NBLK; k++)
            if (last[k] != UINT64_MAX)
                boot_write(t, i, blk_taddr[k], last[k], 0x3FFF);
}

/* The fault-free tables of sci_route_tables() (see the top of this file), then the default
 * configuration. */
static int boot(torusdev_t *t, char *err, size_t errlen)
{
    const torusdesign_t *td = t->td;
    sci_tables_t tb;
    if (sci_route_tables(&td->t, NULL, &tb, err, errlen) < 0)
        return -1;
    for (unsigned i = 0; i < t->n; i++) {
        device_t *m = t->node[i];
        m->ops->set_reset(m->self, true);
        m->ops->set_inputs(m->self, nin(t, i));
        m->ops->tick(m->self, UINT64_MAX); /* a plain reset edge: CTRL and TADDR to reset values */
        boot_tables(t, i, &tb);
        for (unsigned c = 0; c < NCTRL; c++)
            boot_write(t, i, ctrl_addr[c], t->ctrl[(size_t)i * NCTRL + c], ~0ull);
    }
    sci_route_free(&tb);
    return 0;
}

static void *torus_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                          const dev_ops_t **ops, char *err, size_t errlen)
{
    (void)inst;
    const torusdesign_t *td = as_torus(d);
    torusdev_t *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->td = td;
    t->n = td->n;
    t->w = td->w;
    t->h = td->h;
    t->np = td->node->nports;
    t->impl = impl;
    t->wrote = -1;
    t->node = calloc(t->n, sizeof *t->node);
    t->nin = calloc((size_t)t->n * t->np, sizeof *t->nin);
    t->nout = calloc((size_t)t->n * t->np, sizeof *t->nout);
    t->lnk = calloc((size_t)t->n * 2, sizeof *t->lnk);
    t->lnew = calloc((size_t)t->n * 2, sizeof *t->lnew);
    t->want = calloc(t->n, 1);
    t->moved1 = calloc(t->n, 1);
    t->inedge = calloc(t->n, 1);
    t->list = calloc(t->n + 1u, sizeof *t->list);
    t->next = calloc(t->n + 1u, sizeof *t->next);
    t->self = calloc(t->n, sizeof *t->self);
    t->eout = calloc(td->d.nports, sizeof *t->eout);
    t->ein = calloc(td->d.nports, sizeof *t->ein);
    t->cut = calloc((size_t)t->n * 2, 1);
    t->off = calloc(t->n, 1);
    t->pup = calloc(t->n, 1);
    t->rst_dis = calloc(t->n, 1);
    t->ctrl = calloc((size_t)t->n * NCTRL, sizeof *t->ctrl);
    if (!t->node || !t->nin || !t->nout || !t->lnk || !t->lnew || !t->want || !t->moved1 || !t->inedge ||
        !t->list || !t->next || !t->self || !t->eout || !t->ein || !t->cut || !t->off || !t->pup ||
        !t->rst_dis || !t->ctrl) {
        tr_destroy(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(t->ctrl, td->ctrl_dflt, (size_t)t->n * NCTRL * sizeof *t->ctrl);
    /* The RTL in parts: whole rows, each part's models in a Verilator context of its own */
    unsigned parts = impl == DEV_IMPL_RTL ? td->rtl_parts : 0;
    if (parts > t->h)
        parts = t->h;
    if (parts > TPOOL_MAX)
        parts = TPOOL_MAX;
    if (parts > 1) {
        for (unsigned p = 0; p <= parts; p++)
            t->part_lo[p] = (unsigned)((uint64_t)t->h * p / parts) * t->w;
        for (unsigned p = 0; p < parts; p++)
            if (!(t->ctx[p] = ftsim_vl_ctx_new())) {
                tr_destroy(t);
                snprintf(err, errlen, "out of memory");
                return NULL;
            }
        t->nparts = parts;
    }
    for (unsigned i = 0, p = 0; i < t->n; i++) {
        char name[24];
        snprintf(name, sizeof name, "n%u_%u", i % t->w, i / t->w);
        while (t->nparts && i >= t->part_lo[p + 1])
            p++;
        if (t->nparts)
            ftsim_vl_make_in(t->ctx[p]);
        t->node[i] = dev_open_named(td->node, impl, name, err, errlen);
        ftsim_vl_make_in(NULL);
        if (!t->node[i]) {
            tr_destroy(t);
            return NULL;
        }
    }
    for (unsigned i = 0; i < t->n; i++)
        t->self[i] = t->node[i]->self;
    t->nops = t->node[0]->ops;
    /* FTSIM_TORUS_STEP_ALL: every node takes every edge, as a reference for the stepping of
     * only the nodes with work (tests/torus_stepping.py) */
    t->noskip = !t->nops->skip;
    t->all = t->noskip || getenv("FTSIM_TORUS_STEP_ALL"); /* a model without skip (RTL) takes every edge */
    /* every node stepped (the reference) goes through the device interface, as before */
    t->packed = impl == DEV_IMPL_CSIM && !t->all;
    if (boot(t, err, errlen) < 0) {
        tr_destroy(t);
        return NULL;
    }
    t->in_reset = true; /* the nodes are held in reset until the device's reset ends */
    refresh(t);
    *ops = &torus_ops;
    return t;
}
