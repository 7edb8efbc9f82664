/* tb.c — a vector as a self-checking Verilog testbench (tb.h says what it does). */
#include "tb.h"

#include <string.h>

#include "prng.h"

#define TB_MAXINIT   16u /* configuration registers of a design's reset (more: the table grows) */
#define TB_WORD_SEED 0x7eb5u

int tb_exportable(const dev_design_t *d, char *err, size_t errlen)
{
    if (d->rtl)
        return 0;
    snprintf(err, errlen,
             "device %s has no RTL module of its own to instantiate: the harness composes it "
             "from several devices and the wires between them; export the vectors of the "
             "devices it is made of instead",
             d->name);
    return -1;
}

int tb_check(const vec_t *v, char *err, size_t errlen)
{
    char why[DEV_ERR_LEN];
    if (tb_exportable(v->design, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s:%u: %s", v->path, v->device_line, why);
        return 2;
    }
    for (size_t i = 0; i < v->nev; i++) {
        const vec_ev_t *e = &v->ev[i];
        switch (e->kind) {
        case VEC_DRIVE:
        case VEC_CONFIG:
        case VEC_EXPECT:
        case VEC_REG: break;
        case VEC_CONTROL:
            snprintf(err, errlen,
                     "%s:%u: '%s': a device control has no testbench form yet; this vector "
                     "cannot be exported",
                     v->path, e->line, e->text ? e->text : "");
            return 2;
        case VEC_UPSET: {
            dev_upset_site_t site;
            char what[128];
            if (dev_upset_site(&e->seu, &site, why, sizeof why) == 0)
                break;
            dev_upset_format(v->design, &e->seu, what, sizeof what);
            snprintf(err, errlen,
                     "%s:%u: seu %s: %s; the testbench cannot flip it, so this vector cannot be "
                     "exported",
                     v->path, e->line, what, why);
            return 2;
        }
        default:
            snprintf(err, errlen,
                     "%s:%u: a statement the testbench writer does not know (event kind %d); "
                     "this vector cannot be exported",
                     v->path, e->line, (int)e->kind);
            return 2;
        }
    }
    return 0;
}

/* ---- pieces of Verilog ------------------------------------------------------------------- */

/* s as the body of a Verilog string literal. */
static void sv_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F)
            fprintf(f, "\\%03o", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* s in a line comment: a control character (a newline would end the comment) as '?'. */
static void sv_comment(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7F ? '?' : *s, f);
}

static void header(FILE *f, const dev_design_t *d, const vec_t *v, const tb_opts_t *o)
{
    const dev_rtl_t *r = d->rtl;
    if (v) {
        fputs("// ", f);
        sv_comment(f, v->path);
        fprintf(f, " as a self-checking testbench of device %s.\n", d->name);
    } else {
        fprintf(f,
                "// A self-checking testbench of device %s: it plays the events file named by\n"
                "// +events=FILE (ftsim export-tb FILE.vec --events FILE).\n",
                d->name);
    }
    fprintf(f, "// Written by `ftsim export-tb`; write it again rather than edit it.\n//\n");
    fprintf(f, "// The design: module %s", r->top);
    for (unsigned k = 0; k < r->nparams; k++)
        fprintf(f, "%s%s = %u", k ? ", " : " with ", r->params[k].name, r->params[k].value);
    if (o->netlist)
        fprintf(f, " (built into the netlist %s).\n// Compile and run it with Icarus Verilog 11:\n",
                o->nfiles ? o->files[0] : "");
    else
        fprintf(f, " (set in the instance below).\n// Compile and run it with Icarus Verilog 11:\n");
    fprintf(f, "//   iverilog -g2012 -I%s -o %s %s", o->incdir, o->vvp, o->out);
    for (unsigned k = 0; k < o->nfiles; k++)
        fprintf(f, " %s", o->files[k]);
    fprintf(f, "\n//   vvp -n %s%s\n", o->vvp, v ? "" : " +events=FILE");
    fprintf(
        f,
        "// It keeps to plain IEEE 1800-2012, so other simulators should take the same files\n"
        "// (ftsim tests it with Icarus 11 only). Plusargs:\n"
        "//   +events=FILE   play FILE (ftsim export-tb OTHER.vec --events FILE) instead%s\n"
        "//   +max_msgs=N    print at most N mismatches (10)\n"
        "//   +dump=FILE     dump the design's signals to FILE (VCD)\n"
        "//\n"
        "// What it does is what `ftsim play --model rtl` does to the Verilated RTL: reset held "
        "two\n"
        "// cycles with every input idle, each configuration write in a reset cycle of its own\n"
        "// (none for `config reset-values`), then cycle 0. In every cycle, 1 ns after the rising\n"
        "// edge that starts it: its upsets (each a deposit: the state read and written back with\n"
        "// the bit flipped), then the drives and the register write of the cycle (masked: the\n"
        "// register is read first and its byte strobes written; the bits the vector wrote\n"
        "// before in those bytes from its own copy); 1 ns later the expectations:\n"
        "// an output's word under its care mask, a register field read through the register\n"
        "// port; under `check strict` every output not named must be idle. A mismatch is\n"
        "// printed as FILE:LINE: cycle N: ..., as the player prints it. The last line is PASS\n"
        "// FILE or FAIL FILE; a FAIL ends in $fatal (a non-zero exit status). The clock period\n"
        "// is 10 ns, the first rising edge at 10 ns; in a waveform, cycle N starts with the\n"
        "// edge at (N + R) x 10 ns, R the reset cycles (2 + the configuration writes",
        v ? " of the vector below" : "");
    if (v)
        fprintf(f, ": R = %u here", 2u + v->ninit);
    fprintf(f, ").\n");
}

/* The design's signals and its instance. */
static void design_part(FILE *f, const dev_design_t *d, const tb_opts_t *o)
{
    const dev_rtl_t *r = d->rtl;
    fprintf(f, "  // ---- the design ----\n"
               "  logic        clk_i = 1'b1;\n"
               "  logic        rst_ni = 1'b0;\n"
               "  logic        reg_we_i = 1'b0;\n"
               "  logic [7:0]  reg_waddr_i = 8'd0;\n"
               "  logic [63:0] reg_wdata_i = 64'd0;\n"
               "  logic [7:0]  reg_wstrb_i = 8'd0;\n"
               "  logic [7:0]  reg_raddr_i = 8'd0;\n"
               "  wire  [63:0] reg_rdata_o;\n");
    for (unsigned k = 0; k < r->nsigs; k++) {
        const dev_rtl_sig_t *s = &r->sigs[k];
        if (s->dir == DEV_IN)
            fprintf(f, "  logic [%u:0] %s = %u'd0;\n", s->width - 1, s->name, s->width);
        else
            fprintf(f, "  wire  [%u:0] %s;\n", s->width - 1, s->name);
    }
    fprintf(f, "\n  %s ", r->top);
    if (r->nparams && !o->netlist) {
        fprintf(f, "#(");
        for (unsigned k = 0; k < r->nparams; k++)
            fprintf(f, "%s.%s(%u)", k ? ", " : "", r->params[k].name, r->params[k].value);
        fprintf(f, ") ");
    }
    fprintf(f,
            "u_dut (\n    .clk_i(clk_i), .rst_ni(rst_ni), .reg_we_i(reg_we_i), "
            ".reg_waddr_i(reg_waddr_i),\n    .reg_wdata_i(reg_wdata_i), .reg_wstrb_i(reg_wstrb_i), "
            ".reg_raddr_i(reg_raddr_i),\n    .reg_rdata_o(reg_rdata_o)");
    for (unsigned k = 0; k < r->nsigs; k++)
        fprintf(f, ",\n    .%s(%s)", r->sigs[k].name, r->sigs[k].name);
    fprintf(f, "\n  );\n\n  always #5 clk_i = ~clk_i;\n\n");
}

/* The ports of the vector language: drive, sample, and what the player knows of each. */
static void ports_part(FILE *f, const dev_design_t *d, int with_dut)
{
    char sv[512];
    fprintf(f,
            "  // ---- the device's ports (ftsim info %s), numbered as the harness numbers "
            "them ----\n",
            d->name);
    fprintf(f, "  localparam int NPORTS = %u;\n", d->nports);
    if (with_dut) {
        fprintf(f, "\n  task automatic drive(input int p, input logic [63:0] w);\n    case (p)\n");
        for (unsigned p = 0; p < d->nports; p++)
            if (d->ports[p].dir == DEV_IN) {
                d->rtl->port_sv(d, p, sv, sizeof sv);
                fprintf(f, "      %u: %s  // %s\n", p, sv, d->ports[p].name);
            }
        fprintf(f, "      default: ;\n    endcase\n  endtask\n\n");
        fprintf(f, "  function automatic logic [63:0] sample(input int p);\n"
                   "    sample = 64'd0;\n    case (p)\n");
        for (unsigned p = 0; p < d->nports; p++)
            if (d->ports[p].dir == DEV_OUT) {
                d->rtl->port_sv(d, p, sv, sizeof sv);
                fprintf(f, "      %u: sample = %s;  // %s\n", p, sv, d->ports[p].name);
            }
        fprintf(f, "      default: ;\n    endcase\n  endfunction\n\n");
    }
    fprintf(f, "  function automatic string port_name(input int p);\n    case (p)\n");
    for (unsigned p = 0; p < d->nports; p++) {
        fprintf(f, "      %u: return ", p);
        sv_string(f, d->ports[p].name);
        fprintf(f, ";\n");
    }
    fprintf(f, "      default: return \"?\";\n    endcase\n  endfunction\n\n");
    fprintf(f, "  function automatic int port_kind(input int p);\n    case (p)\n");
    for (unsigned p = 0; p < d->nports; p++)
        if (d->ports[p].kind)
            fprintf(f, "      %u: return %u;\n", p, d->ports[p].kind);
    fprintf(f, "      default: return 0;\n    endcase\n  endfunction\n\n");
    fprintf(f, "  function automatic int port_width(input int p);\n    case (p)\n");
    for (unsigned p = 0; p < d->nports; p++)
        fprintf(f, "      %u: return %u;\n", p, d->ports[p].width);
    fprintf(f, "      default: return 64;\n    endcase\n  endfunction\n\n");
    fprintf(f, "  function automatic bit port_out(input int p);\n    case (p)\n");
    for (unsigned p = 0; p < d->nports; p++)
        if (d->ports[p].dir == DEV_OUT)
            fprintf(f, "      %u: return 1'b1;\n", p);
    fprintf(f, "      default: return 1'b0;\n    endcase\n  endfunction\n\n");
    fprintf(f, "  // an output's value when nothing happens (check strict)\n"
               "  function automatic logic [63:0] port_idle(input int p);\n    case (p)\n");
    for (unsigned p = 0; p < d->nports; p++)
        if (d->ports[p].dir == DEV_OUT && d->ports[p].idle)
            fprintf(f, "      %u: return 64'h%llx;\n", p, (unsigned long long)d->ports[p].idle);
    fprintf(f, "      default: return 64'd0;\n    endcase\n  endfunction\n\n");
}

/* The registers: name, address, field, and a value as the player prints it. */
static void regs_part(FILE *f, const dev_design_t *d)
{
    fprintf(f, "  // ---- the device's registers (fields at addresses) ----\n");
    fprintf(f, "  function automatic string reg_name(input int r);\n    case (r)\n");
    for (unsigned k = 0; k < d->nregs; k++) {
        fprintf(f, "      %u: return ", k);
        sv_string(f, d->regs[k].name);
        fprintf(f, ";\n");
    }
    fprintf(f, "      default: return \"?\";\n    endcase\n  endfunction\n\n");
    fprintf(f, "  // {address, lsb, width} of field r\n"
               "  function automatic logic [23:0] reg_field(input int r);\n    case (r)\n");
    for (unsigned k = 0; k < d->nregs; k++)
        fprintf(f, "      %u: return {8'h%02x, 8'd%u, 8'd%u};\n", k, d->regs[k].addr & 0xFFu,
                d->regs[k].lsb, d->regs[k].width);
    fprintf(f, "      default: return 24'd0;\n    endcase\n  endfunction\n\n");
    fprintf(f, "  // a field's value as the player prints it: its name if it has one, else decimal "
               "below 10, else hex\n"
               "  function automatic string reg_text(input int r, input logic [63:0] v);\n"
               "    if (^v === 1'bx) return $sformatf(\"0x%%0h\", v);\n");
    int any = 0;
    for (unsigned k = 0; k < d->nregs; k++) {
        const char *const *en = d->regs[k].enums;
        if (!en)
            continue;
        if (!any)
            fprintf(f, "    case (r)\n");
        any = 1;
        fprintf(f, "      %u:\n        case (v)\n", k);
        for (unsigned i = 0; en[i]; i++) {
            fprintf(f, "          64'd%u: return ", i);
            sv_string(f, en[i]);
            fprintf(f, ";\n");
        }
        fprintf(f, "          default: ;\n        endcase\n");
    }
    if (any)
        fprintf(f, "      default: ;\n    endcase\n");
    /* (no ?: between strings: Icarus 11 takes it, then vvp aborts) */
    fprintf(f, "    if (v < 64'd10) return ft_dec(v);\n"
               "    return {\"0x\", ft_lhex(v)};\n  endfunction\n\n");
}

/* The helpers every design's words use, the design's words, and a port's word. */
static void words_part(FILE *f, const dev_design_t *d)
{
    fputs(
        "  // ---- words, as the player prints them ----\n"
        "  function automatic string ft_digit(input logic [3:0] x, input bit upper);\n"
        "    if (^x === 1'bx) return \"x\";\n"
        "    if (x < 4'd10) return $sformatf(\"%0d\", x);\n"
        "    return $sformatf(\"%c\", (upper ? 8'd55 : 8'd87) + {4'd0, x});\n"
        "  endfunction\n\n"
        "  // hex of v, at least n digits\n"
        "  function automatic string ft_hexn(input logic [63:0] v, input int n, input bit upper);\n"
        "    string s;\n"
        "    int d;\n"
        "    s = \"\";\n"
        "    d = n < 1 ? 1 : n;\n"
        "    while (d < 16 && (v >> (4 * d)) != 64'd0) d = d + 1;\n"
        "    for (int k = d - 1; k >= 0; k = k - 1) s = {s, ft_digit(v[4*k +: 4], upper)};\n"
        "    return s;\n"
        "  endfunction\n\n"
        "  function automatic string ft_hex(input logic [63:0] v, input int n);\n"
        "    return ft_hexn(v, n, 1'b1);\n"
        "  endfunction\n\n"
        "  function automatic string ft_lhex(input logic [63:0] v);\n"
        "    return ft_hexn(v, 1, 1'b0);\n"
        "  endfunction\n\n"
        "  function automatic string ft_dec(input logic [63:0] v);\n"
        "    return $sformatf(\"%0d\", v);\n"
        "  endfunction\n\n",
        f);
    d->rtl->words_sv(f);
    fputs("\n  // port p's word w as the vector language writes it (hint: as the expectation was\n"
          "  // written); a word with an x or z bit as its bits\n"
          "  function automatic string word_text(input int p, input int hint, input logic [63:0] "
          "w);\n"
          "    logic [63:0] m;\n"
          "    m = port_width(p) >= 64 ? ~64'd0 : (64'd1 << port_width(p)) - 64'd1;\n"
          "    if (^(w & m) === 1'bx) return $sformatf(\"%0d'b%b\", port_width(p), w & m);\n"
          "    return ft_word(port_kind(p), hint, w & m);\n"
          "  endfunction\n\n",
          f);
}

/* One event of the table, with the statement it came from as a comment; a register write
 * as the player makes it (wr: vec_writer_write's, from the vector's own copy). */
static void event_line(FILE *f, const dev_design_t *d, const vec_ev_t *e, const dev_write_t *wr)
{
    char w[64] = "", c[160] = "";
    unsigned idx = e->idx;
    uint64_t value = e->value, care = e->care;
    switch (e->kind) {
    case VEC_DRIVE:
    case VEC_EXPECT:
        if (care == 0)
            snprintf(w, sizeof w, "X");
        else
            dev_format_port_word(d, e->idx, e->value, e->hint, w, sizeof w);
        snprintf(c, sizeof c, "%s %s %s", d->ports[e->idx].name, e->kind == VEC_DRIVE ? "<-" : "->",
                 w);
        break;
    case VEC_REG:
        dev_format_value(&d->regs[e->idx], e->value, w, sizeof w);
        snprintf(c, sizeof c, "reg %s -> %s", d->regs[e->idx].name, w);
        break;
    case VEC_UPSET: /* the map's element, the entry, the bit */
        idx = e->seu.entry;
        value = e->seu.index;
        care = e->seu.bit;
        dev_upset_format(d, &e->seu, w, sizeof w);
        snprintf(c, sizeof c, "seu %s", w);
        break;
    default: /* VEC_CONFIG: a masked write */
        idx = wr->addr;
        value = wr->data;
        care = wr->mask;
        snprintf(c, sizeof c, "write register 0x%02x", wr->addr);
        break;
    }
    fprintf(f, "    ev(%d, %llu, %u, 64'h%llx, 64'h%llx, %u, %u);  // @%llu %s\n", (int)e->kind,
            (unsigned long long)e->cycle, idx, (unsigned long long)value, (unsigned long long)care,
            e->hint, e->line, (unsigned long long)e->cycle, c);
}

/* A WORD or BIT expression of a tb template in the upset task's variables (I: i, B: b). */
static void sv_expr(FILE *f, const char *x, size_t n)
{
    fputc('(', f);
    for (size_t k = 0; k < n; k++)
        fputc(x[k] == 'I' ? 'i' : x[k] == 'B' ? 'b' : x[k], f);
    fputc(')', f);
}

/* VAR of a tb template under the instance, "{I}" replaced by entry (or left if entry < 0). */
static void sv_var(FILE *f, const dev_tb_parts_t *p, long entry)
{
    fputs("u_dut.", f);
    for (size_t k = 0; k < p->var_len; k++) {
        if (entry >= 0 && k + 3 <= p->var_len && strncmp(p->var + k, "{I}", 3) == 0) {
            fprintf(f, "%ld", entry);
            k += 2;
        } else {
            fputc(p->var[k], f);
        }
    }
    if (p->word_len) {
        fputc('[', f);
        sv_expr(f, p->word, p->word_len);
        fputc(']', f);
    }
}

/* One flip: read the state, write it back with the bit flipped (a deposit; the design's logic
 * follows it as it follows any change). The shift's operand takes the variable's width. */
static void sv_flip(FILE *f, const dev_tb_parts_t *p, long entry)
{
    sv_var(f, p, entry);
    fputs(" = ", f);
    sv_var(f, p, entry);
    fputs(" ^ (1'b1 << ", f);
    sv_expr(f, p->bit, p->bit_len);
    fputs(");", f);
}

/* The upset task: bit b of entry i of element e of the design's upset map flipped where the
 * RTL stores it (dev_upset_t.tb). An element with no site is left out (tb_check refuses it). */
static void upset_part(FILE *f, const dev_design_t *d, const tb_opts_t *o)
{
    if (o->netlist) {
        fprintf(f, "  // ---- upsets: none reach a synthesized netlist (its flip-flops are renamed "
                   "and merged) ----\n"
                   "  task automatic upset(input int e, input int i, input int b);\n"
                   "    $display(\"an upset (seu) names a register of the RTL, which the netlist "
                   "%s does not have\");\n"
                   "    $fatal(1);\n  endtask\n\n",
                o->nfiles ? o->files[0] : "");
        return;
    }
    fprintf(f, "  // ---- upsets: bit b of entry i of element e of the upset map (ftsim info %s "
               "--upsets)\n"
               "  // flipped where the RTL stores it, at the start of a cycle: the state is read "
               "and\n"
               "  // written back with the bit flipped, and the design's logic follows it ----\n"
               "  task automatic upset(input int e, input int i, input int b);\n"
               "    case (e)\n",
            d->name);
    for (unsigned k = 0; k < d->nupsets; k++) {
        const dev_upset_t *u = &d->upsets[k];
        dev_tb_parts_t p;
        if (!u->tb || dev_upset_tb_parts(u->tb, &p) < 0)
            continue;
        fprintf(f, "      %u: ", k);
        if (!strstr(u->tb, "{I}")) {
            sv_flip(f, &p, -1);
            fprintf(f, "  // %s\n", u->name);
            continue;
        }
        fprintf(f, "  // %s\n        case (i)\n", u->name);
        for (unsigned i = 0; i < u->count; i++) {
            fprintf(f, "          %u: ", i);
            sv_flip(f, &p, (long)i);
            fputc('\n', f);
        }
        fprintf(f, "          default: ;\n        endcase\n");
    }
    fprintf(f, "      default: ;\n    endcase\n  endtask\n\n");
}

static void table_part(FILE *f, const dev_design_t *d, const vec_t *v, const tb_opts_t *o)
{
    unsigned max = v ? (unsigned)(v->nev ? v->nev : 1) : (o->max_events ? o->max_events : 65536u);
    unsigned maxinit = v && v->ninit > TB_MAXINIT ? v->ninit : TB_MAXINIT;
    fprintf(f,
            "  // ---- the vector: its configuration, and its events in the player's order "
            "(cycle,\n"
            "  // then upsets, drives, the register write, expectations of outputs, of registers)\n"
            "  // ----\n"
            "  localparam int EV_DRIVE = %d, EV_WRITE = %d, EV_EXPECT = %d, EV_REG = %d, EV_UPSET = "
            "%d;\n"
            "  parameter int MAXEV = %u;  // the table's size (-Pftsim_tb.MAXEV=N for more)\n"
            "  localparam int MAXINIT = %u;\n"
            "  string       device_name = ",
            VEC_DRIVE, VEC_CONFIG, VEC_EXPECT, VEC_REG, VEC_UPSET, max, maxinit);
    sv_string(f, d->name);
    fprintf(
        f,
        ";\n"
        "  string       path = \"\";\n"
        "  bit          loaded = 1'b0, strict = 1'b1;\n"
        "  int unsigned end_cycle = 0, device_line = 0, nev = 0, ninit = 0;\n"
        "  logic [7:0]  init_addr [0:MAXINIT-1];\n"
        "  logic [63:0] init_data [0:MAXINIT-1];\n"
        "  logic [63:0] init_mask [0:MAXINIT-1];\n"
        "  // kind, cycle, port (a drive, an expectation), register field (EV_REG), address\n"
        "  // (EV_WRITE) or element of the upset map (EV_UPSET); the word or value (the data of a\n"
        "  // write, an upset's entry), its care mask (a write's mask, an upset's bit), how the\n"
        "  // word was written (hint), the vector's line\n"
        "  logic [7:0]  ev_kind  [0:MAXEV-1];\n"
        "  logic [31:0] ev_cycle [0:MAXEV-1];\n"
        "  logic [31:0] ev_idx   [0:MAXEV-1];\n"
        "  logic [63:0] ev_value [0:MAXEV-1];\n"
        "  logic [63:0] ev_care  [0:MAXEV-1];\n"
        "  logic [7:0]  ev_hint  [0:MAXEV-1];\n"
        "  logic [31:0] ev_line  [0:MAXEV-1];\n\n"
        "  task automatic init(input logic [7:0] a, input logic [63:0] data, input logic "
        "[63:0] mask);\n"
        "    if (ninit >= MAXINIT) begin\n"
        "      $display(\"%%s: more than %%0d configuration writes; this testbench takes "
        "%%0d\", path, ninit, MAXINIT);\n"
        "      $fatal(1, \"FAIL %%s\", path);\n"
        "    end\n"
        "    init_addr[ninit] = a;\n"
        "    init_data[ninit] = data;\n"
        "    init_mask[ninit] = mask;\n"
        "    ninit = ninit + 1;\n"
        "  endtask\n\n"
        "  task automatic ev(input int kind, input logic [31:0] cycle, input logic [31:0] idx,\n"
        "                    input logic [63:0] value, input logic [63:0] care, input int hint,\n"
        "                    input logic [31:0] line);\n"
        "    if (nev >= MAXEV) begin\n"
        "      $display(\"%%s: more than %%0d events; compile the testbench with "
        "-Pftsim_tb.MAXEV=N\", path, MAXEV);\n"
        "      $fatal(1, \"FAIL %%s\", path);\n"
        "    end\n"
        "    ev_kind[nev] = kind[7:0];\n"
        "    ev_cycle[nev] = cycle;\n"
        "    ev_idx[nev] = idx;\n"
        "    ev_value[nev] = value;\n"
        "    ev_care[nev] = care;\n"
        "    ev_hint[nev] = hint[7:0];\n"
        "    ev_line[nev] = line;\n"
        "    nev = nev + 1;\n"
        "  endtask\n\n");
    fprintf(f, "  task automatic load_vector;\n");
    if (v) {
        fprintf(f, "    path = ");
        sv_string(f, v->path);
        fprintf(f, ";\n    strict = 1'b%d;\n    end_cycle = %llu;\n    device_line = %u;\n",
                v->strict ? 1 : 0, (unsigned long long)vec_end_cycle(v), v->device_line);
        if (v->bare_reset)
            fprintf(f, "    // config reset-values: no configuration write during reset\n");
        for (unsigned k = 0; k < v->ninit; k++)
            fprintf(f, "    init(8'h%02x, 64'h%llx, 64'h%llx);\n", v->init[k].addr & 0xFFu,
                    (unsigned long long)v->init[k].data, (unsigned long long)v->init[k].mask);
        vec_writer_t wr;
        vec_writer_init(&wr, v);
        for (size_t i = 0; i < v->nev; i++) {
            dev_write_t full = {0};
            if (v->ev[i].kind == VEC_CONFIG)
                full = vec_writer_write(&wr, &v->ev[i].wr);
            event_line(f, d, &v->ev[i], &full);
        }
        vec_writer_free(&wr);
        fprintf(f, "    loaded = 1'b1;\n");
    }
    fprintf(f, "  endtask\n\n");
}

/* Reading an events file (tb_write_events writes it). */
static const char events_reader[] =
    "  task automatic load_file(input string file);\n"
    "    int fd, n, version, line, kind, hint, cnt;\n"
    "    string key, dev;\n"
    "    logic [63:0] a, b, c, cyc, idx;\n"
    "    fd = $fopen(file, \"r\");\n"
    "    if (fd == 0) begin\n"
    "      $display(\"%s: cannot open\", file);\n"
    "      $fatal(1, \"FAIL %s\", file);\n"
    "    end\n"
    "    n = $fscanf(fd, \"%s %d %s\", key, version, dev);\n"
    "    if (n != 3 || key != \"ftsim-events\" || version != 1) begin\n"
    "      $display(\"%s: not an events file of ftsim export-tb (version 1)\", file);\n"
    "      $fatal(1, \"FAIL %s\", file);\n"
    "    end\n"
    "    if (dev != device_name) begin\n"
    "      $display(\"%s: its events are for device %s; this testbench is device %s\", file, "
    "dev,\n"
    "               device_name);\n"
    "      $fatal(1, \"FAIL %s\", file);\n"
    "    end\n"
    "    n = $fscanf(fd, \" path %s strict %d end %d device_line %d init %d\", path, a, b, c, "
    "cnt);\n"
    "    if (n != 5) begin\n"
    "      $display(\"%s: a damaged header\", file);\n"
    "      $fatal(1, \"FAIL %s\", file);\n"
    "    end\n"
    "    strict = a[0];\n"
    "    end_cycle = b[31:0];\n"
    "    device_line = c[31:0];\n"
    "    for (int k = 0; k < cnt; k = k + 1) begin\n"
    "      n = $fscanf(fd, \" w %h %h %h\", a, b, c);\n"
    "      if (n != 3) begin\n"
    "        $display(\"%s: a damaged configuration write\", file);\n"
    "        $fatal(1, \"FAIL %s\", file);\n"
    "      end\n"
    "      init(a[7:0], b, c);\n"
    "    end\n"
    "    n = $fscanf(fd, \" events %d\", cnt);\n"
    "    if (n != 1) begin\n"
    "      $display(\"%s: no event count\", file);\n"
    "      $fatal(1, \"FAIL %s\", file);\n"
    "    end\n"
    "    for (int k = 0; k < cnt; k = k + 1) begin\n"
    "      n = $fscanf(fd, \" e %d %d %d %h %h %d %d\", kind, cyc, idx, a, b, hint, line);\n"
    "      if (n != 7) begin\n"
    "        $display(\"%s: event %0d of %0d is damaged\", file, k + 1, cnt);\n"
    "        $fatal(1, \"FAIL %s\", file);\n"
    "      end\n"
    "      ev(kind, cyc[31:0], idx[31:0], a, b, hint, line);\n"
    "    end\n"
    "    $fclose(fd);\n"
    "    loaded = 1'b1;\n"
    "  endtask\n\n";

/* The player's cycle loop (harness/core/play.c, run_cycles) on the design. */
static const char runner[] =
    "  // ---- the player ----\n"
    "  int unsigned fails = 0;\n"
    "  int unsigned max_msgs = 10;\n"
    "  int unsigned seu_line = 0;  // the line of the last upset (0: none yet)\n"
    "  bit asserted = 1'b0, asserts_off = 1'b0;\n\n"
    "  task automatic rtl_assertion;  // FT_ASSERT_FAIL\n"
    "    asserted = 1'b1;\n"
    "  endtask\n\n"
    "  task automatic mismatch(input int unsigned line, input int unsigned cyc, input string "
    "msg);\n"
    "    fails = fails + 1;\n"
    "    if (fails <= max_msgs)\n"
    "      $display(\"%s:%0d: cycle %0d: %s\", path, line, cyc, msg);\n"
    "    else if (fails == max_msgs + 1)\n"
    "      $display(\"%s: more mismatches follow; only the first %0d are shown\", path, "
    "max_msgs);\n"
    "  endtask\n\n"
    "  // a read: the address, then the data once the port's logic settled (1 ps)\n"
    "  task automatic reg_read(input logic [7:0] a, output logic [63:0] data);\n"
    "    reg_raddr_i = a;\n"
    "    #0.001;\n"
    "    data = reg_rdata_o;\n"
    "  endtask\n\n"
    "  // a masked write as the register port takes it: the mask widened to byte strobes, the\n"
    "  // strobed bytes' other bits as the register reads now; taken at the next rising edge\n"
    "  task automatic reg_write(input logic [7:0] a, input logic [63:0] data, input logic [63:0] "
    "mask);\n"
    "    logic [63:0] cur;\n"
    "    reg_read(a, cur);\n"
    "    for (int b = 0; b < 8; b = b + 1) reg_wstrb_i[b] = mask[8*b +: 8] != 8'd0;\n"
    "    reg_wdata_i = (cur & ~mask) | (data & mask);\n"
    "    reg_waddr_i = a;\n"
    "    reg_we_i = 1'b1;\n"
    "  endtask\n\n"
    "  // to 1 ns after the next rising edge; the write strobe dropped\n"
    "  task automatic next_cycle;\n"
    "    @(posedge clk_i);\n"
    "    #1;\n"
    "    reg_we_i = 1'b0;\n"
    "  endtask\n\n"
    "  task automatic check_port(input int i, input int unsigned cyc);\n"
    "    logic [63:0] seen;\n"
    "    int p;\n"
    "    p = ev_idx[i];\n"
    "    seen = sample(p);\n"
    "    if (((seen ^ ev_value[i]) & ev_care[i]) !== 64'd0)\n"
    "      mismatch(ev_line[i], cyc, {port_name(p), \": expected \", word_text(p, ev_hint[i], "
    "ev_value[i]),\n"
    "                                 \", rtl saw \", word_text(p, ev_hint[i], seen)});\n"
    "  endtask\n\n"
    "  task automatic check_reg(input int i, input int unsigned cyc);\n"
    "    logic [23:0] fl;\n"
    "    logic [63:0] data, got, m;\n"
    "    int r;\n"
    "    r = ev_idx[i];\n"
    "    fl = reg_field(r);\n"
    "    reg_read(fl[23:16], data);\n"
    "    m = fl[7:0] >= 8'd64 ? ~64'd0 : (64'd1 << fl[7:0]) - 64'd1;\n"
    "    got = (data >> fl[15:8]) & m;\n"
    "    if (got !== ev_value[i])\n"
    "      mismatch(ev_line[i], cyc, {\"reg \", reg_name(r), \": expected \", reg_text(r, "
    "ev_value[i]),\n"
    "                                 \", rtl reads \", reg_text(r, got)});\n"
    "  endtask\n\n"
    "  task automatic check_strict(input bit [NPORTS-1:0] named, input int unsigned line,\n"
    "                              input int unsigned cyc);\n"
    "    logic [63:0] seen;\n"
    "    for (int p = 0; p < NPORTS; p = p + 1)\n"
    "      if (port_out(p) && !named[p]) begin\n"
    "        seen = sample(p);\n"
    "        if (seen !== port_idle(p))\n"
    "          mismatch(line, cyc, {port_name(p), \": rtl saw \", word_text(p, 0, seen),\n"
    "                               \" where nothing is expected (check strict: an output not "
    "named must be idle)\"});\n"
    "      end\n"
    "  endtask\n\n"
    "  initial begin : play\n"
    "    string file;\n"
    "    int unsigned i, line, cyc;\n"
    "    bit have_wr, done;\n"
    "    logic [7:0] wa;\n"
    "    logic [63:0] wd, wm;\n"
    "    bit [NPORTS-1:0] named;\n"
    "    if ($value$plusargs(\"max_msgs=%d\", max_msgs) && max_msgs == 0) max_msgs = 1;\n"
    "    if ($value$plusargs(\"events=%s\", file)) load_file(file);\n"
    "    else load_vector();\n"
    "    if (!loaded) begin\n"
    "      $display(\"this testbench holds no vector: run it with +events=FILE (%s)\",\n"
    "               \"ftsim export-tb FILE.vec --events FILE\");\n"
    "      $fatal(1, \"FAIL (no vector)\");\n"
    "    end\n"
    "    if ($value$plusargs(\"dump=%s\", file)) begin\n"
    "      $dumpfile(file);\n"
    "      $dumpvars(0, ftsim_tb);\n"
    "    end\n"
    "    // reset: two cycles, then one a configuration write\n"
    "    #1;\n"
    "    next_cycle();\n"
    "    next_cycle();\n"
    "    for (int k = 0; k < ninit; k = k + 1) begin\n"
    "      reg_write(init_addr[k], init_data[k], init_mask[k]);\n"
    "      next_cycle();\n"
    "    end\n"
    "    rst_ni = 1'b1;\n"
    "    i = 0;\n"
    "    line = 0;\n"
    "    cyc = 0;\n"
    "    done = 1'b0;\n"
    "    while (!done) begin  // the cycles 0 to end_cycle\n"
    "      have_wr = 1'b0;\n"
    "      while (i < nev && ev_cycle[i] == cyc && ev_kind[i] == EV_UPSET) begin  // first, in order\n"
    "        line = ev_line[i];\n"
    "        seu_line = line;\n"
    "        upset(ev_idx[i], ev_value[i], ev_care[i]);\n"
    "        i = i + 1;\n"
    "      end\n"
    "      while (i < nev && ev_cycle[i] == cyc && ev_kind[i] <= EV_WRITE) begin\n"
    "        line = ev_line[i];\n"
    "        if (ev_kind[i] == EV_DRIVE) begin\n"
    "          drive(ev_idx[i], ev_value[i]);\n"
    "        end else begin\n"
    "          wa = ev_idx[i][7:0];\n"
    "          wd = ev_value[i];\n"
    "          wm = ev_care[i];\n"
    "          have_wr = 1'b1;\n"
    "        end\n"
    "        i = i + 1;\n"
    "      end\n"
    "      if (have_wr) reg_write(wa, wd, wm);\n"
    "      #1;\n"
    "      named = '0;\n"
    "      while (i < nev && ev_cycle[i] == cyc) begin\n"
    "        line = ev_line[i];\n"
    "        if (ev_kind[i] == EV_EXPECT) begin\n"
    "          named[ev_idx[i]] = 1'b1;\n"
    "          check_port(i, cyc);\n"
    "        end else begin\n"
    "          check_reg(i, cyc);\n"
    "        end\n"
    "        i = i + 1;\n"
    "      end\n"
    "      if (strict) check_strict(named, line != 0 ? line : device_line, cyc);\n"
    "      next_cycle();\n"
    "      done = cyc == end_cycle;\n"
    "      if (asserted && seu_line == 0) begin  // the harness stops there too\n"
    "        mismatch(line != 0 ? line : device_line, cyc,\n"
    "                 $sformatf(\"rtl flagged an internal error (assertion) in cycle %0d\", "
    "cyc));\n"
    "        done = 1'b1;\n"
    "      end else if (asserted && !asserts_off) begin  // after an upset: what it did\n"
    "        asserts_off = 1'b1;\n"
    "        $display(\"%s:%0d: cycle %0d: note: an RTL assertion fired after the upset on line "
    "%0d: %s\",\n"
    "                 path, line != 0 ? line : device_line, cyc, seu_line,\n"
    "                 \"an observation of the run, not a mismatch (the RTL's assertions are off "
    "from here)\");\n"
    "      end\n"
    "      cyc = cyc + 1;\n"
    "    end\n"
    "    if (fails != 0) begin\n"
    "      if (fails == 1) $display(\"%s: 1 mismatch (models: rtl)\", path);\n"
    "      else $display(\"%s: %0d mismatches (models: rtl)\", path, fails);\n"
    "      $display(\"FAIL %s\", path);\n"
    "      $fatal(1, \"FAIL %s\", path);\n"
    "    end\n"
    "    $display(\"PASS %s\", path);\n"
    "    $finish;\n"
    "  end\n";

int tb_write(FILE *f, const dev_design_t *d, const vec_t *v, const tb_opts_t *o)
{
    header(f, d, v, o);
    /* A directive, not a timeunit in the module: the RTL files compiled after this one take
     * it too, so no module is left without a time unit (an error in some simulators). */
    fprintf(
        f, "`timescale 1ns / 1ps\n`default_nettype none\n\n"
           "// A failed assertion of the RTL (its macro FT_ASSERT_FAIL, when the RTL's files come\n"
           "// after this one) also tells this testbench, which fails the vector as the harness\n"
           "// does; after an upset it is noted once instead (an observation of the upset, not a\n"
           "// mismatch), and the RTL's assertions are silent from there, as in the harness.\n"
           "`define FT_ASSERT_FAIL(msg) begin if (!ftsim_tb.asserts_off) $error msg; "
           "ftsim_tb.rtl_assertion(); end\n\n"
           "module ftsim_tb;\n\n");
    design_part(f, d, o);
    ports_part(f, d, 1);
    regs_part(f, d);
    words_part(f, d);
    upset_part(f, d, o);
    table_part(f, d, v, o);
    fputs(events_reader, f);
    fputs(runner, f);
    fprintf(f, "endmodule\n\n`default_nettype wire\n");
    return ferror(f) ? 2 : 0;
}

int tb_write_events(FILE *f, const vec_t *v, char *err, size_t errlen)
{
    if (strpbrk(v->path, " \t\r\n")) {
        snprintf(err, errlen, "%s: an events file cannot carry a path with a space in it", v->path);
        return 2;
    }
    fprintf(f, "ftsim-events 1 %s\n", v->design->name);
    fprintf(f, "path %s\nstrict %d\nend %llu\ndevice_line %u\ninit %u\n", v->path,
            v->strict ? 1 : 0, (unsigned long long)vec_end_cycle(v), v->device_line, v->ninit);
    for (unsigned k = 0; k < v->ninit; k++)
        fprintf(f, "w %x %llx %llx\n", v->init[k].addr, (unsigned long long)v->init[k].data,
                (unsigned long long)v->init[k].mask);
    fprintf(f, "events %zu\n", v->nev);
    vec_writer_t wr;
    vec_writer_init(&wr, v);
    for (size_t i = 0; i < v->nev; i++) {
        const vec_ev_t *e = &v->ev[i];
        dev_write_t full;
        if (e->kind == VEC_CONFIG) {
            full = vec_writer_write(&wr, &e->wr);
            fprintf(f, "e %d %llu %u %llx %llx %u %u\n", (int)e->kind, (unsigned long long)e->cycle,
                    full.addr, (unsigned long long)full.data, (unsigned long long)full.mask, 0u,
                    e->line);
        } else if (e->kind == VEC_UPSET)
            fprintf(f, "e %d %llu %u %x %x %u %u\n", (int)e->kind, (unsigned long long)e->cycle,
                    e->seu.entry, e->seu.index, e->seu.bit, 0u, e->line);
        else
            fprintf(f, "e %d %llu %u %llx %llx %u %u\n", (int)e->kind, (unsigned long long)e->cycle,
                    e->idx, (unsigned long long)e->value, (unsigned long long)e->care, e->hint,
                    e->line);
    }
    vec_writer_free(&wr);
    if (ferror(f)) {
        snprintf(err, errlen, "write error");
        return 2;
    }
    return 0;
}

/* ---- the words check ------------------------------------------------------------------- */

static void word_check(FILE *f, const dev_design_t *d, unsigned p, unsigned hint, uint64_t w)
{
    char text[64];
    d->format_word(d->ports[p].kind, w, (uint8_t)hint, text, sizeof text);
    fprintf(f, "    ck_word(%u, %u, 64'h%llx, ", p, hint, (unsigned long long)w);
    sv_string(f, text);
    fprintf(f, ");\n");
}

/* Sample words of every port kind (one port of each kind and width): every value of a narrow
 * port, else the low bytes, each bit alone, all ones and pseudo-random ones; each with hint 0,
 * and with the hints 1..7 where the player prints it otherwise. */
static void words_checks(FILE *f, const dev_design_t *d)
{
    prng_t rng;
    prng_seed(&rng, TB_WORD_SEED);
    for (unsigned p = 0; p < d->nports; p++) {
        int seen = 0;
        for (unsigned q = 0; q < p; q++)
            seen |= d->ports[q].kind == d->ports[p].kind && d->ports[q].width == d->ports[p].width;
        if (seen)
            continue;
        unsigned width = d->ports[p].width;
        uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1u;
        uint64_t vals[2048];
        unsigned n = 0;
        if (width <= 10) {
            for (uint64_t x = 0; x <= mask; x++)
                vals[n++] = x;
        } else {
            for (uint64_t x = 0; x < 256; x++)
                vals[n++] = x;
            for (unsigned b = 0; b < width; b++)
                vals[n++] = 1ull << b;
            vals[n++] = mask;
            while (n < 1200)
                vals[n++] = prng_next(&rng) & mask;
            /* every value of the bits above the low 13 (the shapes a word takes), each with
             * low bits at their edges and at random */
            static const uint64_t low[7] = {0, 1, 0xF, 0x10, 0xFF, 0x100, 0x1FFF};
            for (uint64_t top = 0; top <= (mask >> 13) && n + 8 <= 2048; top++) {
                for (unsigned k = 0; k < 7; k++)
                    vals[n++] = ((top << 13) | low[k]) & mask;
                vals[n++] = ((top << 13) | (prng_next(&rng) & 0x1FFFu)) & mask;
            }
        }
        for (unsigned k = 0; k < n; k++) {
            char t0[64], th[64];
            d->format_word(d->ports[p].kind, vals[k], 0, t0, sizeof t0);
            word_check(f, d, p, 0, vals[k]);
            for (unsigned h = 1; h < 8; h++) {
                d->format_word(d->ports[p].kind, vals[k], (uint8_t)h, th, sizeof th);
                if (strcmp(t0, th) != 0)
                    word_check(f, d, p, h, vals[k]);
            }
        }
    }
    for (unsigned r = 0; r < d->nregs; r++) {
        const dev_reg_t *g = &d->regs[r];
        uint64_t max = g->width >= 64 ? ~0ull : (1ull << g->width) - 1u;
        uint64_t vals[8] = {0, 1, 9, 10, 11, 0xAB, max, max - 1};
        unsigned n = 8;
        for (unsigned k = 0; k < n; k++) {
            if (vals[k] > max)
                continue;
            char text[64];
            dev_format_value(g, vals[k], text, sizeof text);
            fprintf(f, "    ck_reg(%u, 64'h%llx, ", r, (unsigned long long)vals[k]);
            sv_string(f, text);
            fprintf(f, ");\n");
        }
    }
}

int tb_write_words(FILE *f, const dev_design_t *d, const tb_opts_t *o)
{
    fprintf(f,
            "// The words of an exported testbench of device %s against ftsim's: every sample\n"
            "// below is printed by the testbench's functions and compared with the text ftsim\n"
            "// prints for it. Written by `ftsim export-tb --device %s --words`; run it with\n"
            "//   iverilog -g2012 -o %s %s\n//   vvp -n %s\n"
            "`default_nettype none\n\nmodule ftsim_tb;\n",
            d->name, d->name, o->vvp, o->out, o->vvp);
    ports_part(f, d, 0);
    regs_part(f, d);
    words_part(f, d);
    fprintf(f, "  int unsigned checked = 0, fails = 0;\n\n"
               "  task automatic ck_word(input int p, input int hint, input logic [63:0] w, input "
               "string want);\n"
               "    string got;\n"
               "    got = word_text(p, hint, w);\n"
               "    checked = checked + 1;\n"
               "    if (got != want) begin\n"
               "      fails = fails + 1;\n"
               "      if (fails <= 10) $display(\"port %%s hint %%0d word 0x%%0h: testbench "
               "%%s, ftsim %%s\", port_name(p), hint, w, got, want);\n"
               "    end\n"
               "  endtask\n\n"
               "  task automatic ck_reg(input int r, input logic [63:0] v, input string want);\n"
               "    string got;\n"
               "    got = reg_text(r, v);\n"
               "    checked = checked + 1;\n"
               "    if (got != want) begin\n"
               "      fails = fails + 1;\n"
               "      if (fails <= 10) $display(\"reg %%s value 0x%%0h: testbench %%s, ftsim "
               "%%s\", reg_name(r), v, got, want);\n"
               "    end\n"
               "  endtask\n\n"
               "  initial begin\n");
    words_checks(f, d);
    fprintf(f,
            "    $display(\"words of %s: %%0d checked, %%0d differ\", checked, fails);\n"
            "    if (fails != 0) $fatal(1, \"FAIL words %s\");\n"
            "    $display(\"PASS words %s\");\n"
            "    $finish;\n"
            "  end\nendmodule\n\n`default_nettype wire\n",
            d->name, d->name, d->name);
    return ferror(f) ? 2 : 0;
}
