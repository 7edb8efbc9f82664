/* campaign_rec.c — a campaign's records: one flat JSON object a run, numbers, strings and
 * arrays of numbers, written so that reading them back gives the same values bit for bit
 * (the report made from records read back is the report made from the runs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"

static void key(campaign_w_t *w, const char *k)
{
    fprintf(w->f, "%s\"%s\": ", w->n++ ? ", " : "", k);
}

/* 17 significant digits read back to the same double (glibc rounds both ways correctly);
 * JSON has no NaN or infinity: null, and a number too large to be anything but infinite. */
static void dbl(FILE *f, double v)
{
    if (isnan(v))
        fputs("null", f);
    else if (isinf(v))
        fputs(v > 0 ? "1e999" : "-1e999", f);
    else
        fprintf(f, "%.17g", v);
}

void campaign_w_u64(campaign_w_t *w, const char *k, uint64_t v)
{
    key(w, k);
    fprintf(w->f, "%llu", (unsigned long long)v);
}

void campaign_w_dbl(campaign_w_t *w, const char *k, double v)
{
    key(w, k);
    dbl(w->f, v);
}

void campaign_w_str(campaign_w_t *w, const char *k, const char *s)
{
    key(w, k);
    fputc('"', w->f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(w->f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", w->f);
        else if (*p == '\t')
            fputs("\\t", w->f);
        else if (*p < 0x20)
            fprintf(w->f, "\\u%04x", *p);
        else
            fputc(*p, w->f);
    }
    fputc('"', w->f);
}

void campaign_w_u64s(campaign_w_t *w, const char *k, const uint64_t *v, unsigned n)
{
    key(w, k);
    fputc('[', w->f);
    for (unsigned i = 0; i < n; i++)
        fprintf(w->f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', w->f);
}

void campaign_w_dbls(campaign_w_t *w, const char *k, const double *v, unsigned n)
{
    key(w, k);
    fputc('[', w->f);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            fputs(", ", w->f);
        dbl(w->f, v[i]);
    }
    fputc(']', w->f);
}

/* ---- reading ---------------------------------------------------------------------------- */

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* The end of the JSON string that starts at p (its opening quote), or NULL. */
static const char *str_end(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && !*++p)
            return NULL;
    return *p ? p + 1 : NULL;
}

/* The end of a value: a string, an array of scalars, or a scalar token. */
static const char *val_end(const char *p)
{
    if (*p == '"')
        return str_end(p);
    if (*p == '[') {
        const char *q = strchr(p, ']');
        return q ? q + 1 : NULL;
    }
    const char *q = p;
    while (*q && *q != ',' && *q != '}' && *q != ' ')
        q++;
    return q > p ? q : NULL;
}

int campaign_rec_parse(campaign_rec_t *r, const char *text, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    const char *p = ws(text);
    if (*p++ != '{')
        goto bad;
    p = ws(p);
    if (*p == '}')
        return 0;
    for (;;) {
        const char *ke = *p == '"' ? str_end(p) : NULL;
        if (!ke || r->n == CAMPAIGN_REC_MAX)
            goto bad;
        r->m[r->n].key = p + 1;
        r->m[r->n].klen = (size_t)(ke - p - 2);
        p = ws(ke);
        if (*p++ != ':')
            goto bad;
        p = ws(p);
        const char *ve = val_end(p);
        if (!ve)
            goto bad;
        r->m[r->n].val = p;
        r->m[r->n++].vlen = (size_t)(ve - p);
        p = ws(ve);
        if (*p == '}')
            return 0;
        if (*p++ != ',')
            goto bad;
        p = ws(p);
    }
bad:
    snprintf(err, errlen, "a record that is not a flat JSON object (at offset %ld)",
             (long)(p - text));
    return -1;
}

static int find(const campaign_rec_t *r, const char *k)
{
    size_t kl = strlen(k);
    for (unsigned i = 0; i < r->n; i++)
        if (r->m[i].klen == kl && !memcmp(r->m[i].key, k, kl))
            return (int)i;
    return -1;
}

int campaign_rec_has(const campaign_rec_t *r, const char *k) { return find(r, k) >= 0; }

static void misread(campaign_rec_t *r, const char *k)
{
    if (!r->bad)
        r->bad = k;
}

/* A scalar at p (up to end): a whole number, or a double; 0 or -1. */
static int scalar(const char *p, const char *end, int whole, uint64_t *u, double *d)
{
    char buf[64];
    size_t n = (size_t)(end - p);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, p, n);
    buf[n] = 0;
    char *e;
    if (whole) {
        if (buf[0] < '0' || buf[0] > '9')
            return -1;
        *u = strtoull(buf, &e, 10);
    } else if (!strcmp(buf, "null")) {
        *d = NAN;
        return 0;
    } else {
        *d = strtod(buf, &e);
    }
    return *e ? -1 : 0;
}

uint64_t campaign_rec_u64(campaign_rec_t *r, const char *k)
{
    int i = find(r, k);
    uint64_t v = 0;
    if (i < 0 || scalar(r->m[i].val, r->m[i].val + r->m[i].vlen, 1, &v, NULL) < 0) {
        misread(r, k);
        return 0;
    }
    return v;
}

double campaign_rec_dbl(campaign_rec_t *r, const char *k)
{
    int i = find(r, k);
    double v = 0;
    if (i < 0 || scalar(r->m[i].val, r->m[i].val + r->m[i].vlen, 0, NULL, &v) < 0) {
        misread(r, k);
        return 0;
    }
    return v;
}

/* One \uXXXX escape's code point as UTF-8 into q; the new end. */
static char *utf8(char *q, unsigned c)
{
    if (c < 0x80) {
        *q++ = (char)c;
    } else if (c < 0x800) {
        *q++ = (char)(0xc0 | c >> 6);
        *q++ = (char)(0x80 | (c & 0x3f));
    } else {
        *q++ = (char)(0xe0 | c >> 12);
        *q++ = (char)(0x80 | ((c >> 6) & 0x3f));
        *q++ = (char)(0x80 | (c & 0x3f));
    }
    return q;
}

const char *campaign_rec_str(campaign_rec_t *r, const char *k)
{
    int i = find(r, k);
    if (i < 0 || r->m[i].val[0] != '"' || r->nstrs == CAMPAIGN_REC_MAX) {
        misread(r, k);
        return "";
    }
    const char *p = r->m[i].val + 1, *end = r->m[i].val + r->m[i].vlen - 1;
    char *s = malloc((size_t)(end - p) + 1), *q = s;
    if (!s) {
        misread(r, k);
        return "";
    }
    r->strs[r->nstrs++] = s;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    while (p < end) {
        if (*p != '\\') {
            *q++ = *p++;
            continue;
        }
        const char *x = strchr(from, p[1]);
        if (x && p[1]) {
            *q++ = to[x - from];
            p += 2;
        } else if (p[1] == 'u' && end - p >= 6) {
            q = utf8(q, (unsigned)strtoul((char[5]){p[2], p[3], p[4], p[5], 0}, NULL, 16));
            p += 6;
        } else {
            misread(r, k);
            break;
        }
    }
    *q = 0;
    return s;
}

/* The elements of the array under k: how many, each read into out (if given). */
static unsigned array(campaign_rec_t *r, const char *k, int whole, uint64_t *u, double *d,
                      unsigned max)
{
    int i = find(r, k);
    if (i < 0 || r->m[i].val[0] != '[') {
        misread(r, k);
        return 0;
    }
    const char *p = ws(r->m[i].val + 1), *end = r->m[i].val + r->m[i].vlen - 1;
    unsigned n = 0;
    while (p < end) {
        const char *e = p;
        while (e < end && *e != ',' && *e != ' ')
            e++;
        uint64_t uv;
        double dv;
        if (scalar(p, e, whole, &uv, &dv) < 0) {
            misread(r, k);
            return n;
        }
        if (n < max) {
            if (whole && u)
                u[n] = uv;
            else if (!whole && d)
                d[n] = dv;
        }
        n++;
        p = ws(e);
        if (p < end && *p++ != ',') {
            misread(r, k);
            return n;
        }
        p = ws(p);
    }
    return n;
}

unsigned campaign_rec_u64s(campaign_rec_t *r, const char *k, uint64_t *out, unsigned max)
{
    return array(r, k, 1, out, NULL, out ? max : 0);
}

unsigned campaign_rec_dbls(campaign_rec_t *r, const char *k, double *out, unsigned max)
{
    return array(r, k, 0, NULL, out, out ? max : 0);
}

void campaign_rec_free(campaign_rec_t *r)
{
    for (unsigned i = 0; i < r->nstrs; i++)
        free(r->strs[i]);
    r->nstrs = 0;
}
