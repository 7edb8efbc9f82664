/* sci_dev.h — LC3/P2S as ftsim devices: port numbering and what both implementations share. */
#ifndef FTSIM_SCI_DEV_H
#define FTSIM_SCI_DEV_H

#include "dev.h"
#include "rn1_dev.h"

/* Port numbers in the lc3/p2s designs (the order of their port table). */
enum { SCI_P_LIN, SCI_P_LIN_SD, SCI_P_BIN, SCI_P_BIN_LAST, SCI_P_BOUT_READY,
       SCI_P_LOUT, SCI_P_LOUT_SD, SCI_P_BIN_READY, SCI_P_BOUT, SCI_P_BOUT_LAST, SCI_P_BOUT_PORT,
       SCI_P_IRQ, SCI_P_N };

#define SCI_NDEBUG 3u
/* The register address of debug word k (STATUS, COUNTS, DBG). */
uint32_t sci_debug_addr(unsigned k);

/* The Verilated RTL (harness/sci_rtl.cpp): p2s 0 LC3, 1 P2S. */
void *sci_rtl_create(int p2s, const char *instance, const dev_ops_t **ops, char *err, size_t errlen);

#endif
