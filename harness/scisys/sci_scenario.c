/* sci_scenario.c — the plan of a torus run (sci_scenario.h): the scenario language, the
 * --flow and --fault arguments read against the torus, the traffic patterns' flows, the random
 * faults, and the checks that refuse a plan before anything runs. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "pattern.h"
#include "sci_route.h"
#include "sci_scenario.h"
#include "sci_torus.h"

void sci_scn_init(sci_scn_t *o)
{
    memset(o, 0, sizeof *o);
    o->models = LS_CSIM;
    o->rate_us = 20;
    o->bytes = 64;
    o->seed = 1;
    sci_sys_params_default(&o->par);
}

void sci_scn_free(sci_scn_t *o)
{
    free(o->flows);
    free(o->scn_text);
    o->flows = NULL, o->scn_text = NULL;
}

/* Simulated time to cycles at 100 MHz: "20ms", "150us", "2s", "12345". */
int sci_scn_time(const char *s, uint64_t *cyc)
{
    char *e;
    double v = strtod(s, &e);
    if (e == s || !isfinite(v) || v < 0)
        return -1;
    double mul = 1;
    if (!strcmp(e, "ms"))
        mul = 100000;
    else if (!strcmp(e, "us"))
        mul = 100;
    else if (!strcmp(e, "s"))
        mul = 100000000;
    else if (*e)
        return -1;
    else if (v != floor(v))
        return -1;
    double c = v * mul;
    if (c > 1e15)
        return -1;
    *cyc = (uint64_t)llround(c);
    return 0;
}

static int parse_xy(const char *s, unsigned w, unsigned h, unsigned *x, unsigned *y)
{
    char c;
    return sscanf(s, "%u,%u%c", x, y, &c) == 2 && *x < w && *y < h ? 0 : -1;
}

static int add_flow(sci_scn_t *o, const sci_scn_flow_t *f)
{
    if (o->nflows == SCI_SCN_MAXF)
        return -1;
    if (!o->flows && !(o->flows = calloc(SCI_SCN_MAXF, sizeof *o->flows)))
        return -1;
    o->flows[o->nflows++] = *f;
    return 0;
}

static int check_control(const sci_scn_t *o, const char *c, char *why, size_t whylen)
{
    char op[16], d[4];
    unsigned x, y;
    char tail;
    if (!strncmp(c, "seu ", 4)) { /* an upset: the torus's upset map names it */
        char tgt[48], bit[16], more[8];
        dev_upset_bit_t u;
        const dev_design_t *dd = sci_torus_design(o->p2s, o->w, o->h);
        int ok = dd && sscanf(c + 4, "%47s %15s %7s", tgt, bit, more) == 2;
        if (!ok)
            snprintf(why, whylen, "want 'seu NAME bitB' or 'seu NAME[I] bitB'");
        else
            ok = dev_upset_find(dd, tgt, bit, &u, why, whylen) == 0;
        if (dd)
            dev_design_release(dd);
        return ok ? 0 : -1;
    }
    if (sscanf(c, "%15s %3s %u,%u%c", op, d, &x, &y, &tail) == 4 &&
        (!strcmp(op, "cut") || !strcmp(op, "restore")) && (!strcmp(d, "x") || !strcmp(d, "y")))
        return x < o->w && y < o->h ? 0 : -1;
    if (sscanf(c, "%15s %u,%u%c", op, &x, &y, &tail) == 3 &&
        (!strcmp(op, "off") || !strcmp(op, "on") || !strcmp(op, "reset")))
        return x < o->w && y < o->h ? 0 : -1;
    return -1;
}

static int add_fault(sci_scn_t *o, uint64_t at, const char *what, const char *arg, unsigned line,
                     char *err, size_t errlen)
{
    char why[200] = "";
    int bad = check_control(o, what, why, sizeof why) < 0;
    if (bad && *why) { /* an upset the map refuses: its reason */
        snprintf(err, errlen, "'%s': %s (`ftsim info torus%ux%u --upsets` lists the names)", what,
                 why, o->w, o->h);
        return -1;
    }
    if (bad) {
        snprintf(err, errlen,
                 "'%s': not a fault of a %ux%u torus (cut x X,Y | restore x X,Y | "
                 "cut y X,Y | restore y X,Y | off X,Y | on X,Y | reset X,Y | seu NAME bitB | "
                 "seu NAME[I] bitB, NAME in `ftsim info torus%ux%u --upsets`)",
                 what, o->w, o->h, o->w, o->h);
        return -1;
    }
    if (o->nfaults == SCI_SCN_MAXFAULT) {
        snprintf(err, errlen, "more than %u faults", SCI_SCN_MAXFAULT);
        return -1;
    }
    o->faults[o->nfaults].at = at;
    snprintf(o->faults[o->nfaults].what, sizeof o->faults[0].what, "%s", what);
    o->faults[o->nfaults].arg = arg;
    o->faults[o->nfaults].line = line;
    o->nfaults++;
    return 0;
}

/* "NAME:SX,SY:DX,DY", or "NAME:SX,SY->DX,DY" (which a shell must be given quoted). */
static int parse_flow_arg(sci_scn_t *o, const char *a, char *err, size_t errlen)
{
    sci_scn_flow_t f;
    memset(&f, 0, sizeof f);
    const char *colon = strchr(a, ':'), *to = NULL;
    size_t skip = 0;
    if (colon && (to = strstr(colon + 1, "->")))
        skip = 2;
    else if (colon && (to = strchr(colon + 1, ':')))
        skip = 1;
    if (!to || colon == a || (size_t)(colon - a) >= sizeof f.name) {
        snprintf(err, errlen,
                 "--flow %s: NAME:SX,SY:DX,DY or NAME:SX,SY->DX,DY (NAME 1 to %zu characters)", a,
                 sizeof f.name - 1);
        return -1;
    }
    memcpy(f.name, a, (size_t)(colon - a));
    char src[32], dst[32];
    snprintf(src, sizeof src, "%.*s", (int)(to - colon - 1), colon + 1);
    snprintf(dst, sizeof dst, "%s", to + skip);
    if (parse_xy(src, o->w, o->h, &f.sx, &f.sy) < 0 ||
        parse_xy(dst, o->w, o->h, &f.dx, &f.dy) < 0 || (f.sx == f.dx && f.sy == f.dy)) {
        snprintf(err, errlen, "--flow %s: two different nodes of the %ux%u torus", a, o->w, o->h);
        return -1;
    }
    f.bytes = 0;
    f.every_us = 0;
    return add_flow(o, &f) < 0 ? (snprintf(err, errlen, "too many flows"), -1) : 0;
}

/* The statements that say which torus runs (torus, p2s, time-scale), read in a first pass,
 * since the others are read against the torus: a message in msg when malformed. */
static void scenario_setup(sci_scn_t *o, const char *kw, const char *p, unsigned ln, char *msg,
                           size_t len)
{
    char a1[64], tail[64];
    int k = sscanf(p, "%*s %63s %63s", a1, tail);
    if (!strcmp(kw, "p2s")) {
        if (k > 0)
            snprintf(msg, len, "p2s: no arguments");
        o->p2s = 1;
        return;
    }
    if (!strcmp(kw, "torus")) {
        unsigned w, h;
        if (k != 1 || sci_route_parse_size(a1, &w, &h) < 0)
            snprintf(msg, len, "torus WxH (2x2 to 16x16, P2S to 32x32)");
        else if (o->w && !o->torus_line && (o->w != w || o->h != h))
            snprintf(msg, len, "torus %ux%u, but --torus %ux%u: give one of them, or the same", w,
                     h, o->w, o->h);
        else if (o->torus_line)
            snprintf(msg, len, "a second torus statement (the first on line %u)", o->torus_line);
        else
            o->w = w, o->h = h, o->torus_line = ln;
        return;
    }
    if (!strcmp(kw, "time-scale")) {
        char *e;
        double v = k == 1 ? strtod(a1, &e) : 0;
        if (k != 1 || *e || !(v >= 1 && v <= 1e6))
            snprintf(msg, len, "time-scale K: 1 to 1e6");
        else if (!o->cli_time_scale) /* --time-scale wins */
            o->time_scale = v;
    }
}

/* The scenario file: in pass 0 its torus, p2s and time-scale statements, in pass 1 the rest. */
static int parse_scenario(sci_scn_t *o, const char *path, int pass, char *err, size_t errlen)
{
    char line[512];
    unsigned ln = 0;
    int rc = 0;
    for (const char *at = o->scn_text; rc == 0 && at < o->scn_text + o->scn_len;) {
        const char *nl = memchr(at, '\n', (size_t)(o->scn_text + o->scn_len - at));
        size_t len = nl ? (size_t)(nl - at) : (size_t)(o->scn_text + o->scn_len - at);
        ln++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%u: a line longer than %zu characters", path, ln,
                     sizeof line - 1);
            return -1;
        }
        memcpy(line, at, len);
        line[len] = 0;
        at += len + (nl != NULL);
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        size_t n = strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            p[--n] = 0;
        if (!*p)
            continue;
        char kw[16], a1[64], a2[64], a3[64], rest[256];
        char msg[300] = "";
        int k = sscanf(p, "%15s %63s", kw, a1);
        int setup = !strcmp(kw, "torus") || !strcmp(kw, "p2s") || !strcmp(kw, "time-scale");
        if (setup || pass == 0) {
            if (setup && pass == 0)
                scenario_setup(o, kw, p, ln, msg, sizeof msg);
        } else if (k < 2) {
            snprintf(msg, sizeof msg, "'%s': a statement and its arguments", p);
        } else if (!strcmp(kw, "flow")) {
            sci_scn_flow_t f;
            memset(&f, 0, sizeof f);
            int m = sscanf(p, "flow %31s %63s -> %63s %255[^\n]", f.name, a2, a3, rest);
            if (m < 3 || parse_xy(a2, o->w, o->h, &f.sx, &f.sy) < 0 ||
                parse_xy(a3, o->w, o->h, &f.dx, &f.dy) < 0 || (f.sx == f.dx && f.sy == f.dy)) {
                snprintf(msg, sizeof msg,
                         "flow NAME SX,SY -> DX,DY [bytes B] [every T]: two "
                         "different nodes of the %ux%u torus",
                         o->w, o->h);
            } else {
                char *t = m == 4 ? rest : NULL, *save = NULL;
                for (char *tok = t ? strtok_r(t, " \t", &save) : NULL; tok && !*msg;
                     tok = strtok_r(NULL, " \t", &save)) {
                    char *val = strtok_r(NULL, " \t", &save);
                    uint64_t c;
                    if (!strcmp(tok, "bytes") && val && atoi(val) >= 16 && atoi(val) <= 64)
                        f.bytes = (unsigned)atoi(val);
                    else if (!strcmp(tok, "every") && val && sci_scn_time(val, &c) == 0 && c > 0)
                        f.every_us = (double)c / 100.0;
                    else
                        snprintf(msg, sizeof msg, "flow %s: '%s %s': bytes 16..64 or every T",
                                 f.name, tok, val ? val : "");
                }
                if (!*msg && add_flow(o, &f) < 0)
                    snprintf(msg, sizeof msg, "too many flows");
            }
        } else if (!strcmp(kw, "traffic")) {
            int pat = traffic_pattern_find(a1), ok = pat >= 0;
            if (ok)
                o->traffic = traffic_pattern_names[pat];
            if (!ok)
                snprintf(msg, sizeof msg,
                         "traffic %s: uniform, bitrev, shuffle, butterfly, "
                         "transpose, complement or hotspot",
                         a1);
            char *e = strstr(p, " every ");
            uint64_t c;
            if (ok && e) {
                if (sscanf(e, " every %63s", a2) != 1 || sci_scn_time(a2, &c) < 0 || c == 0)
                    snprintf(msg, sizeof msg, "traffic: every T (a time: 20us, 1ms, cycles)");
                else
                    o->rate_us = (double)c / 100.0;
            }
            char *b = strstr(p, " bytes ");
            if (ok && !*msg && b) {
                int v;
                if (sscanf(b, " bytes %d", &v) != 1 || v < 16 || v > 64)
                    snprintf(msg, sizeof msg, "traffic: bytes 16..64");
                else
                    o->bytes = (unsigned)v;
            }
        } else if (!strcmp(kw, "fault")) {
            uint64_t at;
            if (sscanf(p, "fault %63s %255[^\n]", a1, rest) != 2 || sci_scn_time(a1, &at) < 0)
                snprintf(msg, sizeof msg, "fault WHEN CONTROL (WHEN: 20ms, 150us, cycles)");
            else
                add_fault(o, at, rest, NULL, ln, msg, sizeof msg);
        } else if (!strcmp(kw, "random-faults")) {
            char *e;
            unsigned long v = strtoul(a1, &e, 10);
            if (*e || v > 16)
                snprintf(msg, sizeof msg, "random-faults N: 0 to 16");
            else
                o->random_faults = (unsigned)v;
        } else if (!strcmp(kw, "run")) {
            if (sci_scn_time(a1, &o->run) < 0 || o->run == 0)
                snprintf(msg, sizeof msg, "run T: a time (20ms, 2s, cycles)");
        } else {
            snprintf(msg, sizeof msg,
                     "unknown statement '%s' (torus, p2s, time-scale, flow, traffic, fault, "
                     "random-faults, run)",
                     kw);
        }
        if (*msg) {
            snprintf(err, errlen, "%s:%u: %s", path, ln, msg);
            rc = -1;
        }
    }
    return rc;
}

/* The scenario file, read once (the two passes read it from memory: a pipe reads once). */
static int load_scenario(sci_scn_t *o, char *err, size_t errlen)
{
    FILE *fp = fopen(o->scenario, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open", o->scenario);
        return -1;
    }
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        if (o->scn_len == cap) {
            char *b = cap < (1u << 20) ? realloc(o->scn_text, cap ? 2 * cap : 4096) : NULL;
            if (!b) {
                snprintf(err, errlen, "%s: %s", o->scenario,
                         cap ? "larger than 1 MiB" : "out of memory");
                rc = -1;
                break;
            }
            o->scn_text = b;
            cap = cap ? 2 * cap : 4096;
        }
        size_t n = fread(o->scn_text + o->scn_len, 1, cap - o->scn_len, fp);
        o->scn_len += n;
        if (n == 0)
            break;
    }
    if (rc == 0 && ferror(fp)) {
        snprintf(err, errlen, "%s: cannot read", o->scenario);
        rc = -1;
    }
    fclose(fp);
    return rc;
}

/* The pattern's flows (harness/core/pattern.h): uniform gives every node two. */
static int pattern_flows(sci_scn_t *o, prng_t *rng, char *err, size_t errlen)
{
    unsigned n = o->w * o->h;
    const char *p = o->traffic;
    int pat = traffic_pattern_find(p);
    const char *why = traffic_pattern_unfit(pat, o->w, o->h);
    if (why) {
        snprintf(err, errlen, "--traffic %s %s (%ux%u)", p, why, o->w, o->h);
        return -1;
    }
    for (unsigned s = 0; s < n; s++) {
        unsigned d[2] = {s, s}, nd = pat == TP_UNIFORM ? 2 : 1;
        for (unsigned k = 0; k < nd; k++)
            d[k] = traffic_pattern_dst(pat, o->w, o->h, s, rng);
        for (unsigned k = 0; k < nd; k++) {
            if (d[k] == s)
                continue;
            sci_scn_flow_t f;
            memset(&f, 0, sizeof f);
            snprintf(f.name, sizeof f.name, "%.10s-%u.%u>%u.%u", p[0] == 'u' ? "uni" : p, s % o->w,
                     s / o->w, d[k] % o->w, d[k] / o->w);
            f.sx = s % o->w, f.sy = s / o->w, f.dx = d[k] % o->w, f.dy = d[k] / o->w;
            if (add_flow(o, &f) < 0) {
                snprintf(err, errlen, "too many flows");
                return -1;
            }
        }
    }
    return 0;
}

/* --fault and --flow, read against the torus size. 0, or -1 (said why). */
static int torus_given(sci_scn_t *o)
{
    char err[600];
    for (unsigned k = 0; k < o->nfault_args; k++) {
        const char *a = o->fault_args[k], *c = strchr(a, ':');
        uint64_t at;
        char when[32];
        if (!c || (size_t)(c - a) >= sizeof when) {
            fprintf(stderr, "ftsim torus: --fault %s: WHEN:CONTROL\n", a);
            return -1;
        }
        snprintf(when, sizeof when, "%.*s", (int)(c - a), a);
        if (sci_scn_time(when, &at) < 0 || add_fault(o, at, c + 1, a, 0, err, sizeof err) < 0) {
            fprintf(stderr, "ftsim torus: --fault %s: %s\n", a,
                    sci_scn_time(when, &at) < 0 ? "WHEN is a time (20ms, 150us, cycles)" : err);
            return -1;
        }
    }
    for (unsigned k = 0; k < o->nflow_args; k++)
        if (parse_flow_arg(o, o->flow_args[k], err, sizeof err) < 0) {
            fprintf(stderr, "ftsim torus: %s\n", err);
            return -1;
        }
    return 0;
}

/* N cable pulls at seeded random times, each put back later if the run lasts. */
static void random_faults(sci_scn_t *o, prng_t *rng)
{
    char err[600];
    for (unsigned k = 0; k < o->random_faults && o->nfaults + 2 <= SCI_SCN_MAXFAULT; k++) {
        uint64_t at = o->run / 10 + prng_below(rng, (uint32_t)(o->run / 2));
        uint64_t back = at + o->run / 10 + prng_below(rng, (uint32_t)(o->run / 4));
        char c[32], r[32];
        unsigned x = prng_below(rng, o->w), y = prng_below(rng, o->h);
        const char *d = prng_below(rng, 2) ? "y" : "x";
        snprintf(c, sizeof c, "cut %s %u,%u", d, x, y);
        snprintf(r, sizeof r, "restore %s %u,%u", d, x, y);
        add_fault(o, at, c, NULL, 0, err, sizeof err);
        if (back < o->run)
            add_fault(o, back, r, NULL, 0, err, sizeof err);
    }
}

/* A fault at or after the run's end would never be applied (or would be, in the drain, which
 * is not the run): refused. But a scenario cut short by --run keeps the faults of its own run:
 * those are left out, and the report lists them as such. 0, or -1 (said why). */
static int faults_in_run(sci_scn_t *o)
{
    for (unsigned k = 0; k < o->nfaults; k++) {
        sci_scn_fault_t *f = &o->faults[k];
        if (f->at < o->run)
            continue;
        uint64_t own_end = o->scenario_run ? o->scenario_run : 10u * 100000u;
        if (f->line && o->cli_run && f->at < own_end) {
            f->left_out = 1;
            continue;
        }
        char where[600];
        if (f->line)
            snprintf(where, sizeof where, "%s:%u: fault %s", o->scenario, f->line, f->what);
        else
            snprintf(where, sizeof where, "ftsim torus: --fault %s", f->arg ? f->arg : f->what);
        const char *why = o->cli_run        ? "--run"
                          : o->scenario_run ? "the scenario's run"
                                            : "the default; --run T sets it";
        fprintf(stderr,
                "%s: at %.3f ms, not before the run's end (%.3f ms, %s): it would never "
                "happen in the run\n",
                where, (double)f->at / 1e5, (double)o->run / 1e5, why);
        return -1;
    }
    return 0;
}

/* Everything the command line and the scenario say, checked and completed: the torus, the
 * flows, the faults, the run and the bins. 0, or 2 (said why). */
int sci_scn_plan(sci_scn_t *o, prng_t *rng)
{
    char err[600];
    if (o->scenario && (load_scenario(o, err, sizeof err) < 0 ||
                        parse_scenario(o, o->scenario, 0, err, sizeof err) < 0)) {
        fprintf(stderr, "ftsim torus: %s\n", err);
        return 2;
    }
    o->time_scale = o->cli_time_scale ? o->cli_time_scale : o->time_scale ? o->time_scale : 1;
    unsigned max = o->p2s ? 32 : 16;
    if (o->w < 2 || o->h < 2 || o->w > max || o->h > max) {
        if (o->torus_line)
            fprintf(stderr, "%s:%u: torus %ux%u: %s tori are 2x2 to %ux%u\n", o->scenario,
                    o->torus_line, o->w, o->h, o->p2s ? "P2S" : "LC3", max, max);
        else
            fprintf(stderr,
                    "ftsim torus: --torus WxH (or a scenario's torus WxH) is required; %s "
                    "tori are 2x2 to %ux%u\n",
                    o->p2s ? "P2S" : "LC3", max, max);
        return 2;
    }
    if (o->traffic && traffic_pattern_find(o->traffic) < 0) {
        fprintf(stderr,
                "ftsim torus: --traffic %s: uniform, bitrev, shuffle, butterfly, "
                "transpose, complement or hotspot\n",
                o->traffic);
        return 2;
    }
    if (torus_given(o) < 0)
        return 2;
    if (o->scenario && parse_scenario(o, o->scenario, 1, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim torus: %s\n", err);
        return 2;
    }
    prng_seed(rng, o->seed);
    if (o->traffic && pattern_flows(o, rng, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim torus: %s\n", err);
        return 2;
    }
    if (!o->nflows) {
        fprintf(stderr, "ftsim torus: no traffic: --traffic, --flow or a scenario with flows\n");
        return 2;
    }
    o->scenario_run = o->run;
    if (o->cli_run)
        o->run = o->cli_run;
    if (!o->run)
        o->run = 10u * 100000u; /* 10 ms */
    if (faults_in_run(o) < 0)
        return 2;
    if (o->bin == 0)
        o->bin = o->run / 100 ? o->run / 100 : 1;
    random_faults(o, rng);
    if (o->series) { /* a file that cannot be written is found before the run, not after */
        FILE *cf = fopen(o->series, "w");
        if (!cf) {
            fprintf(stderr, "ftsim torus: --series %s: cannot write\n", o->series);
            return 2;
        }
        fclose(cf);
    }
    return 0;
}
