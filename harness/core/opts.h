/* opts.h — a command's options as a table, parsed strictly with getopt_long.
 *
 * A command declares its options (long name, short name, what the value is and where it goes)
 * and gets: values checked against their type and range; a long option only by its full name
 * (getopt_long takes any unique prefix, `--cyc` for `--cycles`: refused here as an unknown
 * option, so a later option that shares the prefix cannot change what an old command line
 * means); positional words in order, wherever they stand among the options; `--help` or `-h`
 * anywhere asking for the usage; and every refusal as one message in the project's words,
 * "ftsim CMD: ...". Knows no design. */
#ifndef FTSIM_OPTS_H
#define FTSIM_OPTS_H

#include <stddef.h>
#include <stdint.h>

typedef enum opts_kind {
    OPTS_END = 0, /* ends a table */
    OPTS_FLAG,    /* no value: *(int *)dst = set */
    OPTS_COUNT,   /* no value: ++*(int *)dst (-v, -vv) */
    OPTS_STR,     /* *(const char **)dst = the value */
    OPTS_U64,     /* a whole number (C notation: 10, 0x1f) in [min, max] into *(uint64_t *)dst */
    OPTS_UINT,    /* the same into *(unsigned *)dst */
    OPTS_INT,     /* the same (not negative) into *(int *)dst */
    OPTS_DBL,     /* a finite number in [min, max] into *(double *)dst */
    OPTS_FN,      /* fn(dst, value, err, errlen): 0 taken; -1 refused, with what is wrong in
                   * err ("" for the option's msg; in the OPTS_VALUE style it follows
                   * "--NAME ") */
} opts_kind_t;

/* opts_opt_t.flags */
#define OPTS_SHOW 1u /* OPTS_HINT: a refused value is shown after the message */
#define OPTS_DEC  2u /* whole numbers: decimal only (010 is ten, not eight) */

typedef struct opts_opt {
    const char *name; /* the long name without "--"; NULL: a short option only */
    char key;         /* the short name (-o: 'o'), or 0 */
    opts_kind_t kind;
    void *dst;
    const char *msg; /* what a refused (OPTS_HINT: or missing) value is told */
    double min, max; /* numbers: the range, both ends in (0, 0: any) */
    unsigned flags;
    int set; /* OPTS_FLAG: the value stored */
    int (*fn)(void *dst, const char *val, char *err, size_t errlen);
    int *given; /* if set, 1 once the option is given */
} opts_opt_t;

/* How a refusal reads (every message begins "ftsim CMD: "):
 *   OPTS_HINT   MSG (: VALUE with OPTS_SHOW) | UNKNOWN: WORD, then a line "(ftsim CMD --help)"
 *   OPTS_VALUE  --NAME VALUE: MSG | WORD: UNKNOWN | --NAME: MISSING */
typedef enum opts_style { OPTS_HINT, OPTS_VALUE } opts_style_t;

typedef struct opts_cmd {
    const char *name; /* the command, for the messages */
    opts_style_t style;
    const char *unknown;    /* what an unknown option (or an unwanted word) is told */
    const char *missing;    /* OPTS_VALUE: what an option given no value is told */
    const opts_opt_t *opts; /* the options, ended by an OPTS_END entry */
    const opts_opt_t *more; /* more options (a design family's), or NULL */
    const char **pos;       /* where the positional words go, in order (NULL: none taken) */
    unsigned maxpos;
} opts_cmd_t;

enum {
    OPTS_OK = 0,
    OPTS_HELP,    /* --help or -h: the caller prints its usage */
    OPTS_BAD,     /* a value refused */
    OPTS_UNKNOWN, /* an unknown option, an abbreviated one, or a word not wanted */
    OPTS_MISSING, /* an option without its value */
};

typedef struct opts_res {
    unsigned npos;         /* positional words stored */
    int at;                /* the refused word's index in argv (-1: none) */
    const opts_opt_t *opt; /* OPTS_BAD, OPTS_MISSING: the option */
    char msg[1024];        /* the refusal, whole lines */
} opts_res_t;

/* Parses argv[0..argc-1] (the words after the command's name). Returns one of the above;
 * options are stored as they come, so after a refusal some may have been. */
int opts_parse(const opts_cmd_t *c, int argc, char **argv, opts_res_t *r);

/* The value the last `--name VALUE` of argv gives, read as opts_parse would read the command
 * line (so a value that looks like an option is not mistaken for one), or NULL. Nothing is
 * stored and nothing refused: for an option that decides which other options there are. */
const char *opts_peek(const opts_cmd_t *c, int argc, char **argv, const char *name);

#endif
