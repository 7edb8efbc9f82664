/*
 * dev.h — the one device interface of ftsim.
 *
 * A *design* (dev_design_t) says what a device looks like from outside: its ports (name,
 * direction, width, word kind), its registers (named fields at addresses), which registers
 * the lockstep comparator reads every cycle, and per-design hooks for parsing and printing
 * words and statements. A *model* (device_t) is one running implementation of a design: the
 * Verilated RTL or the C reference model. The player, the comparator, the recorder and the
 * fuzzer only ever talk to device_t, so they never care which implementation they drive.
 *
 * The core knows no design by name: `device NAME` is resolved through a dev_catalog_t that
 * the caller hands in (the command layer's catalog lists every family; a fuzzer replaying its
 * own reproducer may hand in just its family's).
 *
 * Who owns a design: a fixed design (rn1, lc3, a node) is a static constant with no release
 * hook. A parametric one (a ring, a torus, a network) is built on request, by a family's
 * constructor or by a catalog lookup, and belongs to whoever asked for it: they hand it back
 * with dev_design_release() once every device opened from it is closed. A design that holds
 * another (a torus its node design) holds a fixed one, so nothing is shared and nothing global
 * keeps designs alive. dev_design_release() of a fixed design does nothing, so a caller need
 * not know which kind it got.
 *
 * Cycle protocol (one call sequence per cycle, cycle 0 is the first after reset):
 *   dev_set_inputs()          inputs of this cycle (array indexed by port number)
 *   dev_reg_write()           optional, at most one per cycle: takes effect next cycle
 *   dev_get_outputs()         outputs of this cycle (registered: independent of the inputs)
 *   dev_reg_read()/dev_debug() register values during this cycle
 *   dev_tick()                the clock edge that ends the cycle
 * Waveform time: cycle t spans [10 t, 10 t + 10) ns; the edge that starts cycle t is at 10 t.
 */
#ifndef FTSIM_DEV_H
#define FTSIM_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEV_NS_PER_CYCLE 10u /* the one mapping of cycles to waveform time */
#define DEV_ERR_LEN      256u

typedef enum { DEV_IN = 0, DEV_OUT = 1 } dev_dir_t;

typedef struct dev_port {
    const char
        *name; /* vector name, e.g. "f0", "b3", "f0.bc"; an input and an output may share it */
    dev_dir_t dir;
    uint8_t width; /* bits, 1..64 */
    uint8_t kind;  /* design-defined word kind, handed to the word hooks */
    uint64_t idle; /* outputs: the value when nothing happens (strict checks and golden
                       * recordings skip it); 0 for most, 1 for a ready or signal-detect bit */
} dev_port_t;

enum {
    DEV_REG_RO = 1u << 0,     /* read-only */
    DEV_REG_CONFIG = 1u << 1, /* a configuration key: settable by `config KEY=VALUE` */
};

typedef struct dev_reg {
    const char *name; /* vector name: "errors", "seed", "f0.state" */
    uint32_t addr;
    uint8_t lsb, width; /* the field: bits [lsb +: width] of the register */
    uint8_t flags;
    uint64_t dflt;            /* configuration default (config keys only) */
    const char *const *enums; /* optional value names indexed by value, NULL-terminated */
} dev_reg_t;

/* The implementations: the Verilated RTL, the C reference model, and the Verilated gate-level
 * netlist of the RTL (a loadable model of its own, gate.h: opened by the core, not by the
 * design's create hook). */
typedef enum { DEV_IMPL_RTL = 0, DEV_IMPL_CSIM = 1, DEV_IMPL_GATE = 2 } dev_impl_t;

/* ---- Upsets: one stored bit of a design flipped (vectors/README.md, "Upsets") -------------
 * A design's upset map lists its state elements: every register field that holds state, its
 * tables and each flip-flop group, by name. Both implementations flip the same bit of the same
 * element at the start of a cycle, so lockstep goes on after it. An element the C model does
 * not keep (a FIFO pointer where it keeps a count) is RTL-only: its upsets run on the RTL
 * alone, against a run without the upset. */
enum {
    DEV_UPSET_RTL_ONLY = 1u << 0, /* the C model keeps no such state */
};
#define DEV_UPSET_MASKED (-2) /* dev_design_t.upset_live: never read in this design */

typedef struct dev_upset {
    const char *name; /* "lfsr", "f0.state"; a table's name without its index ("lrt") */
    uint8_t width;    /* bits of one element, 1..64 */
    uint8_t flags;    /* DEV_UPSET_* */
    uint32_t count;   /* 0: one element; else a table, NAME[0] .. NAME[count-1] */
    const char *rtl;  /* the RTL state it is (signal and bits), as the contract names it */
    const char *csim; /* the C model's field, NULL for an RTL-only element */
    const char *note; /* what a value no state uses does, NULL when every value is one */
    /* A table read through the register port: the index register and the data register
     * (register names of the design), NULL for anything else. Checks read entries this way. */
    const char *via_index, *via_data;
    /* Where a simulator reaches it from outside (ftsim export-tb, vec-json): a template, relative
     * to the design's module, VAR[BIT] or VAR[WORD][BIT]. VAR is the Verilog variable's
     * hierarchical name (generate scopes as gen_fport[3]; "{I}" in it stands for the entry's
     * index, as in p{I}_q); WORD, for an unpacked array (a memory), the word; BIT the bit of the
     * word or vector. WORD and BIT are integer expressions of I (the entry's index) and B (the
     * bit flipped) with + - * / % and parentheses, e.g. sl_q[I*42+40+B], lrt_mem[I][B].
     * NULL: no simulator reaches it from outside (export-tb and vec-json refuse its upsets). */
    const char *tb;
} dev_upset_t;

/* One upset resolved against a design: what a vector's `@N seu NAME[I] bitB` names. */
typedef struct dev_upset_bit {
    const dev_upset_t *u; /* its map entry (a composite's: the part's entry) */
    uint32_t entry;       /* u's number in its design's map (the part's map in a composite) */
    uint32_t part;        /* a composite's part (node, router) that holds it; 0 otherwise */
    uint32_t index;       /* the table entry; 0 for one element */
    uint8_t bit;
} dev_upset_bit_t;

typedef struct dev device_t;
typedef struct dev_design dev_design_t;

/* A port of the RTL module, other than the clock, the reset and the register port that every
 * design's module has under the same names (clk_i, rst_ni, reg_we_i, reg_waddr_i[7:0],
 * reg_wdata_i[63:0], reg_wstrb_i[7:0], reg_raddr_i[7:0], reg_rdata_o[63:0]). An input the
 * harness never drives is tied to 0. */
typedef struct dev_rtl_sig {
    const char *name; /* "fwd_i" */
    dev_dir_t dir;
    unsigned width; /* bits */
} dev_rtl_sig_t;

typedef struct dev_rtl_param {
    const char *name; /* "P2s" */
    unsigned value;
} dev_rtl_param_t;

/* The design's RTL as a testbench sees it (ftsim export-tb; harness/core/tb.h), told by the
 * family beside its Verilator shim, which does the same by hand. NULL in a design that has no
 * single RTL module (one a family composes from several devices and the wires between them). */
typedef struct dev_rtl {
    const char *top; /* the module, as rtl/files.txt names the design */
    const dev_rtl_param_t *params;
    unsigned nparams;
    const dev_rtl_sig_t *sigs;
    unsigned nsigs;
    /* Verilog for port p of the design: an input's statement (or begin ... end) that drives the
     * module from the 64-bit word `w`; an output's expression of the word the harness reads. */
    void (*port_sv)(const dev_design_t *d, unsigned p, char *buf, size_t len);
    /* Writes `function automatic string ft_word(input int kind, input int hint, input logic
     * [63:0] w)`: the word as format_word prints it (tb.h: the helpers it may call). */
    void (*words_sv)(FILE *f);
} dev_rtl_t;

/* What one implementation provides. `self` is the implementation's own state. */
typedef struct dev_ops {
    void (*destroy)(void *self);
    void (*set_reset)(void *self, bool asserted);
    void (*set_inputs)(void *self, const uint64_t *in); /* in[port], inputs only */
    void (*get_outputs)(void *self, uint64_t *out);     /* out[port], outputs only */
    void (*reg_write)(void *self, uint32_t addr, uint64_t data, uint64_t mask);
    uint64_t (*reg_read)(void *self, uint32_t addr);
    void (*debug)(void *self, uint64_t *words); /* design->ndebug words */
    void (*tick)(void *self, uint64_t cycle);   /* cycle: the one that ends (for traces) */
    int (*trace_open)(void *self, const char *path, char *err, size_t errlen);
    void (*trace_close)(void *self, uint64_t cycle);
    /* Non-zero once the implementation flagged an internal error (an RTL assertion): 1; 2
     * when an upset came before it in this process (dev_ops_t.upset), which makes it an
     * observation the run records, not a mismatch (the RTL's assertions are then off for the
     * rest of the run, so that one that fires every cycle is reported once). */
    int (*internal_error)(void *self);
    /* A design-specific action in the current cycle (a fault, a cable pull): the text of a
     * vector statement `@N WORD ...` whose WORD the design lists in control_words. */
    int (*control)(void *self, const char *cmd, char *err, size_t errlen);
    /* Optional (NULL: not supported). The clock edge that ends `cycle`, as tick, with the
     * inputs held; returns max if the implementation can tell that the edge left its state
     * exactly as it was (so the max - 1 edges after it, with the same inputs, would change
     * nothing either, and they count as done), else 1. Long quiet stretches of a simulation
     * (a driver's 200 ms timer with no traffic) then cost one edge. */
    uint64_t (*skip)(void *self, uint64_t cycle, uint64_t max);
    /* Optional (NULL: the implementation writes no waveform). Dump only cycles from..to of
     * the open waveform (to 0: to the end), as ftsim_vl_trace_window (harness/core/vl_trace.h)
     * says: outside, nothing is dumped and nothing is spent on dumps. */
    void (*trace_window)(void *self, uint64_t from, uint64_t to);
    /* Optional (NULL: no upsets). Flip bit s->bit of element s->index of the design's upset
     * s->entry (a composite: of its part s->part) at the start of the current cycle, before
     * its outputs and registers are read: everything the device shows or computes from now on
     * sees it. It is no register write and performs no configuration cycle. Returns 0, or -1
     * with a message (an RTL-only element on the C model). */
    int (*upset)(void *self, const dev_upset_bit_t *s, char *err, size_t errlen);
    /* Optional (NULL: the implementation cannot be part of a shared waveform). A network of
     * models in one waveform (harness/core/vl_trace.h): trace_attach hooks the model to the
     * shared writer before it opens; phase runs the clock edge in parts that the network
     * interleaves with the dumps: 0 the inputs settled, the clock high (dumped at 10 t ns); 1
     * the clock low (dumped at 10 t + 5 ns); 2 the rising edge. Phase 2 alone is a whole edge
     * with no dump. After a last dump (phases 0, dump), phase 1 puts the clock low again so
     * that the next phase 2 is an edge. */
    void (*trace_attach)(void *self, void *trace);
    void (*phase)(void *self, int phase);
} dev_ops_t;

struct dev_design {
    const char *name;    /* `device NAME` */
    const char *summary; /* one line for `ftsim info` */
    const dev_port_t *ports;
    unsigned nports;
    const dev_reg_t *regs;
    unsigned nregs;
    /* Debug state compared every cycle in lockstep: ndebug register addresses. */
    const uint32_t *debug_addrs;
    unsigned ndebug;
    /* Registers that `ftsim record` writes into golden vectors whenever they change. */
    const char *const *record_regs;

    /* Word hooks: parse a word of the given kind (care = bits that matter; X gives 0);
     * format a word as the vector language writes it. */
    int (*parse_word)(unsigned kind, const char *text, uint64_t *value, uint64_t *care,
                      uint8_t *hint, char *err, size_t errlen);
    /* hint: how the word was written in the vector (0: the design's default spelling), so
     * that a message prints an expectation and what was seen the way the vector wrote it. */
    void (*format_word)(unsigned kind, uint64_t value, uint8_t hint, char *buf, size_t len);
    /* Words that span cycles (a packet macro): the words of consecutive cycles, their count,
     * 0 when text is not one, -1 on error. NULL: none. */
    int (*parse_seq)(unsigned kind, const char *text, uint64_t *words, unsigned max, char *err,
                     size_t errlen);
    /* Refuse a configuration value the design cannot take (NULL: all accepted). */
    int (*check_config)(const dev_reg_t *key, uint64_t value, char *err, size_t errlen);
    /* Device-specific statements after `@N` (NULL: none). Returns 1 if handled, 0 if the
     * statement is not the design's, -1 on error (message in err). */
    int (*parse_stmt)(void *vec, uint64_t cycle, unsigned line, char **tok, int ntok, char *err,
                      size_t errlen);

    /* Statements `@N WORD ...` handed whole to dev_ops_t.control in cycle N (NULL: none),
     * and their check at parse time. */
    const char *const *control_words;
    int (*check_control)(const dev_design_t *d, const char *text, char *err, size_t errlen);

    /* Create an implementation of design d (this design: a family reaches its own design
     * struct from it, so one function serves every design of the family). Returns NULL with
     * a message when it cannot. */
    void *(*create)(const dev_design_t *d, dev_impl_t impl, const char *instance,
                    const dev_ops_t **ops, char *err, size_t errlen);
    /* Free a design built on request (see the top of this file); NULL for a fixed design. */
    void (*release)(const dev_design_t *d);
    /* Its RTL as a testbench drives it (NULL: none; ftsim export-tb refuses the design). */
    const dev_rtl_t *rtl;

    /* The upset map (vectors/README.md "Upsets"; `ftsim info DEVICE --upsets`). */
    const dev_upset_t *upsets;
    unsigned nupsets;
    /* A composite's upsets are its parts' under a prefix, as its registers are: part_design's
     * map, each name behind part_prefix(d, k) for part k (NULL: the design's own map). */
    const dev_design_t *part_design;
    unsigned nparts;
    void (*part_prefix)(const dev_design_t *d, unsigned k, char *buf, size_t len);
    /* Optional, a search aid for upset checks (ftsim upsetcheck): in which entries bit `bit` of
     * element `entry` (of part `part` in a composite) holds a live value in m, a C model of
     * this design, in its current cycle: a value a later cycle reads before it is overwritten.
     * Up to max indices into idx; returns how many there are (one element: 1 live, 0 not), or
     * -1 when the design has no opinion of that element, or DEV_UPSET_MASKED when nothing of this
     * design ever reads it (a part's register the design around it does not look at): no flip
     * of it can be seen, and a check shows that none is. */
    int (*upset_live)(device_t *m, uint32_t part, uint32_t entry, unsigned bit, uint32_t *idx,
                      unsigned max);
};

struct dev {
    const dev_design_t *design;
    const dev_ops_t *ops;
    void *self;
    dev_impl_t impl;
    uint64_t cycle; /* current cycle; 0 = first after reset */
};

/* A register write: bits `mask` of register `addr` take `data`. */
typedef struct dev_write {
    uint32_t addr;
    uint64_t data, mask;
} dev_write_t;

/* A family's own design struct around its dev_design_t member `member`, from the design its
 * hooks are handed (create, release, check_control). */
#define DEV_DESIGN_OF(d, type, member) \
    ((const type *)(const void *)((const char *)(d)-offsetof(type, member)))

/* Hand back a design built on request (its release hook); nothing for a fixed design or NULL. */
void dev_design_release(const dev_design_t *d);

/* A family's lookup: the design `name` names, built for the caller (who releases it), or NULL
 * when the name is not one of the family's. */
typedef const dev_design_t *(*dev_lookup_t)(const char *name);

/* The designs `device NAME` can name. */
typedef struct dev_catalog {
    const dev_design_t *const *designs; /* the fixed designs, NULL-terminated (or NULL) */
    const dev_lookup_t *lookups;        /* the parametric families, NULL-terminated (or NULL) */
    const char *families;               /* how to name the parametric ones, for messages */
} dev_catalog_t;

/* The design `name` names (case-insensitive): a fixed one first, else the first family's
 * lookup that knows it. NULL if none. Release it with dev_design_release(). */
const dev_design_t *dev_catalog_find(const dev_catalog_t *c, const char *name);

const char *dev_impl_name(dev_impl_t impl);

/* Open one implementation; NULL with a message on failure. dev_open_named gives it an
 * instance name (a network's routers: their scope in a shared waveform). */
device_t *dev_open(const dev_design_t *d, dev_impl_t impl, char *err, size_t errlen);
device_t *dev_open_named(const dev_design_t *d, dev_impl_t impl, const char *name, char *err,
                         size_t errlen);
void dev_close(device_t *dev);

/* Reset: reset held for two cycles, then each configuration write in its own reset cycle,
 * then released; the device is then in cycle 0 (rtl/rn1.md, "Cycle, reset and configuration"). */
void dev_reset(device_t *dev, const dev_write_t *writes, unsigned nwrites);

static inline void dev_set_inputs(device_t *d, const uint64_t *in)
{
    d->ops->set_inputs(d->self, in);
}
static inline void dev_get_outputs(device_t *d, uint64_t *out)
{
    d->ops->get_outputs(d->self, out);
}
static inline void dev_reg_write(device_t *d, const dev_write_t *w)
{
    d->ops->reg_write(d->self, w->addr, w->data, w->mask);
}
static inline uint64_t dev_reg_read(device_t *d, uint32_t addr)
{
    return d->ops->reg_read(d->self, addr);
}
static inline void dev_debug(device_t *d, uint64_t *words) { d->ops->debug(d->self, words); }
static inline void dev_tick(device_t *d)
{
    d->ops->tick(d->self, d->cycle);
    d->cycle++;
}
/* Up to max clock edges with the inputs held: one edge, or max of them when the device can
 * tell the rest would change nothing (dev_ops_t.skip). Returns the edges done. */
static inline uint64_t dev_skip(device_t *d, uint64_t max)
{
    uint64_t k = 1;
    if (max > 1 && d->ops->skip)
        k = d->ops->skip(d->self, d->cycle, max);
    else
        d->ops->tick(d->self, d->cycle);
    d->cycle += k;
    return k;
}
int dev_trace_open(device_t *d, const char *path, char *err, size_t errlen);
/* A waveform of cycles from..to only (to 0: to the end of the run; from 0, to 0: every cycle,
 * as dev_trace_open), on the run's own time axis (cycle N at N x 10 ns). */
int dev_trace_open_window(device_t *d, const char *path, uint64_t from, uint64_t to, char *err,
                          size_t errlen);
static inline int dev_control(device_t *d, const char *cmd, char *err, size_t errlen)
{
    return d->ops->control(d->self, cmd, err, errlen);
}
void dev_trace_close(device_t *d);

/* An upset in the current cycle (dev_ops_t.upset); -1 with a message when the device takes
 * none. */
int dev_upset(device_t *d, const dev_upset_bit_t *s, char *err, size_t errlen);

/* Resolve `NAME` or `NAME[I]` and `bitB` against d's upset map (a composite: its parts' by
 * prefix): 0 and *s, or -1 with a message (an unknown name, an index or bit out of range). */
int dev_upset_find(const dev_design_t *d, const char *target, const char *bit, dev_upset_bit_t *s,
                   char *err, size_t errlen);
/* The statement text of an upset, `NAME bitB` or `NAME[0xI] bitB` (the part's prefix too). */
void dev_upset_format(const dev_design_t *d, const dev_upset_bit_t *s, char *buf, size_t len);

/* An upset's site in the RTL, from its map entry's tb template (dev_upset_t.tb): the variable
 * (its hierarchical name relative to the design's module), the word of a memory (-1: a
 * vector) and the bit. */
typedef struct dev_upset_site {
    char var[160];
    int64_t word;
    int64_t pos;
} dev_upset_site_t;
/* Split a tb template into VAR, WORD (len 0: none) and BIT: 0, or -1 if it is not one. */
typedef struct dev_tb_parts {
    const char *var, *word, *bit;
    size_t var_len, word_len, bit_len;
} dev_tb_parts_t;
int dev_upset_tb_parts(const char *tb, dev_tb_parts_t *p);
/* The value of a WORD or BIT expression of a template for index i and bit b: 0, or -1. */
int dev_upset_tb_eval(const char *expr, size_t len, uint32_t i, unsigned b, int64_t *out);
/* Upset s's site: 0, or -1 with a message (no tb template, or a malformed one). */
int dev_upset_site(const dev_upset_bit_t *s, dev_upset_site_t *site, char *err, size_t errlen);

/* Defaults for a C model's operations: it writes no waveform and flags no internal error. */
int dev_csim_trace_open(void *self, const char *path, char *err, size_t errlen);
void dev_csim_trace_close(void *self, uint64_t cycle);
int dev_csim_internal_error(void *self);
/* dev_ops_t.control of a design with no control statements: refuses every one. */
int dev_no_control(void *self, const char *cmd, char *err, size_t errlen);

/* A masked register write as a register port with byte strobes takes it (the RTL of every
 * design, and the C models that mirror it): the mask widened to byte strobes, the bytes'
 * other bits taken from the register's current value. */
void dev_strobe_write(uint64_t cur, uint64_t data, uint64_t mask, uint64_t *wdata, uint8_t *wstrb);

/* Lookups on a design (case-insensitive names). -1 when absent. */
int dev_port_index(const dev_design_t *d, const char *name, dev_dir_t dir);
int dev_reg_index(const dev_design_t *d, const char *name);

/* Register fields. */
static inline uint64_t dev_field_mask(const dev_reg_t *r)
{
    return (r->width >= 64 ? ~0ull : ((1ull << r->width) - 1u)) << r->lsb;
}
static inline uint64_t dev_field_get(const dev_reg_t *r, uint64_t regval)
{
    return (regval & dev_field_mask(r)) >> r->lsb;
}
/* Parse a register value: decimal, 0x hex, or one of the field's enum names. */
int dev_parse_value(const dev_reg_t *r, const char *text, uint64_t *value, char *err,
                    size_t errlen);
/* Print a register field value: its enum name where it has one, else decimal or hex. */
void dev_format_value(const dev_reg_t *r, uint64_t value, char *buf, size_t len);
/* Format a word on a port with the design's hook. */
void dev_format_port_word(const dev_design_t *d, unsigned port, uint64_t value, uint8_t hint,
                          char *buf, size_t len);

/* The configuration writes that set every config key to its default, merged per address. */
unsigned dev_config_defaults(const dev_design_t *d, dev_write_t *w, unsigned max);
/* Merge a field value into a list of writes (one per address). Returns the new count. */
unsigned dev_write_merge(dev_write_t *w, unsigned n, unsigned max, const dev_reg_t *r,
                         uint64_t value);

#ifdef __cplusplus
}
#endif
#endif
