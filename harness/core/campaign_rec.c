/* campaign_rec.c — a campaign's records: one JSON object a run, numbers, strings and arrays
 * of numbers, written and read with json-c (json_io.h) so that reading them back gives the
 * same values bit for bit (the report made from records read back is the report made from
 * the runs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "json_io.h"

void campaign_w_begin(campaign_w_t *w) { w->o = json_object_new_object(); }

char *campaign_w_end(campaign_w_t *w)
{
    char *text = w->o ? strdup(json_io_text(w->o)) : NULL;
    json_object_put(w->o);
    w->o = NULL;
    return text;
}

void campaign_w_u64(campaign_w_t *w, const char *k, uint64_t v)
{
    json_io_add(w->o, k, json_io_u64(v));
}

void campaign_w_dbl(campaign_w_t *w, const char *k, double v)
{
    json_io_add(w->o, k, json_io_dbl(v));
}

void campaign_w_str(campaign_w_t *w, const char *k, const char *s)
{
    json_io_add(w->o, k, json_io_str(s));
}

void campaign_w_u64s(campaign_w_t *w, const char *k, const uint64_t *v, unsigned n)
{
    json_io_add(w->o, k, json_io_u64s(v, n));
}

void campaign_w_dbls(campaign_w_t *w, const char *k, const double *v, unsigned n)
{
    json_io_add(w->o, k, json_io_dbls(v, n));
}

/* ---- reading ---------------------------------------------------------------------------- */

int campaign_rec_parse(campaign_rec_t *r, const char *text, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char why[200];
    json_object *o = json_io_parse(text, why, sizeof why);
    if (o && !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        o = NULL;
        snprintf(why, sizeof why, "not an object");
    }
    if (!o) {
        snprintf(err, errlen, "a record that is not a JSON object (%s)", why);
        return -1;
    }
    r->o = o;
    return 0;
}

int campaign_rec_has(const campaign_rec_t *r, const char *k)
{
    return json_object_object_get_ex(r->o, k, NULL);
}

/* The member under k, or NULL with k left in r->bad. */
static int member(campaign_rec_t *r, const char *k, json_object **v)
{
    if (json_object_object_get_ex(r->o, k, v))
        return 0;
    if (!r->bad)
        r->bad = k;
    return -1;
}

static void misread(campaign_rec_t *r, const char *k)
{
    if (!r->bad)
        r->bad = k;
}

uint64_t campaign_rec_u64(campaign_rec_t *r, const char *k)
{
    json_object *v;
    uint64_t u = 0;
    if (member(r, k, &v) == 0 && json_io_get_u64(v, &u) < 0)
        misread(r, k);
    return u;
}

double campaign_rec_dbl(campaign_rec_t *r, const char *k)
{
    json_object *v;
    double d = 0;
    if (member(r, k, &v) == 0 && json_io_get_dbl(v, &d) < 0)
        misread(r, k), d = 0;
    return d;
}

const char *campaign_rec_str(campaign_rec_t *r, const char *k)
{
    json_object *v;
    if (member(r, k, &v) < 0)
        return "";
    if (!json_object_is_type(v, json_type_string)) {
        misread(r, k);
        return "";
    }
    return json_object_get_string(v); /* the record's: until campaign_rec_free */
}

/* The elements of the array under k: how many, each read into out (if given). */
static unsigned array(campaign_rec_t *r, const char *k, uint64_t *u, double *d, unsigned max)
{
    json_object *a;
    if (member(r, k, &a) < 0)
        return 0;
    if (!json_object_is_type(a, json_type_array)) {
        misread(r, k);
        return 0;
    }
    unsigned n = (unsigned)json_object_array_length(a);
    for (unsigned i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(a, i);
        uint64_t uv = 0;
        double dv = 0;
        if (u ? json_io_get_u64(e, &uv) < 0 : json_io_get_dbl(e, &dv) < 0) {
            misread(r, k);
            return i;
        }
        if (i < max) {
            if (u)
                u[i] = uv;
            else if (d)
                d[i] = dv;
        }
    }
    return n;
}

/* u64s: whole numbers (the taker gives out, or not); dbls: numbers or null. */
unsigned campaign_rec_u64s(campaign_rec_t *r, const char *k, uint64_t *out, unsigned max)
{
    uint64_t scratch;
    return array(r, k, out ? out : &scratch, NULL, out ? max : 0);
}

unsigned campaign_rec_dbls(campaign_rec_t *r, const char *k, double *out, unsigned max)
{
    return array(r, k, NULL, out, out ? max : 0);
}

void campaign_rec_free(campaign_rec_t *r)
{
    json_object_put(r->o);
    r->o = NULL;
}
