// sc_main.h — the commands of ftsim-sc beyond play, one file each in harness/sc/.
#ifndef FTSIM_SC_MAIN_H
#define FTSIM_SC_MAIN_H

int cmd_sc_regs(int argc, char **argv);     // sc_regs.cpp
int cmd_sc_platform(int argc, char **argv); // sc_platform.cpp
int cmd_sc_bench(int argc, char **argv);    // sc_bench.cpp
int cmd_sc_rnpnet(int argc, char **argv);   // sc_rnpnet.cpp

#endif
