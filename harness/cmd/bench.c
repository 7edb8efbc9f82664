/* bench.c — `ftsim bench`: simulated cycles per second of the RN1 models, with the fuzz
 * traffic and replaying it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "rn1_dev.h"
#include "dev.h"
#include "fuzz_rnp.h"
#include "lockstep.h"
#include "vec.h"

static const char usage_bench[] =
    "usage: ftsim bench [--device rn1] [--cycles N] [--seed S] [--repeat K]\n"
    "\n"
    "Runs the fuzz traffic on the RTL alone, the C model alone, both in lockstep, and the\n"
    "RTL with an FST waveform written; then replays the captured stimulus on each with no\n"
    "endpoint models (the models' own cost). All in this one process, one after the other;\n"
    "prints simulated cycles per second with the ratios, the best of K rounds (default 3;\n"
    "the machine is shared, so the fastest try is the fairest). Default --cycles 1000000.\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The output signature tests/icarus/tb_rn1_replay.sv computes: per cycle f0..f7, b0..b7, then
 * the bc outputs, each folded in as sig = sig * 31 + word. */
static uint64_t sig_fold(uint64_t sig, const uint64_t *out)
{
    for (unsigned i = 0; i < 8; i++)
        sig = sig * 31u + out[24 + i];
    for (unsigned i = 0; i < 8; i++)
        sig = sig * 31u + out[32 + i];
    uint64_t bc = 0;
    for (unsigned i = 0; i < 8; i++)
        bc |= (out[40 + i] & 1u) << i;
    return sig * 31u + bc;
}

double bench_replay(const uint16_t *cap, uint64_t cycles, unsigned models, const char *wave,
                    uint64_t *sig)
{
    return bench_replay_on(&rn1_design, cap, cycles, models, wave, sig);
}

double bench_replay_on(const dev_design_t *d, const uint16_t *cap, uint64_t cycles, unsigned models,
                       const char *wave, uint64_t *sig)
{
    lockstep_t ls;
    char err[DEV_ERR_LEN];
    if (ls_open(&ls, d, models, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim bench: %s\n", err);
        return 0;
    }
    dev_write_t w[VEC_MAX_WRITES];
    unsigned n = dev_config_defaults(ls.d, w, VEC_MAX_WRITES);
    ls_reset(&ls, w, n);
    if (wave && dev_trace_open(ls.m[0], wave, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim bench: %s\n", err);
        ls_close(&ls);
        return 0;
    }
    uint64_t in[48] = {0}; /* rn1's ports */
    double t0 = now_s();
    for (uint64_t c = 0; c < cycles; c++) {
        for (unsigned i = 0; i < 16; i++)
            in[i] = cap[c * 16 + i];
        ls_set_inputs(&ls, in);
        ls_sample(&ls);
        if (sig)
            *sig = sig_fold(*sig, ls.out[ls.n - 1]);
        if (ls_diverged(&ls, err, sizeof err)) {
            fprintf(stderr, "ftsim bench: replay diverged at cycle %llu: %s\n",
                    (unsigned long long)c, err);
            break;
        }
        ls_tick(&ls, err, sizeof err);
    }
    double secs = now_s() - t0;
    if (wave)
        dev_trace_close(ls.m[0]);
    ls_close(&ls);
    return secs > 0 ? (double)cycles / secs : 0;
}

/* The runs, each timed with the fuzz traffic and then replaying the captured stimulus: the
 * best of `repeat` rounds, the runs interleaved within a round (the machine is shared and
 * noisy, so the fastest of several tries is the fairest estimate of each). */
static int bench_rounds(const fuzz_opts_t *base, unsigned repeat)
{
    static const struct {
        const char *name;
        unsigned models;
        int wave;
    } runs[] = {{"rtl", LS_RTL, 0},
                {"csim", LS_CSIM, 0},
                {"lockstep (rtl+csim)", LS_BOTH, 0},
                {"rtl + FST", LS_RTL, 1}};
    double fz[4] = {0}, rp[4] = {0};
    char wave[] = "build/bench-rn1.fst";
    uint16_t *cap = malloc(base->cycles * 16 * sizeof *cap);
    if (!cap) {
        fprintf(stderr, "ftsim bench: out of memory for %llu cycles\n",
                (unsigned long long)base->cycles);
        return 2;
    }
    for (unsigned round = 0; round < repeat; round++) {
        for (unsigned k = 0; k < 4; k++) {
            fuzz_rn1_opts_t o = {.base = *base, .capture = k == 1 ? cap : NULL};
            double c = 0;
            o.base.models = runs[k].models;
            o.base.wave = runs[k].wave ? wave : NULL;
            o.base.cps = &c;
            printf("-- round %u, fuzz traffic: %s\n", round + 1, runs[k].name);
            fflush(stdout);
            if (fuzz_rn1(&o) != 0) {
                free(cap);
                return 1;
            }
            if (c > fz[k])
                fz[k] = c;
        }
        for (unsigned k = 0; k < 4; k++) {
            double c =
                bench_replay(cap, base->cycles, runs[k].models, runs[k].wave ? wave : NULL, NULL);
            if (c > rp[k])
                rp[k] = c;
        }
    }
    free(cap);
    remove(wave);
    printf("\nRN1, %llu cycles per run, seed %llu, best of %u rounds, all in this one process.\n"
           "fuzz: endpoint models generate and check the traffic; replay: the captured fuzz\n"
           "stimulus replayed with no endpoints (the models' own cost).\n\n",
           (unsigned long long)base->cycles, (unsigned long long)base->seed, repeat);
    printf(
        "| run | fuzz cycles/s | vs rtl | replay cycles/s | vs rtl |\n|---|---:|---:|---:|---:|\n");
    for (unsigned k = 0; k < 4; k++)
        printf("| %s | %.0f | %.2fx | %.0f | %.2fx |\n", runs[k].name, fz[k],
               fz[0] > 0 ? fz[k] / fz[0] : 0, rp[k], rp[0] > 0 ? rp[k] / rp[0] : 0);
    printf("\nreplay ratios: csim/rtl %.1fx; lockstep/rtl %.2fx; FST tracing slows rtl %.1fx\n",
           rp[0] > 0 ? rp[1] / rp[0] : 0, rp[0] > 0 ? rp[2] / rp[0] : 0,
           rp[3] > 0 ? rp[0] / rp[3] : 0);
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    fuzz_opts_t base = {.cycles = 1000000, .seed = 1, .quiet = 1};
    const char *device = "rn1";
    unsigned repeat = 3;
    const opts_opt_t opts[] = {
        {"device", 0, OPTS_STR, &device, .msg = "--device takes a name"},
        {"seed", 0, OPTS_U64, &base.seed, .flags = OPTS_SHOW,
         .msg = "--seed takes a non-negative number"},
        {"cycles", 0, OPTS_U64, &base.cycles, .min = 1, .max = 0x1p40, .flags = OPTS_SHOW,
         .msg = "--cycles takes a number from 1 to 2^40"},
        {"quiet", 0, OPTS_FLAG, &base.quiet, .set = 1},
        {"repeat", 0, OPTS_UINT, &repeat, .min = 1, .max = 20, .flags = OPTS_SHOW,
         .msg = "--repeat takes a number from 1 to 20"},
        {0},
    };
    opts_cmd_t c = {
        .name = "bench", .style = OPTS_HINT, .unknown = "unknown argument", .opts = opts};
    int rc = cmd_parse(&c, usage_bench, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    if (strcmp(device, "rn1")) {
        fprintf(stderr,
                "ftsim bench: no fuzz for device '%s' yet (devices with fuzz: rn1, rnpnet, "
                "lc3, p2s, ring, torus)\n",
                device);
        return 2;
    }
    return bench_rounds(&base, repeat);
}
