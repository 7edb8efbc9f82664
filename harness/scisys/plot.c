/* plot.c — PNG line plots for experiment time series: a small raster canvas, a built-in 5x7
 * bitmap font, 1/2/5 x 10^k axis ticks, and a PNG writer with its own small deflate
 * (no zlib), so the harness needs nothing beyond libc and libm. */
#include "plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Font: ASCII 32..126, 7 rows a glyph, bit 4 is the leftmost of 5 columns.  Drawn in a
 * 6 x 8 cell so adjacent glyphs and lines of text never touch. */
#define GLYPH_W 5
#define GLYPH_H 7
#define CELL_W 6
#define CELL_H 8

static const uint8_t font5x7[95][7] = {
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* space */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04}, /* ! */
    {0x0a, 0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00}, /* " */
    {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a}, /* # */
    {0x04, 0x0f, 0x14, 0x0e, 0x05, 0x1e, 0x04}, /* $ */
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}, /* % */
    {0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d}, /* & */
    {0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00}, /* ' */
    {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}, /* ( */
    {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}, /* ) */
    {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00}, /* star */
    {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00}, /* + */
    {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08}, /* , */
    {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}, /* - */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}, /* . */
    {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}, /* slash */
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, /* 0 */
    {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* 1 */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, /* 2 */
    {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}, /* 3 */
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, /* 4 */
    {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}, /* 5 */
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, /* 6 */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}, /* 7 */
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, /* 8 */
    {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}, /* 9 */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00}, /* : */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x04, 0x08}, /* ; */
    {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02}, /* < */
    {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00}, /* = */
    {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08}, /* > */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04}, /* ? */
    {0x0e, 0x11, 0x01, 0x0d, 0x15, 0x15, 0x0e}, /* @ */
    {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* A */
    {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}, /* B */
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}, /* C */
    {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c}, /* D */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}, /* E */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}, /* F */
    {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}, /* G */
    {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* H */
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* I */
    {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}, /* J */
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}, /* K */
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}, /* L */
    {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}, /* M */
    {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}, /* N */
    {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* O */
    {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}, /* P */
    {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}, /* Q */
    {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}, /* R */
    {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}, /* S */
    {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* T */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* U */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}, /* V */
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}, /* W */
    {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}, /* X */
    {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04}, /* Y */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}, /* Z */
    {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e}, /* [ */
    {0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00}, /* backslash */
    {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e}, /* ] */
    {0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00}, /* ^ */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f}, /* _ */
    {0x08, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00}, /* ` */
    {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f}, /* a */
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e}, /* b */
    {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e}, /* c */
    {0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f}, /* d */
    {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e}, /* e */
    {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08}, /* f */
    {0x00, 0x00, 0x0f, 0x11, 0x0f, 0x01, 0x0e}, /* g */
    {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11}, /* h */
    {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e}, /* i */
    {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0c}, /* j */
    {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}, /* k */
    {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* l */
    {0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11}, /* m */
    {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11}, /* n */
    {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e}, /* o */
    {0x00, 0x00, 0x1e, 0x11, 0x1e, 0x10, 0x10}, /* p */
    {0x00, 0x00, 0x0d, 0x13, 0x0f, 0x01, 0x01}, /* q */
    {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10}, /* r */
    {0x00, 0x00, 0x0e, 0x10, 0x0e, 0x01, 0x1e}, /* s */
    {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06}, /* t */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d}, /* u */
    {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04}, /* v */
    {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a}, /* w */
    {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11}, /* x */
    {0x00, 0x00, 0x11, 0x11, 0x0f, 0x01, 0x0e}, /* y */
    {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f}, /* z */
    {0x02, 0x04, 0x04, 0x08, 0x04, 0x04, 0x02}, /* { */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* | */
    {0x08, 0x04, 0x04, 0x02, 0x04, 0x04, 0x08}, /* } */
    {0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00}, /* ~ */
};

#define WHITE 0xffffffu
#define BLACK 0x000000u
#define FRAME 0x404040u
#define GRID 0xe4e4e4u

/* Tableau-like colours, red left out so that it means "marker" and nothing else. */
static const uint32_t series_rgb[PLOT_NCOLOURS] = {
    0x1f77b4u, 0xff7f0eu, 0x2ca02cu, 0x9467bdu, 0x8c564bu, 0xe377c2u, 0x17becfu, 0xbcbd22u,
};

typedef struct canvas {
    uint8_t *px; /* RGB rows, w * 3 bytes each */
    int w, h;
} canvas_t;

typedef struct rect {
    int x0, y0, x1, y1; /* inclusive */
} rect_t;

static void put(canvas_t *c, const rect_t *clip, int x, int y, uint32_t rgb)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return;
    if (clip && (x < clip->x0 || x > clip->x1 || y < clip->y0 || y > clip->y1))
        return;
    uint8_t *p = c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 3;
    p[0] = (uint8_t)(rgb >> 16);
    p[1] = (uint8_t)(rgb >> 8);
    p[2] = (uint8_t)rgb;
}

static void fill(canvas_t *c, int x0, int y0, int x1, int y1, uint32_t rgb)
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            put(c, NULL, x, y, rgb);
}

/* Bresenham, thickened across the minor axis so a 2 px line keeps its weight at any slope. */
static void line(canvas_t *c, const rect_t *clip, int x0, int y0, int x1, int y1, uint32_t rgb,
                 int thick)
{
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy, xmajor = dx >= -dy;
    for (;;) {
        for (int t = 0; t < thick; t++)
            put(c, clip, x0 + (xmajor ? 0 : t), y0 + (xmajor ? t : 0), rgb);
        if (x0 == x1 && y0 == y1)
            break;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

static const uint8_t *glyph(char ch)
{
    unsigned char u = (unsigned char)ch;
    return font5x7[(u >= 32 && u <= 126 ? u : '?') - 32];
}

static int text_w(const char *s, int scale)
{
    size_t n = s ? strlen(s) : 0;
    return n ? (int)n * CELL_W * scale - scale : 0;
}

/* (x, y) is the top left of the first cell. */
static void text(canvas_t *c, int x, int y, const char *s, int scale, uint32_t rgb)
{
    for (; s && *s; s++, x += CELL_W * scale) {
        const uint8_t *g = glyph(*s);
        for (int r = 0; r < GLYPH_H; r++)
            for (int col = 0; col < GLYPH_W; col++)
                if (g[r] & (0x10 >> col))
                    fill(c, x + col * scale, y + r * scale, x + col * scale + scale - 1,
                         y + r * scale + scale - 1, rgb);
    }
}

/* Rotated a quarter turn anticlockwise, reading upwards; (x, y) is the bottom left. */
static void text_up(canvas_t *c, int x, int y, const char *s, int scale, uint32_t rgb)
{
    for (; s && *s; s++, y -= CELL_W * scale) {
        const uint8_t *g = glyph(*s);
        for (int r = 0; r < GLYPH_H; r++)
            for (int col = 0; col < GLYPH_W; col++)
                if (g[r] & (0x10 >> col))
                    fill(c, x + r * scale, y - col * scale - scale + 1, x + r * scale + scale - 1,
                         y - col * scale, rgb);
    }
}

/* ---- axes ---- */

typedef struct axis {
    double lo, hi, step; /* lo and hi are multiples of step */
    unsigned nticks;
    int prec;   /* digits for the labels */
    int sci;    /* labels in %g form: huge or tiny magnitudes */
} axis_t;

static double nice_step(double span, unsigned target)
{
    double raw = span / target, mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0) * mag;
}

/* Ranges are widened to whole steps so the frame lies on ticks. */
static void axis_fit(axis_t *a, double lo, double hi, unsigned target)
{
    if (!(hi - lo > 1e-12 * fmax(fabs(lo), fabs(hi)))) {
        double d = lo == 0.0 ? 1.0 : fabs(lo) * 0.1;
        lo -= d;
        hi += d;
    }
    if (target < 1)
        target = 1;
    a->step = nice_step(hi - lo, target);
    a->lo = floor(lo / a->step + 1e-9) * a->step;
    a->hi = ceil(hi / a->step - 1e-9) * a->step;
    a->nticks = (unsigned)lround((a->hi - a->lo) / a->step) + 1;
    double big = fmax(fabs(a->lo), fabs(a->hi));
    a->sci = big >= 1e7 || a->step < 1e-4;
    if (a->sci) {
        int p = (int)ceil(log10(big / a->step)) + 1;
        a->prec = p < 1 ? 1 : p > 12 ? 12 : p;
    } else {
        a->prec = a->step >= 1.0 ? 0 : (int)ceil(-log10(a->step) - 1e-9);
    }
}

static double axis_tick(const axis_t *a, unsigned i)
{
    double v = a->lo + a->step * i;
    return fabs(v) < a->step * 1e-9 ? 0.0 : v; /* no "-0" */
}

static void axis_label(const axis_t *a, unsigned i, char *buf, size_t len)
{
    snprintf(buf, len, a->sci ? "%.*g" : "%.*f", a->prec, axis_tick(a, i));
}

static int axis_label_w(const axis_t *a, int scale)
{
    char b[48];
    int w = 0;
    for (unsigned i = 0; i < a->nticks; i++) {
        axis_label(a, i, b, sizeof b);
        int t = text_w(b, scale);
        w = t > w ? t : w;
    }
    return w;
}

/* Pixel position of v on an axis spanning pixels p0 .. p1; clamped so a wild value cannot
 * overflow an int, and lines to it still leave the frame in the right direction. */
static int axis_px(const axis_t *a, double v, int p0, int p1)
{
    double p = p0 + (v - a->lo) / (a->hi - a->lo) * (p1 - p0);
    return (int)lround(fmax(-1e5, fmin(1e5, p)));
}

/* ---- PNG ---- */

static uint32_t crc32_of(const uint32_t *tab, uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    while (n--)
        crc = tab[(crc ^ *p++) & 0xffu] ^ (crc >> 8);
    return ~crc;
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static int chunk(FILE *f, const uint32_t *tab, const char *type, const uint8_t *data, size_t n)
{
    uint8_t hdr[8], tail[4];
    be32(hdr, (uint32_t)n);
    memcpy(hdr + 4, type, 4);
    uint32_t crc = crc32_of(tab, 0, hdr + 4, 4);
    crc = crc32_of(tab, crc, data, n);
    be32(tail, crc);
    return fwrite(hdr, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) &&
                   fwrite(tail, 1, 4, f) == 4
               ? 0
               : -1;
}

/* Deflate with one fixed-Huffman block (RFC 1951 3.2.6).  Plots are mostly flat colour, so
 * a greedy search for repeats at three distances only - the previous byte (white runs),
 * the previous pixel (coloured runs) and the previous row (vertical lines, blank rows) -
 * gets 800 x 450 from 1 MB stored down to tens of kB without hash chains or dynamic
 * trees.  Bits go out LSB first; Huffman codes MSB first, hence the reversal. */
typedef struct bits {
    uint8_t *p;
    size_t n;
    uint32_t acc;
    int nacc;
} bits_t;

static void put_bits(bits_t *b, uint32_t v, int n)
{
    b->acc |= v << b->nacc;
    b->nacc += n;
    while (b->nacc >= 8) {
        b->p[b->n++] = (uint8_t)b->acc;
        b->acc >>= 8;
        b->nacc -= 8;
    }
}

static void put_huff(bits_t *b, uint32_t code, int len)
{
    uint32_t r = 0;
    for (int i = 0; i < len; i++)
        r |= (code >> i & 1u) << (len - 1 - i);
    put_bits(b, r, len);
}

static void put_sym(bits_t *b, unsigned sym)
{
    if (sym < 144)
        put_huff(b, 0x30 + sym, 8);
    else if (sym < 256)
        put_huff(b, 0x190 + sym - 144, 9);
    else if (sym < 280)
        put_huff(b, sym - 256, 7);
    else
        put_huff(b, 0xc0 + sym - 280, 8);
}

static const uint16_t len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                       33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static void put_match(bits_t *b, unsigned len, unsigned dist)
{
    unsigned i = 28, j = 29;
    while (len_base[i] > len)
        i--;
    put_sym(b, 257 + i);
    put_bits(b, len - len_base[i], len_extra[i]);
    while (dist_base[j] > dist)
        j--;
    put_huff(b, j, 5);
    put_bits(b, dist - dist_base[j], dist_extra[j]);
}

static int write_png(FILE *f, const canvas_t *c)
{
    uint32_t tab[256];
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t v = n;
        for (int k = 0; k < 8; k++)
            v = v & 1u ? 0xedb88320u ^ (v >> 1) : v >> 1;
        tab[n] = v;
    }
    /* Rows as PNG wants them: a filter byte (0, none) and the pixels. */
    size_t row = (size_t)c->w * 3 + 1, raw = row * (size_t)c->h;
    uint8_t *r = malloc(raw);
    /* Worst case all literals of 9 bits, plus headers and the Adler-32. */
    bits_t b = {malloc(raw / 8 * 9 + 64), 0, 0, 0};
    if (!r || !b.p) {
        free(r);
        free(b.p);
        return -2;
    }
    uint32_t s1 = 1, s2 = 0;
    for (size_t y = 0; y < (size_t)c->h; y++) {
        r[y * row] = 0;
        memcpy(r + y * row + 1, c->px + y * (row - 1), row - 1);
    }
    for (size_t i = 0; i < raw; i++) {
        s1 = (s1 + r[i]) % 65521u;
        s2 = (s2 + s1) % 65521u;
    }
    b.p[b.n++] = 0x78; /* deflate, 32K window: row <= 4096 * 3 + 1 fits */
    b.p[b.n++] = 0x01; /* check bits: 0x7801 % 31 == 0 */
    put_bits(&b, 1, 1); /* BFINAL */
    put_bits(&b, 1, 2); /* BTYPE 01: fixed Huffman */
    const size_t dists[3] = {1, 3, row};
    for (size_t i = 0; i < raw;) {
        size_t best = 0, bd = 0;
        for (int k = 0; k < 3; k++) {
            size_t d = dists[k], l = 0;
            if (d > i)
                continue;
            while (l < 258 && i + l < raw && r[i + l] == r[i + l - d])
                l++;
            if (l > best) {
                best = l;
                bd = d;
            }
        }
        if (best >= 3) {
            put_match(&b, (unsigned)best, (unsigned)bd);
            i += best;
        } else {
            put_sym(&b, r[i++]);
        }
    }
    put_sym(&b, 256); /* end of block */
    if (b.nacc)
        put_bits(&b, 0, 8 - b.nacc); /* the Adler-32 starts on a byte */
    be32(b.p + b.n, s2 << 16 | s1);
    b.n += 4;
    free(r);
    uint8_t *z = b.p;
    size_t o = b.n;

    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t ihdr[13];
    be32(ihdr, (uint32_t)c->w);
    be32(ihdr + 4, (uint32_t)c->h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* compression: deflate */
    ihdr[11] = 0; /* filter method 0 */
    ihdr[12] = 0; /* no interlace */
    int rc = fwrite(sig, 1, 8, f) == 8 && chunk(f, tab, "IHDR", ihdr, 13) == 0 &&
                     chunk(f, tab, "IDAT", z, o) == 0 && chunk(f, tab, "IEND", NULL, 0) == 0
                 ? 0
                 : -1;
    free(z);
    return rc;
}

/* ---- the plot ---- */

static int fail(char *err, size_t errlen, const char *msg, const char *path)
{
    if (err && errlen)
        snprintf(err, errlen, "plot: %s%s%s", path ? path : "", path ? ": " : "", msg);
    return -1;
}

static int point_ok(const plot_series_t *s, unsigned i)
{
    return i < s->n && isfinite(s->x[i]) && isfinite(s->y[i]);
}

int plot_png(const char *path, const plot_t *p, char *err, size_t errlen)
{
    if (!path || !*path)
        return fail(err, errlen, "no output path", NULL);
    if (!p)
        return fail(err, errlen, "no plot", path);
    if (p->nseries == 0 || !p->series)
        return fail(err, errlen, "no series", path);
    if (p->nvline && !p->vline)
        return fail(err, errlen, "nvline > 0 but vline is NULL", path);

    /* Data ranges: x from every finite x (the run's time span, even where y is undefined)
     * and the markers; y from finite points only. */
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (unsigned s = 0; s < p->nseries; s++) {
        const plot_series_t *se = &p->series[s];
        if (se->n && (!se->x || !se->y))
            return fail(err, errlen, "series has points but no x or y array", path);
        for (unsigned i = 0; i < se->n; i++) {
            if (isfinite(se->x[i])) {
                xlo = fmin(xlo, se->x[i]);
                xhi = fmax(xhi, se->x[i]);
            }
            if (point_ok(se, i)) {
                ylo = fmin(ylo, se->y[i]);
                yhi = fmax(yhi, se->y[i]);
            }
        }
    }
    if (!isfinite(ylo))
        return fail(err, errlen, "no data (no point with finite x and y)", path);
    for (unsigned v = 0; v < p->nvline; v++)
        if (isfinite(p->vline[v])) {
            xlo = fmin(xlo, p->vline[v]);
            xhi = fmax(xhi, p->vline[v]);
        }
    /* A little headroom so extremes do not run along the frame; not below zero for data
     * that cannot be negative, where an axis from -50 MB/s would only puzzle. */
    int data_nonneg = ylo >= 0.0;
    double pad = (yhi - ylo) * 0.04;
    ylo = p->ymin_zero && data_nonneg ? 0.0 : data_nonneg && ylo - pad < 0.0 ? 0.0 : ylo - pad;
    yhi += pad;

    if (!isfinite(xhi - xlo) || !isfinite(yhi - ylo) || fmax(fabs(yhi), fabs(ylo)) > 1e300)
        return fail(err, errlen, "data range too large to plot", path);

    canvas_t c;
    c.w = p->width ? (int)(p->width < 200 ? 200 : p->width > 4096 ? 4096 : p->width) : 800;
    c.h = p->height ? (int)(p->height < 150 ? 150 : p->height > 4096 ? 4096 : p->height) : 450;
    c.px = malloc((size_t)c.w * (size_t)c.h * 3);
    if (!c.px)
        return fail(err, errlen, "out of memory", path);
    memset(c.px, 0xff, (size_t)c.w * (size_t)c.h * 3);

    /* Text at 2x only where the canvas is big enough for it to stay in proportion. */
    int ts = c.w >= 1400 && c.h >= 800 ? 2 : 1, th = CELL_H * ts;
    int title_s = 2 * ts, tick = 5 * ts;
    if (p->title && text_w(p->title, title_s) > c.w - 8)
        title_s = ts; /* a long title stays whole at the smaller size */

    /* Layout: frame (plot area) inset by the title, the tick labels and the axis labels. */
    rect_t fr;
    fr.y0 = p->title && *p->title ? 12 + CELL_H * title_s + 10 : 16;
    fr.y1 = c.h - 1 - (8 + th + (p->xlabel && *p->xlabel ? 8 + th : 0) + 4 + tick);

    axis_t ya;
    int ny = (fr.y1 - fr.y0) / (40 * ts);
    axis_fit(&ya, ylo, yhi, ny < 2 ? 2u : (unsigned)ny);
    fr.x0 = 10 + (p->ylabel && *p->ylabel ? th + 8 : 0) + axis_label_w(&ya, ts) + 4 + tick;

    /* Fewer x ticks until their labels have room to breathe. */
    axis_t xa;
    unsigned target = (unsigned)(c.w / (90 * ts));
    char lb[48];
    for (;;) {
        axis_fit(&xa, xlo, xhi, target);
        axis_label(&xa, xa.nticks - 1, lb, sizeof lb);
        fr.x1 = c.w - 1 - (10 + text_w(lb, ts) / 2);
        double gap = (double)(fr.x1 - fr.x0) / (xa.nticks - 1);
        if (target <= 2 || gap >= axis_label_w(&xa, ts) + 12 * ts)
            break;
        target--;
    }
    if (fr.x1 - fr.x0 < 20 || fr.y1 - fr.y0 < 20) {
        free(c.px);
        return fail(err, errlen, "canvas too small for the labels", path);
    }

    /* Grid and frame first, data over them (clipped a little outside the frame, so a
     * value on an axis limit stays whole), then ticks and text. */
    for (unsigned i = 0; i < xa.nticks; i++) {
        int x = axis_px(&xa, axis_tick(&xa, i), fr.x0, fr.x1);
        line(&c, NULL, x, fr.y0, x, fr.y1, GRID, 1);
    }
    for (unsigned i = 0; i < ya.nticks; i++) {
        int y = axis_px(&ya, axis_tick(&ya, i), fr.y1, fr.y0);
        line(&c, NULL, fr.x0, y, fr.x1, y, GRID, 1);
    }

    line(&c, NULL, fr.x0, fr.y0, fr.x1, fr.y0, FRAME, 1);
    line(&c, NULL, fr.x0, fr.y1, fr.x1, fr.y1, FRAME, 1);
    line(&c, NULL, fr.x0, fr.y0, fr.x0, fr.y1, FRAME, 1);
    line(&c, NULL, fr.x1, fr.y0, fr.x1, fr.y1, FRAME, 1);
    rect_t dat = {fr.x0 - 2, fr.y0 - 2, fr.x1 + 2, fr.y1 + 2};
    for (unsigned v = 0; v < p->nvline; v++) {
        if (!isfinite(p->vline[v]))
            continue;
        int x = axis_px(&xa, p->vline[v], fr.x0, fr.x1);
        for (int y = fr.y0; y <= fr.y1; y++)
            if ((y - fr.y0) % (9 * ts) < 6 * ts)
                line(&c, &fr, x, y, x + 1, y, PLOT_VLINE_RGB, 1);
    }

    for (unsigned s = 0; s < p->nseries; s++) {
        const plot_series_t *se = &p->series[s];
        uint32_t rgb = series_rgb[s % PLOT_NCOLOURS];
        int px = 0, py = 0, have = 0;
        for (unsigned i = 0; i < se->n; i++) {
            if (!point_ok(se, i)) {
                have = 0;
                continue;
            }
            int x = axis_px(&xa, se->x[i], fr.x0, fr.x1), y = axis_px(&ya, se->y[i], fr.y1, fr.y0);
            if (have)
                line(&c, &dat, px, py, x, y, rgb, 2);
            else if (!point_ok(se, i + 1))
                for (int d = -2; d <= 2; d++)
                    line(&c, &dat, x - 2, y + d, x + 2, y + d, rgb, 1);
            px = x;
            py = y;
            have = 1;
        }
    }

    for (unsigned i = 0; i < xa.nticks; i++) {
        int x = axis_px(&xa, axis_tick(&xa, i), fr.x0, fr.x1);
        line(&c, NULL, x, fr.y1, x, fr.y1 + tick, FRAME, 1);
        axis_label(&xa, i, lb, sizeof lb);
        text(&c, x - text_w(lb, ts) / 2, fr.y1 + tick + 4, lb, ts, BLACK);
    }
    for (unsigned i = 0; i < ya.nticks; i++) {
        int y = axis_px(&ya, axis_tick(&ya, i), fr.y1, fr.y0);
        line(&c, NULL, fr.x0 - tick, y, fr.x0, y, FRAME, 1);
        axis_label(&ya, i, lb, sizeof lb);
        text(&c, fr.x0 - tick - 4 - text_w(lb, ts), y - GLYPH_H * ts / 2, lb, ts, BLACK);
    }

    int cx = (fr.x0 + fr.x1) / 2;
    if (p->title && *p->title) {
        int w = text_w(p->title, title_s), x = (c.w - w) / 2;
        text(&c, x < 4 ? 4 : x, 12, p->title, title_s, BLACK);
    }
    if (p->xlabel && *p->xlabel)
        text(&c, cx - text_w(p->xlabel, ts) / 2, fr.y1 + tick + 4 + th + 8, p->xlabel, ts,
             BLACK);
    if (p->ylabel && *p->ylabel) {
        int y = (fr.y0 + fr.y1) / 2 + text_w(p->ylabel, ts) / 2;
        text_up(&c, 10, y < c.h - 4 ? y : c.h - 4, p->ylabel, ts, BLACK);
    }

    /* Marker labels along the top, on a white patch so grid lines do not cut them; flipped
     * to the left of the line where the right would run off the frame. */
    for (unsigned v = 0; v < p->nvline; v++) {
        const char *l = p->vline_label ? p->vline_label[v] : NULL;
        if (!l || !*l || !isfinite(p->vline[v]))
            continue;
        int x = axis_px(&xa, p->vline[v], fr.x0, fr.x1) + 5 * ts, w = text_w(l, ts);
        if (x + w + 3 > fr.x1)
            x -= w + 10 * ts;
        int y = fr.y0 + 4 + (int)v % 2 * (th + 4); /* stagger close markers */
        fill(&c, x - 2, y - 2, x + w + 1, y + GLYPH_H * ts + 1, WHITE);
        text(&c, x, y, l, ts, PLOT_VLINE_RGB);
    }

    /* Legend in whichever inside corner covers the fewest data points. */
    int lw = 0;
    for (unsigned s = 0; s < p->nseries; s++) {
        int w = text_w(p->series[s].name ? p->series[s].name : "?", ts);
        lw = w > lw ? w : lw;
    }
    int sw = 20 * ts, bw = 8 + sw + 6 + lw + 8, bh = 6 + (int)p->nseries * (th + 4) + 2;
    int best = 0;
    long best_cost = -1;
    for (int k = 0; k < 4; k++) {
        int bx = k & 1 ? fr.x0 + 8 : fr.x1 - 8 - bw, by = k & 2 ? fr.y1 - 8 - bh : fr.y0 + 8;
        long cost = k; /* prefer top right, then top left, ... on a tie */
        for (unsigned s = 0; s < p->nseries; s++)
            for (unsigned i = 0; i < p->series[s].n; i++) {
                if (!point_ok(&p->series[s], i))
                    continue;
                int x = axis_px(&xa, p->series[s].x[i], fr.x0, fr.x1);
                int y = axis_px(&ya, p->series[s].y[i], fr.y1, fr.y0);
                cost += (x >= bx && x <= bx + bw && y >= by && y <= by + bh) * 16;
            }
        for (unsigned v = 0; v < p->nvline; v++) {
            int x = isfinite(p->vline[v]) ? axis_px(&xa, p->vline[v], fr.x0, fr.x1) : -1;
            cost += (x >= bx - 80 * ts && x <= bx + bw) * (k & 2 ? 8 : 64);
        }
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = k;
        }
    }
    int bx = best & 1 ? fr.x0 + 8 : fr.x1 - 8 - bw, by = best & 2 ? fr.y1 - 8 - bh : fr.y0 + 8;
    fill(&c, bx, by, bx + bw, by + bh, WHITE);
    line(&c, NULL, bx, by, bx + bw, by, FRAME, 1);
    line(&c, NULL, bx, by + bh, bx + bw, by + bh, FRAME, 1);
    line(&c, NULL, bx, by, bx, by + bh, FRAME, 1);
    line(&c, NULL, bx + bw, by, bx + bw, by + bh, FRAME, 1);
    for (unsigned s = 0; s < p->nseries; s++) {
        int y = by + 6 + (int)s * (th + 4);
        line(&c, NULL, bx + 8, y + GLYPH_H * ts / 2, bx + 8 + sw, y + GLYPH_H * ts / 2,
             series_rgb[s % PLOT_NCOLOURS], 2);
        text(&c, bx + 8 + sw + 6, y, p->series[s].name ? p->series[s].name : "?", ts, BLACK);
    }

    FILE *f = fopen(path, "wb");
    if (!f) {
        free(c.px);
        return fail(err, errlen, "cannot open for writing", path);
    }
    int rc = write_png(f, &c);
    free(c.px);
    if (fclose(f) != 0 && rc == 0)
        rc = -1;
    if (rc != 0) {
        remove(path); /* no truncated PNG left behind to be mistaken for a result */
        return fail(err, errlen, rc == -2 ? "out of memory" : "write failed", path);
    }
    return 0;
}
