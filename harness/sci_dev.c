/*
 * sci_dev.c — the SCI link controllers LC3 and P2S as ftsim devices (rtl/sci_lc.md): ports,
 * registers, the link-word hooks. Their implementations (the RTL and the C model) come with
 * issue 3; until then opening one says so, and vectors for them can already be parsed.
 */
#include <stdio.h>
#include <string.h>

#include "dev.h"
#include "sci_word.h"

static const dev_port_t sci_ports[] = {
    {"lin", DEV_IN, 17, SCI_KIND_LINK},       {"lin.sd", DEV_IN, 1, SCI_KIND_BIT},
    {"bin", DEV_IN, 17, SCI_KIND_LINK},       {"bout.ready", DEV_IN, 1, SCI_KIND_BIT},
    {"lout", DEV_OUT, 17, SCI_KIND_LINK},     {"lout.sd", DEV_OUT, 1, SCI_KIND_BIT},
    {"bin.ready", DEV_OUT, 1, SCI_KIND_BIT},  {"bout", DEV_OUT, 17, SCI_KIND_LINK},
    {"bout.valid", DEV_OUT, 1, SCI_KIND_BIT}, {"irq", DEV_OUT, 1, SCI_KIND_BIT},
};

static const dev_reg_t sci_regs[] = {
    {"node", 0x00, 0, 13, DEV_REG_CONFIG, 0, NULL},
    {"enable", 0x00, 16, 1, DEV_REG_CONFIG, 1, NULL},
    {"scrubber", 0x00, 17, 1, DEV_REG_CONFIG, 0, NULL},
    {"busy_limit", 0x00, 24, 8, DEV_REG_CONFIG, 8, NULL},
    {"retry_limit", 0x00, 32, 8, DEV_REG_CONFIG, 4, NULL},
    {"echo_timeout", 0x00, 48, 16, DEV_REG_CONFIG, 200, NULL},
    {"ring_up", 0x01, 0, 1, DEV_REG_RO, 0, NULL},
    {"cable_ok", 0x01, 1, 1, DEV_REG_RO, 0, NULL},
    {"disabled", 0x01, 2, 1, DEV_REG_RO, 0, NULL},
    {"irq_pending", 0x01, 3, 1, DEV_REG_RO, 0, NULL},
    {"active", 0x01, 4, 4, DEV_REG_RO, 0, NULL},
    {"sendq", 0x01, 8, 4, DEV_REG_RO, 0, NULL},
    {"rxq", 0x01, 12, 4, DEV_REG_RO, 0, NULL},
    {"irq_clear", 0x02, 3, 1, 0, 0, NULL},
    {"crc_errors", 0x03, 0, 16, DEV_REG_RO, 0, NULL},
    {"scrubbed", 0x03, 16, 16, DEV_REG_RO, 0, NULL},
    {"busy_sent", 0x03, 32, 16, DEV_REG_RO, 0, NULL},
    {"failures", 0x03, 48, 16, DEV_REG_RO, 0, NULL},
    {"taddr", 0x08, 0, 14, 0, 0, NULL},
    {"lrt", 0x09, 0, 1, 0, 0, NULL},
    {"brt", 0x0A, 0, 3, 0, 0, NULL},
    {"parser", 0x10, 0, 4, DEV_REG_RO, 0, NULL},
    {"bypass_level", 0x10, 4, 6, DEV_REG_RO, 0, NULL},
    {"dbg", 0x10, 0, 64, DEV_REG_RO, 0, NULL},
};

static const uint32_t sci_debug_addrs[] = {0x01, 0x03, 0x10};
static const char *const sci_record_regs[] = {"crc_errors", "scrubbed", "failures", NULL};

static void *sci_create(const char *which, dev_impl_t impl, const dev_ops_t **ops, char *err,
                        size_t errlen)
{
    (void)ops;
    snprintf(err, errlen, "%s: the %s is not built yet (issue 3; the contract is rtl/sci_lc.md)",
             which, impl == DEV_IMPL_RTL ? "RTL" : "C model");
    return NULL;
}

static void *lc3_create(dev_impl_t impl, const char *inst, const dev_ops_t **ops, char *err, size_t n)
{
    (void)inst;
    return sci_create("lc3", impl, ops, err, n);
}

static void *p2s_create(dev_impl_t impl, const char *inst, const dev_ops_t **ops, char *err, size_t n)
{
    (void)inst;
    return sci_create("p2s", impl, ops, err, n);
}

#define SCI_DESIGN(NAME, SUMMARY, CREATE)                                                          \
    {                                                                                              \
        .name = NAME, .summary = SUMMARY, .ports = sci_ports,                                      \
        .nports = sizeof sci_ports / sizeof sci_ports[0], .regs = sci_regs,                        \
        .nregs = sizeof sci_regs / sizeof sci_regs[0], .debug_addrs = sci_debug_addrs,             \
        .ndebug = sizeof sci_debug_addrs / sizeof sci_debug_addrs[0],                              \
        .record_regs = sci_record_regs, .parse_word = sci_parse_word,                              \
        .format_word = sci_format_word, .parse_seq = sci_parse_seq, .create = CREATE,              \
    }

const dev_design_t lc3_design = SCI_DESIGN(
    "lc3", "Dolphin LC3 SCI link controller, 256-entry tables (rtl/sci_lc.md; models: issue 3)",
    lc3_create);
const dev_design_t p2s_design = SCI_DESIGN(
    "p2s", "P2S SCI link controller, two 8192-entry table sets (rtl/sci_lc.md; models: issue 3)",
    p2s_create);
