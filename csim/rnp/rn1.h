/*
 * rn1.h - cycle-accurate, bit-exact C reference model of the RN1 router.
 *
 * Written from rtl/rn1.md only: the behaviour in its sections 1-5, 7 (the
 * backward channel, on when CFG backchan is 1) and 8, and the block contract
 * (register map, debug encoding, reset/config semantics, backward-channel
 * timing) in the sections after them.  The harness compares it with the RTL
 * in lockstep every cycle.
 *
 * Timing: rn1_t holds the registers.  The output accessors return the values
 * during the current cycle, i.e. the registers as left by the last rn1_step;
 * they never depend on the inputs of the current cycle.  rn1_step is one
 * rising edge: it reads the inputs of the current cycle, computes every next
 * value from the current registers, then commits them all at once.
 *
 * rn1_step allocates nothing and does no I/O: it is the harness's hot loop.
 */
#ifndef RN1_H
#define RN1_H

#include <stdbool.h>
#include <stdint.h>

#define RN1_PORTS     8
#define RN1_DBG_WORDS 11 /* ERRORS, ALLOC, LFSR, PORT0..PORT7, as rn1.md dbg_o slots */

/* Words (rn1.md section 2): bit 8 is c, bits 7:0 are d. */
#define RN1_WORD_MASK 0x1FFu
#define RN1_C         0x100u
#define RN1_IDLE      0x000u
#define RN1_TURN      0x055u
#define RN1_HOLD      0x0AAu
#define RN1_DROP      0x0FFu

/* Register map (rn1.md). */
#define RN1_REG_CFG      0x00u
#define RN1_REG_ERRORS   0x01u
#define RN1_REG_ALLOC    0x02u
#define RN1_REG_LFSR     0x03u
#define RN1_REG_ID       0x04u
#define RN1_REG_PORT0    0x10u /* PORT p at 0x10 + p */
#define RN1_ID_VALUE     0x524E3101u
#define RN1_SEED_DEFAULT 0xACE1u

/* CFG field positions (rn1.md register map). */
#define RN1_CFG_SWALLOW_LSB  0
#define RN1_CFG_DISABLE_LSB  8
#define RN1_CFG_SEED_LSB     16
#define RN1_CFG_MODE_BIT     32
#define RN1_CFG_BACKCHAN_BIT 40
/* Bits of CFG that exist; the rest read 0. */
#define RN1_CFG_MASK 0x00000101FFFFFFFFull

/* PORT p debug register: the armed bit (rn1.md "Armed"). */
#define RN1_DBG_ARMED_BIT 12

/* Debug state codes (rn1.md "State codes"). */
enum rn1_state {
    RN1_S_IDLE = 0,
    RN1_S_SWALLOW = 1,
    RN1_S_FORWARD = 2,
    RN1_S_BLOCKED = 3,
    RN1_S_STATUS = 4,
    RN1_S_CHECKSUM = 5,
    RN1_S_REVERSE = 6,
    RN1_S_HOLD = 7,
    RN1_S_DROP = 8,
    RN1_S_DISCARD = 9 /* backward channel: words discarded until the source closes */
};

/* Dispositions (rn1.md section 2, STATUS d[7:6]). */
enum rn1_disp {
    RN1_DISP_BLOCKED = 0,  /* no free output, some enabled (or TURN under SWALLOW) */
    RN1_DISP_DISABLED = 1, /* every backward port of the direction disabled */
    RN1_DISP_FIRST = 2,    /* even port (dilated) / the only port (dual) */
    RN1_DISP_SECOND = 3    /* odd port, dilated only */
};

typedef struct rn1_in {
    uint16_t fwd[RN1_PORTS]; /* 9-bit word on f<i> input from upstream (bit 8 = c) */
    uint16_t bwd[RN1_PORTS]; /* 9-bit word on b<j> input from downstream */
    uint8_t bwd_bc;          /* bit j: bc input of b(j) (looked at only with backchan 1) */
    bool rst_n;              /* synchronous active-low reset, sampled at the edge */
    bool reg_we;             /* register write at this edge */
    uint8_t reg_waddr;
    uint64_t reg_wdata;
    uint8_t reg_wstrb; /* byte strobes */
} rn1_in_t;

/* Per-forward-port state: exactly the fields of the PORT p debug register. */
typedef struct rn1_port {
    uint8_t state; /* enum rn1_state governing the current cycle */
    uint8_t bq;    /* backward port of the current/last decision; 0 if it blocked */
    uint8_t disp;  /* enum rn1_disp of the current/last connection */
    uint8_t count; /* counted words mod 64 */
    uint8_t xsum;  /* XOR of the d of every counted word (debug field "xor") */
    uint8_t armed; /* 1: the port was in FORWARD, STATUS, REVERSE or HOLD last cycle */
} rn1_port_t;

typedef struct rn1 {
    /* Configuration registers (CFG). */
    uint8_t swallow; /* bit p: forward port p swallows the first word */
    uint8_t disable; /* bit j: backward port b(j) is never chosen */
    uint16_t seed;   /* as written (0 reads back 0; the LFSR loads 0xACE1) */
    bool dual;       /* mode: false = dilated, true = dual */
    bool backchan;   /* backward channel on (rn1.md section 7) */
    /* Shared state. */
    uint16_t lfsr;   /* LFSR value during the current cycle */
    uint16_t errors; /* saturating count of invalid words on live inputs */
    uint8_t alloc;   /* bit j: b(j) allocated to some forward port */
    uint8_t rot;     /* current cycle mod 8: the port served first */
    /* Output registers: the words on the wires during the current cycle. */
    uint16_t fwd_out[RN1_PORTS]; /* f<i> output toward upstream */
    uint16_t bwd_out[RN1_PORTS]; /* b<j> output toward downstream */
    uint8_t bc_q;                /* bit p: fwd_bc_q of rn1.md, before the backchan gate */
    rn1_port_t port[RN1_PORTS];
} rn1_t;

/* Outcome of choosing an output for a routing word (rn1.md section 5). */
typedef struct rn1_choice {
    bool routed;  /* an output was chosen */
    uint8_t bq;   /* the chosen backward port; 0 when blocked */
    uint8_t disp; /* enum rn1_disp */
} rn1_choice_t;

void rn1_init(rn1_t *m);                     /* as after a reset with default configuration */
void rn1_step(rn1_t *m, const rn1_in_t *in); /* one rising clock edge: ends the current cycle */
uint16_t rn1_fwd_out(const rn1_t *m, unsigned i); /* word on f<i> output during the current cycle */
uint16_t rn1_bwd_out(const rn1_t *m, unsigned j); /* word on b<j> output */
uint8_t rn1_fwd_bc_out(const rn1_t *m);           /* bit i: bc output of f<i> (0 with backchan 0) */
uint64_t rn1_reg_read(const rn1_t *m,
                      uint8_t addr); /* register map of rn1.md, value during the current cycle */
void rn1_debug(const rn1_t *m, uint32_t dbg[RN1_DBG_WORDS]); /* the dbg_o slots of rn1.md */

/* Pure helpers (no state), also used by the unit tests. */
uint16_t rn1_lfsr_step(uint16_t s);                      /* one Galois right shift, taps 0xB400 */
uint16_t rn1_seed_eff(uint16_t seed);                    /* seed, or 0xACE1 for a zero seed */
bool rn1_is_invalid(uint16_t w);                         /* c=0 and d not in {00,55,AA,FF} */
uint16_t rn1_status_word(unsigned disp, unsigned count); /* c=1, disp<<6 | count mod 64 */
uint16_t rn1_checksum_word(unsigned xsum);               /* c=1, d = xsum */
uint32_t rn1_port_debug(const rn1_port_t *p);            /* PORT p register / dbg_o slot 3+p */
uint64_t rn1_cfg_pack(const rn1_t *m);                   /* CFG register value */

/* The upset map (rtl/rn1.md section 14): entry numbers in the harness's map, shared by both
 * implementations. The shared state first, then per forward port p eight elements, then the
 * backward output registers. */
enum {
    RN1_UPSET_SWALLOW,
    RN1_UPSET_DISABLE,
    RN1_UPSET_SEED,
    RN1_UPSET_MODE,
    RN1_UPSET_BACKCHAN,
    RN1_UPSET_ERRORS,
    RN1_UPSET_ALLOC,
    RN1_UPSET_LFSR,
    RN1_UPSET_ROT,
    RN1_UPSET_PORT0 /* f<p>: RN1_UPSET_PORT0 + RN1_UPSET_NPORT * p + RN1_UPSET_P_* */
};
enum {
    RN1_UPSET_P_STATE,
    RN1_UPSET_P_BQ,
    RN1_UPSET_P_DISP,
    RN1_UPSET_P_ARMED,
    RN1_UPSET_P_COUNT,
    RN1_UPSET_P_XOR,
    RN1_UPSET_P_OUT,
    RN1_UPSET_P_BC,
    RN1_UPSET_NPORT
};
#define RN1_UPSET_BOUT0 (RN1_UPSET_PORT0 + 8 * RN1_UPSET_NPORT) /* b<j>.out: RN1_UPSET_BOUT0 + j */
#define RN1_UPSET_N     (RN1_UPSET_BOUT0 + 8)

/* An upset: bit b of element e (RN1_UPSET_*) flipped, as the RTL's register; no write, no
 * reload. Returns -1 for an element that does not exist. */
int rn1_upset(rn1_t *m, unsigned e, unsigned b);

/* Choose an output for a routing word with direction dir on forward port p.
 * busy: backward ports already allocated (including those taken earlier in
 * the same cycle); lfsr: the LFSR value during the deciding cycle.
 * bias: the choice bias of rn1.md section 7, the bc inputs of the backward
 * ports in the deciding cycle (0 with backchan 0). */
rn1_choice_t rn1_choose_bc(bool dual, uint8_t disable, uint8_t busy, unsigned p, unsigned dir,
                           uint16_t lfsr, uint8_t bias);

#endif /* RN1_H */
