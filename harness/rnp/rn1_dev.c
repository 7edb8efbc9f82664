/*
 * rn1_dev.c — the RN1 design (ports, registers, hooks: rtl/rn1.md) and its C-model
 * implementation over csim/rnp/rn1.c. The RTL implementation is harness/rnp/rn1_rtl.cpp.
 */
#include "rn1_dev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rn1.h"
#include "rnp_word.h"

/* A table fragment, one entry a line. */
// clang-format off
#define P8(pfx, sfx, dir, w, k)                             \
    {pfx "0" sfx, dir, w, k, 0},                            \
    {pfx "1" sfx, dir, w, k, 0},                            \
    {pfx "2" sfx, dir, w, k, 0},                            \
    {pfx "3" sfx, dir, w, k, 0},                            \
    {pfx "4" sfx, dir, w, k, 0},                            \
    {pfx "5" sfx, dir, w, k, 0},                            \
    {pfx "6" sfx, dir, w, k, 0},                            \
    {pfx "7" sfx, dir, w, k, 0}
// clang-format on

static const dev_port_t rn1_ports[RN1_NPORTS] = {
    P8("f", "", DEV_IN, 9, RNP_KIND_WORD),   P8("b", "", DEV_IN, 9, RNP_KIND_WORD),
    P8("b", ".bc", DEV_IN, 1, RNP_KIND_BIT), P8("f", "", DEV_OUT, 9, RNP_KIND_WORD),
    P8("b", "", DEV_OUT, 9, RNP_KIND_WORD),  P8("f", ".bc", DEV_OUT, 1, RNP_KIND_BIT),
};

static const char *const mode_names[] = {"dilated", "dual", NULL};
static const char *const state_names[] = {"IDLE",   "SWALLOW",  "FORWARD", "BLOCKED",
                                          "STATUS", "CHECKSUM", "REVERSE", "HOLD",
                                          "DROP",   "DISCARD",  NULL};

/* A table fragment, one entry a line. */
// clang-format off
#define PORT_REGS(p)                                               \
    {"f" #p ".state", 0x10 + p, 0, 4, DEV_REG_RO, 0, state_names}, \
    {"f" #p ".bq", 0x10 + p, 4, 3, DEV_REG_RO, 0, NULL},           \
    {"f" #p ".disp", 0x10 + p, 8, 2, DEV_REG_RO, 0, NULL},         \
    {"f" #p ".armed", 0x10 + p, 12, 1, DEV_REG_RO, 0, NULL},       \
    {"f" #p ".count", 0x10 + p, 16, 6, DEV_REG_RO, 0, NULL},       \
    {"f" #p ".xor", 0x10 + p, 24, 8, DEV_REG_RO, 0, NULL},         \
    {"f" #p ".raw", 0x10 + p, 0, 32, DEV_REG_RO, 0, NULL}
// clang-format on

static const dev_reg_t rn1_regs[] = {
    {"swallow", RN1_REG_CFG, 0, 8, DEV_REG_CONFIG, 0x00, NULL},
    {"disable", RN1_REG_CFG, 8, 8, DEV_REG_CONFIG, 0x00, NULL},
    {"seed", RN1_REG_CFG, 16, 16, DEV_REG_CONFIG, 0xACE1, NULL},
    {"mode", RN1_REG_CFG, 32, 1, DEV_REG_CONFIG, 0, mode_names},
    {"backchan", RN1_REG_CFG, 40, 1, DEV_REG_CONFIG, 0, NULL},
    {"errors", 0x01, 0, 16, DEV_REG_RO, 0, NULL},
    {"alloc", 0x02, 0, 8, DEV_REG_RO, 0, NULL},
    {"lfsr", 0x03, 0, 16, DEV_REG_RO, 0, NULL},
    {"id", 0x04, 0, 32, DEV_REG_RO, 0, NULL},
    PORT_REGS(0),
    PORT_REGS(1),
    PORT_REGS(2),
    PORT_REGS(3),
    PORT_REGS(4),
    PORT_REGS(5),
    PORT_REGS(6),
    PORT_REGS(7),
};

/* The upset map (rtl/rn1.md section 14). Every element is kept by both models. */
static const char note_state[] =
    "codes 10 to 15: the port ignores both inputs, sends IDLE and is IDLE in the next cycle "
    "(assertion FwdStateLegal_A)";
static const char note_alloc[] =
    "a bit set with no owner stays allocated until reset (the port is never chosen); a bit "
    "cleared under a connection lets a second one take the port: both drive it, it carries the "
    "OR of their words (assertions AllocIsOwned_A, BwdAllocOnce_A, BwdDrivenOnce_A)";
static const char note_lfsr[] =
    "0: the LFSR stays 0 (a Galois LFSR never leaves 0), so every choice between two free "
    "outputs takes the even one, until a seed write or a reset reloads it";
static const char note_seed[] =
    "0 is a value like any other: the LFSR is untouched (an upset is no write); a later seed "
    "write of 0 loads 0xACE1";
static const char note_bq[] =
    "every value names a port; one another connection owns is then driven by both (the OR "
    "of their words) and freed by whichever closes first (assertions)";

/* A table fragment, one entry a line. */
// clang-format off
#define UPSET_PORT(p)                                                                             \
    {"f" #p ".state", 4, 0, 0, "gen_fport[" #p "].u_fport.state_q", "port[" #p "].state",        \
     note_state, NULL, NULL, "gen_fport[" #p "].u_fport.state_q[B]"},                           \
    {"f" #p ".bq", 3, 0, 0, "gen_fport[" #p "].u_fport.bq_q", "port[" #p "].bq", note_bq,       \
     NULL, NULL, "gen_fport[" #p "].u_fport.bq_q[B]"},                                          \
    {"f" #p ".disp", 2, 0, 0, "gen_fport[" #p "].u_fport.disp_q", "port[" #p "].disp", NULL,    \
     NULL, NULL, "gen_fport[" #p "].u_fport.disp_q[B]"},                                        \
    {"f" #p ".armed", 1, 0, 0, "gen_fport[" #p "].u_fport.armed_q", "port[" #p "].armed", NULL, \
     NULL, NULL, "gen_fport[" #p "].u_fport.armed_q[B]"},                                       \
    {"f" #p ".count", 6, 0, 0, "gen_fport[" #p "].u_fport.count_q", "port[" #p "].count", NULL, \
     NULL, NULL, "gen_fport[" #p "].u_fport.count_q[B]"},                                       \
    {"f" #p ".xor", 8, 0, 0, "gen_fport[" #p "].u_fport.xor_q", "port[" #p "].xsum", NULL,      \
     NULL, NULL, "gen_fport[" #p "].u_fport.xor_q[B]"},                                         \
    {"f" #p ".out", 9, 0, 0, "fwd_q[" #p "*9 +: 9]", "fwd_out[" #p "]", NULL, NULL, NULL,       \
     "fwd_q[" #p "*9+B]"},                                                                      \
    {"f" #p ".bc", 1, 0, 0, "fwd_bc_q[" #p "]", "bc_q bit " #p, NULL, NULL, NULL,              \
     "fwd_bc_q[" #p "+B]"}
#define UPSET_BOUT(j)                                                                             \
    {"b" #j ".out", 9, 0, 0, "bwd_q[" #j "*9 +: 9]", "bwd_out[" #j "]", NULL, NULL, NULL,       \
     "bwd_q[" #j "*9+B]"}
// clang-format on

static const dev_upset_t rn1_upsets[RN1_UPSET_N] = {
    {"swallow", 8, 0, 0, "cfg_q[7:0]", "swallow", NULL, NULL, NULL, "cfg_q[B]"},
    {"disable", 8, 0, 0, "cfg_q[15:8]", "disable", NULL, NULL, NULL, "cfg_q[8+B]"},
    {"seed", 16, 0, 0, "cfg_q[31:16]", "seed", note_seed, NULL, NULL, "cfg_q[16+B]"},
    {"mode", 1, 0, 0, "cfg_q[32]", "dual", NULL, NULL, NULL, "cfg_q[32+B]"},
    {"backchan", 1, 0, 0, "cfg_q[40]", "backchan", NULL, NULL, NULL, "cfg_q[40+B]"},
    {"errors", 16, 0, 0, "errors_q", "errors", NULL, NULL, NULL, "errors_q[B]"},
    {"alloc", 8, 0, 0, "alloc_q", "alloc", note_alloc, NULL, NULL, "alloc_q[B]"},
    {"lfsr", 16, 0, 0, "lfsr_q", "lfsr", note_lfsr, NULL, NULL, "lfsr_q[B]"},
    {"rot", 3, 0, 0, "rot_q", "rot", NULL, NULL, NULL, "rot_q[B]"},
    UPSET_PORT(0),
    UPSET_PORT(1),
    UPSET_PORT(2),
    UPSET_PORT(3),
    UPSET_PORT(4),
    UPSET_PORT(5),
    UPSET_PORT(6),
    UPSET_PORT(7),
    UPSET_BOUT(0),
    UPSET_BOUT(1),
    UPSET_BOUT(2),
    UPSET_BOUT(3),
    UPSET_BOUT(4),
    UPSET_BOUT(5),
    UPSET_BOUT(6),
    UPSET_BOUT(7),
};

static const uint32_t rn1_debug_addrs[RN1_NDEBUG] = {0x01, 0x02, 0x03, 0x10, 0x11, 0x12,
                                                     0x13, 0x14, 0x15, 0x16, 0x17};
static const char *const rn1_record_regs[] = {"errors", "alloc", NULL};

/* ---- the C model as a device ---------------------------------------------------------- */

typedef struct rn1_csim {
    rn1_t m;
    rn1_in_t in;
} rn1_csim_t;

static void cs_destroy(void *self) { free(self); }
static void cs_set_reset(void *self, bool a) { ((rn1_csim_t *)self)->in.rst_n = !a; }

static void cs_set_inputs(void *self, const uint64_t *in)
{
    rn1_csim_t *s = self;
    uint8_t bc = 0;
    for (unsigned i = 0; i < RN1_PORTS; i++) {
        s->in.fwd[i] = (uint16_t)(in[RN1_P_FIN(i)] & 0x1FF);
        s->in.bwd[i] = (uint16_t)(in[RN1_P_BIN(i)] & 0x1FF);
        bc |= (uint8_t)((in[RN1_P_BBC(i)] & 1u) << i);
    }
    s->in.bwd_bc = bc;
}

static void cs_get_outputs(void *self, uint64_t *out)
{
    const rn1_t *m = &((rn1_csim_t *)self)->m;
    uint8_t bc = rn1_fwd_bc_out(m);
    for (unsigned i = 0; i < RN1_PORTS; i++) {
        out[RN1_P_FOUT(i)] = rn1_fwd_out(m, i);
        out[RN1_P_BOUT(i)] = rn1_bwd_out(m, i);
        out[RN1_P_FBC(i)] = (bc >> i) & 1u;
    }
}

static void cs_reg_write(void *self, uint32_t addr, uint64_t data, uint64_t mask)
{
    rn1_csim_t *s = self;
    s->in.reg_we = true;
    s->in.reg_waddr = (uint8_t)addr;
    dev_strobe_write(rn1_reg_read(&s->m, (uint8_t)addr), data, mask, &s->in.reg_wdata,
                     &s->in.reg_wstrb);
}

static uint64_t cs_reg_read(void *self, uint32_t addr)
{
    return addr > 0xFF ? 0 : rn1_reg_read(&((rn1_csim_t *)self)->m, (uint8_t)addr);
}

static void cs_debug(void *self, uint64_t *words)
{
    uint32_t d[RN1_DBG_WORDS];
    rn1_debug(&((rn1_csim_t *)self)->m, d);
    for (unsigned k = 0; k < RN1_DBG_WORDS; k++)
        words[k] = d[k];
}

static void cs_tick(void *self, uint64_t cycle)
{
    rn1_csim_t *s = self;
    (void)cycle;
    rn1_step(&s->m, &s->in);
    s->in.reg_we = false;
}

/* The same bit of the same field as the RTL (harness/rnp/rn1_rtl.cpp). */
static int cs_upset(void *self, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return rn1_upset(&((rn1_csim_t *)self)->m, s->entry, s->bit);
}

static const dev_ops_t rn1_csim_ops = {
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

static void *rn1_create(const dev_design_t *d, dev_impl_t impl, const char *instance,
                        const dev_ops_t **ops, char *err, size_t errlen)
{
    (void)d;
    if (impl == DEV_IMPL_RTL)
        return rn1_rtl_create(instance, ops, err, errlen);
    rn1_csim_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    rn1_init(&s->m);
    s->in.rst_n = true;
    *ops = &rn1_csim_ops;
    return s;
}

/* ---- the RTL as a testbench drives it (harness/core/tb.h): rtl/rn1.v, as rn1_rtl.cpp ------- */

static const dev_rtl_sig_t rn1_sigs[] = {
    {"fwd_i", DEV_IN, 72},   {"bwd_i", DEV_IN, 72},  {"bwd_bc_i", DEV_IN, 8},
    {"fwd_o", DEV_OUT, 72},  {"bwd_o", DEV_OUT, 72}, {"fwd_bc_o", DEV_OUT, 8},
    {"dbg_o", DEV_OUT, 352},
};

/* Port p: f<i> is fwd_i[i*9 +: 9] (rtl/rn1.md section 9), and so on. */
static void rn1_port_sv(const dev_design_t *d, unsigned p, char *buf, size_t len)
{
    (void)d;
    static const char *const bus[6] = {"fwd_i", "bwd_i", "bwd_bc_i", "fwd_o", "bwd_o", "fwd_bc_o"};
    unsigned g = p / 8u, i = p % 8u;
    int bit = g == 2 || g == 5, in = g < 3;
    if (bit)
        snprintf(buf, len, in ? "%s[%u] = w[0];" : "%s[%u]", bus[g], i);
    else
        snprintf(buf, len, in ? "%s[%u +: 9] = w[8:0];" : "%s[%u +: 9]", bus[g], 9u * i);
}

static const dev_rtl_t rn1_rtl = {
    .top = "rn1",
    .sigs = rn1_sigs,
    .nsigs = sizeof rn1_sigs / sizeof rn1_sigs[0],
    .port_sv = rn1_port_sv,
    .words_sv = rnp_words_sv,
};

const dev_design_t rn1_design = {
    .name = "rn1",
    .summary = "MIT Transit RN1: 8x8 circuit-switched crossbar speaking RNP (rtl/rn1.md)",
    .ports = rn1_ports,
    .nports = RN1_NPORTS,
    .regs = rn1_regs,
    .nregs = sizeof rn1_regs / sizeof rn1_regs[0],
    .debug_addrs = rn1_debug_addrs,
    .ndebug = RN1_NDEBUG,
    .record_regs = rn1_record_regs,
    .parse_word = rnp_parse_word,
    .format_word = rnp_format_word,
    .check_config = NULL,
    .parse_stmt = NULL,
    .create = rn1_create,
    .rtl = &rn1_rtl,
    .upsets = rn1_upsets,
    .nupsets = RN1_UPSET_N,
};
