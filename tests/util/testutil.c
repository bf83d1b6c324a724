/* testutil.c -- helpers shared by the test programs. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void homg_test_require_gpu(const char *program)
{
    if (!homg_cuda_available()) {
        printf("SKIP %s: no CUDA device (GPU tests run on the GPU machine)\n", program);
        fflush(stdout);
        exit(HOMG_TEST_SKIP);
    }
}

int homg_test_no_cuda(const char *program)
{
    printf("SKIP %s: built without CUDA (GPU tests run on the GPU machine)\n", program);
    fflush(stdout);
    return HOMG_TEST_SKIP;
}

homg_ctx *homg_test_ctx(homg_backend backend)
{
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    char msg[512];
    d.backend = backend;
    if (homg_ctx_create_msg(&d, &ctx, msg, sizeof msg) != HOMG_OK) {
        fprintf(stderr, "cannot create a context: %s\n", msg);
        abort();
    }
    return ctx;
}

homg_ctx *homg_test_gpu, *homg_test_cpu;

int homg_test_setup_pair(void **state)
{
    (void)state;
    homg_test_gpu = homg_test_ctx(HOMG_BACKEND_CUDA);
    homg_test_cpu = homg_test_ctx(HOMG_BACKEND_CPU);
    return 0;
}

int homg_test_teardown_pair(void **state)
{
    (void)state;
    homg_ctx_destroy(homg_test_gpu);
    homg_ctx_destroy(homg_test_cpu);
    homg_test_gpu = homg_test_cpu = NULL;
    return 0;
}

int homg_test_setup_cpu(void **state)
{
    (void)state;
    homg_test_cpu = homg_test_ctx(HOMG_BACKEND_CPU);
    return 0;
}

int homg_test_teardown_cpu(void **state) { return homg_test_teardown_pair(state); }

char homg_test_dir[64];

int homg_test_setup_cpu_dir(void **state)
{
    homg_test_setup_cpu(state);
    return homg_test_mkdtemp(homg_test_dir, sizeof homg_test_dir, "test");
}

int homg_test_teardown_cpu_dir(void **state)
{
    homg_test_teardown_cpu(state);
    return rmdir(homg_test_dir);
}

const char *homg_test_tmp(const char *name) { return homg_test_path(homg_test_dir, name); }

homg_rng homg_rng_seed(uint64_t seed)
{
    homg_rng r;
    r.s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!r.s)
        r.s = 1;
    return r;
}

double homg_rng_uniform(homg_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

int homg_test_mkdtemp(char *dir, size_t len, const char *tag)
{
    if (snprintf(dir, len, "/tmp/homg_%s_XXXXXX", tag) >= (int)len)
        return -1;
    return mkdtemp(dir) ? 0 : -1;
}

const char *homg_test_path(const char *dir, const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

double homg_rel_diff(const double *a, const double *b, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += b[i] * b[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

void homg_test_env_set(const char *const *env, char **old)
{
    for (int i = 0; env && env[i] && i / 2 < HOMG_TEST_MAX_ENV; i += 2) {
        const char *v = getenv(env[i]);
        old[i / 2] = v ? strdup(v) : NULL;
        setenv(env[i], env[i + 1], 1);
    }
}

void homg_test_env_restore(const char *const *env, char **old)
{
    for (int i = 0; env && env[i] && i / 2 < HOMG_TEST_MAX_ENV; i += 2) {
        old[i / 2] ? setenv(env[i], old[i / 2], 1) : unsetenv(env[i]);
        free(old[i / 2]);
    }
}

double homg_test_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double homg_test_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
