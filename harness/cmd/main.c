/*
 * main.c — ftsim: the command name picks one of the commands (one file each in this folder).
 * Exit status everywhere: 0 pass, 1 mismatch, 2 bad input or bad arguments.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const char usage_main[] =
    "usage: ftsim COMMAND [options]   (ftsim COMMAND --help for more)\n"
    "\n"
    "  play FILE.vec...   play vectors: RTL and C model in lockstep, expectations checked\n"
    "  record FILE.vec    write the golden vector of a stimulus (drives + every output)\n"
    "  export-tb FILE.vec write a vector as a self-checking Verilog testbench (Icarus, others)\n"
    "  fuzz               random traffic, models in lockstep, end-to-end checks\n"
    "  bench              simulated cycles per second: rtl, csim, lockstep, rtl+FST\n"
    "  vec-json FILE.vec  vectors as the player sees them, as JSON (for other test benches)\n"
    "  info [DEVICE]      the devices, their ports, registers and config keys (--upsets:\n"
    "                     the upset map)\n"
    "  upsetcheck STIM.vec  every element of a device's upset map flipped against a stimulus:\n"
    "                     seen from outside, the models in lockstep\n"
    "  upset --campaign N an upset campaign: one upset a run into a loaded torus with detection\n"
    "                     and recovery, against a golden run; FTGM's Table 1\n"
    "  net                RNP network topologies: stages, links, distinct paths per pair\n"
    "  route              SCI torus routing tables under faults: reachability, deadlock check\n"
    "  torus              run an SCI torus: flows, traffic patterns, faults, drivers\n"
    "  faultcheck         every single fault on a running SCI torus, with its checks\n"
    "  experiment NAME    measurements (rnp-load, ..., ftdrb-rnp, ring-down-9, ...)\n"
    "  merge SHARD...     the shards of a campaign (faultcheck, experiment, upset --shard K/N) into its\n"
    "                     report\n"
    "\n"
    "Options are written in full (--cycles, not --cyc) and take their value as the next word\n"
    "or after '=' (--cycles=1000); they may come before, between or after the file names.\n"
    "Exit status: 0 pass, 1 mismatch, 2 bad input or arguments. ftsim --version: the revision.\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"play", cmd_play},
    {"record", cmd_record},
    {"fuzz", cmd_fuzz},
    {"bench", cmd_bench},
    {"info", cmd_info},
    {"route", cmd_route},
    {"faultcheck", cmd_faultcheck},
    {"torus", cmd_torus},
    {"net", cmd_net},
    {"experiment", cmd_experiment},
    {"stim", cmd_stim},
    {"merge", cmd_merge},
    {"export-tb", cmd_export_tb},
    {"vec-json", cmd_vec_json},
    {"upsetcheck", cmd_upsetcheck},
    {"upset", cmd_upset},
};

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        fputs(usage_main, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ftsim %s\n", cmd_revision());
        return 0;
    }
    for (unsigned k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (!strcmp(argv[1], commands[k].name))
            return commands[k].run(argc - 2, argv + 2);
    fprintf(stderr, "ftsim: unknown command '%s'\n%s", argv[1], usage_main);
    return 2;
}
