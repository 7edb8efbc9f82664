/* rnp_word.c — parse and print RNP words (vectors/README.md, "RN1"). */
#include "rnp_word.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int hexval(const char *s, unsigned maxdigits, unsigned *v)
{
    unsigned n = 0, acc = 0;
    for (; *s; s++, n++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (n >= maxdigits)
            return -1;
        acc = acc * 16u + d;
    }
    if (n == 0)
        return -1;
    *v = acc;
    return 0;
}

static const struct {
    const char *name;
    uint16_t word;
} ctl_names[] = {{"IDLE", RNP_IDLE}, {"TURN", RNP_TURN}, {"HOLD", RNP_HOLD}, {"DROP", RNP_DROP}};

static const char *const c1_names[] = {"ROUTE", "DATA", "STATUS", "CHECKSUM"};

int rnp_parse_word(unsigned kind, const char *text, uint64_t *value, uint64_t *care, uint8_t *hint,
                   char *err, size_t errlen)
{
    *hint = 0;
    if (strcasecmp(text, "X") == 0) {
        *value = 0;
        *care = 0;
        return 0;
    }
    if (kind == RNP_KIND_BIT) {
        if (strcmp(text, "0") == 0 || strcmp(text, "1") == 0) {
            *value = (uint64_t)(text[0] - '0');
            *care = 1;
            return 0;
        }
        snprintf(err, errlen, "bad bit '%s' (a backward-channel port takes 0, 1 or X)", text);
        return -1;
    }
    *care = 0x1FF;
    for (unsigned i = 0; i < sizeof ctl_names / sizeof ctl_names[0]; i++)
        if (strcasecmp(text, ctl_names[i].name) == 0) {
            *value = ctl_names[i].word;
            return 0;
        }
    const char *colon = strchr(text, ':');
    if (colon) {
        size_t n = (size_t)(colon - text);
        unsigned v;
        for (unsigned i = 0; i < 4; i++)
            if (strlen(c1_names[i]) == n && strncasecmp(text, c1_names[i], n) == 0) {
                if (hexval(colon + 1, 2, &v) < 0) {
                    snprintf(err, errlen, "bad byte in '%s' (want %s:hh, 1-2 hex digits, no 0x)",
                             text, c1_names[i]);
                    return -1;
                }
                *value = RNP_C | v;
                *hint = (uint8_t)(i + 1);
                return 0;
            }
        if (n == 1 && (text[0] == 'W' || text[0] == 'w')) {
            if (hexval(colon + 1, 3, &v) < 0 || v > 0x1FF) {
                snprintf(err, errlen, "bad raw word '%s' (want W:hhh, at most 1FF, c in bit 8)",
                         text);
                return -1;
            }
            *value = v;
            return 0;
        }
    }
    snprintf(err, errlen,
             "bad word '%s' (IDLE, TURN, HOLD, DROP, ROUTE:hh, DATA:hh, STATUS:hh, CHECKSUM:hh, "
             "W:hhh or X)",
             text);
    return -1;
}

void rnp_format_word(unsigned kind, uint64_t value, uint8_t hint, char *buf, size_t len)
{
    if (kind == RNP_KIND_BIT) {
        snprintf(buf, len, "%u", (unsigned)(value & 1u));
        return;
    }
    uint16_t w = (uint16_t)(value & 0x1FF);
    if (w & RNP_C) {
        snprintf(buf, len, "%s:%02X", hint >= 1 && hint <= 4 ? c1_names[hint - 1] : "DATA",
                 w & 0xFFu);
        return;
    }
    for (unsigned i = 0; i < sizeof ctl_names / sizeof ctl_names[0]; i++)
        if (w == ctl_names[i].word) {
            snprintf(buf, len, "%s", ctl_names[i].name);
            return;
        }
    snprintf(buf, len, "W:%03X", w);
}

/* The same words in Verilog: one function, as rnp_format_word, over the testbench's helpers
 * ft_hex (upper-case hex, at least N digits) and ft_dec (harness/core/tb.h). */
void rnp_words_sv(FILE *f)
{
    fprintf(f,
            "  function automatic string ft_word(input int kind, input int hint, input logic "
            "[63:0] w);\n"
            "    if (kind == %d) return ft_dec(w[0:0]);\n"
            "    if (w[8] === 1'b1) begin\n"
            "      case (hint)\n",
            RNP_KIND_BIT);
    for (unsigned i = 0; i < 4; i++)
        fprintf(f, "        %u: return {\"%s:\", ft_hex(w[7:0], 2)};\n", i + 1, c1_names[i]);
    fprintf(f, "        default: return {\"DATA:\", ft_hex(w[7:0], 2)};\n"
               "      endcase\n"
               "    end\n"
               "    case (w[8:0])\n");
    for (unsigned i = 0; i < sizeof ctl_names / sizeof ctl_names[0]; i++)
        fprintf(f, "      9'h%03X: return \"%s\";\n", ctl_names[i].word, ctl_names[i].name);
    fprintf(f, "      default: return {\"W:\", ft_hex(w[8:0], 3)};\n"
               "    endcase\n"
               "  endfunction\n");
}
