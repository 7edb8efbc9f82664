// sc_bench.cpp — `ftsim-sc bench`: the C harness and the SystemC harness side by side in one
// process, on the same RN1 fuzz traffic and the same captured stimulus replayed.
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "sc_dev.h"
#include "sc_main.h"

extern "C" {
#include "cmd.h"
#include "fuzz_rnp.h"
#include "lockstep.h"
#include "rn1_dev.h"
}

namespace
{

const char usage_bench[] =
    "usage: ftsim-sc bench [--cycles N] [--seed S] [--repeat K]\n"
    "\n"
    "RN1 under the C harness (Verilated --cc RTL, C model) and under the SystemC harness\n"
    "(Verilated --sc module, C model module, bound through sc_signals and clocked by the\n"
    "SystemC kernel), each on the rtl, the csim and both in lockstep: the fuzz traffic of\n"
    "seed S with its endpoint models, then its stimulus captured and replayed with no\n"
    "endpoint models. Prints simulated cycles/s, the best of K rounds (default 3), and the\n"
    "ratio C harness / SystemC harness per run; the last lines are 'bench: NAME C SC' for\n"
    "make bench. Default --cycles 200000.\n";

struct Run {
    const char *name;
    unsigned models;
};
const Run runs[] = {{"rtl", LS_RTL}, {"csim", LS_CSIM}, {"lockstep", LS_BOTH}};

double fuzz_cps(const fuzz_opts_t &base, unsigned models, const dev_design_t *d, uint16_t *cap)
{
    fuzz_rn1_opts_t o = {};
    double c = 0;
    o.base = base;
    o.base.models = models;
    o.base.quiet = 1;
    o.base.cps = &c;
    o.capture = cap;
    o.design = d;
    return fuzz_rn1(&o) == 0 ? c : 0;
}

} // namespace

int cmd_sc_bench(int argc, char **argv)
{
    fuzz_opts_t base = {};
    base.seed = 1;
    base.cycles = 200000;
    base.outdir = "build/fuzz";
    unsigned repeat = 3;
    opts_opt_t opts[4] = {};
    opts[0] = {"cycles", 0, OPTS_U64, &base.cycles};
    opts[0].min = 1000;
    opts[0].max = 1e8;
    opts[0].msg = "--cycles takes a number from 1000 to 100000000";
    opts[1] = {"seed", 0, OPTS_U64, &base.seed};
    opts[1].msg = "--seed takes a number";
    opts[2] = {"repeat", 0, OPTS_UINT, &repeat};
    opts[2].min = 1;
    opts[2].max = 100;
    opts[2].msg = "--repeat takes a number from 1 to 100";
    opts_cmd_t c = {};
    c.name = "bench";
    c.style = OPTS_HINT;
    c.unknown = "unknown option";
    c.opts = opts;
    int rc = cmd_parse(&c, usage_bench, argc, argv, nullptr);
    if (rc >= 0)
        return rc;
    const dev_design_t *sd = sc_design_for(&rn1_design);
    uint16_t *cap = static_cast<uint16_t *>(malloc(base.cycles * 16 * sizeof *cap));
    if (!cap)
        return 2;
    double best[2][2][3] = {}; // [fuzz, replay][C, SC][run]
    for (unsigned round = 0; round < repeat; round++)
        for (unsigned k = 0; k < 3; k++)
            for (unsigned h = 0; h < 2; h++) {
                const dev_design_t *d = h ? sd : &rn1_design;
                double f =
                    fuzz_cps(base, runs[k].models, d, round == 0 && k == 1 && !h ? cap : nullptr);
                if (f == 0) {
                    fprintf(stderr, "ftsim-sc bench: the fuzz run failed\n");
                    free(cap);
                    return 1;
                }
                double r = bench_replay_on(d, cap, base.cycles, runs[k].models, nullptr, nullptr);
                if (f > best[0][h][k])
                    best[0][h][k] = f;
                if (r > best[1][h][k])
                    best[1][h][k] = r;
            }
    free(cap);
    printf("RN1, %llu cycles a run, seed %llu, best of %u; simulated cycles/s\n\n",
           (unsigned long long)base.cycles, (unsigned long long)base.seed, repeat);
    printf("| run | C harness | SystemC harness | C / SystemC |\n|---|---:|---:|---:|\n");
    for (unsigned w = 0; w < 2; w++)
        for (unsigned k = 0; k < 3; k++)
            printf("| RN1 %s, %s | %.0f | %.0f | %.2fx |\n",
                   w ? "stimulus replayed" : "fuzz traffic", runs[k].name, best[w][0][k],
                   best[w][1][k], best[w][1][k] > 0 ? best[w][0][k] / best[w][1][k] : 0.0);
    for (unsigned w = 0; w < 2; w++)
        for (unsigned k = 0; k < 3; k++)
            printf("bench: RN1 %s, %s: %.0f %.0f\n", w ? "stimulus replayed" : "fuzz traffic",
                   runs[k].name, best[w][0][k], best[w][1][k]);
    return 0;
}
