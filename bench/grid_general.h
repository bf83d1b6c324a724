/* grid_general.h -- bench_grid's rows for issue 9's general structured problems. */
#ifndef HOMG_BENCH_GRID_GENERAL_H
#define HOMG_BENCH_GRID_GENERAL_H

#include <stdio.h>

#include "homg.h"

/* Measures the rows (3D boxes, obstacles, a sigma jump, Neumann projection warm,
 * 1920x1080 vs 2048x1024, bytes per unknown) and writes a markdown table to o
 * (and stdout). sizes3d: largest 3D side to run (512 on the H100). */
/* rows: NULL, or run only the rows whose name contains it (e.g. "2D "). */
void bench_grid_general(homg_ctx *ctx, int reps, int max3d, const char *rows, FILE *o);

#endif
