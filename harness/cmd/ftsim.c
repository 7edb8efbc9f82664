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

#include "experiment.h"
#include "fuzz.h"
#include "lockstep.h"
#include "play.h"
#include "registry.h"
#include "rn1_dev.h"
#include "rnpnet.h"
#include "sci_route.h"
#include "sci_sys.h"
#include "vec.h"

static const char usage_main[] =
    "usage: ftsim COMMAND [options]   (ftsim COMMAND --help for more)\n"
    "\n"
    "  play FILE.vec...   play vectors: RTL and C model in lockstep, expectations checked\n"
    "  record FILE.vec    write the golden vector of a stimulus (drives + every output)\n"
    "  fuzz               random traffic, models in lockstep, end-to-end checks\n"
    "  bench              simulated cycles per second: rtl, csim, lockstep, rtl+FST\n"
    "  info [DEVICE]      the devices, their ports, registers and config keys\n"
    "  net                RNP network topologies: stages, links, distinct paths per pair\n"
    "  route              SCI torus routing tables under faults: reachability, deadlock check\n"
    "  torus              run an SCI torus: flows, traffic patterns, faults, drivers\n"
    "  faultcheck         every single fault on a running SCI torus, with its checks\n"
    "  experiment NAME    measurements (rnp-load, rnp-patterns, rnp-policy, ring-down-9, ...)\n"
    "\n"
    "Exit status: 0 pass, 1 mismatch, 2 bad input or arguments.\n";

static const char usage_play[] =
    "usage: ftsim play FILE.vec... [--model rtl|csim|both] [--wave FILE.fst] [--show]\n"
    "                  [--max-msgs N]\n"
    "\n"
    "Plays each vector (../shared/spec/vectors.md). --model both (the default) runs the\n"
    "Verilated RTL and the C reference model in lockstep and compares every output and the\n"
    "debug state every cycle; the first divergence is named with its cycle, port or field,\n"
    "both values and the vector line. --wave dumps the RTL as FST (1 cycle = 10 ns; cycle N\n"
    "starts at N*10 ns; make wave V=FILE.vec opens it with the device's layout). --wave takes\n"
    "one vector. --show prints the run as a table, a row a cycle and a column a port that\n"
    "carried anything (the first 400 cycles). The last line for each vector is\n"
    "PASS <file> or FAIL <file>.\n"
    "\n"
    "Words by device (ftsim info DEVICE lists ports and registers):\n"
    "  rn1, rnpnet*: IDLE TURN HOLD DROP ROUTE:hh DATA:hh STATUS:hh CHECKSUM:hh W:hhh X;\n"
    "                networks: @N fault kill rR | cut L | stuck1 L | stuck L bitB V | flip L bitB\n"
    "  SCI link ports (lin, lout, lI): IDLE RDOWN:id S:0xhhhh W:0xhhhhh X, and the macros\n"
    "    pkt(target=T, cmd=DATA|ACK|PROBE|STATUS_READ|STATUS_REPLY|NOTIFY|FAIL_REPORT|n, src=S,\n"
    "        tid=I, data=[a,b,...], mark=0|1) and echo(target=T, type=ACCEPT|BUSY|ERROR, src=S,\n"
    "        tid=I): one symbol a cycle from cycle N, CRC computed, then the idle\n"
    "  SCI B-link and host ports (bin, bout, hin, hout, nI.hin, nI.hout), {last, valid, sym}:\n"
    "    IDLE S:0xhhhh L:0xhhhh (the last, CRC, symbol) X, and pkt(...) with last on its CRC\n"
    "  SCI rings (ringN, p2sringN): @N cut I / @N restore I (the cable out of node I)\n"
    "  SCI tori (torusWxH, p2storusWxH): @N cut x|y X,Y / @N restore x|y X,Y (the X or Y cable\n"
    "    out of node (X,Y)), @N off X,Y / @N on X,Y (power a node down / up)\n"
    "  Registers: @N reg NAME -> VALUE (expect), @N reg NAME <- VALUE (write, one a cycle)\n"
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
    "       ftsim fuzz --device rnpnet --endpoints N [--faults K] [--extra E] [--backchan]\n"
    "                  [--no-lft] [--retries R] [--gap G] [--seed S] [--cycles C] [--model M]\n"
    "                  [--wave FILE.fst [--wave-from CYCLE]] [--out DIR]\n"
    "       ftsim fuzz --device lc3|p2s [--seed S] [--cycles N] [--model M] [--out DIR]\n"
    "       ftsim fuzz --device ring [--nodes N] [--lc3|--p2s] [--gap G] [--pull I | --no-cuts]\n"
    "       ftsim fuzz --device torus --torus WxH [--lc3|--p2s] [--gap G] [--no-cuts]\n"
    "                  [--seed S] [--cycles C] [--model M] [--wave FILE.fst] [--out DIR]\n"
    "\n"
    "lc3, p2s: one SCI link controller; the stimulus plays the ring and the node around it\n"
    "(traffic, its own packets back, echoes for what it inserts, corrupt and marked packets,\n"
    "ring-down idles, signal detect lost, B-link packets, register writes). Passes when the\n"
    "models never diverge.\n"
    "\n"
    "ring: N nodes on one SCI ring (default: size and variant from the seed). The hosts run the\n"
    "end-to-end protocol of sci.md section 1 (sequence numbers per flow, acknowledgements,\n"
    "retransmission with a new tid on a timeout or a failure report, give-up after 10 tries)\n"
    "while cables are pulled and restored at random; a message every ~G cycles per flow. A\n"
    "ledger checks that every message is delivered once and in order, or its source gave it\n"
    "up; that nothing is delivered corrupt or unsent; and, after a drain, that nothing is left.\n"
    "--pull I: instead of random pulls, the cable out of node I is pulled at a fifth of the run\n"
    "and put back (at most 20000 cycles later); every LC must report its ring down and up again\n"
    "within the bounds of rtl/sci_lc.md section 3 (a table per node). --no-cuts: no pulls.\n"
    "torus: the same hosts and ledger on a W x H torus (up to 16 nodes) with its fault-free\n"
    "tables and random X and Y cable pulls; nothing reroutes yet, so messages across a pulled\n"
    "ring are given up by their sources, and the ledger checks they know.\n"
    "\n"
    "rnpnet: an RNP network of RN1s (N = 16, 64, 256 or 1024 endpoints; E extra front stages,\n"
    "default 1 from 256 endpoints, so SWALLOW is used; wiring from the seed). Endpoints send\n"
    "messages (one every ~G cycles each), read every router's STATUS/CHECKSUM, diagnose and\n"
    "retry; the link fault table masks what they locate. K random faults (dead router, dead\n"
    "link, control bit stuck at 1, stuck data bit, transient and intermittent bit flips) are\n"
    "injected at random times. Passes when the models never diverge, every message is\n"
    "delivered exactly once or its source gave up with no fault-free path left, nothing\n"
    "corrupt or unsent is delivered, and every located fault is a real one. A failure prints\n"
    "the command that reproduces it (with a waveform from shortly before) and, for runs up to\n"
    "400 000 cycles, writes a reproducer vector and its FST under --out.\n"
    "\n"
    "rn1:\n"
    "Endpoint models on every port open random connections (directions, lengths, HOLDs,\n"
    "TURNs back and forth, DROPs and IDLE from either end, invalid words, contention,\n"
    "random swallow/disable masks, both modes, configuration written mid-run) while the\n"
    "models run in lockstep; a scoreboard checks delivery and every STATUS/CHECKSUM end to\n"
    "end. The seed is printed (default: from the clock). On a failure it writes a\n"
    "reproducer vector and its FST waveform under --out (default build/fuzz) and says where.\n"
    "Defaults: --cycles 100000, --model both.\n";

static const char usage_bench[] =
    "usage: ftsim bench [--device rn1] [--cycles N] [--seed S] [--repeat K]\n"
    "\n"
    "Runs the fuzz traffic on the RTL alone, the C model alone, both in lockstep, and the\n"
    "RTL with an FST waveform written; then replays the captured stimulus on each with no\n"
    "endpoint models (the models' own cost). All in this one process, one after the other;\n"
    "prints simulated cycles per second with the ratios, the best of K rounds (default 3;\n"
    "the machine is shared, so the fastest try is the fairest). Default --cycles 1000000.\n";

static const char usage_net[] =
    "usage: ftsim net --endpoints N [--extra E] [--wiring S] [--links]\n"
    "\n"
    "Builds an RNP network of RN1s as `ftsim fuzz --device rnpnet` and the rnpnetN devices\n"
    "do, and shows that the wiring gives every source several distinct paths to every\n"
    "destination: per stage the routers, then over all source-destination pairs the\n"
    "number of distinct link-level paths (injection port x extra-stage digits x dilation\n"
    "choices) and the fewest routers any stage of a pair's paths offers. --links prints\n"
    "every link (router.backward-port -> router.forward-port). Devices rnpnet16/64/256\n"
    "use wiring seed 1 (rnpnet256: one extra stage).\n";

static const char usage_experiment[] =
    "usage: ftsim experiment NAME [--cycles N] [--seed S] [--model rtl|csim|both] [--out DIR]\n"
    "                        [--quiet]\n"
    "\n"
    "  rnp-load      RNP network (64 endpoints): delivered fraction, retries per message,\n"
    "                latency and accepted throughput vs offered load, for 0, 1, 4, 16 faults,\n"
    "                with and without the link fault table and the backward channel\n"
    "  rnp-patterns  the standard permutations, fault-free and with 4 faults\n"
    "  rnp-policy    permanent, transient and intermittent faults under three source\n"
    "                policies: no table, mask at the first diagnosis, seed 001's rules\n"
    "  ring-down-9, node-down-4, static-4, p2s-ring-down-9, p2s-node-down-4\n"
    "                the SCI torus experiments (ftsim experiment ring-down-9 --help)\n"
    "\n"
    "Each prints a markdown table and writes NAME.csv under --out (default build/experiments);\n"
    "`make paper` runs them all and draws the PNG plots. Defaults: --cycles 30000 a run,\n"
    "--seed 1, --model csim (the C model: the RTL gives the same numbers, slower).\n";

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
        } else if (!strcmp(argv[i], "--show")) {
            o.show = 1;
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
        int rc = vec_load(files[k], &registry_catalog, &v, err, sizeof err);
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
    if (vec_load(in, &registry_catalog, &v, err, sizeof err)) {
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
        } else if (!strcmp(a, "--p2s") || !strcmp(a, "--lc3")) {
            o->ring_p2s = !strcmp(a, "--p2s");
        } else if (!strcmp(a, "--torus")) {
            unsigned w = 0, h = 0;
            char c;
            if (!v || sscanf(v, "%ux%u%c", &w, &h, &c) != 2 || w < 2 || h < 2 || w * h > 16)
                return bad_arg(cmd, "--torus takes WxH, 2 to 16 nodes (e.g. 3x3)", v);
            o->torus_w = w;
            o->torus_h = h;
            i++;
        } else if (!strcmp(a, "--no-cuts")) {
            o->ring_nocuts = 1;
        } else if (!strcmp(a, "--pull")) {
            uint64_t x;
            if (parse_u64_arg(v, &x) < 0 || x > 15)
                return bad_arg(cmd, "--pull takes a node number, 0 to 15", v);
            o->ring_pull = (int)x;
            i++;
        } else if (!strcmp(a, "--nodes")) {
            uint64_t x;
            if (parse_u64_arg(v, &x) < 0 || x < 2 || x > 16)
                return bad_arg(cmd, "--nodes takes 2 to 16", v);
            o->ring_nodes = (unsigned)x;
            i++;
        } else if (!strcmp(a, "--endpoints") || !strcmp(a, "--faults") || !strcmp(a, "--extra") ||
                   !strcmp(a, "--retries") || !strcmp(a, "--gap")) {
            uint64_t x;
            if (parse_u64_arg(v, &x) < 0 || x > 1000000)
                return bad_arg(cmd, "takes a number", a);
            if (!strcmp(a, "--endpoints"))
                o->endpoints = (unsigned)x;
            else if (!strcmp(a, "--faults"))
                o->faults = (unsigned)x;
            else if (!strcmp(a, "--extra"))
                o->net_extra = (int)x;
            else if (!strcmp(a, "--retries"))
                o->net_retries = (unsigned)x;
            else
                o->net_gap = (unsigned)x;
            i++;
        } else if (!strcmp(a, "--wave-from")) {
            if (parse_u64_arg(v, &o->wave_from) < 0)
                return bad_arg(cmd, "--wave-from takes a cycle number", v);
            i++;
        } else if (!strcmp(a, "--backchan")) {
            o->net_backchan = 1;
        } else if (!strcmp(a, "--no-lft")) {
            o->net_no_lft = 1;
        } else {
            return bad_arg(cmd, "unknown argument", a);
        }
    }
    if (!strcmp(device, "rnpnet") && !strcmp(cmd, "fuzz")) {
        o->is_net = 1;
        if (o->endpoints != 16 && o->endpoints != 64 && o->endpoints != 256 && o->endpoints != 1024)
            return bad_arg(cmd, "--device rnpnet needs --endpoints 16, 64, 256 or 1024", NULL);
        if (o->faults > 64)
            return bad_arg(cmd, "--faults takes 0 to 64", NULL);
    } else if ((!strcmp(device, "lc3") || !strcmp(device, "p2s")) && !strcmp(cmd, "fuzz")) {
        o->sci = dev_catalog_find(&registry_catalog, device); /* fixed: nothing to release */
    } else if (!strcmp(device, "ring") && !strcmp(cmd, "fuzz")) {
        o->is_ring = 1;
    } else if (!strcmp(device, "torus") && !strcmp(cmd, "fuzz")) {
        o->is_ring = 1;
        if (!o->torus_w)
            return bad_arg(cmd, "--device torus needs --torus WxH (2x2 up to 16 nodes)", NULL);
    } else if (strcmp(device, "rn1") != 0) {
        fprintf(stderr, "ftsim %s: no fuzz for device '%s' yet (devices with fuzz: rn1, rnpnet, lc3, p2s, ring, torus)\n",
                cmd, device);
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
    fuzz_opts_t o = {.cycles = 100000, .models = LS_BOTH, .net_extra = -1, .ring_p2s = -1,
                     .ring_pull = -1};
    int seeded = 0;
    int rc = parse_fuzz_opts("fuzz", argc, argv, &o, &seeded);
    if (rc)
        return rc;
    if (!seeded)
        o.seed = clock_seed();
    if (o.sci)
        return fuzz_scilc(&o, o.sci);
    if (o.is_ring)
        return fuzz_sciring(&o);
    return o.is_net ? fuzz_rnpnet(&o) : fuzz_rn1(&o);
}

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

/* Replay a captured stimulus (16 words a cycle) on a set of models: the models' cost alone.
 * *sig, if given, gets the output signature of the last model. */
static double replay_cps_sig(const uint16_t *cap, uint64_t cycles, unsigned models,
                             const char *wave, uint64_t *sig);
static double replay_cps(const uint16_t *cap, uint64_t cycles, unsigned models, const char *wave)
{
    return replay_cps_sig(cap, cycles, models, wave, NULL);
}

static double replay_cps_sig(const uint16_t *cap, uint64_t cycles, unsigned models,
                             const char *wave, uint64_t *sig)
{
    lockstep_t ls;
    char err[DEV_ERR_LEN];
    if (ls_open(&ls, &rn1_design, models, err, sizeof err) < 0) {
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

static int cmd_bench(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_bench, stdout);
        return 0;
    }
    fuzz_opts_t base = {.cycles = 1000000, .seed = 1, .quiet = 1, .net_extra = -1, .ring_p2s = -1,
                        .ring_pull = -1};
    int seeded = 0;
    unsigned repeat = 3;
    for (int i = 0; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--repeat")) {
            uint64_t r;
            if (parse_u64_arg(argv[i + 1], &r) < 0 || r < 1 || r > 20)
                return bad_arg("bench", "--repeat takes a number from 1 to 20", argv[i + 1]);
            repeat = (unsigned)r;
            memmove(argv + i, argv + i + 2, (size_t)(argc - i - 2) * sizeof *argv);
            argc -= 2;
            break;
        }
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
    /* Best of `repeat` rounds, the runs interleaved within a round: the machine is shared
     * and noisy, so the fastest of several tries is the fairest estimate of each. */
    for (unsigned round = 0; round < repeat; round++) {
        for (unsigned k = 0; k < 4; k++) {
            fuzz_opts_t o = base;
            double c = 0;
            o.models = runs[k].models;
            o.wave = runs[k].wave ? wave : NULL;
            o.cps = &c;
            o.capture = k == 1 ? cap : NULL;
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
            double c = replay_cps(cap, base.cycles, runs[k].models, runs[k].wave ? wave : NULL);
            if (c > rp[k])
                rp[k] = c;
        }
    }
    free(cap);
    remove(wave);
    printf("\nRN1, %llu cycles per run, seed %llu, best of %u rounds, all in this one process.\n"
           "fuzz: endpoint models generate and check the traffic; replay: the captured fuzz\n"
           "stimulus replayed with no endpoints (the models' own cost).\n\n",
           (unsigned long long)base.cycles, (unsigned long long)base.seed, repeat);
    printf("| run | fuzz cycles/s | vs rtl | replay cycles/s | vs rtl |\n|---|---:|---:|---:|---:|\n");
    for (unsigned k = 0; k < 4; k++)
        printf("| %s | %.0f | %.2fx | %.0f | %.2fx |\n", runs[k].name, fz[k],
               fz[0] > 0 ? fz[k] / fz[0] : 0, rp[k], rp[0] > 0 ? rp[k] / rp[0] : 0);
    printf("\nreplay ratios: csim/rtl %.1fx; lockstep/rtl %.2fx; FST tracing slows rtl %.1fx\n",
           rp[0] > 0 ? rp[1] / rp[0] : 0, rp[0] > 0 ? rp[2] / rp[0] : 0,
           rp[3] > 0 ? rp[0] / rp[3] : 0);
    return 0;
}

static int cmd_net(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_net, stdout);
        return 0;
    }
    uint64_t n = 0, extra = 99, wiring = 1;
    int links = 0;
    for (int i = 0; i < argc; i++) {
        uint64_t *dst = !strcmp(argv[i], "--endpoints") ? &n : !strcmp(argv[i], "--extra") ? &extra
                        : !strcmp(argv[i], "--wiring") ? &wiring : NULL;
        if (dst) {
            if (i + 1 >= argc || parse_u64_arg(argv[++i], dst) < 0)
                return bad_arg("net", "takes a number", argv[i - 1]);
        } else if (!strcmp(argv[i], "--links")) {
            links = 1;
        } else {
            return bad_arg("net", "unknown argument", argv[i]);
        }
    }
    if (extra == 99)
        extra = n >= 256 ? 1 : 0;
    char err[DEV_ERR_LEN];
    rnpnet_topo_t t;
    if (n > 100000 || extra > 4 || rnpnet_topo_build(&t, (unsigned)n, (unsigned)extra, wiring, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim net: %s\n", n ? err : "--endpoints N is required");
        return 2;
    }
    printf("RNP network: %u endpoints, %u stages (%u extra, SWALLOW on stages", t.n, t.stages,
           t.extra);
    int any = 0;
    for (unsigned s = 0; s < t.stages; s++)
        if (rnpnet_swallows(s))
            printf(" %u", s), any = 1;
    printf("%s), %u routers (%u per stage), wiring seed %llu\n", any ? "" : " none", t.nrouters,
           t.per_stage, (unsigned long long)wiring);
    for (unsigned s = 0; s < t.stages; s++)
        printf("  stage %u: r%u..r%u%s\n", s, s * t.per_stage, (s + 1) * t.per_stage - 1,
               s < t.extra ? " (extra: any direction)" : "");
    if (links) {
        for (unsigned e = 0; e < t.n; e++)
            for (unsigned k = 0; k < 2; k++)
                printf("  s%u.%u -> r%u.f%u\n", e, k, t.inj[e * 2 + k] / 8, t.inj[e * 2 + k] % 8);
        for (unsigned r = 0; r < t.nrouters; r++)
            for (unsigned j = 0; j < 8; j++) {
                int32_t to = t.down[r * 8 + j];
                if (to >= 0)
                    printf("  r%u.b%u -> r%u.f%u\n", r, j, (unsigned)to / 8, (unsigned)to % 8);
                else
                    printf("  r%u.b%u -> d%u.%u\n", r, j, (unsigned)(-to - 1) / 2, (unsigned)(-to - 1) % 2);
            }
    }
    unsigned pmin = ~0u, pmax = 0;
    double psum = 0, rsum[8] = {0};
    unsigned rmin[8];
    for (unsigned s = 0; s < 8; s++)
        rmin[s] = ~0u;
    unsigned pairs = 0;
    for (unsigned s = 0; s < t.n; s++)
        for (unsigned d = 0; d < t.n; d++) {
            if (s == d)
                continue;
            rnpnet_paths_t p;
            rnpnet_count_paths(&t, s, d, &p);
            pmin = p.paths < pmin ? p.paths : pmin;
            pmax = p.paths > pmax ? p.paths : pmax;
            for (unsigned st = 0; st < t.stages && st < 8; st++) {
                rsum[st] += p.routers[st];
                rmin[st] = p.routers[st] < rmin[st] ? p.routers[st] : rmin[st];
            }
            psum += p.paths;
            pairs++;
        }
    printf("over all %u source-destination pairs: distinct link-level paths min %u, mean %.1f, "
           "max %u\nrouters those paths use, per stage (mean, min over pairs):",
           pairs, pmin, psum / pairs, pmax);
    for (unsigned st = 0; st < t.stages && st < 8; st++)
        printf(" %.1f/%u", rsum[st] / pairs, rmin[st]);
    printf("\n(a destination hangs off one last-stage router: a dead one cuts its four endpoints)\n");
    rnpnet_topo_free(&t);
    return 0;
}

static int cmd_experiment(int argc, char **argv)
{
    if (argc > 0) { /* the SCI experiments take their own options */
        int src = experiment_sci_main(argc, argv);
        if (src >= 0)
            return src;
    }
    if (want_help(argc, argv) || argc == 0) {
        fputs(usage_experiment, argc ? stdout : stderr);
        return argc ? 0 : 2;
    }
    exp_opts_t o = {.cycles = 30000, .seed = 1, .models = LS_CSIM, .outdir = "build/experiments"};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--cycles") && v && parse_u64_arg(v, &o.cycles) == 0 && o.cycles >= 1000)
            i++;
        else if (!strcmp(argv[i], "--seed") && v && parse_u64_arg(v, &o.seed) == 0)
            i++;
        else if (!strcmp(argv[i], "--model") && v && ls_parse_models(v, &o.models) == 0)
            i++;
        else if (!strcmp(argv[i], "--out") && v)
            o.outdir = argv[++i];
        else if (!strcmp(argv[i], "--quiet"))
            o.quiet = 1;
        else
            return bad_arg("experiment", "bad argument", argv[i]);
    }
    int rc = experiment_rnp(argv[0], &o);
    if (rc < 0) {
        fprintf(stderr, "ftsim experiment: unknown experiment '%s'\n%s", argv[0], usage_experiment);
        return 2;
    }
    return rc;
}

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

static int cmd_stim(int argc, char **argv)
{
    if (want_help(argc, argv)) {
        fputs(usage_stim, stdout);
        return 0;
    }
    uint64_t cycles = 0, seed = 1;
    const char *out = NULL;
    int time_rtl = 0;
    for (int i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--time-rtl"))
            time_rtl = 1;
        else if (!strcmp(argv[i], "--cycles") && v && parse_u64_arg(v, &cycles) == 0 && cycles > 0 &&
            cycles <= 1000000)
            i++;
        else if (!strcmp(argv[i], "--seed") && v && parse_u64_arg(v, &seed) == 0)
            i++;
        else if (!strcmp(argv[i], "-o") && v)
            out = argv[++i];
        else
            return bad_arg("stim", "bad argument", argv[i]);
    }
    if (!cycles || !out)
        return bad_arg("stim", "want --cycles N (1..1000000) and -o FILE", NULL);
    uint16_t *cap = calloc(cycles * 16, sizeof *cap);
    if (!cap)
        return 2;
    fuzz_opts_t o = {.cycles = cycles, .seed = seed, .quiet = 1, .models = LS_CSIM, .capture = cap,
                     .net_extra = -1, .plain = 1};
    FILE *keep = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = fuzz_rn1(&o);
    fclose(stdout);
    stdout = keep;
    uint64_t sig = 0, rsig = 0;
    double rtl = 0;
    if (rc == 0 && write_stim(out, cap, cycles) == 0) {
        replay_cps_sig(cap, cycles, LS_CSIM, NULL, &sig);
        if (time_rtl)
            rtl = replay_cps_sig(cap, cycles, LS_RTL, NULL, &rsig);
    } else {
        rc = 2;
    }
    free(cap);
    if (rc == 0)
        printf("SIG %016llx cycles %llu\n", (unsigned long long)sig, (unsigned long long)cycles);
    if (rc == 0 && time_rtl)
        printf("verilator rtl %.0f cycles/s, signature %s\n", rtl, rsig == sig ? "equal" : "DIFFERS");
    return rc;
}

static int cmd_info(int argc, char **argv)
{
    if (want_help(argc, argv) || argc > 1) {
        fputs(usage_info, argc > 1 ? stderr : stdout);
        return argc > 1 ? 2 : 0;
    }
    if (argc == 0) {
        for (const dev_design_t *const *d = registry_catalog.designs; *d; d++)
            printf("%-10s %s\n", (*d)->name, (*d)->summary);
        static const char *const nets[] = {"rnpnet16", "rnpnet64", "rnpnet256"};
        for (unsigned k = 0; k < 3; k++) {
            const dev_design_t *d = dev_catalog_find(&registry_catalog, nets[k]);
            if (d)
                printf("%-10s %s\n", d->name, d->summary);
            dev_design_release(d);
        }
        return 0;
    }
    const dev_design_t *d = dev_catalog_find(&registry_catalog, argv[0]);
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
    dev_design_release(d);
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
    if (!strcmp(cmd, "route"))
        return sci_route_main(sub_argc, sub_argv);
    if (!strcmp(cmd, "faultcheck"))
        return sci_check_main(sub_argc, sub_argv);
    if (!strcmp(cmd, "torus"))
        return sci_run_main(sub_argc, sub_argv);
    if (!strcmp(cmd, "net"))
        return cmd_net(sub_argc, sub_argv);
    if (!strcmp(cmd, "experiment"))
        return cmd_experiment(sub_argc, sub_argv);
    if (!strcmp(cmd, "stim"))
        return cmd_stim(sub_argc, sub_argv);
    fprintf(stderr, "ftsim: unknown command '%s'\n%s", cmd, usage_main);
    return 2;
}
