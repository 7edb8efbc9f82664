/* play.h — `ftsim play` and `ftsim record` over a parsed vector (vectors/README.md). */
#ifndef FTSIM_PLAY_H
#define FTSIM_PLAY_H

#include <stdio.h>

#include "lockstep.h"
#include "vec.h"

typedef struct play_opts {
    unsigned models;   /* LS_RTL, LS_CSIM, LS_BOTH, LS_GATE or LS_GATE_BOTH */
    const char *wave;  /* FST path or NULL */
    unsigned max_msgs; /* mismatch lines printed before the rest are only counted */
    int show;          /* print the run as a table: a row a cycle, a column an active port */
    /* --wave-from, --wave-to: the cycles dumped (wave_to 0: to the end) */
    uint64_t wave_from, wave_to;
    /* --max-cycles: a vector that runs more cycles is refused (file:line: message, 2); 0: any */
    uint64_t max_cycles;
} play_opts_t;

/* Play a vector: 0 pass, 1 mismatch or divergence, 2 cannot run. Prints to stdout, ending
 * with "PASS <file>" or "FAIL <file>". */
int play_run(const vec_t *v, const play_opts_t *o);

/* Golden-vector writer: drives, register writes and (if outputs) every non-IDLE output and
 * every change of the design's record registers, one statement a line. */
typedef struct rec rec_t;
rec_t *rec_open(const char *path, const dev_design_t *d, const dev_write_t *init, unsigned ninit,
                const char *header, int outputs, char *err, size_t errlen);
/* One cycle: its inputs, its register write (or NULL) and, when recording outputs, the
 * model whose outputs and registers are written (sampled before its tick). */
void rec_cycle(rec_t *r, uint64_t cycle, const uint64_t *in, const dev_write_t *wr,
               const uint64_t *out, device_t *model);
/* A design's control statement (a fault) in cycle `cycle`. */
void rec_control(rec_t *r, uint64_t cycle, const char *text);
/* An upset at the start of cycle `cycle` (`@N seu NAME bitB`). */
void rec_upset(rec_t *r, uint64_t cycle, const dev_upset_bit_t *s);
/* Write `end @N` and close. Returns 0, or 2 on a write error (message in err). */
int rec_close(rec_t *r, uint64_t end, char *err, size_t errlen);

/* `ftsim record`: play a vector's stimulus on one model and write what it did. */
int record_run(const vec_t *v, dev_impl_t impl, const char *out_path);

#endif
