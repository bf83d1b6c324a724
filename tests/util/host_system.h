/* host_system.h -- linear systems on the host for checks in tests and
 * benchmarks: an assembled FEM system copied back in double, the true residual. */
#ifndef HOMG_HOST_SYSTEM_H
#define HOMG_HOST_SYSTEM_H

#include "homg.h"

/* A matrix and right-hand side copied to host doubles (free with homg_test_system_free). */
typedef struct homg_test_system {
    homg_host_csr m;
    double *rhs; /* m.nrows values */
} homg_test_system;

/* The FEM's matrix and right-hand side (float or double, in ctx's memory),
 * after a sync of ctx.  Aborts with a message when a copy fails. */
homg_test_system homg_test_fetch(homg_ctx *ctx, const homg_fem *fem);
void homg_test_system_free(homg_test_system *s);

/* ||b - A x|| / ||b|| in double, straight from the host CSR (||b - A x|| when b = 0). */
double homg_test_residual(const homg_host_csr *a, const double *b, const double *x);

/* Entry (i, j) of a host CSR matrix, 0 where it stores none. */
double homg_test_csr_entry(const homg_host_csr *a, int32_t i, int32_t j);

#endif
