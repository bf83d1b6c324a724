/* fluid_internal.h -- the fluid handle, shared by lib/fluid's files. */
#ifndef HOMG_FLUID_INTERNAL_H
#define HOMG_FLUID_INTERNAL_H

#include "core/internal.h"
#include "fluid/fluid_kernels.h"
#include "grid/gen_kernels.h"

#define HOMG_FLUID_MAX_GUESS 64 /* cycles queued without a wait at most */
#define HOMG_FLUID_FEWER     3  /* steps in a row before the count goes down */

struct homg_fluid {
    homg_ctx *ctx;
    homg_fluid_desc desc;
    homg_grid *grid;      /* the pressure problem: Neumann box, solid cells as SOLID flags */
    homg_grid *box;       /* the box without solids (DCT): the initial pressure with solids */
    float *u, *v;         /* face velocities */
    float *u_tmp, *v_tmp; /* advection targets, swapped with u, v */
    float *density, *density_tmp;
    float *pressure, *rhs, *divergence;
    float *pressure_prev; /* START_EXTRAPOLATED: the step before's pressure */
    float *jacobi_tmp;    /* the second buffer of the Jacobi projection; the FFT's left divergence */
    float *correction;    /* the FFT's pressure correction */
    double *norms;        /* ctx space, 2 x GEN_NSCALARS: ||rhs||^2, ||divergence left||^2 */
    uint8_t *solid;       /* nx*ny, non-zero = solid */
    uint8_t *flags;       /* the grid's cell flags made from `solid` */
    int64_t *count;       /* ctx space: solid cells counted by the flags kernel */
    int64_t solid_cells;  /* host copy: 0 = the grid gets no flags (so DEFAULT may pick the FFT) */
    /* step.c: project_counted, per homg_fluid_start */
    int guess[4]; /* multigrid cycles queued without a host wait */
    int fewer[4]; /* steps in a row where one cycle fewer met tol */
};

/* fl->box made where not yet there (fluid.c). */
homg_status homg__fluid_box(homg_fluid *fl);

/* The staggered field of one of the fluid's arrays (fluid_point.h). */
fluid_field homg__fluid_field(const homg_fluid *fl, homg_fluid_field which, const float *q);

#endif
