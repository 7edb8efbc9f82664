/* vec_json.c — `ftsim vec-json`: vectors as the player sees them, written as JSON, so that
 * another test bench (the cocotb one in tests/cocotb/) replays exactly what `ftsim play` plays
 * without parsing the vector language a second time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "registry.h"
#include "vec.h"

static const char usage_vec_json[] =
    "usage: ftsim vec-json FILE.vec... [-o OUT.json]\n"
    "\n"
    "Parses each vector as `ftsim play` does and writes what the player would run, as one\n"
    "JSON document (to OUT.json, or to stdout): {\"format\": \"ftsim-vec-json 1\", \"vectors\":\n"
    "[...]}, a vector being its path, device, checking (strict or loose), reset (the\n"
    "configuration writes made during reset, none for `config reset-values`), the last cycle\n"
    "to run, the design's ports (name, direction, width, idle value) and register fields\n"
    "(name, address, bits, access: ro, rw or config, with its default) and, for every cycle in\n"
    "which something happens, the input words driven from it (a packet macro already one word\n"
    "a cycle), the register write, the expected outputs (value, the bits that matter, the word\n"
    "as the vector wrote it) and the register reads (address, field, expected value, the\n"
    "names of the field's values if it has them), each\n"
    "with the vector line that asked for it. Values are the port's raw bits, as a device\n"
    "implementation takes and gives them. A register write is {addr, data, mask}, as the\n"
    "player makes it: only the mask's bits change (the RTL's register port takes it as byte\n"
    "strobes over the register's current value), and the mask already covers every bit the\n"
    "vector wrote before in the bytes it strobes (their values from the vector's own copy:\n"
    "an upset bit there is rewritten). An upset (`@N seu ...`, first in its cycle, in file\n"
    "order) is {seu: the statement's target and bit, var: the RTL variable that stores it, by\n"
    "its hierarchical name under the design's module, word: the word of a memory or null, bit:\n"
    "the bit of the word or variable to flip}; the state is read, its bit flipped and written\n"
    "back at the start of the cycle. `line` of a cycle is the line a strict-check message\n"
    "about that cycle cites. Nothing is written unless every vector parses.\n"
    "Exit: 0 written, 2 a malformed vector (file:line: message on stderr) or bad arguments.\n";

/* A string as JSON: paths and words are printable UTF-8 (the parser refused the rest). */
static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void write_wr(FILE *f, const dev_write_t *w)
{
    fprintf(f, "{\"addr\": %u, \"data\": %llu, \"mask\": %llu", w->addr,
            (unsigned long long)w->data, (unsigned long long)w->mask);
}

static void write_head(FILE *f, const vec_t *v)
{
    const dev_design_t *d = v->design;
    fputs("{\"path\": ", f);
    jstr(f, v->path);
    fputs(", \"device\": ", f);
    jstr(f, d->name);
    fprintf(f, ", \"device_line\": %u, \"check\": \"%s\", \"reset\": \"%s\", \"end\": %llu,\n",
            v->device_line, v->strict ? "strict" : "loose", v->bare_reset ? "bare" : "config",
            (unsigned long long)vec_end_cycle(v));
    fputs("  \"ports\": [", f);
    for (unsigned p = 0; p < d->nports; p++) {
        fputs(p ? ", {\"name\": " : "{\"name\": ", f);
        jstr(f, d->ports[p].name);
        fprintf(f, ", \"dir\": \"%s\", \"width\": %u, \"idle\": %llu}",
                d->ports[p].dir == DEV_IN ? "in" : "out", d->ports[p].width,
                (unsigned long long)d->ports[p].idle);
    }
    fputs("],\n  \"regs\": [", f);
    for (unsigned i = 0; i < d->nregs; i++) {
        const dev_reg_t *r = &d->regs[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        jstr(f, r->name);
        fprintf(f, ", \"addr\": %u, \"lsb\": %u, \"width\": %u, \"access\": \"%s\"", r->addr,
                r->lsb, r->width,
                (r->flags & DEV_REG_CONFIG) ? "config"
                : (r->flags & DEV_REG_RO)   ? "ro"
                                            : "rw");
        if (r->flags & DEV_REG_CONFIG)
            fprintf(f, ", \"default\": %llu", (unsigned long long)r->dflt);
        fputc('}', f);
    }
    fputs("],\n  \"init\": [", f);
    for (unsigned i = 0; i < v->ninit; i++) {
        fputs(i ? ", " : "", f);
        write_wr(f, &v->init[i]);
        fputc('}', f);
    }
    fputs("],\n", f);
}

static void write_event(FILE *f, const vec_t *v, const vec_ev_t *e)
{
    const dev_design_t *d = v->design;
    char word[64];
    switch (e->kind) {
    case VEC_DRIVE:
        fputs("{\"port\": ", f);
        jstr(f, d->ports[e->idx].name);
        fprintf(f, ", \"value\": %llu", (unsigned long long)e->value);
        break;
    case VEC_CONFIG: write_wr(f, &e->wr); break;
    case VEC_CONTROL:
        fputs("{\"text\": ", f);
        jstr(f, e->text);
        break;
    case VEC_EXPECT:
        fputs("{\"port\": ", f);
        jstr(f, d->ports[e->idx].name);
        if (e->care)
            dev_format_port_word(d, e->idx, e->value, e->hint, word, sizeof word);
        else
            snprintf(word, sizeof word, "X");
        fprintf(f, ", \"value\": %llu, \"care\": %llu, \"word\": ", (unsigned long long)e->value,
                (unsigned long long)e->care);
        jstr(f, word);
        break;
    case VEC_REG: {
        const dev_reg_t *r = &d->regs[e->idx];
        fputs("{\"name\": ", f);
        jstr(f, r->name);
        dev_format_value(r, e->value, word, sizeof word);
        fprintf(f,
                ", \"addr\": %u, \"lsb\": %u, \"width\": %u, \"value\": %llu, \"text\": ", r->addr,
                r->lsb, r->width, (unsigned long long)e->value);
        jstr(f, word);
        if (r->enums) { /* the names of the field's values, as the player prints them */
            fputs(", \"enums\": [", f);
            for (unsigned k = 0; r->enums[k]; k++) {
                fputs(k ? ", " : "", f);
                jstr(f, r->enums[k]);
            }
            fputc(']', f);
        }
        break;
    }
    case VEC_SEU: {
        dev_seu_site_t site;
        char err[DEV_ERR_LEN];
        dev_upset_format(d, &e->seu, word, sizeof word);
        fputs("{\"seu\": ", f);
        jstr(f, word);
        (void)dev_upset_site(&e->seu, &site, err, sizeof err); /* checked when loaded */
        fputs(", \"var\": ", f);
        jstr(f, site.var);
        if (site.word >= 0)
            fprintf(f, ", \"word\": %lld", (long long)site.word);
        else
            fputs(", \"word\": null", f);
        fprintf(f, ", \"bit\": %lld", (long long)site.pos);
        break;
    }
    }
    fprintf(f, ", \"line\": %u}", e->line);
}

/* One cycle's events (v->ev[i..j)), grouped as the player takes them; returns the line the
 * player's strict check cites for the cycle (the last statement at or before it). A register
 * write is the player's: widened from the vector's copy of the registers (wr). */
static unsigned write_cycle(FILE *f, const vec_t *v, size_t i, size_t j, unsigned last,
                            vec_writer_t *wr)
{
    static const struct {
        vec_kind_t kind;
        const char *key;
    } groups[] = {{VEC_SEU, "upset"},
                  {VEC_DRIVE, "drive"},
                  {VEC_CONTROL, "control"},
                  {VEC_EXPECT, "expect"},
                  {VEC_REG, "reg"}};
    for (size_t k = i; k < j; k++)
        last = v->ev[k].line;
    fprintf(f, "    {\"cycle\": %llu, \"line\": %u", (unsigned long long)v->ev[i].cycle, last);
    for (size_t k = i; k < j; k++)
        if (v->ev[k].kind == VEC_CONFIG) { /* at most one a cycle: the parser saw to that */
            vec_ev_t full = v->ev[k];
            full.wr = vec_writer_write(wr, &v->ev[k].wr);
            fputs(", \"write\": ", f);
            write_event(f, v, &full);
        }
    for (unsigned g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        int n = 0;
        for (size_t k = i; k < j; k++) {
            if (v->ev[k].kind != groups[g].kind)
                continue;
            fprintf(f, n++ ? ", " : ", \"%s\": [", groups[g].key);
            write_event(f, v, &v->ev[k]);
        }
        if (n)
            fputc(']', f);
    }
    fputc('}', f);
    return last;
}

static void write_vector(FILE *f, const vec_t *v)
{
    write_head(f, v);
    fputs("  \"cycles\": [\n", f);
    unsigned last = v->device_line;
    vec_writer_t wr;
    vec_writer_init(&wr, v);
    for (size_t i = 0, j; i < v->nev; i = j) {
        for (j = i; j < v->nev && v->ev[j].cycle == v->ev[i].cycle; j++)
            ;
        if (i)
            fputs(",\n", f);
        last = write_cycle(f, v, i, j, last, &wr);
    }
    vec_writer_free(&wr);
    fputs("\n  ]}", f);
}

static int write_all(const char *out, const vec_t *vs, unsigned n)
{
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "ftsim vec-json: cannot write %s\n", out);
        return 2;
    }
    fputs("{\"format\": \"ftsim-vec-json 1\", \"vectors\": [\n", f);
    for (unsigned k = 0; k < n; k++) {
        if (k)
            fputs(",\n", f);
        write_vector(f, &vs[k]);
    }
    fputs("\n]}\n", f);
    int bad = ferror(f);
    if (out ? fclose(f) != 0 : fflush(f) != 0)
        bad = 1;
    if (bad) {
        fprintf(stderr, "ftsim vec-json: write error on %s\n", out ? out : "stdout");
        return 2;
    }
    return 0;
}

int cmd_vec_json(int argc, char **argv)
{
    const char *out = NULL;
    const opts_opt_t opts[] = {
        {NULL, 'o', OPTS_STR, &out, .msg = "-o takes a file name"},
        {0},
    };
    const char **files;
    unsigned nfiles;
    int rc = cmd_parse_files("vec-json", usage_vec_json, opts, "no vector file given", argc, argv,
                             &files, &nfiles);
    if (rc >= 0)
        return rc;
    vec_t *vs = calloc(nfiles, sizeof *vs);
    unsigned loaded = 0;
    rc = vs ? 0 : 2;
    for (; rc == 0 && loaded < nfiles; loaded++) {
        char err[1024];
        if (vec_load(files[loaded], &registry_catalog, &vs[loaded], err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            rc = 2;
            break;
        }
        const vec_t *v = &vs[loaded];
        for (size_t i = 0; i < v->nev && rc == 0; i++) {
            dev_seu_site_t site;
            char what[128];
            if (v->ev[i].kind != VEC_SEU || dev_upset_site(&v->ev[i].seu, &site, err, sizeof err) == 0)
                continue;
            dev_upset_format(v->design, &v->ev[i].seu, what, sizeof what);
            fprintf(stderr, "%s:%u: seu %s: %s; a test bench cannot flip it\n", v->path,
                    v->ev[i].line, what, err);
            rc = 2;
        }
    }
    if (rc == 0)
        rc = write_all(out, vs, nfiles);
    for (unsigned k = 0; vs && k < loaded; k++)
        vec_free(&vs[k]);
    free(vs);
    free(files);
    return rc;
}
