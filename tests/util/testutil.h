/* testutil.h -- small helpers the test programs share. */
#ifndef HOMG_TESTUTIL_H
#define HOMG_TESTUTIL_H

#include "homg.h"
#include <stdint.h>

/* Exit status that the test runner counts as "skipped". */
#define HOMG_TEST_SKIP 77

/* Exits with HOMG_TEST_SKIP and one SKIP line when no CUDA device is usable. */
void homg_test_require_gpu(const char *program);

/* A context on the given backend; fails the test (abort) when it cannot be made. */
homg_ctx *homg_test_ctx(homg_backend backend);

/* Deterministic random numbers (xorshift64*), uniform in [0,1). */
typedef struct homg_rng { uint64_t s; } homg_rng;
homg_rng homg_rng_seed(uint64_t seed);
double homg_rng_uniform(homg_rng *r);

/* Relative 2-norm difference ||a-b||/||b|| of two host arrays of doubles. */
double homg_rel_diff(const double *a, const double *b, size_t n);

#endif
