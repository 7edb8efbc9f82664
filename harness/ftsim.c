/*
 * ftsim.c — the command: play, record, fuzz, bench, info.
 * Exit status everywhere: 0 pass, 1 mismatch, 2 bad input or bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "lockstep.h"
#include "play.h"
#include "vec.h"

static const char usage_main[] =
    "usage: ftsim COMMAND [options]   (ftsim COMMAND --help for more)\n"
    "\n"
    "  play FILE.vec...   play vectors: RTL and C model in lockstep, expectations checked\n"
    "  record FILE.vec    write the golden vector of a stimulus (drives + every output)\n"
    "  fuzz               random traffic, models in lockstep, end-to-end checks\n"
    "  bench              simulated cycles per second: rtl, csim, lockstep, rtl+FST\n"
    "  info [DEVICE]      the devices, their ports, registers and config keys\n"
    "\n"
    "Exit status: 0 pass, 1 mismatch, 2 bad input or arguments.\n";

static const char usage_play[] =
    "usage: ftsim play FILE.vec... [--model rtl|csim|both] [--wave FILE.fst] [--max-msgs N]\n"
    "\n"
    "Plays each vector (../shared/spec/vectors.md). --model both (the default) runs the\n"
    "Verilated RTL and the C reference model in lockstep and compares every output and the\n"
    "debug state every cycle; the first divergence is named with its cycle, port or field,\n"
    "both values and the vector line. --wave dumps the RTL as FST (1 cycle = 10 ns; cycle N\n"
    "starts at N*10 ns; open with: gtkwave -a waves/rn1.gtkw FILE.fst). --wave takes one\n"
    "vector. The last line for each vector is PASS <file> or FAIL <file>.\n"
    "Exit: 0 all pass, 1 a mismatch, 2 a malformed vector (file:line: message) or bad args.\n";

static const char usage_record[] =
    "usage: ftsim record IN.vec -o OUT.vec [--model csim|rtl]\n"
    "\n"
    "Plays the stimulus of IN.vec (its drives and config; its expectations are ignored) on\n"
    "one model (the C model by default) and writes a golden vector: the same drives and\n"
    "config, every non-IDLE output of every cycle, and the registers the design records\n"
    "(RN1: errors, alloc) whenever they change. Golden vectors are regenerated with\n"
    "`make vectors` and reviewed as a diff, never edited by hand.\n";

static const char usage_fuzz[] =
    "usage: ftsim fuzz --device rn1 [--seed S] [--cycles N] [--model rtl|csim|both]\n"
    "                  [--out DIR] [--record FILE.vec] [--wave FILE.fst] [--quiet]\n"
    "\n"
    "Endpoint models on every port open random connections (directions, lengths, HOLDs,\n"
    "TURNs back and forth, DROPs and IDLE from either end, invalid words, contention,\n"
    "random swallow/disable masks, both modes, configuration written mid-run) while the\n"
    "models run in lockstep; a scoreboard checks delivery and every STATUS/CHECKSUM end to\n"
    "end. The seed is printed (default: from the clock). On a failure it writes a\n"
    "reproducer vector and its FST waveform under --out (default build/fuzz) and says where.\n"
    "Defaults: --cycles 100000, --model both.\n";

static const char usage_bench[] =
    "usage: ftsim bench [--device rn1] [--cycles N] [--seed S]\n"
    "\n"
    "Runs the fuzz traffic on the RTL alone, the C model alone, both in lockstep, and the\n"
    "RTL with an FST waveform written; then replays the captured stimulus on each with no\n"
    "endpoint models (the models' own cost). All in this one process, one after the other;\n"
    "prints simulated cycles per second with the ratios. Default --cycles 1000000.\n";

static const char usage_info[] =
    "usage: ftsim info [DEVICE]\n\nLists the devices, or one device's ports, registers and "
    "config keys.\n";

static int want_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

static int bad_arg(const char *cmd, const char *msg, const char *arg)
{
    fprintf(stderr, "ftsim %s: %s%s%s\n(ftsim %s --help)\n", cmd, msg, arg ? ": " : "",
            arg ? arg : "", cmd);
    return 2;
}

static int parse_u64_arg(const char *s, uint64_t *v)
{
    if (!s || !*s || *s == '-')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

static int cmd_play(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_play, stdout);
        return 0;
    }
    play_opts_t o = {.models = LS_BOTH, .max_msgs = 10};
    const char *files[4096];
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--model")) {
            if (i + 1 >= argc || ls_parse_models(argv[++i], &o.models) < 0)
                return bad_arg("play", "--model takes rtl, csim or both", i < argc ? argv[i] : NULL);
        } else if (!strcmp(argv[i], "--wave")) {
            if (i + 1 >= argc)
                return bad_arg("play", "--wave takes a file name", NULL);
            o.wave = argv[++i];
        } else if (!strcmp(argv[i], "--max-msgs")) {
            uint64_t n;
            if (i + 1 >= argc || parse_u64_arg(argv[++i], &n) < 0 || n == 0 || n > 100000)
                return bad_arg("play", "--max-msgs takes a number from 1 to 100000", NULL);
            o.max_msgs = (unsigned)n;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return bad_arg("play", "unknown option", argv[i]);
        } else if (nfiles < 4096) {
            files[nfiles++] = argv[i];
        }
    }
    if (nfiles == 0)
        return bad_arg("play", "no vector file given", NULL);
    if (o.wave && nfiles > 1)
        return bad_arg("play", "--wave takes one vector", NULL);
    int worst = 0;
    for (int k = 0; k < nfiles; k++) {
        vec_t v;
        char err[1024];
        int rc = vec_load(files[k], &v, err, sizeof err);
        if (rc) {
            printf("%s\nFAIL %s\n", err, files[k]);
            fflush(stdout);
            fprintf(stderr, "%s\n", err);
            worst = 2;
            continue;
        }
        rc = play_run(&v, &o);
        vec_free(&v);
        if (rc > worst)
            worst = rc;
        fflush(stdout);
    }
    return worst;
}

static int cmd_record(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_record, stdout);
        return 0;
    }
    const char *in = NULL, *out = NULL;
    dev_impl_t impl = DEV_IMPL_CSIM;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc)
                return bad_arg("record", "-o takes a file name", NULL);
            out = argv[++i];
        } else if (!strcmp(argv[i], "--model")) {
            unsigned m;
            if (i + 1 >= argc || ls_parse_models(argv[++i], &m) < 0 || m == LS_BOTH)
                return bad_arg("record", "--model takes rtl or csim", NULL);
            impl = m == LS_RTL ? DEV_IMPL_RTL : DEV_IMPL_CSIM;
        } else if (argv[i][0] == '-') {
            return bad_arg("record", "unknown option", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return bad_arg("record", "one input vector only", argv[i]);
        }
    }
    if (!in || !out)
        return bad_arg("record", "want IN.vec -o OUT.vec", NULL);
    vec_t v;
    char err[1024];
    if (vec_load(in, &v, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int rc = record_run(&v, impl, out);
    vec_free(&v);
    return rc;
}

static uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20);
    return x % 1000000000ull;
}

/* Options shared by fuzz and bench. */
static int parse_fuzz_opts(const char *cmd, int argc, char **argv, fuzz_opts_t *o, int *seeded)
{
    const char *device = "rn1";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--device")) {
            if (!v)
                return bad_arg(cmd, "--device takes a name", NULL);
            device = argv[++i];
        } else if (!strcmp(a, "--seed")) {
            if (parse_u64_arg(v, &o->seed) < 0)
                return bad_arg(cmd, "--seed takes a non-negative number", v);
            *seeded = 1;
            i++;
        } else if (!strcmp(a, "--cycles")) {
            if (parse_u64_arg(v, &o->cycles) < 0 || o->cycles == 0 || o->cycles > (1ull << 40))
                return bad_arg(cmd, "--cycles takes a number from 1 to 2^40", v);
            i++;
        } else if (!strcmp(a, "--model") && !strcmp(cmd, "fuzz")) {
            if (!v || ls_parse_models(v, &o->models) < 0)
                return bad_arg(cmd, "--model takes rtl, csim or both", v);
            i++;
        } else if (!strcmp(a, "--out") && !strcmp(cmd, "fuzz")) {
            if (!v)
                return bad_arg(cmd, "--out takes a directory", NULL);
            o->outdir = argv[++i];
        } else if (!strcmp(a, "--record") && !strcmp(cmd, "fuzz")) {
            if (!v)
                return bad_arg(cmd, "--record takes a file name", NULL);
            o->record = argv[++i];
        } else if (!strcmp(a, "--wave") && !strcmp(cmd, "fuzz")) {
            if (!v)
                return bad_arg(cmd, "--wave takes a file name", NULL);
            o->wave = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else {
            return bad_arg(cmd, "unknown argument", a);
        }
    }
    if (strcmp(device, "rn1") != 0) {
        fprintf(stderr, "ftsim %s: no fuzz for device '%s' yet (devices with fuzz: rn1)\n", cmd,
                device);
        return 2;
    }
    if (o->wave && o->models == LS_CSIM)
        return bad_arg(cmd, "--wave traces the RTL: use --model rtl or both", NULL);
    return 0;
}

static int cmd_fuzz(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_fuzz, stdout);
        return 0;
    }
    fuzz_opts_t o = {.cycles = 100000, .models = LS_BOTH};
    int seeded = 0;
    int rc = parse_fuzz_opts("fuzz", argc, argv, &o, &seeded);
    if (rc)
        return rc;
    if (!seeded)
        o.seed = clock_seed();
    return fuzz_rn1(&o);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Replay a captured stimulus (16 words a cycle) on a set of models: the models' cost alone. */
static double replay_cps(const uint16_t *cap, uint64_t cycles, unsigned models, const char *wave)
{
    lockstep_t ls;
    char err[DEV_ERR_LEN];
    if (ls_open(&ls, dev_find_design("rn1"), models, err, sizeof err) < 0) {
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
    uint64_t in[DEV_MAX_PORTS] = {0};
    double t0 = now_s();
    for (uint64_t c = 0; c < cycles; c++) {
        for (unsigned i = 0; i < 16; i++)
            in[i] = cap[c * 16 + i];
        ls_set_inputs(&ls, in);
        ls_sample(&ls);
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

static int cmd_bench(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_bench, stdout);
        return 0;
    }
    fuzz_opts_t base = {.cycles = 1000000, .seed = 1, .quiet = 1};
    int seeded = 0;
    int rc = parse_fuzz_opts("bench", argc, argv, &base, &seeded);
    if (rc)
        return rc;
    static const struct {
        const char *name;
        unsigned models;
        int wave;
    } runs[] = {{"rtl", LS_RTL, 0}, {"csim", LS_CSIM, 0}, {"lockstep (rtl+csim)", LS_BOTH, 0},
                {"rtl + FST", LS_RTL, 1}};
    double fz[4] = {0}, rp[4] = {0};
    char wave[] = "build/bench-rn1.fst";
    uint16_t *cap = malloc(base.cycles * 16 * sizeof *cap);
    if (!cap) {
        fprintf(stderr, "ftsim bench: out of memory for %llu cycles\n", (unsigned long long)base.cycles);
        return 2;
    }
    for (unsigned k = 0; k < 4; k++) {
        fuzz_opts_t o = base;
        o.models = runs[k].models;
        o.wave = runs[k].wave ? wave : NULL;
        o.cps = &fz[k];
        o.capture = k == 1 ? cap : NULL;
        printf("-- fuzz traffic: %s\n", runs[k].name);
        fflush(stdout);
        if (fuzz_rn1(&o) != 0) {
            free(cap);
            return 1;
        }
    }
    for (unsigned k = 0; k < 4; k++)
        rp[k] = replay_cps(cap, base.cycles, runs[k].models, runs[k].wave ? wave : NULL);
    free(cap);
    remove(wave);
    printf("\nRN1, %llu cycles per run, seed %llu, all runs in this one process one after the other.\n"
           "fuzz: endpoint models generate and check the traffic; replay: the captured fuzz\n"
           "stimulus replayed with no endpoints (the models' own cost).\n\n",
           (unsigned long long)base.cycles, (unsigned long long)base.seed);
    printf("| run | fuzz cycles/s | vs rtl | replay cycles/s | vs rtl |\n|---|---:|---:|---:|---:|\n");
    for (unsigned k = 0; k < 4; k++)
        printf("| %s | %.0f | %.2fx | %.0f | %.2fx |\n", runs[k].name, fz[k],
               fz[0] > 0 ? fz[k] / fz[0] : 0, rp[k], rp[0] > 0 ? rp[k] / rp[0] : 0);
    printf("\nreplay ratios: csim/rtl %.1fx; lockstep/rtl %.2fx; FST tracing slows rtl %.1fx\n",
           rp[0] > 0 ? rp[1] / rp[0] : 0, rp[0] > 0 ? rp[2] / rp[0] : 0,
           rp[3] > 0 ? rp[0] / rp[3] : 0);
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    if (want_help(argc, argv) || argc > 1) {
        fputs(usage_info, argc > 1 ? stderr : stdout);
        return argc > 1 ? 2 : 0;
    }
    if (argc == 0) {
        for (const dev_design_t *const *d = dev_designs(); *d; d++)
            printf("%-8s %s\n", (*d)->name, (*d)->summary);
        return 0;
    }
    const dev_design_t *d = dev_find_design(argv[0]);
    if (!d) {
        fprintf(stderr, "ftsim info: unknown device '%s'\n", argv[0]);
        return 2;
    }
    printf("%s: %s\n\nports (name, direction, width):\n", d->name, d->summary);
    for (unsigned i = 0; i < d->nports; i++)
        printf("  %-8s %-3s %u\n", d->ports[i].name, d->ports[i].dir == DEV_IN ? "in" : "out",
               d->ports[i].width);
    printf("\nregisters (name, address, bits, access, default):\n");
    for (unsigned i = 0; i < d->nregs; i++) {
        const dev_reg_t *r = &d->regs[i];
        printf("  %-10s 0x%02x [%u:%u] %s", r->name, r->addr, r->lsb + r->width - 1, r->lsb,
               r->flags & DEV_REG_CONFIG ? "config" : r->flags & DEV_REG_RO ? "ro" : "rw");
        if (r->flags & DEV_REG_CONFIG)
            printf(" default 0x%llx", (unsigned long long)r->dflt);
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(usage_main, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    int sub_argc = argc - 2;
    char **sub_argv = argv + 2;
    if (!strcmp(cmd, "play"))
        return cmd_play(sub_argc, sub_argv);
    if (!strcmp(cmd, "record"))
        return cmd_record(sub_argc, sub_argv);
    if (!strcmp(cmd, "fuzz"))
        return cmd_fuzz(sub_argc, sub_argv);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(sub_argc, sub_argv);
    if (!strcmp(cmd, "info"))
        return cmd_info(sub_argc, sub_argv);
    fprintf(stderr, "ftsim: unknown command '%s'\n%s", cmd, usage_main);
    return 2;
}
