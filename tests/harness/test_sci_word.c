/* test_sci_word.c — the vector language's SCI packet macro and its CRC (harness/sci/sci_word.c),
 * checked against an independent byte-wise CRC-16/CCITT-FALSE whose own check value is the
 * published one (0x29B1 for "123456789"). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sci_word.h"

static unsigned crc_bytes(const unsigned char *p, size_t n)
{
    unsigned crc = 0xFFFF;
    for (size_t i = 0; i < n; i++) {
        crc ^= (unsigned)p[i] << 8;
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x8000) ? ((crc << 1) ^ 0x1021) & 0xFFFF : (crc << 1) & 0xFFFF;
    }
    return crc;
}

int main(void)
{
    CHECK(crc_bytes((const unsigned char *)"123456789", 9) == 0x29B1, "reference check value");
    /* symbols are big-endian byte pairs */
    const unsigned char b[8] = {'1', '2', '3', '4', '5', '6', '7', '8'};
    uint16_t s[4] = {0x3132, 0x3334, 0x3536, 0x3738};
    /* symbol 0 bit 14 and symbol 1 bit 7 are masked: choose symbols with them clear */
    CHECK(sci_word_crc(s, 4) == crc_bytes(b, 8), "crc %04x vs %04x", sci_word_crc(s, 4),
          crc_bytes(b, 8));
    uint16_t t[4] = {0x7132, 0x33B4, 0x3536, 0x3738}; /* bit 14 and the mark set: same CRC */
    CHECK(sci_word_crc(t, 4) == crc_bytes(b, 8), "masked bits still count");

    uint64_t w[64];
    char err[256];
    int n =
        sci_parse_seq(SCI_KIND_LINK, "pkt(target=0x12, cmd=DATA, src=0x01, tid=7, data=[0xAAAA,2])",
                      w, 64, err, sizeof err);
    CHECK(n == 8, "pkt: %d words (%s)", n, n < 0 ? err : "");
    unsigned char pb[12] = {0x00, 0x12, 0x01, 0x00, 0x00, 0x01, 0x00, 0x07, 0xAA, 0xAA, 0x00, 0x02};
    CHECK(n == 8 && w[0] == (SCI_FLAG | 0x12) && w[1] == (SCI_FLAG | 0x0100) &&
              w[3] == (SCI_FLAG | 7),
          "pkt header");
    CHECK(n == 8 && w[6] == (SCI_FLAG | crc_bytes(pb, 12)) && w[7] == 0, "pkt CRC and idle");
    n = sci_parse_seq(SCI_KIND_LINK, "echo(target=1, type=BUSY, src=0x12, tid=7, mark=1)", w, 64,
                      err, sizeof err);
    CHECK(n == 6 && w[1] == (SCI_FLAG | 0x2180), "echo header %d", n);
    CHECK(sci_parse_seq(SCI_KIND_LINK, "pkt(target=1, cmd=DATA)", w, 64, err, sizeof err) < 0,
          "missing keys refused");
    CHECK(sci_parse_seq(SCI_KIND_LINK, "S:0x12", w, 64, err, sizeof err) == 0, "not a macro");
    return check_done();
}
