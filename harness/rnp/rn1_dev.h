/* rn1_dev.h — RN1 as an ftsim device: port numbering and the pieces both implementations share. */
#ifndef FTSIM_RN1_DEV_H
#define FTSIM_RN1_DEV_H

#include "dev.h"
#include "rn1.h" /* the upset map's entry numbers, RN1_UPSET_* */

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

/* The Verilated RTL (harness/rnp/rn1_rtl.cpp). */
void *rn1_rtl_create(const char *instance, const dev_ops_t **ops, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
