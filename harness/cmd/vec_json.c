/* vec_json.c — `ftsim vec-json`: vectors as the player sees them, written as JSON, so that
 * another test bench (the cocotb one in tests/cocotb/) replays exactly what `ftsim play` plays
 * without parsing the vector language a second time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json_io.h"
#include "registry.h"
#include "vec.h"

static const char usage_vec_json[] =
    "usage: ftsim vec-json FILE.vec... [-o OUT.json]\n"
    "\n"
    "Parses each vector as `ftsim play` does and writes what the player would run, as one JSON\n"
    "document (to OUT.json, or to stdout): an object whose format is ftsim-vec-json 1 and whose\n"
    "vectors are a list, a vector being its path, device, checking (strict or loose), reset\n"
    "(the configuration writes made during reset, none for `config reset-values`), the last\n"
    "cycle to run, the design's ports (name, direction, width, idle value) and register fields\n"
    "(name, address, bits, access: ro, rw or config, with its default) and, for every cycle in\n"
    "which something happens, the input words driven from it (a packet macro already one word a\n"
    "cycle), the register write, the expected outputs (value, the bits that matter, the word as\n"
    "the vector wrote it) and the register reads (address, field, expected value, the names of\n"
    "the field's values if it has them), each with the vector line that asked for it. Values\n"
    "are the port's raw bits, as a device implementation takes and gives them. A register write\n"
    "is {addr, data, mask}, as the player makes it: only the mask's bits change (the RTL's\n"
    "register port takes it as byte strobes over the register's current value), and the mask\n"
    "already covers every bit the vector wrote before in the bytes it strobes (their values\n"
    "from the vector's own copy: an upset bit there is rewritten). An upset (`@N seu ...`,\n"
    "first in its cycle, in file order) is {seu: the statement's target and bit, var: the RTL\n"
    "variable that stores it, by its hierarchical name under the design's module, word: the\n"
    "word of a memory or null, bit: the bit of the word or variable to flip}; the state is\n"
    "read, its bit flipped and written back at the start of the cycle. `line` of a cycle is the\n"
    "line a strict-check message about that cycle cites. Nothing is written unless every vector\n"
    "parses.\n"
    "Exit: 0 written, 2 a malformed vector (file:line: message on stderr) or bad arguments.\n";

static json_object *write_wr(const dev_write_t *w)
{
    json_object *o = json_object_new_object();
    json_io_add(o, "addr", json_io_u64(w->addr));
    json_io_add(o, "data", json_io_u64(w->data));
    json_io_add(o, "mask", json_io_u64(w->mask));
    return o;
}

static json_object *write_head(const vec_t *v)
{
    const dev_design_t *d = v->design;
    json_object *o = json_object_new_object(), *ports = json_object_new_array();
    json_object *regs = json_object_new_array(), *init = json_object_new_array();
    json_io_add(o, "path", json_io_str(v->path));
    json_io_add(o, "device", json_io_str(d->name));
    json_io_add(o, "device_line", json_io_u64(v->device_line));
    json_io_add(o, "check", json_io_str(v->strict ? "strict" : "loose"));
    json_io_add(o, "reset", json_io_str(v->bare_reset ? "bare" : "config"));
    json_io_add(o, "end", json_io_u64(vec_end_cycle(v)));
    for (unsigned p = 0; p < d->nports; p++) {
        json_object *po = json_object_new_object();
        json_io_add(po, "name", json_io_str(d->ports[p].name));
        json_io_add(po, "dir", json_io_str(d->ports[p].dir == DEV_IN ? "in" : "out"));
        json_io_add(po, "width", json_io_u64(d->ports[p].width));
        json_io_add(po, "idle", json_io_u64(d->ports[p].idle));
        json_object_array_add(ports, po);
    }
    json_io_add(o, "ports", ports);
    for (unsigned i = 0; i < d->nregs; i++) {
        const dev_reg_t *r = &d->regs[i];
        json_object *ro = json_object_new_object();
        json_io_add(ro, "name", json_io_str(r->name));
        json_io_add(ro, "addr", json_io_u64(r->addr));
        json_io_add(ro, "lsb", json_io_u64(r->lsb));
        json_io_add(ro, "width", json_io_u64(r->width));
        json_io_add(ro, "access",
                    json_io_str((r->flags & DEV_REG_CONFIG) ? "config"
                                : (r->flags & DEV_REG_RO)   ? "ro"
                                                            : "rw"));
        if (r->flags & DEV_REG_CONFIG)
            json_io_add(ro, "default", json_io_u64(r->dflt));
        json_object_array_add(regs, ro);
    }
    json_io_add(o, "regs", regs);
    for (unsigned i = 0; i < v->ninit; i++)
        json_object_array_add(init, write_wr(&v->init[i]));
    json_io_add(o, "init", init);
    return o;
}

static json_object *write_event(const vec_t *v, const vec_ev_t *e)
{
    const dev_design_t *d = v->design;
    char word[64];
    json_object *o = NULL;
    switch (e->kind) {
    case VEC_DRIVE:
        o = json_object_new_object();
        json_io_add(o, "port", json_io_str(d->ports[e->idx].name));
        json_io_add(o, "value", json_io_u64(e->value));
        break;
    case VEC_CONFIG: o = write_wr(&e->wr); break;
    case VEC_CONTROL:
        o = json_object_new_object();
        json_io_add(o, "text", json_io_str(e->text));
        break;
    case VEC_EXPECT:
        o = json_object_new_object();
        json_io_add(o, "port", json_io_str(d->ports[e->idx].name));
        if (e->care)
            dev_format_port_word(d, e->idx, e->value, e->hint, word, sizeof word);
        else
            snprintf(word, sizeof word, "X");
        json_io_add(o, "value", json_io_u64(e->value));
        json_io_add(o, "care", json_io_u64(e->care));
        json_io_add(o, "word", json_io_str(word));
        break;
    case VEC_REG: {
        const dev_reg_t *r = &d->regs[e->idx];
        o = json_object_new_object();
        json_io_add(o, "name", json_io_str(r->name));
        dev_format_value(r, e->value, word, sizeof word);
        json_io_add(o, "addr", json_io_u64(r->addr));
        json_io_add(o, "lsb", json_io_u64(r->lsb));
        json_io_add(o, "width", json_io_u64(r->width));
        json_io_add(o, "value", json_io_u64(e->value));
        json_io_add(o, "text", json_io_str(word));
        if (r->enums) { /* the names of the field's values, as the player prints them */
            json_object *en = json_object_new_array();
            for (unsigned k = 0; r->enums[k]; k++)
                json_object_array_add(en, json_io_str(r->enums[k]));
            json_io_add(o, "enums", en);
        }
        break;
    }
    case VEC_UPSET: {
        dev_upset_site_t site;
        char err[DEV_ERR_LEN];
        dev_upset_format(d, &e->seu, word, sizeof word);
        o = json_object_new_object();
        json_io_add(o, "seu", json_io_str(word));
        (void)dev_upset_site(&e->seu, &site, err, sizeof err); /* checked when loaded */
        json_io_add(o, "var", json_io_str(site.var));
        json_io_add(o, "word", site.word >= 0 ? json_io_i64(site.word) : NULL);
        json_io_add(o, "bit", json_io_i64(site.pos));
        break;
    }
    }
    json_io_add(o, "line", json_io_u64(e->line));
    return o;
}

/* One cycle's events (v->ev[i..j)), grouped as the player takes them, into *out; returns the
 * line the player's strict check cites for the cycle (the last statement at or before it). A
 * register write is the player's: widened from the vector's copy of the registers (wr). */
static unsigned write_cycle(json_object **out, const vec_t *v, size_t i, size_t j, unsigned last,
                            vec_writer_t *wr)
{
    static const struct {
        vec_kind_t kind;
        const char *key;
    } groups[] = {{VEC_UPSET, "upset"},
                  {VEC_DRIVE, "drive"},
                  {VEC_CONTROL, "control"},
                  {VEC_EXPECT, "expect"},
                  {VEC_REG, "reg"}};
    for (size_t k = i; k < j; k++)
        last = v->ev[k].line;
    json_object *o = *out = json_object_new_object();
    json_io_add(o, "cycle", json_io_u64(v->ev[i].cycle));
    json_io_add(o, "line", json_io_u64(last));
    for (size_t k = i; k < j; k++)
        if (v->ev[k].kind == VEC_CONFIG) { /* at most one a cycle: the parser saw to that */
            vec_ev_t full = v->ev[k];
            full.wr = vec_writer_write(wr, &v->ev[k].wr);
            json_io_add(o, "write", write_event(v, &full));
        }
    for (unsigned g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        json_object *a = NULL;
        for (size_t k = i; k < j; k++) {
            if (v->ev[k].kind != groups[g].kind)
                continue;
            if (!a)
                json_io_add(o, groups[g].key, a = json_object_new_array());
            json_object_array_add(a, write_event(v, &v->ev[k]));
        }
    }
    return last;
}

static json_object *write_vector(const vec_t *v)
{
    json_object *o = write_head(v), *cycles = json_object_new_array();
    unsigned last = v->device_line;
    vec_writer_t wr;
    vec_writer_init(&wr, v);
    for (size_t i = 0, j; i < v->nev; i = j) {
        for (j = i; j < v->nev && v->ev[j].cycle == v->ev[i].cycle; j++)
            ;
        json_object *c;
        last = write_cycle(&c, v, i, j, last, &wr);
        json_object_array_add(cycles, c);
    }
    vec_writer_free(&wr);
    json_io_add(o, "cycles", cycles);
    return o;
}

static int write_all(const char *out, const vec_t *vs, unsigned n)
{
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        fprintf(stderr, "ftsim vec-json: cannot write %s\n", out);
        return 2;
    }
    json_object *doc = json_object_new_object(), *vectors = json_object_new_array();
    json_io_add(doc, "format", json_io_str("ftsim-vec-json 1"));
    for (unsigned k = 0; k < n; k++)
        json_object_array_add(vectors, write_vector(&vs[k]));
    json_io_add(doc, "vectors", vectors);
    int bad = json_io_write(f, doc) < 0 || ferror(f);
    json_object_put(doc);
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
            dev_upset_site_t site;
            char what[128];
            if (v->ev[i].kind != VEC_UPSET || dev_upset_site(&v->ev[i].seu, &site, err, sizeof err) == 0)
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
