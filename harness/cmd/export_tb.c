/* export_tb.c — `ftsim export-tb`: a vector as a self-checking Verilog testbench
 * (harness/core/tb.h), for Icarus 11 and the simulators that take IEEE 1800-2012. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>

#include "cmd.h"
#include "registry.h"
#include "tb.h"
#include "vec.h"

#define MAX_FILES 32

static const char usage_export_tb[] =
    "usage: ftsim export-tb FILE.vec -o TB.sv [--events FILE] [--rtl DIR]\n"
    "       ftsim export-tb FILE.vec --events FILE\n"
    "       ftsim export-tb --device NAME -o TB.sv [--max-events N] [--rtl DIR]\n"
    "       ftsim export-tb (FILE.vec | --device NAME) -o TB.sv --netlist NETLIST.v\n"
    "       ftsim export-tb --device NAME --words -o TB.sv\n"
    "\n"
    "Writes a vector as a self-checking testbench in the Verilog that Icarus Verilog 11\n"
    "(-g2012) and the commercial simulators accept, for a device with an RTL module of its\n"
    "own: rn1, lc3, p2s, lc3node, p2snode, lc3node2, p2snode2 (a ring, a torus or a network is\n"
    "composed in the harness and is refused). The testbench instantiates the design's module\n"
    "with its parameters, resets and configures it as the harness does, drives the vector's\n"
    "inputs cycle by cycle, checks its expectations (check strict or loose; registers read\n"
    "through the register port), prints each mismatch as `ftsim play` does (FILE:LINE: cycle\n"
    "N: ...), and ends with the line PASS FILE, or FAIL FILE and $fatal (exit status 1).\n"
    "TB.sv is self-contained; its header names the command that runs it, e.g.\n"
    "  iverilog -g2012 -Irtl -o TB.vvp TB.sv rtl/sci_lc.v rtl/sci_cfg_reg.v rtl/sci_crc16.v\n"
    "  vvp -n TB.vvp\n"
    "\n"
    "  -o TB.sv          write the testbench (with FILE.vec: its events embedded)\n"
    "  --events FILE     write FILE.vec's events as a file a testbench of its device plays\n"
    "                    with +events=FILE: one testbench compiled once plays every vector\n"
    "  --device NAME     a testbench of device NAME with no vector in it (run it with\n"
    "                    +events=FILE)\n"
    "  --max-events N    the events such a testbench holds (default 65536)\n"
    "  --words           with --device: a testbench that checks that its words and register\n"
    "                    values print as ftsim prints them (no design in it)\n"
    "  --netlist FILE    the design's synthesized netlist (make synth: build/synth/NAME.v)\n"
    "                    instead of its RTL: its parameters built in, no upsets\n"
    "  --rtl DIR         the RTL folder, with files.txt (default rtl): the files the header's\n"
    "                    command names, and the include folder\n"
    "\n"
    "The testbench's plusargs: +events=FILE, +max_msgs=N (10), +dump=FILE (a VCD). An upset\n"
    "(@N seu NAME bitB) is a deposit at the start of cycle N, before its drives: the state is\n"
    "read and written back with the bit flipped, where the upset map says the RTL keeps it. A\n"
    "vector with a statement the testbench cannot play yet (a device control) is refused with\n"
    "its line. Exit: 0 written; 2 a malformed vector (file:line: message), a device that cannot\n"
    "be exported, or bad arguments.\n";

typedef struct files {
    char *line; /* the design's line of files.txt, cut into the names */
    char *names[MAX_FILES];
    unsigned n;
} files_t;

/* The design's Verilog sources from DIR/files.txt ("design: file ..."), as DIR/NAME. */
static int read_files(const char *dir, const char *design, files_t *fl)
{
    char path[1024], buf[4096];
    snprintf(path, sizeof path, "%s/files.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr,
                "ftsim export-tb: %s: cannot open (%s); run from the project's root or "
                "give --rtl DIR\n",
                path, strerror(errno));
        return 2;
    }
    size_t dl = strlen(design);
    int found = 0;
    while (!found && fgets(buf, sizeof buf, f))
        found = !strncmp(buf, design, dl) && buf[dl] == ':';
    fclose(f);
    if (!found) {
        fprintf(stderr, "ftsim export-tb: %s: no line for design %s\n", path, design);
        return 2;
    }
    for (char *t = strtok(buf + dl + 1, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        size_t n = strlen(t);
        if (n < 2 || strcmp(t + n - 2, ".v") != 0)
            continue; /* a Verilator configuration file (.vlt) */
        if (fl->n == MAX_FILES) {
            fprintf(stderr, "ftsim export-tb: %s: more than %d files for %s\n", path, MAX_FILES,
                    design);
            return 2;
        }
        size_t len = strlen(dir) + n + 2;
        fl->names[fl->n] = malloc(len);
        if (!fl->names[fl->n]) {
            fprintf(stderr, "ftsim export-tb: out of memory\n");
            return 2;
        }
        snprintf(fl->names[fl->n++], len, "%s/%s", dir, t);
    }
    return 0;
}

static void free_files(files_t *fl)
{
    for (unsigned k = 0; k < fl->n; k++)
        free(fl->names[k]);
}

/* path without its last extension, then ext. */
static void with_ext(const char *path, const char *ext, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');
    if (dot && (!slash || dot > slash))
        *dot = 0;
    snprintf(buf + strlen(buf), len - strlen(buf), "%s", ext);
}

typedef struct job {
    const char *out, *events, *device, *rtl, *netlist;
    int words;
    unsigned max_events;
} job_t;

/* Write one output through fn; a partial file is removed. */
static int write_out(const char *path, int (*fn)(FILE *, const void *, char *, size_t),
                     const void *ctx)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "ftsim export-tb: %s: cannot write (%s)\n", path, strerror(errno));
        return 2;
    }
    char err[DEV_ERR_LEN] = "write error";
    int rc = fn(f, ctx, err, sizeof err);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof err, "write error");
        rc = 2;
    }
    if (rc) {
        fprintf(stderr, "ftsim export-tb: %s: %s\n", path, err);
        remove(path);
    }
    return rc;
}

typedef struct tb_ctx {
    const dev_design_t *d;
    const vec_t *v;
    const tb_opts_t *o;
    int words;
} tb_ctx_t;

static int put_tb(FILE *f, const void *ctx, char *err, size_t errlen)
{
    const tb_ctx_t *c = ctx;
    (void)err, (void)errlen;
    return c->words ? tb_write_words(f, c->d, c->o) : tb_write(f, c->d, c->v, c->o);
}

static int put_events(FILE *f, const void *ctx, char *err, size_t errlen)
{
    return tb_write_events(f, ctx, err, errlen);
}

static int export_design(const job_t *j, const vec_t *v, const dev_design_t *d)
{
    char err[DEV_ERR_LEN];
    if (tb_exportable(d, err, sizeof err) < 0)
        return cmd_bad("export-tb", err, NULL);
    int rc = 0;
    if (j->out) {
        files_t fl = {0};
        if (j->netlist) {
            fl.names[0] = (char *)j->netlist;
            fl.n = 1;
        } else if (!j->words)
            rc = read_files(j->rtl, d->rtl->top, &fl);
        char vvp[1024];
        with_ext(j->out, ".vvp", vvp, sizeof vvp);
        tb_opts_t o = {.out = j->out,
                       .vvp = vvp,
                       .incdir = j->rtl,
                       .files = (const char *const *)fl.names,
                       .nfiles = fl.n,
                       .max_events = j->max_events,
                       .netlist = j->netlist != NULL};
        tb_ctx_t c = {.d = d, .v = v, .o = &o, .words = j->words};
        if (!rc)
            rc = write_out(j->out, put_tb, &c);
        if (!rc) {
            printf("wrote %s (device %s", j->out, d->name);
            if (v)
                printf(", %zu events of %s", v->nev, v->path);
            printf(")\n  iverilog -g2012%s%s -o %s %s", j->words ? "" : " -I",
                   j->words ? "" : j->rtl, vvp, j->out);
            for (unsigned k = 0; k < fl.n; k++)
                printf(" %s", fl.names[k]);
            printf("\n  vvp -n %s%s\n", vvp, v || j->words ? "" : " +events=FILE");
        }
        if (!j->netlist)
            free_files(&fl);
    }
    if (!rc && j->events) {
        rc = write_out(j->events, put_events, v);
        if (!rc)
            printf("wrote %s (%zu events of %s, device %s: +events=%s)\n", j->events, v->nev,
                   v->path, d->name, j->events);
    }
    return rc;
}

int cmd_export_tb(int argc, char **argv)
{
    job_t j = {.rtl = "rtl", .max_events = 65536};
    const opts_opt_t opts[] = {
        {NULL, 'o', OPTS_STR, &j.out, .msg = "-o takes a file name"},
        {"events", 0, OPTS_STR, &j.events, .msg = "--events takes a file name"},
        {"device", 0, OPTS_STR, &j.device, .msg = "--device takes a device name"},
        {"rtl", 0, OPTS_STR, &j.rtl, .msg = "--rtl takes a folder"},
        {"netlist", 0, OPTS_STR, &j.netlist, .msg = "--netlist takes a file"},
        {"words", 0, OPTS_FLAG, &j.words, .set = 1},
        {"max-events", 0, OPTS_UINT, &j.max_events, .min = 1, .max = 1 << 24,
         .msg = "--max-events takes a number from 1 to 16777216"},
        {0},
    };
    const char *files[2] = {NULL, NULL};
    opts_cmd_t c = {.name = "export-tb",
                    .style = OPTS_HINT,
                    .unknown = "unknown option",
                    .opts = opts,
                    .pos = files,
                    .maxpos = 2};
    unsigned nfiles = 0;
    int rc = cmd_parse(&c, usage_export_tb, argc, argv, &nfiles);
    if (rc >= 0)
        return rc;
    if (nfiles > 1)
        return cmd_bad("export-tb", "one vector at a time", files[1]);
    if (nfiles && j.device)
        return cmd_bad("export-tb", "give a vector or --device, not both", NULL);
    if (!nfiles && !j.device)
        return cmd_bad("export-tb", "no vector file given (or --device NAME)", NULL);
    if (!j.out && !j.events)
        return cmd_bad("export-tb", "nothing to write: give -o TB.sv or --events FILE", NULL);
    if (j.events && !nfiles)
        return cmd_bad("export-tb", "--events writes a vector's events: give FILE.vec", NULL);
    if (j.words && (nfiles || !j.out))
        return cmd_bad("export-tb", "--words takes --device NAME and -o TB.sv", NULL);
    if (j.netlist && (j.words || !j.out))
        return cmd_bad("export-tb", "--netlist takes -o TB.sv (a testbench of the netlist)", NULL);
    if (j.netlist && access(j.netlist, R_OK) != 0)
        return cmd_bad("export-tb", "--netlist: no such file (make synth writes build/synth/NAME.v)",
                       j.netlist);
    if (j.device) {
        const dev_design_t *d = dev_catalog_find(&registry_catalog, j.device);
        if (!d)
            return cmd_bad("export-tb", "unknown device", j.device);
        rc = export_design(&j, NULL, d);
        dev_design_release(d);
        return rc;
    }
    vec_t v;
    char err[1024];
    if (vec_load(files[0], &registry_catalog, &v, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    for (size_t i = 0; j.netlist && i < v.nev; i++)
        if (v.ev[i].kind == VEC_UPSET) {
            fprintf(stderr,
                    "%s:%u: an upset (seu) names a register of the RTL, and a synthesized "
                    "netlist's flip-flops have lost those names: export it without --netlist\n",
                    v.path, v.ev[i].line);
            vec_free(&v);
            return 2;
        }
    if (tb_check(&v, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        vec_free(&v);
        return 2;
    }
    rc = export_design(&j, &v, v.design);
    vec_free(&v);
    return rc;
}
