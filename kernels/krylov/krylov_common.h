/* krylov_common.h -- the scalar recurrences of CG, shared word for word by the
 * CPU and CUDA kernels (on the device, one thread runs them), so both backends
 * take the same decisions on convergence and breakdown. */
#ifndef HOMG_KRYLOV_COMMON_H
#define HOMG_KRYLOV_COMMON_H

#include <math.h>

#include "krylov_kernels.h"

HOMG_HD int cg_finite(double v) { return v == v && v - v == 0.0; }

HOMG_HD void cg_break(cg_state *s, int32_t why)
{
    s->done = HOMG_CG_BREAKDOWN;
    s->why = why;
}

/* After cg_start's reductions. */
HOMG_HD void cg_after_start(cg_state *s, double bb, double rr, double *history)
{
    s->bb = bb;
    s->rr = rr;
    s->tol2 *= bb;
    s->iter = 0;
    s->done = HOMG_CG_RUNNING;
    s->rz = s->rz_old = s->alpha = s->beta = s->pq = s->zq = 0;
    if (history)
        history[0] = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
    s->why = 0;
    if (!cg_finite(rr))
        cg_break(s, HOMG_CG_WHY_NONFINITE);
    else if (rr <= s->tol2)
        s->done = HOMG_CG_CONVERGED;
}

/* After r.z and z.q: the new search direction's beta (0 on the first iteration). */
HOMG_HD void cg_after_dots(cg_state *s, double rz, double zq)
{
    s->rz_old = s->rz;
    s->rz = rz;
    s->zq = zq;
    if (!cg_finite(rz) || rz <= 0) {
        cg_break(s, cg_finite(rz) ? HOMG_CG_WHY_RZ : HOMG_CG_WHY_NONFINITE);
        s->beta = 0;
        return;
    }
    if (s->iter == 0)
        s->beta = 0;
    else if (s->flexible) /* Polak-Ribiere: z.(r_new - r_old) / rz_old, r_new - r_old = -alpha q */
        s->beta = -s->alpha * zq / s->rz_old;
    else
        s->beta = rz / s->rz_old;
}

HOMG_HD void cg_after_pq(cg_state *s, double pq)
{
    s->pq = pq;
    if (!cg_finite(pq) || pq <= 0) {
        cg_break(s, cg_finite(pq) ? HOMG_CG_WHY_PAP : HOMG_CG_WHY_NONFINITE);
        s->alpha = 0;
        return;
    }
    s->alpha = s->rz / pq;
}

HOMG_HD void cg_after_update(cg_state *s, double rr, double *history)
{
    s->rr = rr;
    s->iter++;
    if (history)
        history[s->iter] = s->bb > 0 ? sqrt(rr / s->bb) : sqrt(rr);
    if (!cg_finite(rr))
        cg_break(s, HOMG_CG_WHY_NONFINITE);
    else if (rr <= s->tol2)
        s->done = HOMG_CG_CONVERGED;
}

#endif
