/* play.c — `ftsim play`: vectors played on the RTL and the C model in lockstep. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "registry.h"
#include "lockstep.h"
#include "play.h"
#include "vec.h"

static const char usage_play[] =
    "usage: ftsim play FILE.vec... [--model rtl|csim|both|gate|gate-both] [--wave FILE.fst]\n"
    "                  [--show] [--wave-from N] [--wave-to N] [--max-msgs N] [--max-cycles N]\n"
    "\n"
    "Plays each vector (the language: vectors/README.md). --model both (the default) runs\n"
    "the Verilated RTL and the C reference model in lockstep and compares every output and\n"
    "the debug state every cycle; the first divergence is named with its cycle, port or\n"
    "field, both values and the vector line, then the vector is played on each model alone\n"
    "and each one's first failing expectation is printed (the verdict: which model breaks\n"
    "the spec). --model gate plays the synthesized netlist of the design (build/synth/NAME.v,\n"
    "built into a model by make gate; ftsim info DEVICE names it) alone, gate-both in lockstep\n"
    "with the C model; a vector with an upset (seu) is refused there, with its line.\n"
    "`config reset-values` in a vector resets the device with no configuration\n"
    "write, so it starts from its own reset values. --wave dumps the RTL as FST (1 cycle =\n"
    "10 ns; cycle N starts at N*10 ns; make wave V=FILE.vec opens it with the device's\n"
    "layout). --wave takes one vector. --wave-from N and --wave-to M dump only cycles N to M\n"
    "(on the same time axis; nothing is dumped or spent on dumps outside). --show prints the\n"
    "run as a table, a row a cycle and a\n"
    "column a port that carried anything (the first 400 cycles). The last line for each\n"
    "vector is PASS <file> or FAIL <file>. A vector of more than 4,000,000 cycles says how\n"
    "many at the start and shows its progress on stderr; --max-cycles N refuses one that runs\n"
    "more than N cycles (a far `end @N`, say) with file:line: message and exit 2.\n"
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

static int play_files(const char **files, unsigned nfiles, const play_opts_t *o)
{
    int worst = 0;
    for (unsigned k = 0; k < nfiles; k++) {
        vec_t v;
        char err[1024];
        int rc = vec_load(files[k], &registry_catalog, &v, err, sizeof err);
        if (rc) {
            printf("%s\nFAIL %s\n", err, files[k]); /* once, beside its FAIL line */
            fflush(stdout);
            worst = 2;
            continue;
        }
        rc = play_run(&v, o);
        vec_free(&v);
        if (rc > worst)
            worst = rc;
        fflush(stdout);
    }
    return worst;
}

int cmd_play(int argc, char **argv)
{
    play_opts_t o = {.models = LS_BOTH, .max_msgs = 10};
    const opts_opt_t opts[] = {
        {"model", 0, OPTS_FN, &o.models, .fn = cmd_models_gate, .flags = OPTS_SHOW,
         .msg = "--model takes rtl, csim, both, gate or gate-both"},
        {"wave", 0, OPTS_STR, &o.wave, .msg = "--wave takes a file name"},
        {"wave-from", 0, OPTS_U64, &o.wave_from, .flags = OPTS_SHOW,
         .msg = "--wave-from takes a cycle number"},
        {"wave-to", 0, OPTS_U64, &o.wave_to, .min = 1, .max = 0x1p60, .flags = OPTS_SHOW,
         .msg = "--wave-to takes a cycle number from 1"},
        {"show", 0, OPTS_FLAG, &o.show, .set = 1},
        {"max-msgs", 0, OPTS_UINT, &o.max_msgs, .min = 1, .max = 100000,
         .msg = "--max-msgs takes a number from 1 to 100000"},
        {"max-cycles", 0, OPTS_U64, &o.max_cycles, .min = 1, .max = 0x1p63, .flags = OPTS_SHOW,
         .msg = "--max-cycles takes a number of cycles from 1"},
        {0},
    };
    const char **files;
    unsigned nfiles;
    int rc = cmd_parse_files("play", usage_play, opts, "no vector file given", argc, argv, &files,
                             &nfiles);
    if (rc >= 0)
        return rc;
    if (o.wave && nfiles > 1)
        rc = cmd_bad("play", "--wave takes one vector", NULL);
    if (rc < 0)
        rc = cmd_wave_window("play", o.wave, o.wave_from, o.wave_to);
    if (rc < 0)
        rc = play_files(files, nfiles, &o);
    free(files);
    return rc;
}
