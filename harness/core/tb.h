/*
 * tb.h — a vector as a self-checking Verilog testbench (ftsim export-tb).
 *
 * The testbench does to the design's RTL module what `ftsim play --model rtl` does to the
 * Verilated one (dev.h's cycle protocol, play.c's checks), in the Verilog that Icarus 11
 * (-g2012) and the commercial simulators accept: reset held two cycles with every input idle,
 * then each configuration write in a reset cycle of its own (none for `config
 * reset-values`), then cycle 0; in each cycle its upsets (a deposit at the site the upset map
 * names, dev_upset_t.tb: the state read and written back with the bit flipped), the drives and
 * the register write of that cycle (widened from the vector's copy, as the player's), then the
 * expectations (an output's word under its care mask; a register field read through
 * the register port), then under `check strict` every output not named must be idle, then the
 * rising edge. Mismatches are printed in the player's words; the last line is PASS FILE or
 * FAIL FILE, and a FAIL ends in $fatal (a non-zero exit status).
 *
 * Nothing here knows a design: the testbench is written from the design's description
 * (ports, registers, word kinds) and its dev_rtl_t (the module, its parameters and signals,
 * the Verilog of each port and of its words). A design without a dev_rtl_t is refused.
 *
 * The vector's events are a table the testbench plays. tb_write embeds a vector's (the file
 * is then self-contained); a testbench run with +events=FILE plays the table of FILE instead
 * (tb_write_events), so one compiled testbench of a design can play any of its vectors.
 *
 * Helpers a design's words_sv may call: ft_hex(v, n) (upper-case hex of v, at least n
 * digits, as printf's %0nX) and ft_dec(v) (decimal, as %u).
 */
#ifndef FTSIM_TB_H
#define FTSIM_TB_H

#include <stdio.h>

#include "vec.h"

typedef struct tb_opts {
    const char *out;          /* the testbench's own file name, for its header */
    const char *vvp;          /* the compiled testbench's, for its header */
    const char *incdir;       /* the folder of the RTL's include files (-I) */
    const char *const *files; /* the design's RTL source files, for its header */
    unsigned nfiles;
    unsigned max_events; /* the table's size when no vector is embedded */
    /* files[0] is the design's synthesized netlist: its parameters are built in, so the
     * instance sets none (and no upset reaches a netlist's renamed flip-flops) */
    int netlist;
} tb_opts_t;

/* 0 if design d can be written as a testbench; else -1 with why in err. */
int tb_exportable(const dev_design_t *d, char *err, size_t errlen);
/* 0 if every statement of v can be; else 2 with "file:line: message" in err. */
int tb_check(const vec_t *v, char *err, size_t errlen);
/* The testbench of design d, with the events of v embedded (v NULL: none; it then plays the
 * file given with +events=FILE). d must be exportable and v checked. 0, or 2 on a write error. */
int tb_write(FILE *f, const dev_design_t *d, const vec_t *v, const tb_opts_t *o);
/* The events of v as a file for +events=FILE. v must be checked; 0, or 2 (message in err). */
int tb_write_events(FILE *f, const vec_t *v, char *err, size_t errlen);
/* A testbench, no design in it, that prints a sample of every word kind and register value
 * of d with the testbench's functions and compares each with what ftsim prints: the words of
 * an exported testbench are the player's. Ends in PASS or FAIL as tb_write's. */
int tb_write_words(FILE *f, const dev_design_t *d, const tb_opts_t *o);

#endif
