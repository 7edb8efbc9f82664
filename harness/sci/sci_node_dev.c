/*
 * sci_node_dev.c — SCI nodes (rtl/sci_node.md) as ftsim devices: lc3node and p2snode (a PSB,
 * the B-link and one link controller: a node on one ring), lc3node2 and p2snode2 (an X-LC and
 * a Y-LC: a torus node). They are fixed designs (dev.h): constant tables, the LC's registers
 * (sci_dev.h) at the node's offsets, so rings and tori built on them share them freely. The
 * implementations are the C model (csim/sci/sci_node.c) and the Verilated rtl/sci_node.v
 * (harness/sci/sci_node_rtl.cpp).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "sci_dev.h"
#include "sci_node.h"
#include "sci_word.h"

uint32_t sci_node_debug_addr(unsigned nlc, unsigned k)
{
    static const uint8_t lc[3] = {SCI_REG_STATUS, SCI_REG_COUNTS, SCI_REG_DBG};
    if (k < 3u * nlc)
        return SCI_NODE_LC_STRIDE * (k / 3u) + lc[k % 3u];
    return k == 3u * nlc ? SCI_PSB_STATUS : SCI_PSB_DBG;
}

/* ---- the designs ----------------------------------------------------------------------- */

/* An LC's ports (kinds SCI_NP_LIN .. SCI_NP_IRQ), then the host's: sci_node_port(). A powered
 * LC drives signal detect, so lout.sd idles at 1. */
/* A table fragment, one entry a line. */
// clang-format off
#define LC_PORTS(PRE)                                       \
    {PRE "lin", DEV_IN, 17, SCI_KIND_LINK, 0},              \
    {PRE "lin.sd", DEV_IN, 1, SCI_KIND_BIT, 0},             \
    {PRE "lout", DEV_OUT, 17, SCI_KIND_LINK, 0},            \
    {PRE "lout.sd", DEV_OUT, 1, SCI_KIND_BIT, 1},           \
    {PRE "irq", DEV_OUT, 1, SCI_KIND_BIT, 0}
// clang-format on

/* A table fragment, one entry a line. */
// clang-format off
#define HOST_PORTS                                          \
    {"hin", DEV_IN, 18, SCI_KIND_BLINK, 0},                 \
    {"hout.ready", DEV_IN, 1, SCI_KIND_BIT, 0},             \
    {"hin.ready", DEV_OUT, 1, SCI_KIND_BIT, 0},             \
    {"hout", DEV_OUT, 18, SCI_KIND_BLINK, 0}
// clang-format on

static const dev_port_t ports1[] = {LC_PORTS(""), HOST_PORTS};
static const dev_port_t ports2[] = {LC_PORTS("x."), LC_PORTS("y."), HOST_PORTS};

/* The PSB's registers (rtl/sci_node.md section 4). */
/* A table fragment, one entry a line. */
// clang-format off
#define PSB_REGS                                                                            \
    {"psb.node", SCI_PSB_CTRL, 0, 13, DEV_REG_CONFIG, 0, NULL},                             \
    {"rsr_timeout", SCI_PSB_CTRL, 32, 16, DEV_REG_CONFIG, SCI_PSB_RSR_TIMEOUT_RESET, NULL}, \
    {"psb.sendq", SCI_PSB_STATUS, 0, 4, DEV_REG_RO, 0, NULL},                               \
    {"psb.rxq", SCI_PSB_STATUS, 4, 4, DEV_REG_RO, 0, NULL},                                 \
    {"psb.replies", SCI_PSB_STATUS, 8, 2, DEV_REG_RO, 0, NULL},                             \
    {"psb.armed", SCI_PSB_STATUS, 10, 1, DEV_REG_RO, 0, NULL},                              \
    {"psb.discarded", SCI_PSB_STATUS, 16, 16, DEV_REG_RO, 0, NULL},                         \
    {"psb.notify", SCI_PSB_STATUS, 11, 1, DEV_REG_RO, 0, NULL},                             \
    {"psb.ydown", SCI_PSB_STATUS, 12, 1, DEV_REG_RO, 0, NULL},                              \
    {"psb.yup_seen", SCI_PSB_STATUS, 13, 1, DEV_REG_RO, 0, NULL},                           \
    {"psb.fo_en", SCI_PSB_CTRL, SCI_PSB_CTRL_FOEN_BIT, 1, DEV_REG_CONFIG, 0, NULL},         \
    {"psb.xw", SCI_PSB_CTRL, SCI_PSB_CTRL_XW_BIT, 1, DEV_REG_CONFIG, 0, NULL},              \
    {"psb.ntgt", SCI_PSB_NTGT, 0, 13, DEV_REG_CONFIG, 0, NULL},                             \
    {"psb.focol", SCI_PSB_FOCOL, 0, 14, 0, 0, NULL},                                        \
    {"psb.taddr", SCI_PSB_TADDR, 0, 14, 0, 0, NULL},                                        \
    {"psb.brt", SCI_PSB_BRT, 0, 3, 0, 0, NULL},                                             \
    {"psb.asel", SCI_PSB_ASEL, 0, 1, 0, 0, NULL},                                           \
    {"psb.owner", SCI_PSB_DBG, 0, 3, DEV_REG_RO, 0, NULL},                                  \
    {"psb.dbg", SCI_PSB_DBG, 0, 64, DEV_REG_RO, 0, NULL}
// clang-format on

/* The upset maps (rtl/sci_node.md section 8): each LC's elements under its register prefix,
 * then the PSB's (csim/sci/sci_node.h enum sci_psb_elem, in order: entry k of the PSB's part is
 * element k). An LC's sites for a simulator (dev_upset_t.tb) are under its instance in
 * rtl/sci_node.v: x (the one LC of a one-LC node) gen_lc[0], y gen_lc[1]. */
#define LC0 "gen_lc[0].u_lc."
#define LC1 "gen_lc[1].u_lc."
static const dev_upset_t upsets_lc3n1[] = {SCI_LC_UPSETS("", 256, LC0), SCI_PSB_UPSETS(256)};
static const dev_upset_t upsets_p2sn1[] = {SCI_LC_UPSETS("", SCI_TABLE_ENTRIES, LC0),
                                           SCI_PSB_UPSETS(SCI_TABLE_ENTRIES), SCI_PSB_ASEL_UPSET};
static const dev_upset_t upsets_lc3n2[] = {SCI_LC_UPSETS("x.", 256, LC0),
                                           SCI_LC_UPSETS("y.", 256, LC1), SCI_PSB_UPSETS(256)};
static const dev_upset_t upsets_p2sn2[] = {
    SCI_LC_UPSETS("x.", SCI_TABLE_ENTRIES, LC0), SCI_LC_UPSETS("y.", SCI_TABLE_ENTRIES, LC1),
    SCI_PSB_UPSETS(SCI_TABLE_ENTRIES), SCI_PSB_ASEL_UPSET, SCI_PSB_FO_UPSETS};
_Static_assert(sizeof upsets_p2sn2 / sizeof upsets_p2sn2[0] == 2 * SCI_E_N + SCI_PE_N,
               "the node's upset map lists every element of both LCs and the PSB");
_Static_assert(sizeof upsets_lc3n1 / sizeof upsets_lc3n1[0] == SCI_E_N + SCI_PE_ASEL,
               "the PSB's elements before ASEL are every map's");

static const dev_reg_t regs1[] = {SCI_LC_REGS("", 0), PSB_REGS};
static const dev_reg_t regs2[] = {SCI_LC_REGS("x.", 0), SCI_LC_REGS("y.", SCI_NODE_LC_STRIDE),
                                  PSB_REGS};

/* The debug words of sci_node_debug_addr(). */
static const uint32_t debug1[] = {SCI_REG_STATUS, SCI_REG_COUNTS, SCI_REG_DBG, SCI_PSB_STATUS,
                                  SCI_PSB_DBG};
static const uint32_t debug2[] = {
    SCI_REG_STATUS,
    SCI_REG_COUNTS,
    SCI_REG_DBG,
    SCI_NODE_LC_STRIDE + SCI_REG_STATUS,
    SCI_NODE_LC_STRIDE + SCI_REG_COUNTS,
    SCI_NODE_LC_STRIDE + SCI_REG_DBG,
    SCI_PSB_STATUS,
    SCI_PSB_DBG,
};

static const char *const node_record_regs[] = {"crc_errors", "scrubbed", "failures",
                                               "psb.discarded", NULL};

static void *node_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                         const dev_ops_t **ops, char *err, size_t errlen);
static int node_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                     unsigned max);

/* ---- the RTL as a testbench drives it (harness/core/tb.h): rtl/sci_node.v, as
 * sci_node_rtl.cpp ---------------------------------------------------------------------- */

/* A table fragment, one entry a line. */
// clang-format off
#define NODE_SIGS(NLC)                                      \
    {"lin_i", DEV_IN, 17 * (NLC)},                          \
    {"lin_sd_i", DEV_IN, (NLC)},                            \
    {"hin_i", DEV_IN, 17},                                  \
    {"hin_last_i", DEV_IN, 1},                              \
    {"hout_ready_i", DEV_IN, 1},                            \
    {"lout_o", DEV_OUT, 17 * (NLC)},                        \
    {"lout_sd_o", DEV_OUT, (NLC)},                          \
    {"hin_ready_o", DEV_OUT, 1},                            \
    {"hout_o", DEV_OUT, 17},                                \
    {"hout_last_o", DEV_OUT, 1},                            \
    {"irq_o", DEV_OUT, (NLC)},                              \
    {"lc_dbg_o", DEV_OUT, 64 * (NLC)},                      \
    {"psb_dbg_o", DEV_OUT, 64}
// clang-format on

static const dev_rtl_sig_t sigs1[] = {NODE_SIGS(1)}, sigs2[] = {NODE_SIGS(2)};

/* LC k's link word is lin_i[17 k +: 17] (and so on); a host word {last, valid, sym} is hin_i
 * with hin_last_i in and, out, hout_o (valid in its bit 16) with hout_last_o, 0 while not
 * valid, as sci_node_rtl.cpp reads it. */
static void node_port_sv(const dev_design_t *d, unsigned p, char *buf, size_t len)
{
    unsigned nlc = sci_node_design_nlc(d), per = SCI_NODE_PER_LC * nlc;
    /* sci_node_port() backwards */
    unsigned kind = p < per ? p % SCI_NODE_PER_LC : p - per + SCI_NODE_PER_LC;
    unsigned k = p < per ? p / SCI_NODE_PER_LC : 0u;
    switch (kind) {
    case SCI_NP_LIN: snprintf(buf, len, "lin_i[%u +: 17] = w[16:0];", 17u * k); break;
    case SCI_NP_LIN_SD: snprintf(buf, len, "lin_sd_i[%u] = w[0];", k); break;
    case SCI_NP_LOUT: snprintf(buf, len, "lout_o[%u +: 17]", 17u * k); break;
    case SCI_NP_LOUT_SD: snprintf(buf, len, "lout_sd_o[%u]", k); break;
    case SCI_NP_IRQ: snprintf(buf, len, "irq_o[%u]", k); break;
    case SCI_NP_HIN: snprintf(buf, len, "begin hin_i = w[16:0]; hin_last_i = w[17]; end"); break;
    case SCI_NP_HOUT_READY: snprintf(buf, len, "hout_ready_i = w[0];"); break;
    case SCI_NP_HIN_READY: snprintf(buf, len, "hin_ready_o"); break;
    default: /* SCI_NP_HOUT */
        snprintf(buf, len, "hout_o[16] ? {hout_last_o, hout_o} : 18'd0");
        break;
    }
}

static const dev_rtl_param_t params_lc3n1[] = {{"P2s", 0}, {"NLC", 1}},
                             params_p2sn1[] = {{"P2s", 1}, {"NLC", 1}},
                             params_lc3n2[] = {{"P2s", 0}, {"NLC", 2}},
                             params_p2sn2[] = {{"P2s", 1}, {"NLC", 2}};
#define NODE_RTL(V, NLC)                                                          \
    {                                                                             \
        .top = "sci_node", .params = params_##V, .nparams = 2, .sigs = sigs##NLC, \
        .nsigs = N(sigs##NLC), .port_sv = node_port_sv, .words_sv = sci_words_sv, \
    }
#define N(a) (sizeof(a) / sizeof((a)[0]))
static const dev_rtl_t rtl_lc3n1 = NODE_RTL(lc3n1, 1), rtl_p2sn1 = NODE_RTL(p2sn1, 1),
                       rtl_lc3n2 = NODE_RTL(lc3n2, 2), rtl_p2sn2 = NODE_RTL(p2sn2, 2);

#define NODE_DESIGN(NAME, SUMMARY, NLC, RECORD, RTL, UPSETS)                               \
    {                                                                                      \
        .name = NAME, .summary = SUMMARY, .ports = ports##NLC, .nports = N(ports##NLC),    \
        .regs = regs##NLC, .nregs = N(regs##NLC), .debug_addrs = debug##NLC,               \
        .ndebug = N(debug##NLC), .record_regs = RECORD, .parse_word = sci_parse_word,      \
        .format_word = sci_format_word, .parse_seq = sci_parse_seq, .create = node_create, \
        .rtl = RTL, .upsets = UPSETS, .nupsets = N(UPSETS), .upset_live = node_live,      \
    }

const dev_design_t lc3node_design =
    NODE_DESIGN("lc3node", "SCI node: PSB, B-link and one LC3 link controller (rtl/sci_node.md)", 1,
                node_record_regs, &rtl_lc3n1, upsets_lc3n1);
const dev_design_t p2snode_design =
    NODE_DESIGN("p2snode", "SCI node: PSB, B-link and one P2S link controller (rtl/sci_node.md)", 1,
                node_record_regs, &rtl_p2sn1, upsets_p2sn1);
const dev_design_t lc3node2_design =
    NODE_DESIGN("lc3node2", "SCI torus node: PSB, B-link, an X and a Y LC3 (rtl/sci_node.md)", 2,
                NULL, &rtl_lc3n2, upsets_lc3n2);
const dev_design_t p2snode2_design =
    NODE_DESIGN("p2snode2", "SCI torus node: PSB, B-link, an X and a Y P2S LC (rtl/sci_node.md)", 2,
                NULL, &rtl_p2sn2, upsets_p2sn2);

const dev_design_t *sci_node_design(int p2s, unsigned nlc)
{
    if (nlc == 1)
        return p2s ? &p2snode_design : &lc3node_design;
    if (nlc == 2)
        return p2s ? &p2snode2_design : &lc3node2_design;
    return NULL;
}

int sci_node_design_p2s(const dev_design_t *d)
{
    return d == &p2snode_design || d == &p2snode2_design;
}

unsigned sci_node_design_nlc(const dev_design_t *d) { return d->ports == ports2 ? 2u : 1u; }

/* ---- the C model as a device ----------------------------------------------------------- */

/* The C model with what the device interface adds around it, in the node's first cache line:
 * its input words as last decoded, packed (a node's inputs rarely change from one cycle to the
 * next: nothing to decode then), whether they changed since the last edge (dirty) and whether
 * that edge changed nothing (settled: then the next edge is skipped unless dirty, without
 * touching the model), and the output words of the model's state, packed, made right after
 * an edge that may have changed them, while its registers are still in the cache. A quiet
 * node costs that one line a cycle. */
typedef struct node_cs {
    bool dirty, settled;
    uint8_t nlc;  /* the model's, here in the first line */
    uint64_t key; /* inputs: per LC k lin [16:0], lin.sd at 18 k; hin [17:0] at 36; hout.ready 54
                      (UINT64_MAX before the first) */
    uint64_t
        outs; /* per LC k lout [16:0], lout.sd, irq at 19 k; hin.ready at 38; hout [17:0] at 39 */
    sci_node_in_t in;
    sci_node_t n;
} node_cs_t;

#define LIN_BITS 0x1FFFFull /* {flag, sym} */
#define BL_BITS  0x3FFFFull /* {last, valid, sym} */

static void cs_destroy(void *self) { free(self); }
static void cs_set_reset(void *self, bool a)
{
    node_cs_t *s = self;
    if (s->in.rst_n == a) {
        s->in.rst_n = !a;
        s->dirty = true;
    }
}

/* New packed inputs (key, as set_inputs_n packs them) into the model's, for nlc LCs. */
static inline void take_key(node_cs_t *s, uint64_t key, unsigned nlc)
{
    if (key == s->key)
        return;
    s->key = key;
    s->dirty = true;
    for (unsigned k = 0; k < nlc; k++) {
        uint64_t w = key >> (18 * k);
        s->in.lin_flag[k] = (w >> 16) & 1u;
        s->in.lin_sym[k] = (uint16_t)w;
        s->in.lin_sd[k] = (w >> 17) & 1u;
    }
    uint64_t h = key >> 36;
    s->in.hin_valid = (h >> 16) & 1u;
    s->in.hin_sym = (uint16_t)h;
    s->in.hin_last = (h & SCI_LAST) != 0;
    s->in.hout_ready = (key >> 54) & 1u;
}

/* cs_set_inputs for a node of nlc LCs (a constant where it is called: the ports' places are). */
static inline void set_inputs_n(node_cs_t *s, const uint64_t *in, unsigned nlc)
{
    uint64_t key = (in[sci_node_port(nlc, SCI_NP_HIN, 0)] & BL_BITS) << 36 |
                   (in[sci_node_port(nlc, SCI_NP_HOUT_READY, 0)] & 1u) << 54;
    for (unsigned k = 0; k < nlc; k++)
        key |= ((in[sci_node_port(nlc, SCI_NP_LIN, k)] & LIN_BITS) |
               (in[sci_node_port(nlc, SCI_NP_LIN_SD, k)] & 1u) << 17)
               << (18 * k);
    take_key(s, key, nlc);
}

static void cs_set_inputs(void *self, const uint64_t *in)
{
    node_cs_t *s = self;
    if (s->nlc == 2)
        set_inputs_n(s, in, 2);
    else
        set_inputs_n(s, in, 1);
}

/* The output words of the model's state, packed into s->outs. */
static void cs_make_outputs(node_cs_t *s)
{
    const sci_node_t *n = &s->n;
    unsigned nlc = n->nlc;
    uint64_t o = 0;
    for (unsigned k = 0; k < nlc; k++)
        o |= (((uint64_t)sci_node_link_flag(n, k) << 16) | sci_node_link_sym(n, k) |
              (uint64_t)sci_node_link_sd(n, k) << 17 | (uint64_t)sci_node_irq(n, k) << 18)
             << (19 * k);
    o |= (uint64_t)sci_node_hin_ready(n) << 38;
    if (sci_node_hout_valid(n))
        o |= (SCI_FLAG | sci_node_hout_sym(n) | (sci_node_hout_last(n) ? SCI_LAST : 0ull)) << 39;
    s->outs = o;
}

/* cs_get_outputs for a node of nlc LCs (a constant where it is called). */
static inline void get_outputs_n(const node_cs_t *s, uint64_t *out, unsigned nlc)
{
    uint64_t o = s->outs;
    for (unsigned k = 0; k < nlc; k++) {
        uint64_t w = o >> (19 * k);
        out[sci_node_port(nlc, SCI_NP_LOUT, k)] = w & LIN_BITS;
        out[sci_node_port(nlc, SCI_NP_LOUT_SD, k)] = (w >> 17) & 1u;
        out[sci_node_port(nlc, SCI_NP_IRQ, k)] = (w >> 18) & 1u;
    }
    out[sci_node_port(nlc, SCI_NP_HIN_READY, 0)] = (o >> 38) & 1u;
    out[sci_node_port(nlc, SCI_NP_HOUT, 0)] = (o >> 39) & BL_BITS;
}

static void cs_get_outputs(void *self, uint64_t *out)
{
    const node_cs_t *s = self;
    if (s->nlc == 2)
        get_outputs_n(s, out, 2);
    else
        get_outputs_n(s, out, 1);
}

static void cs_reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    node_cs_t *s = self;
    s->in.reg_we = true;
    s->dirty = true;
    s->in.reg_waddr = (uint8_t)addr;
    dev_strobe_write(sci_node_reg_read(&s->n, (uint8_t)addr), data, mask, &s->in.reg_wdata,
                     &s->in.reg_wstrb);
}

static uint64_t cs_reg_read(void *self, uint32_t addr)
{
    return addr > 0xFF ? 0 : sci_node_reg_read(&((node_cs_t *)self)->n, (uint8_t)addr);
}

static void cs_debug(void *self, uint64_t *w) { sci_node_debug(&((node_cs_t *)self)->n, w); }

/* One edge (its outputs come anew when it ran and may have changed something). The edge
 * after a register write has other inputs (no write). */
static void cs_edge(node_cs_t *s)
{
    if (s->settled && !s->dirty)
        return; /* the inputs of the last edge, which changed nothing */
    if (sci_node_step(&s->n, &s->in) && s->n.effect != SCI_EDGE_SAME)
        cs_make_outputs(s);
    s->settled = sci_node_settled(&s->n);
    s->dirty = s->in.reg_we;
    s->in.reg_we = false;
}

static void cs_tick(void *self, uint64_t cycle)
{
    (void)cycle;
    cs_edge(self);
}

/* One edge; max when it changed no state (and wrote no register): a fixpoint of the model,
 * which the model tells (sci_node_settled). A node held in reset (powered down) is one too. */
static uint64_t cs_skip(void *self, uint64_t cycle, uint64_t max)
{
    node_cs_t *s = self;
    bool we = s->in.reg_we;
    (void)cycle;
    cs_edge(s);
    return we || !sci_node_settled(&s->n) ? 1 : max;
}

bool sci_node_csim_step_packed(void *self, uint64_t in, uint64_t *out)
{
    node_cs_t *s = self;
    take_key(s, in, 2); /* sci_node_pack_in packs as set_inputs_n */
    bool moved = cs_skip(s, 0, 2) != 2;
    if (moved)
        get_outputs_n(s, out, 2);
    return moved;
}

/* The element's flip in the model; its outputs, packed, follow (they may be the upset
 * register itself); the next edge runs. */
static int cs_upset(void *self, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    node_cs_t *c = self;
    unsigned k, elem;
    sci_node_entry(c->nlc, s->entry, &k, &elem);
    if (sci_node_upset(&c->n, k, elem, s->index, s->bit) < 0) {
        snprintf(err, errlen, "the C model keeps no %s (an RTL-only element)", s->u->name);
        return -1;
    }
    c->settled = false;
    c->dirty = true;
    cs_make_outputs(c);
    return 0;
}

static const dev_ops_t node_csim_ops = {
    .destroy = cs_destroy,
    .set_reset = cs_set_reset,
    .set_inputs = cs_set_inputs,
    .get_outputs = cs_get_outputs,
    .reg_write = cs_reg_write,
    .reg_read = cs_reg_read,
    .debug = cs_debug,
    .tick = cs_tick,
    .trace_open = dev_csim_trace_open,
    .trace_close = dev_csim_trace_close,
    .internal_error = dev_csim_internal_error,
    .control = dev_no_control,
    .skip = cs_skip,
    .upset = cs_upset,
};

static int node_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                     unsigned max)
{
    (void)part;
    if (m->ops != &node_csim_ops)
        return -1;
    node_cs_t *c = m->self;
    unsigned k, elem;
    sci_node_entry(c->nlc, entry, &k, &elem);
    /* An LC's latched bout_port: the PSB takes an LC packet's port when it picks it (from the
     * receive queue's head, not this register) and holds its own: nothing in a node reads it. */
    if (k < c->nlc && elem == SCI_E_BOPORT)
        return DEV_UPSET_MASKED;
    return sci_node_live(&c->n, k, elem, bit, idx, max);
}

int sci_node_csim_table_load(device_t *d, uint32_t reg, uint32_t taddr, uint64_t value)
{
    if (d->ops != &node_csim_ops)
        return -1;
    node_cs_t *s = d->self;
    sci_node_table_load(&s->n, (uint8_t)reg, (uint16_t)taddr, value);
    s->settled = false;
    return 0;
}

static void *node_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                         const dev_ops_t **ops, char *err, size_t errlen)
{
    int p2s = sci_node_design_p2s(d);
    unsigned nlc = sci_node_design_nlc(d);
    if (impl == DEV_IMPL_RTL) {
        return sci_node_rtl_create(p2s, nlc, inst, ops);
    }
    /* the model's registers are cache-line aligned (csim/sci/sci_lc.h) */
    node_cs_t *s = aligned_alloc(_Alignof(node_cs_t), sizeof *s);
    if (s)
        memset(s, 0, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sci_node_init(&s->n, p2s ? SCI_P2S : SCI_LC3, nlc);
    s->in.rst_n = true;
    s->key = UINT64_MAX;
    s->dirty = true;
    s->nlc = (uint8_t)s->n.nlc;
    cs_make_outputs(s);
    *ops = &node_csim_ops;
    return s;
}
