/*
 * vec.h — the vector language of vectors/README.md, parsed into a list of events
 * sorted by cycle. Any design plugs in through its dev_design_t (ports, registers, word and
 * statement hooks); nothing here knows a design: the caller's catalog names them.
 */
#ifndef FTSIM_VEC_H
#define FTSIM_VEC_H

#include <stdio.h>

#include "dev.h"

#define VEC_MAX_CYCLE  0xFFFFFFFFull
#define VEC_MAX_WRITES 4096u        /* a 32 x 32 torus: 4 configuration registers a node */
#define VEC_MAX_BYTES  (256u << 20) /* a larger file is refused, not read */

typedef enum {
    VEC_DRIVE = 0,   /* @N PORT <- WORD */
    VEC_CONFIG = 1,  /* @N config K=V ... / @N reg NAME <- V (a register write) */
    VEC_CONTROL = 2, /* @N WORD ... for a WORD of the design's control_words (text in `text`) */
    VEC_EXPECT = 3,  /* @N PORT -> WORD */
    VEC_REG = 4,     /* @N reg NAME -> VALUE */
    VEC_UPSET = 5,     /* @N seu NAME[I] bitB: applied first in its cycle, in file order */
} vec_kind_t;

typedef struct vec_ev {
    uint64_t cycle;
    unsigned line;
    vec_kind_t kind;
    unsigned idx;         /* port (DRIVE, EXPECT) or register (REG) */
    uint64_t value, care; /* care: bits that must match (X: none) */
    uint8_t hint;         /* how the word was written (design's format hint) */
    dev_write_t wr;       /* CONFIG */
    char *text;           /* CONTROL: the statement after @N */
    dev_upset_bit_t seu;        /* SEU */
} vec_ev_t;

typedef struct vec {
    char *path;
    const dev_design_t *design; /* the vector's own (from the catalog): vec_free releases it */
    unsigned device_line;       /* the line of `device NAME` */
    dev_write_t init[VEC_MAX_WRITES]; /* reset-time configuration: defaults + `config` lines */
    unsigned ninit;
    int bare_reset; /* `config reset-values`: reset with no configuration write (ninit 0) */
    int strict;
    int has_end;
    uint64_t end;
    unsigned end_line;
    vec_ev_t *ev;
    size_t nev, cap;
    uint64_t last_cycle; /* the last cycle any @ line names */
} vec_t;

/* Load and parse a vector file, its `device NAME` looked up in cat. On error returns 2,
 * writes "file:line: message" and leaves v empty (nothing to free). */
int vec_load(const char *path, const dev_catalog_t *cat, vec_t *v, char *err, size_t errlen);
/* Parse text already in memory (path is used in messages). */
int vec_parse(const char *path, const char *text, size_t len, const dev_catalog_t *cat, vec_t *v,
              char *err, size_t errlen);
/* Free the events and release the design; v is left empty (a second call does nothing). */
void vec_free(vec_t *v);

/* The last cycle to run: `end @N`, or the last cycle named plus 4. */
uint64_t vec_end_cycle(const vec_t *v);

/* A vector's register writes as a host makes them from its own copy of the registers: every
 * bit it wrote, its reset-time configuration included. A write fills the other bits of each
 * byte it strobes from that copy, not from the register, so an upset bit in a strobed byte is
 * rewritten and one in a byte not written stays flipped (vectors/README.md, "Upsets"). Bits the
 * vector never wrote (after `config reset-values`: all) are the device's own, as the register
 * port's read-modify-write takes them. */
typedef struct vec_writer {
    struct vec_wreg {
        uint32_t addr;
        uint64_t val, known;
    } * r;
    unsigned n, cap;
} vec_writer_t;
void vec_writer_init(vec_writer_t *w, const vec_t *v);
/* Record write x in the copy and return it widened to the bytes it strobes. */
dev_write_t vec_writer_write(vec_writer_t *w, const dev_write_t *x);
void vec_writer_free(vec_writer_t *w);

/* Print the reset-time configuration as one `config` line (every key, explicit). */
void vec_print_config(FILE *f, const dev_design_t *d, const dev_write_t *w, unsigned n,
                      const char *prefix);

#endif
