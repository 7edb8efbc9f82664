/* rnp_word.h — RNP words as the vector language writes them (vectors/README.md; rn1.md s.2). */
#ifndef FTSIM_RNP_WORD_H
#define FTSIM_RNP_WORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RNP_C    0x100u /* the control bit, bit 8 of a 9-bit word */
#define RNP_IDLE 0x000u
#define RNP_TURN 0x055u
#define RNP_HOLD 0x0AAu
#define RNP_DROP 0x0FFu

/* Word kinds a design may give its ports. */
enum { RNP_KIND_WORD = 0, RNP_KIND_BIT = 1 };

static inline int rnp_is_invalid(uint16_t w)
{
    return !(w & RNP_C) && w != RNP_IDLE && w != RNP_TURN && w != RNP_HOLD && w != RNP_DROP;
}

/* Parse a word of `kind`. X (any word) gives care = 0. */
int rnp_parse_word(unsigned kind, const char *text, uint64_t *value, uint64_t *care, uint8_t *hint,
                   char *err, size_t errlen);
/* IDLE/TURN/HOLD/DROP by name, invalid control words as W:0hh, c=1 words as DATA:hh or,
 * with hint 1..4, as ROUTE/DATA/STATUS/CHECKSUM (the name the vector used). */
void rnp_format_word(unsigned kind, uint64_t value, uint8_t hint, char *buf, size_t len);
/* rnp_format_word in Verilog, for an exported testbench (dev_rtl_t.words_sv). */
void rnp_words_sv(FILE *f);

#endif
