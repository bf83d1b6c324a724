/* general_bytes.c -- the memory the general solver allocates for a desc, checked
 * before anything is allocated (homg_grid_create). */
#include "general_internal.h"

/* Bytes the general solver may allocate for this desc (the check before any allocation): every
 * level stored, with flags, the most an operator can need (uniform levels store less). */
double homg__gen_bytes(const homg_grid_desc *d)
{
    int dims[HOMG_GEN_MAX_LEVELS][3];
    const int nl = homg__gen_plan_levels(d, dims), three = d->nz > 1;
    const double e = d->precision == HOMG_FLOAT64 ? 8 : 4; /* coefficients: float16 grids store float */
    const double v = d->precision == HOMG_FLOAT16 ? 2 : e; /* vectors */
    double total = 0;
    for (int l = 0; l < nl; l++) {
        double n = (double)dims[l][0] * dims[l][1] * dims[l][2];
        total += n * (e * (4 + three) + 1); /* faces, self, lam, flags */
        total += n * v * (l == 0 ? 4 : 2);  /* r z p q, or x b */
        if (l == nl - 1 && n <= GEN_COARSE_MATRIX_CELLS)
            total += n * n * v; /* the coarsest level's matrix */
        if (l >= 1 && l <= (d->two_pass > 0 ? d->two_pass : d->two_pass == 0 ? HOMG_GEN_TWO_PASS : 0))
            total += n * v * 2; /* two-pass work vectors */
    }
    return total;
}

/* Bytes of one lane's work arrays (lane_ready): r z p q, the coarse levels' x and b, two-pass vectors. */
static double lane_bytes(const homg_grid_desc *d)
{
    int dims[HOMG_GEN_MAX_LEVELS][3];
    const int nl = homg__gen_plan_levels(d, dims);
    double total = 0;
    for (int l = 0; l < nl; l++) {
        const int two = l >= 1 && l <= (d->two_pass > 0 ? d->two_pass : d->two_pass == 0 ? HOMG_GEN_TWO_PASS : 0);
        total += (double)dims[l][0] * dims[l][1] * dims[l][2] *
                 (d->precision == HOMG_FLOAT64   ? 8
                  : d->precision == HOMG_FLOAT16 ? 2
                                                 : 4) *
                 (l == 0 ? 4
                  : two  ? 4
                         : 2); /* + the two-pass vectors */
    }
    return total;
}

/* The bytes a grid of this desc needs, checked against the memory there is
 * before anything is allocated. */
homg_status homg__check_size(homg_grid *g)
{
    const homg_grid_desc *d = &g->desc;
    const double cellsd = (double)d->nx * d->ny * d->nz, e = (double)g->elem;
    const int lanes = g->ctx->ex.backend != HOMG_BACKEND_CUDA ? 1
                      : d->nrhs < HOMG_EXEC_LANES             ? d->nrhs
                                                              : HOMG_EXEC_LANES;
    /* + the caller's f and u, + the work arrays of the lanes beyond the first */
    const double need = homg__gen_bytes(d) + 2.0 * cellsd * e * d->nrhs + (lanes - 1) * lane_bytes(d);
    const size_t avail = HOMG_KERNELS(&g->ctx->ex, gen)->memory_available(&g->ctx->ex);
    if (cellsd * d->nrhs > 2147483647.0 || (avail > 0 && need > (double)avail))
        return homg__fail(g->ctx, HOMG_ERROR_OUT_OF_MEMORY,
                          "%d x %d x %d cells need about %.0f bytes (%.1f GiB, with f and u) and %s", d->nx, d->ny,
                          d->nz, need, need / 1073741824.0,
                          cellsd * d->nrhs > 2147483647.0 ? "more than 2^31 values per array are not supported"
                                                          : "the device has less free memory");
    return HOMG_OK;
}
