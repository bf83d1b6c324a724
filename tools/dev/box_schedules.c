/* box_schedules.c -- CPU experiment (session 12, twod3): the fused 2D box cycles' sweeps per
 * level (HOMG_BOX_SCHED, lib/grid/box.c) against the error after each cycle, through the
 * library itself on the CPU backend (the CPU twins of the fused kernels, float32 as in
 * bench_grid: the same cycles reach 1e-4 there).  For each size and each plan it prints the
 * error against the exact discrete solution (bench_grid's problem: homg_p2_exact with
 * noise 0.1, Dirichlet data) after 1..4 cycles, for the fused V-cycles from u = 0 ("fused-v")
 * and with the full-multigrid first cycle ("fmg"), and the work units of 2 cycles.
 * BS_F64=1: float64 (bench_grid's float64 target is 1e-8).
 * BS_FMG=0: the fused V-cycles alone; BS_FROM=3: only the errors after 3 and 4 cycles (the
 * others print as 0; large sizes).
 * Build and run from the repository root after `make CUDA=1 build/libhomg.a`:
 *   make CUDA=1 build/obj/tests/util/poisson2d.c.o build/obj/tests/util/testutil.c.o
 *   cc -O2 -std=c99 -Ilib -Itests/util tools/dev/box_schedules.c build/obj/tests/util/*.c.o \
 *      build/libhomg.a <CUDA_LIBS> -lm -o /tmp/bs
 *   /tmp/bs 256,1024 "0" "22,33" "12,33;12,33"       (plans as HOMG_BOX_SCHED takes them) */
#include "homg.h"
#include "poisson2d.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CYCLES 7

static int first_cycles = 1;               /* BS_FROM: errors after that many cycles and more (large sizes: 3) */
static homg_precision prec = HOMG_FLOAT32; /* BS_F64=1: float64 */

/* The error after 1..MAX_CYCLES cycles (err), each a fresh solve of that many cycles. */
static void errors(homg_ctx *ctx, const homg_p2 *p, homg_method m, int fmg, double err[MAX_CYCLES], double *wu2)
{
    homg_grid_desc gd = { 0 };
    homg_grid *g = NULL;
    size_t n = (size_t)p->nx * p->ny;
    void *f = homg_test_upload(ctx, p->f, n, prec), *ur = homg_test_upload(ctx, p->u_star, n, prec);
    void *u = NULL;
    homg_boundary bc = homg_test_boundary(ctx, p, prec);
    gd.nx = p->nx;
    gd.ny = p->ny;
    gd.method = m;
    gd.precision = prec;
    if (homg_grid_create(ctx, &gd, &g) != HOMG_OK || homg_alloc(ctx, n * 8, &u) != HOMG_OK) {
        fprintf(stderr, "box_schedules: %s\n", homg_ctx_last_error(ctx));
        exit(1);
    }
    for (int c = 1; c <= MAX_CYCLES; c++) {
        homg_solve_desc sd = { 0 };
        err[c - 1] = 0;
        if (c < first_cycles)
            continue;
        homg_solve_info info;
        double *zero = calloc(n, sizeof(double));
        homg_copy_from_host(ctx, u, zero, n * (prec == HOMG_FLOAT64 ? 8 : 4));
        free(zero);
        sd.max_cycles = c;
        sd.u_ref = ur;
        sd.warm_start = !fmg;
        if (homg_grid_solve(g, f, &bc, u, &sd, &info) != HOMG_OK) {
            fprintf(stderr, "box_schedules: solve: %s\n", homg_ctx_last_error(ctx));
            exit(1);
        }
        err[c - 1] = info.norm;
        if (c == 2)
            *wu2 = info.work_units;
    }
    homg_free(ctx, u);
    homg_free(ctx, f);
    homg_free(ctx, ur);
    homg_test_free_boundary(ctx, &bc);
    homg_grid_destroy(g);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: box_schedules N,N,... plan [plan ...]\n");
        return 2;
    }
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    const int fmg_too = !getenv("BS_FMG") || atoi(getenv("BS_FMG"));
    if (getenv("BS_F64") && atoi(getenv("BS_F64")))
        prec = HOMG_FLOAT64;
    if (getenv("BS_FROM"))
        first_cycles = atoi(getenv("BS_FROM"));
    char sizes[256];
    snprintf(sizes, sizeof sizes, "%s", argv[1]);
    for (char *s = strtok(sizes, ","); s; s = strtok(NULL, ",")) {
        int N = atoi(s);
        homg_p2 *p = homg_p2_exact(N, N, 0, 0.1, 1, 2026);
        for (int a = 2; a < argc; a++) {
            setenv("HOMG_BOX_SCHED", argv[a], 1);
            for (int fmg = 0; fmg < 1 + fmg_too; fmg++) {
                double err[MAX_CYCLES], wu2 = 0;
                errors(ctx, p, HOMG_METHOD_FMG, fmg, err, &wu2);
                printf("%5d^2 %-7s %-24s", N, fmg ? "fmg" : "fused-v", argv[a]);
                for (int c = 0; c < MAX_CYCLES; c++)
                    printf("  %.2e", err[c]);
                printf("  WU(2) %.2f\n", wu2);
                fflush(stdout);
            }
        }
        homg_p2_free(p);
    }
    homg_ctx_destroy(ctx);
    return 0;
}
