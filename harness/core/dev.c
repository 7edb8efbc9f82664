/* dev.c — the generic parts of the device interface: opening models, catalog lookups,
 * defaults that every family shares. */
#include "dev.h"
#include "gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *dev_impl_name(dev_impl_t impl)
{
    return impl == DEV_IMPL_RTL ? "rtl" : impl == DEV_IMPL_GATE ? "gate" : "csim";
}

device_t *dev_open(const dev_design_t *d, dev_impl_t impl, char *err, size_t errlen)
{
    return dev_open_named(d, impl, NULL, err, errlen);
}

device_t *dev_open_named(const dev_design_t *d, dev_impl_t impl, const char *name, char *err,
                         size_t errlen)
{
    const dev_ops_t *ops = NULL;
    void *self = impl == DEV_IMPL_GATE ? gate_create(d, name, &ops, err, errlen)
                                       : d->create(d, impl, name, &ops, err, errlen);
    if (!self)
        return NULL;
    device_t *dev = calloc(1, sizeof *dev);
    if (!dev) {
        ops->destroy(self);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    dev->design = d;
    dev->ops = ops;
    dev->self = self;
    dev->impl = impl;
    return dev;
}

void dev_design_release(const dev_design_t *d)
{
    if (d && d->release)
        d->release(d);
}

const dev_design_t *dev_catalog_find(const dev_catalog_t *c, const char *name)
{
    for (unsigned i = 0; c->designs && c->designs[i]; i++)
        if (strcasecmp(c->designs[i]->name, name) == 0)
            return c->designs[i];
    for (unsigned i = 0; c->lookups && c->lookups[i]; i++) {
        const dev_design_t *d = c->lookups[i](name);
        if (d)
            return d;
    }
    return NULL;
}

void dev_close(device_t *dev)
{
    if (!dev)
        return;
    dev->ops->destroy(dev->self);
    free(dev);
}

void dev_reset(device_t *dev, const dev_write_t *writes, unsigned nwrites)
{
    uint64_t *idle = calloc(dev->design->nports, sizeof *idle);
    dev->ops->set_reset(dev->self, true);
    if (idle)
        dev->ops->set_inputs(dev->self, idle);
    free(idle);
    for (int i = 0; i < 2; i++)
        dev->ops->tick(dev->self, UINT64_MAX); /* UINT64_MAX: a reset cycle, never traced */
    for (unsigned i = 0; i < nwrites; i++) {
        dev->ops->reg_write(dev->self, writes[i].addr, writes[i].data, writes[i].mask);
        dev->ops->tick(dev->self, UINT64_MAX);
    }
    dev->ops->set_reset(dev->self, false);
    dev->cycle = 0;
}

int dev_trace_open(device_t *d, const char *path, char *err, size_t errlen)
{
    return d->ops->trace_open(d->self, path, err, errlen);
}

int dev_trace_open_window(device_t *d, const char *path, uint64_t from, uint64_t to, char *err,
                          size_t errlen)
{
    if ((from || to) && !d->ops->trace_window) {
        snprintf(err, errlen, "%s: this model cannot dump a window of cycles", path);
        return -1;
    }
    if (d->ops->trace_open(d->self, path, err, errlen) < 0)
        return -1;
    if (from || to)
        d->ops->trace_window(d->self, from, to);
    return 0;
}

void dev_trace_close(device_t *d) { d->ops->trace_close(d->self, d->cycle); }

int dev_csim_trace_open(void *self, const char *path, char *err, size_t errlen)
{
    (void)self;
    snprintf(err, errlen, "%s: the C model writes no waveform; use --model rtl or both", path);
    return -1;
}

void dev_csim_trace_close(void *self, uint64_t cycle)
{
    (void)self;
    (void)cycle;
}

int dev_csim_internal_error(void *self)
{
    (void)self;
    return 0;
}

int dev_no_control(void *self, const char *cmd, char *err, size_t errlen)
{
    (void)self;
    snprintf(err, errlen, "the device takes no control statement ('%s')", cmd);
    return -1;
}

void dev_strobe_write(uint64_t cur, uint64_t data, uint64_t mask, uint64_t *wdata, uint8_t *wstrb)
{
    uint8_t s = 0;
    for (unsigned b = 0; b < 8; b++)
        if ((mask >> (8 * b)) & 0xFFu)
            s |= (uint8_t)(1u << b);
    *wdata = (cur & ~mask) | (data & mask);
    *wstrb = s;
}

int dev_port_index(const dev_design_t *d, const char *name, dev_dir_t dir)
{
    for (unsigned i = 0; i < d->nports; i++)
        if (d->ports[i].dir == dir && strcasecmp(d->ports[i].name, name) == 0)
            return (int)i;
    return -1;
}

int dev_reg_index(const dev_design_t *d, const char *name)
{
    for (unsigned i = 0; i < d->nregs; i++)
        if (strcasecmp(d->regs[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Strict unsigned parse: decimal or 0x hex, whole string, no sign, no overflow. */
static int parse_u64(const char *s, uint64_t *v)
{
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    uint64_t acc = 0;
    for (; *s; s++) {
        int dgt;
        if (*s >= '0' && *s <= '9')
            dgt = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            dgt = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            dgt = *s - 'A' + 10;
        else
            return -1;
        if (acc > (UINT64_MAX - (uint64_t)dgt) / (uint64_t)base)
            return -2;
        acc = acc * (uint64_t)base + (uint64_t)dgt;
    }
    *v = acc;
    return 0;
}

int dev_parse_value(const dev_reg_t *r, const char *text, uint64_t *value, char *err, size_t errlen)
{
    if (r->enums)
        for (unsigned i = 0; r->enums[i]; i++)
            if (strcasecmp(r->enums[i], text) == 0) {
                *value = i;
                return 0;
            }
    uint64_t v;
    int rc = parse_u64(text, &v);
    if (rc < 0) {
        if (r->enums) {
            char names[160] = "";
            for (unsigned i = 0; r->enums[i]; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         r->enums[i]);
            snprintf(err, errlen, "bad value '%s' for %s (a number or one of: %s)", text, r->name,
                     names);
        } else {
            snprintf(err, errlen, "bad value '%s' for %s (decimal, or hex with 0x)", text, r->name);
        }
        return -1;
    }
    uint64_t max = r->width >= 64 ? UINT64_MAX : (1ull << r->width) - 1u;
    if (rc < -1 || v > max) {
        snprintf(err, errlen, "value '%s' does not fit %s (%u bits, at most 0x%llx)", text, r->name,
                 r->width, (unsigned long long)max);
        return -1;
    }
    *value = v;
    return 0;
}

void dev_format_value(const dev_reg_t *r, uint64_t value, char *buf, size_t len)
{
    if (r->enums) {
        for (unsigned i = 0; r->enums[i]; i++)
            if (i == value) {
                snprintf(buf, len, "%s", r->enums[i]);
                return;
            }
    }
    if (value < 10)
        snprintf(buf, len, "%llu", (unsigned long long)value);
    else
        snprintf(buf, len, "0x%llx", (unsigned long long)value);
}

void dev_format_port_word(const dev_design_t *d, unsigned port, uint64_t value, uint8_t hint,
                          char *buf, size_t len)
{
    d->format_word(d->ports[port].kind, value, hint, buf, len);
}

unsigned dev_write_merge(dev_write_t *w, unsigned n, unsigned max, const dev_reg_t *r,
                         uint64_t value)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (w[i].addr == r->addr)
            break;
    if (i == n) {
        if (n == max)
            return n;
        w[n].addr = r->addr;
        w[n].data = 0;
        w[n].mask = 0;
        n++;
    }
    uint64_t m = dev_field_mask(r);
    w[i].data = (w[i].data & ~m) | ((value << r->lsb) & m);
    w[i].mask |= m;
    return n;
}

unsigned dev_config_defaults(const dev_design_t *d, dev_write_t *w, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < d->nregs; i++)
        if (d->regs[i].flags & DEV_REG_CONFIG)
            n = dev_write_merge(w, n, max, &d->regs[i], d->regs[i].dflt);
    return n;
}

/* ---- upsets --------------------------------------------------------------------------------- */

int dev_upset(device_t *d, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    if (!d->ops->upset) {
        snprintf(err, errlen, "%s (%s) takes no upset", d->design->name, dev_impl_name(d->impl));
        return -1;
    }
    return d->ops->upset(d->self, s, err, errlen);
}

/* A decimal or 0x-hex number, all of s, at most max. */
static int parse_num(const char *s, size_t n, uint64_t max, uint64_t *v)
{
    int hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t i = hex ? 2 : 0;
    uint64_t acc = 0;
    if (i == n)
        return -1;
    for (; i < n; i++) {
        unsigned c = (unsigned char)s[i], dgt;
        if (c >= '0' && c <= '9')
            dgt = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
            dgt = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
            dgt = c - 'A' + 10;
        else
            return -1;
        acc = acc * (hex ? 16u : 10u) + dgt;
        if (acc > max)
            return -1;
    }
    *v = acc;
    return 0;
}

/* The first names of d's map, for a message. */
static void list_upsets(const dev_design_t *d, char *buf, size_t len)
{
    buf[0] = 0;
    for (unsigned i = 0; i < d->nupsets; i++) {
        size_t n = strlen(buf);
        if (n + 24 > len) {
            snprintf(buf + n, len - n, " ...");
            return;
        }
        snprintf(buf + n, len - n, "%s%s%s", n ? " " : "", d->upsets[i].name,
                 d->upsets[i].count ? "[I]" : "");
    }
}

static int find_own(const dev_design_t *d, const char *target, uint64_t bit, dev_upset_bit_t *s,
                    char *err, size_t errlen)
{
    const char *br = strchr(target, '[');
    size_t nlen = br ? (size_t)(br - target) : strlen(target);
    int has_index = br != NULL;
    uint64_t index = 0;
    if (has_index) {
        size_t tl = strlen(target);
        if (tl < nlen + 3 || target[tl - 1] != ']' ||
            parse_num(br + 1, tl - nlen - 2, 0xFFFFFFFFu, &index) < 0) {
            snprintf(err, errlen,
                     "bad upset target '%s' (want NAME or NAME[I], I decimal or 0x hex)", target);
            return -1;
        }
    }
    for (unsigned i = 0; i < d->nupsets; i++) {
        const dev_upset_t *u = &d->upsets[i];
        if (strlen(u->name) != nlen || strncasecmp(u->name, target, nlen) != 0)
            continue;
        if (u->count && !has_index) {
            snprintf(err, errlen, "'%s' of %s is a table of %u entries: name one as %s[I]", u->name,
                     d->name, u->count, u->name);
            return -1;
        }
        if (!u->count && has_index) {
            snprintf(err, errlen, "'%s' of %s is one element, not a table: drop the [%s", u->name,
                     d->name, br + 1);
            return -1;
        }
        if (u->count && index >= u->count) {
            snprintf(err, errlen, "index 0x%llX is beyond %s of %s (%u entries, 0 to 0x%X)",
                     (unsigned long long)index, u->name, d->name, u->count, u->count - 1);
            return -1;
        }
        if (bit >= u->width) {
            snprintf(err, errlen, "bit %llu is beyond %s of %s (%u bit%s: bit0 to bit%u)",
                     (unsigned long long)bit, u->name, d->name, u->width, u->width == 1 ? "" : "s",
                     u->width - 1u);
            return -1;
        }
        *s = (dev_upset_bit_t){.u = u, .entry = i, .index = (uint32_t)index, .bit = (uint8_t)bit};
        return 0;
    }
    char names[120];
    list_upsets(d, names, sizeof names);
    snprintf(err, errlen, "'%.*s' is not in the upset map of %s (ftsim info %s --upsets: %s)",
             (int)nlen, target, d->name, d->name, names);
    return -1;
}

int dev_upset_find(const dev_design_t *d, const char *target, const char *bit, dev_upset_bit_t *s,
                   char *err, size_t errlen)
{
    uint64_t b;
    if (strncasecmp(bit, "bit", 3) != 0 || parse_num(bit + 3, strlen(bit + 3), 63, &b) < 0 ||
        (bit[3] == '0' && (bit[4] == 'x' || bit[4] == 'X'))) {
        snprintf(err, errlen, "bad bit '%s' (want bitB, B decimal)", bit);
        return -1;
    }
    if (!d->part_design) {
        if (!d->nupsets) {
            snprintf(err, errlen, "%s has no upset map", d->name);
            return -1;
        }
        return find_own(d, target, b, s, err, errlen);
    }
    char pre[64];
    for (unsigned k = 0; k < d->nparts; k++) {
        d->part_prefix(d, k, pre, sizeof pre);
        size_t n = strlen(pre);
        if (strncasecmp(target, pre, n) != 0)
            continue;
        if (find_own(d->part_design, target + n, b, s, err, errlen) < 0) {
            char why[DEV_ERR_LEN];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, errlen, "part %s of %s: %s", pre, d->name, why);
            return -1;
        }
        s->part = k;
        return 0;
    }
    d->part_prefix(d, 0, pre, sizeof pre);
    snprintf(err, errlen,
             "'%s' names no part of %s: its upsets are its parts' under their prefix, e.g. %s "
             "and a name of ftsim info %s --upsets",
             target, d->name, pre, d->part_design->name);
    return -1;
}

void dev_upset_format(const dev_design_t *d, const dev_upset_bit_t *s, char *buf, size_t len)
{
    char pre[64] = "";
    if (d->part_design)
        d->part_prefix(d, s->part, pre, sizeof pre);
    if (s->u->count)
        snprintf(buf, len, "%s%s[0x%X] bit%u", pre, s->u->name, s->index, s->bit);
    else
        snprintf(buf, len, "%s%s bit%u", pre, s->u->name, s->bit);
}

/* ---- where a simulator reaches an upset (dev_upset_t.tb) ---------------------------------- */

/* The bracket group ending at s[end] (a ']'): the index of its '[', or -1. */
static long group_start(const char *s, long end)
{
    int depth = 0;
    for (long k = end; k >= 0; k--) {
        if (s[k] == ']')
            depth++;
        else if (s[k] == '[' && --depth == 0)
            return k;
    }
    return -1;
}

int dev_upset_tb_parts(const char *tb, dev_tb_parts_t *p)
{
    long n = tb ? (long)strlen(tb) : 0;
    if (n < 4 || tb[n - 1] != ']')
        return -1;
    long b = group_start(tb, n - 1);
    if (b <= 0)
        return -1;
    *p = (dev_tb_parts_t){.var = tb, .var_len = (size_t)b, .bit = tb + b + 1,
                          .bit_len = (size_t)(n - 2 - b)};
    if (tb[b - 1] == ']') {
        long w = group_start(tb, b - 1);
        /* a generate scope's index is followed by '.', a memory's word by the bit */
        if (w <= 0)
            return -1;
        p->var_len = (size_t)w;
        p->word = tb + w + 1;
        p->word_len = (size_t)(b - 2 - w);
    }
    return p->var_len && p->bit_len ? 0 : -1;
}

typedef struct tb_expr {
    const char *s, *end;
    uint32_t i;
    unsigned b;
    int bad;
} tb_expr_t;

static int64_t tb_sum(tb_expr_t *x);

static int64_t tb_factor(tb_expr_t *x)
{
    while (x->s < x->end && *x->s == ' ')
        x->s++;
    if (x->s >= x->end) {
        x->bad = 1;
        return 0;
    }
    char c = *x->s++;
    if (c == 'I')
        return x->i;
    if (c == 'B')
        return x->b;
    if (c == '-')
        return -tb_factor(x);
    if (c == '(') {
        int64_t v = tb_sum(x);
        if (x->s >= x->end || *x->s++ != ')')
            x->bad = 1;
        return v;
    }
    if (c < '0' || c > '9') {
        x->bad = 1;
        return 0;
    }
    int64_t v = c - '0';
    while (x->s < x->end && *x->s >= '0' && *x->s <= '9' && v < (1ll << 40))
        v = v * 10 + (*x->s++ - '0');
    return v;
}

static int64_t tb_product(tb_expr_t *x)
{
    int64_t v = tb_factor(x);
    while (!x->bad && x->s < x->end && (*x->s == '*' || *x->s == '/' || *x->s == '%')) {
        char op = *x->s++;
        int64_t r = tb_factor(x);
        if (op != '*' && r == 0)
            x->bad = 1;
        else
            v = op == '*' ? v * r : op == '/' ? v / r : v % r;
    }
    return v;
}

static int64_t tb_sum(tb_expr_t *x)
{
    int64_t v = tb_product(x);
    while (!x->bad && x->s < x->end && (*x->s == '+' || *x->s == '-')) {
        char op = *x->s++;
        int64_t r = tb_product(x);
        v = op == '+' ? v + r : v - r;
    }
    return v;
}

int dev_upset_tb_eval(const char *expr, size_t len, uint32_t i, unsigned b, int64_t *out)
{
    tb_expr_t x = {.s = expr, .end = expr + len, .i = i, .b = b};
    int64_t v = tb_sum(&x);
    if (x.bad || x.s != x.end)
        return -1;
    *out = v;
    return 0;
}

int dev_upset_site(const dev_upset_bit_t *s, dev_upset_site_t *site, char *err, size_t errlen)
{
    const dev_upset_t *u = s->u;
    dev_tb_parts_t p;
    if (!u->tb) {
        snprintf(err, errlen, "'%s' (%s) has no site a simulator reaches from outside", u->name,
                 u->rtl ? u->rtl : "no RTL state");
        return -1;
    }
    if (dev_upset_tb_parts(u->tb, &p) < 0 || p.var_len >= sizeof site->var) {
        snprintf(err, errlen, "'%s': a malformed tb template '%s'", u->name, u->tb);
        return -1;
    }
    /* VAR with {I} replaced by the index */
    size_t o = 0;
    for (size_t k = 0; k < p.var_len && o + 12 < sizeof site->var; k++) {
        if (strncmp(p.var + k, "{I}", 3) == 0 && k + 3 <= p.var_len) {
            o += (size_t)snprintf(site->var + o, sizeof site->var - o, "%u", s->index);
            k += 2;
        } else {
            site->var[o++] = p.var[k];
        }
    }
    site->var[o] = '\0';
    site->word = -1;
    if ((p.word_len && dev_upset_tb_eval(p.word, p.word_len, s->index, s->bit, &site->word) < 0) ||
        dev_upset_tb_eval(p.bit, p.bit_len, s->index, s->bit, &site->pos) < 0 || site->pos < 0 ||
        (p.word_len && site->word < 0)) {
        snprintf(err, errlen, "'%s': a malformed tb template '%s'", u->name, u->tb);
        return -1;
    }
    return 0;
}
