/* record.c — `ftsim record`: the golden vector of a stimulus, from one model. */
#include <stdio.h>

#include "cmd.h"
#include "registry.h"
#include "lockstep.h"
#include "play.h"
#include "vec.h"

static const char usage_record[] =
    "usage: ftsim record IN.vec -o OUT.vec [--model csim|rtl]\n"
    "\n"
    "Plays the stimulus of IN.vec (its drives and config; its expectations are ignored) on\n"
    "one model (the C model by default) and writes a golden vector: the same drives and\n"
    "config, every non-IDLE output of every cycle, and the registers the design records\n"
    "(RN1: errors, alloc) whenever they change. Golden vectors are regenerated with\n"
    "`make vectors` and reviewed as a diff, never edited by hand.\n";

/* --model rtl or csim (one model writes the vector) into a dev_impl_t. */
static int one_model(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    unsigned m;
    if (ls_parse_models(val, &m) < 0 || (m != LS_RTL && m != LS_CSIM))
        return -1;
    *(dev_impl_t *)dst = m == LS_RTL ? DEV_IMPL_RTL : DEV_IMPL_CSIM;
    return 0;
}

int cmd_record(int argc, char **argv)
{
    const char *out = NULL;
    dev_impl_t impl = DEV_IMPL_CSIM;
    const opts_opt_t opts[] = {
        {NULL, 'o', OPTS_STR, &out, .msg = "-o takes a file name"},
        {"model", 0, OPTS_FN, &impl, .fn = one_model, .msg = "--model takes rtl or csim"},
        {0},
    };
    const char *in[2];
    opts_cmd_t c = {.name = "record",
                    .style = OPTS_HINT,
                    .unknown = "unknown option",
                    .opts = opts,
                    .pos = in,
                    .maxpos = 1};
    opts_res_t r;
    switch (opts_parse(&c, argc, argv, &r)) {
    case OPTS_OK: break;
    case OPTS_HELP: fputs(usage_record, stdout); return 0;
    case OPTS_UNKNOWN:
        if (r.npos == 1 && argv[r.at][0] != '-') /* a second vector, not an option */
            return cmd_bad("record", "one input vector only", argv[r.at]);
        /* fall through */
    default: fputs(r.msg, stderr); return 2;
    }
    if (r.npos == 0 || !out)
        return cmd_bad("record", "want IN.vec -o OUT.vec", NULL);
    vec_t v;
    char err[1024];
    if (vec_load(in[0], &registry_catalog, &v, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int rc = record_run(&v, impl, out);
    vec_free(&v);
    return rc;
}
