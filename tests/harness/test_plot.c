/*
 * test_plot.c - unit test of the PNG line-plot writer (harness/scisys/plot.c).
 *
 * TEST RATIONALE: the plots are read by people, not by programs, so the useful machine
 * checks are that the file is a PNG any viewer accepts and that the drawing landed where
 * it should.  The test therefore decodes the file itself rather than trusting the writer:
 * signature, chunk order and CRC-32s, IHDR, the zlib header, an independent inflate of
 * the deflate stream (fixed-Huffman as written, or stored blocks with LEN against NLEN),
 * the Adler-32 of the inflated rows, and the filter byte of each row.
 * Then the pixels: series colour inside the plot, none in the middle of a NaN gap, the
 * marker colour present (and absent from a plot without markers).  A degenerate plot (one
 * point, a constant, an empty series) must still come out, and bad input must return -1
 * with a message and leave no file behind.
 *
 * Usage: test_plot [DIR]  - with DIR the PNGs are written there and kept; without, a temp
 * directory is used and removed.  Prints "test_plot: N checks passed", or one line per
 * failed check and "test_plot: N checks, M failed"; exit 1 on failure.
 */
#include "plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tally {
    unsigned checks, failed;
} tally_t;

static void check(tally_t *t, int ok, const char *what)
{
    t->checks++;
    if (!ok) {
        t->failed++;
        printf("FAIL: %s\n", what);
    }
}

/* A decoded image: RGB, w * 3 bytes a row. */
typedef struct img {
    unsigned w, h;
    uint8_t *px;
} img_t;

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t crc32_ref(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1u ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

/* A plain inflater for what a fixed-Huffman or stored deflate stream can hold (RFC 1951);
 * dynamic blocks never come from plot.c and are refused. */
typedef struct bitin {
    const uint8_t *p;
    size_t n, pos; /* pos in bits */
} bitin_t;

static long getbits(bitin_t *b, int n) /* LSB first */
{
    long v = 0;
    for (int i = 0; i < n; i++, b->pos++) {
        if (b->pos >= b->n * 8)
            return -1;
        v |= (long)(b->p[b->pos >> 3] >> (b->pos & 7) & 1) << i;
    }
    return v;
}

static long gethuff(bitin_t *b, long code, int n) /* MSB first, appended to code */
{
    for (int i = 0; i < n; i++) {
        long bit = getbits(b, 1);
        if (bit < 0)
            return -1;
        code = code << 1 | bit;
    }
    return code;
}

static int inflate_ref(const uint8_t *z, size_t n, uint8_t *out, size_t cap, size_t *outlen,
                       size_t *used, const char **why)
{
    static const uint16_t lbase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                       31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                     2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static const uint16_t dbase[30] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                       33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    static const uint8_t dext[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
    bitin_t b = {z, n, 0};
    size_t o = 0;
    for (long final = 0; !final;) {
        final = getbits(&b, 1);
        long type = getbits(&b, 2);
        *why = "deflate block type stored or fixed";
        if (final < 0 || type < 0 || type > 1)
            return -1;
        if (type == 0) {
            b.pos = (b.pos + 7) & ~(size_t)7;
            long len = getbits(&b, 16), nlen = getbits(&b, 16);
            *why = "stored block: LEN == ~NLEN, within stream and image";
            if (len < 0 || nlen < 0 || (len ^ 0xffff) != nlen || b.pos / 8 + (size_t)len > n ||
                o + (size_t)len > cap)
                return -1;
            memcpy(out + o, z + b.pos / 8, (size_t)len);
            o += (size_t)len;
            b.pos += (size_t)len * 8;
            continue;
        }
        *why = "fixed-Huffman block: valid codes, distances and sizes";
        for (;;) {
            long c = gethuff(&b, 0, 7), sym;
            if (c < 0)
                return -1;
            if (c <= 23) {
                sym = 256 + c;
            } else if ((c = gethuff(&b, c, 1)) < 0) {
                return -1;
            } else if (c >= 0x30 && c <= 0xbf) {
                sym = c - 0x30;
            } else if (c >= 0xc0 && c <= 0xc7) {
                sym = 280 + c - 0xc0;
            } else if ((c = gethuff(&b, c, 1)) >= 0x190 && c <= 0x1ff) {
                sym = 144 + c - 0x190;
            } else {
                return -1;
            }
            if (sym < 256) {
                if (o >= cap)
                    return -1;
                out[o++] = (uint8_t)sym;
                continue;
            }
            if (sym == 256)
                break;
            if (sym > 285)
                return -1;
            long le = getbits(&b, lext[sym - 257]), dc = gethuff(&b, 0, 5);
            if (le < 0 || dc < 0 || dc > 29)
                return -1;
            long de = getbits(&b, dext[dc]);
            if (de < 0)
                return -1;
            size_t len = lbase[sym - 257] + (size_t)le, dist = dbase[dc] + (size_t)de;
            if (dist > o || o + len > cap)
                return -1;
            for (size_t i = 0; i < len; i++, o++)
                out[o] = out[o - dist];
        }
    }
    *outlen = o;
    *used = (b.pos + 7) / 8;
    return 0;
}

/* Decodes what plot.c writes (8-bit RGB, stored or fixed-Huffman deflate, filter 0);
 * anything else counts as a failure, named in *why. */
static int png_decode(const char *path, img_t *im, const char **why)
{
    uint8_t *buf = NULL, *idat = NULL, *raw = NULL;
    size_t n = 0, nidat = 0;
    int rc = -1;
    im->px = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = "PNG opens";
        return -1;
    }
    if (fseek(f, 0, SEEK_END) == 0) {
        long l = ftell(f);
        if (l > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)l)) != NULL)
            n = fread(buf, 1, (size_t)l, f);
    }
    fclose(f);
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    *why = "PNG signature";
    if (!buf || n < 8 || memcmp(buf, sig, 8) != 0)
        goto out;

    size_t o = 8;
    int seen_ihdr = 0, seen_iend = 0;
    while (!seen_iend) {
        *why = "chunk fits in the file";
        if (o + 12 > n || rd32(buf + o) > n - o - 12)
            goto out;
        uint32_t len = rd32(buf + o);
        const uint8_t *type = buf + o + 4, *data = buf + o + 8;
        *why = "chunk CRC-32";
        if (crc32_ref(type, len + 4) != rd32(data + len))
            goto out;
        if (!memcmp(type, "IHDR", 4)) {
            *why = "IHDR first, 13 bytes, 8-bit RGB, no interlace";
            if (seen_ihdr || o != 8 || len != 13 || data[8] != 8 || data[9] != 2 ||
                data[10] || data[11] || data[12])
                goto out;
            im->w = rd32(data);
            im->h = rd32(data + 4);
            seen_ihdr = 1;
        } else if (!memcmp(type, "IDAT", 4)) {
            *why = "IDAT after IHDR";
            uint8_t *g = seen_ihdr ? realloc(idat, nidat + len + 1) : NULL;
            if (!g)
                goto out;
            idat = g;
            memcpy(idat + nidat, data, len);
            nidat += len;
        } else if (!memcmp(type, "IEND", 4)) {
            *why = "IEND empty and last";
            if (len != 0 || o + 12 != n)
                goto out;
            seen_iend = 1;
        } else {
            *why = "only IHDR, IDAT, IEND";
            goto out;
        }
        o += 12 + len;
    }

    *why = "zlib header (deflate, check bits, no dictionary)";
    if (!idat || nidat < 6 || (idat[0] & 0x0f) != 8 || (idat[0] << 8 | idat[1]) % 31 != 0 ||
        (idat[1] & 0x20))
        goto out;
    size_t row = (size_t)im->w * 3 + 1, want = row * im->h, got = 0, z = 2;
    raw = malloc(want ? want : 1);
    *why = "dimensions plausible";
    if (!raw || im->w == 0 || im->h == 0)
        goto out;
    size_t used = 0;
    if (inflate_ref(idat + 2, nidat - 2, raw, want, &got, &used, why) != 0)
        goto out;
    z += used;
    *why = "inflated size == h * (1 + 3w)";
    if (got != want || z + 4 != nidat)
        goto out;
    uint32_t s1 = 1, s2 = 0;
    for (size_t i = 0; i < got; i++) {
        s1 = (s1 + raw[i]) % 65521u;
        s2 = (s2 + s1) % 65521u;
    }
    *why = "Adler-32";
    if (rd32(idat + z) != (s2 << 16 | s1))
        goto out;
    *why = "filter byte 0 on every row";
    im->px = malloc((size_t)im->w * im->h * 3);
    if (!im->px)
        goto out;
    for (unsigned y = 0; y < im->h; y++) {
        if (raw[y * row] != 0)
            goto out;
        memcpy(im->px + (size_t)y * im->w * 3, raw + y * row + 1, row - 1);
    }
    rc = 0;
out:
    if (rc != 0) {
        free(im->px);
        im->px = NULL;
    }
    free(buf);
    free(idat);
    free(raw);
    return rc;
}

/* Pixels of colour rgb in the box [x0, x1] x [y0, y1]. */
static unsigned count(const img_t *im, unsigned x0, unsigned y0, unsigned x1, unsigned y1,
                      uint32_t rgb)
{
    unsigned k = 0;
    for (unsigned y = y0; y <= y1 && y < im->h; y++)
        for (unsigned x = x0; x <= x1 && x < im->w; x++) {
            const uint8_t *p = im->px + ((size_t)y * im->w + x) * 3;
            k += ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) == rgb;
        }
    return k;
}

static unsigned nonwhite(const img_t *im, unsigned x0, unsigned y0, unsigned x1, unsigned y1)
{
    unsigned all = (x1 - x0 + 1) * (y1 - y0 + 1);
    return all - count(im, x0, y0, x1, y1, 0xffffffu);
}

#define BLUE 0x1f77b4u /* series 0 */
#define ORANGE 0xff7f0eu /* series 1 */

int main(int argc, char **argv)
{
    tally_t t = {0, 0};
    char dir[256], path[512], err[256];
    int keep = argc > 1;
    if (keep) {
        snprintf(dir, sizeof dir, "%s", argv[1]);
    } else {
        snprintf(dir, sizeof dir, "/tmp/test_plot.XXXXXX");
        if (!mkdtemp(dir)) {
            printf("FAIL: cannot make a temp directory\n");
            return 1;
        }
    }

    /* 1: three series over 0..100 ms, series 0 NaN over 40..60 ms, a fault marker. */
    enum { N = 101 };
    double x[N], bw[N], lat[N], other[N];
    for (unsigned i = 0; i < N; i++) {
        x[i] = i;
        bw[i] = i >= 40 && i <= 60 ? NAN : 1200.0 + 300.0 * sin(i * 0.2);
        lat[i] = i < 50 ? 800.0 : 400.0 + 4.0 * i;
        other[i] = 150.0 + i * 9.5;
    }
    plot_series_t s3[3] = {
        {"total bandwidth", x, bw, N}, {"west link", x, lat, N}, {"east link", x, other, N}};
    double marks[2] = {50.0, 75.0};
    const char *mlabels[2] = {"fault", "recovery"};
    plot_t p1 = {"Bandwidth through a link fault", "time (ms)", "bandwidth (MB/s)", s3, 3,
                 marks, 2, mlabels, 1, 0, 0};
    snprintf(path, sizeof path, "%s/three.png", dir);
    err[0] = 0;
    int rc = plot_png(path, &p1, err, sizeof err);
    check(&t, rc == 0, "three-series plot written");
    if (rc != 0)
        printf("  (%s)\n", err);
    img_t im;
    const char *why = "";
    FILE *fs = fopen(path, "rb");
    long size = fs && fseek(fs, 0, SEEK_END) == 0 ? ftell(fs) : -1;
    if (fs)
        fclose(fs);
    check(&t, size > 0 && size < 200000, "PNG compressed (800 x 450 is 1 MB raw)");
    rc = png_decode(path, &im, &why);
    check(&t, rc == 0, "three-series PNG decodes");
    if (rc != 0) {
        printf("  (%s)\n", why);
    } else {
        check(&t, im.w == 800 && im.h == 450, "default size 800 x 450");
        check(&t, nonwhite(&im, 0, 0, 799, 0) == 0 && nonwhite(&im, 0, 449, 799, 449) == 0,
              "white background at the edges");
        check(&t, nonwhite(&im, 200, 100, 600, 350) > 500, "plot area is drawn on");
        check(&t, count(&im, 0, 0, 799, 449, BLUE) > 200, "series 0 colour present");
        check(&t, count(&im, 0, 0, 799, 449, ORANGE) > 200, "series 1 colour present");
        check(&t, count(&im, 0, 0, 799, 449, PLOT_VLINE_RGB) > 100, "marker colour present");
        /* The image centre maps to about 47 ms, inside the 40..60 ms gap. */
        check(&t, count(&im, 400, 0, 400, 449, BLUE) == 0, "NaN gap leaves series 0 undrawn");
        check(&t, count(&im, 200, 40, 200, 400, BLUE) > 0, "series 0 drawn before the gap");
        check(&t, count(&im, 620, 40, 620, 400, BLUE) > 0, "series 0 drawn after the gap");
        check(&t, nonwhite(&im, 300, 0, 500, 40) > 50, "title drawn at the top");
        check(&t, nonwhite(&im, 0, 150, 15, 300) > 20, "y label drawn at the left");
        check(&t, nonwhite(&im, 300, 430, 500, 449) > 20, "x label drawn at the bottom");
        free(im.px);
    }

    /* 2: degenerate - one point, a constant, an empty series; odd size; no markers. */
    double x1[1] = {3.0}, y1[1] = {7.0};
    double xc[4] = {0.0, 1.0, 2.0, 3.0}, yc[4] = {5.0, 5.0, 5.0, 5.0};
    plot_series_t sd[3] = {{"single point", x1, y1, 1}, {"constant", xc, yc, 4},
                           {"no samples", NULL, NULL, 0}};
    plot_t p2 = {"Degenerate", "t", "v", sd, 3, NULL, 0, NULL, 0, 640, 300};
    snprintf(path, sizeof path, "%s/degenerate.png", dir);
    rc = plot_png(path, &p2, err, sizeof err);
    check(&t, rc == 0, "degenerate plot written");
    if (rc != 0)
        printf("  (%s)\n", err);
    rc = png_decode(path, &im, &why);
    check(&t, rc == 0, "degenerate PNG decodes");
    if (rc != 0) {
        printf("  (%s)\n", why);
    } else {
        check(&t, im.w == 640 && im.h == 300, "requested size 640 x 300");
        check(&t, count(&im, 0, 0, 639, 299, BLUE) >= 9, "single point drawn as a square");
        check(&t, count(&im, 0, 0, 639, 299, ORANGE) > 100, "constant series drawn");
        check(&t, count(&im, 0, 0, 639, 299, PLOT_VLINE_RGB) == 0, "no marker, no marker colour");
        free(im.px);
    }

    /* 3: one constant-zero series with ymin_zero (a flat line on the axis), huge values. */
    double yz[4] = {0, 0, 0, 0}, yh[4] = {2e9, 2.5e9, 2.2e9, 3e9};
    plot_series_t sz[2] = {{"zero", xc, yz, 4}, {"huge", xc, yh, 4}};
    plot_t p3 = {NULL, NULL, NULL, sz, 1, NULL, 0, NULL, 1, 0, 0};
    snprintf(path, sizeof path, "%s/zero.png", dir);
    check(&t, plot_png(path, &p3, err, sizeof err) == 0 && png_decode(path, &im, &why) == 0,
          "constant zero with ymin_zero, no labels");
    free(im.px);
    p3.series = sz + 1;
    snprintf(path, sizeof path, "%s/huge.png", dir);
    check(&t, plot_png(path, &p3, err, sizeof err) == 0 && png_decode(path, &im, &why) == 0,
          "values of 1e9 plotted");
    free(im.px);

    /* Bad input: -1, a message, and no file left behind. */
    err[0] = 0;
    check(&t, plot_png(NULL, &p1, err, sizeof err) == -1 && err[0], "NULL path refused");
    err[0] = 0;
    check(&t, plot_png("/nonexistent-dir/x/y.png", &p1, err, sizeof err) == -1 && err[0],
          "unwritable path refused");
    plot_t p0 = p1;
    p0.nseries = 0;
    snprintf(path, sizeof path, "%s/none.png", dir);
    err[0] = 0;
    check(&t, plot_png(path, &p0, err, sizeof err) == -1 && err[0], "nseries 0 refused");
    double nan4[4] = {NAN, NAN, NAN, NAN};
    plot_series_t se[2] = {{"empty", NULL, NULL, 0}, {"all NaN", xc, nan4, 4}};
    p0.series = se;
    p0.nseries = 2;
    err[0] = 0;
    check(&t, plot_png(path, &p0, err, sizeof err) == -1 && err[0], "no finite data refused");
    check(&t, access(path, F_OK) != 0, "refused plot leaves no file");
    check(&t, plot_png(path, NULL, NULL, 0) == -1, "NULL plot and NULL err refused");
    plot_series_t sn = {"x missing", NULL, yc, 4};
    p0.series = &sn;
    p0.nseries = 1;
    err[0] = 0;
    check(&t, plot_png(path, &p0, err, sizeof err) == -1 && err[0], "NULL x with n > 0 refused");

    if (!keep) {
        const char *names[] = {"three.png", "degenerate.png", "zero.png", "huge.png"};
        for (unsigned i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            remove(path);
        }
        rmdir(dir);
    }
    if (t.failed) {
        printf("test_plot: %u checks, %u failed\n", t.checks, t.failed);
        return 1;
    }
    printf("test_plot: %u checks passed\n", t.checks);
    return 0;
}
