/*
 * test_rn1.c - unit tests of the RN1 C reference model (csim/rnp/rn1.c).
 *
 * TEST RATIONALE: each test is named after the rtl/rn1.md section it
 * checks, drives the model through the same reset sequence as the harness and
 * asserts every output and the relevant registers cycle by cycle.  Expected
 * values are worked out by hand from rn1.md (LFSR values included), never
 * computed with the model's own helpers, so a test fails when the model
 * misreads the contract.
 *
 * Convention inside a test: at "cycle t" the outputs are checked first (they
 * are registers, independent of the inputs of cycle t), then the inputs of
 * cycle t are set, then step() ends the cycle.  Inputs hold until changed.
 *
 * Prints one line per failing check and ends with "N passed, N failed";
 * exit status 0 only if none failed.
 */
#include "rn1.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Words, written out here rather than taken from rn1.h. */
#define IDLE  0x000u
#define TURN  0x055u
#define HOLD  0x0AAu
#define DROP  0x0FFu
#define W1(d) (0x100u | (d)) /* any c=1 word: ROUTE, DATA, STATUS, CHECKSUM */

/* State codes of rn1.md, written out here. */
enum {
    S_IDLE,
    S_SWALLOW,
    S_FORWARD,
    S_BLOCKED,
    S_STATUS,
    S_CHECKSUM,
    S_REVERSE,
    S_HOLD,
    S_DROP,
    S_DISCARD
};

typedef struct tally {
    unsigned passed;
    unsigned failed;
} tally_t;

typedef struct bench {
    rn1_t m;
    rn1_in_t in;
    long cycle; /* current cycle; 0 = first cycle after reset */
    tally_t *t;
} bench_t;

/* Expected outputs; unnamed ones are IDLE (bc: 0). */
typedef struct outs {
    uint16_t f[RN1_PORTS];
    uint16_t b[RN1_PORTS];
    uint8_t bc; /* bit i: bc output of f<i> */
} outs_t;

static void check(bench_t *b, const char *file, int line, const char *what, uint64_t got,
                  uint64_t exp)
{
    if (got == exp) {
        b->t->passed++;
        return;
    }
    b->t->failed++;
    printf("%s:%d: cycle %ld: %s = 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", file, line, b->cycle,
           what, got, exp);
}

/* One check covering all 16 word outputs and the 8 bc outputs. */
static void check_outs(bench_t *b, const char *file, int line, outs_t e)
{
    bool ok = true;
    for (unsigned i = 0; i < RN1_PORTS; i++) {
        uint16_t f = rn1_fwd_out(&b->m, i), g = rn1_bwd_out(&b->m, i);
        if (f != e.f[i]) {
            printf("%s:%d: cycle %ld: f%u out = 0x%03x, expected 0x%03x\n", file, line, b->cycle, i,
                   f, e.f[i]);
            ok = false;
        }
        if (g != e.b[i]) {
            printf("%s:%d: cycle %ld: b%u out = 0x%03x, expected 0x%03x\n", file, line, b->cycle, i,
                   g, e.b[i]);
            ok = false;
        }
    }
    if (rn1_fwd_bc_out(&b->m) != e.bc) {
        printf("%s:%d: cycle %ld: bc outputs = 0x%02x, expected 0x%02x\n", file, line, b->cycle,
               rn1_fwd_bc_out(&b->m), e.bc);
        ok = false;
    }
    if (ok)
        b->t->passed++;
    else
        b->t->failed++;
}

/* Debug word of rn1.md, composed here independently of the model. */
static uint64_t port_word(unsigned state, unsigned bq, unsigned disp, unsigned count, unsigned xsum)
{
    return (uint64_t)state | (uint64_t)bq << 4 | (uint64_t)disp << 8 | (uint64_t)count << 16 |
           (uint64_t)xsum << 24;
}

#define CHECK(b, what, got, exp) \
    check((b), __FILE__, __LINE__, (what), (uint64_t)(got), (uint64_t)(exp))
#define OUTS(b, ...)      check_outs((b), __FILE__, __LINE__, (outs_t){__VA_ARGS__})
#define NOUT(b)           check_outs((b), __FILE__, __LINE__, (outs_t){.f = {0}})
#define REG(b, addr, exp) CHECK((b), "reg " #addr, rn1_reg_read(&(b)->m, (addr)), (exp))
/* PORT checks every field but armed (bit 12), which ARMED checks: armed
 * depends only on the state of the cycle before (rn1.md "Armed") and is
 * checked where a test is about it. */
#define ARMED_BIT ((uint64_t)1 << 12)
#define PORT(b, p, st, bq, disp, count, xsum)                                        \
    CHECK((b), "PORT" #p, rn1_reg_read(&(b)->m, (uint8_t)(0x10 + (p))) & ~ARMED_BIT, \
          port_word((st), (bq), (disp), (count), (xsum)))
#define ARMED(b, p, exp) \
    CHECK((b), "PORT" #p " armed", rn1_reg_read(&(b)->m, (uint8_t)(0x10 + (p))) >> 12 & 1u, (exp))

/* CFG register value (rn1.md register map). */
static uint64_t cfg(unsigned swallow, unsigned disable, unsigned seed, unsigned dual)
{
    return (uint64_t)swallow | (uint64_t)disable << 8 | (uint64_t)seed << 16 | (uint64_t)dual << 32;
}

/* CFG with backchan (bit 40) as well. */
static uint64_t cfgb(unsigned swallow, unsigned disable, unsigned seed, unsigned dual,
                     unsigned backchan)
{
    return cfg(swallow, disable, seed, dual) | (uint64_t)backchan << 40;
}

static void step(bench_t *b)
{
    rn1_step(&b->m, &b->in);
    b->cycle++;
}

/* The harness's reset sequence: two plain reset edges, one reset edge with
 * the CFG write, then rst_n high; afterwards it is cycle 0. */
static void bench_reset(bench_t *b, uint64_t cfgval, uint8_t strobes)
{
    memset(&b->in, 0, sizeof b->in);
    b->in.rst_n = false;
    step(b);
    step(b);
    b->in.reg_we = true;
    b->in.reg_waddr = 0x00;
    b->in.reg_wdata = cfgval;
    b->in.reg_wstrb = strobes;
    step(b);
    b->in.reg_we = false;
    b->in.rst_n = true;
    b->cycle = 0;
}

/* A fresh bench: the model starts from rn1_init, not from a reset. */
static void bench_open(bench_t *b, tally_t *t, uint64_t cfgval)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    rn1_init(&b->m);
    bench_reset(b, cfgval, 0x1F);
}

/* As bench_open, the CFG write covering backchan (byte 5) too. */
static void bench_open_bc(bench_t *b, tally_t *t, uint64_t cfgval)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    rn1_init(&b->m);
    bench_reset(b, cfgval, 0x3F);
}

/* Ends the current cycle with a register write on it. */
static void step_write(bench_t *b, uint8_t addr, uint64_t data, uint8_t strb)
{
    b->in.reg_we = true;
    b->in.reg_waddr = addr;
    b->in.reg_wdata = data;
    b->in.reg_wstrb = strb;
    step(b);
    b->in.reg_we = false;
}

/* ---- rn1.md section 5: the LFSR ----------------------------------------- */

/* 16-bit Galois right shift with taps 0xB400; the value during cycle t is
 * the seed stepped t times; a zero seed loads 0xACE1. Values by hand. */
static void test_sec5_lfsr_sequence(tally_t *t)
{
    static const uint16_t seq[8] = {0xACE1, 0xE270, 0x7138, 0x389C, 0x1C4E, 0x0E27, 0xB313, 0xED89};
    uint32_t dbg[RN1_DBG_WORDS];
    bench_t b;
    bench_open(&b, t, cfg(0, 0, 0xACE1, 0));
    for (unsigned i = 0; i + 1 < 8; i++)
        CHECK(&b, "rn1_lfsr_step", rn1_lfsr_step(seq[i]), seq[i + 1]);
    /* Taps 0xB400 are maximal length: period 2^16-1, zero never reached. */
    uint16_t s = 0xACE1;
    unsigned n = 0, zero = 0;
    do {
        s = rn1_lfsr_step(s);
        n++;
        zero += s == 0;
    } while (s != 0xACE1 && n < 70000u);
    CHECK(&b, "LFSR period", n, 65535);
    CHECK(&b, "LFSR reached zero", zero, 0);
    for (unsigned i = 0; i < 8; i++) {
        REG(&b, 0x03, seq[i]);
        rn1_debug(&b.m, dbg);
        CHECK(&b, "dbg LFSR slot", dbg[2], seq[i]);
        step(&b);
    }
    bench_reset(&b, cfg(0, 0, 0, 0), 0x1F); /* zero seed */
    REG(&b, 0x03, 0xACE1);
    REG(&b, 0x00, 0); /* the seed field reads back as written */
    step(&b);
    REG(&b, 0x03, 0xE270);
    bench_reset(&b, cfg(0, 0, 0x0001, 0), 0x1F);
    REG(&b, 0x03, 0x0001);
    step(&b);
    REG(&b, 0x03, 0xB400);
    step(&b);
    REG(&b, 0x03, 0x5A00);
    step(&b);
    REG(&b, 0x03, 0x2D00);
}

/* ---- rn1.md section 2: words -------------------------------------------- */

/* Of the 512 words, the 252 c=0 words other than 00/55/AA/FF are invalid;
 * STATUS is disp<<6 | count mod 64, CHECKSUM the XOR, both with c=1. */
static void test_sec2_word_classes(tally_t *t)
{
    bench_t b;
    unsigned invalid = 0, invalid_c1 = 0;
    bench_open(&b, t, cfg(0, 0, 0xACE1, 0));
    for (uint16_t w = 0; w < 0x200; w++) {
        invalid += rn1_is_invalid(w);
        invalid_c1 += (w & 0x100) && rn1_is_invalid(w);
    }
    CHECK(&b, "invalid words", invalid, 252);
    CHECK(&b, "invalid c=1 words", invalid_c1, 0);
    CHECK(&b, "IDLE invalid", rn1_is_invalid(IDLE), 0);
    CHECK(&b, "TURN invalid", rn1_is_invalid(TURN), 0);
    CHECK(&b, "HOLD invalid", rn1_is_invalid(HOLD), 0);
    CHECK(&b, "DROP invalid", rn1_is_invalid(DROP), 0);
    CHECK(&b, "0x0A5 invalid", rn1_is_invalid(0x0A5), 1);
    CHECK(&b, "STATUS 11 / 70", rn1_status_word(3, 70), 0x1C6);
    CHECK(&b, "STATUS 01 / 63", rn1_status_word(1, 63), 0x17F);
    CHECK(&b, "CHECKSUM 0xA5", rn1_checksum_word(0xA5), 0x1A5);
}

/* ---- rn1.md section 4: FORWARD, TURN, REVERSE (the vectors/README.md example) */

/* dilated, seed 0xACE1, b3 disabled: direction 1 takes b2 although lfsr[0]
 * is 1. Route, data, TURN; the reply and DROP come back on f0. */
static void test_sec4_vectors_md_example(tally_t *t)
{
    uint32_t dbg[RN1_DBG_WORDS];
    bench_t b;
    bench_open(&b, t, cfg(0, 0x08, 0xACE1, 0));
    NOUT(&b); /* cycle 0 */
    REG(&b, 0x02, 0);
    PORT(&b, 0, S_IDLE, 0, 0, 0, 0);
    b.in.fwd[0] = W1(0x40);
    step(&b);
    OUTS(&b, .b[2] = W1(0x40)); /* cycle 1 */
    REG(&b, 0x02, 0x04);
    PORT(&b, 0, S_FORWARD, 2, 2, 1, 0x40);
    b.in.fwd[0] = W1(0x11);
    step(&b);
    OUTS(&b, .b[2] = W1(0x11)); /* cycle 2 */
    PORT(&b, 0, S_FORWARD, 2, 2, 2, 0x51);
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .b[2] = TURN, .f[0] = W1(0x82)); /* cycle 3 */
    PORT(&b, 0, S_STATUS, 2, 2, 2, 0x51);
    rn1_debug(&b.m, dbg);
    CHECK(&b, "dbg ERRORS", dbg[0], 0);
    CHECK(&b, "dbg ALLOC", dbg[1], 0x04);
    CHECK(&b, "dbg LFSR", dbg[2], 0x389C);
    CHECK(&b, "dbg PORT0", dbg[3], 0x51021224); /* armed: FORWARD at 2 */
    for (unsigned p = 1; p < RN1_PORTS; p++)
        CHECK(&b, "dbg PORTp", dbg[3 + p], 0);
    step(&b);
    OUTS(&b, .f[0] = W1(0x51)); /* cycle 4 */
    PORT(&b, 0, S_REVERSE, 2, 2, 2, 0x51);
    b.in.bwd[2] = W1(0x99);
    step(&b);
    OUTS(&b, .f[0] = W1(0x99)); /* cycle 5 */
    REG(&b, 0x02, 0x04);
    b.in.bwd[2] = DROP;
    step(&b);
    OUTS(&b, .f[0] = DROP); /* cycle 6 */
    REG(&b, 0x02, 0);
    PORT(&b, 0, S_IDLE, 2, 2, 2, 0x51);
    step(&b);
    NOUT(&b); /* cycle 7: TURN on idle f0 and DROP on free b2 do nothing */
    step(&b);
    NOUT(&b);
    REG(&b, 0x02, 0);
    REG(&b, 0x01, 0);
}

/* ---- rn1.md section 1: dual mode ---------------------------------------- */

/* f0..f3 -> b(k), f4..f7 -> b(4+k); one output per direction, disposition
 * 10 when routed, 00 when taken, 01 when disabled. */
static void test_sec1_route_dual(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0x20, 0xACE1, 1));
    NOUT(&b);               /* cycle 0 (rot 0: f1 is served before f2) */
    b.in.fwd[1] = W1(0xC5); /* dir 3 -> b3 */
    b.in.fwd[2] = W1(0xC7); /* dir 3 -> b3, taken by f1: 00 */
    b.in.fwd[5] = W1(0x8A); /* dir 2 -> b6 */
    b.in.fwd[6] = W1(0x33); /* dir 0 -> b4 */
    b.in.fwd[7] = W1(0x41); /* dir 1 -> b5, disabled: 01 */
    step(&b);
    OUTS(&b, .b[3] = W1(0xC5), .b[6] = W1(0x8A), .b[4] = W1(0x33)); /* 1 */
    REG(&b, 0x02, 0x58);
    PORT(&b, 1, S_FORWARD, 3, 2, 1, 0xC5);
    PORT(&b, 2, S_BLOCKED, 0, 0, 1, 0xC7);
    PORT(&b, 5, S_FORWARD, 6, 2, 1, 0x8A);
    PORT(&b, 6, S_FORWARD, 4, 2, 1, 0x33);
    PORT(&b, 7, S_BLOCKED, 0, 1, 1, 0x41);
    b.in.fwd[1] = W1(0x22);
    b.in.fwd[5] = HOLD;
    b.in.fwd[6] = DROP;
    b.in.fwd[2] = DROP;
    b.in.fwd[7] = IDLE;
    step(&b);
    OUTS(&b, .b[3] = W1(0x22), .b[6] = HOLD, .b[4] = DROP); /* cycle 2 */
    REG(&b, 0x02, 0x48);
    PORT(&b, 1, S_FORWARD, 3, 2, 2, 0xE7);
    PORT(&b, 2, S_IDLE, 0, 0, 1, 0xC7);
    PORT(&b, 5, S_FORWARD, 6, 2, 1, 0x8A);
    PORT(&b, 6, S_IDLE, 4, 2, 1, 0x33);
    PORT(&b, 7, S_IDLE, 0, 1, 1, 0x41);
    b.in.fwd[0] = W1(0x40); /* dir 1 -> b1 (dilated would take b2) */
    step(&b);
    OUTS(&b, .b[1] = W1(0x40), .b[3] = W1(0x22), .b[6] = HOLD); /* 3 */
    PORT(&b, 0, S_FORWARD, 1, 2, 1, 0x40);
    REG(&b, 0x02, 0x4A);
    REG(&b, 0x01, 0);
}

/* ---- rn1.md section 5: equivalent outputs -------------------------------- */

/* Two free: lfsr[p] of the deciding cycle picks 0 even / 1 odd; one free:
 * that one (an output freed this cycle is not free yet). */
static void test_sec5_equivalent_outputs_lfsr(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0, 0xACE1, 0));
    /* cycle 0, lfsr 0xACE1: bit0=1 bit1=0 bit3=0 bit5=1 */
    b.in.fwd[0] = W1(0x00); /* dir 0 -> b1 (11) */
    b.in.fwd[1] = W1(0x40); /* dir 1 -> b2 (10) */
    b.in.fwd[5] = W1(0x80); /* dir 2 -> b5 (11) */
    b.in.fwd[3] = W1(0xC0); /* dir 3 -> b6 (10) */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00), .b[2] = W1(0x40), .b[5] = W1(0x80),
         .b[6] = W1(0xC0)); /* cycle 1, lfsr 0xE270: bit4=1 bit7=0 */
    REG(&b, 0x02, 0x66);
    PORT(&b, 0, S_FORWARD, 1, 3, 1, 0x00);
    PORT(&b, 1, S_FORWARD, 2, 2, 1, 0x40);
    PORT(&b, 5, S_FORWARD, 5, 3, 1, 0x80);
    PORT(&b, 3, S_FORWARD, 6, 2, 1, 0xC0);
    b.in.fwd[0] = b.in.fwd[1] = b.in.fwd[3] = b.in.fwd[5] = IDLE;
    b.in.fwd[4] = W1(0x01); /* dir 0: b1 freed now, so only b0 */
    b.in.fwd[7] = W1(0xC1); /* dir 3: b6 freed now, so only b7 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x01), .b[7] = W1(0xC1)); /* cycle 2, lfsr 0x7138 */
    REG(&b, 0x02, 0x81);
    PORT(&b, 0, S_IDLE, 1, 3, 1, 0x00);
    PORT(&b, 4, S_FORWARD, 0, 2, 1, 0x01);
    PORT(&b, 7, S_FORWARD, 7, 3, 1, 0xC1);
    b.in.fwd[6] = W1(0x41); /* dir 1, both free, bit6=0 -> b2 */
    b.in.fwd[3] = W1(0x82); /* dir 2, both free, bit3=1 -> b5 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x01), .b[7] = W1(0xC1), .b[2] = W1(0x41), .b[5] = W1(0x82)); /* cycle 3 */
    REG(&b, 0x02, 0xA5);
    PORT(&b, 6, S_FORWARD, 2, 2, 1, 0x41);
    PORT(&b, 3, S_FORWARD, 5, 3, 1, 0x82);
    PORT(&b, 4, S_FORWARD, 0, 2, 2, 0x00);
}

/* ---- rn1.md sections 2 and 4: BLOCKED --------------------------------- */

/* Disposition 01 (both outputs of the direction disabled). BLOCKED counts
 * c=1 words, ignores HOLD; TURN at t gives STATUS t+1, CHECKSUM t+2, DROP
 * t+3 with in ignored, and in is live again (IDLE) at t+4. */
static void test_sec4_blocked_disabled_01_turn(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0x03, 0xACE1, 0));
    NOUT(&b);               /* cycle 0 */
    b.in.fwd[0] = W1(0x3F); /* dir 0: b0, b1 disabled */
    step(&b);
    NOUT(&b); /* cycle 1 */
    REG(&b, 0x02, 0);
    PORT(&b, 0, S_BLOCKED, 0, 1, 1, 0x3F);
    b.in.fwd[0] = W1(0x0F);
    step(&b);
    NOUT(&b); /* cycle 2 */
    PORT(&b, 0, S_BLOCKED, 0, 1, 2, 0x30);
    b.in.fwd[0] = HOLD;
    step(&b);
    NOUT(&b); /* cycle 3 */
    PORT(&b, 0, S_BLOCKED, 0, 1, 2, 0x30);
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .f[0] = W1(0x42)); /* cycle 4: STATUS 01 / 2 */
    PORT(&b, 0, S_STATUS, 0, 1, 2, 0x30);
    b.in.fwd[0] = W1(0x40); /* ignored until cycle 7 */
    step(&b);
    OUTS(&b, .f[0] = W1(0x30)); /* cycle 5: CHECKSUM */
    PORT(&b, 0, S_CHECKSUM, 0, 1, 2, 0x30);
    step(&b);
    OUTS(&b, .f[0] = DROP); /* cycle 6 */
    PORT(&b, 0, S_DROP, 0, 1, 2, 0x30);
    step(&b);
    NOUT(&b); /* cycle 7, lfsr 0xED89: bit0=1 */
    PORT(&b, 0, S_IDLE, 0, 1, 2, 0x30);
    REG(&b, 0x03, 0xED89);
    step(&b);
    OUTS(&b, .b[3] = W1(0x40)); /* cycle 8: dir 1, both free -> b3 */
    PORT(&b, 0, S_FORWARD, 3, 3, 1, 0x40);
    REG(&b, 0x02, 0x08);
}

/* Disposition 00: the only enabled output is allocated (here by a port
 * served earlier in the same cycle). Nothing leaves on any b. */
static void test_sec4_blocked_allocated_00_turn(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0x02, 0xACE1, 0));
    b.in.fwd[0] = W1(0x05); /* cycle 0: dir 0 -> b0 (b1 disabled) */
    b.in.fwd[1] = W1(0x07); /* served after f0: blocked, 00 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x05)); /* cycle 1 */
    PORT(&b, 0, S_FORWARD, 0, 2, 1, 0x05);
    PORT(&b, 1, S_BLOCKED, 0, 0, 1, 0x07);
    b.in.fwd[0] = W1(0x10);
    b.in.fwd[1] = W1(0x11);
    step(&b);
    OUTS(&b, .b[0] = W1(0x10)); /* cycle 2 */
    PORT(&b, 1, S_BLOCKED, 0, 0, 2, 0x16);
    b.in.fwd[0] = HOLD;
    b.in.fwd[1] = TURN;
    step(&b);
    OUTS(&b, .b[0] = HOLD, .f[1] = W1(0x02)); /* cycle 3: STATUS 00 / 2 */
    PORT(&b, 1, S_STATUS, 0, 0, 2, 0x16);
    PORT(&b, 0, S_FORWARD, 0, 2, 2, 0x15);
    b.in.fwd[1] = W1(0x77); /* ignored at 3..5, live at 6 */
    step(&b);
    OUTS(&b, .b[0] = HOLD, .f[1] = W1(0x16)); /* cycle 4: CHECKSUM */
    PORT(&b, 1, S_CHECKSUM, 0, 0, 2, 0x16);
    step(&b);
    OUTS(&b, .b[0] = HOLD, .f[1] = DROP); /* cycle 5 */
    PORT(&b, 1, S_DROP, 0, 0, 2, 0x16);
    step(&b);
    OUTS(&b, .b[0] = HOLD); /* cycle 6, lfsr 0xB313: bit1=1 */
    PORT(&b, 1, S_IDLE, 0, 0, 2, 0x16);
    REG(&b, 0x03, 0xB313);
    step(&b);
    OUTS(&b, .b[0] = HOLD, .b[3] = W1(0x77)); /* cycle 7: dir 1 -> b3 */
    PORT(&b, 1, S_FORWARD, 3, 3, 1, 0x77);
    PORT(&b, 0, S_FORWARD, 0, 2, 2, 0x15);
    REG(&b, 0x02, 0x09);
}

/* ---- rn1.md section 4: REVERSE and the reverse TURN --------------------- */

/* Forward TURN at 2: bq input ignored at 3, live at 4. Reverse TURN at 6:
 * out TURN at 7, bq HOLD at 7 and 8, in ignored at 7 and live at 8. The
 * count and XOR go on across the second forward phase; disp is repeated. */
static void test_sec4_reverse_turn(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0xFE, 0xACE1, 0));
    b.in.fwd[2] = W1(0x01); /* cycle 0: dir 0 -> b0, the only enabled */
    step(&b);
    OUTS(&b, .b[0] = W1(0x01)); /* cycle 1 */
    PORT(&b, 2, S_FORWARD, 0, 2, 1, 0x01);
    b.in.fwd[2] = W1(0x02);
    step(&b);
    OUTS(&b, .b[0] = W1(0x02)); /* cycle 2 */
    b.in.fwd[2] = TURN;
    step(&b);
    OUTS(&b, .b[0] = TURN, .f[2] = W1(0x82)); /* cycle 3 */
    PORT(&b, 2, S_STATUS, 0, 2, 2, 0x03);
    b.in.fwd[2] = W1(0x55); /* ignored */
    b.in.bwd[0] = W1(0x44); /* ignored: bq input not live yet */
    step(&b);
    OUTS(&b, .f[2] = W1(0x03)); /* cycle 4: CHECKSUM */
    PORT(&b, 2, S_REVERSE, 0, 2, 2, 0x03);
    b.in.bwd[0] = W1(0x21);
    step(&b);
    OUTS(&b, .f[2] = W1(0x21)); /* cycle 5 */
    b.in.bwd[0] = HOLD;
    step(&b);
    OUTS(&b, .f[2] = HOLD); /* cycle 6 */
    b.in.bwd[0] = TURN;
    step(&b);
    OUTS(&b, .f[2] = TURN, .b[0] = HOLD); /* cycle 7 */
    PORT(&b, 2, S_HOLD, 0, 2, 2, 0x03);
    b.in.fwd[2] = DROP; /* ignored */
    b.in.bwd[0] = DROP; /* ignored */
    step(&b);
    OUTS(&b, .b[0] = HOLD); /* cycle 8 */
    PORT(&b, 2, S_FORWARD, 0, 2, 2, 0x03);
    REG(&b, 0x02, 0x01);
    b.in.fwd[2] = W1(0x08);
    step(&b);
    OUTS(&b, .b[0] = W1(0x08)); /* cycle 9 */
    PORT(&b, 2, S_FORWARD, 0, 2, 3, 0x0B);
    b.in.fwd[2] = TURN;
    step(&b);
    OUTS(&b, .b[0] = TURN, .f[2] = W1(0x83)); /* cycle 10: STATUS 10 / 3 */
    PORT(&b, 2, S_STATUS, 0, 2, 3, 0x0B);
    step(&b);
    OUTS(&b, .f[2] = W1(0x0B)); /* cycle 11: the held DROP on b0 is live */
    PORT(&b, 2, S_REVERSE, 0, 2, 3, 0x0B);
    step(&b);
    OUTS(&b, .f[2] = DROP); /* cycle 12 */
    PORT(&b, 2, S_IDLE, 0, 2, 3, 0x0B);
    REG(&b, 0x02, 0);
    REG(&b, 0x01, 0);
    step(&b);
    NOUT(&b);
}

/* ---- rn1.md section 4: SWALLOW ----------------------------------------- */

/* The first c=1 word is counted and discarded, HOLD ignored, the next c=1
 * word routes. TURN in SWALLOW: the blocked sequence with disposition 00.
 * DROP in SWALLOW: back to IDLE. Ports without the bit do not swallow. */
static void test_sec4_swallow(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0x08, 0, 0xACE1, 0));
    b.in.fwd[3] = W1(0xC5); /* cycle 0: swallowed */
    b.in.fwd[4] = W1(0x00); /* not swallowed: dir 0, lfsr bit4=0 -> b0 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x00)); /* cycle 1 */
    PORT(&b, 3, S_SWALLOW, 0, 0, 1, 0xC5);
    PORT(&b, 4, S_FORWARD, 0, 2, 1, 0x00);
    b.in.fwd[3] = HOLD;
    b.in.fwd[4] = IDLE;
    step(&b);
    NOUT(&b); /* cycle 2, lfsr 0x7138: bit3=1 */
    PORT(&b, 3, S_SWALLOW, 0, 0, 1, 0xC5);
    REG(&b, 0x02, 0);
    b.in.fwd[3] = W1(0x4A); /* the routing word: dir 1 -> b3 */
    step(&b);
    OUTS(&b, .b[3] = W1(0x4A)); /* cycle 3 */
    PORT(&b, 3, S_FORWARD, 3, 3, 2, 0x8F);
    b.in.fwd[3] = TURN;
    step(&b);
    OUTS(&b, .b[3] = TURN, .f[3] = W1(0xC2)); /* cycle 4: STATUS 11 / 2 */
    step(&b);
    OUTS(&b, .f[3] = W1(0x8F)); /* cycle 5: b3 input IDLE closes */
    PORT(&b, 3, S_REVERSE, 3, 3, 2, 0x8F);
    step(&b);
    NOUT(&b); /* cycle 6 */
    PORT(&b, 3, S_IDLE, 3, 3, 2, 0x8F);
    REG(&b, 0x02, 0);
    b.in.fwd[3] = W1(0x01);
    step(&b);
    NOUT(&b); /* cycle 7: no decision yet, bq/disp of the last one */
    PORT(&b, 3, S_SWALLOW, 3, 3, 1, 0x01);
    b.in.fwd[3] = TURN;
    step(&b);
    OUTS(&b, .f[3] = W1(0x01)); /* cycle 8: STATUS 00 / 1 */
    PORT(&b, 3, S_STATUS, 0, 0, 1, 0x01);
    step(&b);
    OUTS(&b, .f[3] = W1(0x01)); /* cycle 9: CHECKSUM 0x01 */
    PORT(&b, 3, S_CHECKSUM, 0, 0, 1, 0x01);
    step(&b);
    OUTS(&b, .f[3] = DROP); /* cycle 10 */
    PORT(&b, 3, S_DROP, 0, 0, 1, 0x01);
    step(&b);
    NOUT(&b); /* cycle 11 */
    PORT(&b, 3, S_IDLE, 0, 0, 1, 0x01);
    b.in.fwd[3] = W1(0x02);
    step(&b);
    NOUT(&b); /* cycle 12 */
    PORT(&b, 3, S_SWALLOW, 0, 0, 1, 0x02);
    b.in.fwd[3] = DROP;
    step(&b);
    NOUT(&b); /* cycle 13 */
    PORT(&b, 3, S_IDLE, 0, 0, 1, 0x02);
    REG(&b, 0x01, 0);
}

/* ---- rn1.md section 5: rotating order and the free rule ---------------- */

/* In cycle t port (t mod 8) is served first. Direction 0 has one enabled
 * output (b1 disabled), so the port served first wins it. */
static void test_sec5_rotating_order(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0x02, 0xACE1, 0));
    b.in.fwd[0] = W1(0x11); /* cycle 0: order 0,1,..,7: f0 wins */
    b.in.fwd[7] = W1(0x37);
    step(&b);
    OUTS(&b, .b[0] = W1(0x11)); /* cycle 1 */
    PORT(&b, 0, S_FORWARD, 0, 2, 1, 0x11);
    PORT(&b, 7, S_BLOCKED, 0, 0, 1, 0x37);
    b.in.fwd[0] = b.in.fwd[7] = DROP;
    step(&b);
    OUTS(&b, .b[0] = DROP); /* cycle 2 */
    b.in.fwd[0] = b.in.fwd[7] = IDLE;
    step(&b);
    NOUT(&b); /* cycle 3: order 3,4,..,7,0,1,2: f4 before f2 */
    REG(&b, 0x02, 0);
    b.in.fwd[2] = W1(0x02);
    b.in.fwd[4] = W1(0x04);
    step(&b);
    OUTS(&b, .b[0] = W1(0x04)); /* cycle 4 */
    PORT(&b, 4, S_FORWARD, 0, 2, 1, 0x04);
    PORT(&b, 2, S_BLOCKED, 0, 0, 1, 0x02);
    b.in.fwd[2] = b.in.fwd[4] = DROP;
    step(&b);
    OUTS(&b, .b[0] = DROP); /* cycle 5 */
    b.in.fwd[2] = b.in.fwd[4] = IDLE;
    step(&b);
    NOUT(&b); /* cycle 6 */
    step(&b);
    NOUT(&b); /* cycle 7: f7 first */
    b.in.fwd[0] = W1(0x11);
    b.in.fwd[7] = W1(0x37);
    step(&b);
    OUTS(&b, .b[0] = W1(0x37)); /* cycle 8 */
    PORT(&b, 7, S_FORWARD, 0, 2, 1, 0x37);
    PORT(&b, 0, S_BLOCKED, 0, 0, 1, 0x11);

    /* Both outputs free: the later-served port takes what is left, whatever
     * its own lfsr bit says. Cycle 2, lfsr 0x7138: bit1=0, bit6=0. */
    bench_open(&b, t, cfg(0, 0, 0xACE1, 0));
    step(&b);
    step(&b);
    NOUT(&b); /* cycle 2: order 2..7,0,1: f6 before f1 */
    b.in.fwd[1] = W1(0x81);
    b.in.fwd[6] = W1(0x86);
    step(&b);
    OUTS(&b, .b[4] = W1(0x86), .b[5] = W1(0x81)); /* cycle 3 */
    PORT(&b, 6, S_FORWARD, 4, 2, 1, 0x86);
    PORT(&b, 1, S_FORWARD, 5, 3, 1, 0x81);
    REG(&b, 0x02, 0x30);
}

/* An output freed in cycle t (closing word on a live input, forward DROP or
 * reverse DROP) can be chosen from t+1, never in t. */
static void test_sec5_free_rule(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0x02, 0xACE1, 0)); /* dir 0: b0 only */
    b.in.fwd[0] = W1(0x00);
    step(&b);
    OUTS(&b, .b[0] = W1(0x00)); /* cycle 1 */
    b.in.fwd[0] = W1(0x3A);
    step(&b);
    OUTS(&b, .b[0] = W1(0x3A)); /* cycle 2 */
    b.in.fwd[0] = DROP;         /* frees b0 now */
    b.in.fwd[1] = W1(0x01);     /* so f1 is blocked */
    step(&b);
    OUTS(&b, .b[0] = DROP); /* cycle 3 */
    REG(&b, 0x02, 0);
    PORT(&b, 0, S_IDLE, 0, 2, 2, 0x3A);
    PORT(&b, 1, S_BLOCKED, 0, 0, 1, 0x01);
    b.in.fwd[0] = IDLE;
    b.in.fwd[1] = DROP;
    b.in.fwd[2] = W1(0x02); /* one cycle later: b0 is free */
    step(&b);
    OUTS(&b, .b[0] = W1(0x02)); /* cycle 4 */
    REG(&b, 0x02, 0x01);
    PORT(&b, 1, S_IDLE, 0, 0, 1, 0x01);
    PORT(&b, 2, S_FORWARD, 0, 2, 1, 0x02);
    b.in.fwd[2] = TURN;
    step(&b);
    OUTS(&b, .b[0] = TURN, .f[2] = W1(0x81)); /* cycle 5 */
    step(&b);
    OUTS(&b, .f[2] = W1(0x02)); /* cycle 6: REVERSE */
    b.in.bwd[0] = DROP;         /* frees b0 now */
    b.in.fwd[3] = W1(0x03);     /* so f3 is blocked */
    step(&b);
    OUTS(&b, .f[2] = DROP); /* cycle 7 */
    REG(&b, 0x02, 0);
    PORT(&b, 3, S_BLOCKED, 0, 0, 1, 0x03);
    b.in.fwd[4] = W1(0x04);
    step(&b);
    OUTS(&b, .b[0] = W1(0x04)); /* cycle 8 */
    PORT(&b, 4, S_FORWARD, 0, 2, 1, 0x04);
    REG(&b, 0x02, 0x01);
}

/* ---- rn1.md section 2: invalid control words ---------------------------- */

/* c=0 with d outside {00,55,AA,FF} on a live input acts as DROP, is never
 * forwarded and counts one error per live input per cycle. Ignored inputs
 * (unallocated b, in during STATUS, bq outside REVERSE) do not count. */
static void test_sec2_invalid_words(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0xFE, 0xACE1, 0)); /* only b0 enabled */
    b.in.fwd[0] = 0x012;                        /* cycle 0: two invalid on IDLE ports */
    b.in.fwd[1] = 0x0AB;
    b.in.fwd[2] = HOLD;  /* valid */
    b.in.fwd[3] = TURN;  /* valid */
    b.in.bwd[5] = 0x033; /* unallocated: ignored throughout */
    b.in.bwd[0] = 0x044; /* ignored until f0 is in REVERSE */
    step(&b);
    NOUT(&b); /* cycle 1 */
    REG(&b, 0x01, 2);
    b.in.fwd[0] = W1(0x00);
    step(&b);
    OUTS(&b, .b[0] = W1(0x00)); /* cycle 2 */
    REG(&b, 0x01, 3);
    b.in.fwd[0] = 0x0F0; /* in FORWARD: DROP leaves, not the word */
    b.in.fwd[1] = IDLE;
    step(&b);
    OUTS(&b, .b[0] = DROP); /* cycle 3 */
    REG(&b, 0x01, 4);
    REG(&b, 0x02, 0);
    PORT(&b, 0, S_IDLE, 0, 2, 1, 0x00);
    b.in.fwd[0] = W1(0x00);
    step(&b);
    OUTS(&b, .b[0] = W1(0x00)); /* cycle 4 */
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .b[0] = TURN, .f[0] = W1(0x81)); /* cycle 5 */
    b.in.fwd[0] = 0x011;                      /* ignored in STATUS and REVERSE */
    b.in.bwd[0] = 0x022;                      /* ignored now, live at 6 */
    step(&b);
    OUTS(&b, .f[0] = W1(0x00)); /* cycle 6 */
    REG(&b, 0x01, 4);
    PORT(&b, 0, S_REVERSE, 0, 2, 1, 0x00);
    step(&b);
    OUTS(&b, .f[0] = DROP); /* cycle 7: reverse invalid leaves as DROP */
    REG(&b, 0x01, 5);
    REG(&b, 0x02, 0);
    PORT(&b, 0, S_IDLE, 0, 2, 1, 0x00);
    step(&b); /* f0 is live again and still carries 0x011 */
    NOUT(&b); /* cycle 8 */
    REG(&b, 0x01, 6);
    b.in.fwd[0] = IDLE;
    b.in.fwd[4] = W1(0x40); /* dir 1: b2, b3 disabled */
    step(&b);
    NOUT(&b); /* cycle 9 */
    PORT(&b, 4, S_BLOCKED, 0, 1, 1, 0x40);
    b.in.fwd[4] = 0x001;
    step(&b);
    NOUT(&b); /* cycle 10 */
    REG(&b, 0x01, 7);
    PORT(&b, 4, S_IDLE, 0, 1, 1, 0x40);
    step(&b);
    REG(&b, 0x01, 8); /* cycle 11 */
}

/* The error counter is 16 bits and saturates at 0xFFFF; reset clears it. */
static void test_sec2_error_counter_saturates(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0, 0xACE1, 0));
    for (unsigned p = 0; p < RN1_PORTS; p++)
        b.in.fwd[p] = 0x001;
    for (unsigned i = 0; i < 8191; i++)
        step(&b);
    REG(&b, 0x01, 0xFFF8); /* 8 x 8191 */
    for (unsigned p = 3; p < RN1_PORTS; p++)
        b.in.fwd[p] = IDLE;
    step(&b);
    REG(&b, 0x01, 0xFFFB);
    for (unsigned p = 3; p < RN1_PORTS; p++)
        b.in.fwd[p] = 0x001;
    step(&b);
    REG(&b, 0x01, 0xFFFF);
    for (unsigned i = 0; i < 8; i++)
        step(&b);
    REG(&b, 0x01, 0xFFFF);
    NOUT(&b);
    bench_reset(&b, cfg(0, 0, 0xACE1, 0), 0x1F);
    REG(&b, 0x01, 0);
}

/* ---- rn1.md section 2: counted words ------------------------------------ */

/* The count is mod 64; STATUS shows it, CHECKSUM the XOR of all 70 words. */
static void test_sec2_count_wraps_mod_64(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0xFE, 0xACE1, 0));
    b.in.fwd[0] = W1(0x00); /* cycle 0: dir 0 -> b0 */
    step(&b);
    for (long c = 1; c <= 69; c++) {
        OUTS(&b, .b[0] = c == 1 ? W1(0x00) : W1(0x3C));
        if (c == 64) /* 64 words so far: count 0, 63 x 0x3C */
            PORT(&b, 0, S_FORWARD, 0, 2, 0, 0x3C);
        if (c == 65)
            PORT(&b, 0, S_FORWARD, 0, 2, 1, 0x00);
        b.in.fwd[0] = W1(0x3C);
        step(&b);
    }
    OUTS(&b, .b[0] = W1(0x3C)); /* cycle 70 */
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .b[0] = TURN, .f[0] = W1(0x86)); /* cycle 71: 70 mod 64 = 6 */
    PORT(&b, 0, S_STATUS, 0, 2, 6, 0x3C);
    step(&b);
    OUTS(&b, .f[0] = W1(0x3C)); /* cycle 72 */
}

/* ---- rn1.md section 8: configuration written during operation ----------- */

/* A write in cycle N governs from N+1: disable and mode govern decisions,
 * open connections keep their outputs; swallow governs connections opening
 * from N+1; a seed write makes the LFSR hold the new seed (0xACE1 for 0)
 * during N+1. Other writes do not disturb the LFSR; RO writes are ignored. */
static void test_sec8_config_written_mid_run(tally_t *t)
{
    bench_t b;
    bench_open(&b, t, cfg(0, 0, 0xACE1, 0));
    NOUT(&b); /* cycle 0 */
    REG(&b, 0x00, 0xACE10000);
    b.in.fwd[1] = W1(0x00);             /* decided with the old disable: bit1=0 -> b0 */
    step_write(&b, 0x00, 0x0100, 0x02); /* disable b0 */
    OUTS(&b, .b[0] = W1(0x00));         /* cycle 1, lfsr 0xE270: bit3=0 */
    REG(&b, 0x00, 0xACE10100);
    REG(&b, 0x03, 0xE270);
    b.in.fwd[1] = W1(0x05); /* f1 keeps b0 although it is now disabled */
    b.in.fwd[2] = W1(0x00); /* dir 0: b0 busy -> b1 */
    b.in.fwd[3] = W1(0x40); /* dir 1 -> b2 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x05), .b[1] = W1(0x00), .b[2] = W1(0x40)); /* 2 */
    REG(&b, 0x02, 0x07);
    PORT(&b, 2, S_FORWARD, 1, 3, 1, 0x00);
    PORT(&b, 3, S_FORWARD, 2, 2, 1, 0x40);
    b.in.fwd[5] = W1(0x00);                        /* still dilated now: b0, b1 busy -> 00 */
    step_write(&b, 0x00, (uint64_t)1 << 32, 0x10); /* mode dual */
    OUTS(&b, .b[0] = W1(0x05), .b[1] = W1(0x00), .b[2] = W1(0x40)); /* 3 */
    PORT(&b, 5, S_BLOCKED, 0, 0, 1, 0x00);
    REG(&b, 0x00, 0x1ACE10100);
    REG(&b, 0x03, 0x389C);
    b.in.fwd[5] = DROP;
    b.in.fwd[6] = W1(0x00); /* dual now: f6 dir 0 -> b4 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x05), .b[1] = W1(0x00), .b[2] = W1(0x40), .b[4] = W1(0x00)); /* cycle 4 */
    PORT(&b, 6, S_FORWARD, 4, 2, 1, 0x00);
    PORT(&b, 5, S_IDLE, 0, 0, 1, 0x00);
    REG(&b, 0x02, 0x17);
    b.in.fwd[7] = W1(0xC0);           /* opens before the swallow write: -> b7 */
    step_write(&b, 0x00, 0x80, 0x01); /* swallow f7 */
    OUTS(&b, .b[0] = W1(0x05), .b[1] = W1(0x00), .b[2] = W1(0x40), .b[4] = W1(0x00),
         .b[7] = W1(0xC0)); /* cycle 5 */
    PORT(&b, 7, S_FORWARD, 7, 2, 1, 0xC0);
    REG(&b, 0x00, 0x1ACE10180);
    REG(&b, 0x03, 0x0E27);
    b.in.fwd[7] = DROP;
    step(&b);
    OUTS(&b, .b[0] = W1(0x05), .b[1] = W1(0x00), .b[2] = W1(0x40), .b[4] = W1(0x00),
         .b[7] = DROP);     /* cycle 6 */
    b.in.fwd[7] = W1(0xC0); /* swallowed now */
    step(&b);
    outs_t k = {.b[0] = W1(0x05), .b[1] = W1(0x00), .b[2] = W1(0x40), .b[4] = W1(0x00)};
    check_outs(&b, __FILE__, __LINE__, k); /* cycle 7 */
    PORT(&b, 7, S_SWALLOW, 7, 2, 1, 0xC0);
    REG(&b, 0x03, 0xED89);
    step_write(&b, 0x00, (uint64_t)0x1234 << 16, 0x0C); /* seed */
    k.b[7] = W1(0xC0);                     /* f7's held word was its routing word: -> b7 */
    check_outs(&b, __FILE__, __LINE__, k); /* cycle 8 */
    PORT(&b, 7, S_FORWARD, 7, 2, 2, 0x00);
    REG(&b, 0x03, 0x1234);
    REG(&b, 0x00, 0x112340180);
    step(&b);
    REG(&b, 0x03, 0x091A); /* cycle 9 */
    step(&b);
    REG(&b, 0x03, 0x048D);         /* cycle 10 */
    step_write(&b, 0x00, 0, 0x0C); /* zero seed */
    REG(&b, 0x03, 0xACE1);         /* cycle 11 */
    REG(&b, 0x00, 0x100000180);
    step_write(&b, 0x00, (uint64_t)0x56 << 16, 0x04); /* low seed byte */
    REG(&b, 0x03, 0x0056);                            /* cycle 12 */
    REG(&b, 0x00, 0x100560180);
    step_write(&b, 0x01, 0xFFFF, 0xFF); /* ERRORS is read-only */
    REG(&b, 0x01, 0);                   /* cycle 13 */
    REG(&b, 0x03, 0x002B);
    step_write(&b, 0x05, ~(uint64_t)0, 0xFF); /* unmapped */
    step_write(&b, 0x10, ~(uint64_t)0, 0xFF); /* PORT0 is read-only */
    REG(&b, 0x05, 0);                         /* cycle 15 */
    PORT(&b, 0, S_IDLE, 0, 0, 0, 0);
    REG(&b, 0x00, 0x100560180);
    REG(&b, 0x03, 0xEE0A); /* 0x002B -> 0xB415 -> 0xEE0A */
    check_outs(&b, __FILE__, __LINE__, k);
    step_write(&b, 0x00, (uint64_t)0x12 << 24, 0x08); /* high seed byte */
    REG(&b, 0x03, 0x1256);                            /* cycle 16 */
    REG(&b, 0x00, 0x112560180);
    check_outs(&b, __FILE__, __LINE__, k);
}

/* ---- rn1.md: reset and configuration during reset ----------------------- */

/* A reset edge without a write loads the defaults, one with a write does the
 * write and keeps every other configuration bit; the LFSR loads the
 * effective seed at every reset edge; reset clears ports, outputs, alloc,
 * errors and the rotation (port 0 first in cycle 0). */
static void test_rn1md_reset_and_config(tally_t *t)
{
    bench_t b;
    memset(&b, 0, sizeof b);
    b.t = t;
    rn1_init(&b.m);
    NOUT(&b);
    REG(&b, 0x00, 0xACE10000);
    REG(&b, 0x01, 0);
    REG(&b, 0x02, 0);
    REG(&b, 0x03, 0xACE1);
    REG(&b, 0x04, 0x524E3101);
    REG(&b, 0x05, 0);
    REG(&b, 0x18, 0);
    REG(&b, 0xFF, 0);
    b.in.rst_n = true;      /* run three cycles from rn1_init */
    b.in.fwd[0] = W1(0x00); /* lfsr bit0=1 -> b1 */
    b.in.fwd[1] = 0x001;
    step(&b);
    step(&b);
    step(&b);
    OUTS(&b, .b[1] = W1(0x00)); /* cycle 3 */
    REG(&b, 0x02, 0x02);
    REG(&b, 0x01, 3);
    memset(&b.in, 0, sizeof b.in); /* rst_n low, no write */
    step(&b);
    NOUT(&b);
    REG(&b, 0x00, 0xACE10000);
    REG(&b, 0x02, 0);
    REG(&b, 0x01, 0);
    REG(&b, 0x03, 0xACE1);
    PORT(&b, 0, S_IDLE, 0, 0, 0, 0);
    step(&b);
    step_write(&b, 0x00, cfg(0x01, 0xC0, 0xBEEF, 1), 0x1F);
    REG(&b, 0x00, 0x1BEEFC001);
    REG(&b, 0x03, 0xBEEF); /* held at the seed during reset */
    b.in.rst_n = true;
    b.cycle = 0;
    NOUT(&b);               /* cycle 0 */
    b.in.fwd[0] = W1(0x00); /* swallowed */
    b.in.fwd[2] = W1(0x80); /* dual, dir 2 -> b2: f2 before f3 */
    b.in.fwd[3] = W1(0x81);
    b.in.fwd[5] = W1(0x40); /* -> b5 */
    b.in.fwd[6] = W1(0xC0); /* -> b7, disabled: 01 */
    step(&b);
    OUTS(&b, .b[2] = W1(0x80), .b[5] = W1(0x40)); /* cycle 1 */
    PORT(&b, 0, S_SWALLOW, 0, 0, 1, 0x00);
    PORT(&b, 2, S_FORWARD, 2, 2, 1, 0x80);
    PORT(&b, 3, S_BLOCKED, 0, 0, 1, 0x81);
    PORT(&b, 5, S_FORWARD, 5, 2, 1, 0x40);
    PORT(&b, 6, S_BLOCKED, 0, 1, 1, 0xC0);
    REG(&b, 0x03, 0xEB77);
    REG(&b, 0x01, 0);

    memset(&b.in, 0, sizeof b.in);
    step(&b); /* reset, no write: defaults */
    NOUT(&b);
    REG(&b, 0x00, 0xACE10000);
    REG(&b, 0x02, 0);
    PORT(&b, 2, S_IDLE, 0, 0, 0, 0);
    step_write(&b, 0x00, 0x5500, 0x02);
    REG(&b, 0x00, 0xACE15500);
    REG(&b, 0x03, 0xACE1);
    step_write(&b, 0x01, ~(uint64_t)0, 0xFF); /* RO: config kept */
    REG(&b, 0x00, 0xACE15500);
    step_write(&b, 0x00, 0, 0x0C); /* zero seed */
    REG(&b, 0x00, 0x00005500);
    REG(&b, 0x03, 0xACE1);
    step_write(&b, 0x00, (uint64_t)0x03 << 16, 0x04);
    REG(&b, 0x00, 0x00035500);
    REG(&b, 0x03, 0x0003);
    step_write(&b, 0x00, ~(uint64_t)0, 0xFF); /* unused bits read 0 */
    REG(&b, 0x00, 0x00000101FFFFFFFF);
    REG(&b, 0x03, 0xFFFF);
    b.in.rst_n = true;
    b.cycle = 0;
    REG(&b, 0x03, 0xFFFF); /* cycle 0 */
    step(&b);
    REG(&b, 0x03, 0xCBFF); /* cycle 1 */
}

/* ---- rn1.md section 5: allocation invariants under random traffic ------- */

static uint32_t xorshift32(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Random word biased toward the interesting ones (seeded, reproducible). */
static uint16_t random_word(uint32_t *s)
{
    static const uint16_t ctl[6] = {IDLE, TURN, HOLD, DROP, 0x012, IDLE};
    uint32_t r = xorshift32(s);
    if (r & 1u)
        return (uint16_t)W1(r >> 8 & 0xFFu);
    return ctl[(r >> 8) % 6u];
}

/* alloc is exactly the set of bq held by ports whose connection is routed
 * and open (FORWARD, STATUS of a routed connection, REVERSE, HOLD), no
 * backward port is held by two ports, and every state code is at most
 * max_state (S_DROP without the backward channel, S_DISCARD with it).
 * Returns false, after checking (and so reporting) each, if not. */
static bool alloc_invariant_holds(bench_t *b, unsigned max_state)
{
    unsigned held = 0, twice = 0, bad_state = 0;
    for (unsigned p = 0; p < RN1_PORTS; p++) {
        uint64_t w = rn1_reg_read(&b->m, (uint8_t)(0x10 + p));
        unsigned st = (unsigned)(w & 0xF), bq = (unsigned)(w >> 4 & 7);
        bool routed = (w >> 9 & 1) != 0; /* disp 1x */
        bad_state += st > max_state;
        if (st == S_FORWARD || (st == S_STATUS && routed) || st == S_REVERSE || st == S_HOLD) {
            twice += held >> bq & 1u;
            held |= 1u << bq;
        }
    }
    if (rn1_reg_read(&b->m, 0x02) == held && !twice && !bad_state)
        return true;
    CHECK(b, "alloc vs ports' bq", rn1_reg_read(&b->m, 0x02), held);
    CHECK(b, "backward port held twice", twice, 0);
    CHECK(b, "undefined state code", bad_state, 0);
    return false;
}

static void test_sec5_allocation_invariants_random(tally_t *t)
{
    uint32_t seed = 0x2545F491u;
    long c;
    bench_t b;
    const uint32_t seed0 = seed;
    bench_open(&b, t, cfg(0x21, 0x10, 0x1D0F, 0));
    for (c = 0; c < 20000 && alloc_invariant_holds(&b, S_DROP); c++) {
        for (unsigned i = 0; i < RN1_PORTS; i++) {
            if (xorshift32(&seed) % 4u == 0)
                b.in.fwd[i] = random_word(&seed);
            if (xorshift32(&seed) % 4u == 0)
                b.in.bwd[i] = random_word(&seed);
        }
        if (c == 10000) /* half way through: dual mode, other disables */
            step_write(&b, 0x00, cfg(0x21, 0x81, 0x1D0F, 1), 0x13);
        else
            step(&b);
    }
    if (c < 20000) /* a failure names its seed, so it can be replayed */
        printf("%s:%d: random traffic seed 0x%08" PRIx32 "\n", __FILE__, __LINE__, seed0);
    CHECK(&b, "cycles with the allocation invariants", c, 20000);
}

/* ---- rn1.md section 7: the backward channel ------------------------------ */

/* armed (PORT bit 12) is 1 during cycle u exactly when the port was in
 * FORWARD, STATUS, REVERSE or HOLD during u-1, whatever backchan is: here
 * with backchan 0, through a routed connection (both TURNs) and a blocked
 * one. bc outputs stay 0 with backchan 0 although b0 is the only output. */
static void test_rn1md_armed(tally_t *t)
{
    /* state during cycles 0..12 of f0, and its armed bit */
    static const unsigned st[13] = {S_IDLE,    S_FORWARD, S_FORWARD, S_STATUS, S_REVERSE,
                                    S_REVERSE, S_HOLD,    S_FORWARD, S_IDLE,   S_IDLE,
                                    S_BLOCKED, S_STATUS,  S_CHECKSUM};
    static const unsigned armed[13] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1};
    bench_t b;
    bench_open(&b, t, cfg(0, 0xFE, 0xACE1, 0)); /* only b0 enabled */
    for (unsigned c = 0; c < 13; c++) {
        CHECK(&b, "f0 state", rn1_reg_read(&b.m, 0x10) & 0xF, st[c]);
        ARMED(&b, 0, armed[c]);
        CHECK(&b, "bc outputs", rn1_fwd_bc_out(&b.m), 0);
        b.in.bwd_bc = 0xFF; /* ignored: backchan 0 */
        switch (c) {
        case 0: b.in.fwd[0] = W1(0x00); break; /* -> b0 */
        case 1: b.in.fwd[0] = W1(0x01); break;
        case 2: b.in.fwd[0] = TURN; break;     /* STATUS at 3 */
        case 4: b.in.bwd[0] = W1(0x02); break; /* REVERSE live */
        case 5: b.in.bwd[0] = TURN; break;     /* HOLD at 6 */
        case 6: b.in.fwd[0] = DROP; break;     /* live at 7 */
        case 8:
            b.in.fwd[0] = IDLE;
            b.in.fwd[1] = W1(0x00);
            break;
        case 9:
            b.in.fwd[0] = W1(0x03);
            b.in.fwd[1] = W1(0x04);
            break;
        case 10: b.in.fwd[0] = TURN; break; /* blocked: 00 */
        default: break;
        }
        step(&b);
    }
    PORT(&b, 0, S_DROP, 0, 0, 1, 0x03); /* cycle 13 */
    ARMED(&b, 0, 0);
    step(&b);
    PORT(&b, 0, S_IDLE, 0, 0, 1, 0x03); /* cycle 14 */
    ARMED(&b, 0, 0);
    REG(&b, 0x01, 0);
}

/* Busy hint, dilated: bc of an IDLE port during c+1 is 1 when fewer than
 * two of the router's 8 backward ports are free after cycle c (allocated
 * after the grants and frees of c, disabled by the disable in force in c);
 * 0 in cycle 0, 0 for a port not IDLE in c+1. */
static void test_sec7_busy_hint_dilated(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0xFC, 0xACE1, 0, 1)); /* b0, b1 enabled */
    OUTS(&b, .bc = 0);                                 /* cycle 0: 0 after reset */
    REG(&b, 0x00, 0x100ACE1FC00ull);
    b.in.fwd[5] = W1(0x00); /* dir 0, lfsr bit5=1 -> b1 */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00), .bc = 0xDF); /* cycle 1: b0 only free; f5 */
    PORT(&b, 5, S_FORWARD, 1, 3, 1, 0x00);
    b.in.fwd[5] = DROP; /* frees b1 now */
    step(&b);
    OUTS(&b, .b[1] = DROP, .bc = 0); /* cycle 2: b0, b1 free */
    PORT(&b, 5, S_IDLE, 1, 3, 1, 0x00);
    b.in.fwd[5] = IDLE;
    step_write(&b, 0x00, 0xFE00, 0x02); /* disable b1 from cycle 3 */
    OUTS(&b, .bc = 0);                  /* cycle 3: hint of cycle 2 under the old disable */
    step(&b);
    OUTS(&b, .bc = 0xFF); /* cycle 4: b0 the only one free */
    step(&b);
    OUTS(&b, .bc = 0xFF); /* cycle 5 */
}

/* Busy hint, dual: counted over the port's half (f0..f3: b0..b3, f4..f7:
 * b4..b7) under the mode in force in cycle c. */
static void test_sec7_busy_hint_dual(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 1, 1));
    OUTS(&b, .bc = 0);      /* cycle 0 */
    b.in.fwd[0] = W1(0x00); /* -> b0 */
    b.in.fwd[1] = W1(0x40); /* -> b1 */
    b.in.fwd[2] = W1(0x80); /* -> b2 */
    b.in.fwd[4] = W1(0x00); /* -> b4 */
    step(&b);
    /* cycle 1: low half b3 free only -> f3; high half 3 free -> 0 */
    OUTS(&b, .b[0] = W1(0x00), .b[1] = W1(0x40), .b[2] = W1(0x80), .b[4] = W1(0x00), .bc = 0x08);
    REG(&b, 0x02, 0x17);
    b.in.fwd[0] = b.in.fwd[1] = b.in.fwd[2] = b.in.fwd[4] = HOLD;
    b.in.fwd[5] = W1(0x40); /* -> b5 */
    b.in.fwd[6] = W1(0x80); /* -> b6 */
    step(&b);
    /* cycle 2: high half b7 free only -> f7 too */
    OUTS(&b, .b[0] = HOLD, .b[1] = HOLD, .b[2] = HOLD, .b[4] = HOLD, .b[5] = W1(0x40),
         .b[6] = W1(0x80), .bc = 0x88);
    b.in.fwd[5] = b.in.fwd[6] = HOLD;
    step_write(&b, 0x00, 0, 0x10); /* mode dilated from cycle 3 */
    outs_t k = {.b = {HOLD, HOLD, HOLD, IDLE, HOLD, HOLD, HOLD, IDLE}, .bc = 0x88};
    check_outs(&b, __FILE__, __LINE__, k); /* cycle 3: still dual terms */
    REG(&b, 0x02, 0x77);
    step(&b);
    k.bc = 0; /* cycle 4: dilated, b3 and b7 free: two */
    check_outs(&b, __FILE__, __LINE__, k);
}

/* Choice bias: two free outputs, exactly one with bc 1 in the deciding
 * cycle -> the other; both 1 or both 0 -> lfsr[p]; one free -> that one
 * whatever its bc. Cycle 0, lfsr 0xACE1: bit0=1 bit1=0 bit3=0 bit5=1. */
static void test_sec7_choice_bias(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 0, 1));
    b.in.fwd[0] = W1(0x00); /* dir 0: bc b1 only -> b0 (lfsr: b1) */
    b.in.fwd[1] = W1(0x40); /* dir 1: bc b2 only -> b3 (lfsr: b2) */
    b.in.fwd[5] = W1(0x80); /* dir 2: both bc 1 -> lfsr bit5=1 -> b5 */
    b.in.fwd[3] = W1(0xC0); /* dir 3: both bc 0 -> lfsr bit3=0 -> b6 */
    b.in.bwd_bc = 0x36;     /* b1, b2, b4, b5 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x00), .b[3] = W1(0x40), .b[5] = W1(0x80), .b[6] = W1(0xC0)); /* cycle 1 */
    PORT(&b, 0, S_FORWARD, 0, 2, 1, 0x00);
    PORT(&b, 1, S_FORWARD, 3, 3, 1, 0x40);
    PORT(&b, 5, S_FORWARD, 5, 3, 1, 0x80);
    PORT(&b, 3, S_FORWARD, 6, 2, 1, 0xC0);
    REG(&b, 0x02, 0x69);
    b.in.fwd[0] = b.in.fwd[1] = b.in.fwd[3] = b.in.fwd[5] = HOLD;
    b.in.fwd[2] = W1(0x00); /* dir 0: b1 the only free one, bc 1 */
    b.in.bwd_bc = 0x02;     /* (no port is armed on b1) */
    step(&b);
    OUTS(&b, .b[0] = HOLD, .b[1] = W1(0x00), .b[3] = HOLD, .b[5] = HOLD,
         .b[6] = HOLD); /* cycle 2 */
    PORT(&b, 2, S_FORWARD, 1, 3, 1, 0x00);
    REG(&b, 0x02, 0x6B);
}

/* A drop request (bc of bq) in the first FORWARD cycle is ignored (armed
 * 0: it is still the busy hint) and honoured from the next. Backward drop
 * in FORWARD at u: the word on in is ignored (not counted), out IDLE and
 * bq IDLE at u+1, bq freed at u (a later-served port cannot take it at u,
 * any port can at u+1), the port in DISCARD from u+1, bc 1 during u+1. */
static void test_sec7_drop_from_forward(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 0, 1));
    NOUT(&b);               /* cycle 0 */
    b.in.fwd[0] = W1(0x00); /* dir 0, lfsr bit0=1 -> b1 */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00)); /* cycle 1: first FORWARD */
    PORT(&b, 0, S_FORWARD, 1, 3, 1, 0x00);
    ARMED(&b, 0, 0);
    b.in.fwd[0] = W1(0x11);
    b.in.bwd_bc = 0x02; /* not a drop request yet */
    step(&b);
    OUTS(&b, .b[1] = W1(0x11)); /* cycle 2 */
    PORT(&b, 0, S_FORWARD, 1, 3, 2, 0x11);
    ARMED(&b, 0, 1);
    REG(&b, 0x02, 0x02);
    b.in.fwd[0] = W1(0x22); /* ignored: the drop wins */
    b.in.fwd[2] = W1(0x00); /* order 2..7,0,1: f2 takes b0 */
    b.in.fwd[1] = W1(0x01); /* b1 freed now, not free: collapses */
    step(&b);
    OUTS(&b, .b[0] = W1(0x00), .bc = 0x03); /* cycle 3 */
    PORT(&b, 0, S_DISCARD, 1, 3, 2, 0x11);
    ARMED(&b, 0, 1);
    PORT(&b, 1, S_DISCARD, 0, 0, 1, 0x01);
    PORT(&b, 2, S_FORWARD, 0, 2, 1, 0x00);
    REG(&b, 0x02, 0x01);
    REG(&b, 0x01, 0);
    b.in.fwd[1] = IDLE;
    b.in.fwd[2] = HOLD;
    b.in.fwd[3] = W1(0x02); /* dir 0: b1 free again, the only one */
    b.in.bwd_bc = 0;
    step(&b);
    OUTS(&b, .b[0] = HOLD, .b[1] = W1(0x02)); /* cycle 4: pulses over */
    PORT(&b, 0, S_DISCARD, 1, 3, 2, 0x11);    /* W1(0x22) discarded */
    ARMED(&b, 0, 0);
    PORT(&b, 1, S_IDLE, 0, 0, 1, 0x01);
    PORT(&b, 3, S_FORWARD, 1, 3, 1, 0x02);
    REG(&b, 0x02, 0x03);
    b.in.fwd[0] = IDLE; /* the source closes */
    step(&b);
    OUTS(&b, .b[0] = HOLD, .b[1] = W1(0x02)); /* cycle 5 */
    PORT(&b, 0, S_IDLE, 1, 3, 2, 0x11);
    REG(&b, 0x01, 0);
}

/* Backward drop in HOLD (after the reverse TURN): bq carries IDLE, not the
 * second HOLD; out IDLE; DISCARD; bc 1 for one cycle. */
static void test_sec7_drop_from_hold(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 0, 1));
    b.in.fwd[0] = W1(0x00); /* cycle 0: -> b1 */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00)); /* cycle 1 */
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .b[1] = TURN, .f[0] = W1(0xC1)); /* cycle 2: STATUS 11 / 1 */
    b.in.fwd[0] = W1(0x33);                   /* ignored until DISCARD */
    b.in.bwd[1] = TURN;                       /* live at 3 */
    step(&b);
    OUTS(&b, .f[0] = W1(0x00)); /* cycle 3: CHECKSUM */
    PORT(&b, 0, S_REVERSE, 1, 3, 1, 0x00);
    step(&b);
    OUTS(&b, .f[0] = TURN, .b[1] = HOLD); /* cycle 4 */
    PORT(&b, 0, S_HOLD, 1, 3, 1, 0x00);
    ARMED(&b, 0, 1);
    b.in.bwd_bc = 0x02;
    step(&b);
    OUTS(&b, .bc = 0x01); /* cycle 5: no second HOLD on b1 */
    PORT(&b, 0, S_DISCARD, 1, 3, 1, 0x00);
    REG(&b, 0x02, 0);
    step(&b); /* W1(0x33) on f0: discarded, not counted */
    NOUT(&b); /* cycle 6 */
    PORT(&b, 0, S_DISCARD, 1, 3, 1, 0x00);
    b.in.fwd[0] = DROP;
    step(&b);
    NOUT(&b); /* cycle 7 */
    PORT(&b, 0, S_IDLE, 1, 3, 1, 0x00);
    REG(&b, 0x01, 0);
}

/* Backward drop in STATUS: DROP on out in place of the CHECKSUM, bq IDLE,
 * port IDLE from u+1, bc 1 during u+1 only. */
static void test_sec7_drop_from_status(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 0, 1));
    b.in.fwd[0] = W1(0x00); /* cycle 0: -> b1 */
    step(&b);
    b.in.fwd[0] = W1(0x3C);
    step(&b);
    OUTS(&b, .b[1] = W1(0x3C)); /* cycle 2 */
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .b[1] = TURN, .f[0] = W1(0xC2)); /* cycle 3: STATUS 11 / 2 */
    PORT(&b, 0, S_STATUS, 1, 3, 2, 0x3C);
    ARMED(&b, 0, 1);
    b.in.bwd_bc = 0x02;
    step(&b);
    OUTS(&b, .f[0] = DROP, .bc = 0x01); /* cycle 4: no CHECKSUM */
    PORT(&b, 0, S_IDLE, 1, 3, 2, 0x3C);
    REG(&b, 0x02, 0);
    step(&b); /* TURN on f0 in IDLE, bc of free b1: nothing */
    NOUT(&b); /* cycle 5 */
    PORT(&b, 0, S_IDLE, 1, 3, 2, 0x3C);
    ARMED(&b, 0, 0);
    REG(&b, 0x01, 0);
}

/* Backward drop in REVERSE, winning over a TURN (f0) and an invalid word
 * (f2) on the live bq input: DROP on out, bq IDLE (no HOLD), IDLE from
 * u+1, no error counted. */
static void test_sec7_drop_from_reverse(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 0, 1));
    b.in.fwd[0] = W1(0x00); /* cycle 0: dir 0, bit0=1 -> b1 */
    b.in.fwd[2] = W1(0x40); /* dir 1, bit2=0 -> b2 */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00), .b[2] = W1(0x40)); /* cycle 1 */
    b.in.fwd[0] = b.in.fwd[2] = TURN;
    step(&b);
    OUTS(&b, .b[1] = TURN, .b[2] = TURN, .f[0] = W1(0xC1), .f[2] = W1(0x81)); /* cycle 2 */
    step(&b);
    OUTS(&b, .f[0] = W1(0x00), .f[2] = W1(0x40)); /* cycle 3 */
    PORT(&b, 0, S_REVERSE, 1, 3, 1, 0x00);
    PORT(&b, 2, S_REVERSE, 2, 2, 1, 0x40);
    b.in.bwd[1] = W1(0x44);
    b.in.bwd[2] = HOLD;
    step(&b);
    OUTS(&b, .f[0] = W1(0x44), .f[2] = HOLD); /* cycle 4 */
    ARMED(&b, 0, 1);
    ARMED(&b, 2, 1);
    b.in.bwd[1] = TURN;
    b.in.bwd[2] = 0x0F0;
    b.in.bwd_bc = 0x06;
    step(&b);
    OUTS(&b, .f[0] = DROP, .f[2] = DROP, .bc = 0x05); /* cycle 5 */
    PORT(&b, 0, S_IDLE, 1, 3, 1, 0x00);
    PORT(&b, 2, S_IDLE, 2, 2, 1, 0x40);
    REG(&b, 0x02, 0);
    REG(&b, 0x01, 0);
    step(&b);
    NOUT(&b); /* cycle 6 */
    REG(&b, 0x01, 0);
}

/* The drop wins over TURN (f0), DROP (f2) and an invalid word (f4) on the
 * live forward input: none leaves on bq, no STATUS, no error; all three go
 * to DISCARD, which a TURN then answers with DROP (DROP state, then IDLE)
 * and DROP / an invalid word (counted) leave. */
static void test_sec7_drop_wins_over_in(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0, 0xACE1, 0, 1));
    b.in.fwd[0] = W1(0x00); /* cycle 0: dir 0, bit0=1 -> b1 */
    b.in.fwd[2] = W1(0x40); /* dir 1, bit2=0 -> b2 */
    b.in.fwd[4] = W1(0x80); /* dir 2, bit4=0 -> b4 */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00), .b[2] = W1(0x40), .b[4] = W1(0x80));
    b.in.fwd[0] = b.in.fwd[2] = b.in.fwd[4] = HOLD;
    step(&b);
    OUTS(&b, .b[1] = HOLD, .b[2] = HOLD, .b[4] = HOLD); /* cycle 2 */
    b.in.fwd[0] = TURN;
    b.in.fwd[2] = DROP;
    b.in.fwd[4] = 0x012;
    b.in.bwd_bc = 0x16; /* b1, b2, b4 */
    step(&b);
    OUTS(&b, .bc = 0x15); /* cycle 3 */
    PORT(&b, 0, S_DISCARD, 1, 3, 1, 0x00);
    PORT(&b, 2, S_DISCARD, 2, 2, 1, 0x40);
    PORT(&b, 4, S_DISCARD, 4, 2, 1, 0x80);
    REG(&b, 0x01, 0);
    REG(&b, 0x02, 0);
    step(&b);               /* the same words, now in DISCARD */
    OUTS(&b, .f[0] = DROP); /* cycle 4 */
    PORT(&b, 0, S_DROP, 1, 3, 1, 0x00);
    PORT(&b, 2, S_IDLE, 2, 2, 1, 0x40);
    PORT(&b, 4, S_IDLE, 4, 2, 1, 0x80);
    REG(&b, 0x01, 1);
    step(&b);
    NOUT(&b); /* cycle 5 */
    PORT(&b, 0, S_IDLE, 1, 3, 1, 0x00);
    REG(&b, 0x01, 2); /* f4's invalid word, live in IDLE now */
}

/* Blocked collapses from the head: a routing word finding no free output
 * (in IDLE: f3, disp 01; in SWALLOW: f5) sends the port to DISCARD with bq
 * 0 and the disposition set, bc 1 during the next cycle only. A TURN in
 * SWALLOW (f6) still answers STATUS 00, CHECKSUM, DROP, with bc 0; a drop
 * request is not looked at in CHECKSUM (armed, but not a drop state). */
static void test_sec7_blocked_collapse(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0x60, 0x03, 0xACE1, 0, 1));
    NOUT(&b);               /* cycle 0 */
    b.in.fwd[3] = W1(0x3F); /* dir 0: b0, b1 disabled */
    b.in.fwd[5] = W1(0x11); /* swallowed */
    b.in.fwd[6] = W1(0x22); /* swallowed */
    step(&b);
    OUTS(&b, .bc = 0x08); /* cycle 1 */
    PORT(&b, 3, S_DISCARD, 0, 1, 1, 0x3F);
    ARMED(&b, 3, 0);
    PORT(&b, 5, S_SWALLOW, 0, 0, 1, 0x11);
    PORT(&b, 6, S_SWALLOW, 0, 0, 1, 0x22);
    b.in.fwd[3] = W1(0x01); /* discarded, not counted */
    b.in.fwd[5] = W1(0x05); /* routing word, dir 0: collapses */
    b.in.fwd[6] = TURN;
    step(&b);
    OUTS(&b, .f[6] = W1(0x01), .bc = 0x20); /* cycle 2: STATUS 00 / 1 */
    PORT(&b, 3, S_DISCARD, 0, 1, 1, 0x3F);
    PORT(&b, 5, S_DISCARD, 0, 1, 2, 0x14);
    PORT(&b, 6, S_STATUS, 0, 0, 1, 0x22);
    ARMED(&b, 6, 0);
    b.in.fwd[3] = HOLD;
    b.in.fwd[5] = W1(0x06);
    b.in.fwd[6] = IDLE; /* ignored */
    step(&b);
    OUTS(&b, .f[6] = W1(0x22)); /* cycle 3: CHECKSUM */
    PORT(&b, 3, S_DISCARD, 0, 1, 1, 0x3F);
    PORT(&b, 5, S_DISCARD, 0, 1, 2, 0x14);
    PORT(&b, 6, S_CHECKSUM, 0, 0, 1, 0x22);
    ARMED(&b, 6, 1);
    b.in.fwd[3] = TURN;
    b.in.fwd[5] = IDLE;
    b.in.bwd_bc = 0x01; /* bc of b0 (f6's bq field): not a request */
    step(&b);
    OUTS(&b, .f[3] = DROP, .f[6] = DROP); /* cycle 4 */
    PORT(&b, 3, S_DROP, 0, 1, 1, 0x3F);
    PORT(&b, 5, S_IDLE, 0, 1, 2, 0x14);
    PORT(&b, 6, S_DROP, 0, 0, 1, 0x22);
    b.in.fwd[3] = W1(0x40); /* ignored in DROP, live at 5 */
    b.in.bwd_bc = 0;
    step(&b);
    NOUT(&b); /* cycle 5, lfsr 0x0E27: bit3=0 */
    PORT(&b, 3, S_IDLE, 0, 1, 1, 0x3F);
    PORT(&b, 6, S_IDLE, 0, 0, 1, 0x22);
    step(&b);
    OUTS(&b, .b[2] = W1(0x40)); /* cycle 6: dir 1 -> b2 */
    PORT(&b, 3, S_FORWARD, 2, 2, 1, 0x40);
    REG(&b, 0x01, 0);
}

/* DISCARD: c=1 words and HOLD discarded and uncounted; DROP, IDLE and an
 * invalid word (counted) return to IDLE; TURN puts DROP on out next cycle,
 * DROP state, then IDLE. Every output disabled: every decision collapses
 * (disp 01) and every IDLE port shows the busy hint. */
static void test_sec7_discard(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0xFF, 0xACE1, 0, 1));
    NOUT(&b); /* cycle 0 */
    b.in.fwd[0] = W1(0x01);
    b.in.fwd[1] = W1(0x02);
    b.in.fwd[2] = W1(0x03);
    b.in.fwd[3] = W1(0x04);
    step(&b);
    OUTS(&b, .bc = 0xFF); /* cycle 1: four pulses, four hints */
    PORT(&b, 0, S_DISCARD, 0, 1, 1, 0x01);
    PORT(&b, 3, S_DISCARD, 0, 1, 1, 0x04);
    b.in.fwd[0] = W1(0x10);
    b.in.fwd[1] = HOLD;
    b.in.fwd[2] = W1(0x20);
    b.in.fwd[3] = HOLD;
    step(&b);
    OUTS(&b, .bc = 0xF0); /* cycle 2: DISCARD ports bc 0 */
    PORT(&b, 0, S_DISCARD, 0, 1, 1, 0x01);
    PORT(&b, 1, S_DISCARD, 0, 1, 1, 0x02);
    PORT(&b, 2, S_DISCARD, 0, 1, 1, 0x03);
    PORT(&b, 3, S_DISCARD, 0, 1, 1, 0x04);
    b.in.fwd[0] = DROP;
    b.in.fwd[1] = IDLE;
    b.in.fwd[2] = 0x0A5;
    b.in.fwd[3] = TURN;
    step(&b);
    OUTS(&b, .f[3] = DROP, .bc = 0xF7); /* cycle 3 */
    PORT(&b, 0, S_IDLE, 0, 1, 1, 0x01);
    PORT(&b, 1, S_IDLE, 0, 1, 1, 0x02);
    PORT(&b, 2, S_IDLE, 0, 1, 1, 0x03);
    PORT(&b, 3, S_DROP, 0, 1, 1, 0x04);
    REG(&b, 0x01, 1);
    b.in.fwd[0] = b.in.fwd[1] = b.in.fwd[2] = IDLE;
    b.in.fwd[3] = HOLD; /* ignored in DROP */
    step(&b);
    OUTS(&b, .bc = 0xFF); /* cycle 4 */
    PORT(&b, 3, S_IDLE, 0, 1, 1, 0x04);
    REG(&b, 0x01, 1);
    REG(&b, 0x02, 0);
}

/* backchan 0: bc outputs 0 (the hint would be 1: one output enabled), no
 * choice bias, no drop requests, a blocked routing word goes to BLOCKED. */
static void test_sec7_backchan_off(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0xFC, 0xACE1, 0, 0));
    b.in.fwd[0] = W1(0x00); /* dir 0, both free, lfsr bit0=1 -> b1 */
    b.in.fwd[1] = W1(0x41); /* dir 1 disabled: BLOCKED, 01 */
    b.in.bwd_bc = 0x02;     /* would bias f0 to b0 */
    step(&b);
    OUTS(&b, .b[1] = W1(0x00)); /* cycle 1 */
    PORT(&b, 0, S_FORWARD, 1, 3, 1, 0x00);
    PORT(&b, 1, S_BLOCKED, 0, 1, 1, 0x41);
    b.in.fwd[0] = W1(0x11);
    b.in.bwd_bc = 0xFF;
    step(&b);
    OUTS(&b, .b[1] = W1(0x11)); /* cycle 2: armed, request ignored */
    ARMED(&b, 0, 1);
    PORT(&b, 0, S_FORWARD, 1, 3, 2, 0x11);
    b.in.fwd[0] = TURN;
    step(&b);
    OUTS(&b, .b[1] = TURN, .f[0] = W1(0xC2)); /* cycle 3 */
    step(&b);
    OUTS(&b, .f[0] = W1(0x11)); /* cycle 4: CHECKSUM, no DROP */
    PORT(&b, 0, S_REVERSE, 1, 3, 2, 0x11);
    b.in.bwd[1] = W1(0x5A);
    step(&b);
    OUTS(&b, .f[0] = W1(0x5A)); /* cycle 5 */
    REG(&b, 0x02, 0x02);
    REG(&b, 0x00, 0xACE1FC00);
}

/* backchan written mid-run: a write in cycle N gates the bc outputs from
 * N+1 (the registers behind them were computed all along), and bc inputs
 * are looked at only in cycles where backchan is 1. */
static void test_sec7_backchan_toggled(tally_t *t)
{
    bench_t b;
    bench_open_bc(&b, t, cfgb(0, 0xFE, 0xACE1, 0, 0)); /* b0 only */
    b.in.fwd[0] = W1(0x00);                            /* cycle 0: -> b0 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x00)); /* cycle 1 */
    b.in.fwd[0] = W1(0x11);
    b.in.bwd_bc = 0x01;
    step(&b);
    OUTS(&b, .b[0] = W1(0x11)); /* cycle 2: armed, backchan 0 */
    ARMED(&b, 0, 1);
    b.in.fwd[0] = W1(0x22);
    step_write(&b, 0x00, (uint64_t)1 << 40, 0x20); /* backchan 1 */
    OUTS(&b, .b[0] = W1(0x22), .bc = 0xFE);        /* cycle 3: no drop at 2 */
    PORT(&b, 0, S_FORWARD, 0, 2, 3, 0x33);
    REG(&b, 0x00, 0x100ACE1FE00ull);
    b.in.fwd[0] = W1(0x44); /* ignored: dropped now */
    step(&b);
    OUTS(&b, .bc = 0xFF); /* cycle 4: f0 pulse, b0 the only free one */
    PORT(&b, 0, S_DISCARD, 0, 2, 3, 0x33);
    REG(&b, 0x02, 0);
    b.in.fwd[0] = IDLE;
    step_write(&b, 0x00, 0, 0x20); /* backchan 0 */
    NOUT(&b);                      /* cycle 5: gated */
    PORT(&b, 0, S_IDLE, 0, 2, 3, 0x33);
    b.in.fwd[1] = W1(0x01); /* -> b0 */
    step(&b);
    OUTS(&b, .b[0] = W1(0x01)); /* cycle 6 */
    b.in.fwd[1] = W1(0x10);
    b.in.fwd[2] = W1(0x02); /* b0 taken, backchan 0: BLOCKED */
    step(&b);
    OUTS(&b, .b[0] = W1(0x10)); /* cycle 7 */
    ARMED(&b, 1, 1);
    PORT(&b, 1, S_FORWARD, 0, 2, 2, 0x11);
    PORT(&b, 2, S_BLOCKED, 0, 0, 1, 0x02);
    b.in.fwd[2] = HOLD;
    step_write(&b, 0x00, (uint64_t)1 << 40, 0x20); /* backchan 1 */
    OUTS(&b, .b[0] = W1(0x10), .bc = 0xF9);        /* cycle 8: no drop at 7 */
    PORT(&b, 1, S_FORWARD, 0, 2, 3, 0x01);
    step(&b);
    OUTS(&b, .bc = 0xFB); /* cycle 9: dropped at 8; f2 stays BLOCKED */
    PORT(&b, 1, S_DISCARD, 0, 2, 3, 0x01);
    PORT(&b, 2, S_BLOCKED, 0, 0, 1, 0x02);
    REG(&b, 0x02, 0);
    REG(&b, 0x01, 0);
}

/* The same with the backward channel and random bc inputs, plus: a bc
 * output is 1 only on a port that is IDLE or DISCARD (the hint and the
 * pulses; never on an open connection, where upstream would read it as a
 * drop request), and an armed port was in FORWARD, STATUS, REVERSE or HOLD
 * in the cycle before. */
static void test_sec7_invariants_random(tally_t *t)
{
    uint32_t seed = 0x9E3779B9u;
    const uint32_t seed0 = seed;
    unsigned prev_state[RN1_PORTS] = {0};
    unsigned bad_bc = 0, bad_armed = 0, discards = 0, drops = 0;
    long c;
    bench_t b;
    bench_open_bc(&b, t, cfgb(0x21, 0x10, 0x1D0F, 0, 1));
    for (c = 0; c < 20000 && alloc_invariant_holds(&b, S_DISCARD); c++) {
        uint8_t bc = rn1_fwd_bc_out(&b.m);
        for (unsigned p = 0; p < RN1_PORTS; p++) {
            uint64_t w = rn1_reg_read(&b.m, (uint8_t)(0x10 + p));
            unsigned st = (unsigned)(w & 0xF), armed = (unsigned)(w >> 12 & 1);
            unsigned pv = prev_state[p];
            bool arming =
                c > 0 && (pv == S_FORWARD || pv == S_STATUS || pv == S_REVERSE || pv == S_HOLD);
            bad_bc += (bc >> p & 1u) && st != S_IDLE && st != S_DISCARD;
            bad_armed += armed != (unsigned)arming;
            discards += st == S_DISCARD && pv != S_DISCARD;
            drops += st == S_DISCARD && (pv == S_FORWARD || pv == S_HOLD);
            prev_state[p] = st;
        }
        if (bad_bc || bad_armed)
            break;
        for (unsigned i = 0; i < RN1_PORTS; i++) {
            if (xorshift32(&seed) % 4u == 0)
                b.in.fwd[i] = random_word(&seed);
            if (xorshift32(&seed) % 4u == 0)
                b.in.bwd[i] = random_word(&seed);
        }
        b.in.bwd_bc = (uint8_t)(xorshift32(&seed) & xorshift32(&seed) &
                                xorshift32(&seed)); /* 1 in 8 per bit */
        if (c == 10000) /* half way through: dual mode, other disables */
            step_write(&b, 0x00, cfgb(0x21, 0x81, 0x1D0F, 1, 1), 0x13);
        else
            step(&b);
    }
    if (c < 20000)
        printf("%s:%d: random traffic seed 0x%08" PRIx32 "\n", __FILE__, __LINE__, seed0);
    CHECK(&b, "cycles with the backchan invariants", c, 20000);
    CHECK(&b, "bc 1 on an open connection", bad_bc, 0);
    CHECK(&b, "armed not the previous state's", bad_armed, 0);
    /* The run must exercise what it checks. */
    CHECK(&b, "DISCARD entered", discards > 100, 1);
    CHECK(&b, "backward drops from FORWARD/HOLD", drops > 10, 1);
}

int main(void)
{
    tally_t t = {0, 0};
    test_sec5_lfsr_sequence(&t);
    test_sec2_word_classes(&t);
    test_sec4_vectors_md_example(&t);
    test_sec1_route_dual(&t);
    test_sec5_equivalent_outputs_lfsr(&t);
    test_sec4_blocked_disabled_01_turn(&t);
    test_sec4_blocked_allocated_00_turn(&t);
    test_sec4_reverse_turn(&t);
    test_sec4_swallow(&t);
    test_sec5_rotating_order(&t);
    test_sec5_free_rule(&t);
    test_sec2_invalid_words(&t);
    test_sec2_error_counter_saturates(&t);
    test_sec2_count_wraps_mod_64(&t);
    test_sec8_config_written_mid_run(&t);
    test_rn1md_reset_and_config(&t);
    test_sec5_allocation_invariants_random(&t);
    test_rn1md_armed(&t);
    test_sec7_busy_hint_dilated(&t);
    test_sec7_busy_hint_dual(&t);
    test_sec7_choice_bias(&t);
    test_sec7_drop_from_forward(&t);
    test_sec7_drop_from_hold(&t);
    test_sec7_drop_from_status(&t);
    test_sec7_drop_from_reverse(&t);
    test_sec7_drop_wins_over_in(&t);
    test_sec7_blocked_collapse(&t);
    test_sec7_discard(&t);
    test_sec7_backchan_off(&t);
    test_sec7_backchan_toggled(&t);
    test_sec7_invariants_random(&t);
    printf("%u passed, %u failed\n", t.passed, t.failed);
    return t.failed ? 1 : 0;
}
