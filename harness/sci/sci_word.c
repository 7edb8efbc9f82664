/*
 * sci_word.c — SCI-lite link words in the vector language (rtl/sci_lc.md sections 1 and 2):
 * single symbols, and the packet and echo macros that span cycles, with the CRC computed.
 * This is the harness's own CRC (a calculator for vectors), not the models'.
 */
#include "sci_word.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint16_t sci_word_crc(const uint16_t *sym, unsigned n)
{
    uint16_t crc = 0xFFFF;
    for (unsigned i = 0; i < n; i++) {
        uint16_t s = sym[i];
        if (i == 0)
            s &= (uint16_t)~0x4000u; /* targetId bit 14: the P2S address select, may flip */
        if (i == 1)
            s &= (uint16_t)~0x0080u; /* the scrubber mark, may change in flight */
        for (int b = 15; b >= 0; b--) {
            unsigned in = (s >> b) & 1u, top = (crc >> 15) & 1u;
            crc = (uint16_t)(crc << 1);
            if (in ^ top)
                crc ^= 0x1021;
        }
    }
    return crc;
}

static const struct {
    const char *name;
    unsigned code;
} types[] = {{"DATA", 0x01},         {"ACK", 0x02},        {"PROBE", 0x10},  {"STATUS_READ", 0x11},
             {"STATUS_REPLY", 0x12}, {"NOTIFY", 0x13},     {"ACCEPT", 0x20}, {"BUSY", 0x21},
             {"ERROR", 0x22},        {"FAIL_REPORT", 0x30}};

static int parse_num(const char *s, unsigned long *v)
{
    char *end;
    if (!*s)
        return -1;
    *v = strtoul(s, &end, 0);
    return *end ? -1 : 0;
}

static int parse_type(const char *s, unsigned *code)
{
    for (unsigned i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcasecmp(s, types[i].name)) {
            *code = types[i].code;
            return 0;
        }
    unsigned long v;
    if (parse_num(s, &v) == 0 && v <= 0xFF) {
        *code = (unsigned)v;
        return 0;
    }
    return -1;
}

/* pkt(target=T, cmd=C, src=S, tid=I, data=[a,b,...], mark=0|1) or echo(target=..., type=...,
 * src=..., tid=..., mark=...). Keys in any order; data and mark optional. */
static int parse_macro(const char *text, uint16_t *sym, unsigned *n, char *err, size_t errlen)
{
    int is_echo = strncasecmp(text, "echo(", 5) == 0;
    const char *p = text + (is_echo ? 5 : 4);
    const char *close = strrchr(text, ')');
    if (!close || close[1]) {
        snprintf(err, errlen, "'%s': a macro ends with ')'", text);
        return -1;
    }
    char body[512];
    size_t len = (size_t)(close - p);
    if (len >= sizeof body) {
        snprintf(err, errlen, "'%.40s...': too long", text);
        return -1;
    }
    memcpy(body, p, len);
    body[len] = 0;
    unsigned long target = ~0ul, src = ~0ul, tid = ~0ul, mark = 0;
    unsigned cmd = 0x100, nd = 0;
    uint16_t data[SCI_WORD_MAX_PAYLOAD];
    char *save = NULL;
    /* split on commas outside the data list's brackets */
    for (char *q = body; *q;) {
        while (*q == ' ' || *q == ',')
            q++;
        if (!*q)
            break;
        char *eq = strchr(q, '=');
        if (!eq) {
            snprintf(err, errlen, "'%s': want KEY=VALUE items", text);
            return -1;
        }
        *eq = 0;
        char *key = q, *val = eq + 1, *next;
        if (*val == '[') {
            char *rb = strchr(val, ']');
            if (!rb) {
                snprintf(err, errlen, "'%s': data=[...] is not closed", text);
                return -1;
            }
            *rb = 0;
            next = rb + 1;
            for (char *t = strtok_r(val + 1, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
                unsigned long v;
                if (nd == SCI_WORD_MAX_PAYLOAD || parse_num(t, &v) < 0 || v > 0xFFFF) {
                    snprintf(err, errlen, "'%s': data takes at most %d symbols of 16 bits", text,
                             SCI_WORD_MAX_PAYLOAD);
                    return -1;
                }
                data[nd++] = (uint16_t)v;
            }
        } else {
            next = strchr(val, ',');
            if (next)
                *next++ = 0;
            else
                next = val + strlen(val);
            while (*val == ' ')
                val++;
            for (char *e = val + strlen(val); e > val && e[-1] == ' ';)
                *--e = 0;
        }
        while (*key == ' ')
            key++;
        int bad = 0;
        if (!strcasecmp(key, "target"))
            bad = parse_num(val, &target) < 0 || target > 0xFFFF;
        else if (!strcasecmp(key, "src"))
            bad = parse_num(val, &src) < 0 || src > 0xFFFF;
        else if (!strcasecmp(key, "tid"))
            bad = parse_num(val, &tid) < 0 || tid > 0xFFFF;
        else if (!strcasecmp(key, "mark"))
            bad = parse_num(val, &mark) < 0 || mark > 1;
        else if (!strcasecmp(key, is_echo ? "type" : "cmd"))
            bad = parse_type(val, &cmd) < 0;
        else if (!strcasecmp(key, "data") && !is_echo)
            bad = 0;
        else {
            snprintf(err, errlen, "'%s': unknown key '%s'", text, key);
            return -1;
        }
        if (bad) {
            snprintf(err, errlen, "'%s': bad value for %s", text, key);
            return -1;
        }
        q = next;
    }
    if (target == ~0ul || src == ~0ul || tid == ~0ul || cmd == 0x100) {
        snprintf(err, errlen, "'%s': needs target=, %s=, src= and tid=", text,
                 is_echo ? "type" : "cmd");
        return -1;
    }
    unsigned k = 0;
    sym[k++] = (uint16_t)target;
    sym[k++] = (uint16_t)((cmd << 8) | (mark << 7));
    sym[k++] = (uint16_t)src;
    sym[k++] = (uint16_t)tid;
    for (unsigned i = 0; i < nd; i++)
        sym[k++] = data[i];
    sym[k] = sci_word_crc(sym, k);
    *n = k + 1;
    return 0;
}

int sci_parse_seq(unsigned kind, const char *text, uint64_t *words, unsigned max, char *err,
                  size_t errlen)
{
    if (kind != SCI_KIND_LINK && kind != SCI_KIND_BLINK)
        return 0;
    if (strncasecmp(text, "pkt(", 4) != 0 && strncasecmp(text, "echo(", 5) != 0)
        return 0;
    uint16_t sym[SCI_WORD_MAX_PAYLOAD + 6];
    unsigned n;
    if (parse_macro(text, sym, &n, err, errlen) < 0)
        return -1;
    if (n + 1 > max) {
        snprintf(err, errlen, "'%s': too long", text);
        return -1;
    }
    for (unsigned i = 0; i < n; i++)
        words[i] = SCI_FLAG | sym[i];
    if (kind == SCI_KIND_BLINK) { /* B-link: last on the CRC symbol, no idle */
        words[n - 1] |= SCI_LAST;
        return (int)n;
    }
    words[n] = 0; /* one idle follows every packet on a link */
    return (int)(n + 1);
}

int sci_parse_word(unsigned kind, const char *text, uint64_t *value, uint64_t *care, uint8_t *hint,
                   char *err, size_t errlen)
{
    *hint = 0;
    *care = kind == SCI_KIND_BIT ? 1 : kind == SCI_KIND_BLINK ? 0x3FFFF : 0x1FFFF;
    if (!strcasecmp(text, "X")) {
        *value = 0;
        *care = 0;
        return 0;
    }
    if (kind == SCI_KIND_BIT) {
        if (!strcmp(text, "0") || !strcmp(text, "1")) {
            *value = (uint64_t)(text[0] - '0');
            return 0;
        }
        snprintf(err, errlen, "bad bit '%s' (0, 1 or X)", text);
        return -1;
    }
    if (kind == SCI_KIND_PORT) {
        *care = 7;
        if (text[0] >= '0' && text[0] <= '7' && !text[1]) {
            *value = (uint64_t)(text[0] - '0');
            return 0;
        }
        snprintf(err, errlen, "bad B-link port '%s' (0 host, 1 X, 2 Y, 3 Z, 7 discard, or X)",
                 text);
        return -1;
    }
    unsigned long v;
    if (!strcasecmp(text, "IDLE")) {
        *value = 0;
        return 0;
    }
    if (kind == SCI_KIND_BLINK) {
        if ((!strncasecmp(text, "S:", 2) || !strncasecmp(text, "L:", 2)) &&
            parse_num(text + 2, &v) == 0 && v <= 0xFFFF) {
            *value = SCI_FLAG | v | (toupper((unsigned char)text[0]) == 'L' ? SCI_LAST : 0);
            return 0;
        }
        snprintf(err, errlen,
                 "bad B-link word '%s' (IDLE, S:0xhhhh (a symbol), L:0xhhhh (the last, CRC, "
                 "symbol), X or pkt(...))",
                 text);
        return -1;
    }
    if (!strncasecmp(text, "RDOWN:", 6) && parse_num(text + 6, &v) == 0 && v <= 0x1FFF) {
        *value = 0x8000u | v; /* ring-down idle: flag 0 */
        return 0;
    }
    if (!strncasecmp(text, "S:", 2) && parse_num(text + 2, &v) == 0 && v <= 0xFFFF) {
        *value = SCI_FLAG | v;
        return 0;
    }
    if (!strncasecmp(text, "W:", 2) && parse_num(text + 2, &v) == 0 && v <= 0x1FFFF) {
        *value = v;
        return 0;
    }
    snprintf(err, errlen,
             "bad link word '%s' (IDLE, RDOWN:id, S:0xhhhh (a packet symbol), W:0xhhhhh (raw "
             "{flag,sym}), X, pkt(...) or echo(...))",
             text);
    return -1;
}

void sci_format_word(unsigned kind, uint64_t value, uint8_t hint, char *buf, size_t len)
{
    (void)hint;
    if (kind == SCI_KIND_BIT || kind == SCI_KIND_PORT) {
        snprintf(buf, len, "%u", (unsigned)(value & (kind == SCI_KIND_BIT ? 1u : 7u)));
        return;
    }
    if (kind == SCI_KIND_BLINK) {
        if (!(value & SCI_FLAG))
            snprintf(buf, len, value ? "W:0x%05X" : "IDLE", (unsigned)value);
        else
            snprintf(buf, len, "%c:0x%04X", (value & SCI_LAST) ? 'L' : 'S',
                     (unsigned)(value & 0xFFFFu));
        return;
    }
    if (value & SCI_FLAG)
        snprintf(buf, len, "S:0x%04X", (unsigned)(value & 0xFFFFu));
    else if (value == 0)
        snprintf(buf, len, "IDLE");
    else if ((value & 0xE000u) == 0x8000u)
        snprintf(buf, len, "RDOWN:0x%X", (unsigned)(value & 0x1FFFu));
    else
        snprintf(buf, len, "W:0x%05X", (unsigned)(value & 0x1FFFFu));
}

/* The same words in Verilog: one function, as sci_format_word, over the testbench's helpers
 * ft_hex (upper-case hex, at least N digits) and ft_dec (harness/core/tb.h). */
void sci_words_sv(FILE *f)
{
    fprintf(f,
            "  function automatic string ft_word(input int kind, input int hint, input logic "
            "[63:0] w);\n"
            "    if (kind == %d) return ft_dec(w[0:0]);\n"
            "    if (kind == %d) return ft_dec(w[2:0]);\n"
            "    if (kind == %d) begin\n"
            "      if (w[16] === 1'b1 && w[17] === 1'b1) return {\"L:0x\", ft_hex(w[15:0], 4)};\n"
            "      if (w[16] === 1'b1) return {\"S:0x\", ft_hex(w[15:0], 4)};\n"
            "      if (w == 64'd0) return \"IDLE\";\n"
            "      return {\"W:0x\", ft_hex(w[31:0], 5)};\n"
            "    end\n"
            "    if (w[16] === 1'b1) return {\"S:0x\", ft_hex(w[15:0], 4)};\n"
            "    if (w == 64'd0) return \"IDLE\";\n"
            "    if (w[15:13] == 3'b100) return {\"RDOWN:0x\", ft_hex(w[12:0], 1)};\n"
            "    return {\"W:0x\", ft_hex(w[16:0], 5)};\n"
            "  endfunction\n",
            SCI_KIND_BIT, SCI_KIND_PORT, SCI_KIND_BLINK);
}
