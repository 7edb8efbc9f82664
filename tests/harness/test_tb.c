/* test_tb.c — what the testbench writer (harness/core/tb.c) refuses and what it writes, on a
 * small design of the test's own (two ports, a register, an RTL module): a statement it does
 * not know (a device control, an event kind it has never seen: the next statement the language
 * gains) is refused with its vector line, a design with no RTL module with the device line;
 * the events file and the testbench carry the vector and the module as the design says; an
 * upset becomes a deposit at the site its map entry names, and one with no site is refused
 * with its line. The testbenches of the real designs run under Icarus in the icarus suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tb.h"
#include "vec.h"

/* Words: a hex number, or X. */
static int parse_word(unsigned kind, const char *text, uint64_t *value, uint64_t *care,
                      uint8_t *hint, char *err, size_t errlen)
{
    (void)kind;
    *hint = 0;
    *care = strcmp(text, "X") ? 0xFFu : 0u;
    char *end;
    *value = *care ? strtoull(text, &end, 16) : 0;
    if (*care && *end) {
        snprintf(err, errlen, "bad word '%s'", text);
        return -1;
    }
    return 0;
}

static void format_word(unsigned kind, uint64_t value, uint8_t hint, char *buf, size_t len)
{
    (void)kind, (void)hint;
    snprintf(buf, len, "%llx", (unsigned long long)value);
}

static void port_sv(const dev_design_t *d, unsigned p, char *buf, size_t len)
{
    (void)d;
    snprintf(buf, len, "%s", p == 0 ? "a_i = w[7:0];" : "b_o");
}

static void words_sv(FILE *f)
{
    fputs("  function automatic string ft_word(input int kind, input int hint, input logic "
          "[63:0] w);\n    return ft_lhex(w);\n  endfunction\n",
          f);
}

static const dev_port_t ports[] = {{"a", DEV_IN, 8, 0, 0}, {"b", DEV_OUT, 8, 0, 0}};
static const dev_reg_t regs[] = {{"k", 0x03, 4, 4, DEV_REG_CONFIG, 5, NULL}};
static const dev_rtl_sig_t sigs[] = {{"a_i", DEV_IN, 8}, {"b_o", DEV_OUT, 8}};
static const dev_rtl_param_t params[] = {{"Depth", 7}};
static const dev_rtl_t rtl = {.top = "tmod",
                              .params = params,
                              .nparams = 1,
                              .sigs = sigs,
                              .nsigs = 2,
                              .port_sv = port_sv,
                              .words_sv = words_sv};

/* The upset map: a register in a submodule, a memory, a register named by its entry (p{I}_q),
 * and one no simulator reaches (no tb site). */
static const dev_upset_t upsets[] = {
    {"cnt", 4, 0, 0, "u_c.cnt_q", "cnt", NULL, NULL, NULL, "u_c.cnt_q[2+B]"},
    {"mem", 8, 0, 16, "mem", "mem[I]", NULL, NULL, NULL, "mem[I][B]"},
    {"pipe", 3, 0, 2, "p0_q, p1_q", "pipe[I]", NULL, NULL, NULL, "p{I}_q[B]"},
    {"hid", 2, 0, 0, "a net", "hid", NULL, NULL, NULL, NULL},
};

#define DESIGN(NAME, RTL)                                                                    \
    {                                                                                        \
        .name = NAME, .summary = "a test design", .ports = ports, .nports = 2, .regs = regs, \
        .nregs = 1, .parse_word = parse_word, .format_word = format_word, .rtl = RTL,        \
        .upsets = upsets, .nupsets = 4,                                                      \
    }
static const dev_design_t t1 = DESIGN("t1", &rtl), t0 = DESIGN("t0", NULL);
static const dev_design_t *const designs[] = {&t1, &t0, NULL};
static const dev_catalog_t cat = {.designs = designs};

static const char text1[] = "device t1\n"
                            "config k=3\n"
                            "@0 a <- 1f\n"
                            "@2 b -> 1f\n"
                            "@3 reg k -> 3\n";

/* Written into memory, as text. */
static char *written(int (*fn)(FILE *, const void *), const void *ctx, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *rc = fn(f, ctx);
    fclose(f);
    return buf ? buf : strdup("");
}

static int put_events(FILE *f, const void *v)
{
    char err[DEV_ERR_LEN];
    return tb_write_events(f, v, err, sizeof err);
}

static int put_tb(FILE *f, const void *v)
{
    const char *files[] = {"r/tmod.v"};
    tb_opts_t o = {.out = "t.sv", .vvp = "t.vvp", .incdir = "r", .files = files, .nfiles = 1};
    return tb_write(f, ((const vec_t *)v)->design, v, &o);
}

static const char text2[] = "device t1\n"
                            "config k=3\n"
                            "@1 seu cnt bit1\n"
                            "@1 a <- 2\n"
                            "@2 seu mem[0xB] bit7\n"
                            "@3 seu pipe[1] bit2\n"
                            "@4 reg k <- 1\n";
static const char text3[] = "device t1\n"
                            "@0 a <- 1\n"
                            "@5 seu hid bit1\n";

/* Upsets: their sites (dev_upset_t.tb), the events, the testbench's deposit, a refusal. */
static void upsets_check(void)
{
    vec_t v;
    char err[DEV_ERR_LEN];
    int rc = vec_parse("u.vec", text2, sizeof text2 - 1, &cat, &v, err, sizeof err);
    CHECK(rc == 0, "parse: %s", err);
    if (rc)
        return;
    CHECK(tb_check(&v, err, sizeof err) == 0, "upsets with sites are taken: %s", err);
    dev_upset_site_t st;
    CHECK(v.ev[0].kind == VEC_UPSET && dev_upset_site(&v.ev[0].seu, &st, err, sizeof err) == 0 &&
              !strcmp(st.var, "u_c.cnt_q") && st.word == -1 && st.pos == 3,
          "cnt bit1: bit 3 of u_c.cnt_q, first in its cycle");
    const vec_ev_t *m = &v.ev[2], *pp = &v.ev[3];
    CHECK(m->kind == VEC_UPSET && dev_upset_site(&m->seu, &st, err, sizeof err) == 0 &&
              !strcmp(st.var, "mem") && st.word == 11 && st.pos == 7,
          "mem[0xB] bit7: word 11, bit 7");
    CHECK(pp->kind == VEC_UPSET && dev_upset_site(&pp->seu, &st, err, sizeof err) == 0 &&
              !strcmp(st.var, "p1_q") && st.word == -1 && st.pos == 2,
          "pipe[1] bit2: p1_q bit 2 (%s)", st.var);
    int64_t x = 0;
    CHECK(dev_upset_tb_eval("(I/6)*98+(5-I%6)*16+B", 21, 7, 3, &x) == 0 && x == 165,
          "an expression of I and B as C computes it: %lld", (long long)x);
    CHECK(dev_upset_tb_eval("I*", 2, 1, 1, &x) < 0 && dev_upset_tb_eval("(B", 2, 1, 1, &x) < 0 &&
              dev_upset_tb_eval("B/0", 3, 1, 1, &x) < 0,
          "a malformed expression is refused");

    char *ev = written(put_events, &v, &rc);
    CHECK(rc == 0 && strstr(ev, "\ne 5 1 0 0 1 0 3\n") && strstr(ev, "\ne 5 2 1 b 7 0 5\n"),
          "an upset's event: kind 5, cycle, element, entry, bit, line: %s", ev);
    CHECK(strstr(ev, "\ne 1 4 3 10 f0 0 7\n"),
          "a write widened from the vector's copy (k=1 over the reset's k=3: bits 7:4): %s", ev);
    free(ev);
    char *tb = written(put_tb, &v, &rc);
    CHECK(rc == 0 &&
              strstr(tb, "0: u_dut.u_c.cnt_q = u_dut.u_c.cnt_q ^ (1'b1 << (2+b));  // cnt\n") &&
              strstr(tb, "1: u_dut.mem[(i)] = u_dut.mem[(i)] ^ (1'b1 << (b));  // mem\n") &&
              strstr(tb, "1: u_dut.p1_q = u_dut.p1_q ^ (1'b1 << (b))") &&
              strstr(tb, "ev(5, 2, 1, 64'hb, 64'h7, 0, 5);  // @2 seu mem[0xB] bit7"),
          "the testbench's deposits, read and written back with the bit flipped");
    CHECK(!strstr(tb, "// hid"), "no deposit for an element without a site");
    free(tb);
    vec_free(&v);

    rc = vec_parse("h.vec", text3, sizeof text3 - 1, &cat, &v, err, sizeof err);
    CHECK(rc == 0, "parse: %s", err);
    if (rc)
        return;
    rc = tb_check(&v, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "h.vec:3: seu hid bit1: ") && strstr(err, "cannot flip it"),
          "an upset of an element no simulator reaches is refused on its line: %d %s", rc, err);
    vec_free(&v);
}

int main(void)
{
    upsets_check();
    vec_t v;
    char err[DEV_ERR_LEN];
    int rc = vec_parse("t.vec", text1, sizeof text1 - 1, &cat, &v, err, sizeof err);
    CHECK(rc == 0, "parse: %s", err);
    if (rc)
        goto done;
    CHECK(tb_check(&v, err, sizeof err) == 0,
          "a vector of drives, expectations and register "
          "reads is taken: %s",
          err);

    char *ev = written(put_events, &v, &rc);
    CHECK(rc == 0, "events file written");
    CHECK(strstr(ev, "ftsim-events 1 t1\npath t.vec\nstrict 1\nend 7\n"),
          "the header names the device, the path, strict and the end (last cycle + 4): %s", ev);
    CHECK(strstr(ev, "init 1\nw 3 30 f0\n"), "the reset write k=3 (bits 7:4 of 0x03): %s", ev);
    CHECK(strstr(ev, "events 3\n"), "three events: %s", ev);
    CHECK(strstr(ev, "\ne 3 2 1 1f ff 0 4\n"), "the expectation of b on line 4: %s", ev);
    free(ev);

    char *tb = written(put_tb, &v, &rc);
    CHECK(rc == 0, "testbench written");
    CHECK(strstr(tb, "tmod #(.Depth(7)) u_dut ("), "the module with its parameter");
    CHECK(strstr(tb, ".a_i(a_i)") && strstr(tb, ".b_o(b_o)"), "its signals connected");
    CHECK(strstr(tb, "//   iverilog -g2012 -Ir -o t.vvp t.sv r/tmod.v\n"), "the header's command");
    CHECK(strstr(tb, "0: a_i = w[7:0];  // a"), "the drive of port a");
    CHECK(strstr(tb, "path = \"t.vec\";"), "the vector's path");
    free(tb);

    /* a device control: no testbench form yet */
    vec_ev_t keep = v.ev[1];
    v.ev[1].kind = VEC_CONTROL;
    v.ev[1].text = "seu b 3";
    rc = tb_check(&v, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "t.vec:4: 'seu b 3'"), "a control is refused on its line: %d %s",
          rc, err);
    /* an event kind the writer has never seen */
    v.ev[1].kind = (vec_kind_t)9;
    v.ev[1].text = NULL;
    rc = tb_check(&v, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "t.vec:4: ") && strstr(err, "does not know"),
          "an unknown statement is refused on its line: %d %s", rc, err);
    v.ev[1] = keep;

    /* a design with no RTL module */
    const dev_design_t *d = v.design;
    v.design = &t0;
    rc = tb_check(&v, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "t.vec:1: device t0 has no RTL module"),
          "a design with no RTL module is refused on the device line: %d %s", rc, err);
    CHECK(tb_exportable(&t0, err, sizeof err) < 0 && tb_exportable(&t1, err, sizeof err) == 0,
          "tb_exportable");
    v.design = d;
    vec_free(&v);
done:
    return check_done();
}
