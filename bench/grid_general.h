/* grid_general.h -- bench_grid's rows for issue 9's general structured problems. */
#ifndef HOMG_BENCH_GRID_GENERAL_H
#define HOMG_BENCH_GRID_GENERAL_H

#include <stdio.h>

#include "homg.h"

/* Measures the rows (3D boxes, obstacles, a sigma jump, Neumann projection warm,
 * 1920x1080 vs 2048x1024, bytes per unknown) and writes a markdown table to o
 * (and stdout). max3d: largest 3D side to run (512 on the H100). cases: comma-separated
 * row indices of the case table to run (NULL: all); methods: comma-separated method
 * names (default, vcycle, fft; NULL: all). */
void bench_grid_general(homg_ctx *ctx, int reps, int max3d, const char *cases, const char *methods, FILE *o);

#endif
