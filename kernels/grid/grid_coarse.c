/* grid_coarse.c -- CPU twin of kernels/grid/grid_coarse.cu: the coarse levels of
 * a cycle in one call, written as the composition of the plain CPU kernels (the
 * CUDA twins run the same steps in one thread block or one thread-block cluster
 * from shared memory). */
#include <stdlib.h>
#include <string.h>

#include "grid_kernels.h"

typedef struct coarse_work {
    const grid_coarse *C;
    kernel_exec *ex;
    homg_precision p;
    grid_level lev[HOMG_COARSE_BLOCK_LEVELS];
    void *u[HOMG_COARSE_BLOCK_LEVELS];
    const void *f[HOMG_COARSE_BLOCK_LEVELS];
    void *fw[HOMG_COARSE_BLOCK_LEVELS];    /* levels >= 1: own f */
    void *bc[HOMG_COARSE_BLOCK_LEVELS][4]; /* levels >= 1: restricted data (FMG) */
} coarse_work;

static size_t values(const grid_level *L) { return (size_t)L->nx * L->ny; }

static void bottom(coarse_work *w, int k)
{
    const grid_kernels *K = &homg_cpu_grid_kernels;
    if (w->C->qx)
        K->coarse_exact(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->C->qx, w->C->qy, w->C->inv_eig);
    else
        K->coarse_solve(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->C->bottom_sweeps);
}

/* One V-cycle on level k0 (u from zero when zero is set); coarser levels homogeneous. */
static void vcycle(coarse_work *w, int k0, int zero, size_t elem)
{
    const grid_kernels *K = &homg_cpu_grid_kernels;
    const int last = w->C->nlev - 1;
    for (int k = k0; k < last; k++) {
        if (k > k0 || zero)
            memset(w->u[k], 0, values(&w->lev[k]) * elem);
        K->smooth(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->C->pre);
        K->residual_restrict(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->fw[k + 1]);
    }
    bottom(w, last);
    for (int k = last - 1; k >= k0; k--) {
        K->prolong(w->ex, w->p, &w->lev[k], w->u[k + 1], w->u[k], 0);
        K->smooth(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->C->post);
    }
}

/* Full multigrid: f and the data restricted to every level, the coarsest solved,
 * then per finer level: interpolate, one V-cycle on the correction equation. */
static void fmg(coarse_work *w, size_t elem)
{
    const grid_kernels *K = &homg_cpu_grid_kernels;
    const int last = w->C->nlev - 1;
    for (int k = 0; k < last; k++) {
        grid_level plain = w->lev[k];
        memset((void *)plain.bc, 0, sizeof plain.bc);
        K->residual_restrict(w->ex, w->p, &plain, NULL, w->f[k], w->fw[k + 1]);
        K->restrict_boundary(w->ex, w->p, &w->lev[k], w->bc[k + 1]);
        for (int s = 0; s < 4; s++)
            w->lev[k + 1].bc[s] = w->lev[k].bc[s] ? w->bc[k + 1][s] : NULL;
    }
    bottom(w, last);
    for (int k = last - 1; k >= 0; k--) {
        for (int j = k + 1; j <= last; j++)
            memset((void *)w->lev[j].bc, 0, sizeof w->lev[j].bc);
        K->prolong(w->ex, w->p, &w->lev[k], w->u[k + 1], w->u[k], 1);
        K->smooth(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->C->pre);
        K->residual_restrict(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->fw[k + 1]);
        vcycle(w, k + 1, 1, elem);
        K->prolong(w->ex, w->p, &w->lev[k], w->u[k + 1], w->u[k], 0);
        K->smooth(w->ex, w->p, &w->lev[k], w->u[k], w->f[k], w->C->post);
    }
}

homg_status homg_cpu_grid_coarse_cycle(kernel_exec *ex, homg_precision p, const grid_coarse *C, void *u, const void *f);

homg_status homg_cpu_grid_coarse_cycle(kernel_exec *ex, homg_precision p, const grid_coarse *C, void *u, const void *f)
{
    const size_t elem = p == HOMG_FLOAT64 ? sizeof(double) : sizeof(float);
    coarse_work w;
    homg_status st = HOMG_OK;
    if (C->nlev < 1 || C->nlev > HOMG_COARSE_BLOCK_LEVELS || values(&C->lev[0]) > HOMG_COARSE_CLUSTER_MAX)
        return HOMG_ERROR_INVALID_ARGUMENT;
    memset(&w, 0, sizeof w);
    w.C = C;
    w.ex = ex;
    w.p = p;
    memcpy(w.lev, C->lev, sizeof w.lev);
    w.u[0] = u;
    w.f[0] = f;
    for (int k = 1; k < C->nlev; k++) {
        memset((void *)w.lev[k].bc, 0, sizeof w.lev[k].bc);
        w.u[k] = calloc(values(&w.lev[k]), elem);
        w.fw[k] = calloc(values(&w.lev[k]), elem);
        w.f[k] = w.fw[k];
        for (int s = 0; s < 4; s++)
            w.bc[k][s] = calloc((size_t)(s < 2 ? w.lev[k].ny : w.lev[k].nx), elem);
        if (!w.u[k] || !w.fw[k] || !w.bc[k][0] || !w.bc[k][1] || !w.bc[k][2] || !w.bc[k][3])
            st = HOMG_ERROR_OUT_OF_MEMORY;
    }
    if (st == HOMG_OK) {
        if (C->mode == HOMG_BLOCK_FMG)
            fmg(&w, elem);
        else
            vcycle(&w, 0, C->mode == HOMG_BLOCK_V_ZERO, elem);
    }
    for (int k = 1; k < C->nlev; k++) {
        free(w.u[k]);
        free(w.fw[k]);
        for (int s = 0; s < 4; s++)
            free(w.bc[k][s]);
    }
    return st;
}
