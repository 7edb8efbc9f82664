/* upsetcheck.c — `ftsim upsetcheck`: every element of a device's upset map, checked against a
 * stimulus (harness/core/upsetcheck.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "registry.h"
#include "upsetcheck.h"
#include "vec.h"

static const char usage_upsetcheck[] =
    "usage: ftsim upsetcheck STIM.vec... [--only NAME,...] [--part K] [--tries N] [--window N]\n"
    "                      [--seed S] [--bits N] [-v]\n"
    "\n"
    "Checks every element of the upset map of the vectors' device (ftsim info DEVICE --upsets)\n"
    "against their stimulus (drives, register writes and controls; expectations are ignored;\n"
    "several vectors of one device are taken in turn, try by try). For each element and each\n"
    "bit, the stimulus is played with that bit flipped at a cycle where the C model says it is\n"
    "live (read before it is overwritten; any cycle where the design cannot tell), and the bit\n"
    "passes when, within --window cycles (default 200) of the flip, it is seen from outside (an\n"
    "output, a debug word or a register read differs from the run without the upset; a table\n"
    "entry is read before and after the flip through its index and data registers) and the RTL\n"
    "and the C model stay in lockstep (every output, debug word and register read equal). An\n"
    "RTL-only element runs on the RTL alone; an element the design says nothing reads is\n"
    "flipped a few times and must never be seen. A flip that is not seen is tried at another\n"
    "cycle, up to --tries times (default 12). An RTL assertion after a flip is counted, not a\n"
    "failure. A failure names the upset as a vector statement (`@N seu NAME bitB`): added to\n"
    "the stimulus, `ftsim play` shows it.\n"
    "\n"
    "--only NAME,... checks those elements only; --part K a composite's part K (a ring's node,\n"
    "a torus's node in row order, a network's router; default 0), under its prefix; --bits N\n"
    "at most N bits of each element, spread from bit 0 to the top bit (default: every bit); -v\n"
    "a line per bit. The last line is `N passed, N failed` (elements). Exit: 0 every element\n"
    "passes, 1 one fails, 2 bad arguments or a malformed vector.\n";

int cmd_upsetcheck(int argc, char **argv)
{
    upset_check_opts_t o = {.tries = 12, .window = 200, .seed = 1};
    const opts_opt_t opts[] = {
        {"only", 0, OPTS_STR, &o.only, .msg = "--only takes elements' names, NAME[,NAME...]"},
        {"part", 0, OPTS_UINT, &o.part, .max = 1 << 20, .flags = OPTS_SHOW,
         .msg = "--part takes a part's number"},
        {"tries", 0, OPTS_UINT, &o.tries, .min = 1, .max = 10000, .flags = OPTS_SHOW,
         .msg = "--tries takes a number from 1 to 10000"},
        {"window", 0, OPTS_U64, &o.window, .min = 1, .max = 1e9, .flags = OPTS_SHOW,
         .msg = "--window takes a number of cycles from 1"},
        {"seed", 0, OPTS_U64, &o.seed, .flags = OPTS_SHOW, .msg = "--seed takes a number"},
        {"bits", 0, OPTS_UINT, &o.max_bits, .min = 1, .max = 64, .flags = OPTS_SHOW,
         .msg = "--bits takes a number from 1 to 64"},
        {NULL, 'v', OPTS_FLAG, &o.verbose, .set = 1},
        {0},
    };
    const char **in = malloc(((size_t)argc + 1) * sizeof *in);
    if (!in)
        return 2;
    opts_cmd_t c = {.name = "upsetcheck",
                    .style = OPTS_HINT,
                    .unknown = "unknown option",
                    .opts = opts,
                    .pos = in,
                    .maxpos = (unsigned)argc};
    unsigned n = 0;
    int rc = cmd_parse(&c, usage_upsetcheck, argc, argv, &n);
    if (rc < 0 && n == 0)
        rc = cmd_bad("upsetcheck", "want a stimulus vector, STIM.vec", NULL);
    vec_t *v = rc < 0 ? calloc(n, sizeof *v) : NULL;
    const vec_t **vp = rc < 0 ? calloc(n, sizeof *vp) : NULL;
    unsigned loaded = 0;
    if (rc < 0 && (!v || !vp))
        rc = 2;
    for (; rc < 0 && loaded < n; loaded++) {
        char err[1024];
        if (vec_load(in[loaded], &registry_catalog, &v[loaded], err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            rc = 2;
            break;
        }
        vp[loaded] = &v[loaded];
    }
    if (rc < 0)
        rc = upset_check(vp, n, &o);
    for (unsigned k = 0; k < loaded; k++)
        vec_free(&v[k]);
    free(v);
    free(vp);
    free(in);
    return rc;
}
