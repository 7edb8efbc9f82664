/* json_io.c — JSON values written to read back the same, documents written and parsed, with
 * json-c (json_io.h). */
#include "json_io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_object *json_io_u64(uint64_t v) { return json_object_new_uint64(v); }
json_object *json_io_i64(int64_t v) { return json_object_new_int64(v); }
json_object *json_io_str(const char *s) { return s ? json_object_new_string(s) : NULL; }
json_object *json_io_bool(int v) { return json_object_new_boolean(v != 0); }

/* NaN and infinity, which JSON has no number for: null, or 1e999 (read back as infinity). */
static int not_finite(double v, json_object **out)
{
    if (isnan(v))
        *out = NULL;
    else if (isinf(v))
        *out = json_object_new_double_s(v, v > 0 ? "1e999" : "-1e999");
    else
        return 0;
    return 1;
}

/* A text that must read back as a double, not an integer: "-0" would read as 0. */
static json_object *as_double(double v, char *buf, size_t len)
{
    if (!strpbrk(buf, ".eE") && strlen(buf) + 2 < len)
        strcat(buf, ".0");
    return json_object_new_double_s(v, buf);
}

json_object *json_io_dbl(double v)
{
    json_object *o;
    if (not_finite(v, &o))
        return o;
    char buf[40];
    for (int p = 1; p <= 17; p++) { /* glibc rounds both ways correctly: 17 always reads back */
        snprintf(buf, sizeof buf, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return as_double(v, buf, sizeof buf);
}

json_object *json_io_fixed(double v, int decimals)
{
    json_object *o;
    if (not_finite(v, &o))
        return o;
    char buf[400];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return json_object_new_double_s(v, buf);
}

json_object *json_io_g(double v)
{
    json_object *o;
    if (not_finite(v, &o))
        return o;
    char buf[40];
    snprintf(buf, sizeof buf, "%g", v);
    return json_object_new_double_s(v, buf);
}

void json_io_add(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}

json_object *json_io_u64s(const uint64_t *v, unsigned n)
{
    json_object *a = json_object_new_array();
    for (unsigned i = 0; i < n; i++)
        json_object_array_add(a, json_io_u64(v[i]));
    return a;
}

json_object *json_io_dbls(const double *v, unsigned n)
{
    json_object *a = json_object_new_array();
    for (unsigned i = 0; i < n; i++)
        json_object_array_add(a, json_io_dbl(v[i]));
    return a;
}

const char *json_io_text(json_object *o)
{
    return json_object_to_json_string_ext(o,
                                          JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
}

int json_io_write(FILE *f, json_object *o)
{
    if (!f)
        return 0;
    return fputs(json_io_text(o), f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
}

json_object *json_io_parse(const char *text, char *err, size_t errlen)
{
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    size_t len = strlen(text);
    json_object *v = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (e == json_tokener_continue) {
        snprintf(err, errlen, "offset %zu: the text ends inside a value", len);
        return NULL;
    }
    if (e != json_tokener_success) {
        snprintf(err, errlen, "offset %zu: %s", end, json_tokener_error_desc(e));
        return NULL;
    }
    while (text[end] == ' ' || text[end] == '\t' || text[end] == '\n' || text[end] == '\r')
        end++;
    if (text[end]) {
        json_object_put(v);
        snprintf(err, errlen, "offset %zu: text after the value", end);
        return NULL;
    }
    return v;
}

int json_io_get_u64(json_object *v, uint64_t *out)
{
    if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
        return -1;
    *out = json_object_get_uint64(v);
    return 0;
}

int json_io_get_dbl(json_object *v, double *out)
{
    if (!v) {
        *out = NAN;
        return 0;
    }
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return -1;
    *out = json_object_get_double(v);
    return 0;
}
