/* rn1_dev.h — RN1 as an ftsim device: port numbering and the pieces both implementations share. */
#ifndef FTSIM_RN1_DEV_H
#define FTSIM_RN1_DEV_H

#include "dev.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const dev_design_t rn1_design; /* a fixed design (dev.h) */

/* Port numbers in rn1_design.ports (and in the in[]/out[] arrays of dev.h). */
#define RN1_P_FIN(i)  (0u + (i))  /* f<i> input from upstream */
#define RN1_P_BIN(j)  (8u + (j))  /* b<j> input from downstream */
#define RN1_P_BBC(j)  (16u + (j)) /* b<j>.bc input */
#define RN1_P_FOUT(i) (24u + (i)) /* f<i> output toward upstream */
#define RN1_P_BOUT(j) (32u + (j)) /* b<j> output toward downstream */
#define RN1_P_FBC(i)  (40u + (i)) /* f<i>.bc output */
#define RN1_NPORTS    48u

#define RN1_REG_CFG 0x00u
#define RN1_NDEBUG  11u

/* The upset map (rtl/rn1.md section 14): entry numbers in rn1_design.upsets, shared by both
 * implementations. The shared state first, then per forward port p eight elements, then the
 * backward output registers. */
enum {
    RN1_SEU_SWALLOW,
    RN1_SEU_DISABLE,
    RN1_SEU_SEED,
    RN1_SEU_MODE,
    RN1_SEU_BACKCHAN,
    RN1_SEU_ERRORS,
    RN1_SEU_ALLOC,
    RN1_SEU_LFSR,
    RN1_SEU_ROT,
    RN1_SEU_PORT0 /* f<p>: RN1_SEU_PORT0 + RN1_SEU_NPORT * p + RN1_SEU_P_* */
};
enum {
    RN1_SEU_P_STATE,
    RN1_SEU_P_BQ,
    RN1_SEU_P_DISP,
    RN1_SEU_P_ARMED,
    RN1_SEU_P_COUNT,
    RN1_SEU_P_XOR,
    RN1_SEU_P_OUT,
    RN1_SEU_P_BC,
    RN1_SEU_NPORT
};
#define RN1_SEU_BOUT0 (RN1_SEU_PORT0 + 8 * RN1_SEU_NPORT) /* b<j>.out: RN1_SEU_BOUT0 + j */
#define RN1_SEU_N     (RN1_SEU_BOUT0 + 8)

/* The Verilated RTL (harness/rnp/rn1_rtl.cpp). */
void *rn1_rtl_create(const char *instance, const dev_ops_t **ops, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
