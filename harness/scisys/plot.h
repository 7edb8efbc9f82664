/* plot.h — dependency-free PNG line plots of experiment time series (bandwidth, latency
 * over time, with dashed markers at fault and recovery times). */
#ifndef FTSIM_PLOT_H
#define FTSIM_PLOT_H

#include <stddef.h>

/* One line.  NaN (or infinite) y values break the line; a point with no drawn neighbour
 * is shown as a small square so a lone sample stays visible.  n == 0: legend entry only. */
typedef struct plot_series {
    const char *name;
    const double *x, *y;
    unsigned n;
} plot_series_t;

typedef struct plot {
    const char *title, *xlabel, *ylabel;   /* any may be NULL; ASCII 32..126 shown */
    const plot_series_t *series;           /* drawn as lines, distinct colours, legend */
    unsigned nseries;                      /* colours repeat after PLOT_NCOLOURS */
    const double *vline;                   /* vertical dashed markers (e.g. fault, recovery) */
    unsigned nvline;
    const char *const *vline_label;        /* may be NULL, or hold NULL entries */
    int ymin_zero;                         /* 1: y axis starts at 0 (if data are >= 0) */
    unsigned width, height;                /* 0: defaults 800 x 450; clamped to 200..4096 */
} plot_t;

#define PLOT_NCOLOURS 8
#define PLOT_VLINE_RGB 0xd62728u /* marker colour, used by nothing else */

/* Writes an RGB PNG; returns 0, or -1 with a message in err (bad arguments, cannot open or
 * write, out of memory, no data).  err may be NULL. */
int plot_png(const char *path, const plot_t *p, char *err, size_t errlen);

#endif
