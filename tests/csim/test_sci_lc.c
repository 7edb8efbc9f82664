/*
 * test_sci_lc.c - unit tests of the SCI link controller C model (csim/sci/sci_lc.c).
 *
 * TEST RATIONALE: each test is named after the clause it checks, of
 * harness/sci/README.md ("sci/README.md" below) or of rtl/sci_lc.md.
 * Packets are built here with a bit-serial CRC written separately
 * from the model's (ref_crc), and expected cycles are worked out by hand from
 * the timing of sci_lc.md section 3 and the model's decisions (sci_lc.c,
 * D1..D15): a symbol on the link input pins in cycle t is in input pipe
 * stage k in t+1+k, a packet is decided when its symbol 0 is in stage 3
 * (t+4), a bypassed symbol is on the link output in t+5 when the output is
 * free (else it waits in the bypass FIFO), and a packet's end (CRC check,
 * echo queued, receive queue commit) is the cycle its CRC symbol is in
 * stage 3.  (The expectations were first written for a model with one more
 * register, bypass in t+6; lockstep with the RTL settled t+5 as section 3
 * says, so those cycles moved one earlier; the comments say where.)
 *
 * Convention: at "cycle t" the outputs are logged first (they are registers),
 * then the inputs of cycle t are applied and the model steps.  Link input
 * comes from a queue of words (one per cycle, idle when empty); B-link input
 * from a queue of symbols; the B-link output is logged when accepted.
 *
 * Prints one line per failing check and ends with "N passed, N failed";
 * exit status 0 only if none failed.
 */
#include "sci_lc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define F   0x10000u /* flag bit in a logged / queued link word */
#define LOG 1024

typedef struct tally {
    unsigned passed, failed;
} tally_t;

typedef struct bench {
    sci_lc_t lc;
    sci_lc_ram_t ram;
    sci_lc_in_t in;
    long cycle;
    tally_t *t;
    bool sd;            /* link sd driven */
    uint32_t lin[LOG];  /* link input words by cycle (0 = idle) */
    uint32_t lout[LOG]; /* link output by cycle */
    uint16_t bin[LOG];  /* B-link input symbols */
    bool bin_last[LOG];
    unsigned bin_n, bin_pos;
    bool bout_ready;
    uint16_t bout[LOG]; /* accepted B-link output symbols */
    long bout_cyc[LOG];
    unsigned bout_n;
} bench_t;

static void check(bench_t *b, int line, const char *what, uint64_t got, uint64_t exp)
{
    if (got == exp) {
        b->t->passed++;
        return;
    }
    b->t->failed++;
    printf("test_sci_lc.c:%d: cycle %ld: %s = 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", line,
           b->cycle, what, got, exp);
}
#define CHECK(b, what, got, exp) check((b), __LINE__, (what), (got), (exp))

/* ---- independent CRC reference: bit-serial over bytes ------------------ */

static uint16_t ref_crc_bytes(const uint8_t *p, unsigned n)
{
    uint16_t crc = 0xFFFF;
    for (unsigned i = 0; i < n; i++)
        for (int k = 7; k >= 0; k--) {
            unsigned fb = ((crc >> 15) ^ (p[i] >> k)) & 1u;
            crc = (uint16_t)(crc << 1);
            if (fb)
                crc ^= 0x1021;
        }
    return crc;
}

/* Symbols -> bytes big-endian (high byte first), masking targetId bit 14
 * and command bit 7, then the byte reference. */
static uint16_t ref_crc_syms(const uint16_t *s, unsigned n)
{
    uint8_t by[2 * SCI_MAX_PKT];
    for (unsigned i = 0; i < n; i++) {
        uint16_t v = s[i];
        if (i == 0)
            v &= 0xBFFF;
        if (i == 1)
            v &= 0xFF7F;
        by[2 * i] = (uint8_t)(v >> 8);
        by[2 * i + 1] = (uint8_t)v;
    }
    return ref_crc_bytes(by, 2 * n);
}

/* A packet built here: header, payload, reference CRC. */
static unsigned mkpkt(uint16_t *p, uint16_t tgt, uint16_t cmd, uint16_t src, uint16_t tid,
                      const uint16_t *pay, unsigned npay)
{
    p[0] = tgt;
    p[1] = cmd;
    p[2] = src;
    p[3] = tid;
    for (unsigned i = 0; i < npay; i++)
        p[4 + i] = pay[i];
    p[4 + npay] = ref_crc_syms(p, 4 + npay);
    return 5 + npay;
}

/* ---- bench ------------------------------------------------------------- */

static void bench_step(bench_t *b)
{
    sci_lc_t *lc = &b->lc;
    if (b->cycle < LOG)
        b->lout[b->cycle] = (sci_lc_link_flag(lc) ? F : 0u) | sci_lc_link_sym(lc);
    uint32_t w = b->cycle < LOG ? b->lin[b->cycle] : 0;
    b->in.link_flag = (w & F) != 0;
    b->in.link_sym = b->sd ? (uint16_t)w : 0;
    b->in.link_flag = b->sd && b->in.link_flag;
    b->in.link_sd = b->sd;
    bool bvalid = b->bin_pos < b->bin_n;
    b->in.bin_valid = bvalid;
    b->in.bin_sym = bvalid ? b->bin[b->bin_pos] : 0;
    b->in.bin_last = bvalid && b->bin_last[b->bin_pos];
    if (bvalid && sci_lc_bin_ready(lc))
        b->bin_pos++;
    b->in.bout_ready = b->bout_ready;
    if (b->bout_ready && sci_lc_bout_valid(lc) && b->bout_n < LOG) {
        b->bout_cyc[b->bout_n] = b->cycle;
        b->bout[b->bout_n++] = sci_lc_bout_sym(lc);
    }
    sci_lc_step(lc, &b->in);
    b->in.reg_we = false;
    b->cycle++;
}

static void run_to(bench_t *b, long cyc)
{
    while (b->cycle < cyc)
        bench_step(b);
}

static void reg_write(bench_t *b, uint8_t addr, uint64_t v)
{
    b->in.reg_we = true;
    b->in.reg_waddr = addr;
    b->in.reg_wdata = v;
    b->in.reg_wstrb = 0xFF;
    bench_step(b);
}

static void set_table(bench_t *b, uint16_t idx, unsigned take, unsigned port)
{
    reg_write(b, SCI_REG_TADDR, idx);
    reg_write(b, SCI_REG_LRT, take);
    reg_write(b, SCI_REG_BRT, port);
}

static uint64_t ctrl(uint16_t id, bool en, bool scrub, unsigned busy_lim, unsigned retry_lim,
                     unsigned timeout)
{
    return (uint64_t)id | (uint64_t)en << 16 | (uint64_t)scrub << 17 | (uint64_t)1 << 18 |
           (uint64_t)busy_lim << 24 | (uint64_t)retry_lim << 32 | (uint64_t)timeout << 48;
}

/* Reset, configure, and run with sd = 1 until the ring is up (cycle 100). */
static void bench_init(bench_t *b, tally_t *t, sci_variant_t v, uint64_t ctl)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    b->sd = true;
    b->bout_ready = true;
    sci_lc_init(&b->lc, &b->ram, v);
    b->in.rst_n = true;
    reg_write(b, SCI_REG_CTRL, ctl);
    run_to(b, 100);
    CHECK(b, "ring up after 64 clean cycles", sci_lc_reg_read(&b->lc, SCI_REG_STATUS) & 1u, 1);
}

static void put_link(bench_t *b, long at, const uint16_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b->lin[at + i] = F | p[i];
}

static void put_blink(bench_t *b, const uint16_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        b->bin[b->bin_n] = p[i];
        b->bin_last[b->bin_n++] = i + 1 == n;
    }
}

/* The link output from cycle at carries packet p then one idle. */
static void expect_link(bench_t *b, int line, long at, const uint16_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        check(b, line, "link out", b->lout[at + i], F | p[i]);
    check(b, line, "link out idle after packet", b->lout[at + n], 0);
}

static void expect_idle(bench_t *b, int line, long from, long to)
{
    for (long c = from; c < to; c++)
        if (b->lout[c] != 0) {
            check(b, line, "link out idle", b->lout[c], 0);
            return;
        }
    b->t->passed++;
}

static uint16_t counts(bench_t *b, unsigned field)
{
    return (uint16_t)(sci_lc_reg_read(&b->lc, SCI_REG_COUNTS) >> (16 * field));
}

/* ---- tests --------------------------------------------------------------- */

/* sci/README.md 1 / sci_lc.md 2: CRC-16/CCITT, init 0xFFFF, big-endian words,
 * mark and targetId bit 14 taken as 0. */
static void test_crc16_ccitt(tally_t *t)
{
    bench_t *b = &(bench_t){.t = t};
    /* The reference itself: CRC-16/CCITT-FALSE check value. */
    CHECK(b, "ref crc(\"123456789\")", ref_crc_bytes((const uint8_t *)"123456789", 9), 0x29B1);
    /* Symbol convention: symbol = (byte 2i << 8) | byte 2i+1. "12345678". */
    const uint16_t s8[4] = {0x3132, 0x3334, 0x3536, 0x3738};
    CHECK(b, "crc of \"12345678\" as 4 symbols", sci_crc16(s8, 4),
          ref_crc_bytes((const uint8_t *)"12345678", 8));
    /* "123456789" padded with a 0x00 byte = 5 symbols. */
    const uint16_t s9[5] = {0x3132, 0x3334, 0x3536, 0x3738, 0x3900};
    const uint8_t b10[10] = {'1', '2', '3', '4', '5', '6', '7', '8', '9', 0};
    CHECK(b, "crc of \"123456789\\0\"", sci_crc16(s9, 5), ref_crc_bytes(b10, 10));
    /* Masks: bit 14 of symbol 0 and bit 7 of symbol 1 do not count;
     * the same bits in other positions do. */
    uint16_t a[4] = {0x0005, 0x0100, 0x0003, 0x0007};
    uint16_t m[4] = {0x4005, 0x0180, 0x0003, 0x0007};
    uint16_t o[4] = {0x0005, 0x0100, 0x4003, 0x0087};
    CHECK(b, "crc masks bit 14 and mark", sci_crc16(m, 4), sci_crc16(a, 4));
    CHECK(b, "crc vs reference", sci_crc16(a, 4), ref_crc_syms(a, 4));
    CHECK(b, "other bits count", sci_crc16(o, 4) != sci_crc16(a, 4), 1);
    /* Residue: CRC over a packet including its CRC is 0. */
    uint16_t p[SCI_MAX_PKT], q[SCI_MAX_PKT];
    const uint16_t pay[2] = {0x1234, 0xBEEF};
    unsigned n = sci_packet_build(p, 0x4005, SCI_T_DATA, 3, 7, pay, 2);
    unsigned nq = mkpkt(q, 0x4005, 0x0100, 3, 7, pay, 2);
    CHECK(b, "packet_build length", n, nq);
    for (unsigned i = 0; i < nq; i++)
        CHECK(b, "packet_build symbol", p[i], q[i]);
    CHECK(b, "crc residue of a whole packet", sci_crc16(p, n), 0);
    CHECK(b, "packet_build rejects 33 payload", sci_packet_build(p, 0, 1, 0, 0, q, 33), 0);
}

/* sci_lc.md 3 "Bypass": symbol on the pins at t leaves at t+5 (was t+6 before lockstep). */
static void test_bypass_latency(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    uint16_t p[SCI_MAX_PKT];
    const uint16_t pay[1] = {0xAAAA};
    unsigned n = mkpkt(p, 9, 0x0100, 3, 7, pay, 1);
    put_link(&b, 200, p, n);
    run_to(&b, 200);
    CHECK(&b, "dbg parser idle", sci_lc_debug(&b.lc) & 0xF, SCI_P_IDLE);
    run_to(&b, 205);
    CHECK(&b, "dbg parser bypass at decision", sci_lc_debug(&b.lc) & 0xF, SCI_P_BYPASS);
    /* With the output free a bypassed symbol goes from stage 3 straight to the
     * output register: the FIFO stays empty (it held one symbol in steady flow
     * in the old model, whose FIFO was a stage of the path). */
    CHECK(&b, "dbg bypass FIFO level (steady flow)", sci_lc_debug(&b.lc) >> 4 & 0x3F, 0);
    run_to(&b, 211);
    /* Idles are never stored in the FIFO (D2): still empty after the packet. */
    CHECK(&b, "dbg FIFO empty after the packet", sci_lc_debug(&b.lc) >> 4 & 0x3F, 0);
    run_to(&b, 240);
    expect_idle(&b, __LINE__, 100, 205);
    expect_link(&b, __LINE__, 205, p, n); /* pins 200 + 5 */
    expect_idle(&b, __LINE__, 205 + n, 240);
    CHECK(&b, "nothing taken", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 12 & 0xF, 0);
}

/* sci_lc.md 3 "Take": receive queue, ECHO_ACCEPT when the CRC is in. */
static void test_take_and_echo_accept(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&b, 5, 1, 0);
    uint16_t p[SCI_MAX_PKT], e[SCI_MAX_PKT];
    const uint16_t pay[1] = {0x0042};
    unsigned n = mkpkt(p, 5, 0x0100, 3, 7, pay, 1); /* 6 symbols, pins 200..205 */
    unsigned ne = mkpkt(e, 3, 0x2000, 5, 7, NULL, 0);
    b.bout_ready = false;
    put_link(&b, 200, p, n);
    run_to(&b, 205);
    CHECK(&b, "dbg parser take", sci_lc_debug(&b.lc) & 0xF, SCI_P_TAKE);
    run_to(&b, 210);
    /* The CRC (pins 205) is in stage 3 in 209: committed, visible in 210. */
    CHECK(&b, "rx queue 1 in 210", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 12 & 0xF, 1);
    CHECK(&b, "B-link out valid", sci_lc_bout_valid(&b.lc), 1);
    CHECK(&b, "B-link out port (BRT 0 host)", sci_lc_bout_port(&b.lc), 0);
    run_to(&b, 211);
    b.bout_ready = true;
    run_to(&b, 240);
    /* Echo queued at the end of 209 (CRC in stage 3), inserted from 211 (the
     * output idle in 210); one cycle earlier than the old model, which ended
     * a packet at the idle after it. */
    expect_idle(&b, __LINE__, 100, 211);
    expect_link(&b, __LINE__, 211, e, ne);
    expect_idle(&b, __LINE__, 211 + ne, 240);
    CHECK(&b, "B-link out count", b.bout_n, n);
    for (unsigned i = 0; i < n && i < b.bout_n; i++)
        CHECK(&b, "B-link out symbol", b.bout[i], p[i]);
    CHECK(&b, "B-link out starts in 211", b.bout_cyc[0], 211);
    CHECK(&b, "rx queue drained", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 12 & 0xF, 0);
}

/* sci/README.md 2 "Queues" / sci_lc.md 3: no free slot -> discarded, ECHO_BUSY. */
static void test_rx_full_busy_echo(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&b, 5, 1, 0);
    b.bout_ready = false;
    uint16_t p[SCI_MAX_PKT], e[SCI_MAX_PKT];
    unsigned n = 0;
    /* 9 packets, 5 symbols each, every 7 cycles from 200; tid = k. */
    for (unsigned k = 0; k < 9; k++) {
        n = mkpkt(p, 5, 0x0100, 3, (uint16_t)k, NULL, 0);
        put_link(&b, 200 + 7 * k, p, n);
    }
    run_to(&b, 300);
    CHECK(&b, "rx queue full", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 12 & 0xF, 8);
    CHECK(&b, "busy echoes counted", counts(&b, 2), 1);
    /* Packet k: pins 200+7k..+4, its CRC in stage 3 at +8 (echo queued),
     * echo on the output from +10 (was +11: the old model ended a packet at
     * the idle after it, a cycle later). */
    for (unsigned k = 0; k < 9; k++) {
        unsigned ne = mkpkt(e, 3, k < 8 ? 0x2000 : 0x2100, 5, (uint16_t)k, NULL, 0);
        expect_link(&b, __LINE__, 200 + 7 * k + 10, e, ne);
    }
    b.bout_ready = true;
    run_to(&b, 400);
    CHECK(&b, "8 packets delivered", b.bout_n, 8u * n);
    CHECK(&b, "the 9th was not (tid of last delivered)", b.bout[8 * n - 2], 7);
}

/* sci/README.md 1 / sci_lc.md 3: bad CRC -> discarded, counted, not echoed; the
 * reserved slot is released. */
static void test_crc_error_discard(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&b, 5, 1, 0);
    uint16_t p[SCI_MAX_PKT];
    unsigned n = mkpkt(p, 5, 0x0100, 3, 7, NULL, 0);
    p[n - 1] ^= 0x0001;
    put_link(&b, 200, p, n);
    run_to(&b, 260);
    CHECK(&b, "crc errors", counts(&b, 0), 1);
    CHECK(&b, "rx queue empty", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 12 & 0xF, 0);
    CHECK(&b, "nothing to the B-link", b.bout_n, 0);
    expect_idle(&b, __LINE__, 100, 260);
    CHECK(&b, "dbg crc reset", sci_lc_debug(&b.lc) >> 32 & 0xFFFF, 0xFFFF);
    /* A bad CRC on a packet that found the queue full: no busy echo either. */
    CHECK(&b, "no busy echo", counts(&b, 2), 0);
}

/* sci/README.md 2 / sci_lc.md 3 "Output": bypass first; insert only when the FIFO is
 * empty and the last symbol sent was idle; one idle after; an insertion
 * that has started finishes while the FIFO absorbs. */
static void test_bypass_priority_insertion(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    uint16_t a[SCI_MAX_PKT], c[SCI_MAX_PKT], s[SCI_MAX_PKT];
    unsigned na = mkpkt(a, 9, 0x0100, 3, 1, NULL, 0);
    unsigned nc = mkpkt(c, 9, 0x0100, 3, 2, NULL, 0);
    unsigned ns = mkpkt(s, 9, 0x0100, 5, 1, NULL, 0);
    /* Case 1: A pins 200..204, C 206..210: bypassed at 205 and 211 (t+5).  S on
     * the B-link from 201 (in the send queue from 206) waits: in 210 C's symbol
     * 0 leaves stage 3 (no insertion starts while a symbol is bypassed), then
     * C and its idle (216): inserted 217. */
    put_link(&b, 200, a, na);
    put_link(&b, 206, c, nc);
    run_to(&b, 201);
    put_blink(&b, s, ns);
    run_to(&b, 260);
    expect_link(&b, __LINE__, 205, a, na);
    expect_link(&b, __LINE__, 211, c, nc);
    expect_link(&b, __LINE__, 217, s, ns);
    expect_idle(&b, __LINE__, 223, 260);
    CHECK(&b, "active buffer in use", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 4 & 0xF, 1);
    /* Case 2: S2 in the send queue (B-link 300..304, queued in 305) is
     * inserted from 306 (output idle in 305); A pins 302..306 (was 301: with
     * the bypass a cycle shorter, A's symbol 0 in stage 3 in 305 would have
     * gone first) would leave at 307 but waits in the FIFO (all 5 symbols in
     * it in 311): 306..310 S2, 311 idle, 312..316 A, 317 idle. */
    uint16_t s2[SCI_MAX_PKT];
    unsigned ns2 = mkpkt(s2, 9, 0x0100, 5, 2, NULL, 0);
    put_link(&b, 302, a, na);
    run_to(&b, 300);
    put_blink(&b, s2, ns2);
    run_to(&b, 311);
    CHECK(&b, "bypass FIFO absorbs", sci_lc_debug(&b.lc) >> 4 & 0x3F, 5);
    run_to(&b, 340);
    expect_link(&b, __LINE__, 306, s2, ns2);
    expect_link(&b, __LINE__, 312, a, na);
    expect_idle(&b, __LINE__, 318, 340);
}

/* sci_lc.md 3 "Active buffers": ECHO_BUSY -> retransmit, busy_limit -> FAIL_REPORT 1. */
static void test_busy_echo_retransmit(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 1, 0, 0));
    uint16_t s[SCI_MAX_PKT], e[SCI_MAX_PKT], f[SCI_MAX_PKT];
    unsigned ns = mkpkt(s, 9, 0x0100, 5, 1, NULL, 0);
    unsigned ne = mkpkt(e, 5, 0x2100, 9, 1, NULL, 0);
    put_blink(&b, s, ns); /* B-link 100..104, queued 105, inserted 106..110 */
    run_to(&b, 150);
    expect_link(&b, __LINE__, 106, s, ns);
    /* Busy echo pins 200..204: its CRC in stage 3 in 208, retransmission
     * from 210 (was 211: the old model acted at the idle after the echo).
     * The echo itself is consumed. */
    put_link(&b, 200, e, ne);
    run_to(&b, 206);
    CHECK(&b, "dbg echo-consume", sci_lc_debug(&b.lc) & 0xF, SCI_P_ECHO);
    run_to(&b, 250);
    expect_idle(&b, __LINE__, 112, 210);
    expect_link(&b, __LINE__, 210, s, ns);
    expect_idle(&b, __LINE__, 216, 250);
    /* Second busy: limit 1 reached when its CRC is in stage 3 (258) ->
     * FAIL_REPORT reason 1 from 259 (was 260, the same cycle shift). */
    put_link(&b, 250, e, ne);
    b.bout_ready = true;
    run_to(&b, 280);
    unsigned nf = mkpkt(f, 5, 0x3000, 5, 0, (const uint16_t[]){1, 9, 5, 1}, 4);
    CHECK(&b, "fail report length", b.bout_n, nf);
    for (unsigned i = 0; i < nf && i < b.bout_n; i++)
        CHECK(&b, "fail report symbol", b.bout[i], f[i]);
    CHECK(&b, "fail report in 259", b.bout_cyc[0], 259);
    CHECK(&b, "failure counted", counts(&b, 3), 1);
    CHECK(&b, "active buffers free", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 4 & 0xF, 0);
    expect_idle(&b, __LINE__, 216, 280);
}

/* sci/README.md 1 "Echo" / sci_lc.md 3: ECHO_ACCEPT matching an active buffer is
 * consumed and frees it; an unmatched echo is bypassed; an LC never takes a
 * packet it inserted itself. */
static void test_echo_accept_frees_buffer(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 1, 40));
    set_table(&b, 9, 1, 0); /* would take target 9 */
    uint16_t s[SCI_MAX_PKT], e[SCI_MAX_PKT], u[SCI_MAX_PKT];
    unsigned ns = mkpkt(s, 9, 0x0100, 5, 1, NULL, 0);
    unsigned ne = mkpkt(e, 5, 0x2000, 9, 1, NULL, 0);
    unsigned nu = mkpkt(u, 5, 0x2000, 9, 2, NULL, 0);
    put_blink(&b, s, ns); /* B-link 103..107, inserted 109..113 */
    /* (t+5 bypass and the end of a packet at its CRC in stage 3: each cycle
     * below is one earlier than in the old model.) */
    put_link(&b, 120, s, ns); /* comes back round: bypassed, 125..129 */
    put_link(&b, 135, e, ne); /* accept: CRC in stage 3 in 143, buffer free in 144 */
    put_link(&b, 160, u, nu); /* tid 2 matches nothing: bypassed 165..169 */
    run_to(&b, 143);
    CHECK(&b, "active buffer busy in 143", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 4 & 0xF, 1);
    bench_step(&b);
    CHECK(&b, "active buffer freed in 144", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 4 & 0xF, 0);
    run_to(&b, 220);
    expect_link(&b, __LINE__, 109, s, ns);
    expect_idle(&b, __LINE__, 115, 125);
    expect_link(&b, __LINE__, 125, s, ns);
    expect_idle(&b, __LINE__, 131, 165); /* no retransmission at 155 (113 + 40 + 2) */
    expect_link(&b, __LINE__, 165, u, nu);
    expect_idle(&b, __LINE__, 171, 220);
    CHECK(&b, "own packet not taken", b.bout_n, 0);
}

/* sci/README.md 2 "Probe" / "Scrubber": an LC takes its own packet only when it
 * is a probe to itself; its accept echo goes round and is consumed. */
static void test_probe_to_self(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&b, 5, 1, 0);
    uint16_t p[SCI_MAX_PKT], e[SCI_MAX_PKT];
    unsigned np = mkpkt(p, 5, 0x1000, 5, 3, NULL, 0);
    unsigned ne = mkpkt(e, 5, 0x2000, 5, 3, NULL, 0);
    put_blink(&b, p, np);     /* B-link 103..107, inserted 109..113 */
    put_link(&b, 120, p, np); /* back round: taken, CRC in stage 3 in 128, echo out 130..134 */
    put_link(&b, 140, e, ne); /* the echo back round: consumed */
    run_to(&b, 180);
    expect_link(&b, __LINE__, 109, p, np);
    expect_idle(&b, __LINE__, 115, 130);
    expect_link(&b, __LINE__, 130, e, ne); /* was 131 (end at the idle after) */
    expect_idle(&b, __LINE__, 136, 180);
    CHECK(&b, "probe delivered up the B-link", b.bout_n, np);
    CHECK(&b, "active buffer freed", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 4 & 0xF, 0);
}

/* sci_lc.md 3 "Active buffers": echo timeout -> retransmit; retry_limit ->
 * FAIL_REPORT reason 2. */
static void test_echo_timeout_retry_limit(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 1, 20));
    uint16_t s[SCI_MAX_PKT], f[SCI_MAX_PKT];
    unsigned ns = mkpkt(s, 9, 0x0100, 5, 1, NULL, 0);
    put_blink(&b, s, ns);
    run_to(&b, 200);
    /* Sent 106..110.  The echo timer is loaded with 20 in the cycle its last
     * symbol is on the output (110) and expires when it reads 0 (130); the
     * retransmission is on the output at last + timeout + 2 = 132..136 (the
     * RTL's timer, D5; the old model retransmitted at 130).  The second
     * timeout expires in 156 with the retry used up: FAIL_REPORT from 157. */
    expect_link(&b, __LINE__, 106, s, ns);
    expect_idle(&b, __LINE__, 112, 132);
    expect_link(&b, __LINE__, 132, s, ns);
    expect_idle(&b, __LINE__, 138, 200);
    unsigned nf = mkpkt(f, 5, 0x3000, 5, 0, (const uint16_t[]){2, 9, 5, 1}, 4);
    CHECK(&b, "fail report length", b.bout_n, nf);
    for (unsigned i = 0; i < nf && i < b.bout_n; i++)
        CHECK(&b, "fail report symbol", b.bout[i], f[i]);
    CHECK(&b, "fail report in 157", b.bout_cyc[0], 157);
}

/* sci/README.md 2 "Scrubber": marks what it bypasses, removes what arrives marked;
 * the mark is cleared when a packet is taken. */
static void test_scrubber_mark_remove_clear(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, true, 0, 0, 0));
    uint16_t p[SCI_MAX_PKT], m[SCI_MAX_PKT];
    unsigned n = mkpkt(p, 9, 0x0100, 3, 7, NULL, 0);
    memcpy(m, p, sizeof m);
    m[1] |= 0x0080; /* CRC unchanged: the mark does not count */
    put_link(&b, 200, p, n);
    put_link(&b, 220, m, n);
    run_to(&b, 260);
    expect_link(&b, __LINE__, 205, m, n); /* marked on the way through (t+5) */
    expect_idle(&b, __LINE__, 211, 260);  /* the marked one removed */
    CHECK(&b, "scrubbed count", counts(&b, 1), 1);
    CHECK(&b, "no crc error", counts(&b, 0), 0);
    /* A non-scrubber LC takes a marked packet: mark cleared, CRC good. */
    bench_t c;
    bench_init(&c, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&c, 9, 1, 1);
    put_link(&c, 200, m, n);
    run_to(&c, 240);
    CHECK(&c, "taken", c.bout_n, n);
    CHECK(&c, "mark cleared", c.bout[1], 0x0100);
    CHECK(&c, "CRC carried", c.bout[n - 1], p[n - 1]);
    CHECK(&c, "no crc error", counts(&c, 0), 0);
}

/* sci/README.md 2 "Ring failure" / sci_lc.md 3 "Ring down". */
static void test_ring_down_up(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    /* Origination: sd = 0 on the pins from 200, counted at the pin (section 3):
     * 4 cycles 200..203 -> originating from 204, ring down and the first
     * ring-down idle on the output in 205. */
    run_to(&b, 200);
    b.sd = false;
    run_to(&b, 204);
    CHECK(&b, "still up in 204", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) & 1u, 1);
    CHECK(&b, "no irq yet", sci_lc_irq(&b.lc), 0);
    bench_step(&b);
    CHECK(&b, "ring down in 205", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) & 3u, 0);
    CHECK(&b, "CableNotOk", sci_lc_irq(&b.lc), 1);
    CHECK(&b, "dbg originating", sci_lc_debug(&b.lc) >> 23 & 1u, 1);
    run_to(&b, 220);
    CHECK(&b, "ring-down idle in 204?", b.lout[204], 0);
    for (long c = 205; c < 220; c++)
        CHECK(&b, "ring-down idle", b.lout[c], 0x8005);
    reg_write(&b, SCI_REG_STATUS_CLR, 8);
    CHECK(&b, "irq cleared", sci_lc_irq(&b.lc), 0);
    /* Cable back at 300: originating stops in 301 (plain idle from 302); up
     * after 64 clean cycles counted at the pin 300..363 -> up in 365. */
    run_to(&b, 300);
    b.sd = true;
    run_to(&b, 364);
    CHECK(&b, "down in 364", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) & 1u, 0);
    bench_step(&b);
    CHECK(&b, "up in 365", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) & 1u, 1);
    CHECK(&b, "last ring-down idle 301", b.lout[301], 0x8005);
    CHECK(&b, "plain idle 302", b.lout[302], 0);

    /* Forwarding at another node (7): idles 0x8005 on the pins 200..209 are
     * seen in stage 3 in 204..213 (section 3; the old model looked in its
     * input register, 201..210): ring down from 205, forwarded 205..214 (the
     * output is idle); up 64 clean cycles after. */
    bench_t c;
    bench_init(&c, t, SCI_LC3, ctrl(7, true, false, 0, 0, 0));
    for (long k = 200; k < 210; k++)
        c.lin[k] = 0x8005;
    run_to(&c, 204);
    CHECK(&c, "fwd: up in 204", sci_lc_reg_read(&c.lc, SCI_REG_STATUS) & 1u, 1);
    bench_step(&c);
    CHECK(&c, "fwd: down in 205", sci_lc_reg_read(&c.lc, SCI_REG_STATUS) & 1u, 0);
    CHECK(&c, "fwd: irq", sci_lc_irq(&c.lc), 1);
    CHECK(&c, "fwd: not originating", sci_lc_debug(&c.lc) >> 23 & 1u, 0);
    /* Last ring-down idle in stage 3 in 213: the clean count is 0 in 214 and
     * 64 in 278 -> up in 279. */
    run_to(&c, 278);
    CHECK(&c, "fwd: down in 278", sci_lc_reg_read(&c.lc, SCI_REG_STATUS) & 1u, 0);
    bench_step(&c);
    CHECK(&c, "fwd: up in 279", sci_lc_reg_read(&c.lc, SCI_REG_STATUS) & 1u, 1);
    expect_idle(&c, __LINE__, 100, 205);
    for (long k = 205; k < 215; k++)
        CHECK(&c, "forwarded ring-down idle", c.lout[k], 0x8005);
    expect_idle(&c, __LINE__, 215, 279);

    /* Stripping: node 5 gets its own ring-down idles back: plain idles out.
     * Only another node's ring-down idle sets ring down (section 3; the old
     * model let its own take the ring down too); its own ones restart the
     * ring-up count: the last in stage 3 in 213, the count 0 in 214, 26 in 240. */
    bench_t d;
    bench_init(&d, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    for (long k = 200; k < 210; k++)
        d.lin[k] = 0x8005;
    run_to(&d, 240);
    expect_idle(&d, __LINE__, 100, 240);
    CHECK(&d, "strip: own idles leave the ring up", sci_lc_reg_read(&d.lc, SCI_REG_STATUS) & 1u, 1);
    CHECK(&d, "strip: they restart the ring-up count", sci_lc_debug(&d.lc) >> 24 & 0x7F, 26);
}

/* sci/README.md 1 "Ring-level delivery": ring down fails the send queue (reason 3). */
static void test_ring_down_fails_send_queue(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    b.sd = false; /* down from 105 */
    run_to(&b, 110);
    uint16_t s[SCI_MAX_PKT], f[SCI_MAX_PKT];
    unsigned ns = mkpkt(s, 9, 0x0100, 5, 3, NULL, 0);
    put_blink(&b, s, ns); /* queued in 115: its FAIL_REPORT is built as its symbol 0 moves */
    run_to(&b, 140);
    unsigned nf = mkpkt(f, 5, 0x3000, 5, 0, (const uint16_t[]){3, 9, 5, 3}, 4);
    CHECK(&b, "fail report length", b.bout_n, nf);
    for (unsigned i = 0; i < nf && i < b.bout_n; i++)
        CHECK(&b, "fail report symbol", b.bout[i], f[i]);
    /* From 115 (the old model queued the report first: 116; FAIL_REPORTs are
     * built one at a time on the B-link, D9). */
    CHECK(&b, "fail report from 115", b.bout_cyc[0], 115);
}

/* sci/README.md 2: a disabled LC keeps bypassing, takes nothing, sends nothing. */
static void test_disabled_still_bypasses(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, false, false, 0, 0, 0));
    set_table(&b, 5, 1, 0);
    uint16_t p[SCI_MAX_PKT], s[SCI_MAX_PKT], f[SCI_MAX_PKT];
    unsigned n = mkpkt(p, 5, 0x0100, 3, 7, NULL, 0);
    unsigned ns = mkpkt(s, 9, 0x0100, 5, 4, NULL, 0);
    put_link(&b, 200, p, n);
    run_to(&b, 200);
    put_blink(&b, s, ns);
    run_to(&b, 240);
    CHECK(&b, "status disabled", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 2 & 1u, 1);
    expect_idle(&b, __LINE__, 100, 205);
    expect_link(&b, __LINE__, 205, p, n); /* bypassed (t+5), not taken */
    expect_idle(&b, __LINE__, 205 + n, 240);
    unsigned nf = mkpkt(f, 5, 0x3000, 5, 0, (const uint16_t[]){4, 9, 5, 4}, 4);
    CHECK(&b, "only the fail report on the B-link", b.bout_n, nf);
    for (unsigned i = 0; i < nf && i < b.bout_n; i++)
        CHECK(&b, "fail report symbol", b.bout[i], f[i]);
}

/* sci/README.md 4 / sci_lc.md 4: P2S table set by targetId bit 14, index 12:0;
 * LC3 looks at bits 7:0 only. */
static void test_p2s_table_set_bit14(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_P2S, ctrl(5, true, false, 0, 0, 0));
    set_table(&b, 0x2000 | 0x1005, 1, 2); /* set 1, id 0x1005: take, Y-LC */
    set_table(&b, 0x1005, 0, 1);          /* set 0: bypass */
    reg_write(&b, SCI_REG_TADDR, 0x2000 | 0x1005);
    CHECK(&b, "LRT readback", sci_lc_reg_read(&b.lc, SCI_REG_LRT), 1);
    CHECK(&b, "BRT readback", sci_lc_reg_read(&b.lc, SCI_REG_BRT), 2);
    CHECK(&b, "index set 1", sci_lc_table_index(&b.lc, 0x5005), 0x3005);
    CHECK(&b, "index set 0", sci_lc_table_index(&b.lc, 0x1005), 0x1005);
    uint16_t p0[SCI_MAX_PKT], p1[SCI_MAX_PKT];
    unsigned n = mkpkt(p0, 0x1005, 0x0100, 3, 1, NULL, 0);
    mkpkt(p1, 0x5005, 0x0100, 3, 1, NULL, 0);
    CHECK(&b, "bit 14 not in the CRC", p1[n - 1], p0[n - 1]);
    put_link(&b, 200, p0, n);
    put_link(&b, 210, p1, n);
    b.bout_ready = false;
    run_to(&b, 260);
    expect_link(&b, __LINE__, 205, p0, n); /* set 0: bypassed (t+5) */
    CHECK(&b, "set 1 taken", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) >> 12 & 0xF, 1);
    CHECK(&b, "B-link port from set 1", sci_lc_bout_port(&b.lc), 2);
    CHECK(&b, "head is the bit-14 packet", sci_lc_bout_sym(&b.lc), 0x5005);

    bench_t c;
    bench_init(&c, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&c, 0x05, 1, 0);
    CHECK(&c, "LC3 index bits 7:0", sci_lc_table_index(&c.lc, 0x4F05), 0x05);
    uint16_t q[SCI_MAX_PKT];
    unsigned nq = mkpkt(q, 0x0305, 0x0100, 3, 1, NULL, 0);
    put_link(&c, 200, q, nq);
    run_to(&c, 240);
    CHECK(&c, "LC3 took 0x305 by entry 5", c.bout_n, nq);
}

/* sci_lc.md 4: CTRL read back, byte strobes. */
static void test_register_port(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, true, 3, 4, 1000));
    /* ctrl() also writes bit 18, which is no CTRL field (section 4): it reads 0
     * (the old model stored it). */
    const uint64_t b18 = 1ull << 18;
    CHECK(&b, "CTRL", sci_lc_reg_read(&b.lc, SCI_REG_CTRL), ctrl(5, true, true, 3, 4, 1000) & ~b18);
    b.in.reg_we = true;
    b.in.reg_waddr = SCI_REG_CTRL;
    b.in.reg_wdata = 0xFFFFFFFFFFFFFFFFull;
    b.in.reg_wstrb = 0x01; /* only byte 0: node id [7:0] */
    bench_step(&b);
    CHECK(&b, "CTRL byte 0", sci_lc_reg_read(&b.lc, SCI_REG_CTRL),
          ctrl(0xFF, true, true, 3, 4, 1000) & ~b18);
    CHECK(&b, "STATUS up, cable ok, enabled", sci_lc_reg_read(&b.lc, SCI_REG_STATUS), 3);
}

/* D13 with D6: reset clears the state, CTRL to section 4's reset values; keeps the tables. */
static void test_reset(tally_t *t)
{
    bench_t b;
    bench_init(&b, t, SCI_LC3, ctrl(5, true, false, 0, 0, 0));
    set_table(&b, 5, 1, 3);
    b.in.rst_n = false;
    bench_step(&b);
    b.in.rst_n = true;
    CHECK(&b, "CTRL at its reset values", sci_lc_reg_read(&b.lc, SCI_REG_CTRL),
          200ull << 48 | 4ull << 32 | 8ull << 24 | 1ull << 16);
    CHECK(&b, "ring down after reset", sci_lc_reg_read(&b.lc, SCI_REG_STATUS) & 1u, 0);
    CHECK(&b, "TADDR cleared", sci_lc_reg_read(&b.lc, SCI_REG_TADDR), 0);
    reg_write(&b, SCI_REG_TADDR, 5);
    CHECK(&b, "LRT kept", sci_lc_reg_read(&b.lc, SCI_REG_LRT), 1);
    CHECK(&b, "BRT kept", sci_lc_reg_read(&b.lc, SCI_REG_BRT), 3);
    /* Reset in 103; sd = 1 on the pin in 104 is counted (section 3: at the
     * pin; the old model counted it a cycle later): ring-up count 1 in 105. */
    CHECK(&b, "DBG after reset", sci_lc_debug(&b.lc), 0xFFFFull << 32 | 1ull << 24);

    /* D13 (as RN1): reset edges with register writes perform them and keep
     * CTRL and TADDR; a reset edge without a write loads the defaults. */
    b.in.rst_n = false;
    bench_step(&b);
    reg_write(&b, SCI_REG_CTRL, ctrl(9, true, true, 2, 3, 77));
    reg_write(&b, SCI_REG_TADDR, 6);
    reg_write(&b, SCI_REG_LRT, 1);
    b.in.rst_n = true;
    CHECK(&b, "CTRL written during reset survives later reset writes",
          sci_lc_reg_read(&b.lc, SCI_REG_CTRL), ctrl(9, true, true, 2, 3, 77) & ~(1ull << 18));
    CHECK(&b, "TADDR written during reset", sci_lc_reg_read(&b.lc, SCI_REG_TADDR), 6);
    CHECK(&b, "LRT written during reset", sci_lc_reg_read(&b.lc, SCI_REG_LRT), 1);
    b.in.rst_n = false;
    bench_step(&b);
    b.in.rst_n = true;
    CHECK(&b, "reset without a write: CTRL defaults", sci_lc_reg_read(&b.lc, SCI_REG_CTRL),
          200ull << 48 | 4ull << 32 | 8ull << 24 | 1ull << 16);
    CHECK(&b, "reset without a write: TADDR 0", sci_lc_reg_read(&b.lc, SCI_REG_TADDR), 0);
}

int main(void)
{
    tally_t t = {0, 0};
    test_crc16_ccitt(&t);
    test_bypass_latency(&t);
    test_take_and_echo_accept(&t);
    test_rx_full_busy_echo(&t);
    test_crc_error_discard(&t);
    test_bypass_priority_insertion(&t);
    test_busy_echo_retransmit(&t);
    test_echo_accept_frees_buffer(&t);
    test_probe_to_self(&t);
    test_echo_timeout_retry_limit(&t);
    test_scrubber_mark_remove_clear(&t);
    test_ring_down_up(&t);
    test_ring_down_fails_send_queue(&t);
    test_disabled_still_bypasses(&t);
    test_p2s_table_set_bit14(&t);
    test_register_port(&t);
    test_reset(&t);
    printf("%u passed, %u failed\n", t.passed, t.failed);
    return t.failed ? 1 : 0;
}
