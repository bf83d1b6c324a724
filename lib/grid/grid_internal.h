/* grid_internal.h -- the structured-grid solver object shared by grid.c (object,
 * solve driver), grid_cycles.c (multigrid cycles) and homg_method.c (seed 003). */
#ifndef HOMG_GRID_INTERNAL_H
#define HOMG_GRID_INTERNAL_H

#include "grid/grid_kernels.h"
#include "core/internal.h"

#define HOMG_GRID_MAX_LEVELS 16
#define HOMG_GRID_HIST_MAX   1000
#define HOMG_GRID_GRAPHS     16
#define HOMG_COARSE_SWEEPS   16

/* What one queued sequence of cycles looks like; a captured CUDA graph is reused
 * while the key matches. */
typedef struct homg_seq_key {
    int first_kind, count, monitor;
    const void *f, *u, *u_ref, *bc[4];
} homg_seq_key;

typedef struct homg_graph_entry {
    homg_seq_key key;
    void *graph;
    long launches;
    double wu, values_moved;
    unsigned long long used;
} homg_graph_entry;

enum { HOMG_CYCLE_NORMAL = 0, HOMG_CYCLE_FMG };

struct homg_grid {
    homg_ctx *ctx;
    const grid_kernels *k;
    homg_grid_desc desc;
    size_t elem; /* bytes per value */
    int nlevels; /* multigrid levels, 0 = finest */
    grid_level lv[HOMG_GRID_MAX_LEVELS];
    void *u[HOMG_GRID_MAX_LEVELS], *f[HOMG_GRID_MAX_LEVELS]; /* levels >= 1 */
    void *u2[HOMG_GRID_MAX_LEVELS];               /* FMG: the second buffer of levels >= 1 (out-of-place steps) */
    void *u0_scratch;                             /* FMG: the finest level's second buffer */
    void *gbc[HOMG_GRID_MAX_LEVELS][4];           /* FMG: Dirichlet data restricted to levels >= 1 */
    void *coarse_qx, *coarse_qy, *coarse_inv_eig; /* exact coarsest solve; NULL: sweeps instead */

    /* HOMG (seed 003) */
    int homg_m; /* coarsest HOMG level M */
    mfmg_level hl[HOMG_GRID_MAX_LEVELS];
    void *fm[HOMG_GRID_MAX_LEVELS]; /* compact restricted rhs, m >= 1 */
    void *r, *ea, *eb, *ta;         /* full-size work arrays */

    /* monitoring */
    double *hist;     /* HOMG_GRID_HIST_MAX doubles, backend memory */
    int *hist_count;  /* backend memory */
    double *scratch;  /* 2 doubles, backend memory */
    long long *flags; /* 6 input-check flags, backend memory */

    /* accounting of what is queued */
    long launches;
    double wu;
    double values_moved; /* ideal device-memory traffic, in values */

    homg_graph_entry graphs[HOMG_GRID_GRAPHS];
    unsigned long long graph_clock;
};

/* Multigrid (grid_cycles.c): queue one cycle of the grid's method on level 0. */
homg_status homg__mg_cycle(homg_grid *g, const grid_level *L0, const void *f, void *u, int kind);
/* HOMG (homg_method.c): queue one MFMG restart on the residual equation. */
homg_status homg__homg_restart(homg_grid *g, const grid_level *L0, const void *f, void *u);
homg_status homg__homg_alloc(homg_grid *g);
int homg__homg_iterations(const homg_grid *g, int m);

homg_status homg__k_fail(homg_grid *g, homg_status st, const char *what);
/* Adds a queued kernel's launches, work units and ideal traffic (values). */
void homg__account(homg_grid *g, long launches, double wu, double values);

#endif
