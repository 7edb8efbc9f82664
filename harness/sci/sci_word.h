/* sci_word.h — SCI-lite link words and packet macros in the vector language
 * (rtl/sci_lc.md). A link word is {flag, sym[15:0]}: bit 16 the flag. */
#ifndef FTSIM_SCI_WORD_H
#define FTSIM_SCI_WORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCI_FLAG             0x10000u
#define SCI_LAST             0x20000u /* B-link words {last, valid, sym}: bit 17 marks the CRC symbol */
#define SCI_WORD_MAX_PAYLOAD 32

/* LINK: a ring link word {flag, sym}; BLINK: a B-link or host-port word {last, valid, sym}. */
enum { SCI_KIND_LINK = 0, SCI_KIND_BIT = 1, SCI_KIND_PORT = 2, SCI_KIND_BLINK = 3 };

/* CRC-16/CCITT (0x1021, init 0xFFFF) over n symbols, mark and targetId bit 14 taken as 0. */
uint16_t sci_word_crc(const uint16_t *sym, unsigned n);

int sci_parse_word(unsigned kind, const char *text, uint64_t *value, uint64_t *care, uint8_t *hint,
                   char *err, size_t errlen);
void sci_format_word(unsigned kind, uint64_t value, uint8_t hint, char *buf, size_t len);
/* sci_format_word in Verilog, for an exported testbench (dev_rtl_t.words_sv). */
void sci_words_sv(FILE *f);
/* pkt(...) / echo(...): the words of one cycle after another: on a link the packet, its CRC
 * and one idle; on a B-link port the packet with last on its CRC symbol, no idle.
 * Returns the count, 0 when text is not a macro, -1 on error. */
int sci_parse_seq(unsigned kind, const char *text, uint64_t *words, unsigned max, char *err,
                  size_t errlen);

#endif
