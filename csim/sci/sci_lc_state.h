/*
 * sci_lc_state.h - what the parts of the SCI link controller's C model share (private to
 * sci_lc.c, sci_lc_upset.c and sci_packet.c): the flag bit of a pipe stage, the answer codes,
 * the running CRC, and the pool-mask helpers.
 */
#ifndef SCI_LC_STATE_H
#define SCI_LC_STATE_H

#include "sci_lc.h"

#define SCI_FLAG (1u << 16)

/* The answer owed at the end of the packet in stage 3. */
enum { ANS_NONE = 0, ANS_ACCEPT, ANS_BUSY, ANS_ERROR };

/* CRC-16/CCITT over one byte: sci_crc_tab[b] is the remainder of b << 8 after its 8 shifts
 * (sci_packet.c). */
extern const uint16_t sci_crc_tab[256];

/* One symbol into the running CRC (inlined where the controller runs it every cycle). */
static inline uint16_t crc_update(uint16_t crc, unsigned pos, uint16_t sym)
{
    if (pos == 0)
        sym &= (uint16_t)~SCI_ADDR_SEL;
    else if (pos == 1)
        sym &= (uint16_t)~SCI_MARK;
    /* a 16-bit word is its two bytes, high first */
    crc = (uint16_t)((unsigned)crc << 8 ^ sci_crc_tab[(crc >> 8) ^ (sym >> 8)]);
    return (uint16_t)((unsigned)crc << 8 ^ sci_crc_tab[(crc >> 8) ^ (sym & 0xFFu)]);
}

/* The lowest slot of a pool mask, -1 if it is empty. */
static inline int lowest(unsigned m)
{
#if defined(__GNUC__)
    return m ? __builtin_ctz(m) : -1;
#else
    for (int i = 0; m; i++, m >>= 1)
        if (m & 1u)
            return i;
    return -1;
#endif
}

static inline unsigned bit(int slot) { return slot >= 0 ? 1u << slot : 0u; }

/* The slots that are not free. */
static inline unsigned used(const sci_lc_state_t *s)
{
    return s->m_fill | s->m_queued | s->m_active;
}

/* Slot i (< 12) into one state: free (0), filling (1), queued (2), active (3), the RTL's codes. */
static inline void slot_state(sci_lc_state_t *n, int i, unsigned st)
{
    uint16_t b = (uint16_t)bit(i);
    n->m_fill = (uint16_t)((n->m_fill & ~b) | (st == 1u ? b : 0u));
    n->m_queued = (uint16_t)((n->m_queued & ~b) | (st == 2u ? b : 0u));
    n->m_active = (uint16_t)((n->m_active & ~b) | (st == 3u ? b : 0u));
}

#endif /* SCI_LC_STATE_H */
