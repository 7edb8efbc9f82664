/*
 * sci_dev.c — the SCI link controllers LC3 and P2S as ftsim devices (rtl/sci_lc.md): ports,
 * registers, the link-word hooks, and their C model (csim/sci/sci_lc.c); the RTL is
 * harness/sci/sci_rtl.cpp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_word.h"

static const dev_port_t sci_ports[SCI_P_N] = {
    {"lin", DEV_IN, 17, SCI_KIND_LINK, 0},       {"lin.sd", DEV_IN, 1, SCI_KIND_BIT, 0},
    {"bin", DEV_IN, 18, SCI_KIND_BLINK, 0},      {"bout.ready", DEV_IN, 1, SCI_KIND_BIT, 0},
    {"lout", DEV_OUT, 17, SCI_KIND_LINK, 0},     {"lout.sd", DEV_OUT, 1, SCI_KIND_BIT, 1},
    {"bin.ready", DEV_OUT, 1, SCI_KIND_BIT, 1},  {"bout", DEV_OUT, 18, SCI_KIND_BLINK, 0},
    {"bout.port", DEV_OUT, 3, SCI_KIND_PORT, 0}, {"irq", DEV_OUT, 1, SCI_KIND_BIT, 0},
};

static const dev_reg_t sci_regs[] = {SCI_LC_REGS("", 0)};

static const dev_upset_t lc3_upsets[] = {SCI_LC_UPSETS("", 256, "")};
static const dev_upset_t p2s_upsets[] = {SCI_LC_UPSETS("", SCI_TABLE_ENTRIES, "")};
_Static_assert(sizeof lc3_upsets / sizeof lc3_upsets[0] == SCI_E_N,
               "the LC's upset map lists every element of enum sci_lc_elem");

static const uint32_t sci_debug_addrs[SCI_NDEBUG] = {0x01, 0x03, 0x10};

uint32_t sci_debug_addr(unsigned k) { return sci_debug_addrs[k]; }
static const char *const sci_record_regs[] = {"crc_errors", "scrubbed", "failures", NULL};

/* ---- the C model (csim/sci/sci_lc.c) as a device ------------------------------------------- */

typedef struct sci_cs {
    sci_lc_t lc;
    sci_lc_in_t in;
    sci_lc_ram_t ram;
} sci_cs_t;

static void cs_destroy(void *self) { free(self); }
static void cs_set_reset(void *self, bool a) { ((sci_cs_t *)self)->in.rst_n = !a; }

static void cs_set_inputs(void *self, const uint64_t *in)
{
    sci_lc_in_t *i = &((sci_cs_t *)self)->in;
    i->link_flag = (in[SCI_P_LIN] >> 16) & 1u;
    i->link_sym = (uint16_t)in[SCI_P_LIN];
    i->link_sd = in[SCI_P_LIN_SD] & 1u;
    i->bin_valid = (in[SCI_P_BIN] >> 16) & 1u;
    i->bin_sym = (uint16_t)in[SCI_P_BIN];
    i->bin_last = (in[SCI_P_BIN] & SCI_LAST) != 0;
    i->bout_ready = in[SCI_P_BOUT_READY] & 1u;
}

static void cs_get_outputs(void *self, uint64_t *out)
{
    const sci_lc_t *lc = &((sci_cs_t *)self)->lc;
    out[SCI_P_LOUT] = ((uint64_t)sci_lc_link_flag(lc) << 16) | sci_lc_link_sym(lc);
    out[SCI_P_LOUT_SD] = sci_lc_link_sd(lc);
    out[SCI_P_BIN_READY] = sci_lc_bin_ready(lc);
    out[SCI_P_BOUT] = sci_lc_bout_valid(lc)
                          ? (SCI_FLAG | sci_lc_bout_sym(lc) | (sci_lc_bout_last(lc) ? SCI_LAST : 0))
                          : 0;
    out[SCI_P_BOUT_PORT] = sci_lc_bout_valid(lc) ? sci_lc_bout_port(lc) : 0;
    out[SCI_P_IRQ] = sci_lc_irq(lc);
}

static void cs_reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    sci_cs_t *s = self;
    s->in.reg_we = true;
    s->in.reg_waddr = (uint8_t)addr;
    dev_strobe_write(sci_lc_reg_read(&s->lc, (uint8_t)addr), data, mask, &s->in.reg_wdata,
                     &s->in.reg_wstrb);
}

static uint64_t cs_reg_read(void *self, uint32_t addr)
{
    return addr > 0xFF ? 0 : sci_lc_reg_read(&((sci_cs_t *)self)->lc, (uint8_t)addr);
}

static void cs_debug(void *self, uint64_t *w)
{
    for (unsigned k = 0; k < sizeof sci_debug_addrs / sizeof sci_debug_addrs[0]; k++)
        w[k] = cs_reg_read(self, sci_debug_addrs[k]);
}

static void cs_tick(void *self, uint64_t cycle)
{
    sci_cs_t *s = self;
    (void)cycle;
    sci_lc_step(&s->lc, &s->in);
    s->in.reg_we = false;
}

static int cs_upset(void *self, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sci_lc_upset(&((sci_cs_t *)self)->lc, s->entry, s->index, s->bit);
    return 0;
}

static int lc_live(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                   unsigned max)
{
    (void)part;
    if (m->impl != DEV_IMPL_CSIM)
        return -1;
    return sci_lc_live(&((sci_cs_t *)m->self)->lc, entry, bit, idx, max);
}

static const dev_ops_t sci_csim_ops = {
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
    .upset = cs_upset,
};

static void *sci_create(const dev_design_t *d, dev_impl_t impl, const char *inst,
                        const dev_ops_t **ops, char *err, size_t errlen)
{
    (void)inst;
    sci_variant_t v = d == &p2s_design ? SCI_P2S : SCI_LC3;
    if (impl == DEV_IMPL_RTL)
        return sci_rtl_create(v == SCI_P2S, NULL, ops, err, errlen);
    /* the model's registers are cache-line aligned (csim/sci/sci_lc.h) */
    sci_cs_t *s = aligned_alloc(_Alignof(sci_cs_t), sizeof *s);
    if (s)
        memset(s, 0, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sci_lc_init(&s->lc, &s->ram, v);
    s->in.rst_n = true;
    *ops = &sci_csim_ops;
    return s;
}

/* ---- the RTL as a testbench drives it (harness/core/tb.h): rtl/sci_lc.v, as sci_rtl.cpp ---- */

static const dev_rtl_sig_t sci_sigs[] = {
    {"lin_i", DEV_IN, 17},       {"lin_sd_i", DEV_IN, 1},     {"bin_i", DEV_IN, 17},
    {"bin_last_i", DEV_IN, 1},   {"bout_ready_i", DEV_IN, 1}, {"fo_byp_i", DEV_IN, 1},
    {"fo_xmask_i", DEV_IN, 13},  {"lout_o", DEV_OUT, 17},     {"lout_sd_o", DEV_OUT, 1},
    {"bin_ready_o", DEV_OUT, 1}, {"bout_o", DEV_OUT, 17},     {"bout_valid_o", DEV_OUT, 1},
    {"bout_last_o", DEV_OUT, 1}, {"bout_port_o", DEV_OUT, 3}, {"irq_o", DEV_OUT, 1},
    {"status_o", DEV_OUT, 16},   {"dbg_o", DEV_OUT, 64},
};

/* A B-link word {last, valid, sym} is bin_i/bin_last_i in and, out, bout_o with bout_valid_o
 * and bout_last_o (0 while not valid), as sci_rtl.cpp reads them. */
static void sci_port_sv(const dev_design_t *d, unsigned p, char *buf, size_t len)
{
    (void)d;
    static const char *const sv[SCI_P_N] = {
        [SCI_P_LIN] = "lin_i = w[16:0];",
        [SCI_P_LIN_SD] = "lin_sd_i = w[0];",
        [SCI_P_BIN] = "begin bin_i = w[16:0]; bin_last_i = w[17]; end",
        [SCI_P_BOUT_READY] = "bout_ready_i = w[0];",
        [SCI_P_LOUT] = "lout_o",
        [SCI_P_LOUT_SD] = "lout_sd_o",
        [SCI_P_BIN_READY] = "bin_ready_o",
        [SCI_P_BOUT] = "bout_valid_o ? {bout_last_o, 1'b1, bout_o[15:0]} : 18'd0",
        [SCI_P_BOUT_PORT] = "bout_valid_o ? bout_port_o : 3'd0",
        [SCI_P_IRQ] = "irq_o",
    };
    snprintf(buf, len, "%s", p < SCI_P_N ? sv[p] : "");
}

static const dev_rtl_param_t lc3_params[] = {{"P2s", 0}}, p2s_params[] = {{"P2s", 1}};
#define SCI_RTL(PARAMS)                                                        \
    {                                                                          \
        .top = "sci_lc", .params = PARAMS, .nparams = 1, .sigs = sci_sigs,     \
        .nsigs = sizeof sci_sigs / sizeof sci_sigs[0], .port_sv = sci_port_sv, \
        .words_sv = sci_words_sv,                                              \
    }
static const dev_rtl_t lc3_rtl = SCI_RTL(lc3_params), p2s_rtl = SCI_RTL(p2s_params);

#define SCI_DESIGN(NAME, SUMMARY, RTL, UPSETS)                                            \
    {                                                                                     \
        .name = NAME, .summary = SUMMARY, .ports = sci_ports,                             \
        .nports = sizeof sci_ports / sizeof sci_ports[0], .regs = sci_regs,               \
        .nregs = sizeof sci_regs / sizeof sci_regs[0], .debug_addrs = sci_debug_addrs,    \
        .ndebug = sizeof sci_debug_addrs / sizeof sci_debug_addrs[0],                     \
        .record_regs = sci_record_regs, .parse_word = sci_parse_word,                     \
        .format_word = sci_format_word, .parse_seq = sci_parse_seq, .create = sci_create, \
        .rtl = RTL, .upsets = UPSETS, .nupsets = SCI_E_N, .upset_live = lc_live,          \
    }

const dev_design_t lc3_design = SCI_DESIGN(
    "lc3", "Dolphin LC3 SCI link controller, 256-entry tables (rtl/sci_lc.md)", &lc3_rtl,
    lc3_upsets);
const dev_design_t p2s_design = SCI_DESIGN(
    "p2s", "P2S SCI link controller, two 8192-entry table sets by targetId bit 14 (rtl/sci_lc.md)",
    &p2s_rtl, p2s_upsets);
