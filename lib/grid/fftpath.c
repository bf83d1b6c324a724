/* fftpath.c -- HOMG_METHOD_FFT (and DEFAULT where it applies): constant sigma and
 * lambda without flags, any sizes and side kinds, through lib/fft. */
#include "grid_internal.h"

int homg__fft_available(void) { return 0; }

homg_status homg__fftpath_prepare(homg_grid *g)
{
    return homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED, "method FFT: not wired into the grid yet");
}

void homg__fftpath_free(homg_grid *g) { (void)g; }

homg_status homg__fftpath_solve(homg_grid *g, const void *f, const homg_boundary *bc, void *u,
                                const homg_solve_desc *sd, homg_solve_info *info)
{
    (void)f, (void)bc, (void)u, (void)sd, (void)info;
    return homg__fail(g->ctx, HOMG_ERROR_UNSUPPORTED, "method FFT: not wired into the grid yet");
}
