/* gen_tmpl.h -- the CPU kernels of the general structured multigrid for one
 * storage type, included by gen.c with T = float (SUFFIX f), T = double
 * (SUFFIX d) and for float16 grids T = float with half vectors (SUFFIX h,
 * GEN_HALF_STORAGE: GEN_V / GEN_LD / GEN_ST, gen_point_tmpl.h); each mirrors its
 * CUDA twin in gen.cu. */

#ifndef GEN_ST /* vector storage as in gen_point_tmpl.h */
#define GEN_V            T
#define GEN_LD(x)        ((double)(x))
#define GEN_ST(v)        ((T)(v))
#define GEN_IO_DEFAULT_C 1
#endif

#define CCAT2(a, b) a##_##b
#define CCAT(a, b)  CCAT2(a, b)
#define CFN(name)   CCAT(name, SUFFIX)

#ifndef GEN_HALF_STORAGE
static void CFN(setup_fine)(const gen_level *L, const gen_fine *F, const T *lambda_cell, double lambda,
                            const unsigned char *flags)
{
    const long long n = (long long)gen_cells(L);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        gen_coords(L, (size_t)c, &i, &j, &k);
        CFN(gen_setup_cell)(L, F, lambda_cell, lambda, flags, i, j, k);
    }
}

static void CFN(coarsen)(const gen_level *L, const gen_level *C)
{
    const long long n = (long long)gen_cells(C);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN / 8)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        gen_coords(C, (size_t)c, &i, &j, &k);
        CFN(gen_coarse_cell)(L, C, i, j, k);
    }
}

#endif

/* One colour: its cells off the seams, then the seams phase by phase (gen_seam). */
static void CFN(smooth)(const gen_level *L, GEN_V *u, const GEN_V *f, int colour)
{
    const long long n = (long long)gen_colour_cells(L), ns = (long long)gen_seam_cells(L);
    const int seams = gen_seams(L);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN / 2)
    for (long long t = 0; t < n; t++) {
        int i, j, k;
        if (gen_colour_cell(L, (size_t)t, colour, &i, &j, &k) && gen_active(L, gen_index(L, i, j, k)) &&
            (!seams || !gen_seam(L, i, j, k)))
            u[gen_index(L, i, j, k)] = CFN(gen_relax)(L, u, f, i, j, k);
    }
    for (int ph = 1; ph <= seams; ph++)
        for (long long t = 0; t < ns; t++) {
            int i, j, k;
            if (gen_seam_cell(L, (size_t)t, &i, &j, &k) && ((i + j + k) & 1) == colour &&
                gen_active(L, gen_index(L, i, j, k)) && gen_seam(L, i, j, k) == ph)
                u[gen_index(L, i, j, k)] = CFN(gen_relax)(L, u, f, i, j, k);
        }
}

static void CFN(smooth_from_zero)(const gen_level *L, GEN_V *u, const GEN_V *f)
{
    const long long n = (long long)gen_cells(L);
    if (gen_seams(L)) {
        memset(u, 0, (size_t)n * sizeof(GEN_V));
        CFN(smooth)(L, u, f, 0);
        return;
    }
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        gen_coords(L, (size_t)c, &i, &j, &k);
        u[c] = CFN(gen_from_zero)(L, f, i, j, k);
    }
}

static void CFN(prolong_add)(const gen_level *L, const gen_level *C, const GEN_V *ec, GEN_V *u);

static void CFN(prolong_smooth)(const gen_level *L, const gen_level *C, const GEN_V *ec, GEN_V *u, const GEN_V *f)
{
    const long long n = (long long)gen_colour_cells(L);
    if (gen_seams(L)) {
        CFN(prolong_add)(L, C, ec, u);
        CFN(smooth)(L, u, f, 1);
        return;
    }
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN / 2)
    for (long long t = 0; t < n; t++) {
        int i, j, k;
        if (gen_colour_cell(L, (size_t)t, 1, &i, &j, &k) && gen_active(L, gen_index(L, i, j, k)))
            u[gen_index(L, i, j, k)] = CFN(gen_relax_from)(L, C, u, ec, f, i, j, k);
    }
}

static void CFN(coarse_solve)(const gen_level *L, GEN_V *u, const GEN_V *f, int sweeps)
{
    const size_t n = gen_cells(L);
    for (size_t c = 0; c < n; c++)
        u[c] = 0;
    for (int s = 0; s < sweeps; s++)
        for (int h = 0; h < 2; h++)
            CFN(smooth)(L, u, f, (s & 1) ? 1 - h : h);
}

/* Column c of coarse_solve's map: coarse_solve of e_c (linear in f: u = m f). */
static void CFN(coarse_matrix)(const gen_level *L, int sweeps, GEN_V *m)
{
    const size_t n = gen_cells(L);
    GEN_V e[GEN_COARSE_MATRIX_CELLS];
    for (size_t c = 0; c < n; c++)
        e[c] = GEN_ST(0.0);
    for (size_t c = 0; c < n; c++) {
        e[c] = GEN_ST(1.0);
        CFN(coarse_solve)(L, m + c * n, e, sweeps);
        e[c] = GEN_ST(0.0);
    }
}

static void CFN(coarse_apply)(const gen_level *L, const GEN_V *m, GEN_V *u, const GEN_V *f)
{
    const size_t n = gen_cells(L);
    double fa[GEN_COARSE_MATRIX_CELLS];
    for (size_t c = 0; c < n; c++)
        fa[c] = gen_active(L, c) ? GEN_LD(f[c]) : 0.0;
    for (size_t r = 0; r < n; r++) {
        double acc = 0;
        for (size_t c = 0; c < n; c++)
            acc += GEN_LD(m[c * n + r]) * fa[c];
        u[r] = GEN_ST(acc);
    }
}

static void CFN(residual_restrict)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *f, GEN_V *fc)
{
    const long long n = (long long)gen_cells(C);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN / 8)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        gen_coords(C, (size_t)c, &i, &j, &k);
        fc[c] = GEN_ST(CFN(gen_restrict_cell)(L, C, u, f, i, j, k));
    }
}

static void CFN(prolong_add)(const gen_level *L, const gen_level *C, const GEN_V *ec, GEN_V *u)
{
    const long long n = (long long)gen_cells(L);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        if (!gen_active(L, c))
            continue;
        gen_coords(L, (size_t)c, &i, &j, &k);
        u[c] = GEN_ST(GEN_LD(u[c]) +
                      gen_up(C) *
                          GEN_LD(ec[gen_index(C, gen_parent(i, L->nx), gen_parent(j, L->ny), gen_parent(k, L->nz))]));
    }
}

/* block_vcycle's level q and those below (CUDA: one block runs the same steps). */
static void CFN(block_level)(const gen_block *B, int q)
{
    const gen_level *L = &B->lv[q];
    GEN_V *x = (GEN_V *)B->x[q];
    const GEN_V *b = (const GEN_V *)B->b[q];
    if (q == B->n - 1) {
        CFN(coarse_solve)(L, x, b, B->sweeps);
        return;
    }
    memset(x, 0, gen_cells(L) * sizeof(GEN_V)); /* + the first half-sweep: smooth_from_zero */
    for (int s = 0; s < B->pre; s++)
        for (int h = 0; h < 2; h++)
            CFN(smooth)(L, x, b, h);
    CFN(residual_restrict)(L, &B->lv[q + 1], x, b, (GEN_V *)B->b[q + 1]);
    CFN(block_level)(B, q + 1);
    CFN(prolong_add)(L, &B->lv[q + 1], (const GEN_V *)B->x[q + 1], x); /* + a half-sweep: prolong_smooth */
    for (int s = 0; s < B->post; s++)
        for (int h = 0; h < 2; h++)
            CFN(smooth)(L, x, b, 1 - h);
}

static void CFN(residual)(const gen_level *L, const gen_fine *F, const GEN_V *u, const GEN_V *f, GEN_V *r, double *rr)
{
    const long long n = (long long)gen_cells(L);
    double acc = 0;
#pragma omp parallel for schedule(static) reduction(+ : acc) if (n > HOMG_OMP_MIN)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        double v = 0;
        gen_coords(L, (size_t)c, &i, &j, &k);
        if (gen_active(L, c))
            v = CFN(gen_fine_res)(L, F, u, f, i, j, k);
        r[c] = GEN_ST(v);
        acc += GEN_LD(r[c]) * GEN_LD(r[c]);
    }
    if (rr)
        *rr += acc;
}

static void CFN(apply)(const gen_level *L, const GEN_V *x, GEN_V *q, double *xq)
{
    const long long n = (long long)gen_cells(L);
    double acc = 0;
#pragma omp parallel for schedule(static) reduction(+ : acc) if (n > HOMG_OMP_MIN)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        double v = 0;
        gen_coords(L, (size_t)c, &i, &j, &k);
        if (gen_active(L, c))
            v = CFN(gen_au)(L, x, i, j, k);
        q[c] = GEN_ST(v);
        acc += GEN_LD(x[c]) * GEN_LD(q[c]);
    }
    if (xq)
        *xq += acc;
}

static void CFN(dot2)(size_t n, const GEN_V *a, const GEN_V *b, const GEN_V *c, double *out)
{
    double s0 = 0, s1 = 0;
#pragma omp parallel for schedule(static) reduction(+ : s0, s1) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++) {
        s0 += GEN_LD(a[k]) * GEN_LD(b[k]);
        if (c)
            s1 += GEN_LD(c[k]) * GEN_LD(b[k]);
    }
    out[0] += s0;
    if (c)
        out[1] += s1;
}

static void CFN(update_ur)(size_t n, const unsigned char *flag, GEN_V *u, const GEN_V *p, GEN_V *r, const GEN_V *q,
                           double *s)
{
    const double alpha = s[GEN_ALPHA];
    double acc = 0;
#pragma omp parallel for schedule(static) reduction(+ : acc) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++) {
        if (flag && flag[k])
            continue;
        u[k] = GEN_ST(GEN_LD(u[k]) + alpha * GEN_LD(p[k]));
        r[k] = GEN_ST(GEN_LD(r[k]) - alpha * GEN_LD(q[k]));
        acc += GEN_LD(r[k]) * GEN_LD(r[k]);
    }
    s[GEN_RR] += acc;
}

static void CFN(zero_active)(size_t n, const unsigned char *flag, GEN_V *u)
{
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++)
        if (!flag || !flag[k])
            u[k] = 0;
}

static void CFN(update_p)(size_t n, const GEN_V *z, GEN_V *p, const double *s)
{
    const double beta = s[GEN_BETA];
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++)
        p[k] = GEN_ST(GEN_LD(z[k]) + beta * GEN_LD(p[k]));
}

static void CFN(error_norm)(size_t n, const unsigned char *flag, const GEN_V *u, const GEN_V *ref, double *s)
{
    double e2 = 0, r2 = 0;
#pragma omp parallel for schedule(static) reduction(+ : e2, r2) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++) {
        double d = GEN_LD(u[k]) - GEN_LD(ref[k]);
        if (flag && flag[k])
            continue;
        e2 += d * d;
        r2 += GEN_LD(ref[k]) * GEN_LD(ref[k]);
    }
    s[GEN_E2] += e2;
    s[GEN_R2] += r2;
}

static void CFN(island_sum)(size_t n, const int *label, const GEN_V *x, double *sums)
{
    for (size_t k = 0; k < n; k++)
        if (label[k] >= 0)
            sums[label[k]] += GEN_LD(x[k]);
}

static void CFN(island_sub)(size_t n, const int *label, GEN_V *x, const double *sums, const double *inv_count)
{
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++)
        if (label[k] >= 0)
            x[k] = GEN_ST(GEN_LD(x[k]) - sums[label[k]] * inv_count[label[k]]);
}

#ifndef GEN_HALF_STORAGE
static void CFN(check_operator)(size_t n, const T *sigma, const T *lambda, const unsigned char *flags, long long *bad)
{
    for (size_t k = 0; k < n; k++) {
        if (sigma && !bad[0] && !(isfinite((double)sigma[k]) && sigma[k] > 0))
            bad[0] = (long long)k + 1;
        if (lambda && !bad[1] && !(isfinite((double)lambda[k]) && lambda[k] >= 0))
            bad[1] = (long long)k + 1;
        if (flags && !bad[2] && flags[k] > 2)
            bad[2] = (long long)k + 1;
        if (sigma && !bad[3] && isfinite((double)sigma[k]) && sigma[k] > 0 &&
            gen_jump((double)sigma[k], (double)sigma[0]))
            bad[3] = (long long)k + 1;
        if (flags && !bad[4] && flags[k] == GEN_SOLID)
            bad[4] = (long long)k + 1;
    }
}

#endif

#undef CCAT2
#undef CCAT
#undef CFN
#ifdef GEN_IO_DEFAULT_C
#undef GEN_V
#undef GEN_LD
#undef GEN_ST
#undef GEN_IO_DEFAULT_C
#endif
