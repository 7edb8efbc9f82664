/*
 * test_sci_node.c - unit tests of the SCI node C model (csim/sci/sci_node.c):
 * PSB + B-link + link controllers.
 *
 * TEST RATIONALE: each test is named after the sci_node.md clause it checks.
 * Packets are built here with a bit-serial CRC written apart from the
 * model's (ref_crc), and the expected cycles are worked out by hand from
 * sci_node.md section 2/3 (and sci_node.c's decisions D<n>):
 *   a host packet of n symbols offered from cycle H moves in H..H+n-1, is
 *   the head from H+n, moves on the B-link in H+n..H+2n-1 (symbol 0 in the
 *   free cycle it is picked), and a packet looped back to port 0 is on hout
 *   in H+2n..H+3n-1; PSB DBG shows the owner from the cycle after the pick.
 * The LC timing is sci_lc.c's (tested in test_sci_lc.c): a packet whose last
 * symbol enters its send queue at the edge ending t' is on the link output
 * from t'+2 (when its output is idle); the cycle V a packet taken from the
 * link appears on an LC's B-link output is measured (first_bvalid) and the
 * node's cycles are checked relative to it.
 *
 * Convention: at "cycle t" the outputs are logged first (they are
 * registers), then the inputs of cycle t are applied and the model steps.
 *
 * Prints one line per failing check and ends with "N checks, M failed";
 * exit status 0 only if none failed.
 */
#include "sci_node.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define F   0x10000u /* flag bit in a logged / queued link word */
#define LOG 2048

typedef struct tally {
    unsigned checks, failed;
} tally_t;

typedef struct bench {
    sci_node_t n;
    sci_node_in_t in;
    long cycle;
    tally_t *t;
    /* Host input: symbols, last bits, earliest cycle. */
    uint16_t hq[LOG];
    bool hq_last[LOG];
    long hq_at[LOG];
    unsigned hq_n, hq_pos;
    /* Host output. */
    bool hout_ready;
    bool hout_rand; /* hout_ready random per cycle (rnd) */
    uint32_t rnd;
    uint16_t hout[LOG];
    bool hout_last[LOG];
    long hout_cyc[LOG];
    unsigned hout_n;
    /* Links, by cycle. */
    uint32_t lin[SCI_NODE_MAX_LC][LOG];
    uint32_t lout[SCI_NODE_MAX_LC][LOG];
    bool bvalid[SCI_NODE_MAX_LC][LOG]; /* LC k's B-link output valid */
    uint64_t dbg[LOG], st[LOG];        /* PSB DBG and STATUS */
} bench_t;

static void check(tally_t *t, int line, long cycle, const char *what, uint64_t got, uint64_t exp)
{
    t->checks++;
    if (got == exp)
        return;
    t->failed++;
    printf("test_sci_node.c:%d: cycle %ld: %s = 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", line,
           cycle, what, got, exp);
}
#define CHECK(b, what, got, exp)         check((b)->t, __LINE__, (b)->cycle, (what), (got), (exp))
#define CHECK_AT(b, cyc, what, got, exp) check((b)->t, __LINE__, (cyc), (what), (got), (exp))

/* ---- independent CRC reference: bit-serial over bytes ------------------ */

static uint16_t ref_crc_syms(const uint16_t *s, unsigned n)
{
    uint16_t crc = 0xFFFF;
    for (unsigned i = 0; i < n; i++) {
        uint16_t v = s[i];
        if (i == 0)
            v &= 0xBFFF;
        if (i == 1)
            v &= 0xFF7F;
        uint8_t by[2] = {(uint8_t)(v >> 8), (uint8_t)v};
        for (unsigned j = 0; j < 2; j++)
            for (int k = 7; k >= 0; k--) {
                unsigned fb = ((crc >> 15) ^ (by[j] >> k)) & 1u;
                crc = (uint16_t)(crc << 1);
                if (fb)
                    crc ^= 0x1021;
            }
    }
    return crc;
}

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
    sci_node_t *n = &b->n;
    long c = b->cycle;
    if (c < LOG) {
        for (unsigned k = 0; k < SCI_NODE_MAX_LC; k++) {
            b->lout[k][c] = (sci_node_link_flag(n, k) ? F : 0u) | sci_node_link_sym(n, k);
            b->bvalid[k][c] = k < n->nlc && sci_lc_bout_valid(&n->lc[k]);
        }
        b->dbg[c] = sci_node_reg_read(n, SCI_PSB_DBG);
        b->st[c] = sci_node_reg_read(n, SCI_PSB_STATUS);
    }
    for (unsigned k = 0; k < SCI_NODE_MAX_LC; k++) {
        uint32_t w = c < LOG ? b->lin[k][c] : 0;
        b->in.lin_flag[k] = (w & F) != 0;
        b->in.lin_sym[k] = (uint16_t)w;
        b->in.lin_sd[k] = true;
    }
    bool hv = b->hq_pos < b->hq_n && b->hq_at[b->hq_pos] <= c;
    b->in.hin_valid = hv;
    b->in.hin_sym = hv ? b->hq[b->hq_pos] : 0;
    b->in.hin_last = hv && b->hq_last[b->hq_pos];
    if (hv && sci_node_hin_ready(n))
        b->hq_pos++;
    if (b->hout_rand) {
        b->rnd = b->rnd * 1103515245u + 12345u;
        b->hout_ready = (b->rnd >> 16 & 3u) != 0;
    }
    b->in.hout_ready = b->hout_ready;
    if (b->hout_ready && sci_node_hout_valid(n) && b->hout_n < LOG) {
        b->hout_cyc[b->hout_n] = c;
        b->hout_last[b->hout_n] = sci_node_hout_last(n);
        b->hout[b->hout_n++] = sci_node_hout_sym(n);
    }
    sci_node_step(n, &b->in);
    b->in.reg_we = false;
    b->cycle++;
}

static void run_to(bench_t *b, long cyc)
{
    while (b->cycle < cyc)
        bench_step(b);
}

static void reg_write_strb(bench_t *b, uint8_t addr, uint64_t v, uint8_t strb)
{
    b->in.reg_we = true;
    b->in.reg_waddr = addr;
    b->in.reg_wdata = v;
    b->in.reg_wstrb = strb;
    bench_step(b);
}

static void reg_write(bench_t *b, uint8_t addr, uint64_t v) { reg_write_strb(b, addr, v, 0xFF); }

static void psb_brt(bench_t *b, uint16_t idx, unsigned port)
{
    reg_write(b, SCI_PSB_TADDR, idx);
    reg_write(b, SCI_PSB_BRT, port);
}

static void psb_asel(bench_t *b, uint16_t id, unsigned sel)
{
    reg_write(b, SCI_PSB_TADDR, id);
    reg_write(b, SCI_PSB_ASEL, sel);
}

/* LC k: LRT/BRT entry. */
static void lc_table(bench_t *b, unsigned k, uint16_t idx, unsigned take, unsigned port)
{
    uint8_t base = SCI_NODE_LC_BASE(k);
    reg_write(b, (uint8_t)(base + SCI_REG_TADDR), idx);
    reg_write(b, (uint8_t)(base + SCI_REG_LRT), take);
    reg_write(b, (uint8_t)(base + SCI_REG_BRT), port);
}

static uint64_t lc_ctrl(uint16_t id)
{
    return (uint64_t)id | (uint64_t)1 << 16 | (uint64_t)8 << 24 | (uint64_t)4 << 32 |
           (uint64_t)200 << 48;
}

static uint64_t psb_ctrl(uint16_t id, uint16_t rsr) { return (uint64_t)id | (uint64_t)rsr << 32; }

/* Power on, node id everywhere, run with sd = 1 to cycle 100 (rings up). */
static void bench_init(bench_t *b, tally_t *t, sci_variant_t v, unsigned nlc, uint16_t id,
                       uint16_t rsr)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    b->hout_ready = true;
    sci_node_init(&b->n, v, nlc);
    b->in.rst_n = true;
    reg_write(b, SCI_PSB_CTRL, psb_ctrl(id, rsr));
    for (unsigned k = 0; k < nlc; k++)
        reg_write(b, SCI_NODE_LC_BASE(k), lc_ctrl(id));
    run_to(b, 100);
    for (unsigned k = 0; k < nlc; k++)
        CHECK(b, "ring up", sci_node_reg_read(&b->n, SCI_NODE_LC_BASE(k) + SCI_REG_STATUS) & 1u, 1);
}

static void put_host(bench_t *b, long at, const uint16_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        b->hq[b->hq_n] = p[i];
        b->hq_at[b->hq_n] = at;
        b->hq_last[b->hq_n++] = i + 1 == n;
    }
}

static void put_link(bench_t *b, unsigned k, long at, const uint16_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b->lin[k][at + i] = F | p[i];
}

/* hout log entries from index i carry packet p, one a cycle from cycle at. */
static void expect_hout(bench_t *b, int line, unsigned i, long at, const uint16_t *p, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        if (i + j >= b->hout_n) {
            check(b->t, line, at + j, "hout symbol present", 0, 1);
            return;
        }
        check(b->t, line, at + j, "hout sym", b->hout[i + j], p[j]);
        check(b->t, line, at + j, "hout cycle", (uint64_t)b->hout_cyc[i + j], (uint64_t)(at + j));
        check(b->t, line, at + j, "hout last", b->hout_last[i + j], j + 1 == n);
    }
}

/* The link output k carries packet p from cycle at. */
static void expect_link(bench_t *b, int line, unsigned k, long at, const uint16_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        check(b->t, line, at + (long)i, "link out", b->lout[k][at + i], F | p[i]);
    check(b->t, line, at + (long)n, "link out idle after packet", b->lout[k][at + n], 0);
}

/* First cycle >= from at which link output k starts with packet p; -1 if none. */
static long find_link(const bench_t *b, unsigned k, long from, const uint16_t *p, unsigned n)
{
    for (long c = from; c + (long)n < LOG && c < b->cycle; c++) {
        unsigned i = 0;
        while (i < n && b->lout[k][c + i] == (F | p[i]))
            i++;
        if (i == n)
            return c;
    }
    return -1;
}

/* First cycle in [from, cycle) where LC k's B-link output is valid; -1 if none.
 * The LC's own latencies are the LC model's: tests measure them here and
 * check the node's timing relative to them. */
static long first_bvalid(const bench_t *b, unsigned k, long from)
{
    for (long c = from; c < b->cycle && c < LOG; c++)
        if (b->bvalid[k][c])
            return c;
    return -1;
}

static unsigned dbg_owner(const bench_t *b, long c) { return b->dbg[c] & 7u; }
static unsigned dbg_port(const bench_t *b, long c) { return b->dbg[c] >> 3 & 7u; }
static unsigned dbg_moved(const bench_t *b, long c) { return b->dbg[c] >> 6 & 0x3Fu; }
static unsigned dbg_timer(const bench_t *b, long c) { return b->dbg[c] >> 12 & 0xFFFFu; }
static unsigned st_sf(const bench_t *b, long c) { return b->st[c] & 0xFu; }
static unsigned st_rf(const bench_t *b, long c) { return b->st[c] >> 4 & 0xFu; }
static unsigned st_rb(const bench_t *b, long c) { return b->st[c] >> 8 & 0x3u; }
static unsigned st_armed(const bench_t *b, long c) { return b->st[c] >> 10 & 1u; }
static unsigned st_disc(const bench_t *b, long c) { return b->st[c] >> 16 & 0xFFFFu; }

static bench_t B; /* the node holds its tables: keep it off the stack */

/* ---- tests --------------------------------------------------------------- */

/* Section 2: BRT port 0 loops a host packet back to the receive FIFO;
 * section 3: head from t+1, symbol 0 moves in the free cycle it is picked,
 * hout from the cycle after the last B-link symbol. */
static void test_host_to_self(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    psb_brt(b, 9, 1);
    psb_brt(b, 5, 0);
    uint16_t p[SCI_MAX_PKT], pay[2] = {0x11, 0x22};
    unsigned np = mkpkt(p, 5, 0x0100, 5, 1, pay, 2); /* 7 symbols */
    put_host(b, 110, p, np); /* host 110..116, B-link 117..123, hout 124..130 */
    run_to(b, 140);
    CHECK_AT(b, 116, "send FIFO empty while the packet is written", st_sf(b, 116), 0);
    CHECK_AT(b, 117, "send FIFO holds it (head)", st_sf(b, 117), 1);
    CHECK_AT(b, 117, "B-link free in the pick cycle", dbg_owner(b, 117), SCI_OWN_FREE);
    CHECK_AT(b, 118, "owner host", dbg_owner(b, 118), SCI_OWN_HOST);
    CHECK_AT(b, 118, "port 0", dbg_port(b, 118), 0);
    CHECK_AT(b, 118, "1 symbol moved", dbg_moved(b, 118), 1);
    CHECK_AT(b, 123, "6 symbols moved", dbg_moved(b, 123), 6);
    CHECK_AT(b, 123, "receive FIFO empty before the last symbol", st_rf(b, 123), 0);
    CHECK_AT(b, 124, "B-link free after the last symbol", dbg_owner(b, 124), SCI_OWN_FREE);
    CHECK_AT(b, 124, "send FIFO empty", st_sf(b, 124), 0);
    CHECK_AT(b, 124, "receive FIFO holds it", st_rf(b, 124), 1);
    CHECK(b, "hout symbols", b->hout_n, np);
    expect_hout(b, __LINE__, 0, 124, p, np);
    CHECK_AT(b, 131, "receive FIFO empty", st_rf(b, 131), 0);
    CHECK(b, "nothing discarded", st_disc(b, 131), 0);
    CHECK(b, "nothing on the link", find_link(b, 0, 100, p, np), (uint64_t)-1);
}

/* Section 2: BRT port 1 = LC 0: the host packet enters LC 0's send queue
 * and leaves on its link output (LC timing: t'+2). */
static void test_host_to_lc0(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    psb_brt(b, 9, 1);
    uint16_t p[SCI_MAX_PKT], pay[2] = {0x1, 0xBEEF};
    unsigned np = mkpkt(p, 9, 0x0100, 5, 2, pay, 2); /* 7: B-link 117..123 */
    put_host(b, 110, p, np);
    run_to(b, 160);
    CHECK_AT(b, 118, "owner host", dbg_owner(b, 118), SCI_OWN_HOST);
    CHECK_AT(b, 118, "port 1", dbg_port(b, 118), 1);
    expect_link(b, __LINE__, 0, 125, p, np);
    CHECK(b, "nothing to the host", b->hout_n, 0);
}

/* Section 3: a packet taken by LC 0 with BRT port 0 goes up the B-link the
 * cycle its bout is valid and reaches hout after its last symbol. */
static void test_link_to_host(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    lc_table(b, 0, 5, 1, 0);
    uint16_t p[SCI_MAX_PKT], pay[1] = {0x77};
    unsigned np = mkpkt(p, 5, 0x0100, 9, 3, pay, 1); /* 6 */
    put_link(b, 0, 110, p, np); /* bout valid V, B-link V..V+5, hout V+6..V+11 */
    run_to(b, 150);
    long v = first_bvalid(b, 0, 110);
    CHECK(b, "LC 0 took it", v > 110, 1);
    CHECK_AT(b, v, "picked in the first valid cycle (DBG free)", dbg_owner(b, v), 0);
    CHECK_AT(b, v + 1, "owner LC 0", dbg_owner(b, v + 1), SCI_OWN_LC0);
    CHECK_AT(b, v + 1, "port 0", dbg_port(b, v + 1), 0);
    CHECK_AT(b, v + 1, "1 symbol moved", dbg_moved(b, v + 1), 1);
    CHECK_AT(b, v + 6, "B-link free", dbg_owner(b, v + 6), SCI_OWN_FREE);
    CHECK_AT(b, v + 6, "LC bout empty", b->bvalid[0][v + 6], 0);
    CHECK_AT(b, v + 6, "receive FIFO 1", st_rf(b, v + 6), 1);
    CHECK(b, "hout symbols", b->hout_n, np);
    expect_hout(b, __LINE__, 0, v + 6, p, np);
}

/* Section 2: a STATUS_READ arriving for port 0 is answered by the PSB with
 * STATUS_REPLY (status sampled in the cycle of its last B-link symbol:
 * the read is still in LC 0's receive queue then), routed by the BRT. */
static void test_status_read_answered(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    lc_table(b, 0, 5, 1, 0);
    psb_brt(b, 9, 1);
    uint16_t r[SCI_MAX_PKT], e[SCI_MAX_PKT], pay[1] = {0};
    unsigned nr = mkpkt(r, 5, 0x1100, 9, 0x33, pay, 1); /* 6: B-link V..V+5 */
    put_link(b, 0, 110, r, nr);
    run_to(b, 200);
    long v = first_bvalid(b, 0, 110);
    CHECK(b, "LC 0 took it", v > 110, 1);
    CHECK_AT(b, v + 1, "owner LC 0", dbg_owner(b, v + 1), SCI_OWN_LC0);
    CHECK_AT(b, v + 5, "reply buffer empty before the read's last symbol", st_rb(b, v + 5), 0);
    CHECK_AT(b, v + 6, "reply buffer 1", st_rb(b, v + 6), 1);
    CHECK_AT(b, v + 6, "read not in the receive FIFO", st_rf(b, v + 6), 0);
    uint16_t rpay[2] = {0, 0x1003}; /* ring up, sd, receive queue 1 */
    unsigned ne = mkpkt(e, 9, 0x1200, 5, 0x33, rpay, 2);
    CHECK_AT(b, v + 6, "free: the reply is picked", dbg_owner(b, v + 6), 0);
    CHECK_AT(b, v + 7, "owner reply buffer", dbg_owner(b, v + 7), SCI_OWN_REPLY);
    CHECK_AT(b, v + 7, "reply to port 1", dbg_port(b, v + 7), 1);
    CHECK_AT(b, v + 13, "B-link free after the 7-symbol reply", dbg_owner(b, v + 13), 0);
    CHECK_AT(b, v + 13, "reply buffer empty", st_rb(b, v + 13), 0);
    CHECK(b, "reply on the link", (uint64_t)find_link(b, 0, 100, e, ne), (uint64_t)(v + 14));
    CHECK(b, "read not given to the host", b->hout_n, 0);

    /* lc 1 on a one-LC node: status 0. */
    uint16_t pay1[1] = {1}, rpay1[2] = {1, 0};
    nr = mkpkt(r, 5, 0x1100, 9, 0x34, pay1, 1);
    ne = mkpkt(e, 9, 0x1200, 5, 0x34, rpay1, 2);
    put_link(b, 0, 210, r, nr);
    run_to(b, 300);
    CHECK(b, "reply for a missing LC", find_link(b, 0, 200, e, ne) > 0, 1);
    CHECK(b, "read not given to the host", b->hout_n, 0);
}

/* Section 2: remote-read timer: armed when a host STATUS_READ starts on the
 * B-link (t0), runs out rsr_timeout cycles later; the timeout reply goes to
 * port 0 directly. */
static void test_remote_read_timeout(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 50);
    psb_brt(b, 9, 1);
    psb_brt(b, 5, 7); /* the timeout reply ignores the BRT */
    uint16_t r[SCI_MAX_PKT], e[SCI_MAX_PKT], pay[1] = {1};
    unsigned nr = mkpkt(r, 9, 0x1100, 5, 0x42, pay, 1); /* host 110..115, t0 = 116 */
    put_host(b, 110, r, nr);
    run_to(b, 200);
    CHECK_AT(b, 116, "not armed before", st_armed(b, 116), 0);
    CHECK_AT(b, 117, "armed", st_armed(b, 117), 1);
    CHECK_AT(b, 117, "timer = rsr_timeout", dbg_timer(b, 117), 50);
    CHECK_AT(b, 166, "timer 1", dbg_timer(b, 166), 1);
    CHECK_AT(b, 166, "still armed", st_armed(b, 166), 1);
    CHECK_AT(b, 166, "reply buffer empty", st_rb(b, 166), 0);
    CHECK_AT(b, 167, "disarmed", st_armed(b, 167), 0);
    CHECK_AT(b, 167, "timer 0", dbg_timer(b, 167), 0);
    CHECK_AT(b, 167, "timeout reply buffered", st_rb(b, 167), 1);
    CHECK_AT(b, 168, "owner reply buffer", dbg_owner(b, 168), SCI_OWN_REPLY);
    CHECK_AT(b, 168, "port 0", dbg_port(b, 168), 0);
    uint16_t tpay[2] = {0x8001, 0};
    unsigned ne = mkpkt(e, 5, 0x1200, 9, 0x42, tpay, 2); /* B-link 167..173 */
    CHECK(b, "hout symbols", b->hout_n, ne);
    expect_hout(b, __LINE__, 0, 174, e, ne);
    CHECK(b, "not discarded", st_disc(b, 199), 0);
}

/* Section 2: a STATUS_REPLY for port 0 with the armed tid disarms the timer
 * and goes to the host; no timeout reply follows. */
static void test_remote_read_reply_disarms(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 100);
    psb_brt(b, 9, 1);
    lc_table(b, 0, 5, 1, 0);
    uint16_t r[SCI_MAX_PKT], e[SCI_MAX_PKT], pay[1] = {0}, rpay[2] = {0, 0x1234};
    unsigned nr = mkpkt(r, 9, 0x1100, 5, 0x43, pay, 1); /* t0 = 116 */
    unsigned ne = mkpkt(e, 5, 0x1200, 9, 0x43, rpay, 2);
    put_host(b, 110, r, nr);
    put_link(b, 0, 130, e, ne); /* bout V, B-link V..V+6, hout V+7..V+13 */
    run_to(b, 400);
    long v = first_bvalid(b, 0, 130);
    CHECK(b, "LC 0 took it", v > 130, 1);
    /* D11 (settled against the RTL): the timer disarms at the edge the reply's tid, symbol 3,
     * moves on the B-link (cycle V + 3). */
    CHECK_AT(b, v + 3, "armed until the reply's tid moves", st_armed(b, v + 3), 1);
    CHECK_AT(b, v + 3, "timer", dbg_timer(b, v + 3), (uint64_t)(100 - (v + 3 - 117)));
    CHECK_AT(b, v + 4, "disarmed", st_armed(b, v + 4), 0);
    CHECK_AT(b, v + 4, "timer 0", dbg_timer(b, v + 4), 0);
    CHECK(b, "only the reply reaches the host", b->hout_n, ne);
    expect_hout(b, __LINE__, 0, v + 7, e, ne);

    /* A reply with another tid does not disarm. */
    nr = mkpkt(r, 9, 0x1100, 5, 0x44, pay, 1);
    ne = mkpkt(e, 5, 0x1200, 9, 0x99, rpay, 2);
    put_host(b, 410, r, nr); /* t0 = 416 */
    put_link(b, 0, 430, e, ne);
    run_to(b, 600);
    CHECK_AT(b, 450, "still armed", st_armed(b, 450), 1);
    CHECK_AT(b, 516, "armed until the run-out", st_armed(b, 516), 1);
    CHECK_AT(b, 517, "timed out", st_armed(b, 517), 0);
    CHECK(b, "reply and timeout reply to the host", b->hout_n, 3u * ne);
}

/* Section 2 (D2, D9): a host STATUS_READ looped back to port 0 is answered by
 * the node's own PSB; it armed the timer, its reply disarms it. */
static void test_status_read_loopback(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    psb_brt(b, 5, 0);
    uint16_t r[SCI_MAX_PKT], e[SCI_MAX_PKT], pay[1] = {0}, rpay[2] = {0, 0x0003};
    unsigned nr = mkpkt(r, 5, 0x1100, 5, 0x21, pay, 1);  /* host 110..115, B 116..121 */
    unsigned ne = mkpkt(e, 5, 0x1200, 5, 0x21, rpay, 2); /* B 122..128, hout 129..135 */
    put_host(b, 110, r, nr);
    run_to(b, 160);
    CHECK_AT(b, 117, "armed", st_armed(b, 117), 1);
    CHECK_AT(b, 122, "reply buffered", st_rb(b, 122), 1);
    CHECK_AT(b, 122, "read not in the receive FIFO", st_rf(b, 122), 0);
    CHECK_AT(b, 123, "owner reply buffer", dbg_owner(b, 123), SCI_OWN_REPLY);
    CHECK_AT(b, 125, "armed until the reply's tid moves (D11)", st_armed(b, 125), 1);
    CHECK_AT(b, 126, "disarmed by the reply", st_armed(b, 126), 0);
    CHECK(b, "hout symbols", b->hout_n, ne);
    expect_hout(b, __LINE__, 0, 129, e, ne);

    /* rsr_timeout 0: no timer. */
    reg_write(b, SCI_PSB_CTRL, psb_ctrl(5, 0));
    r[3] = 0x22;
    nr = mkpkt(r, 9, 0x1100, 5, 0x22, pay, 1);
    psb_brt(b, 9, 7);
    put_host(b, 170, r, nr);
    run_to(b, 200);
    CHECK(b, "not armed with rsr_timeout 0", st_armed(b, 199) | dbg_timer(b, 199), 0);
    CHECK(b, "discarded", st_disc(b, 199), 1);
}

/* Section 2 (D12, D10): the reply buffer holds 2; a read that finds it full
 * is dropped; an expired timer waits for a slot.  Status sampled at each
 * read's last symbol (LC 0's receive queue count then). */
static void test_reply_buffer_full(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 51);
    psb_brt(b, 9, 7);
    psb_brt(b, 5, 0);
    lc_table(b, 0, 5, 1, 0);
    uint16_t big[SCI_MAX_PKT], r[3][SCI_MAX_PKT], pay[32], lp[1] = {0};
    for (unsigned i = 0; i < 32; i++)
        pay[i] = (uint16_t)i;
    pay[0] = 1;
    /* A 37-symbol host STATUS_READ to a discard: host 110..146, B-link S = 147..183,
     * armed with 51: runs out at the edge ending 198 = F + 14 (F = 184). */
    unsigned nbig = mkpkt(big, 9, 0x1100, 5, 0x50, pay, 32);
    put_host(b, 110, big, nbig);
    for (unsigned i = 0; i < 3; i++) /* three reads on the link, in LC 0 by ~175 */
        put_link(b, 0, 150 + 7 * (long)i, r[i],
                 mkpkt(r[i], 5, 0x1100, 5, (uint16_t)(0x60 + i), lp, 1));
    run_to(b, 260);
    const long f = 184;
    CHECK_AT(b, f - 1, "long read under way", dbg_owner(b, f - 1), SCI_OWN_HOST);
    CHECK_AT(b, f + 1, "read 1 (LC 0)", dbg_owner(b, f + 1), SCI_OWN_LC0);
    CHECK_AT(b, f + 6, "reply 1 buffered", st_rb(b, f + 6), 1);
    CHECK_AT(b, f + 7, "read 2: LC 0 before the reply buffer", dbg_owner(b, f + 7), SCI_OWN_LC0);
    CHECK_AT(b, f + 12, "reply 2 buffered", st_rb(b, f + 12), 2);
    CHECK_AT(b, f + 13, "read 3", dbg_owner(b, f + 13), SCI_OWN_LC0);
    CHECK_AT(b, f + 14, "timer 1", dbg_timer(b, f + 14), 1);
    CHECK_AT(b, f + 15, "expired: still armed", st_armed(b, f + 15), 1);
    CHECK_AT(b, f + 15, "expired: timer 0", dbg_timer(b, f + 15), 0);
    CHECK_AT(b, f + 18, "read 3 dropped", st_rb(b, f + 18), 2);
    CHECK_AT(b, f + 19, "reply 1 goes", dbg_owner(b, f + 19), SCI_OWN_REPLY);
    CHECK_AT(b, f + 24, "still waiting", st_armed(b, f + 24), 1);
    CHECK_AT(b, f + 25, "a slot free", st_rb(b, f + 25), 1);
    CHECK_AT(b, f + 25, "still waiting (slot judged at the start)", st_armed(b, f + 25), 1);
    CHECK_AT(b, f + 26, "timeout reply in", st_rb(b, f + 26), 2);
    CHECK_AT(b, f + 26, "disarmed", st_armed(b, f + 26), 0);
    uint16_t e1[SCI_MAX_PKT], e2[SCI_MAX_PKT], e3[SCI_MAX_PKT];
    uint16_t p1[2] = {0, 0x3003}, p2[2] = {0, 0x2003}, p3[2] = {0x8001, 0};
    unsigned ne = mkpkt(e1, 5, 0x1200, 5, 0x60, p1, 2);
    mkpkt(e2, 5, 0x1200, 5, 0x61, p2, 2);
    mkpkt(e3, 5, 0x1200, 9, 0x50, p3, 2);
    CHECK(b, "three replies to the host", b->hout_n, 3u * ne);
    expect_hout(b, __LINE__, 0, f + 25, e1, ne);
    expect_hout(b, __LINE__, ne, f + 32, e2, ne);
    expect_hout(b, __LINE__, 2 * ne, f + 39, e3, ne);
}

/* Section 2, P2S: address select sets targetId bit 14 from ASEL, the BRT
 * set follows it, the CRC is unchanged. */
static void test_p2s_address_select(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_P2S, 2, 5, 2000);
    psb_asel(b, 9, 1);
    psb_brt(b, 9, 1);        /* set 0 -> LC 0 */
    psb_brt(b, 8192 + 9, 2); /* set 1 -> LC 1 */
    uint16_t p[SCI_MAX_PKT], q[SCI_MAX_PKT], pay[1] = {0xAA};
    unsigned np = mkpkt(p, 9, 0x0100, 5, 7, pay, 1); /* 6: host 120.., B-link 126..131 */
    put_host(b, 120, p, np);
    run_to(b, 160);
    CHECK_AT(b, 127, "port 2 (address select 1)", dbg_port(b, 127), 2);
    memcpy(q, p, sizeof q);
    q[0] = 0x4009;
    expect_link(b, __LINE__, 1, 133, q, np);
    CHECK(b, "nothing on LC 0", find_link(b, 0, 100, p, np), (uint64_t)-1);
    CHECK(b, "ASEL of TADDR[12:0] (TADDR 8192 + 9)", sci_node_reg_read(&b->n, SCI_PSB_ASEL), 1);
    psb_asel(b, 9, 0);
    CHECK(b, "ASEL 0 reads back", sci_node_reg_read(&b->n, SCI_PSB_ASEL), 0);
    psb_asel(b, 9, 1);
    CHECK(b, "ASEL 1 reads back", sci_node_reg_read(&b->n, SCI_PSB_ASEL), 1);
    psb_asel(b, 9, 0);
    /* The host sets bit 14 itself: address select 0 clears it. */
    q[0] = 0x4009;
    np = mkpkt(q, 0x4009, 0x0100, 5, 8, pay, 1);
    memcpy(p, q, sizeof p);
    p[0] = 0x0009;
    put_host(b, 200, q, np); /* B-link 206..211 */
    run_to(b, 260);
    CHECK_AT(b, 207, "port 1 (address select 0)", dbg_port(b, 207), 1);
    expect_link(b, __LINE__, 0, 213, p, np);
}

/* Section 2: a PROBE goes to port 1 + payload[0], whatever the BRT. */
static void test_probe_routing(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 2, 5, 2000); /* BRT all 0: the host */
    uint16_t p[SCI_MAX_PKT], q[SCI_MAX_PKT], pay1[1] = {1}, pay0[1] = {0};
    unsigned np = mkpkt(p, 5, 0x1000, 5, 1, pay1, 1); /* host 110.., B-link 116..121 */
    unsigned nq = mkpkt(q, 5, 0x1000, 5, 2, pay0, 1); /* head 122, B-link 122..127 */
    put_host(b, 110, p, np);
    put_host(b, 110, q, nq);
    run_to(b, 160);
    CHECK_AT(b, 117, "PROBE payload 1 -> port 2", dbg_port(b, 117), 2);
    CHECK_AT(b, 123, "PROBE payload 0 -> port 1", dbg_port(b, 123), 1);
    expect_link(b, __LINE__, 1, 123, p, np);
    expect_link(b, __LINE__, 0, 129, q, nq);
    CHECK(b, "not to the host", b->hout_n, 0);

    /* One-LC node: payload 1 names a missing LC, payload 9 no LC: discarded. */
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    uint16_t pay9[1] = {9};
    np = mkpkt(p, 5, 0x1000, 5, 1, pay1, 1);
    nq = mkpkt(q, 5, 0x1000, 5, 2, pay9, 1);
    put_host(b, 110, p, np);
    put_host(b, 110, q, nq);
    run_to(b, 160);
    CHECK_AT(b, 117, "missing LC 1: port 2", dbg_port(b, 117), 2);
    CHECK_AT(b, 117, "counted", st_disc(b, 117), 1);
    CHECK_AT(b, 123, "payload 9: port 7", dbg_port(b, 123), 7);
    CHECK_AT(b, 123, "counted", st_disc(b, 123), 2);
    CHECK(b, "not on the link", find_link(b, 0, 100, p, np), (uint64_t)-1);
    CHECK(b, "not to the host", b->hout_n, 0);
}

/* Section 2/3: port 7 and a missing LC discard, counted, taking their B-link
 * cycles; back-to-back packets have no gap. */
static void test_discard(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    psb_brt(b, 9, 7);
    psb_brt(b, 10, 2);
    psb_brt(b, 5, 0);
    uint16_t a[SCI_MAX_PKT], c[SCI_MAX_PKT], d[SCI_MAX_PKT], pay[1] = {3};
    unsigned na = mkpkt(a, 9, 0x0100, 5, 1, pay, 1);   /* 6: host 110..115, B 116..121 */
    unsigned nc = mkpkt(c, 10, 0x0100, 5, 2, NULL, 0); /* 5: host 116..120, B 122..126 */
    unsigned nd = mkpkt(d, 5, 0x0100, 5, 3, NULL, 0);  /* 5: host 121..125, B 127..131 */
    put_host(b, 110, a, na);
    put_host(b, 110, c, nc);
    put_host(b, 110, d, nd);
    run_to(b, 150);
    CHECK_AT(b, 116, "none yet", st_disc(b, 116), 0);
    CHECK_AT(b, 117, "port 7", dbg_port(b, 117), 7);
    CHECK_AT(b, 117, "counted at symbol 0", st_disc(b, 117), 1);
    CHECK_AT(b, 121, "takes its B-link cycles", dbg_moved(b, 121), 5);
    CHECK_AT(b, 122, "free between back-to-back packets", dbg_owner(b, 122), 0);
    CHECK_AT(b, 123, "missing LC: port 2", dbg_port(b, 123), 2);
    CHECK_AT(b, 123, "counted", st_disc(b, 123), 2);
    CHECK_AT(b, 128, "then the host packet", dbg_port(b, 128), 0);
    CHECK_AT(b, 128, "owner host", dbg_owner(b, 128), SCI_OWN_HOST);
    CHECK(b, "hout symbols", b->hout_n, nd);
    expect_hout(b, __LINE__, 0, 132, d, nd);
    CHECK(b, "nothing on the link", find_link(b, 0, 100, a, na), (uint64_t)-1);

    /* An LC packet whose bout_port names a missing LC is discarded and counted
     * too (an LC keeps its own BRT-7 packets off the B-link). */
    lc_table(b, 0, 7, 1, 2);
    uint16_t e[SCI_MAX_PKT];
    unsigned ne = mkpkt(e, 7, 0x0100, 9, 4, NULL, 0);
    put_link(b, 0, 200, e, ne); /* bout V, B-link V..V+4 */
    run_to(b, 240);
    long v = first_bvalid(b, 0, 200);
    CHECK(b, "LC 0 took it", v > 200, 1);
    CHECK_AT(b, v, "not counted before", st_disc(b, v), 2);
    CHECK_AT(b, v + 1, "LC 0 to port 2 (no LC 1)", dbg_port(b, v + 1), 2);
    CHECK_AT(b, v + 1, "owner LC 0", dbg_owner(b, v + 1), SCI_OWN_LC0);
    CHECK_AT(b, v + 1, "counted", st_disc(b, v + 1), 3);
    CHECK_AT(b, v + 5, "discard takes its cycles", dbg_owner(b, v + 5), 0);
    CHECK(b, "not to the host", b->hout_n, nd);
}

/* Section 3: in a free cycle LC 0 goes before the host; the host packet
 * follows with no gap. */
static void test_priority_lc_before_host(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    psb_brt(b, 9, 7);
    psb_brt(b, 5, 0);
    lc_table(b, 0, 5, 1, 0);
    uint16_t big[SCI_MAX_PKT], h[SCI_MAX_PKT], l[SCI_MAX_PKT], pay[32], lp[1] = {0x55};
    for (unsigned i = 0; i < 32; i++)
        pay[i] = (uint16_t)(0x100 + i);
    unsigned nbig = mkpkt(big, 9, 0x0100, 5, 1, pay, 32); /* 37: host 110..146, B 147..183 */
    unsigned nh = mkpkt(h, 5, 0x0100, 5, 2, NULL, 0);     /* 5: host 147..151, head 152 */
    unsigned nl = mkpkt(l, 5, 0x0100, 9, 3, lp, 1);       /* 6: link 150, bout V ~ 160 */
    put_host(b, 110, big, nbig);
    put_host(b, 110, h, nh);
    put_link(b, 0, 150, l, nl);
    run_to(b, 230);
    long v = first_bvalid(b, 0, 150);
    CHECK(b, "LC 0 valid while the long packet is under way", v > 150 && v < 180, 1);
    CHECK_AT(b, v, "B-link busy with the long packet", dbg_owner(b, v), SCI_OWN_HOST);
    CHECK_AT(b, 183, "LC 0 waiting", b->bvalid[0][183], 1);
    CHECK_AT(b, 183, "long packet's last symbol", dbg_moved(b, 183), 36);
    CHECK_AT(b, 184, "free", dbg_owner(b, 184), 0);
    CHECK_AT(b, 184, "host packet waiting", st_sf(b, 184), 1);
    CHECK_AT(b, 185, "LC 0 first", dbg_owner(b, 185), SCI_OWN_LC0);
    CHECK_AT(b, 190, "free after LC 0's packet", dbg_owner(b, 190), 0);
    CHECK_AT(b, 191, "then the host", dbg_owner(b, 191), SCI_OWN_HOST);
    CHECK(b, "hout symbols", b->hout_n, nl + nh);
    expect_hout(b, __LINE__, 0, 190, l, nl);
    expect_hout(b, __LINE__, nl, 196, h, nh);
}

/* Section 3: a source whose destination is not ready waits and does not
 * block the others; the receive FIFO holds 8 packets. */
static void test_not_ready_does_not_block(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    psb_brt(b, 5, 0);
    psb_brt(b, 9, 1);
    lc_table(b, 0, 5, 1, 0);
    b->hout_ready = false;
    uint16_t p[8][SCI_MAX_PKT], h[SCI_MAX_PKT], l[SCI_MAX_PKT], lp[1] = {0x66};
    for (unsigned i = 0; i < 8; i++) /* host 110..149, B-link 115+5i..119+5i */
        put_host(b, 110, p[i], mkpkt(p[i], 5, 0x0100, 5, (uint16_t)i, NULL, 0));
    unsigned nl = mkpkt(l, 5, 0x0100, 9, 3, lp, 1);   /* link 150, bout V ~ 160 */
    unsigned nh = mkpkt(h, 9, 0x0100, 5, 9, NULL, 0); /* host 170..174, B-link 175..179 */
    put_link(b, 0, 150, l, nl);
    put_host(b, 170, h, nh);
    run_to(b, 200);
    CHECK_AT(b, 154, "receive FIFO 7", st_rf(b, 154), 7);
    CHECK_AT(b, 155, "receive FIFO full", st_rf(b, 155), 8);
    long v = first_bvalid(b, 0, 150);
    CHECK(b, "LC 0 valid before the host packet", v > 150 && v < 168, 1);
    CHECK_AT(b, 168, "LC 0 waits", b->bvalid[0][168], 1);
    CHECK_AT(b, 168, "B-link free", dbg_owner(b, 168), 0);
    CHECK_AT(b, 176, "host packet goes past the waiting LC", dbg_owner(b, 176), SCI_OWN_HOST);
    CHECK_AT(b, 176, "to LC 0", dbg_port(b, 176), 1);
    CHECK_AT(b, 199, "LC 0 still waits", b->bvalid[0][199], 1);
    CHECK(b, "host packet on the link", (uint64_t)find_link(b, 0, 100, h, nh), 181);
    b->hout_ready = true; /* first packet out 200..204, slot free from 205 */
    run_to(b, 260);
    CHECK_AT(b, 205, "receive FIFO 7", st_rf(b, 205), 7);
    CHECK_AT(b, 206, "LC 0's packet goes", dbg_owner(b, 206), SCI_OWN_LC0);
    CHECK(b, "hout symbols", b->hout_n, 8u * 5u + nl);
    expect_hout(b, __LINE__, 0, 200, p[0], 5);
    expect_hout(b, __LINE__, 35, 235, p[7], 5);
    expect_hout(b, __LINE__, 40, 240, l, nl);

    /* hin_ready: the send FIFO takes 8 packets while the port-0 FIFO is full. */
    b->hout_ready = false;
    for (unsigned i = 0; i < 8; i++)
        put_host(b, 260, p[i], 5);
    for (unsigned i = 0; i < 9; i++)
        put_host(b, 260, p[i % 8], 5); /* 8 more (+1) queue in the send FIFO */
    run_to(b, 400);
    CHECK(b, "receive FIFO full", st_rf(b, 399), 8);
    CHECK(b, "send FIFO full", st_sf(b, 399), 8);
    CHECK(b, "hin_ready 0", sci_node_hin_ready(&b->n), 0);
    CHECK(b, "the 17th packet's symbol 0 did not move", b->hq_pos, 45u + 16u * 5u);
}

/* Section 4: register map, reset values, reads of unmapped addresses. */
static void test_registers(tally_t *t)
{
    bench_t *b = &B;
    memset(b, 0, sizeof *b);
    b->t = t;
    sci_node_init(&b->n, SCI_LC3, 1);
    CHECK(b, "CTRL reset", sci_node_reg_read(&b->n, SCI_PSB_CTRL), (uint64_t)2000 << 32);
    CHECK(b, "STATUS reset", sci_node_reg_read(&b->n, SCI_PSB_STATUS), 0);
    CHECK(b, "DBG reset", sci_node_reg_read(&b->n, SCI_PSB_DBG), 0);
    CHECK(b, "hin_ready after reset", sci_node_hin_ready(&b->n), 1);
    CHECK(b, "hout_valid after reset", sci_node_hout_valid(&b->n), 0);
    b->in.rst_n = true;
    reg_write(b, SCI_PSB_CTRL, 0xFFFFFFFFFFFFFFFFull);
    /* the failover bits [17:16] exist on P2S with two LCs only (sci_node.md sections 4, 6) */
    CHECK(b, "CTRL mask", sci_node_reg_read(&b->n, SCI_PSB_CTRL),
          SCI_PSB_CTRL_MASK & ~(3ull << SCI_PSB_CTRL_FOEN_BIT));
    reg_write(b, SCI_PSB_FOCOL, 0xFFFF);
    CHECK(b, "FOCOL absent on LC3", sci_node_reg_read(&b->n, SCI_PSB_FOCOL), 0);
    reg_write_strb(b, SCI_PSB_CTRL, 0x0000001200000034ull, 0x11);
    CHECK(b, "CTRL byte strobes", sci_node_reg_read(&b->n, SCI_PSB_CTRL), 0x0000FF1200001F34ull);
    reg_write(b, SCI_PSB_TADDR, 0xFFFF);
    CHECK(b, "TADDR 14 bits", sci_node_reg_read(&b->n, SCI_PSB_TADDR), 0x3FFF);
    reg_write(b, SCI_PSB_BRT, 0xF);
    CHECK(b, "BRT 3 bits", sci_node_reg_read(&b->n, SCI_PSB_BRT), 7);
    reg_write(b, SCI_PSB_TADDR, 0x00FF);
    CHECK(b, "LC3 BRT index TADDR[7:0]", sci_node_reg_read(&b->n, SCI_PSB_BRT), 7);
    reg_write(b, SCI_PSB_ASEL, 1);
    CHECK(b, "ASEL reads 0 on LC3", sci_node_reg_read(&b->n, SCI_PSB_ASEL), 0);
    reg_write(b, SCI_PSB_STATUS, 0xFFFF);
    CHECK(b, "STATUS read-only", sci_node_reg_read(&b->n, SCI_PSB_STATUS), 0);
    CHECK(b, "unmapped 0x84", sci_node_reg_read(&b->n, 0x84), 0);
    CHECK(b, "LC 1 absent", sci_node_reg_read(&b->n, 0x20), 0);
    CHECK(b, "LC 0 CTRL", sci_node_reg_read(&b->n, 0x00), sci_lc_reg_read(&b->n.lc[0], 0));
    reg_write(b, 0x00, 0x123);
    CHECK(b, "LC 0 CTRL written", sci_lc_reg_read(&b->n.lc[0], 0) & 0x1FFF, 0x123);
    reg_write(b, 0x20, 0x456); /* no LC 1: dropped */
    CHECK(b, "LC 0 untouched by 0x20", sci_lc_reg_read(&b->n.lc[0], 0) & 0x1FFF, 0x123);

    sci_node_init(&b->n, SCI_P2S, 2);
    reg_write(b, 0x20 + SCI_REG_CTRL, 0x77);
    CHECK(b, "LC 1 CTRL at 0x20", sci_node_reg_read(&b->n, 0x20) & 0x1FFF, 0x77);
    CHECK(b, "LC 0 CTRL still 0", sci_node_reg_read(&b->n, 0x00) & 0x1FFF, 0);
    reg_write(b, SCI_PSB_TADDR, 0x2000 | 0x0123);
    reg_write(b, SCI_PSB_BRT, 3);
    reg_write(b, SCI_PSB_ASEL, 1);
    reg_write(b, SCI_PSB_TADDR, 0x0123);
    CHECK(b, "P2S BRT set 0 apart", sci_node_reg_read(&b->n, SCI_PSB_BRT), 0);
    CHECK(b, "ASEL by TADDR[12:0]", sci_node_reg_read(&b->n, SCI_PSB_ASEL), 1);
    uint64_t w[SCI_NODE_DEBUG_WORDS(2)];
    CHECK(b, "debug words", sci_node_debug(&b->n, w), 8);
    CHECK(b, "debug word: LC 1 DBG", w[5], sci_node_reg_read(&b->n, 0x20 + SCI_REG_DBG));
    CHECK(b, "debug word: PSB DBG", w[7], sci_node_reg_read(&b->n, SCI_PSB_DBG));
}

/* Section 4: reset clears the PSB state and CTRL, keeps BRT/ASEL; a reset edge with a write
 * anywhere in the node is a configuration cycle: the write is performed and every block keeps
 * its CTRL (so the LCs' and the PSB's configuration can be written in successive reset cycles). */
static void test_reset(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_P2S, 1, 5, 300);
    psb_brt(b, 9, 7);
    psb_asel(b, 9, 1);
    psb_brt(b, 8192 + 9, 7);
    uint16_t p[SCI_MAX_PKT];
    unsigned np = mkpkt(p, 9, 0x0100, 5, 1, NULL, 0);
    put_host(b, 120, p, np);
    run_to(b, 140);
    CHECK(b, "discarded before reset", st_disc(b, 139), 1);
    b->in.rst_n = false;
    reg_write_strb(b, SCI_PSB_CTRL, 0x03, 0x01); /* reset edge with a write */
    CHECK(b, "write at reset edge over the kept CTRL", sci_node_reg_read(&b->n, SCI_PSB_CTRL),
          (uint64_t)300 << 32 | 3);
    CHECK(b, "STATUS cleared", sci_node_reg_read(&b->n, SCI_PSB_STATUS), 0);
    CHECK(b, "TADDR kept by a write at reset", sci_node_reg_read(&b->n, SCI_PSB_TADDR), 8192 + 9);
    CHECK(b, "LC 0 CTRL kept (not addressed, configuration cycle)",
          sci_node_reg_read(&b->n, 0) & 0x1FFF, 5);
    bench_step(b); /* reset edge without a write */
    CHECK(b, "CTRL reset values", sci_node_reg_read(&b->n, SCI_PSB_CTRL), (uint64_t)2000 << 32);
    CHECK(b, "TADDR reset", sci_node_reg_read(&b->n, SCI_PSB_TADDR), 0);
    b->in.rst_n = true;
    reg_write(b, SCI_PSB_TADDR, 8192 + 9);
    CHECK(b, "BRT kept", sci_node_reg_read(&b->n, SCI_PSB_BRT), 7);
    reg_write(b, SCI_PSB_TADDR, 9);
    CHECK(b, "ASEL kept", sci_node_reg_read(&b->n, SCI_PSB_ASEL), 1);
    CHECK(b, "BRT set 0 kept", sci_node_reg_read(&b->n, SCI_PSB_BRT), 7);
}

/* Section 2: symbols after the 37th of a host packet are dropped. */
static void test_host_truncation(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_LC3, 1, 5, 2000);
    uint16_t p[40];
    for (unsigned i = 0; i < 40; i++)
        p[i] = (uint16_t)(0x1000 + i);
    p[0] = 5;
    p[1] = 0x0100;
    put_host(b, 110, p, 40); /* host 110..149, B-link 150..186, hout 187..223 */
    run_to(b, 240);
    CHECK(b, "37 symbols to the host", b->hout_n, 37);
    expect_hout(b, __LINE__, 0, 187, p, 37);
}

/* Sections 2/3 under random host gaps and hout back-pressure (P2S, NLC 2):
 * every host packet to port 0 comes back whole and in order (symbol 0 with
 * its address select), every discard is counted, every packet to an LC
 * leaves on its link, in order. */
static uint32_t lcg(uint32_t *r)
{
    *r = *r * 1664525u + 1013904223u;
    return *r >> 8;
}

static void test_random_traffic(tally_t *t)
{
    bench_t *b = &B;
    bench_init(b, t, SCI_P2S, 2, 5, 2000);
    for (unsigned k = 0; k < 2; k++) /* no echo timeout: nothing fails */
        reg_write(b, SCI_NODE_LC_BASE(k), lc_ctrl(5) & ~(0xFFFFull << 48));
    /* Targets 16..23: ASEL 1 for odd ids (their set-1 entry counts), 0 for
     * even ids (set 0); ports 0, 1, 2, 7 and 3 (no LC). */
    static const uint8_t port0[8] = {0, 0, 7, 0, 3, 0, 0, 0};
    static const uint8_t port1[8] = {0, 1, 0, 2, 0, 7, 0, 0};
    for (unsigned i = 0; i < 8; i++) {
        psb_asel(b, (uint16_t)(16 + i), i & 1u);
        psb_brt(b, (uint16_t)(16 + i), port0[i]);
        psb_brt(b, (uint16_t)(8192 + 16 + i), port1[i]);
    }
    b->hout_rand = true;
    b->rnd = 7;
    uint32_t r = 12345;
    static uint16_t pk[40][SCI_MAX_PKT], exp_h[LOG], exp_l[2][LOG];
    unsigned nexp_h = 0, nexp_l[2] = {0, 0}, ndisc = 0, nlc[2] = {0, 0};
    long at = 200;
    for (unsigned i = 0; i < 40; i++) {
        unsigned ti = lcg(&r) % 8u, npay = lcg(&r) % 6u;
        uint16_t tgt = (uint16_t)(16 + ti), pay[8];
        unsigned port = (ti & 1u) ? port1[ti] : port0[ti];
        if (port == 1 || port == 2) {
            if (nlc[port - 1] >= 4) { /* keep within LC k's active buffers */
                i--;
                continue;
            }
            nlc[port - 1]++;
        }
        for (unsigned j = 0; j < npay; j++)
            pay[j] = (uint16_t)lcg(&r);
        if (lcg(&r) & 1u)
            tgt |= SCI_ADDR_SEL; /* the address select overrides it */
        unsigned n = mkpkt(pk[i], tgt, 0x0100, 5, (uint16_t)i, pay, npay);
        for (unsigned j = 0; j < n; j++) {
            at += lcg(&r) % 4u == 0 ? 1 + (long)(lcg(&r) % 3u) : 0;
            b->hq[b->hq_n] = pk[i][j];
            b->hq_at[b->hq_n] = at;
            b->hq_last[b->hq_n++] = j + 1 == n;
        }
        uint16_t s0 = (uint16_t)((tgt & ~SCI_ADDR_SEL) | ((ti & 1u) ? SCI_ADDR_SEL : 0));
        if (port == 0) {
            for (unsigned j = 0; j < n; j++)
                exp_h[nexp_h++] = j ? pk[i][j] : s0;
        } else if (port == 1 || port == 2) {
            for (unsigned j = 0; j < n; j++)
                exp_l[port - 1][nexp_l[port - 1]++] = j ? pk[i][j] : s0;
        } else {
            ndisc++;
        }
    }
    run_to(b, 1500);
    CHECK(b, "all host symbols taken", b->hq_pos, b->hq_n);
    CHECK(b, "hout symbols", b->hout_n, nexp_h);
    unsigned bad = 0;
    for (unsigned i = 0; i < nexp_h && i < b->hout_n; i++)
        bad += b->hout[i] != exp_h[i];
    CHECK(b, "hout symbols in order", bad, 0);
    CHECK(b, "discarded", st_disc(b, 1499), ndisc);
    for (unsigned k = 0; k < 2; k++) {
        unsigned got = 0;
        bad = 0;
        for (long c = 100; c < 1500; c++)
            if (b->lout[k][c] & F) {
                bad += got < nexp_l[k] && (b->lout[k][c] & 0xFFFFu) != exp_l[k][got];
                got++;
            }
        CHECK(b, "link symbols", got, nexp_l[k]);
        CHECK(b, "link symbols in order", bad, 0);
    }
    CHECK(b, "everything drained", st_sf(b, 1499) | st_rf(b, 1499) | st_rb(b, 1499), 0);
}

int main(void)
{
    tally_t t = {0, 0};
    test_host_to_self(&t);
    test_host_to_lc0(&t);
    test_link_to_host(&t);
    test_status_read_answered(&t);
    test_remote_read_timeout(&t);
    test_remote_read_reply_disarms(&t);
    test_status_read_loopback(&t);
    test_reply_buffer_full(&t);
    test_p2s_address_select(&t);
    test_probe_routing(&t);
    test_discard(&t);
    test_priority_lc_before_host(&t);
    test_not_ready_does_not_block(&t);
    test_registers(&t);
    test_reset(&t);
    test_host_truncation(&t);
    test_random_traffic(&t);
    printf("%u passed, %u failed\n", t.checks - t.failed, t.failed);
    return t.failed ? 1 : 0;
}
