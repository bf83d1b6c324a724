/* test_gmg_gpu.c -- the CUDA backend of the GMG table and of homg_gmg against
 * the CPU backend (test_gmg.c checks the CPU against independent references).
 *
 * Each kernel runs on random inputs (a P1 matrix of two materials with random
 * values, random vectors) on both backends; results agree to rounding.  Then
 * the whole hierarchy (every smoother, both formats) on both backends: the
 * same omega estimates, PCG iteration counts within one, solutions within
 * 1e-6.  `quick` (argument) shrinks the problems for compute-sanitizer.
 * Exits 77 (skip) without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devcopy.h"
#include "fan_mesh.h"
#include "gen_matrix.h"
#include "gmg/gmg_internal.h"
#include "homg.h"
#include "mesh/mesh_internal.h"
#include "repeat_mesh.h"
#include "testutil.h"

#if HOMG_HAVE_CUDA

static int quick;

/* The shared helpers (tests/util/devcopy.h) under this file's short names. */
#define ctx_of(b)                homg_test_ctx_1thread(b)
#define up(ctx, host, bytes)     homg_test_up(ctx, host, bytes)
#define down(ctx, h, dev, bytes) homg_test_down(ctx, h, dev, bytes)

/* A copy in ctx's memory of the host matrix h (double values); release with free_csr. */
static csr_matrix up_csr(homg_ctx *ctx, const csr_matrix *h)
{
    csr_matrix d = *h;
    d.row_ptr = up(ctx, h->row_ptr, sizeof(int32_t) * ((size_t)h->nrows + 1));
    d.col_idx = up(ctx, h->col_idx, sizeof(int32_t) * (size_t)h->nnz);
    d.values = up(ctx, h->values, sizeof(double) * (size_t)h->nnz);
    return d;
}

static void free_csr(homg_ctx *ctx, csr_matrix *d)
{
    homg_free(ctx, (void *)d->row_ptr);
    homg_free(ctx, (void *)d->col_idx);
    homg_free(ctx, d->values);
}

static double max_rel(const double *a, const double *b, size_t n)
{
    double d = 0, s = 0;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return s > 0 ? d / s : d;
}

/* ELLPACK-R of a host CSR, in host memory (column-major, padded). */
static ell_matrix ell_host(const homg_host_csr *m, int lanes)
{
    ell_matrix e;
    int32_t n = m->nrows, w = 0;
    for (int32_t i = 0; i < n; i++)
        if (m->row_ptr[i + 1] - m->row_ptr[i] > w)
            w = m->row_ptr[i + 1] - m->row_ptr[i];
    e.nrows = n;
    e.ncols = m->ncols;
    e.width = w;
    e.lanes = lanes;
    e.col = calloc((size_t)w * n + 1, sizeof(int32_t));
    e.val = calloc((size_t)w * n + 1, sizeof(double));
    e.rl = malloc(sizeof(int32_t) * (n + 1));
    for (int32_t i = 0; i < n; i++) {
        e.rl[i] = m->row_ptr[i + 1] - m->row_ptr[i];
        for (int32_t k = 0; k < e.rl[i]; k++) {
            e.col[(size_t)k * n + i] = m->col_idx[m->row_ptr[i] + k];
            e.val[(size_t)k * n + i] = m->values[m->row_ptr[i] + k];
        }
    }
    return e;
}

/* The width (csr_widths of one matrix) and ELLPACK-R conversion on both
 * backends against ell_host (exact: a copy), for a's pattern and random ones with empty rows: rows of 0..20
 * entries (the staged CUDA kernel's shared copy) and 0..60 (most blocks past
 * its cap: the global reads). */
/* The batched width (csr_widths) and bandwidth sums (csr_bandwidths) of more
 * matrices than one launch takes: the first rows of (hm, dm), row counts
 * n k / (count - 1) (one empty), on CUDA equal to the CPU's one by one and to
 * the longest row / the sum of |i - j| written here. */
static void check_widths_batched(homg_ctx *cpu, homg_ctx *gpu, const csr_matrix *hm, const csr_matrix *dm)
{
    enum { COUNT = GMG_CONVERT_MAX + 3 };
    csr_matrix h[COUNT], d[COUNT];
    const csr_matrix *hp[COUNT], *dp[COUNT];
    int32_t wh[COUNT], wd[COUNT], *d_w = up(gpu, NULL, sizeof wd);
    for (int k = 0; k < COUNT; k++) {
        h[k] = *hm;
        d[k] = *dm;
        h[k].nrows = d[k].nrows = (int32_t)((int64_t)hm->nrows * k / (COUNT - 1));
        hp[k] = &h[k];
        dp[k] = &d[k];
    }
    assert_int_equal(homg_cpu_gmg_csr_widths(&cpu->ex, hp, COUNT, wh), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_csr_widths(&gpu->ex, dp, COUNT, d_w), HOMG_OK);
    down(gpu, wd, d_w, sizeof wd);
    for (int k = 0; k < COUNT; k++) {
        int32_t want = 0;
        for (int32_t i = 0; i < h[k].nrows; i++)
            want = hm->row_ptr[i + 1] - hm->row_ptr[i] > want ? hm->row_ptr[i + 1] - hm->row_ptr[i] : want;
        assert_int_equal(wh[k], want);
        assert_int_equal(wd[k], want);
    }
    homg_free(gpu, d_w);
    {
        uint64_t bh[COUNT], bd[COUNT], *d_b = up(gpu, NULL, sizeof bd);
        assert_int_equal(homg_cpu_gmg_csr_bandwidths(&cpu->ex, hp, COUNT, bh), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_csr_bandwidths(&gpu->ex, dp, COUNT, d_b), HOMG_OK);
        down(gpu, bd, d_b, sizeof bd);
        for (int k = 0; k < COUNT; k++) {
            uint64_t want = 0;
            for (int32_t i = 0; i < h[k].nrows; i++)
                for (int32_t e = hm->row_ptr[i]; e < hm->row_ptr[i + 1]; e++)
                    want += (uint64_t)abs(hm->col_idx[e] - i);
            assert_true(bh[k] == want && bd[k] == want);
        }
        homg_free(gpu, d_b);
    }
    printf("  batched widths and bandwidths: %d matrices of 0..%d rows, CUDA = CPU\n", COUNT, (int)hm->nrows);
}

static void check_ell_from_csr(homg_ctx *cpu, homg_ctx *gpu, const homg_host_csr *a, const csr_matrix *ha,
                               const csr_matrix *da)
{
    homg_host_csr r = { 0 };
    homg_rng rng = homg_rng_seed(5);
    for (int pass = 0; pass < 3; pass++) {
        const homg_host_csr *m = pass ? &r : a;
        int32_t most = pass == 2 ? 60 : 20;
        csr_matrix hm = *ha, dm = *da;
        ell_matrix ref, eh, ed;
        int32_t n = m->nrows, wh = -1, wd = -1, *d_w = up(gpu, NULL, sizeof(int32_t)), *col;
        double *val;
        if (pass) { /* random rows of 0..most sorted distinct columns */
            r.nrows = r.ncols = n = quick ? 300 : 5000;
            r.row_ptr = malloc(sizeof(int32_t) * (n + 1));
            r.col_idx = malloc(sizeof(int32_t) * (size_t)n * most);
            r.values = malloc(sizeof(double) * (size_t)n * most);
            r.row_ptr[0] = 0;
            for (int32_t i = 0; i < n; i++) {
                int32_t len = (int32_t)(homg_rng_uniform(&rng) * (most + 1)), c = 0, at = r.row_ptr[i];
                for (int32_t k = 0; k < len && c < n; k++, at++) {
                    c += 1 + (int32_t)(homg_rng_uniform(&rng) * 30);
                    r.col_idx[at] = c < n ? c : n - 1;
                    r.values[at] = homg_rng_uniform(&rng) - 0.5;
                    if (c >= n)
                        c = n;
                }
                r.row_ptr[i + 1] = at;
            }
            r.nnz = r.row_ptr[n];
            hm = (csr_matrix){ n, n, r.nnz, r.row_ptr, r.col_idx, r.values, HOMG_FLOAT64 };
            dm = up_csr(gpu, &hm);
        }
        { /* the info's bandwidth sum */
            uint64_t bh = 0, bd = 0, want = 0, *d_b = up(gpu, NULL, sizeof(uint64_t));
            for (int32_t i = 0; i < n; i++)
                for (int32_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++)
                    want += (uint64_t)abs(m->col_idx[k] - i);
            const csr_matrix *hp = &hm, *dp = &dm;
            assert_int_equal(homg_cpu_gmg_csr_bandwidths(&cpu->ex, &hp, 1, &bh), HOMG_OK);
            assert_int_equal(homg_cuda_gmg_csr_bandwidths(&gpu->ex, &dp, 1, d_b), HOMG_OK);
            down(gpu, &bd, d_b, sizeof bd);
            assert_true(bh == want && bd == want);
            homg_free(gpu, d_b);
        }
        ref = ell_host(m, 1);
        {
            const csr_matrix *hp = &hm, *dp = &dm;
            assert_int_equal(homg_cpu_gmg_csr_widths(&cpu->ex, &hp, 1, &wh), HOMG_OK);
            assert_int_equal(homg_cuda_gmg_csr_widths(&gpu->ex, &dp, 1, d_w), HOMG_OK);
        }
        down(gpu, &wd, d_w, sizeof wd);
        assert_int_equal(wh, ref.width);
        assert_int_equal(wd, ref.width);
        eh = ref;
        eh.col = malloc(sizeof(int32_t) * ((size_t)ref.width * n + 1));
        eh.val = malloc(sizeof(double) * ((size_t)ref.width * n + 1));
        eh.rl = malloc(sizeof(int32_t) * (n + 1));
        ed = ref;
        ed.col = up(gpu, NULL, sizeof(int32_t) * ((size_t)ref.width * n + 1));
        ed.val = up(gpu, NULL, sizeof(double) * ((size_t)ref.width * n + 1));
        ed.rl = up(gpu, NULL, sizeof(int32_t) * (n + 1));
        assert_int_equal(homg_cpu_gmg_ell_from_csr(&cpu->ex, &hm, &eh), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_ell_from_csr(&gpu->ex, &dm, &ed), HOMG_OK);
        col = malloc(sizeof(int32_t) * ((size_t)ref.width * n + 1));
        val = malloc(sizeof(double) * ((size_t)ref.width * n + 1));
        down(gpu, col, ed.col, sizeof(int32_t) * (size_t)ref.width * n);
        down(gpu, val, ed.val, sizeof(double) * (size_t)ref.width * n);
        assert_memory_equal(eh.col, ref.col, sizeof(int32_t) * (size_t)ref.width * n);
        assert_memory_equal(eh.val, ref.val, sizeof(double) * (size_t)ref.width * n);
        assert_memory_equal(eh.rl, ref.rl, sizeof(int32_t) * n);
        assert_memory_equal(col, ref.col, sizeof(int32_t) * (size_t)ref.width * n);
        assert_memory_equal(val, ref.val, sizeof(double) * (size_t)ref.width * n);
        down(gpu, col, ed.rl, sizeof(int32_t) * n);
        assert_memory_equal(col, ref.rl, sizeof(int32_t) * n);
        printf("  ELLPACK-R conversion (%s): %d rows, width %d: CPU and CUDA equal the reference\n",
               pass == 2 ? "random long rows"
               : pass    ? "random rows"
                         : "P1 matrix",
               (int)n, (int)ref.width);
        check_widths_batched(cpu, gpu, &hm, &dm);
        free(col);
        free(val);
        free(eh.col);
        free(eh.val);
        free(eh.rl);
        free(ref.col);
        free(ref.val);
        free(ref.rl);
        homg_free(gpu, ed.col);
        homg_free(gpu, ed.val);
        homg_free(gpu, ed.rl);
        homg_free(gpu, d_w);
        if (pass) {
            free_csr(gpu, &dm);
            homg_host_csr_free(&r);
        }
    }
}

static void test_kernels(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    kernel_exec *ex = &gpu->ex, *cx = &cpu->ex;
    homg_host_csr a;
    homg_rng rng = homg_rng_seed(11);
    int32_t n, fb_h = 0, fb_d = 0, *d_fb;
    double *x, *y, *hy, *w_h, *w_d, *m_h, *m_d, dot_h, dot_d, *d_x, *d_y, *d_w, *d_m, *d_s, *d_s2;
    csr_matrix ha, da, hm, dm;
    (void)state;
    assert_int_equal(homg_gen_p1_cube(quick ? 4 : 12, 1.0, 50.0, 0.3, &a), 0);
    for (int32_t k = 0; k < a.nnz; k++) /* random values, same pattern and symmetry */
        a.values[k] *= 1.0 + 0.01 * ((k * 2654435761u) % 7);
    n = a.nrows;
    x = malloc(sizeof(double) * n);
    y = malloc(sizeof(double) * n);
    hy = malloc(sizeof(double) * n);
    w_h = malloc(sizeof(double) * n);
    w_d = malloc(sizeof(double) * n);
    m_h = malloc(sizeof(double) * a.nnz);
    m_d = malloc(sizeof(double) * a.nnz);
    for (int32_t i = 0; i < n; i++) {
        x[i] = homg_rng_uniform(&rng) - 0.5;
        y[i] = homg_rng_uniform(&rng);
    }
    ha = (csr_matrix){ n, n, a.nnz, a.row_ptr, a.col_idx, a.values, HOMG_FLOAT64 };
    da = up_csr(gpu, &ha);
    d_x = up(gpu, x, sizeof(double) * n);
    d_y = up(gpu, y, sizeof(double) * n);
    d_s = up(gpu, NULL, sizeof(double));
    d_s2 = up(gpu, NULL, sizeof(double) * n);
    /* ELLPACK-R with 1..32 lanes against the CPU twin */
    for (int lanes = 1; lanes <= 32; lanes *= 2) {
        ell_matrix eh = ell_host(&a, lanes), ed = eh;
        ed.col = up(gpu, eh.col, sizeof(int32_t) * eh.width * n);
        ed.val = up(gpu, eh.val, sizeof(double) * eh.width * n);
        ed.rl = up(gpu, eh.rl, sizeof(int32_t) * n);
        memcpy(hy, y, sizeof(double) * n);
        assert_int_equal(homg_cpu_gmg_ell_spmv(cx, &eh, x, hy, 2.0, 0.5), HOMG_OK);
        assert_int_equal(homg_copy_from_host(gpu, d_y, y, sizeof(double) * n), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_ell_spmv(ex, &ed, d_x, d_y, 2.0, 0.5), HOMG_OK);
        down(gpu, w_d, d_y, sizeof(double) * n);
        printf("  ELL %2d lanes: max rel diff %.1e\n", lanes, max_rel(w_d, hy, n));
        assert_true(max_rel(w_d, hy, n) < 1e-13);
        for (int beta = 0; beta <= 1; beta++) { /* product and moment in one pass, added to a set scalar */
            double seed = 0.25;
            dot_h = seed;
            memcpy(hy, y, sizeof(double) * n);
            assert_int_equal(homg_cpu_gmg_ell_spmv_dot(cx, &eh, x, hy, -1.5, 0.5 * beta, x, &dot_h), HOMG_OK);
            assert_int_equal(homg_copy_from_host(gpu, d_y, y, sizeof(double) * n), HOMG_OK);
            assert_int_equal(homg_copy_from_host(gpu, d_s, &seed, sizeof seed), HOMG_OK);
            assert_int_equal(homg_cuda_gmg_ell_spmv_dot(ex, &ed, d_x, d_y, -1.5, 0.5 * beta, d_x, d_s), HOMG_OK);
            down(gpu, w_d, d_y, sizeof(double) * n);
            down(gpu, &dot_d, d_s, sizeof dot_d);
            assert_true(max_rel(w_d, hy, n) < 1e-13);
            assert_true(fabs(dot_d - dot_h) <= 1e-12 * fabs(dot_h));
            assert_true(fabs(dot_h - seed) > 1e-3); /* the product's moment was added */
        }
        assert_int_equal(homg_cpu_gmg_ell_residual(cx, &eh, y, x, hy), HOMG_OK); /* r = y - A x */
        assert_int_equal(homg_copy_from_host(gpu, d_y, y, sizeof(double) * n), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_ell_residual(ex, &ed, d_y, d_x, d_s2), HOMG_OK);
        down(gpu, w_d, d_s2, sizeof(double) * n);
        assert_true(max_rel(w_d, hy, n) < 1e-13);
        homg_free(gpu, ed.col);
        homg_free(gpu, ed.val);
        homg_free(gpu, ed.rl);
        free(eh.col);
        free(eh.val);
        free(eh.rl);
    }
    check_ell_from_csr(cpu, gpu, &a, &ha, &da);
    memcpy(hy, y, sizeof(double) * n);
    assert_int_equal(homg_cpu_gmg_csr_residual(cx, &ha, y, x, hy), HOMG_OK);
    assert_int_equal(homg_copy_from_host(gpu, d_y, y, sizeof(double) * n), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_csr_residual(ex, &da, d_y, d_x, d_s2), HOMG_OK);
    down(gpu, w_d, d_s2, sizeof(double) * n);
    assert_true(max_rel(w_d, hy, n) < 1e-13);
    /* diagonals, scaling */
    for (int jac = 0; jac <= 1; jac++) {
        d_w = up(gpu, NULL, sizeof(double) * n);
        assert_int_equal(homg_cpu_gmg_diag_inverse(cx, &ha, jac, w_h), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_diag_inverse(ex, &da, jac, d_w), HOMG_OK);
        down(gpu, w_d, d_w, sizeof(double) * n);
        assert_true(max_rel(w_d, w_h, n) < 1e-14);
        homg_free(gpu, d_w);
    }
    d_w = up(gpu, NULL, sizeof(double) * n);
    assert_int_equal(homg_cpu_gmg_spai_scale(cx, &ha, w_h), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_spai_scale(ex, &da, d_w), HOMG_OK);
    down(gpu, w_d, d_w, sizeof(double) * n);
    assert_true(max_rel(w_d, w_h, n) < 1e-14);
    /* SPAI-1, unscaled and scaled */
    for (int scaled = 0; scaled <= 1; scaled++) {
        d_m = up(gpu, NULL, sizeof(double) * a.nnz);
        fb_d = 0;
        d_fb = up(gpu, &fb_d, sizeof fb_d);
        hm = ha;
        hm.values = m_h;
        dm = da;
        dm.values = d_m;
        fb_h = 0;
        assert_int_equal(homg_cpu_gmg_spai1(cx, &ha, scaled ? w_h : NULL, &hm, NULL, &fb_h, 0), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_spai1(ex, &da, scaled ? d_w : NULL, &dm, NULL, d_fb, 0), HOMG_OK);
        down(gpu, m_d, d_m, sizeof(double) * a.nnz);
        down(gpu, &fb_d, d_fb, sizeof fb_d);
        printf("  SPAI-1 (scaled %d): max rel diff %.1e, fallbacks %d / %d\n", scaled, max_rel(m_d, m_h, a.nnz), fb_d,
               fb_h);
        assert_int_equal(fb_d, fb_h);
        assert_true(max_rel(m_d, m_h, a.nnz) < 1e-10);
        { /* the longest row given (a cube's: <= 16, no long-row pass): the same M bit for bit */
            int32_t longest = 0;
            double *m2 = malloc(sizeof(double) * a.nnz);
            for (int32_t i = 0; i < n; i++)
                longest = a.row_ptr[i + 1] - a.row_ptr[i] > longest ? a.row_ptr[i + 1] - a.row_ptr[i] : longest;
            assert_int_equal(homg_cuda_gmg_spai1(ex, &da, scaled ? d_w : NULL, &dm, NULL, d_fb, longest), HOMG_OK);
            down(gpu, m2, d_m, sizeof(double) * a.nnz);
            printf("  SPAI-1 (scaled %d) told the longest row (%d): M the same bit for bit\n", scaled, (int)longest);
            assert_memory_equal(m2, m_d, sizeof(double) * a.nnz);
            free(m2);
        }
        homg_free(gpu, d_m);
        homg_free(gpu, d_fb);
    }
    /* Richardson updates and the dot product */
    memcpy(hy, y, sizeof(double) * n);
    assert_int_equal(homg_copy_from_host(gpu, d_y, y, sizeof(double) * n), HOMG_OK);
    assert_int_equal(homg_cpu_gmg_diag_update(cx, n, 0.7, w_h, x, hy), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_diag_update(ex, n, 0.7, d_w, d_x, d_y), HOMG_OK);
    assert_int_equal(homg_cpu_gmg_axpy(cx, n, -1.3, x, hy), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_axpy(ex, n, -1.3, d_x, d_y), HOMG_OK);
    down(gpu, w_d, d_y, sizeof(double) * n);
    assert_true(max_rel(w_d, hy, n) < 1e-14);
    assert_int_equal(homg_cpu_gmg_dot(cx, n, x, hy, &dot_h), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_dot(ex, n, d_x, d_y, d_s), HOMG_OK);
    down(gpu, &dot_d, d_s, sizeof dot_d);
    assert_true(fabs(dot_d - dot_h) <= 1e-12 * fabs(dot_h));
    /* the power iterations' random start: both twins equal the sequential LCG */
    {
        uint32_t s0 = 12345u * 2654435761u + 3u, st = s0;
        for (int32_t i = 0; i < n; i++) {
            st = st * 1664525u + 1013904223u;
            hy[i] = (double)(st >> 8) / 16777216.0 - 0.5;
        }
        assert_int_equal(homg_cpu_gmg_random_fill(cx, n, s0, w_h), HOMG_OK);
        assert_memory_equal(w_h, hy, sizeof(double) * n);
        assert_int_equal(homg_cuda_gmg_random_fill(ex, n, s0, d_s2), HOMG_OK);
        down(gpu, w_d, d_s2, sizeof(double) * n);
        assert_memory_equal(w_d, hy, sizeof(double) * n);
    }
    homg_free(gpu, d_w);
    homg_free(gpu, d_x);
    homg_free(gpu, d_y);
    homg_free(gpu, d_s);
    homg_free(gpu, d_s2);
    free_csr(gpu, &da);
    free(x);
    free(y);
    free(hy);
    free(w_h);
    free(w_d);
    free(m_h);
    free(m_d);
    homg_host_csr_free(&a);
    homg_ctx_destroy(cpu);
    homg_ctx_destroy(gpu);
}

/* A random symmetric matrix for SPAI-1: rows of 1 to ~70 entries (some past
 * GMG_SPAI1_MAX_ROW), some rows and columns all zero (singular systems: their
 * neighbours fall back), a few empty rows. */
static homg_host_csr spai_matrix(int32_t n, homg_rng *rng)
{
    uint8_t *adj = calloc((size_t)n * n, 1);
    double *val = calloc((size_t)n * n, sizeof(double));
    homg_host_csr a = { n, n, 0, NULL, NULL, NULL };
    for (int32_t i = 0; i < n; i++) {
        int deg = homg_rng_uniform(rng) < 0.04 ? 30 + (int)(10 * homg_rng_uniform(rng))
                                               : 1 + (int)(8 * homg_rng_uniform(rng));
        if (i % 97 == 5)
            continue; /* empty unless a neighbour links it */
        for (int d = 0; d < deg; d++) {
            int32_t j = (int32_t)(homg_rng_uniform(rng) * n) % n;
            double x = -0.1 - homg_rng_uniform(rng);
            adj[(size_t)i * n + j] = adj[(size_t)j * n + i] = 1;
            val[(size_t)i * n + j] = val[(size_t)j * n + i] = x;
        }
    }
    for (int32_t i = 0; i < n; i++) { /* diagonal dominance where the row has entries */
        double s = 1;
        int any = 0;
        for (int32_t j = 0; j < n; j++)
            if (adj[(size_t)i * n + j] && j != i) {
                s += fabs(val[(size_t)i * n + j]);
                any = 1;
            }
        if (any || i % 97 != 5) {
            adj[(size_t)i * n + i] = 1;
            val[(size_t)i * n + i] = s;
        }
    }
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            if (i % 61 == 7 || j % 61 == 7) /* zero row and column, pattern kept */
                val[(size_t)i * n + j] = 0;
    a.row_ptr = malloc(sizeof(int32_t) * ((size_t)n + 1));
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j < n; j++)
            a.nnz += adj[(size_t)i * n + j];
    a.col_idx = malloc(sizeof(int32_t) * (size_t)a.nnz + 4);
    a.values = malloc(sizeof(double) * (size_t)a.nnz + 8);
    a.nnz = 0;
    for (int32_t i = 0; i < n; i++) {
        a.row_ptr[i] = a.nnz;
        for (int32_t j = 0; j < n; j++)
            if (adj[(size_t)i * n + j]) {
                a.col_idx[a.nnz] = j;
                a.values[a.nnz++] = val[(size_t)i * n + j];
            }
    }
    a.row_ptr[n] = a.nnz;
    free(adj);
    free(val);
    return a;
}

/* Rows of a of 1 .. GMG_SPAI1_SHORT entries whose neighbour rows have at most
 * (staged[0]) / more than (staged[1]) GMG_SPAI1_STAGE entries in all: the CUDA
 * warp's two paths (shared memory, global memory). */
static void spai1_paths(const homg_host_csr *a, int32_t staged[2])
{
    staged[0] = staged[1] = 0;
    for (int32_t i = 0; i < a->nrows; i++) {
        int32_t n = a->row_ptr[i + 1] - a->row_ptr[i], total = 0;
        if (n < 1 || n > GMG_SPAI1_SHORT)
            continue;
        for (int32_t k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            total += a->row_ptr[a->col_idx[k] + 1] - a->row_ptr[a->col_idx[k]];
        staged[total > GMG_SPAI1_STAGE]++;
    }
}

/* The fused product and moment on a matrix large enough that its grid is
 * capped (HOMG_MAX_BLOCKS) for 4..32 lanes a row, so blocks stride over rows:
 * against the CPU twin, beta 0 and 1. */
static void test_ell_dot_stride(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(31);
    homg_host_csr a;
    int32_t n;
    double *x, *y, *hy, *yd, *d_x, *d_y, *d_s;
    (void)state;
    assert_int_equal(homg_gen_p1_cube(40, 1.0, 50.0, 0.3, &a), 0);
    n = a.nrows;
    x = malloc(sizeof(double) * n);
    y = malloc(sizeof(double) * n);
    hy = malloc(sizeof(double) * n);
    yd = malloc(sizeof(double) * n);
    for (int32_t i = 0; i < n; i++) {
        x[i] = homg_rng_uniform(&rng) - 0.5;
        y[i] = homg_rng_uniform(&rng);
    }
    d_x = up(gpu, x, sizeof(double) * n);
    d_y = up(gpu, NULL, sizeof(double) * n);
    d_s = up(gpu, NULL, sizeof(double));
    for (int lanes = 1; lanes <= 32; lanes *= 2) {
        ell_matrix eh = ell_host(&a, lanes), ed = eh;
        ed.col = up(gpu, eh.col, sizeof(int32_t) * eh.width * n);
        ed.val = up(gpu, eh.val, sizeof(double) * eh.width * n);
        ed.rl = up(gpu, eh.rl, sizeof(int32_t) * n);
        for (int beta = 0; beta <= 1; beta++) {
            double dot_h = 0, dot_d = 0;
            memcpy(hy, y, sizeof(double) * n);
            assert_int_equal(homg_cpu_gmg_ell_spmv_dot(&cpu->ex, &eh, x, hy, 0.75, beta, x, &dot_h), HOMG_OK);
            assert_int_equal(homg_copy_from_host(gpu, d_y, y, sizeof(double) * n), HOMG_OK);
            assert_int_equal(homg_copy_from_host(gpu, d_s, &dot_d, sizeof dot_d), HOMG_OK);
            assert_int_equal(homg_cuda_gmg_ell_spmv_dot(&gpu->ex, &ed, d_x, d_y, 0.75, beta, d_x, d_s), HOMG_OK);
            down(gpu, yd, d_y, sizeof(double) * n);
            down(gpu, &dot_d, d_s, sizeof dot_d);
            assert_true(max_rel(yd, hy, n) < 1e-13);
            assert_true(fabs(dot_d - dot_h) <= 1e-12 * fabs(dot_h));
        }
        printf("  fused product and moment, %d rows, %2d lanes: CUDA = CPU\n", (int)n, lanes);
        homg_free(gpu, ed.col);
        homg_free(gpu, ed.val);
        homg_free(gpu, ed.rl);
        free(eh.col);
        free(eh.val);
        free(eh.rl);
    }
    homg_free(gpu, d_x);
    homg_free(gpu, d_y);
    homg_free(gpu, d_s);
    free(x);
    free(y);
    free(hy);
    free(yd);
    homg_host_csr_free(&a);
}

/* ell_spmv_batch: three products of cubes of different sizes (the largest
 * with a capped, striding grid for its dot) in one launch, items with and
 * without a dot, beta 0 and 1; then lanes that differ (a launch each):
 * against the CPU twin. */
static void test_ell_batch(void **state)
{
    static const int cells[3] = { 40, 9, 3 };
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(47);
    (void)state;
    for (int round = 0; round < 2; round++) {
        homg_host_csr a[3];
        ell_matrix eh[3], ed[3];
        double *x[3], *y[3], *hy[3], *yd[3], *d_x[3], *d_y[3], *d_s, dot_h[3] = { 0, 0, 0 }, dot_d[3] = { 0, 0, 0 };
        ell_batch bh, bd;
        memset(&bh, 0, sizeof bh);
        d_s = up(gpu, dot_d, sizeof dot_d);
        for (int k = 0; k < 3; k++) {
            int32_t n;
            assert_int_equal(homg_gen_p1_cube(cells[k], 1.0, 50.0, 0.3, &a[k]), 0);
            n = a[k].nrows;
            eh[k] = ell_host(&a[k], round == 0 ? 4 : 1 << (k + 1));
            ed[k] = eh[k];
            ed[k].col = up(gpu, eh[k].col, sizeof(int32_t) * eh[k].width * n);
            ed[k].val = up(gpu, eh[k].val, sizeof(double) * eh[k].width * n);
            ed[k].rl = up(gpu, eh[k].rl, sizeof(int32_t) * n);
            x[k] = malloc(sizeof(double) * n);
            y[k] = malloc(sizeof(double) * n);
            hy[k] = malloc(sizeof(double) * n);
            yd[k] = malloc(sizeof(double) * n);
            for (int32_t i = 0; i < n; i++) {
                x[k][i] = homg_rng_uniform(&rng) - 0.5;
                y[k][i] = hy[k][i] = homg_rng_uniform(&rng);
            }
            d_x[k] = up(gpu, x[k], sizeof(double) * n);
            d_y[k] = up(gpu, y[k], sizeof(double) * n);
            bh.item[k].a = eh[k];
            bh.item[k].x = x[k];
            bh.item[k].y = hy[k];
            bh.item[k].alpha = 0.75 - 0.5 * k;
            bh.item[k].beta = k == 1 ? 0 : 1;
            bh.item[k].u = x[k];
            bh.item[k].dot = k == 1 ? NULL : &dot_h[k];
        }
        bh.count = 3;
        bd = bh;
        for (int k = 0; k < 3; k++) {
            bd.item[k].a = ed[k];
            bd.item[k].x = d_x[k];
            bd.item[k].y = d_y[k];
            bd.item[k].u = d_x[k];
            bd.item[k].dot = k == 1 ? NULL : d_s + k;
        }
        assert_int_equal(homg_cpu_gmg_ell_spmv_batch(&cpu->ex, &bh), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_ell_spmv_batch(&gpu->ex, &bd), HOMG_OK);
        down(gpu, dot_d, d_s, sizeof dot_d);
        for (int k = 0; k < 3; k++) {
            down(gpu, yd[k], d_y[k], sizeof(double) * a[k].nrows);
            assert_true(max_rel(yd[k], hy[k], a[k].nrows) < 1e-13);
            assert_true(fabs(dot_d[k] - dot_h[k]) <= 1e-12 * fabs(dot_h[k]));
            homg_free(gpu, ed[k].col);
            homg_free(gpu, ed[k].val);
            homg_free(gpu, ed[k].rl);
            homg_free(gpu, d_x[k]);
            homg_free(gpu, d_y[k]);
            free(eh[k].col);
            free(eh[k].val);
            free(eh[k].rl);
            free(x[k]);
            free(y[k]);
            free(hy[k]);
            free(yd[k]);
        }
        printf("  batched products, rows %d %d %d, lanes %s: CUDA = CPU (dots %.6g %.6g)\n", (int)a[0].nrows,
               (int)a[1].nrows, (int)a[2].nrows, round == 0 ? "4 4 4 (one launch)" : "2 4 8 (a launch each)", dot_d[0],
               dot_d[2]);
        for (int k = 0; k < 3; k++)
            homg_host_csr_free(&a[k]);
        homg_free(gpu, d_s);
    }
}

/* SPAI-1 (warp per row on CUDA) against the CPU twin on spai_matrix: the same
 * fallback rows (long, singular, empty), the other rows to rounding, on both
 * paths of the short rows (spai1_paths) and the long rows; M^T written with
 * the rows (spai_matrix's pattern is symmetric): each twin's equals
 * transpose_sym of its own M bit for bit. */
static void test_spai1_random(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(23);
    homg_host_csr a = spai_matrix(quick ? 300 : 1500, &rng);
    csr_matrix ha = { a.nrows, a.ncols, a.nnz, a.row_ptr, a.col_idx, a.values, HOMG_FLOAT64 }, da = up_csr(gpu, &ha);
    double *w = malloc(sizeof(double) * a.nrows), *m_h = malloc(sizeof(double) * a.nnz + 8),
           *m_d = malloc(sizeof(double) * a.nnz + 8), *mt_h = malloc(sizeof(double) * a.nnz + 8),
           *mt_d = malloc(sizeof(double) * a.nnz + 8), *mt_ref = malloc(sizeof(double) * a.nnz + 8), *d_w;
    int32_t longest = 0, paths[2];
    (void)state;
    for (int32_t i = 0; i < a.nrows; i++)
        longest = a.row_ptr[i + 1] - a.row_ptr[i] > longest ? a.row_ptr[i + 1] - a.row_ptr[i] : longest;
    assert_true(longest > GMG_SPAI1_MAX_ROW);
    spai1_paths(&a, paths);
    printf("  SPAI-1 short rows: %d staged, %d merged from global memory\n", (int)paths[0], (int)paths[1]);
    assert_true(paths[0] > 0 && paths[1] > 0);
    assert_int_equal(homg_cpu_gmg_spai_scale(&cpu->ex, &ha, w), HOMG_OK);
    d_w = up(gpu, w, sizeof(double) * a.nrows);
    for (int scaled = 0; scaled <= 1; scaled++) {
        int32_t fb_h = 0, fb_d = 0, *d_fb = up(gpu, &fb_d, sizeof fb_d);
        double *d_m = up(gpu, NULL, sizeof(double) * a.nnz + 8), *d_mt = up(gpu, NULL, sizeof(double) * a.nnz + 8);
        csr_matrix hm = ha, dm = da;
        hm.values = m_h;
        dm.values = d_m;
        assert_int_equal(homg_cpu_gmg_spai1(&cpu->ex, &ha, scaled ? w : NULL, &hm, mt_h, &fb_h, 0), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_spai1(&gpu->ex, &da, scaled ? d_w : NULL, &dm, d_mt, d_fb, 0), HOMG_OK);
        down(gpu, m_d, d_m, sizeof(double) * a.nnz);
        down(gpu, mt_d, d_mt, sizeof(double) * a.nnz);
        down(gpu, &fb_d, d_fb, sizeof fb_d);
        assert_int_equal(homg_cpu_gmg_transpose_sym(&cpu->ex, &hm, mt_ref), HOMG_OK);
        assert_memory_equal(mt_h, mt_ref, sizeof(double) * a.nnz);
        hm.values = m_d; /* the CUDA M's transpose */
        assert_int_equal(homg_cpu_gmg_transpose_sym(&cpu->ex, &hm, mt_ref), HOMG_OK);
        assert_memory_equal(mt_d, mt_ref, sizeof(double) * a.nnz);
        homg_free(gpu, d_mt);
        printf("  SPAI-1 random rows (scaled %d): %d rows, longest %d, max rel diff %.1e, fallbacks %d / %d\n", scaled,
               (int)a.nrows, (int)longest, max_rel(m_d, m_h, a.nnz), (int)fb_d, (int)fb_h);
        assert_true(fb_h > 0);
        assert_int_equal(fb_d, fb_h);
        assert_true(max_rel(m_d, m_h, a.nnz) < 1e-10);
        homg_free(gpu, d_m);
        homg_free(gpu, d_fb);
    }
    homg_free(gpu, d_w);
    free_csr(gpu, &da);
    free(w);
    free(m_h);
    free(m_d);
    free(mt_h);
    free(mt_d);
    free(mt_ref);
    homg_host_csr_free(&a);
}

/* spai1_batch: three matrices in one launch (spai_matrix with its long,
 * singular and empty rows, scaled, its longest row unknown; a P1 cube,
 * unscaled, its longest row given, so no long-row segment; a smaller
 * spai_matrix, scaled, its longest row given): M, M^T and the fallback counts
 * equal to each matrix's own CUDA spai1 call bit for bit, and to the CPU
 * twin's batch to rounding (the same fallbacks). */
static void test_spai1_batch(void **state)
{
    enum { N = 3 };
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(53);
    homg_host_csr a[N];
    csr_matrix ha[N], da[N], hm[N], dm1[N], dm2[N];
    double *w[N], *d_w[N], *m_h[N], *mt_h[N], *m_d[N], *mt_d[N], *d_mt1[N], *d_mt2[N];
    int32_t longest[N], fb_h[N], fb_1[N], fb_2[N], *d_fb;
    spai1_batch bh, bd;
    (void)state;
    a[0] = spai_matrix(quick ? 300 : 1500, &rng);
    assert_int_equal(homg_gen_p1_cube(quick ? 5 : 12, 1.0, 50.0, 0.3, &a[1]), 0);
    a[2] = spai_matrix(quick ? 120 : 400, &rng);
    d_fb = up(gpu, NULL, sizeof(int32_t) * 2 * N);
    assert_int_equal(homg_copy_from_host(gpu, d_fb, (int32_t[2 * N]){ 0 }, sizeof(int32_t) * 2 * N), HOMG_OK);
    bh.count = bd.count = N;
    for (int k = 0; k < N; k++) {
        size_t bytes = sizeof(double) * a[k].nnz + 8;
        ha[k] = (csr_matrix){ a[k].nrows, a[k].ncols, a[k].nnz, a[k].row_ptr, a[k].col_idx, a[k].values, HOMG_FLOAT64 };
        da[k] = up_csr(gpu, &ha[k]);
        longest[k] = 0;
        for (int32_t i = 0; i < a[k].nrows; i++)
            if (a[k].row_ptr[i + 1] - a[k].row_ptr[i] > longest[k])
                longest[k] = a[k].row_ptr[i + 1] - a[k].row_ptr[i];
        w[k] = malloc(sizeof(double) * a[k].nrows);
        assert_int_equal(homg_cpu_gmg_spai_scale(&cpu->ex, &ha[k], w[k]), HOMG_OK);
        d_w[k] = up(gpu, w[k], sizeof(double) * a[k].nrows);
        m_h[k] = malloc(bytes);
        mt_h[k] = malloc(bytes);
        m_d[k] = malloc(bytes);
        mt_d[k] = malloc(bytes);
        hm[k] = ha[k];
        hm[k].values = m_h[k];
        dm1[k] = dm2[k] = da[k];
        dm1[k].values = up(gpu, NULL, bytes);
        dm2[k].values = up(gpu, NULL, bytes);
        d_mt1[k] = up(gpu, NULL, bytes);
        d_mt2[k] = up(gpu, NULL, bytes);
        fb_h[k] = 0;
        bh.item[k] = (spai1_item){ &ha[k], k == 1 ? NULL : w[k], &hm[k], mt_h[k], &fb_h[k], k == 0 ? 0 : longest[k] };
        bd.item[k] =
            (spai1_item){ &da[k], k == 1 ? NULL : d_w[k], &dm2[k], d_mt2[k], d_fb + N + k, bh.item[k].max_row };
        assert_int_equal(
            homg_cuda_gmg_spai1(&gpu->ex, &da[k], bd.item[k].w, &dm1[k], d_mt1[k], d_fb + k, bh.item[k].max_row),
            HOMG_OK);
    }
    assert_true(longest[0] > GMG_SPAI1_MAX_ROW && longest[1] <= GMG_SPAI1_SHORT && longest[2] > GMG_SPAI1_SHORT);
    assert_int_equal(homg_cpu_gmg_spai1_batch(&cpu->ex, &bh), HOMG_OK);
    down(gpu, fb_1, d_fb, sizeof fb_1);
    assert_int_equal(homg_copy_from_host(gpu, d_fb + N, (int32_t[N]){ 0 }, sizeof(int32_t) * N), HOMG_OK);
    for (int j = 0; j < N; j++) { /* rows left unwritten would show */
        double *zero = calloc((size_t)a[j].nnz + 1, sizeof(double));
        assert_int_equal(homg_copy_from_host(gpu, dm2[j].values, zero, sizeof(double) * a[j].nnz), HOMG_OK);
        assert_int_equal(homg_copy_from_host(gpu, d_mt2[j], zero, sizeof(double) * a[j].nnz), HOMG_OK);
        free(zero);
    }
    assert_int_equal(homg_cuda_gmg_spai1_batch(&gpu->ex, &bd), HOMG_OK);
    down(gpu, fb_2, d_fb + N, sizeof fb_2);
    for (int k = 0; k < N; k++) {
        size_t bytes = sizeof(double) * a[k].nnz;
        double *m1 = malloc(bytes + 8), *mt1 = malloc(bytes + 8);
        down(gpu, m1, dm1[k].values, bytes);
        down(gpu, mt1, d_mt1[k], bytes);
        down(gpu, m_d[k], dm2[k].values, bytes);
        down(gpu, mt_d[k], d_mt2[k], bytes);
        assert_memory_equal(m_d[k], m1, bytes);
        assert_memory_equal(mt_d[k], mt1, bytes);
        assert_int_equal(fb_2[k], fb_1[k]);
        assert_int_equal(fb_2[k], fb_h[k]);
        printf("  SPAI-1 batch item %d: %d rows, longest %d (given %d), fallbacks %d, "
               "batch = own call bit for bit, max rel diff to CPU %.1e (M^T %.1e)\n",
               k, (int)a[k].nrows, (int)longest[k], (int)bh.item[k].max_row, (int)fb_2[k],
               max_rel(m_d[k], m_h[k], a[k].nnz), max_rel(mt_d[k], mt_h[k], a[k].nnz));
        assert_true(max_rel(m_d[k], m_h[k], a[k].nnz) < 1e-10);
        assert_true(max_rel(mt_d[k], mt_h[k], a[k].nnz) < 1e-10);
        free(m1);
        free(mt1);
    }
    assert_true(fb_h[0] > 0);
    for (int k = 0; k < N; k++) {
        homg_free(gpu, dm1[k].values);
        homg_free(gpu, dm2[k].values);
        homg_free(gpu, d_mt1[k]);
        homg_free(gpu, d_mt2[k]);
        homg_free(gpu, d_w[k]);
        free_csr(gpu, &da[k]);
        free(w[k]);
        free(m_h[k]);
        free(mt_h[k]);
        free(m_d[k]);
        free(mt_d[k]);
        homg_host_csr_free(&a[k]);
    }
    homg_free(gpu, d_fb);
}

/* transpose_sym on spai_matrix's pattern (symmetric, sorted; empty rows,
 * rows past 40) with random values per entry: the CPU twin against the host
 * transpose (homg__gmg_host_transpose, same pattern), CUDA = CPU bit for bit. */
static void test_transpose_sym(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(29);
    homg_host_csr a = spai_matrix(quick ? 300 : 1500, &rng), t;
    csr_matrix ha, da;
    double *tv_h, *tv_d, *d_tv;
    (void)state;
    for (int32_t k = 0; k < a.nnz; k++)
        a.values[k] = homg_rng_uniform(&rng) - 0.5;
    ha = (csr_matrix){ a.nrows, a.ncols, a.nnz, a.row_ptr, a.col_idx, a.values, HOMG_FLOAT64 };
    da = up_csr(gpu, &ha);
    tv_h = malloc(sizeof(double) * a.nnz + 8);
    tv_d = malloc(sizeof(double) * a.nnz + 8);
    d_tv = up(gpu, NULL, sizeof(double) * a.nnz + 8);
    assert_int_equal(homg__gmg_host_transpose(cpu, &a, &t), HOMG_OK);
    assert_int_equal(t.nnz, a.nnz);
    assert_memory_equal(t.col_idx, a.col_idx, sizeof(int32_t) * a.nnz); /* the pattern is symmetric */
    assert_int_equal(homg_cpu_gmg_transpose_sym(&cpu->ex, &ha, tv_h), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_transpose_sym(&gpu->ex, &da, d_tv), HOMG_OK);
    down(gpu, tv_d, d_tv, sizeof(double) * a.nnz);
    assert_memory_equal(tv_h, t.values, sizeof(double) * a.nnz);
    assert_memory_equal(tv_d, tv_h, sizeof(double) * a.nnz);
    printf("  transpose on a symmetric pattern: %d rows, %d entries, CPU = host transpose, CUDA = CPU\n", (int)a.nrows,
           (int)a.nnz);
    homg_free(gpu, d_tv);
    free_csr(gpu, &da);
    free(tv_h);
    free(tv_d);
    homg_host_csr_free(&t);
    homg_host_csr_free(&a);
}

/* The masked P from the refinement's edges (prolong.h): the CPU twin equals the
 * host path (homg__gmg_prolongation_edges, then homg__gmg_mask_prolongation)
 * and the CUDA twin the CPU one, bit for bit, on random edges and masks. */
static void test_prolong(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(31);
    int32_t nc = quick ? 200 : 3000, ne = 0, cap = 4 * nc, n, *cnt_h, *cnt_d, *col_d, *d_cnt, *d_rp, *d_col;
    uint64_t *edges = malloc(sizeof(uint64_t) * cap), *d_edges;
    uint8_t *ff, *cf, *d_ff, *d_cf;
    double *d_val, *val_d;
    homg_host_csr hp;
    csr_matrix cp, dp;
    (void)state;
    for (int32_t a = 0; a < nc && ne < cap; a++) /* sorted unique (a, b), a < b */
        for (int32_t b = a + 1; b < nc && ne < cap; b++)
            if (homg_rng_uniform(&rng) < 3.0 / nc)
                edges[ne++] = (uint64_t)a << 32 | (uint32_t)b;
    n = nc + ne;
    ff = malloc((size_t)n);
    cf = malloc((size_t)nc);
    for (int32_t i = 0; i < nc; i++)
        cf[i] = homg_rng_uniform(&rng) < 0.2;
    for (int32_t i = 0; i < n; i++) /* fixed coarse vertices stay fixed, plus random rows */
        ff[i] = (i < nc && cf[i]) || homg_rng_uniform(&rng) < 0.1;
    assert_int_equal(homg__gmg_prolongation_edges(cpu, nc, edges, (size_t)ne, &hp), HOMG_OK);
    assert_int_equal(homg__gmg_mask_prolongation(cpu, &hp, ff, cf), HOMG_OK);
    cnt_h = malloc(sizeof(int32_t) * (n + 1));
    cnt_d = malloc(sizeof(int32_t) * (n + 1));
    assert_int_equal(homg_cpu_gmg_prolong_count(&cpu->ex, nc, edges, ne, ff, cf, cnt_h), HOMG_OK);
    cp = (csr_matrix){ n,
                       nc,
                       0,
                       malloc(sizeof(int32_t) * (n + 1)),
                       malloc(sizeof(int32_t) * (n + 2 * ne + 1)),
                       malloc(sizeof(double) * (n + 2 * ne + 1)),
                       HOMG_FLOAT64 };
    cp.row_ptr[0] = 0;
    for (int32_t i = 0; i < n; i++)
        cp.row_ptr[i + 1] = cp.row_ptr[i] + cnt_h[i];
    cp.nnz = cp.row_ptr[n];
    assert_int_equal(homg_cpu_gmg_prolong_fill(&cpu->ex, nc, edges, ne, ff, cf, &cp), HOMG_OK);
    assert_int_equal(cp.nnz, hp.nnz);
    assert_memory_equal(cp.row_ptr, hp.row_ptr, sizeof(int32_t) * (n + 1));
    assert_memory_equal(cp.col_idx, hp.col_idx, sizeof(int32_t) * hp.nnz);
    assert_memory_equal(cp.values, hp.values, sizeof(double) * hp.nnz);
    d_edges = up(gpu, edges, sizeof(uint64_t) * ne + 8);
    d_ff = up(gpu, ff, (size_t)n);
    d_cf = up(gpu, cf, (size_t)nc);
    d_cnt = up(gpu, NULL, sizeof(int32_t) * (n + 1));
    assert_int_equal(homg_cuda_gmg_prolong_count(&gpu->ex, nc, d_edges, ne, d_ff, d_cf, d_cnt), HOMG_OK);
    down(gpu, cnt_d, d_cnt, sizeof(int32_t) * n);
    assert_memory_equal(cnt_d, cnt_h, sizeof(int32_t) * n);
    d_rp = up(gpu, cp.row_ptr, sizeof(int32_t) * (n + 1));
    d_col = up(gpu, NULL, sizeof(int32_t) * (cp.nnz + 1));
    d_val = up(gpu, NULL, sizeof(double) * (cp.nnz + 1));
    dp = (csr_matrix){ n, nc, cp.nnz, d_rp, d_col, d_val, HOMG_FLOAT64 };
    assert_int_equal(homg_cuda_gmg_prolong_fill(&gpu->ex, nc, d_edges, ne, d_ff, d_cf, &dp), HOMG_OK);
    col_d = malloc(sizeof(int32_t) * (cp.nnz + 1)); /* nnz can pass n + 1: not cnt_d */
    down(gpu, col_d, d_col, sizeof(int32_t) * cp.nnz);
    assert_memory_equal(col_d, cp.col_idx, sizeof(int32_t) * cp.nnz);
    val_d = malloc(sizeof(double) * (cp.nnz + 1));
    down(gpu, val_d, d_val, sizeof(double) * cp.nnz);
    assert_memory_equal(val_d, cp.values, sizeof(double) * cp.nnz);
    printf("  P from %d coarse nodes and %d edges, masked: %d entries; CPU = host path, CUDA = CPU\n", (int)nc, (int)ne,
           (int)cp.nnz);
    homg_free(gpu, d_edges);
    homg_free(gpu, d_ff);
    homg_free(gpu, d_cf);
    homg_free(gpu, d_cnt);
    homg_free(gpu, d_rp);
    homg_free(gpu, d_col);
    homg_free(gpu, d_val);
    homg_host_csr_free(&hp);
    free((void *)cp.row_ptr);
    free((void *)cp.col_idx);
    free(cp.values);
    free(edges);
    free(ff);
    free(cf);
    free(cnt_h);
    free(cnt_d);
    free(col_d);
    free(val_d);
}

static int32_t longest_row(const csr_matrix *m)
{
    int32_t w = 0;
    for (int32_t i = 0; i < m->nrows; i++)
        if (m->row_ptr[i + 1] - m->row_ptr[i] > w)
            w = m->row_ptr[i + 1] - m->row_ptr[i];
    return w;
}

/* One transpose of the GMG table on a backend: counts, the scan written here,
 * the entries; t's arrays (host) get the result. */
static void transpose_on(homg_ctx *ctx, const csr_matrix *a, int32_t *count, csr_matrix *t)
{
    kernel_exec *ex = &ctx->ex;
    int gpu = ex->backend == HOMG_BACKEND_CUDA;
    size_t nc = (size_t)a->ncols, nz = (size_t)a->nnz;
    int32_t *d_cnt = up(ctx, NULL, sizeof(int32_t) * (2 * nc + 2));
    csr_matrix da = gpu ? up_csr(ctx, a) : *a, dt = *t;
    assert_int_equal(ctx->mem->zero(ex, d_cnt, sizeof(int32_t) * (2 * nc + 2)), HOMG_OK);
    assert_int_equal(HOMG_KERNELS(ex, gmg)->transpose_count(ex, &da, d_cnt), HOMG_OK);
    down(ctx, count, d_cnt, sizeof(int32_t) * nc);
    t->row_ptr[0] = 0;
    for (size_t j = 0; j < nc; j++)
        t->row_ptr[j + 1] = t->row_ptr[j] + count[j];
    assert_int_equal(t->row_ptr[nc], a->nnz);
    if (gpu) {
        dt.row_ptr = up(ctx, t->row_ptr, sizeof(int32_t) * (nc + 1));
        dt.col_idx = up(ctx, NULL, sizeof(int32_t) * nz + 4);
        dt.values = up(ctx, NULL, sizeof(double) * nz + 8);
    }
    assert_int_equal(HOMG_KERNELS(ex, gmg)->transpose_fill(ex, &da, d_cnt + nc + 1, &dt), HOMG_OK);
    if (gpu) {
        down(ctx, t->col_idx, dt.col_idx, sizeof(int32_t) * nz);
        down(ctx, t->values, dt.values, sizeof(double) * nz);
        free_csr(ctx, &da);
        free_csr(ctx, &dt);
    }
    homg_free(ctx, d_cnt);
}

/* transpose_count / transpose_fill (GMG's R = P^T): on random rectangular
 * matrices with empty rows and columns and on a P1 matrix, the CPU twin equals
 * the host transpose (homg__gmg_host_transpose), CUDA equals the CPU twin and
 * cuSPARSE's csr2csc (the sparse table's transpose, R's former path), bit for
 * bit: the same rows, sorted columns, values (the row sort's warp ranks and
 * its lane-0 path for rows over 32 entries). */
static void test_csr_transpose(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    kernel_exec *ex = &gpu->ex;
    kernel_alloc ka = homg__kalloc(gpu);
    void *handle = NULL;
    homg_rng rng = homg_rng_seed(37);
    (void)state;
    assert_int_equal(HOMG_KERNELS(ex, sparse)->handle_create(ex, &ka, &handle), HOMG_OK);
    for (int c = 0; c < 4; c++) {
        homg_host_csr a, ht;
        csr_matrix ha, tc, tg, tu, da;
        int32_t *cnt;
        if (c == 3) {
            assert_int_equal(homg_gen_p1_cube(quick ? 6 : 24, 1.0, 50.0, 0.3, &a), 0);
        } else { /* rows x cols, ~density entries a row; every 7th row and 5th column empty */
            int32_t nr = (quick ? 300 : 40000) >> c, ncl = c == 1 ? nr / 3 + 1 : 2 * nr + 5, k = 0;
            memset(&a, 0, sizeof a);
            a.nrows = nr;
            a.ncols = ncl;
            a.row_ptr = malloc(sizeof(int32_t) * (nr + 1));
            a.col_idx = malloc(sizeof(int32_t) * (size_t)nr * 8 + 4);
            a.values = malloc(sizeof(double) * (size_t)nr * 8 + 8);
            for (int32_t i = 0; i < nr; i++) {
                a.row_ptr[i] = k;
                for (int32_t j = 0; i % 7 && j < ncl && k < (i + 1) * 8; j++)
                    if (j % 5 && homg_rng_uniform(&rng) < 6.0 / ncl + (c == 1 ? 0.3 : 0.0)) {
                        a.col_idx[k] = j;
                        a.values[k++] = homg_rng_uniform(&rng) - 0.5;
                    }
            }
            a.row_ptr[nr] = k;
            a.nnz = k;
        }
        ha = (csr_matrix){ a.nrows, a.ncols, a.nnz, a.row_ptr, a.col_idx, a.values, HOMG_FLOAT64 };
        assert_int_equal(homg__gmg_host_transpose(cpu, &a, &ht), HOMG_OK);
        cnt = malloc(sizeof(int32_t) * ((size_t)a.ncols + 1));
        tc = (csr_matrix){ a.ncols,
                           a.nrows,
                           a.nnz,
                           malloc(sizeof(int32_t) * ((size_t)a.ncols + 1)),
                           malloc(sizeof(int32_t) * (size_t)a.nnz + 4),
                           malloc(sizeof(double) * (size_t)a.nnz + 8),
                           HOMG_FLOAT64 };
        tg = tc;
        tg.row_ptr = malloc(sizeof(int32_t) * ((size_t)a.ncols + 1));
        tg.col_idx = malloc(sizeof(int32_t) * (size_t)a.nnz + 4);
        tg.values = malloc(sizeof(double) * (size_t)a.nnz + 8);
        transpose_on(cpu, &ha, cnt, &tc);
        assert_memory_equal(tc.row_ptr, ht.row_ptr, sizeof(int32_t) * ((size_t)a.ncols + 1));
        assert_memory_equal(tc.col_idx, ht.col_idx, sizeof(int32_t) * (size_t)a.nnz);
        assert_memory_equal(tc.values, ht.values, sizeof(double) * (size_t)a.nnz);
        transpose_on(gpu, &ha, cnt, &tg);
        assert_memory_equal(tg.row_ptr, tc.row_ptr, sizeof(int32_t) * ((size_t)a.ncols + 1));
        assert_memory_equal(tg.col_idx, tc.col_idx, sizeof(int32_t) * (size_t)a.nnz);
        assert_memory_equal(tg.values, tc.values, sizeof(double) * (size_t)a.nnz);
        da = up_csr(gpu, &ha); /* cuSPARSE's csr2csc */
        tu = (csr_matrix){ a.ncols,
                           a.nrows,
                           a.nnz,
                           up(gpu, NULL, sizeof(int32_t) * ((size_t)a.ncols + 1)),
                           up(gpu, NULL, sizeof(int32_t) * (size_t)a.nnz + 4),
                           up(gpu, NULL, sizeof(double) * (size_t)a.nnz + 8),
                           HOMG_FLOAT64 };
        assert_int_equal(HOMG_KERNELS(ex, sparse)->transpose(ex, handle, &da, &tu), HOMG_OK);
        down(gpu, tg.row_ptr, tu.row_ptr, sizeof(int32_t) * ((size_t)a.ncols + 1));
        down(gpu, tg.col_idx, tu.col_idx, sizeof(int32_t) * (size_t)a.nnz);
        down(gpu, tg.values, tu.values, sizeof(double) * (size_t)a.nnz);
        assert_memory_equal(tg.row_ptr, tc.row_ptr, sizeof(int32_t) * ((size_t)a.ncols + 1));
        assert_memory_equal(tg.col_idx, tc.col_idx, sizeof(int32_t) * (size_t)a.nnz);
        assert_memory_equal(tg.values, tc.values, sizeof(double) * (size_t)a.nnz);
        printf(
            "  transpose of %d x %d, %d entries (longest row of the transpose %d): CPU = host transpose, CUDA = CPU = "
            "cuSPARSE\n",
            (int)a.nrows, (int)a.ncols, (int)a.nnz, (int)longest_row(&tc));
        free_csr(gpu, &da);
        free_csr(gpu, &tu);
        free((void *)tc.row_ptr);
        free((void *)tc.col_idx);
        free(tc.values);
        free((void *)tg.row_ptr);
        free((void *)tg.col_idx);
        free(tg.values);
        free(cnt);
        homg_host_csr_free(&ht);
        homg_host_csr_free(&a);
    }
    HOMG_KERNELS(ex, sparse)->handle_destroy(ex, handle);
    homg_ctx_destroy(cpu);
    homg_ctx_destroy(gpu);
}

/* SPAI-1's fallback rows in the info on both backends (CUDA: the counts
 * copied beside the bandwidth sums and read with them after the set-up's last
 * sync): a 2D fan of 48 triangles round a free centre, refined twice, has one
 * row of 49 entries (> GMG_SPAI1_MAX_ROW) on each level but the coarsest. */
static void test_fallback_info(void **state)
{
    enum { RIM = 48 };
    int32_t one = 1, rows[2];
    (void)state;
    for (int b = 0; b < 2; b++) {
        homg_ctx *ctx = ctx_of(b ? HOMG_BACKEND_CUDA : HOMG_BACKEND_CPU);
        homg_mesh *c = homg_test_fan_mesh(ctx, RIM);
        homg_gmg_desc d = { 0 };
        homg_gmg *g = NULL;
        assert_non_null(c);
        d.levels = 2;
        d.smoother = d.fine_smoother = HOMG_GMG_SMOOTHER_SPAI1;
        d.dirichlet_tags = &one;
        d.num_dirichlet_tags = 1;
        assert_int_equal(homg_gmg_create(c, &d, &g), HOMG_OK);
        rows[b] = (int32_t)g->info.fallback_rows;
        homg_gmg_destroy(g);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
    printf("  fan of %d triangles, 3 levels: SPAI-1 fallback rows CPU %d, CUDA %d\n", RIM, (int)rows[0], (int)rows[1]);
    assert_int_equal(rows[0], 2);
    assert_int_equal(rows[1], rows[0]);
}

static const int32_t sides[6] = { 1, 2, 3, 4, 5, 6 };

typedef struct outcome {
    int iterations, levels;
    double omega0, omega[HOMG_GMG_MAX_LEVELS];
    double *x;
    int32_t n;
} outcome;

static outcome gmg_pcg(homg_backend b, int dim, homg_gmg_desc d)
{
    homg_ctx *ctx = ctx_of(b);
    homg_mesh_generate_desc gd = { 0 };
    homg_mesh *c = NULL;
    homg_gmg *g = NULL;
    homg_pcg *pcg = NULL;
    homg_pcg_desc pd = { 0 };
    homg_pcg_info pi;
    homg_gmg_info gi;
    outcome o;
    double *dx;
    homg_status st;
    gd.cells = dim == 2 ? 4 : 2;
    assert_int_equal(dim == 2 ? homg_mesh_generate_square(ctx, &gd, &c) : homg_mesh_generate_cube(ctx, &gd, &c),
                     HOMG_OK);
    d.dirichlet_tags = sides;
    d.num_dirichlet_tags = 2 * dim;
    d.f = 1;
    st = homg_gmg_create(c, &d, &g);
    if (st != HOMG_OK)
        fail_msg("homg_gmg_create: %s", homg_ctx_last_error(ctx));
    homg_gmg_get_info(g, &gi);
    o.n = gi.rows[0];
    o.omega0 = gi.omega[0];
    o.levels = gi.levels;
    memcpy(o.omega, gi.omega, sizeof o.omega);
    pd.gmg = g;
    pd.flexible = d.cycle == HOMG_GMG_CYCLE_F;
    assert_int_equal(homg_pcg_create(ctx, NULL, NULL, &pd, &pcg), HOMG_OK);
    assert_int_equal(homg_alloc(ctx, sizeof(double) * o.n, (void **)&dx), HOMG_OK);
    if (homg_pcg_solve(pcg, homg_gmg_rhs(g), dx, &pi) != HOMG_OK)
        fail_msg("homg_pcg_solve: %s", homg_ctx_last_error(ctx));
    o.iterations = pi.iterations;
    o.x = malloc(sizeof(double) * o.n);
    down(ctx, o.x, dx, sizeof(double) * o.n);
    homg_free(ctx, dx);
    homg_pcg_destroy(pcg);
    homg_gmg_destroy(g);
    homg_mesh_destroy(c);
    homg_ctx_destroy(ctx);
    return o;
}

/* The coarse solver's dense inverse: cuSOLVER (potrf/potrs) against the plain
 * Cholesky of the CPU twin on an SPD matrix, and the same pivot on one that is
 * not positive definite. */
static void test_dense_inverse(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    kernel_exec *ex = &gpu->ex;
    kernel_alloc ka = homg__kalloc(gpu);
    void *handle = NULL;
    homg_host_csr a;
    (void)state;
    assert_int_equal(homg_gen_p1_cube(quick ? 3 : 8, 1.0, 50.0, 0.3, &a), 0);
    assert_int_equal(HOMG_KERNELS(ex, sparse)->handle_create(ex, &ka, &handle), HOMG_OK);
    for (int bad = 0; bad <= 1; bad++) {
        int32_t n = a.nrows;
        size_t nn = (size_t)n * n;
        double *ih = malloc(sizeof(double) * nn), *id = malloc(sizeof(double) * nn), *d_inv;
        int ph = -1, pd = -1;
        csr_matrix ha = { n, n, a.nnz, a.row_ptr, a.col_idx, a.values, HOMG_FLOAT64 }, da;
        if (bad) /* row 5's diagonal negative: the leading minor of order 6 is not positive */
            for (int32_t k = a.row_ptr[5]; k < a.row_ptr[6]; k++)
                if (a.col_idx[k] == 5)
                    a.values[k] = -a.values[k];
        da = up_csr(gpu, &ha);
        d_inv = up(gpu, NULL, sizeof(double) * nn);
        assert_int_equal(homg_cpu_gmg_dense_inverse(&cpu->ex, NULL, &ha, ih, &ph), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_dense_inverse(ex, handle, &da, d_inv, &pd), HOMG_OK);
        printf("  dense inverse, %d rows%s: pivot CPU %d, CUDA %d", (int)n, bad ? " (indefinite)" : "", ph, pd);
        assert_int_equal(ph, pd);
        if (!bad) {
            down(gpu, id, d_inv, sizeof(double) * nn);
            printf(", largest relative difference %.1e", max_rel(id, ih, nn));
            assert_true(max_rel(id, ih, nn) < 1e-10);
        } else
            assert_int_equal(ph, 6);
        printf("\n");
        free_csr(gpu, &da);
        homg_free(gpu, d_inv);
        free(ih);
        free(id);
    }
    HOMG_KERNELS(ex, sparse)->handle_destroy(ex, handle);
    homg_host_csr_free(&a);
    homg_ctx_destroy(cpu);
    homg_ctx_destroy(gpu);
}

/* dense_pattern (the coarse inverse's CSR pattern, built on the device):
 * the CPU twin against the loop written here, CUDA = CPU, on sizes from 1 to
 * GMG_DENSE_MAX (device arrays filled with -1 first: every entry written). */
static void test_dense_pattern(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    static const int32_t sizes[5] = { 1, 2, 7, 125, 4096 };
    (void)state;
    for (int c = 0; c < (quick ? 4 : 5); c++) {
        int32_t n = sizes[c];
        size_t nn = (size_t)n * n;
        int32_t *rp_h = malloc(sizeof(int32_t) * (n + 1)), *ci_h = malloc(sizeof(int32_t) * nn);
        int32_t *rp_d = malloc(sizeof(int32_t) * (n + 1)), *ci_d = malloc(sizeof(int32_t) * nn);
        int32_t *d_rp, *d_ci;
        memset(rp_d, 0xff, sizeof(int32_t) * (n + 1));
        memset(ci_d, 0xff, sizeof(int32_t) * nn);
        d_rp = up(gpu, rp_d, sizeof(int32_t) * (n + 1));
        d_ci = up(gpu, ci_d, sizeof(int32_t) * nn);
        assert_int_equal(homg_cpu_gmg_dense_pattern(&cpu->ex, n, rp_h, ci_h), HOMG_OK);
        assert_int_equal(homg_cuda_gmg_dense_pattern(&gpu->ex, n, d_rp, d_ci), HOMG_OK);
        down(gpu, rp_d, d_rp, sizeof(int32_t) * (n + 1));
        down(gpu, ci_d, d_ci, sizeof(int32_t) * nn);
        for (int32_t i = 0; i <= n; i++)
            assert_int_equal(rp_h[i], i * n);
        for (size_t k = 0; k < nn; k++)
            assert_int_equal(ci_h[k], (int32_t)(k % (size_t)n));
        assert_memory_equal(rp_d, rp_h, sizeof(int32_t) * (n + 1));
        assert_memory_equal(ci_d, ci_h, sizeof(int32_t) * nn);
        printf("  dense pattern %d x %d: CPU = loop, CUDA = CPU\n", (int)n, (int)n);
        homg_free(gpu, d_rp);
        homg_free(gpu, d_ci);
        free(rp_h);
        free(ci_h);
        free(rp_d);
        free(ci_d);
    }
    homg_ctx_destroy(cpu);
    homg_ctx_destroy(gpu);
}

/* Stream-ordered uploads (HOMG_H2D_ORDERED, homg__write): queued behind a
 * long kernel, from one pageable buffer overwritten after each call, small
 * (staged by the driver) and large; each device block must hold what the
 * buffer held when its upload was called. */
static void test_ordered_uploads(void **state)
{
    homg_ctx *gpu = ctx_of(HOMG_BACKEND_CUDA);
    enum { UPLOADS = 8 };
    static const size_t sizes[3] = { 40, 60000, 3000000 };
    int32_t n = 4096, *d_rp, *d_ci;
    (void)state;
    d_rp = up(gpu, NULL, sizeof(int32_t) * (n + 1));
    d_ci = up(gpu, NULL, sizeof(int32_t) * (size_t)n * n);
    for (int c = 0; c < 3; c++) {
        size_t words = sizes[c];
        int32_t *buf = malloc(sizeof(int32_t) * words), *back = malloc(sizeof(int32_t) * words), *d[UPLOADS];
        for (int u = 0; u < UPLOADS; u++)
            d[u] = up(gpu, NULL, sizeof(int32_t) * words);
        for (int r = 0; r < 20; r++) /* ~0.3 G writes queued ahead of the uploads */
            assert_int_equal(homg_cuda_gmg_dense_pattern(&gpu->ex, n, d_rp, d_ci), HOMG_OK);
        for (int u = 0; u < UPLOADS; u++) {
            for (size_t k = 0; k < words; k++)
                buf[k] = (int32_t)(k * 7 + (size_t)u * 1000003);
            assert_int_equal(homg__write(gpu, d[u], buf, sizeof(int32_t) * words), HOMG_OK);
        }
        memset(buf, 0, sizeof(int32_t) * words);
        for (int u = 0; u < UPLOADS; u++) {
            down(gpu, back, d[u], sizeof(int32_t) * words);
            for (size_t k = 0; k < words; k++)
                assert_int_equal(back[k], (int32_t)(k * 7 + (size_t)u * 1000003));
            homg_free(gpu, d[u]);
        }
        printf("  %d ordered uploads of %zu bytes behind a queued kernel: every block as written\n", UPLOADS,
               sizeof(int32_t) * words);
        free(buf);
        free(back);
    }
    homg_free(gpu, d_rp);
    homg_free(gpu, d_ci);
    homg_ctx_destroy(gpu);
}

/* A generated square or cube with its nodes shuffled and moved (by up to 10%
 * of a cell) and its elements shuffled, built in ctx. */
static homg_mesh *random_mesh(homg_ctx *ctx, int dim, unsigned seed)
{
    homg_mesh_generate_desc gd = { 0 };
    homg_mesh *g = NULL, *m = NULL;
    homg_mesh_data md = { 0 };
    homg_rng rng = homg_rng_seed(seed);
    int32_t n, ne, nf, *perm, *el, *fa, *et, *eperm;
    double *x;
    gd.cells = dim == 2 ? 6 : 3;
    assert_int_equal(dim == 2 ? homg_mesh_generate_square(ctx, &gd, &g) : homg_mesh_generate_cube(ctx, &gd, &g),
                     HOMG_OK);
    n = homg_mesh_num_nodes(g);
    ne = homg_mesh_num_elements(g);
    nf = homg_mesh_num_facets(g);
    perm = malloc(sizeof(int32_t) * n);
    eperm = malloc(sizeof(int32_t) * ne);
    x = malloc(sizeof(double) * dim * n);
    el = malloc(sizeof(int32_t) * (dim + 1) * ne);
    et = malloc(sizeof(int32_t) * ne);
    fa = malloc(sizeof(int32_t) * dim * (nf + 1));
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    for (int32_t i = 0; i < ne; i++)
        eperm[i] = i;
    for (int32_t i = n - 1; i > 0; i--) { /* perm[old] = new */
        int32_t j = (int32_t)(homg_rng_uniform(&rng) * (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int32_t i = ne - 1; i > 0; i--) {
        int32_t j = (int32_t)(homg_rng_uniform(&rng) * (i + 1)), t = eperm[i];
        eperm[i] = eperm[j];
        eperm[j] = t;
    }
    for (int32_t i = 0; i < n; i++)
        for (int k = 0; k < dim; k++)
            x[dim * perm[i] + k] = homg_mesh_coords(g)[dim * i + k] + 0.1 / gd.cells * (homg_rng_uniform(&rng) - 0.5);
    for (int32_t e = 0; e < ne; e++) {
        for (int k = 0; k <= dim; k++)
            el[(dim + 1) * eperm[e] + k] = perm[homg_mesh_elements(g)[(dim + 1) * e + k]];
        et[eperm[e]] = e % 3;
    }
    for (int32_t f = 0; f < nf * dim; f++)
        fa[f] = perm[homg_mesh_facets(g)[f]];
    md.dim = dim;
    md.num_nodes = n;
    md.num_elements = ne;
    md.num_facets = nf;
    md.coords = x;
    md.elements = el;
    md.element_tags = et;
    md.facets = fa;
    md.facet_tags = homg_mesh_facet_tags(g);
    assert_int_equal(homg_mesh_create(ctx, &md, &m), HOMG_OK);
    homg_mesh_destroy(g);
    free(perm);
    free(eperm);
    free(x);
    free(el);
    free(et);
    free(fa);
    return m;
}

static void assert_same_mesh(const homg_mesh *a, const homg_mesh *b)
{
    int dim = homg_mesh_dim(a);
    assert_int_equal(homg_mesh_num_nodes(a), homg_mesh_num_nodes(b));
    assert_int_equal(homg_mesh_num_elements(a), homg_mesh_num_elements(b));
    assert_int_equal(homg_mesh_num_facets(a), homg_mesh_num_facets(b));
    assert_memory_equal(homg_mesh_coords(a), homg_mesh_coords(b), sizeof(double) * dim * homg_mesh_num_nodes(a));
    assert_memory_equal(homg_mesh_elements(a), homg_mesh_elements(b),
                        sizeof(int32_t) * (dim + 1) * homg_mesh_num_elements(a));
    assert_memory_equal(homg_mesh_element_tags(a), homg_mesh_element_tags(b),
                        sizeof(int32_t) * homg_mesh_num_elements(a));
    assert_memory_equal(homg_mesh_node_markers(a), homg_mesh_node_markers(b), sizeof(int32_t) * homg_mesh_num_nodes(a));
    if (homg_mesh_num_facets(a)) {
        assert_memory_equal(homg_mesh_facets(a), homg_mesh_facets(b), sizeof(int32_t) * dim * homg_mesh_num_facets(a));
        assert_memory_equal(homg_mesh_facet_tags(a), homg_mesh_facet_tags(b),
                            sizeof(int32_t) * homg_mesh_num_facets(a));
    }
}

/* The device set-up's refinement (no host copy of the levels: coordinates,
 * elements and element tags, children's tags made by refine_elements, facets,
 * their tags and node markers by refine_facets and facet_markers, only in the
 * ctx's space until homg__mesh_to_host) equals homg_mesh_refine's. */
static void assert_device_refine(homg_ctx *ctx, homg_mesh *c, int nl, homg_mesh **ref)
{
    homg_mesh *got[8];
    uint64_t *edges[8];
    int32_t count[8];
    assert_int_equal(homg__gmg_refine_device(ctx, c, nl, got, edges, count, NULL), HOMG_OK);
    for (int l = 0; l < nl - 1; l++) {
        assert_null(homg_mesh_coords(got[l]));
        assert_true(homg_mesh_num_facets(got[l]) == 0 || !homg_mesh_facets(got[l]));
        assert_true(homg_mesh_num_facets(got[l]) == 0 || !homg_mesh_node_markers(got[l]));
        assert_int_equal(homg__mesh_to_host(got[l]), HOMG_OK);
        assert_same_mesh(got[l], ref[l]);
        homg_mesh_destroy(got[l]);
        homg__free(ctx, edges[l]);
    }
}

/* The set-up's refinement (kernels/gmg/refine.*) on both backends against
 * homg_mesh_refine on random meshes: the same meshes bit for bit (also on the
 * regular cube, whose octahedra have diagonals of equal length), the same P. */
static void test_refine(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int jitter = 0; jitter <= 1; jitter++) {
            int nl = quick ? 3 : 4;
            homg_ctx *ctx[2] = { ctx_of(HOMG_BACKEND_CPU), ctx_of(HOMG_BACKEND_CUDA) };
            homg_mesh *ref[8], *got[2][8], *c[2];
            homg_host_csr p[2][8];
            for (int b = 0; b < 2; b++) {
                homg_mesh_generate_desc gd = { 0 };
                gd.cells = dim == 2 ? 6 : 3;
                if (jitter)
                    c[b] = random_mesh(ctx[b], dim, 41u + (unsigned)dim);
                else
                    assert_int_equal(dim == 2 ? homg_mesh_generate_square(ctx[b], &gd, &c[b])
                                              : homg_mesh_generate_cube(ctx[b], &gd, &c[b]),
                                     HOMG_OK);
                memset(p[b], 0, sizeof p[b]);
                assert_int_equal(homg__gmg_refine(ctx[b], c[b], nl, got[b], p[b], NULL), HOMG_OK);
            }
            ref[nl - 1] = c[0];
            for (int l = nl - 2; l >= 0; l--)
                assert_int_equal(homg_mesh_refine(ref[l + 1], &ref[l]), HOMG_OK);
            assert_device_refine(ctx[0], c[0], nl, ref);
            assert_device_refine(ctx[1], c[1], nl, ref);
            for (int l = 0; l < nl - 1; l++) {
                homg_host_csr q;
                assert_same_mesh(got[0][l], ref[l]);
                assert_same_mesh(got[1][l], ref[l]);
                assert_int_equal(homg__gmg_prolongation(ctx[0], ref[l], ref[l + 1], &q), HOMG_OK);
                for (int b = 0; b < 2; b++) {
                    assert_int_equal(p[b][l].nnz, q.nnz);
                    assert_memory_equal(p[b][l].row_ptr, q.row_ptr, sizeof(int32_t) * (q.nrows + 1));
                    assert_memory_equal(p[b][l].col_idx, q.col_idx, sizeof(int32_t) * q.nnz);
                    for (int32_t k = 0; k < q.nnz; k++)
                        assert_true(fabs(p[b][l].values[k] - q.values[k]) < 1e-12);
                    homg_host_csr_free(&p[b][l]);
                }
                homg_host_csr_free(&q);
            }
            printf("  %dD %s: %d levels, finest %d nodes %d elements: CPU and CUDA refinement (host and device-only) = "
                   "homg_mesh_refine\n",
                   dim, jitter ? "random mesh" : "regular mesh", nl, (int)homg_mesh_num_nodes(ref[0]),
                   (int)homg_mesh_num_elements(ref[0]));
            for (int l = 0; l < nl - 1; l++) {
                homg_mesh_destroy(ref[l]);
                homg_mesh_destroy(got[0][l]);
                homg_mesh_destroy(got[1][l]);
            }
            homg_mesh_destroy(c[0]);
            homg_mesh_destroy(c[1]);
            homg_ctx_destroy(ctx[0]);
            homg_ctx_destroy(ctx[1]);
        }
}

/* The device set-up's refinement sizes its levels by the coarse mesh's counts
 * (no read): on a mesh with a repeated element the device finds fewer edges
 * than the rule gives (refine_edges pads its keys) and the check read after
 * the last level refuses it. */
static void test_refine_miscount(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_ctx *ctx = ctx_of(HOMG_BACKEND_CUDA);
        homg_mesh_generate_desc gd = { 0 };
        homg_mesh *c = NULL, *rep, *got[3];
        uint64_t *edges[3];
        int32_t count[3];
        gd.cells = 2;
        assert_int_equal(dim == 2 ? homg_mesh_generate_square(ctx, &gd, &c) : homg_mesh_generate_cube(ctx, &gd, &c),
                         HOMG_OK);
        rep = homg_test_repeat_mesh(ctx, c);
        assert_non_null(rep);
        assert_int_equal(homg__gmg_refine_device(ctx, rep, 3, got, edges, count, NULL), HOMG_ERROR_INVALID_ARGUMENT);
        assert_non_null(strstr(homg_ctx_last_error(ctx), "repeated elements"));
        homg_mesh_destroy(rep);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
    printf("  repeated element: refused by the counts' check on CUDA\n");
}

/* P2 on the finest mesh (desc.order = 2: the P2 colour kernel, then P1 levels) on both backends. */
static void test_p2_hierarchy(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++) {
        homg_gmg_desc d = { 0 };
        outcome h, g;
        d.levels = quick ? 1 : (dim == 2 ? 4 : 2);
        d.order = 2;
        h = gmg_pcg(HOMG_BACKEND_CPU, dim, d);
        g = gmg_pcg(HOMG_BACKEND_CUDA, dim, d);
        printf("  %dD P2, %d rows: CPU %d, CUDA %d iterations; x diff %.1e\n", dim, (int)h.n, h.iterations,
               g.iterations, max_rel(g.x, h.x, h.n));
        assert_int_equal(h.n, g.n);
        assert_true(abs(h.iterations - g.iterations) <= 1);
        assert_true(max_rel(g.x, h.x, h.n) < 1e-5);
        free(h.x);
        free(g.x);
    }
}

/* tag_values (tagval.h) on random markers and a tag list with repeats: the
 * CPU twin against the loop written here (the last listed match wins), CUDA =
 * CPU bit for bit; then P1 hierarchies with per-tag Dirichlet values (the
 * values from fem's device markers) solved on both backends. */
static void test_tag_values(void **state)
{
    homg_ctx *cpu = ctx_of(HOMG_BACKEND_CPU), *gpu = ctx_of(HOMG_BACKEND_CUDA);
    homg_rng rng = homg_rng_seed(37);
    static const int32_t tags[6] = { 3, 1, 4, 1, 5, 9 };
    static const double vals[6] = { 0.5, -1.25, 2, 3.5, -4, 7 };
    int32_t n = quick ? 1000 : 200000, *mk = malloc(sizeof(int32_t) * n), *d_mk, *d_tags;
    double *out_h = malloc(sizeof(double) * n), *out_d = malloc(sizeof(double) * n), *d_vals, *d_out;
    (void)state;
    for (int32_t i = 0; i < n; i++)
        mk[i] = (int32_t)(homg_rng_uniform(&rng) * 11);
    d_mk = up(gpu, mk, sizeof(int32_t) * n);
    d_tags = up(gpu, tags, sizeof tags);
    d_vals = up(gpu, vals, sizeof vals);
    d_out = up(gpu, NULL, sizeof(double) * n);
    assert_int_equal(homg_cpu_gmg_tag_values(&cpu->ex, n, mk, tags, vals, 6, -0.75, out_h), HOMG_OK);
    assert_int_equal(homg_cuda_gmg_tag_values(&gpu->ex, n, d_mk, d_tags, d_vals, 6, -0.75, d_out), HOMG_OK);
    down(gpu, out_d, d_out, sizeof(double) * n);
    for (int32_t i = 0; i < n; i++) {
        double want = -0.75;
        for (int k = 0; k < 6; k++)
            if (mk[i] == tags[k])
                want = vals[k];
        assert_true(out_h[i] == want);
    }
    assert_memory_equal(out_d, out_h, sizeof(double) * n);
    printf("  tag values: %d nodes, CPU = loop, CUDA = CPU\n", (int)n);
    homg_free(gpu, d_mk);
    homg_free(gpu, d_tags);
    homg_free(gpu, d_vals);
    homg_free(gpu, d_out);
    free(mk);
    free(out_h);
    free(out_d);
    for (int dim = 2; dim <= 3; dim++) {
        static const double side_vals[6] = { 1, -2, 3, 0.5, -1, 2 };
        homg_gmg_desc d = { 0 };
        outcome h, g;
        d.levels = quick ? 2 : 3;
        d.dirichlet_tag_values = side_vals;
        h = gmg_pcg(HOMG_BACKEND_CPU, dim, d);
        g = gmg_pcg(HOMG_BACKEND_CUDA, dim, d);
        printf("  %dD P1 with per-tag Dirichlet values, %d rows: CPU %d, CUDA %d iterations; x diff %.1e\n", dim,
               (int)h.n, h.iterations, g.iterations, max_rel(g.x, h.x, h.n));
        assert_int_equal(h.n, g.n);
        assert_true(abs(h.iterations - g.iterations) <= 1);
        assert_true(max_rel(g.x, h.x, h.n) < 1e-5);
        free(h.x);
        free(g.x);
    }
}

/* The whole hierarchy on both backends. */
static void test_hierarchy(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int sm = HOMG_GMG_SMOOTHER_JACOBI; sm <= HOMG_GMG_SMOOTHER_SAINV; sm++)
            for (int f = HOMG_GMG_FORMAT_AUTO; f <= HOMG_GMG_FORMAT_ELL; f++) {
                homg_gmg_desc d = { 0 };
                outcome h, g;
                d.levels = quick ? 2 : (dim == 2 ? 5 : 3);
                d.smoother = (homg_gmg_smoother)sm;
                d.format = (homg_gmg_format)f;
                d.numbering = HOMG_GMG_NUMBERING_RCM;
                h = gmg_pcg(HOMG_BACKEND_CPU, dim, d);
                g = gmg_pcg(HOMG_BACKEND_CUDA, dim, d);
                printf("  %dD smoother %d format %d: CPU %d, CUDA %d iterations; omega %.4f / %.4f; x diff %.1e\n", dim,
                       sm, f, h.iterations, g.iterations, h.omega0, g.omega0, max_rel(g.x, h.x, h.n));
                assert_true(abs(h.iterations - g.iterations) <= 1);
                assert_true(fabs(h.omega0 - g.omega0) < 1e-6 * h.omega0);
                assert_true(max_rel(g.x, h.x, h.n) < 1e-5); /* both to 1e-8 in the residual */
                free(h.x);
                free(g.x);
            }
}

/* The smoother set-up's levels on CUDA lanes (HOMG_GMG_LANES=1) against the
 * same levels one after another (the default): every level's omega to the
 * rounding of the atomics (dot products; the FEM assembly's sums, so A can differ
 * between two creates in its last bits), the same iterations and solution;
 * SAINV's omegas to 1e-3 only: its host factor's drop decisions are not
 * continuous in A (3D, H100, s10-gmg10: 1.4e-4 between the two creates, same
 * iterations).  2D with 5 levels (not quick) puts two levels on one side lane. */
static void test_lanes(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int sm = HOMG_GMG_SMOOTHER_JACOBI; sm <= HOMG_GMG_SMOOTHER_SAINV; sm++) {
            homg_gmg_desc d = { 0 };
            outcome p, q;
            double worst = 0;
            d.levels = dim == 2 ? (quick ? 3 : 5) : (quick ? 2 : 3);
            d.smoother = (homg_gmg_smoother)sm;
            setenv("HOMG_GMG_LANES", "1", 1);
            p = gmg_pcg(HOMG_BACKEND_CUDA, dim, d);
            unsetenv("HOMG_GMG_LANES");
            q = gmg_pcg(HOMG_BACKEND_CUDA, dim, d);
            assert_int_equal(p.levels, q.levels);
            for (int l = 0; l + 1 < p.levels; l++) {
                double e = fabs(p.omega[l] - q.omega[l]) / q.omega[l];
                worst = e > worst ? e : worst;
            }
            printf("  %dD smoother %d: lanes %d, serial %d iterations; omegas max rel diff %.1e; x diff %.1e\n", dim,
                   sm, p.iterations, q.iterations, worst, max_rel(p.x, q.x, q.n));
            assert_int_equal(p.iterations, q.iterations);
            assert_true(worst < (sm == HOMG_GMG_SMOOTHER_SAINV ? 1e-3 : 1e-12));
            assert_true(max_rel(p.x, q.x, q.n) < 1e-9);
            free(p.x);
            free(q.x);
        }
}

/* Level 0's omega from level 1's (smoother.c l0_from_l1) where level 1 has
 * >= 10000 rows (2D, 6 levels: 16641): CUDA's omegas = the CPU's, level 0's =
 * level 1's / 1.02; the same iterations as with level 0's own estimate and
 * check (HOMG_GMG_L0_OMEGA=0), whose omega is within 5 %.  Not quick. */
/* The union of levels 1 .. L-1 in one FEM (the default) against a FEM a
 * level (HOMG_GMG_FEM_UNION=0) on CUDA, where max_row comes from the PATCH
 * partition: every level's max_row its own longest row, not the union's. */
static void test_union_max_row(void **state)
{
    int32_t mr[2][HOMG_GMG_MAX_LEVELS], differs = 0, nl = 0;
    (void)state;
    for (int on = 0; on <= 1; on++) {
        homg_ctx *ctx = ctx_of(HOMG_BACKEND_CUDA);
        homg_mesh *c = random_mesh(ctx, 3, 7);
        homg_gmg_desc d = { 0 };
        homg_gmg *g = NULL;
        homg_status st;
        d.levels = 3;
        d.smoother = HOMG_GMG_SMOOTHER_SPAI1;
        d.dirichlet_tags = sides; /* without: a pure Neumann problem, the coarse Cholesky refuses it */
        d.num_dirichlet_tags = 6;
        setenv("HOMG_GMG_FEM_UNION", on ? "1" : "0", 1);
        st = homg_gmg_create(c, &d, &g);
        unsetenv("HOMG_GMG_FEM_UNION");
        if (st != HOMG_OK)
            fail_msg("homg_gmg_create: %s: %s", homg_status_string(st), homg_ctx_last_error(ctx));
        nl = g->nlevels;
        assert_true(nl >= 3);
        for (int l = 0; l < nl; l++) {
            const csr_matrix *a = &g->lv[l].a.csr;
            csr_matrix h = *a;
            int32_t *rp = malloc(sizeof(int32_t) * ((size_t)a->nrows + 1));
            assert_int_equal(homg_copy_to_host(ctx, rp, a->row_ptr, sizeof(int32_t) * ((size_t)a->nrows + 1)), HOMG_OK);
            h.row_ptr = rp;
            mr[on][l] = g->lv[l].max_row;
            assert_int_equal(mr[on][l], longest_row(&h));
            free(rp);
        }
        homg_gmg_destroy(g);
        homg_mesh_destroy(c);
        homg_ctx_destroy(ctx);
    }
    for (int l = 0; l < nl; l++) {
        assert_int_equal(mr[1][l], mr[0][l]);
        differs += l >= 2 && mr[1][l] != mr[1][1];
    }
    printf("  3D random mesh, %d levels: max_row", (int)nl);
    for (int l = 0; l < nl; l++)
        printf(" %d", (int)mr[1][l]);
    printf(" with the union as without (%d coarse levels below level 1's)\n", (int)differs);
}

static void test_l0_omega(void **state)
{
    homg_gmg_desc d = { 0 };
    outcome h, g, own;
    (void)state;
    if (quick)
        return;
    d.levels = 6;
    d.smoother = HOMG_GMG_SMOOTHER_SPAI1;
    h = gmg_pcg(HOMG_BACKEND_CPU, 2, d);
    g = gmg_pcg(HOMG_BACKEND_CUDA, 2, d);
    setenv("HOMG_GMG_L0_OMEGA", "0", 1);
    own = gmg_pcg(HOMG_BACKEND_CUDA, 2, d);
    unsetenv("HOMG_GMG_L0_OMEGA");
    printf("  2D, 6 levels: CPU %d, CUDA %d, own %d iterations; omega_0 %.4f / %.4f / %.4f, omega_1 %.4f\n",
           h.iterations, g.iterations, own.iterations, h.omega[0], g.omega[0], own.omega[0], g.omega[1]);
    assert_true(abs(h.iterations - g.iterations) <= 1);
    assert_int_equal(g.iterations, own.iterations);
    for (int l = 0; l < 2; l++)
        assert_true(fabs(h.omega[l] - g.omega[l]) < 1e-6 * h.omega[l]);
    assert_true(fabs(g.omega[0] * 1.02 - g.omega[1]) < 1e-12 * g.omega[1]);
    assert_true(fabs(own.omega[0] / g.omega[0] - 1) < 0.05);
    free(h.x);
    free(g.x);
    free(own.x);
}

/* Level 0's own smoother (desc.fine_smoother JACOBI / SPAI0, fine_sweeps
 * 1 and 3) below SPAI-1: CPU against CUDA, every level's omega (level 0's
 * from its own power iterations, outside the batched levels' products) to
 * 1e-6, iterations within one, the solutions to 1e-5.  Quick: 2 levels. */
static void test_fine_smoother(void **state)
{
    (void)state;
    for (int dim = 2; dim <= 3; dim++)
        for (int sm = HOMG_GMG_SMOOTHER_JACOBI; sm <= HOMG_GMG_SMOOTHER_SPAI0; sm++)
            for (int sw = 1; sw <= 3; sw += 2) {
                homg_gmg_desc d = { 0 };
                outcome h, g;
                d.levels = quick ? 2 : (dim == 2 ? 5 : 3);
                d.fine_smoother = (homg_gmg_smoother)sm;
                d.fine_sweeps = sw;
                h = gmg_pcg(HOMG_BACKEND_CPU, dim, d);
                g = gmg_pcg(HOMG_BACKEND_CUDA, dim, d);
                printf("  %dD level 0 smoother %d x%d: CPU %d, CUDA %d iterations; omega_0 %.4f / %.4f, omega_1 %.4f / "
                       "%.4f; x diff %.1e\n",
                       dim, sm, sw, h.iterations, g.iterations, h.omega[0], g.omega[0], h.omega[1], g.omega[1],
                       max_rel(g.x, h.x, h.n));
                assert_true(abs(h.iterations - g.iterations) <= 1);
                for (int l = 0; l + 1 < h.levels; l++)
                    assert_true(fabs(h.omega[l] - g.omega[l]) < 1e-6 * h.omega[l]);
                assert_true(max_rel(g.x, h.x, h.n) < 1e-5);
                free(h.x);
                free(g.x);
            }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels),         cmocka_unit_test(test_refine),
        cmocka_unit_test(test_refine_miscount), cmocka_unit_test(test_hierarchy),
        cmocka_unit_test(test_dense_inverse),   cmocka_unit_test(test_p2_hierarchy),
        cmocka_unit_test(test_spai1_random),    cmocka_unit_test(test_prolong),
        cmocka_unit_test(test_transpose_sym),   cmocka_unit_test(test_tag_values),
        cmocka_unit_test(test_lanes),           cmocka_unit_test(test_ell_dot_stride),
        cmocka_unit_test(test_ell_batch),       cmocka_unit_test(test_l0_omega),
        cmocka_unit_test(test_fine_smoother),   cmocka_unit_test(test_dense_pattern),
        cmocka_unit_test(test_ordered_uploads), cmocka_unit_test(test_spai1_batch),
        cmocka_unit_test(test_csr_transpose),   cmocka_unit_test(test_fallback_info),
        cmocka_unit_test(test_union_max_row),
    };
    homg_test_require_gpu(argv[0]);
    quick = argc > 1 && !strcmp(argv[1], "quick");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void) { return homg_test_no_cuda("test_gmg_gpu"); }
#endif
