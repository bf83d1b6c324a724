/* testutil.h -- small helpers the test programs share. */
#ifndef HOMG_TESTUTIL_H
#define HOMG_TESTUTIL_H

#include "homg.h"
#include <stdint.h>

/* Exit status that the test runner counts as "skipped". */
#define HOMG_TEST_SKIP 77

/* Exits with HOMG_TEST_SKIP and one SKIP line when no CUDA device is usable. */
void homg_test_require_gpu(const char *program);

/* The main() of a GPU test built without CUDA, one line:
 *   int main(void) { return homg_test_no_cuda("test_x_gpu"); }
 * prints the one SKIP line and gives HOMG_TEST_SKIP. */
int homg_test_no_cuda(const char *program);

/* A context on the given backend; fails the test (abort) when it cannot be made. */
homg_ctx *homg_test_ctx(homg_backend backend);

/* The CUDA and the CPU context most GPU tests compare, as a cmocka group set-up and
 * teardown: cmocka_run_group_tests(tests, homg_test_setup_pair, homg_test_teardown_pair).
 * A test names them through `#define gpu homg_test_gpu` (and cpu).  main() still calls
 * homg_test_require_gpu first, so a machine without a GPU skips (77) before the set-up. */
extern homg_ctx *homg_test_gpu, *homg_test_cpu;
int homg_test_setup_pair(void **state);
int homg_test_teardown_pair(void **state);
/* The same for CPU-only tests: homg_test_cpu alone (`#define ctx homg_test_cpu`). */
int homg_test_setup_cpu(void **state);
int homg_test_teardown_cpu(void **state);
/* CPU tests that write files: homg_test_cpu and a fresh folder homg_test_dir
 * (/tmp/homg_test_XXXXXX; `#define dir homg_test_dir`), removed at the teardown (the
 * tests remove what they write there: a folder left non-empty fails the teardown).
 * homg_test_tmp(name) is homg_test_path(homg_test_dir, name). */
extern char homg_test_dir[64];
int homg_test_setup_cpu_dir(void **state);
int homg_test_teardown_cpu_dir(void **state);
const char *homg_test_tmp(const char *name);

/* Deterministic random numbers (xorshift64*), uniform in [0,1). */
typedef struct homg_rng {
    uint64_t s;
} homg_rng;
homg_rng homg_rng_seed(uint64_t seed);
double homg_rng_uniform(homg_rng *r);

/* A fresh directory /tmp/homg_<tag>_XXXXXX written into dir (at least 64 bytes);
 * 0 on success.  homg_test_path gives dir/name in one of 4 static buffers taken
 * in turn: up to four calls may appear in one argument list. */
int homg_test_mkdtemp(char *dir, size_t len, const char *tag);
const char *homg_test_path(const char *dir, const char *name);

/* Milliseconds on the monotonic clock (benchmarks' host timings). */
double homg_test_now_ms(void);

/* The median of n values (the mean of the middle two for even n); sorts v. */
double homg_test_median(double *v, int n);

/* Relative 2-norm difference ||a-b||/||b|| of two host arrays of doubles. */
double homg_rel_diff(const double *a, const double *b, size_t n);

/* Environment settings for one run: env is { name, value, name, value, ..., NULL } (at most
 * HOMG_TEST_MAX_ENV pairs; NULL: none).  homg_test_env_set keeps what the caller's environment had in
 * old[HOMG_TEST_MAX_ENV]; homg_test_env_restore puts it back (a variable the caller had set stays set). */
#define HOMG_TEST_MAX_ENV 8
void homg_test_env_set(const char *const *env, char **old);
void homg_test_env_restore(const char *const *env, char **old);

#endif
