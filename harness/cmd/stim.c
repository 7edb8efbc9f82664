/* stim.c — `ftsim stim`: a captured rn1 fuzz stimulus for the Icarus replay of the RTL. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "fuzz_rnp.h"
#include "lockstep.h"

/* Write a captured fuzz stimulus for tests/icarus/tb_rn1_replay.sv and print the C model's
 * signature of its outputs (the default configuration; fuzz inputs, no register writes). */
static int write_stim(const char *path, const uint16_t *cap, uint64_t cycles)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "ftsim stim: cannot write %s\n", path);
        return -1;
    }
    for (uint64_t c = 0; c < cycles; c++) {
        /* {fwd_i[71:0], bwd_i[71:0]}: f7 first (most significant), then b7 .. b0 */
        unsigned char bits[18] = {0};
        for (unsigned k = 0; k < 16; k++) {
            unsigned port = k < 8 ? k : k; /* f0..f7 = 0..7, b0..b7 = 8..15 */
            uint64_t w = cap[c * 16 + port] & 0x1FFu;
            unsigned base = k < 8 ? 72 + 9 * k : 9 * (k - 8); /* bit offset in the 144-bit word */
            for (unsigned b = 0; b < 9; b++)
                if ((w >> b) & 1u)
                    bits[(base + b) / 8] |= (unsigned char)(1u << ((base + b) % 8));
        }
        for (int i = 17; i >= 0; i--)
            fprintf(f, "%02x", bits[i]);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

static const char usage_stim[] =
    "usage: ftsim stim --cycles N [--seed S] -o FILE.hex [--time-rtl]\n"
    "\n"
    "Captures N cycles of the rn1 fuzz stimulus (default configuration, no mid-run writes),\n"
    "writes it for tests/icarus/tb_rn1_replay.sv and prints the C model's output signature:\n"
    "the Icarus replay of the RTL must print the same (make test, suite icarus).\n"
    "--time-rtl also replays it on the Verilated RTL and prints its speed (make bench).\n";

int cmd_stim(int argc, char **argv)
{
    uint64_t cycles = 0, seed = 1;
    const char *out = NULL;
    int time_rtl = 0;
    const opts_opt_t opts[] = {
        {"time-rtl", 0, OPTS_FLAG, &time_rtl, .set = 1},
        {"cycles", 0, OPTS_U64, &cycles, .min = 1, .max = 1000000, .msg = "bad argument: --cycles"},
        {"seed", 0, OPTS_U64, &seed, .msg = "bad argument: --seed"},
        {NULL, 'o', OPTS_STR, &out, .msg = "bad argument: -o"},
        {0},
    };
    opts_cmd_t c = {.name = "stim", .style = OPTS_HINT, .unknown = "bad argument", .opts = opts};
    int rc = cmd_parse(&c, usage_stim, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    if (!cycles || !out)
        return cmd_bad("stim", "want --cycles N (1..1000000) and -o FILE", NULL);
    uint16_t *cap = calloc(cycles * 16, sizeof *cap);
    if (!cap)
        return 2;
    fuzz_rn1_opts_t o = {.base = {.cycles = cycles, .seed = seed, .quiet = 1, .models = LS_CSIM},
                         .capture = cap,
                         .plain = 1};
    FILE *keep = stdout;
    stdout = fopen("/dev/null", "w");
    rc = fuzz_rn1(&o);
    fclose(stdout);
    stdout = keep;
    uint64_t sig = 0, rsig = 0;
    double rtl = 0;
    if (rc == 0 && write_stim(out, cap, cycles) == 0) {
        bench_replay(cap, cycles, LS_CSIM, NULL, &sig);
        if (time_rtl)
            rtl = bench_replay(cap, cycles, LS_RTL, NULL, &rsig);
    } else {
        rc = 2;
    }
    free(cap);
    if (rc == 0)
        printf("SIG %016llx cycles %llu\n", (unsigned long long)sig, (unsigned long long)cycles);
    if (rc == 0 && time_rtl)
        printf("verilator rtl %.0f cycles/s, signature %s\n", rtl,
               rsig == sig ? "equal" : "DIFFERS");
    return rc;
}
