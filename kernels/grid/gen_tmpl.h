/* gen_tmpl.h -- the CPU kernels of the general structured multigrid for one
 * storage type, included by gen.c with T = float (SUFFIX f) and T = double
 * (SUFFIX d); each mirrors its CUDA twin in gen.cu. */

#define CCAT2(a, b) a##_##b
#define CCAT(a, b)  CCAT2(a, b)
#define CFN(name)   CCAT(name, SUFFIX)

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

/* One colour: its cells off the seams, then the seams phase by phase (gen_seam). */
static void CFN(smooth)(const gen_level *L, T *u, const T *f, int colour)
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

static void CFN(smooth_from_zero)(const gen_level *L, T *u, const T *f)
{
    const long long n = (long long)gen_cells(L);
    if (gen_seams(L)) {
        memset(u, 0, (size_t)n * sizeof(T));
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

static void CFN(prolong_add)(const gen_level *L, const gen_level *C, const T *ec, T *u);

static void CFN(prolong_smooth)(const gen_level *L, const gen_level *C, const T *ec, T *u, const T *f)
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

static void CFN(coarse_solve)(const gen_level *L, T *u, const T *f, int sweeps)
{
    const size_t n = gen_cells(L);
    for (size_t c = 0; c < n; c++)
        u[c] = 0;
    for (int s = 0; s < sweeps; s++)
        for (int h = 0; h < 2; h++)
            CFN(smooth)(L, u, f, (s & 1) ? 1 - h : h);
}

/* Column c of coarse_solve's map: coarse_solve of e_c (linear in f: u = m f). */
static void CFN(coarse_matrix)(const gen_level *L, int sweeps, T *m)
{
    const size_t n = gen_cells(L);
    T e[GEN_COARSE_MATRIX_CELLS];
    for (size_t c = 0; c < n; c++)
        e[c] = 0;
    for (size_t c = 0; c < n; c++) {
        e[c] = 1;
        CFN(coarse_solve)(L, m + c * n, e, sweeps);
        e[c] = 0;
    }
}

static void CFN(coarse_apply)(const gen_level *L, const T *m, T *u, const T *f)
{
    const size_t n = gen_cells(L);
    double fa[GEN_COARSE_MATRIX_CELLS];
    for (size_t c = 0; c < n; c++)
        fa[c] = gen_active(L, c) ? (double)f[c] : 0.0;
    for (size_t r = 0; r < n; r++) {
        double acc = 0;
        for (size_t c = 0; c < n; c++)
            acc += (double)m[c * n + r] * fa[c];
        u[r] = (T)acc;
    }
}

static void CFN(residual_restrict)(const gen_level *L, const gen_level *C, const T *u, const T *f, T *fc)
{
    const long long n = (long long)gen_cells(C);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN / 8)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        gen_coords(C, (size_t)c, &i, &j, &k);
        fc[c] = (T)CFN(gen_restrict_cell)(L, C, u, f, i, j, k);
    }
}

static void CFN(prolong_add)(const gen_level *L, const gen_level *C, const T *ec, T *u)
{
    const long long n = (long long)gen_cells(L);
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long c = 0; c < n; c++) {
        int i, j, k;
        if (!gen_active(L, c))
            continue;
        gen_coords(L, (size_t)c, &i, &j, &k);
        u[c] = (T)((double)u[c] +
                   (double)ec[gen_index(C, gen_parent(i, L->nx), gen_parent(j, L->ny), gen_parent(k, L->nz))]);
    }
}

/* block_vcycle's level q and those below (CUDA: one block runs the same steps). */
static void CFN(block_level)(const gen_block *B, int q)
{
    const gen_level *L = &B->lv[q];
    T *x = (T *)B->x[q];
    const T *b = (const T *)B->b[q];
    if (q == B->n - 1) {
        CFN(coarse_solve)(L, x, b, B->sweeps);
        return;
    }
    memset(x, 0, gen_cells(L) * sizeof(T)); /* + the first half-sweep: smooth_from_zero */
    for (int s = 0; s < B->pre; s++)
        for (int h = 0; h < 2; h++)
            CFN(smooth)(L, x, b, h);
    CFN(residual_restrict)(L, &B->lv[q + 1], x, b, (T *)B->b[q + 1]);
    CFN(block_level)(B, q + 1);
    CFN(prolong_add)(L, &B->lv[q + 1], (const T *)B->x[q + 1], x); /* + a half-sweep: prolong_smooth */
    for (int s = 0; s < B->post; s++)
        for (int h = 0; h < 2; h++)
            CFN(smooth)(L, x, b, 1 - h);
}

static void CFN(residual)(const gen_level *L, const gen_fine *F, const T *u, const T *f, T *r, double *rr)
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
        r[c] = (T)v;
        acc += (double)r[c] * (double)r[c];
    }
    if (rr)
        *rr += acc;
}

static void CFN(apply)(const gen_level *L, const T *x, T *q, double *xq)
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
        q[c] = (T)v;
        acc += (double)x[c] * (double)q[c];
    }
    if (xq)
        *xq += acc;
}

static void CFN(dot2)(size_t n, const T *a, const T *b, const T *c, double *out)
{
    double s0 = 0, s1 = 0;
#pragma omp parallel for schedule(static) reduction(+ : s0, s1) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++) {
        s0 += (double)a[k] * (double)b[k];
        if (c)
            s1 += (double)c[k] * (double)b[k];
    }
    out[0] += s0;
    if (c)
        out[1] += s1;
}

static void CFN(update_ur)(size_t n, const unsigned char *flag, T *u, const T *p, T *r, const T *q, double *s)
{
    const double alpha = s[GEN_ALPHA];
    double acc = 0;
#pragma omp parallel for schedule(static) reduction(+ : acc) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++) {
        if (flag && flag[k])
            continue;
        u[k] = (T)((double)u[k] + alpha * (double)p[k]);
        r[k] = (T)((double)r[k] - alpha * (double)q[k]);
        acc += (double)r[k] * (double)r[k];
    }
    s[GEN_RR] += acc;
}

static void CFN(zero_active)(size_t n, const unsigned char *flag, T *u)
{
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++)
        if (!flag || !flag[k])
            u[k] = 0;
}

static void CFN(update_p)(size_t n, const T *z, T *p, const double *s)
{
    const double beta = s[GEN_BETA];
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++)
        p[k] = (T)((double)z[k] + beta * (double)p[k]);
}

static void CFN(error_norm)(size_t n, const unsigned char *flag, const T *u, const T *ref, double *s)
{
    double e2 = 0, r2 = 0;
#pragma omp parallel for schedule(static) reduction(+ : e2, r2) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++) {
        double d = (double)u[k] - (double)ref[k];
        if (flag && flag[k])
            continue;
        e2 += d * d;
        r2 += (double)ref[k] * (double)ref[k];
    }
    s[GEN_E2] += e2;
    s[GEN_R2] += r2;
}

static void CFN(island_sum)(size_t n, const int *label, const T *x, double *sums)
{
    for (size_t k = 0; k < n; k++)
        if (label[k] >= 0)
            sums[label[k]] += (double)x[k];
}

static void CFN(island_sub)(size_t n, const int *label, T *x, const double *sums, const double *inv_count)
{
#pragma omp parallel for schedule(static) if (n > HOMG_OMP_MIN)
    for (long long k = 0; k < (long long)n; k++)
        if (label[k] >= 0)
            x[k] = (T)((double)x[k] - sums[label[k]] * inv_count[label[k]]);
}

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

#undef CCAT2
#undef CCAT
#undef CFN
