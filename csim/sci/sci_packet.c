/*
 * sci_packet.c - SCI packets: the CRC-16 of a packet's symbols and a packet built from its
 * fields (sci_lc.h; the CRC as rtl/sci_crc16.v computes it).
 */
#include "sci_lc_state.h"


uint16_t sci_crc16(const uint16_t *sym, unsigned n)
{
    uint16_t crc = 0xFFFFu;
    for (unsigned i = 0; i < n; i++)
        crc = crc_update(crc, i, sym[i]);
    return crc;
}

unsigned sci_packet_build(uint16_t *out, uint16_t target, uint8_t type, uint16_t source,
                          uint16_t tid, const uint16_t *payload, unsigned npay)
{
    if (npay > SCI_MAX_PAYLOAD)
        return 0;
    out[0] = target;
    out[1] = (uint16_t)(type << 8);
    out[2] = source;
    out[3] = tid;
    for (unsigned i = 0; i < npay; i++)
        out[SCI_HDR_SYMS + i] = payload[i];
    unsigned n = SCI_HDR_SYMS + npay;
    out[n] = sci_crc16(out, n);
    return n + 1u;
}
