/* vec.c — parse the vector language (vectors/README.md). */
#include "vec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_TOK 64

typedef struct parser {
    vec_t *v;
    const dev_catalog_t *cat; /* resolves `device NAME` */
    const char *path;
    unsigned line;
    int seen_device, seen_at, seen_check;
    int seen_config; /* a `config KEY=VALUE` line before the first @ */
    uint64_t prev_cycle; /* for @+K */
    char *err;
    size_t errlen;
} parser_t;

static int fail(parser_t *p, const char *fmt, ...)
{
    int n = snprintf(p->err, p->errlen, "%s:%u: ", p->path, p->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return 2;
}

static int push(parser_t *p, const vec_ev_t *e)
{
    vec_t *v = p->v;
    if (v->nev == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 256;
        vec_ev_t *n = realloc(v->ev, cap * sizeof *n);
        if (!n)
            return fail(p, "out of memory (%zu statements)", v->nev);
        v->ev = n;
        v->cap = cap;
    }
    v->ev[v->nev++] = *e;
    if (e->cycle > v->last_cycle)
        v->last_cycle = e->cycle;
    return 0;
}

/* Decimal cycle number, 0..2^32-1. */
static int parse_cycle(parser_t *p, const char *s, uint64_t *c)
{
    if (!*s)
        return fail(p, "missing cycle number after '@'");
    uint64_t acc = 0;
    for (const char *q = s; *q; q++) {
        if (*q < '0' || *q > '9')
            return fail(p, "bad cycle number '%s' (decimal, 0 to %llu)", s, VEC_MAX_CYCLE);
        acc = acc * 10u + (uint64_t)(*q - '0');
        if (acc > VEC_MAX_CYCLE)
            return fail(p, "cycle number '%s' is too large (at most %llu)", s, VEC_MAX_CYCLE);
    }
    *c = acc;
    return 0;
}

/* "@N" or "@+K" -> absolute cycle. */
static int parse_at(parser_t *p, const char *tok, uint64_t *c)
{
    if (tok[1] == '+') {
        uint64_t k;
        int rc = parse_cycle(p, tok + 2, &k);
        if (rc)
            return rc;
        uint64_t base = p->seen_at ? p->prev_cycle : 0;
        if (base + k > VEC_MAX_CYCLE)
            return fail(p, "'%s' lands on cycle %llu, past the last cycle %llu", tok,
                        (unsigned long long)(base + k), VEC_MAX_CYCLE);
        *c = base + k;
        return 0;
    }
    return parse_cycle(p, tok + 1, c);
}

static void list_ports(const dev_design_t *d, dev_dir_t dir, char *buf, size_t len)
{
    buf[0] = 0;
    for (unsigned i = 0; i < d->nports; i++)
        if (d->ports[i].dir == dir) {
            size_t n = strlen(buf);
            if (n + 16 > len) {
                snprintf(buf + n, len - n, ", ...");
                return;
            }
            snprintf(buf + n, len - n, "%s%s", n ? " " : "", d->ports[i].name);
        }
}

/* KEY=VALUE ... merged into writes w[0..*n). */
static int parse_config_pairs(parser_t *p, char **tok, int ntok, dev_write_t *w, unsigned *n)
{
    const dev_design_t *d = p->v->design;
    if (ntok == 0)
        return fail(p, "'config' needs at least one KEY=VALUE");
    for (int i = 0; i < ntok; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i] || !eq[1])
            return fail(p, "bad config item '%s' (want KEY=VALUE)", tok[i]);
        *eq = 0;
        int r = dev_reg_index(d, tok[i]);
        if (r < 0 || !(d->regs[r].flags & DEV_REG_CONFIG)) {
            char keys[256] = "";
            for (unsigned k = 0; k < d->nregs; k++)
                if (d->regs[k].flags & DEV_REG_CONFIG)
                    snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s",
                             keys[0] ? ", " : "", d->regs[k].name);
            return fail(p, "unknown config key '%s' for %s (keys: %s)", tok[i], d->name, keys);
        }
        uint64_t val;
        char msg[DEV_ERR_LEN];
        if (dev_parse_value(&d->regs[r], eq + 1, &val, msg, sizeof msg) < 0)
            return fail(p, "%s", msg);
        if (d->check_config && d->check_config(&d->regs[r], val, msg, sizeof msg) < 0)
            return fail(p, "%s", msg);
        unsigned before = *n;
        *n = dev_write_merge(w, *n, VEC_MAX_WRITES, &d->regs[r], val);
        if (*n == before && before == VEC_MAX_WRITES)
            return fail(p, "too many configuration registers in one statement");
    }
    return 0;
}

/* A word that spans cycles (the design's parse_seq): one event per cycle from cyc on. */
static int stmt_seq(parser_t *p, uint64_t cyc, int port, int drive, char **tok, int ntok, int *done)
{
    const dev_design_t *d = p->v->design;
    char text[1024] = "";
    uint64_t words[256];
    *done = 0;
    if (!d->parse_seq)
        return 0;
    for (int i = 2; i < ntok; i++) {
        size_t n = strlen(text);
        if (n + strlen(tok[i]) + 2 >= sizeof text)
            return fail(p, "word too long");
        snprintf(text + n, sizeof text - n, "%s%s", i > 2 ? " " : "", tok[i]);
    }
    char msg[DEV_ERR_LEN];
    int n = d->parse_seq(d->ports[port].kind, text, words, 256, msg, sizeof msg);
    if (n < 0)
        return fail(p, "%s", msg);
    if (n == 0)
        return 0;
    if (cyc + (uint64_t)n - 1 > VEC_MAX_CYCLE)
        return fail(p, "the sequence runs past cycle %llu", VEC_MAX_CYCLE);
    for (int i = 0; i < n; i++) {
        vec_ev_t e = {.cycle = cyc + (uint64_t)i,
                      .line = p->line,
                      .kind = drive ? VEC_DRIVE : VEC_EXPECT,
                      .idx = (unsigned)port,
                      .value = words[i],
                      .care = ~0ull};
        int rc = push(p, &e);
        if (rc)
            return rc;
    }
    *done = 1;
    return 0;
}

static int stmt_port(parser_t *p, uint64_t cyc, char **tok, int ntok)
{
    const dev_design_t *d = p->v->design;
    int drive = strcmp(tok[1], "<-") == 0;
    if (ntok < 3)
        return fail(p, "'%s %s' is missing the word", tok[0], tok[1]);
    int port = dev_port_index(d, tok[0], drive ? DEV_IN : DEV_OUT);
    if (port < 0) {
        char list[512];
        if (dev_port_index(d, tok[0], drive ? DEV_OUT : DEV_IN) >= 0)
            return fail(p, "port '%s' of %s is %s", tok[0], d->name,
                        drive ? "an output: it can be expected (->), not driven (<-)"
                              : "an input: it can be driven (<-), not expected (->)");
        list_ports(d, drive ? DEV_IN : DEV_OUT, list, sizeof list);
        return fail(p, "unknown port '%s' for %s (%s: %s)", tok[0], d->name,
                    drive ? "inputs" : "outputs", list);
    }
    int done, rc = stmt_seq(p, cyc, port, drive, tok, ntok, &done);
    if (rc || done)
        return rc;
    if (ntok > 3)
        return fail(p, "unexpected '%s' after the word", tok[3]);
    vec_ev_t e = {.cycle = cyc,
                  .line = p->line,
                  .kind = drive ? VEC_DRIVE : VEC_EXPECT,
                  .idx = (unsigned)port};
    char msg[DEV_ERR_LEN];
    if (d->parse_word(d->ports[port].kind, tok[2], &e.value, &e.care, &e.hint, msg, sizeof msg) < 0)
        return fail(p, "%s", msg);
    if (drive && e.care == 0)
        return fail(p, "X matches any word in an expectation; a drive needs a word");
    return push(p, &e);
}

static int stmt_reg(parser_t *p, uint64_t cyc, char **tok, int ntok)
{
    const dev_design_t *d = p->v->design;
    if (ntok != 4 || (strcmp(tok[2], "->") != 0 && strcmp(tok[2], "<-") != 0))
        return fail(p, "want 'reg NAME -> VALUE' (expect) or 'reg NAME <- VALUE' (write)");
    int r = dev_reg_index(d, tok[1]);
    if (r < 0) {
        char names[400] = "";
        for (unsigned k = 0; k < d->nregs && strlen(names) < 300; k++)
            if (!strchr(d->regs[k].name, '.') || strncmp(d->regs[k].name, "f0.", 3) == 0)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         names[0] ? " " : "", d->regs[k].name);
        return fail(p, "unknown register '%s' for %s (registers: %s ...)", tok[1], d->name, names);
    }
    const dev_reg_t *reg = &d->regs[r];
    uint64_t val;
    char msg[DEV_ERR_LEN];
    if (dev_parse_value(reg, tok[3], &val, msg, sizeof msg) < 0)
        return fail(p, "%s", msg);
    if (strcmp(tok[2], "->") == 0) {
        vec_ev_t e = {.cycle = cyc,
                      .line = p->line,
                      .kind = VEC_REG,
                      .idx = (unsigned)r,
                      .value = val,
                      .care = ~0ull};
        return push(p, &e);
    }
    if (reg->flags & DEV_REG_RO)
        return fail(p, "register '%s' is read-only", reg->name);
    if (d->check_config && d->check_config(reg, val, msg, sizeof msg) < 0)
        return fail(p, "%s", msg);
    vec_ev_t e = {.cycle = cyc, .line = p->line, .kind = VEC_CONFIG};
    dev_write_merge(&e.wr, 0, 1, reg, val);
    return push(p, &e);
}

/* `seu NAME bitB` or `seu NAME[I] bitB`: one stored bit flipped at the start of the cycle. */
static int stmt_seu(parser_t *p, uint64_t cyc, char **tok, int ntok)
{
    if (ntok != 3)
        return fail(p, "want 'seu NAME bitB' or 'seu NAME[I] bitB'");
    vec_ev_t e = {.cycle = cyc, .line = p->line, .kind = VEC_UPSET};
    char msg[DEV_ERR_LEN];
    if (dev_upset_find(p->v->design, tok[1], tok[2], &e.seu, msg, sizeof msg) < 0)
        return fail(p, "%s", msg);
    return push(p, &e);
}

/* A design's control statement, kept as text for dev_ops_t.control. */
static int stmt_control(parser_t *p, uint64_t cyc, char **tok, int ntok)
{
    char text[512] = "";
    for (int i = 0; i < ntok; i++) {
        size_t n = strlen(text);
        if (n + strlen(tok[i]) + 2 >= sizeof text)
            return fail(p, "statement too long");
        snprintf(text + n, sizeof text - n, "%s%s", i ? " " : "", tok[i]);
    }
    char msg[DEV_ERR_LEN];
    const dev_design_t *d = p->v->design;
    if (d->check_control && d->check_control(d, text, msg, sizeof msg) < 0)
        return fail(p, "%s", msg);
    vec_ev_t e = {.cycle = cyc, .line = p->line, .kind = VEC_CONTROL, .text = strdup(text)};
    if (!e.text)
        return fail(p, "out of memory");
    return push(p, &e);
}

static int stmt_at(parser_t *p, char **tok, int ntok)
{
    uint64_t cyc;
    int rc = parse_at(p, tok[0], &cyc);
    if (rc)
        return rc;
    p->seen_at = 1;
    p->prev_cycle = cyc;
    if (ntok < 2)
        return fail(
            p, "'%s' is followed by nothing (want a drive, an expectation, reg, config or seu)",
            tok[0]);
    if (strcasecmp(tok[1], "reg") == 0)
        return stmt_reg(p, cyc, tok + 1, ntok - 1);
    if (strcasecmp(tok[1], "seu") == 0)
        return stmt_seu(p, cyc, tok + 1, ntok - 1);
    if (strcasecmp(tok[1], "config") == 0) {
        vec_ev_t e = {.cycle = cyc, .line = p->line, .kind = VEC_CONFIG};
        unsigned n = 0;
        dev_write_t w[VEC_MAX_WRITES];
        rc = parse_config_pairs(p, tok + 2, ntok - 2, w, &n);
        if (rc)
            return rc;
        for (unsigned i = 0; i < n; i++) {
            e.wr = w[i];
            if ((rc = push(p, &e)))
                return rc;
        }
        return 0;
    }
    if (ntok >= 3 && (strcmp(tok[2], "<-") == 0 || strcmp(tok[2], "->") == 0))
        return stmt_port(p, cyc, tok + 1, ntok - 1);
    const dev_design_t *dd = p->v->design;
    for (unsigned k = 0; dd->control_words && dd->control_words[k]; k++)
        if (strcasecmp(tok[1], dd->control_words[k]) == 0)
            return stmt_control(p, cyc, tok + 1, ntok - 1);
    if (ntok == 2 && (strcmp(tok[1], "<-") == 0 || strcmp(tok[1], "->") == 0))
        return fail(p, "missing port before '%s'", tok[1]);
    const dev_design_t *d = p->v->design;
    if (d->parse_stmt) {
        char msg[DEV_ERR_LEN];
        int h = d->parse_stmt(p->v, cyc, p->line, tok + 1, ntok - 1, msg, sizeof msg);
        if (h < 0)
            return fail(p, "%s", msg);
        if (h > 0)
            return 0;
    }
    if (ntok == 2)
        return fail(p, "'%s %s' is incomplete (want PORT <- WORD or PORT -> WORD)", tok[0], tok[1]);
    return fail(p,
                "unknown statement '%s %s' (want PORT <- WORD, PORT -> WORD, reg, config or seu)",
                tok[1], tok[2]);
}

static int stmt(parser_t *p, char **tok, int ntok)
{
    vec_t *v = p->v;
    if (!p->seen_device) {
        if (strcasecmp(tok[0], "device") != 0)
            return fail(p, "the first statement must be 'device NAME', not '%s'", tok[0]);
        if (ntok != 2)
            return fail(p, "want 'device NAME'");
        const dev_design_t *d = dev_catalog_find(p->cat, tok[1]);
        if (!d) {
            const dev_catalog_t *c = p->cat;
            char names[200] = "";
            for (unsigned i = 0; c->designs && c->designs[i]; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         names[0] ? ", " : "", c->designs[i]->name);
            return fail(p, "unknown device '%s' (devices: %s%s%s)", tok[1], names,
                        c->families ? "; " : "", c->families ? c->families : "");
        }
        v->design = d;
        v->device_line = p->line;
        v->ninit = dev_config_defaults(d, v->init, VEC_MAX_WRITES);
        p->seen_device = 1;
        return 0;
    }
    if (tok[0][0] == '@')
        return stmt_at(p, tok, ntok);
    if (strcasecmp(tok[0], "device") == 0)
        return fail(p, "a second 'device' statement");
    if (strcasecmp(tok[0], "config") == 0) {
        if (p->seen_at)
            return fail(p, "'config' after the first @ line: write '@N config ...' to change "
                           "the configuration during a run");
        if (ntok == 2 && strcasecmp(tok[1], "reset-values") == 0) {
            /* A bare reset: no configuration write at all, so the device starts from its own
             * reset values, which a vector can then read. */
            if (p->seen_config || v->bare_reset)
                return fail(p, "'config reset-values' excludes any other 'config' line before "
                               "the first @ line");
            v->bare_reset = 1;
            v->ninit = 0;
            return 0;
        }
        if (v->bare_reset)
            return fail(p, "'config reset-values' excludes any other 'config' line before the "
                           "first @ line");
        p->seen_config = 1;
        return parse_config_pairs(p, tok + 1, ntok - 1, v->init, &v->ninit);
    }
    if (strcasecmp(tok[0], "check") == 0) {
        if (p->seen_at)
            return fail(p, "'check' must come before the first @ line");
        if (ntok != 2 || (strcasecmp(tok[1], "strict") && strcasecmp(tok[1], "loose")))
            return fail(p, "want 'check strict' or 'check loose'");
        if (p->seen_check)
            return fail(p, "a second 'check' statement");
        p->seen_check = 1;
        v->strict = strcasecmp(tok[1], "strict") == 0;
        return 0;
    }
    if (strcasecmp(tok[0], "end") == 0) {
        if (ntok != 2 || tok[1][0] != '@' || tok[1][1] == '+')
            return fail(p, "want 'end @N'");
        if (v->has_end)
            return fail(p, "a second 'end' statement (the first is on line %u)", v->end_line);
        int rc = parse_cycle(p, tok[1] + 1, &v->end);
        if (rc)
            return rc;
        v->has_end = 1;
        v->end_line = p->line;
        return 0;
    }
    return fail(p, "unknown statement '%s' (want device, config, check, end or @N ...)", tok[0]);
}

/* Validate one line's bytes: UTF-8, no control characters but tab (and a final CR). */
static int check_text(parser_t *p, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80             ? 1
                     : (c & 0xE0) == 0xC0 ? 2
                     : (c & 0xF0) == 0xE0 ? 3
                     : (c & 0xF8) == 0xF0 ? 4
                                          : 0;
        if (c == '\r' && i + 1 == n)
            break;
        if (c < 0x80 && c < 0x20 && c != '\t')
            return fail(p, "not text: control byte 0x%02X at column %zu", c, i + 1);
        if (c == 0x7F)
            return fail(p, "not text: byte 0x7F at column %zu", i + 1);
        if (len == 0 || i + len > n || (len == 2 && c < 0xC2))
            return fail(p, "not UTF-8: byte 0x%02X at column %zu", c, i + 1);
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return fail(p, "not UTF-8: byte 0x%02X at column %zu", s[i + k], i + k + 1);
        i += len;
    }
    return 0;
}

static int line_stmt(parser_t *p, char *s, size_t n)
{
    int rc = check_text(p, (const unsigned char *)s, n);
    if (rc)
        return rc;
    s[n] = 0;
    char *hash = strchr(s, '#');
    if (hash)
        *hash = 0;
    char *tok[MAX_TOK];
    int ntok = 0;
    for (char *t = strtok(s, " \t\r"); t; t = strtok(NULL, " \t\r")) {
        if (ntok == MAX_TOK)
            return fail(p, "too many words on one line (at most %d)", MAX_TOK);
        tok[ntok++] = t;
    }
    return ntok ? stmt(p, tok, ntok) : 0;
}

/* The order of a cycle's events: upsets first (the cycle starts with them), then as vec_kind_t. */
static int kind_rank(vec_kind_t k) { return k == VEC_UPSET ? -1 : (int)k; }

static int ev_cmp(const void *a, const void *b)
{
    const vec_ev_t *x = a, *y = b;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    if (x->kind != y->kind)
        return kind_rank(x->kind) - kind_rank(y->kind);
    if (x->kind == VEC_CONFIG && x->wr.addr != y->wr.addr)
        return x->wr.addr < y->wr.addr ? -1 : 1;
    if (x->kind == VEC_CONTROL || x->kind == VEC_UPSET)
        return x->line < y->line ? -1 : x->line > y->line;
    if (x->kind != VEC_CONFIG && x->idx != y->idx)
        return x->idx < y->idx ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* After sorting: one drive per input, one expectation per output/register, and one register
 * write (merged) per cycle; nothing after `end`. */
static int check_events(parser_t *p)
{
    vec_t *v = p->v;
    size_t out = 0;
    for (size_t i = 0; i < v->nev; i++) {
        vec_ev_t *e = &v->ev[i];
        p->line = e->line;
        if (v->has_end && e->cycle > v->end)
            return fail(p, "@%llu is after 'end @%llu' (line %u)", (unsigned long long)e->cycle,
                        (unsigned long long)v->end, v->end_line);
        vec_ev_t *prev = out ? &v->ev[out - 1] : NULL;
        if (prev && prev->cycle == e->cycle && prev->kind == e->kind && e->kind != VEC_CONTROL &&
            e->kind != VEC_UPSET) {
            const dev_design_t *d = v->design;
            if (e->kind == VEC_CONFIG) {
                if (prev->wr.addr != e->wr.addr)
                    return fail(p,
                                "%s takes one register write per cycle; cycle %llu writes "
                                "0x%x here and 0x%x on line %u",
                                d->name, (unsigned long long)e->cycle, e->wr.addr, prev->wr.addr,
                                prev->line);
                if (prev->wr.mask & e->wr.mask)
                    return fail(p, "cycle %llu writes the same configuration field again (line %u)",
                                (unsigned long long)e->cycle, prev->line);
                prev->wr.data |= e->wr.data & e->wr.mask;
                prev->wr.mask |= e->wr.mask;
                continue;
            }
            if (prev->idx == e->idx) {
                const char *what = e->kind == VEC_DRIVE    ? "drives input"
                                   : e->kind == VEC_EXPECT ? "expects output"
                                                           : "expects register";
                const char *name =
                    e->kind == VEC_REG ? d->regs[e->idx].name : d->ports[e->idx].name;
                return fail(p, "cycle %llu %s '%s' twice (also line %u)",
                            (unsigned long long)e->cycle, what, name, prev->line);
            }
        }
        v->ev[out++] = *e;
    }
    v->nev = out;
    return 0;
}

int vec_parse(const char *path, const char *text, size_t len, const dev_catalog_t *cat, vec_t *v,
              char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    v->strict = 1;
    v->path = strdup(path);
    parser_t p = {.v = v, .cat = cat, .path = path, .err = err, .errlen = errlen};
    char *buf = malloc(len + 1);
    if (!buf || !v->path) {
        free(buf);
        vec_free(v);
        snprintf(err, errlen, "%s: out of memory", path);
        return 2;
    }
    memcpy(buf, text, len);
    buf[len] = 0;
    int rc = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len && !rc; i++) {
        if (i == len || buf[i] == '\n') {
            if (i > start || i < len) {
                p.line++;
                rc = line_stmt(&p, buf + start, i - start);
            }
            start = i + 1;
        }
    }
    free(buf);
    if (!rc && !p.seen_device) {
        p.line = 1;
        rc = fail(&p, "no 'device' statement (an empty or comment-only file is not a vector)");
    }
    if (!rc) {
        if (v->nev) /* qsort's array may not be NULL, even for no element */
            qsort(v->ev, v->nev, sizeof *v->ev, ev_cmp);
        rc = check_events(&p);
    }
    if (rc)
        vec_free(v);
    return rc;
}

int vec_load(const char *path, const dev_catalog_t *cat, vec_t *v, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open (%s)", path, strerror(errno));
        return 2;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    int rc = 0;
    while (text) {
        if (len == cap) {
            if (cap >= VEC_MAX_BYTES) {
                snprintf(err, errlen, "%s: larger than %u MiB; not a vector", path,
                         VEC_MAX_BYTES >> 20);
                rc = 2;
                break;
            }
            char *n = realloc(text, cap * 2);
            if (!n) {
                free(text);
                text = NULL;
                break;
            }
            text = n;
            cap *= 2;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = 2;
    } else if (!rc && ferror(f)) {
        snprintf(err, errlen, "%s: read error (%s)", path, strerror(errno));
        rc = 2;
    }
    fclose(f);
    if (!rc)
        rc = vec_parse(path, text, len, cat, v, err, errlen);
    free(text);
    return rc;
}

void vec_free(vec_t *v)
{
    for (size_t i = 0; i < v->nev; i++)
        free(v->ev[i].text);
    free(v->ev);
    free(v->path);
    dev_design_release(v->design);
    memset(v, 0, sizeof *v);
}

uint64_t vec_end_cycle(const vec_t *v) { return v->has_end ? v->end : v->last_cycle + 4; }

void vec_print_config(FILE *f, const dev_design_t *d, const dev_write_t *w, unsigned n,
                      const char *prefix)
{
    /* At most 8 keys a line (a line takes 64 words; several config lines merge). */
    unsigned keys = 0;
    fputs(prefix, f);
    fputs("config", f);
    for (unsigned i = 0; i < d->nregs; i++) {
        const dev_reg_t *r = &d->regs[i];
        if (!(r->flags & DEV_REG_CONFIG))
            continue;
        for (unsigned k = 0; k < n; k++) {
            if (w[k].addr != r->addr || !(w[k].mask & dev_field_mask(r)))
                continue;
            char val[64];
            uint64_t x = dev_field_get(r, w[k].data);
            if (r->enums)
                dev_format_value(r, x, val, sizeof val);
            else
                snprintf(val, sizeof val, "0x%0*llX", (r->width + 3) / 4, (unsigned long long)x);
            if (keys && keys % 8 == 0) {
                fputc('\n', f);
                fputs(prefix, f);
                fputs("config", f);
            }
            fprintf(f, " %s=%s", r->name, val);
            keys++;
        }
    }
    fputc('\n', f);
}

/* ---- a vector's writes (vec.h) ---------------------------------------------------------- */

static struct vec_wreg *writer_reg(vec_writer_t *w, uint32_t addr)
{
    for (unsigned i = 0; i < w->n; i++)
        if (w->r[i].addr == addr)
            return &w->r[i];
    if (w->n == w->cap) {
        unsigned cap = w->cap ? 2 * w->cap : 16;
        struct vec_wreg *r = realloc(w->r, cap * sizeof *r);
        if (!r)
            return NULL; /* out of memory: the write goes as the device fills it */
        w->r = r;
        w->cap = cap;
    }
    w->r[w->n] = (struct vec_wreg){.addr = addr};
    return &w->r[w->n++];
}

dev_write_t vec_writer_write(vec_writer_t *w, const dev_write_t *x)
{
    dev_write_t o = *x;
    struct vec_wreg *r = writer_reg(w, x->addr);
    if (!r)
        return o;
    uint64_t bytes = 0;
    for (unsigned k = 0; k < 8; k++)
        if ((x->mask >> (8 * k)) & 0xFFu)
            bytes |= 0xFFull << (8 * k);
    uint64_t fill = bytes & ~x->mask & r->known;
    o.data = (x->data & x->mask) | (r->val & fill);
    o.mask = x->mask | fill;
    r->val = (r->val & ~x->mask) | (x->data & x->mask);
    r->known |= x->mask;
    return o;
}

void vec_writer_init(vec_writer_t *w, const vec_t *v)
{
    memset(w, 0, sizeof *w);
    for (unsigned i = 0; i < v->ninit; i++)
        (void)vec_writer_write(w, &v->init[i]);
}

void vec_writer_free(vec_writer_t *w)
{
    free(w->r);
    memset(w, 0, sizeof *w);
}
