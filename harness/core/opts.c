/*
 * opts.c — command-line options from a table, through getopt_long (see opts.h).
 *
 * getopt_long runs with opterr = 0 (the messages are ours) and the optstring "-:": a leading
 * '-' hands back positional words in place and in order (no permutation, whatever
 * POSIXLY_CORRECT says), ':' tells a missing value from an unknown option. Long option k
 * returns OPTS_LONG + k, so a missing value (where getopt_long sets no index) still names it.
 */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTS_LONG 256

typedef struct run {
    const opts_cmd_t *c;
    const opts_opt_t **ent; /* every entry of both tables */
    unsigned n;
    struct option *lo;
    char *shorts;
    char **av; /* a program name, then the words: getopt_long's argv */
} run_t;

static int takes_value(const opts_opt_t *o)
{
    return o->kind != OPTS_FLAG && o->kind != OPTS_COUNT;
}

static unsigned count(const opts_opt_t *t)
{
    unsigned n = 0;
    while (t && t[n].kind != OPTS_END)
        n++;
    return n;
}

static void run_free(run_t *r) { free(r->ent), free(r->lo), free(r->shorts), free(r->av); }

static int run_open(run_t *r, const opts_cmd_t *c, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    unsigned na = count(c->opts), nb = count(c->more);
    r->n = na + nb;
    r->ent = malloc((r->n + 1) * sizeof *r->ent);
    r->lo = calloc(r->n + 1, sizeof *r->lo);
    r->shorts = malloc(3 + 2 * (size_t)r->n);
    r->av = malloc(((size_t)argc + 2) * sizeof *r->av);
    if (!r->ent || !r->lo || !r->shorts || !r->av) {
        run_free(r);
        return -1;
    }
    char *s = r->shorts;
    *s++ = '-';
    *s++ = ':';
    unsigned nl = 0;
    for (unsigned k = 0; k < r->n; k++) {
        const opts_opt_t *o = k < na ? &c->opts[k] : &c->more[k - na];
        r->ent[k] = o;
        if (o->name)
            r->lo[nl++] = (struct option){o->name, takes_value(o) ? required_argument : no_argument,
                                          NULL, OPTS_LONG + (int)k};
        if (o->key) {
            *s++ = o->key;
            if (takes_value(o))
                *s++ = ':';
        }
    }
    *s = 0;
    r->av[0] = (char *)c->name;
    for (int i = 0; i < argc; i++)
        r->av[i + 1] = argv[i];
    r->av[argc + 1] = NULL;
    return 0;
}

/* The entry getopt_long's return value (or optopt) names, or NULL. */
static const opts_opt_t *entry(const run_t *r, int ch)
{
    if (ch >= OPTS_LONG && ch < OPTS_LONG + (int)r->n)
        return r->ent[ch - OPTS_LONG];
    for (unsigned k = 0; ch > 0 && k < r->n; k++)
        if (r->ent[k]->key == ch)
            return r->ent[k];
    return NULL;
}

/* A long option written out in full (`--name` or `--name=value`), not a prefix of it. */
static int full_name(const char *word, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(word, "--", 2) && !strncmp(word + 2, name, n) &&
           (word[2 + n] == 0 || word[2 + n] == '=');
}

static const char *hint_of(const opts_cmd_t *c, char *buf, size_t len)
{
    if (c->style != OPTS_HINT)
        return "";
    snprintf(buf, len, "(ftsim %s --help)\n", c->name);
    return buf;
}

static int refuse(opts_res_t *res, const run_t *r, int rc, int w, const opts_opt_t *o,
                  const char *val, const char *text)
{
    const opts_cmd_t *c = r->c;
    const char *word = r->av[w];
    char hint[128], opt[128];
    hint_of(c, hint, sizeof hint);
    if (o && o->name)
        snprintf(opt, sizeof opt, "--%s", o->name);
    else if (o)
        snprintf(opt, sizeof opt, "-%c", o->key);
    res->at = w - 1;
    res->opt = o;
    if (rc == OPTS_UNKNOWN && c->style == OPTS_HINT)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s: %s\n%s", c->name, c->unknown, word,
                 hint);
    else if (rc == OPTS_UNKNOWN)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s: %s\n", c->name, word, c->unknown);
    else if (text && *text && c->style == OPTS_VALUE)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s %s\n", c->name, opt, text);
    else if (text && *text)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s\n%s", c->name, text, hint);
    else if (c->style == OPTS_VALUE && rc == OPTS_MISSING)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s: %s\n", c->name, opt, c->missing);
    else if (c->style == OPTS_VALUE)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s %s: %s\n", c->name, opt, val,
                 o->msg ? o->msg : "refused");
    else if (rc == OPTS_BAD && (o->flags & OPTS_SHOW))
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s: %s\n%s", c->name, o->msg, val, hint);
    else if (o->msg)
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s\n%s", c->name, o->msg, hint);
    else
        snprintf(res->msg, sizeof res->msg, "ftsim %s: %s takes a value\n%s", c->name, opt, hint);
    return rc;
}

static int whole(const opts_opt_t *o, const char *s, uint64_t *v)
{
    if (!*s || *s == '-')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, o->flags & OPTS_DEC ? 10 : 0);
    if (errno || *end)
        return -1;
    if ((o->min != 0 || o->max != 0) && ((double)x < o->min || (double)x > o->max))
        return -1;
    if ((o->kind == OPTS_UINT && x > UINT_MAX) || (o->kind == OPTS_INT && x > INT_MAX))
        return -1;
    *v = x;
    return 0;
}

/* Store one option's value: 0, or -1 with text set when the option says why itself. */
static int store(const opts_opt_t *o, const char *val, char *text, size_t len)
{
    uint64_t x;
    double d;
    char *end;
    switch (o->kind) {
    case OPTS_FLAG: *(int *)o->dst = o->set; break;
    case OPTS_COUNT: ++*(int *)o->dst; break;
    case OPTS_STR: *(const char **)o->dst = val; break;
    case OPTS_U64:
    case OPTS_UINT:
    case OPTS_INT:
        if (whole(o, val, &x) < 0)
            return -1;
        if (o->kind == OPTS_U64)
            *(uint64_t *)o->dst = x;
        else if (o->kind == OPTS_UINT)
            *(unsigned *)o->dst = (unsigned)x;
        else
            *(int *)o->dst = (int)x;
        break;
    case OPTS_DBL:
        d = strtod(val, &end);
        if (end == val || *end || !isfinite(d) ||
            ((o->min != 0 || o->max != 0) && (d < o->min || d > o->max)))
            return -1;
        *(double *)o->dst = d;
        break;
    case OPTS_FN:
        if (o->fn(o->dst, val, text, len) < 0)
            return -1;
        break;
    case OPTS_END: return -1;
    }
    if (o->given)
        *o->given = 1;
    return 0;
}

/* The getopt_long loop. peek: store nothing, refuse nothing, and give back the value of the
 * last --peek. */
static int run_parse(run_t *r, int argc, opts_res_t *res, const char *peek, const char **peeked)
{
    const opts_cmd_t *c = r->c;
    opterr = 0;
    optind = 0; /* glibc: start afresh, forgetting any earlier scan */
    for (;;) {
        int w = optind < 1 ? 1 : optind; /* the word getopt_long is about to read */
        int ch = getopt_long(argc + 1, r->av, r->shorts, r->lo, NULL);
        if (ch == -1)
            break;
        const char *word = r->av[w];
        const opts_opt_t *o = entry(r, ch == ':' ? optopt : ch);
        int abbreviated =
            o && o->name && (ch == ':' ? optopt : ch) >= OPTS_LONG && !full_name(word, o->name);
        if (peek) {
            if (o && ch != ':' && !abbreviated && o->name && !strcmp(o->name, peek))
                *peeked = optarg;
            continue;
        }
        if (ch == 1) {
            if (!c->pos || res->npos >= c->maxpos)
                return refuse(res, r, OPTS_UNKNOWN, w, NULL, NULL, NULL);
            c->pos[res->npos++] = optarg;
        } else if (ch == '?' || !o || abbreviated) {
            return refuse(res, r, OPTS_UNKNOWN, w, NULL, NULL, NULL);
        } else if (ch == ':') {
            return refuse(res, r, OPTS_MISSING, w, o, NULL, NULL);
        } else {
            char text[512] = "";
            if (store(o, optarg, text, sizeof text) < 0)
                return refuse(res, r, OPTS_BAD, w, o, optarg, text);
        }
    }
    /* after "--" every word is positional */
    for (int i = optind < 1 ? 1 : optind; !peek && i <= argc; i++) {
        if (!c->pos || res->npos >= c->maxpos)
            return refuse(res, r, OPTS_UNKNOWN, i, NULL, NULL, NULL);
        c->pos[res->npos++] = r->av[i];
    }
    return OPTS_OK;
}

int opts_parse(const opts_cmd_t *c, int argc, char **argv, opts_res_t *res)
{
    memset(res, 0, sizeof *res);
    res->at = -1;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return OPTS_HELP;
    run_t r;
    if (run_open(&r, c, argc, argv) < 0) {
        snprintf(res->msg, sizeof res->msg, "ftsim %s: out of memory\n", c->name);
        return OPTS_BAD;
    }
    int rc = run_parse(&r, argc, res, NULL, NULL);
    run_free(&r);
    return rc;
}

const char *opts_peek(const opts_cmd_t *c, int argc, char **argv, const char *name)
{
    run_t r;
    opts_res_t res;
    const char *v = NULL;
    memset(&res, 0, sizeof res);
    if (run_open(&r, c, argc, argv) < 0)
        return NULL;
    run_parse(&r, argc, &res, name, &v);
    run_free(&r);
    return v;
}
