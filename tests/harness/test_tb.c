/* test_tb.c — what the testbench writer (harness/core/tb.c) refuses and what it writes, on a
 * small design of the test's own (two ports, a register, an RTL module): a statement it does
 * not know (a device control, an event kind it has never seen: the next statement the language
 * gains) is refused with its vector line, a design with no RTL module with the device line;
 * the events file and the testbench carry the vector and the module as the design says. The
 * testbenches of the real designs run under Icarus in the icarus suite. */
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

#define DESIGN(NAME, RTL)                                                                    \
    {                                                                                        \
        .name = NAME, .summary = "a test design", .ports = ports, .nports = 2, .regs = regs, \
        .nregs = 1, .parse_word = parse_word, .format_word = format_word, .rtl = RTL,        \
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

int main(void)
{
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
