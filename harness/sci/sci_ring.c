/*
 * sci_ring.c — a ring of N SCI nodes, composed in the harness from N node models (the RTL or
 * the C model of rtl/sci_node.md, one link controller each): node i's link output feeds node
 * i+1's link input (mod N), one register stage per hop as the wires are direct.
 *
 * What the device adds to its nodes:
 * - ports per node i: the host side of its PSB (`n<i>.hin`, `.hout.ready` in; `.hin.ready`,
 *   `.hout`, `.irq` out; hin and hout words are {last, valid, sym}) and, to observe the ring, the link word
 *   node i sends and its signal detect as node i+1 receives them (`l<i>`, `l<i>.sd`);
 * - registers: node i's register a at (i << 8) | a, named `n<i>.NAME` after the node's names;
 *   the configuration keys default to node id i (LC and PSB) and node 0 as the ring's scrubber;
 * - the ring's routing tables, loaded when the device is created (tables are RAMs, kept over
 *   reset): every LC takes its own id and sends it to its host (LRT, BRT); every PSB sends its
 *   own id to its host, the other ring ids to its LC and discards the rest (BRT 7); on P2S the
 *   same in both table sets (address select 0);
 * - configuration during reset: each reset cycle with a register write is a configuration cycle
 *   of every node (the others see a write with no byte enables), so the nodes keep what earlier
 *   reset cycles wrote;
 * - controls: `@N cut I` pulls the cable out of node I (node I+1 sees signal detect 0 and
 *   nothing on the link from cycle N on), `@N restore I` puts it back.
 *
 * A ring's design is built on request and belongs to the caller (dev.h); its nodes' design is
 * a fixed one.
 */
#include "sci_ring.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sci_dev.h"
#include "sci_fabric.h"
#include "sci_node.h"
#include "sci_word.h"
#include "vl_trace.h"

typedef struct ringdesign {
    dev_design_t d;
    int p2s;
    unsigned n;
    const dev_design_t *node; /* a fixed design (sci_node_design): nothing to release */
    char name[16], summary[96];
    dev_port_t ports[SCI_RING_MAX * SCI_RING_NK];
    dev_reg_t *regs;
    uint32_t debug_addrs[SCI_RING_MAX * 5];
    char (*names)[32];
} ringdesign_t;

static const ringdesign_t *as_ring(const dev_design_t *d)
{
    return DEV_DESIGN_OF(d, ringdesign_t, d);
}

static void ring_part_prefix(const dev_design_t *d, unsigned k, char *buf, size_t len)
{
    (void)d;
    snprintf(buf, len, "n%u.", k);
}

static int ring_upset_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                           unsigned max);

static const char *const ring_controls[] = {"cut", "restore", NULL};

static int parse_ctl(const ringdesign_t *rd, const char *text, int *cut, unsigned *node, char *err,
                     size_t errlen)
{
    char word[16];
    unsigned k;
    char extra;
    if (sscanf(text, "%15s %u %c", word, &k, &extra) != 2) {
        snprintf(err, errlen, "'%s': want 'cut I' or 'restore I' (I: the node whose output link)",
                 text);
        return -1;
    }
    if (strcasecmp(word, "cut") && strcasecmp(word, "restore")) {
        snprintf(err, errlen, "unknown control '%s' (want cut or restore)", word);
        return -1;
    }
    if (k >= rd->n) {
        snprintf(err, errlen, "'%s': node %u does not exist (%s has nodes 0..%u)", text, k,
                 rd->name, rd->n - 1);
        return -1;
    }
    *cut = strcasecmp(word, "cut") == 0;
    *node = k;
    return 0;
}

static int ring_check_control(const dev_design_t *d, const char *text, char *err, size_t errlen)
{
    int cut;
    unsigned k;
    return parse_ctl(as_ring(d), text, &cut, &k, err, errlen);
}

static void *ring_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                         const dev_ops_t **ops, char *err, size_t errlen);

static void ring_release(const dev_design_t *d)
{
    ringdesign_t *rd = (ringdesign_t *)as_ring(d);
    free(rd->regs), free(rd->names), free(rd);
}

static const char *const host_names[SCI_RP_LINK] = {"hin", "hout.ready", "hin.ready", "hout",
                                                    "irq"};

const dev_design_t *sci_ring_design(int p2s, unsigned n)
{
    p2s = p2s ? 1 : 0;
    if (n < 2 || n > SCI_RING_MAX)
        return NULL;
    ringdesign_t *rd = calloc(1, sizeof *rd);
    if (!rd)
        return NULL;
    rd->p2s = p2s;
    rd->n = n;
    rd->node = sci_node_design(p2s, 1);
    const dev_design_t *nd = rd->node;
    rd->regs = calloc((size_t)n * nd->nregs, sizeof *rd->regs);
    rd->names = calloc((size_t)n * (SCI_RING_NK + nd->nregs), sizeof *rd->names);
    if (!rd->regs || !rd->names) {
        free(rd->regs), free(rd->names), free(rd);
        return NULL;
    }
    unsigned nn = 0;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = 0; k < SCI_RING_NK; k++) {
            dev_port_t *p = &rd->ports[sci_ring_port(i, k)];
            if (k < SCI_RP_LINK)
                snprintf(rd->names[nn], sizeof rd->names[nn], "n%u.%s", i, host_names[k]);
            else
                snprintf(rd->names[nn], sizeof rd->names[nn], "l%u%s", i,
                         k == SCI_RP_LINK ? "" : ".sd");
            p->name = rd->names[nn++];
            p->dir = k < SCI_RP_HIN_READY ? DEV_IN : DEV_OUT;
            p->width = (k == SCI_RP_HIN || k == SCI_RP_HOUT) ? 18 : k == SCI_RP_LINK ? 17 : 1;
            p->kind = k == SCI_RP_LINK ? SCI_KIND_LINK
                      : p->width == 18 ? SCI_KIND_BLINK
                                       : SCI_KIND_BIT;
            p->idle = k == SCI_RP_HIN_READY || k == SCI_RP_LINK_SD;
        }
        for (unsigned r = 0; r < nd->nregs; r++) {
            dev_reg_t x = nd->regs[r];
            snprintf(rd->names[nn], sizeof rd->names[nn], "n%u.%s", i, x.name);
            x.name = rd->names[nn++];
            x.addr = sci_ring_addr(i, x.addr);
            if (!strcmp(nd->regs[r].name, "node") || !strcmp(nd->regs[r].name, "psb.node"))
                x.dflt = sci_ring_node_id(i);
            if (!strcmp(nd->regs[r].name, "scrubber"))
                x.dflt = i == 0;
            rd->regs[i * nd->nregs + r] = x;
        }
        for (unsigned k = 0; k < nd->ndebug; k++)
            rd->debug_addrs[i * nd->ndebug + k] = sci_ring_addr(i, nd->debug_addrs[k]);
    }
    snprintf(rd->name, sizeof rd->name, "%sring%u", p2s ? "p2s" : "", n);
    snprintf(rd->summary, sizeof rd->summary,
             "%u %s nodes on one SCI ring (harness/sci/sci_ring.c)", n, p2s ? "P2S" : "LC3");
    rd->d.name = rd->name;
    rd->d.summary = rd->summary;
    rd->d.ports = rd->ports;
    rd->d.nports = n * SCI_RING_NK;
    rd->d.regs = rd->regs;
    rd->d.nregs = n * nd->nregs;
    rd->d.debug_addrs = rd->debug_addrs;
    rd->d.ndebug = n * nd->ndebug;
    rd->d.parse_word = sci_parse_word;
    rd->d.format_word = sci_format_word;
    rd->d.parse_seq = sci_parse_seq;
    rd->d.control_words = ring_controls;
    rd->d.check_control = ring_check_control;
    rd->d.create = ring_create;
    rd->d.release = ring_release;
    rd->d.part_design = rd->node; /* upsets: node i's, as its registers, `n<i>.NAME` */
    rd->d.nparts = n;
    rd->d.part_prefix = ring_part_prefix;
    rd->d.upset_live = ring_upset_live;
    return &rd->d;
}

const dev_design_t *sci_ring_find_design(const char *name)
{
    int p2s = 0;
    if (!strncasecmp(name, "p2s", 3)) {
        p2s = 1;
        name += 3;
    }
    if (strncasecmp(name, "ring", 4))
        return NULL;
    char *end;
    unsigned long n = strtoul(name + 4, &end, 10);
    if (end == name + 4 || *end)
        return NULL;
    return sci_ring_design(p2s, (unsigned)n);
}

static int is_ring(const dev_design_t *d) { return d->create == ring_create; }

int sci_ring_p2s(const dev_design_t *d) { return is_ring(d) && as_ring(d)->p2s; }

/* ---- the composite device ------------------------------------------------------------- */

typedef struct ringdev {
    const ringdesign_t *rd;
    unsigned n, np; /* nodes, ports per node model */
    device_t *node[SCI_RING_MAX];
    uint64_t *nin, *nout; /* per node model: its ports */
    uint64_t *ein;        /* the ring's own inputs */
    uint8_t cut[SCI_RING_MAX];
    bool in_reset;
    dev_impl_t impl;
    void *trace;
} ringdev_t;

static uint64_t *nin(ringdev_t *r, unsigned i) { return &r->nin[i * r->np]; }
static uint64_t *nout(ringdev_t *r, unsigned i) { return &r->nout[i * r->np]; }

/* The word and signal detect node i's output link delivers (to node i+1). */
static void link_of(ringdev_t *r, unsigned i, uint64_t *w, uint64_t *sd)
{
    if (r->cut[i]) {
        *w = 0;
        *sd = 0;
        return;
    }
    *w = nout(r, i)[sci_node_port(1, SCI_NP_LOUT, 0)];
    *sd = nout(r, i)[sci_node_port(1, SCI_NP_LOUT_SD, 0)];
}

static void compose(ringdev_t *r)
{
    for (unsigned i = 0; i < r->n; i++) {
        unsigned up = (i + r->n - 1) % r->n;
        uint64_t *in = nin(r, i), w, sd;
        link_of(r, up, &w, &sd);
        in[sci_node_port(1, SCI_NP_LIN, 0)] = w;
        in[sci_node_port(1, SCI_NP_LIN_SD, 0)] = sd;
        in[sci_node_port(1, SCI_NP_HIN, 0)] = r->ein[sci_ring_port(i, SCI_RP_HIN)];
        in[sci_node_port(1, SCI_NP_HOUT_READY, 0)] = r->ein[sci_ring_port(i, SCI_RP_HOUT_READY)];
    }
}

static void refresh(ringdev_t *r)
{
    for (unsigned i = 0; i < r->n; i++)
        dev_get_outputs(r->node[i], nout(r, i));
}

static void rg_destroy(void *self)
{
    ringdev_t *r = self;
    if (r->trace)
        ftsim_vl_trace_close(r->trace);
    for (unsigned i = 0; i < r->n; i++)
        if (r->node[i])
            dev_close(r->node[i]);
    free(r->nin), free(r->nout), free(r->ein);
    free(r);
}

static void rg_set_reset(void *self, bool a)
{
    ringdev_t *r = self;
    r->in_reset = a;
    for (unsigned i = 0; i < r->n; i++)
        r->node[i]->ops->set_reset(r->node[i]->self, a);
}

static void rg_set_inputs(void *self, const uint64_t *in)
{
    ringdev_t *r = self;
    memcpy(r->ein, in, r->rd->d.nports * sizeof *in);
}

static void rg_get_outputs(void *self, uint64_t *out)
{
    ringdev_t *r = self;
    for (unsigned i = 0; i < r->n; i++) {
        const uint64_t *o = nout(r, i);
        out[sci_ring_port(i, SCI_RP_HIN_READY)] = o[sci_node_port(1, SCI_NP_HIN_READY, 0)];
        out[sci_ring_port(i, SCI_RP_HOUT)] = o[sci_node_port(1, SCI_NP_HOUT, 0)];
        out[sci_ring_port(i, SCI_RP_IRQ)] = o[sci_node_port(1, SCI_NP_IRQ, 0)];
        link_of(r, i, &out[sci_ring_port(i, SCI_RP_LINK)], &out[sci_ring_port(i, SCI_RP_LINK_SD)]);
    }
}

static void rg_reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    ringdev_t *r = self;
    unsigned i = addr >> 8;
    if (i < r->n)
        r->node[i]->ops->reg_write(r->node[i]->self, addr & 0xFFu, data, mask);
    /* A configuration cycle during reset is one for every node: the others get a write with no
     * byte enables (to an unmapped address), which keeps their configuration (sci_node.md). */
    for (unsigned j = 0; r->in_reset && j < r->n; j++)
        if (j != i)
            r->node[j]->ops->reg_write(r->node[j]->self, 0x7F, 0, 0);
}

static uint64_t rg_reg_read(void *self, uint32_t addr)
{
    ringdev_t *r = self;
    unsigned i = addr >> 8;
    return i < r->n ? dev_reg_read(r->node[i], addr & 0xFFu) : 0;
}

static void rg_debug(void *self, uint64_t *w)
{
    ringdev_t *r = self;
    unsigned k = r->rd->node->ndebug;
    for (unsigned i = 0; i < r->n; i++)
        dev_debug(r->node[i], &w[i * k]);
}

static void rg_tick(void *self, uint64_t cycle)
{
    ringdev_t *r = self;
    compose(r);
    for (unsigned i = 0; i < r->n; i++)
        dev_set_inputs(r->node[i], nin(r, i));
    sci_fabric_tick(r->node, r->n, r->trace, cycle);
    refresh(r);
}

static int rg_trace_open(void *self, const char *path, char *err, size_t errlen)
{
    ringdev_t *r = self;
    return sci_fabric_trace_open(r->node, r->n, NULL, 0, r->impl, &r->trace, path, err, errlen);
}

static void rg_trace_close(void *self, uint64_t cycle)
{
    ringdev_t *r = self;
    sci_fabric_trace_close(r->node, r->n, NULL, 0, true, &r->trace, cycle);
}

static void rg_trace_window(void *self, uint64_t from, uint64_t to)
{
    ringdev_t *r = self;
    if (r->trace)
        ftsim_vl_trace_window(r->trace, from, to);
}

/* An upset of node s->part's element: its device's, then its outputs anew (the upset register
 * may be one). */
static int rg_upset(void *self, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    ringdev_t *r = self;
    dev_upset_bit_t x = *s;
    x.part = 0;
    if (s->part >= r->n || dev_upset(r->node[s->part], &x, err, errlen) < 0)
        return -1;
    dev_get_outputs(r->node[s->part], nout(r, s->part));
    return 0;
}

static int ring_upset_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                           unsigned max)
{
    ringdev_t *r = m->self;
    device_t *nd = part < r->n ? r->node[part] : NULL;
    if (!nd || !nd->design->upset_live)
        return -1;
    return nd->design->upset_live(nd, 0, entry, bit, idx, max);
}

static int rg_internal_error(void *self)
{
    ringdev_t *r = self;
    return sci_fabric_internal_error(r->node, r->n);
}

static int rg_control(void *self, const char *cmd, char *err, size_t errlen)
{
    ringdev_t *r = self;
    int cut;
    unsigned k;
    if (parse_ctl(r->rd, cmd, &cut, &k, err, errlen) < 0)
        return -1;
    r->cut[k] = (uint8_t)cut;
    return 0;
}

static const dev_ops_t ring_ops = {
    .destroy = rg_destroy,
    .set_reset = rg_set_reset,
    .set_inputs = rg_set_inputs,
    .get_outputs = rg_get_outputs,
    .reg_write = rg_reg_write,
    .reg_read = rg_reg_read,
    .debug = rg_debug,
    .tick = rg_tick,
    .trace_open = rg_trace_open,
    .trace_close = rg_trace_close,
    .internal_error = rg_internal_error,
    .control = rg_control,
    .trace_window = rg_trace_window,
    .upset = rg_upset,
};

/* One table write into node i during a reset cycle (tables survive reset). */
static void boot_write(ringdev_t *r, unsigned i, uint32_t a, uint64_t data, uint64_t mask)
{
    device_t *m = r->node[i];
    m->ops->reg_write(m->self, a, data, mask);
    m->ops->tick(m->self, UINT64_MAX);
}

/* The ring's tables (see the top of this file). */
static void boot(ringdev_t *r)
{
    unsigned sets = r->rd->p2s ? 2 : 1;
    for (unsigned i = 0; i < r->n; i++) {
        device_t *m = r->node[i];
        m->ops->set_reset(m->self, true);
        uint64_t *idle = nin(r, i);
        m->ops->set_inputs(m->self, idle);
        for (unsigned s = 0; s < sets; s++) {
            uint64_t set = s ? 8192u : 0u;
            boot_write(r, i, SCI_REG_TADDR, set | sci_ring_node_id(i), 0x3FFF);
            boot_write(r, i, SCI_REG_LRT, 1, 1);
            boot_write(r, i, SCI_REG_BRT, 0, 7);
            unsigned entries = r->rd->p2s ? 8192u : 256u;
            for (unsigned id = 0; id < entries; id++) {
                unsigned j;
                for (j = 0; j < r->n && sci_ring_node_id(j) != id; j++)
                    ;
                uint64_t port = j == r->n ? 7 : j == i ? 0 : 1;
                if (port == 7 && id >= 256)
                    continue; /* BRT entries past the first 256 ids: left as reset (0) */
                boot_write(r, i, SCI_PSB_TADDR, set | id, 0x3FFF);
                boot_write(r, i, SCI_PSB_BRT, port, 7);
            }
        }
    }
}

static void *ring_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                         const dev_ops_t **ops, char *err, size_t errlen)
{
    (void)inst;
    const ringdesign_t *rd = as_ring(d);
    ringdev_t *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->rd = rd;
    r->n = rd->n;
    r->np = rd->node->nports;
    r->impl = impl;
    r->nin = calloc((size_t)r->n * r->np, sizeof *r->nin);
    r->nout = calloc((size_t)r->n * r->np, sizeof *r->nout);
    r->ein = calloc(rd->d.nports, sizeof *r->ein);
    if (!r->nin || !r->nout || !r->ein) {
        rg_destroy(r);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (unsigned i = 0; i < r->n; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%u", i);
        r->node[i] = dev_open_named(rd->node, impl, name, err, errlen);
        if (!r->node[i]) {
            rg_destroy(r);
            return NULL;
        }
    }
    boot(r);
    refresh(r);
    *ops = &ring_ops;
    return r;
}
