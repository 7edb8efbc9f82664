// sc_main.cpp — ftsim-sc: the vectors played with sc_main driving the SystemC modules, the TLM
// register check and the virtual platform example.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/wait.h>
#include <systemc>
#include <unistd.h>

#include "sc_dev.h"
#include "sc_main.h"

extern "C" {
#include "cmd.h"
#include "lockstep.h"
#include "play.h"
#include "vec.h"
}

namespace
{

const char usage_play[] =
    "usage: ftsim-sc play FILE.vec... [--model rtl|csim|both] [--wave FILE.fst]\n"
    "                     [--wave-from N] [--wave-to N] [--max-msgs N]\n"
    "\n"
    "Plays each vector as ftsim play does (the same parser, player and lockstep comparator,\n"
    "the same messages and exit codes), with the devices the SystemC modules of the design\n"
    "under the SystemC kernel: rtl the Verilated --sc SC_MODULE, csim the C model's\n"
    "SC_MODULE, both the two in lockstep, each bound through sc_signals and clocked by\n"
    "sc_main one 10 ns period a cycle. Designs: rn1, lc3, p2s, lc3node, p2snode, lc3node2,\n"
    "p2snode2, and RNP networks rnpnetN... whose routers are SystemC RN1s (no waveform).\n"
    "--wave dumps the RTL module as FST (1 cycle = 10 ns; the layouts of waves/ apply).\n"
    "Each file runs in a process of its own (SystemC makes modules only before its kernel\n"
    "first runs). The last line for each vector is PASS <file> or FAIL <file>.\n"
    "Exit: 0 all pass, 1 a mismatch, 2 a malformed vector (file:line: message) or bad args.\n";

int play_one(const char *file, const play_opts_t *o)
{
    vec_t v;
    char err[1024];
    if (vec_load(file, &sc_catalog, &v, err, sizeof err)) {
        printf("%s\nFAIL %s\n", err, file);
        fflush(stdout);
        return 2;
    }
    int rc = play_run(&v, o);
    vec_free(&v);
    fflush(stdout);
    return rc;
}

int cmd_sc_play(int argc, char **argv)
{
    play_opts_t o = {};
    o.models = LS_BOTH;
    o.max_msgs = 10;
    opts_opt_t opts[7] = {};
    opts[0] = {"model", 0, OPTS_FN, &o.models};
    opts[0].fn = cmd_models;
    opts[0].flags = OPTS_SHOW;
    opts[0].msg = "--model takes rtl, csim or both";
    opts[1] = {"wave", 0, OPTS_STR, &o.wave};
    opts[1].msg = "--wave takes a file name";
    opts[2] = {"wave-from", 0, OPTS_U64, &o.wave_from};
    opts[2].flags = OPTS_SHOW;
    opts[2].msg = "--wave-from takes a cycle number";
    opts[3] = {"wave-to", 0, OPTS_U64, &o.wave_to};
    opts[3].min = 1;
    opts[3].max = 0x1p60;
    opts[3].flags = OPTS_SHOW;
    opts[3].msg = "--wave-to takes a cycle number from 1";
    opts[4] = {"max-msgs", 0, OPTS_UINT, &o.max_msgs};
    opts[4].min = 1;
    opts[4].max = 100000;
    opts[4].msg = "--max-msgs takes a number from 1 to 100000";
    const char **files = static_cast<const char **>(malloc(((size_t)argc + 1) * sizeof *files));
    if (!files)
        return 2;
    opts_cmd_t c = {};
    c.name = "play";
    c.style = OPTS_HINT;
    c.unknown = "unknown option";
    c.opts = opts;
    c.pos = files;
    c.maxpos = (unsigned)argc;
    unsigned nfiles = 0;
    int rc = cmd_parse(&c, usage_play, argc, argv, &nfiles);
    if (rc < 0 && nfiles == 0)
        rc = cmd_bad("play", "no vector file given", NULL);
    if (rc < 0 && o.wave && nfiles > 1)
        rc = cmd_bad("play", "--wave takes one vector", NULL);
    if (rc < 0)
        rc = cmd_wave_window("play", o.wave, o.wave_from, o.wave_to);
    if (rc < 0 && nfiles == 1)
        rc = play_one(files[0], &o);
    else if (rc < 0) {
        int worst = 0;
        for (unsigned k = 0; k < nfiles; k++) {
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid == 0)
                _exit(play_one(files[k], &o));
            int st = 0;
            int r = pid < 0 || waitpid(pid, &st, 0) < 0 ? 2 : WIFEXITED(st) ? WEXITSTATUS(st) : 2;
            if (pid > 0 && !WIFEXITED(st))
                printf("ftsim-sc: %s: the run ended by signal %d\nFAIL %s\n", files[k],
                       WTERMSIG(st), files[k]);
            if (r > worst)
                worst = r;
        }
        rc = worst;
    }
    free(files);
    return rc;
}

const char usage_top[] =
    "usage: ftsim-sc COMMAND [ARGS] (COMMAND --help for each)\n"
    "\n"
    "ftsim's single-device designs as SystemC modules under the SystemC kernel:\n"
    "  play      play vectors on the SystemC modules (rtl, csim, or both in lockstep); also\n"
    "            RNP networks (rnpnet16...) whose routers are SystemC RN1s\n"
    "  regs      every register of a design through its TLM-2.0 target socket, against the\n"
    "            register port of the C harness's model\n"
    "  platform  the virtual platform example: a host CPU on TLM configures a ring of SCI\n"
    "            nodes, ring traffic, a pulled cable against the C harness's ring\n"
    "  rnpnet    RN1 in a 16-endpoint RNP network of SystemC modules: a TLM CPU configures\n"
    "            the routers, endpoints exchange messages, against the C harness's network\n"
    "  bench     the C harness and the SystemC harness side by side on RN1\n";

} // namespace

int sc_main(int argc, char **argv)
{
    // SystemC's own banner and its report of deprecated features would mix with the output.
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
    // Its note that sc_stop was called (the platforms end so).
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    // Nothing to run at a zero-time step is what a settle expects, not a warning.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_,
                                            sc_core::SC_DO_NOTHING);
    if (argc < 2) {
        fputs(usage_top, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage_top, stdout);
        return 0;
    }
    if (!strcmp(cmd, "play"))
        return cmd_sc_play(argc - 2, argv + 2);
    if (!strcmp(cmd, "regs"))
        return cmd_sc_regs(argc - 2, argv + 2);
    if (!strcmp(cmd, "platform"))
        return cmd_sc_platform(argc - 2, argv + 2);
    if (!strcmp(cmd, "rnpnet"))
        return cmd_sc_rnpnet(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return cmd_sc_bench(argc - 2, argv + 2);
    fprintf(stderr, "ftsim-sc: unknown command '%s' (ftsim-sc --help lists them)\n", cmd);
    return 2;
}

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>

// make test SAN=1: LeakSanitizer and SystemC's coroutines. SystemC 2.3.4 runs each SC_THREAD on
// a stack of its own (QuickThreads: an mmap'ed block whose lowest page is a PROT_NONE guard) and
// tells AddressSanitizer of every switch (__sanitizer_start/finish_switch_fiber), naming the
// stack it switches to. After the kernel's last switch back to sc_main, AddressSanitizer still
// holds a coroutine's stack as the main thread's (LSAN_OPTIONS=verbosity=1:log_threads=1 says
// "stack pointer not in stack range", the range a 256 KB coroutine stack). The leak check at
// exit then takes that whole range as the main thread's stack and reads it: the guard page, or
// the whole block once the kernel has unmapped it. Where the sanitizer runtime cannot skip those
// pages, its tracer dies with signal 11 ("Tracer caught signal 11 ... LeakSanitizer has
// encountered a fatal error"), and where it can, the main thread's real stack goes unscanned.
// So before the check (an exit handler registered after the sanitizer's runs before it) the
// main thread is switched, for the sanitizer only, back to its own stack: the leak check stays
// on and scans the right stack, and no coroutine stack is read.
static void san_main_stack_back()
{
    pthread_attr_t a;
    void *addr = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0)
        return;
    pthread_attr_getstack(&a, &addr, &size);
    pthread_attr_destroy(&a);
    __sanitizer_start_switch_fiber(nullptr, addr, size);
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
}
#endif

// The kernel prints its banner on stderr before sc_main unless its environment says not to: this
// main says so, then starts the kernel as SystemC's own main does, so the output is ftsim's.
int main(int argc, char **argv)
{
#ifdef __SANITIZE_ADDRESS__
    atexit(san_main_stack_back);
#endif
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
