/* json_io.h — every JSON the harness writes and reads goes through Debian's json-c: values made
 * here so that what is written reads back as the same value (unsigned 64-bit words whole,
 * doubles in the shortest text that reads back to the same bits), a document written on one
 * line, a text parsed whole. JSON has no NaN or infinity: NaN is written as null (and null
 * reads back as NaN), infinity as 1e999 (which reads back as infinity). json-c 0.15 or later
 * (Debian's libjson-c-dev; unsigned 64-bit integers since 0.14). Knows no design. */
#ifndef FTSIM_JSON_IO_H
#define FTSIM_JSON_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/* Values; each returns a new reference (json_object_put, or handed to an object or array). */
json_object *json_io_u64(uint64_t v);
json_object *json_io_i64(int64_t v);
/* The shortest text that reads back to the same double (-0 stays -0). */
json_object *json_io_dbl(double v);
/* A report's rounding: "%.<decimals>f" ("%.3f": 12.346); NaN null, infinity 1e999. */
json_object *json_io_fixed(double v, int decimals);
/* "%g": six significant digits, as a time or rate given on the command line is echoed. */
json_object *json_io_g(double v);
json_object *json_io_str(const char *s); /* NULL: null */
json_object *json_io_bool(int v);

/* Members, in the order added (json-c keeps it). */
void json_io_add(json_object *o, const char *key, json_object *v);
/* An array of n unsigned words or doubles (json_io_dbl). */
json_object *json_io_u64s(const uint64_t *v, unsigned n);
json_object *json_io_dbls(const double *v, unsigned n);

/* The document as one line ("{ "a": 1, "b": [ 2 ] }", '/' not escaped); owned by o. */
const char *json_io_text(json_object *o);
/* The document on f (if not NULL) and a line break; 0, or -1 (a write error). */
int json_io_write(FILE *f, json_object *o);

/* A whole text as one JSON value (nothing but white space after it): the value, or NULL with
 * "offset N: why" in err. */
json_object *json_io_parse(const char *text, char *err, size_t errlen);
/* A number as an unsigned word (an integer from 0 to 2^64-1): 0, or -1. */
int json_io_get_u64(json_object *v, uint64_t *out);
/* A number, or null (NaN): 0, or -1. */
int json_io_get_dbl(json_object *v, double *out);

#endif
