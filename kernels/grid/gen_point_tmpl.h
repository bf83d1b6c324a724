/* gen_point_tmpl.h -- per-cell formulas of the general structured multigrid for
 * one storage type T, included by gen.c and gen.cu once with T = float
 * (SUFFIX f) and once with T = double (SUFFIX d), so both backends run the same
 * arithmetic (gen_kernels.h states the operator). */

/* Vector storage (u, f, corrections, face data): GEN_V, read by GEN_LD (to double)
 * and written by GEN_ST (from double); float32/float64 store T itself (the casts
 * of before), a float16 grid (T = float for the coefficients) stores half
 * (gen_half.h; gen.c / gen.cu define the three before including). */
#ifndef GEN_ST
#define GEN_V            T
#define GEN_LD(x)        ((double)(x))
#define GEN_ST(v)        ((T)(v))
#define GEN_IO_DEFAULT_P 1
#endif

#define GCAT2(a, b) a##_##b
#define GCAT(a, b)  GCAT2(a, b)
#define GFN(name)   GCAT(name, SUFFIX)

/* The level's coefficients, stored or uniform (gen_kernels.h). */

/* Conductance of the face between cell c and cell cp, its + neighbour on axis a. */
HOMG_HD double GFN(gen_g)(const gen_level *L, int a, size_t c, size_t cp)
{
    if (L->uniform)
        return L->flag && (L->flag[c] == GEN_SOLID || L->flag[cp] == GEN_SOLID) ? 0.0 : (double)(T)L->g0[a];
    return (double)((const T *)(a == 0 ? L->gx : a == 1 ? L->gy : L->gz))[c];
}

/* self (lam + walls) of cell c at (i, j, k). */
HOMG_HD double GFN(gen_selfv)(const gen_level *L, size_t c, int i, int j, int k)
{
    double w = 0;
    if (!L->uniform)
        return (double)((const T *)L->self)[c];
    if (!gen_active(L, c))
        return 0.0;
    w += i == 0 ? L->wall[0] : 0.0;
    w += i == L->nx - 1 ? L->wall[1] : 0.0;
    w += j == 0 ? L->wall[2] : 0.0;
    w += j == L->ny - 1 ? L->wall[3] : 0.0;
    w += k == 0 ? L->wall[4] : 0.0;
    w += k == L->nz - 1 ? L->wall[5] : 0.0;
    return (double)(T)(w + L->lam0);
}

HOMG_HD double GFN(gen_lamv)(const gen_level *L, size_t c)
{
    if (!L->uniform)
        return (double)((const T *)L->lam)[c];
    return gen_active(L, c) ? (double)(T)L->lam0 : 0.0;
}

/* Value of cell (i, j, k) = cm as relaxation reads it: u, or with ec (prolong_smooth)
 * u plus its parent's correction at an active cell, rounded as prolong_add stores it. */
HOMG_HD double GFN(gen_nbval)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *ec, size_t cm, int i,
                              int j, int k)
{
    if (!ec || !gen_active(L, cm))
        return GEN_LD(u[cm]);
    return GEN_LD(
        GEN_ST(GEN_LD(u[cm]) +
               gen_up(C) * GEN_LD(ec[gen_index(C, gen_parent(i, L->nx), gen_parent(j, L->ny), gen_parent(k, L->nz))])));
}

/* Index of the neighbour of cell c at coordinate m instead of x on an axis of
 * stride st (m - x is +-1, or the wrap): an offset, not gen_index's products. */
HOMG_HD size_t GFN(gen_nbidx)(size_t c, int m, int x, int st) { return c + (size_t)(ptrdiff_t)((m - x) * st); }

/* The fast path of a uniform level (gen_plain): a cell off every side whose
 * neighbours are all active has faces g0 and self lam0, so the sums below need
 * no side, wrap or flag tests.  Each sum runs in gen_offsum's / gen_au's order,
 * so both paths give the same value. */
HOMG_HD int GFN(gen_plain)(const gen_level *L, size_t c, int i, int j, int k)
{
    const size_t sy = (size_t)L->nx, sz = (size_t)L->nx * L->ny;
    const unsigned char *f = L->flag;
    if (!L->uniform || i < 1 || i > L->nx - 2 || j < 1 || j > L->ny - 2 || (L->nz > 1 && (k < 1 || k > L->nz - 2)))
        return 0;
    if (!f)
        return 1;
    return !(f[c] | f[c - 1] | f[c + 1] | f[c - sy] | f[c + sy] | (L->nz > 1 ? f[c - sz] | f[c + sz] : 0));
}

/* Neighbour value at cm as gen_nbval reads it, the neighbour active. */
HOMG_HD double GFN(gen_plainval)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *ec, size_t cm,
                                 int i, int j, int k)
{
    if (!ec)
        return GEN_LD(u[cm]);
    return GEN_LD(
        GEN_ST(GEN_LD(u[cm]) +
               gen_up(C) * GEN_LD(ec[gen_index(C, gen_parent(i, L->nx), gen_parent(j, L->ny), gen_parent(k, L->nz))])));
}

/* gen_offsum of a gen_plain cell. */
HOMG_HD double GFN(gen_plain_offsum)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *ec, size_t c,
                                     int i, int j, int k, double *gsum)
{
    const size_t sy = (size_t)L->nx, sz = (size_t)L->nx * L->ny;
    const double gx = (double)(T)L->g0[0], gy = (double)(T)L->g0[1];
    double s = 0, gs = 0;
    gs += gx, s += gx * GFN(gen_plainval)(L, C, u, ec, c + 1, i + 1, j, k);
    gs += gx, s += gx * GFN(gen_plainval)(L, C, u, ec, c - 1, i - 1, j, k);
    gs += gy, s += gy * GFN(gen_plainval)(L, C, u, ec, c + sy, i, j + 1, k);
    gs += gy, s += gy * GFN(gen_plainval)(L, C, u, ec, c - sy, i, j - 1, k);
    if (L->nz > 1) {
        const double gz = (double)(T)L->g0[2];
        gs += gz, s += gz * GFN(gen_plainval)(L, C, u, ec, c + sz, i, j, k + 1);
        gs += gz, s += gz * GFN(gen_plainval)(L, C, u, ec, c - sz, i, j, k - 1);
    }
    *gsum = gs;
    return s;
}

/* gen_au of a gen_plain cell. */
HOMG_HD double GFN(gen_plain_au)(const gen_level *L, const GEN_V *u, size_t c)
{
    const size_t sy = (size_t)L->nx, sz = (size_t)L->nx * L->ny;
    const double uc = GEN_LD(u[c]), gx = (double)(T)L->g0[0], gy = (double)(T)L->g0[1];
    double s = (double)(T)(0.0 + L->lam0) * uc;
    s += gx * (uc - GEN_LD(u[c + 1]));
    s += gx * (uc - GEN_LD(u[c - 1]));
    s += gy * (uc - GEN_LD(u[c + sy]));
    s += gy * (uc - GEN_LD(u[c - sy]));
    if (L->nz > 1) {
        const double gz = (double)(T)L->g0[2];
        s += gz * (uc - GEN_LD(u[c + sz]));
        s += gz * (uc - GEN_LD(u[c - sz]));
    }
    return s;
}

/* Sum over the six faces of conductance * neighbour value (gen_nbval); *gsum = the
 * sum of the conductances (one pass: the relaxation needs both). */
HOMG_HD double GFN(gen_offsum)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *ec, int i, int j,
                               int k, double *gsum)
{
    const size_t c = gen_index(L, i, j, k);
    const int sy = L->nx, sz = L->nx * L->ny;
    double s = 0, g, gs = 0;
    size_t cm;
    int m;
    if ((m = gen_nb(i, L->nx, L->periodic[0], 1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, i, 1), g = GFN(gen_g)(L, 0, c, cm), gs += g,
        s += g * GFN(gen_nbval)(L, C, u, ec, cm, m, j, k);
    if ((m = gen_nb(i, L->nx, L->periodic[0], -1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, i, 1), g = GFN(gen_g)(L, 0, cm, c), gs += g,
        s += g * GFN(gen_nbval)(L, C, u, ec, cm, m, j, k);
    if ((m = gen_nb(j, L->ny, L->periodic[1], 1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, j, sy), g = GFN(gen_g)(L, 1, c, cm), gs += g,
        s += g * GFN(gen_nbval)(L, C, u, ec, cm, i, m, k);
    if ((m = gen_nb(j, L->ny, L->periodic[1], -1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, j, sy), g = GFN(gen_g)(L, 1, cm, c), gs += g,
        s += g * GFN(gen_nbval)(L, C, u, ec, cm, i, m, k);
    if (L->nz > 1) {
        if ((m = gen_nb(k, L->nz, L->periodic[2], 1)) >= 0)
            cm = GFN(gen_nbidx)(c, m, k, sz), g = GFN(gen_g)(L, 2, c, cm), gs += g,
            s += g * GFN(gen_nbval)(L, C, u, ec, cm, i, j, m);
        if ((m = gen_nb(k, L->nz, L->periodic[2], -1)) >= 0)
            cm = GFN(gen_nbidx)(c, m, k, sz), g = GFN(gen_g)(L, 2, cm, c), gs += g,
            s += g * GFN(gen_nbval)(L, C, u, ec, cm, i, j, m);
    }
    *gsum = gs;
    return s;
}

/* (A u)_c at an active cell: self u_c + sum of g (u_c - u_neighbour), the
 * difference form, which keeps a cell of a high-sigma block whose neighbours
 * nearly equal it exact. */
HOMG_HD double GFN(gen_au)(const gen_level *L, const GEN_V *u, int i, int j, int k)
{
    const size_t c = gen_index(L, i, j, k);
    const int sy = L->nx, sz = L->nx * L->ny;
    double uc, s;
    size_t cm;
    int m;
    if (GFN(gen_plain)(L, c, i, j, k))
        return GFN(gen_plain_au)(L, u, c);
    uc = GEN_LD(u[c]);
    s = GFN(gen_selfv)(L, c, i, j, k) * uc;
    if ((m = gen_nb(i, L->nx, L->periodic[0], 1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, i, 1), s += GFN(gen_g)(L, 0, c, cm) * (uc - GEN_LD(u[cm]));
    if ((m = gen_nb(i, L->nx, L->periodic[0], -1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, i, 1), s += GFN(gen_g)(L, 0, cm, c) * (uc - GEN_LD(u[cm]));
    if ((m = gen_nb(j, L->ny, L->periodic[1], 1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, j, sy), s += GFN(gen_g)(L, 1, c, cm) * (uc - GEN_LD(u[cm]));
    if ((m = gen_nb(j, L->ny, L->periodic[1], -1)) >= 0)
        cm = GFN(gen_nbidx)(c, m, j, sy), s += GFN(gen_g)(L, 1, cm, c) * (uc - GEN_LD(u[cm]));
    if (L->nz > 1) {
        if ((m = gen_nb(k, L->nz, L->periodic[2], 1)) >= 0)
            cm = GFN(gen_nbidx)(c, m, k, sz), s += GFN(gen_g)(L, 2, c, cm) * (uc - GEN_LD(u[cm]));
        if ((m = gen_nb(k, L->nz, L->periodic[2], -1)) >= 0)
            cm = GFN(gen_nbidx)(c, m, k, sz), s += GFN(gen_g)(L, 2, cm, c) * (uc - GEN_LD(u[cm]));
    }
    return s;
}

HOMG_HD double GFN(gen_sigma)(const gen_fine *F, size_t c)
{
    return F->sigma_cell ? (double)((const T *)F->sigma_cell)[c] : F->sigma;
}

/* Face value of side s at the cell (NULL data: 0). */
HOMG_HD double GFN(gen_face_value)(const gen_level *L, const gen_fine *F, int s, int i, int j, int k)
{
    const GEN_V *d = (const GEN_V *)F->face[s];
    size_t idx = s < 2   ? (size_t)j + (size_t)L->ny * k
                 : s < 4 ? (size_t)i + (size_t)L->nx * k
                         : (size_t)i + (size_t)L->nx * j;
    return d ? GEN_LD(d[idx]) : 0.0;
}

/* Right-hand side terms of the sides the cell touches. */
HOMG_HD double GFN(gen_face_terms)(const gen_level *L, const gen_fine *F, int i, int j, int k)
{
    double t = 0, sc = GFN(gen_sigma)(F, gen_index(L, i, j, k)), inv_h = 1.0 / F->h;
    for (int s = 0; s < 6; s++) {
        if (!F->face[s] || !gen_touches(L, F, s, i, j, k))
            continue;
        double g = GFN(gen_face_value)(L, F, s, i, j, k);
        t += F->kind[s] == 0 ? 2.0 * sc * g * inv_h * inv_h : g * inv_h;
    }
    return t;
}

/* f + face terms - A u at an active fine cell (u NULL: 0). */
HOMG_HD double GFN(gen_fine_res)(const gen_level *L, const gen_fine *F, const GEN_V *u, const GEN_V *f, int i, int j,
                                 int k)
{
    size_t c = gen_index(L, i, j, k);
    double r = GEN_LD(f[c]) + GFN(gen_face_terms)(L, F, i, j, k);
    if (u)
        r -= GFN(gen_au)(L, u, i, j, k);
    return r;
}

/* Face conductance between fine cells c and m (harmonic mean / h^2; 0 with a solid). */
HOMG_HD double GFN(gen_fine_face)(const gen_fine *F, const unsigned char *flags, size_t c, size_t m)
{
    if (c == m || (flags && (flags[c] == GEN_SOLID || flags[m] == GEN_SOLID)))
        return 0.0;
    return gen_harmonic(GFN(gen_sigma)(F, c), GFN(gen_sigma)(F, m)) / (F->h * F->h);
}

/* One fine cell of setup_fine. */
HOMG_HD void GFN(gen_setup_cell)(const gen_level *L, const gen_fine *F, const T *lambda_cell, double lambda,
                                 const unsigned char *flags, int i, int j, int k)
{
    const size_t c = gen_index(L, i, j, k);
    const int fl = flags ? flags[c] : 0;
    const int n[3] = { L->nx, L->ny, L->nz }, x[3] = { i, j, k };
    T *g3[3] = { (T *)L->gx, (T *)L->gy, (T *)L->gz };
    double wall = 0, sc = GFN(gen_sigma)(F, c), lam = lambda_cell ? (double)lambda_cell[c] : lambda;
    if (L->uniform) { /* only the flags are stored */
        if (L->flag)
            L->flag[c] = (unsigned char)fl;
        return;
    }
    for (int a = 0; a < (L->nz > 1 ? 3 : 2); a++) {
        int m = gen_nb(x[a], n[a], L->periodic[a], 1), y[3] = { i, j, k };
        y[a] = m;
        g3[a][c] = m < 0 ? (T)0 : (T)GFN(gen_fine_face)(F, flags, c, gen_index(L, y[0], y[1], y[2]));
    }
    for (int s = 0; s < 6; s++)
        if (F->kind[s] == 0 && gen_touches(L, F, s, i, j, k))
            wall += 2.0 * sc / (F->h * F->h);
    if (fl != 0) /* not an unknown */
        wall = lam = 0;
    ((T *)L->self)[c] = (T)(wall + lam);
    ((T *)L->lam)[c] = (T)lam;
    if (L->flag)
        L->flag[c] = (unsigned char)fl;
}

/* Conductance through the faces between C's children on its side (axis a, dir) and
 * the next aggregate's children, active on both sides (unscaled). */
HOMG_HD double GFN(gen_crossing)(const gen_level *L, const int lo[3], const int hi[3], int a, int dir)
{
    const int n[3] = { L->nx, L->ny, L->nz };
    int l2[3] = { lo[0], lo[1], lo[2] }, h2[3] = { hi[0], hi[1], hi[2] };
    double s = 0;
    l2[a] = h2[a] = dir > 0 ? hi[a] : lo[a];
    for (int k = l2[2]; k <= h2[2]; k++)
        for (int j = l2[1]; j <= h2[1]; j++)
            for (int i = l2[0]; i <= h2[0]; i++) {
                int y[3] = { i, j, k }, x = y[a];
                int m = gen_nb(x, n[a], L->periodic[a], dir);
                size_t c = gen_index(L, i, j, k), cm;
                if (m < 0 || !gen_active(L, c))
                    continue;
                y[a] = m;
                cm = gen_index(L, y[0], y[1], y[2]);
                if (gen_active(L, cm))
                    s += dir > 0 ? GFN(gen_g)(L, a, c, cm) : GFN(gen_g)(L, a, cm, c);
            }
    return s;
}

/* Galerkin wall part of an active fine cell: its self term minus lam plus the
 * conductances to inactive (fixed) neighbours: what is not a face between unknowns. */
HOMG_HD double GFN(gen_wall)(const gen_level *L, int i, int j, int k)
{
    const int n[3] = { L->nx, L->ny, L->nz }, x[3] = { i, j, k };
    const size_t c = gen_index(L, i, j, k);
    double w = GFN(gen_selfv)(L, c, i, j, k) - GFN(gen_lamv)(L, c);
    for (int a = 0; a < (L->nz > 1 ? 3 : 2); a++)
        for (int dir = -1; dir <= 1; dir += 2) {
            int m = gen_nb(x[a], n[a], L->periodic[a], dir), y[3] = { i, j, k };
            size_t cm;
            if (m < 0)
                continue;
            y[a] = m;
            cm = gen_index(L, y[0], y[1], y[2]);
            if (!gen_active(L, cm))
                w += dir > 0 ? GFN(gen_g)(L, a, c, cm) : GFN(gen_g)(L, a, cm, c);
        }
    return w;
}

/* One coarse cell of coarsen. */
HOMG_HD void GFN(gen_coarse_cell)(const gen_level *L, const gen_level *C, int I, int J, int K)
{
    const size_t cc = gen_index(C, I, J, K);
    const int X[3] = { I, J, K }, nc[3] = { C->nx, C->ny, C->nz }, nf[3] = { L->nx, L->ny, L->nz };
    T *g3[3] = { (T *)C->gx, (T *)C->gy, (T *)C->gz };
    int lo[3], hi[3], active = 0;
    double lam = 0, wall = 0;
    for (int a = 0; a < 3; a++)
        gen_children(X[a], nf[a], &lo[a], &hi[a]);
    for (int k = lo[2]; k <= hi[2]; k++)
        for (int j = lo[1]; j <= hi[1]; j++)
            for (int i = lo[0]; i <= hi[0]; i++) {
                size_t c = gen_index(L, i, j, k);
                if (!gen_active(L, c))
                    continue;
                const int x[3] = { i, j, k };
                active = 1;
                lam += GFN(gen_lamv)(L, c);
                wall += gen_wall_scale(L, C, x, X) * GFN(gen_wall)(L, i, j, k);
            }
    for (int a = 0; a < (C->nz > 1 || L->nz > 1 ? 3 : 2); a++) {
        double g = 0;
        if (active && gen_nb(X[a], nc[a], C->periodic[a], 1) >= 0)
            g = gen_face_scale(L, C, a, X[a], nf[a], nc[a]) * GFN(gen_crossing)(L, lo, hi, a, 1);
        g3[a][cc] = (T)g;
    }
    ((T *)C->self)[cc] = (T)(active ? lam + wall : 0.0);
    ((T *)C->lam)[cc] = (T)lam;
    if (C->flag)
        C->flag[cc] = (unsigned char)(active ? 0 : GEN_SOLID);
}

/* Sum over C's active children of (f - A u) (u NULL: 0). */
HOMG_HD double GFN(gen_restrict_cell)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *f, int I,
                                      int J, int K)
{
    int lo[3], hi[3];
    double s = 0;
    gen_children(I, L->nx, &lo[0], &hi[0]);
    gen_children(J, L->ny, &lo[1], &hi[1]);
    gen_children(K, L->nz, &lo[2], &hi[2]);
    for (int k = lo[2]; k <= hi[2]; k++)
        for (int j = lo[1]; j <= hi[1]; j++)
            for (int i = lo[0]; i <= hi[0]; i++) {
                size_t c = gen_index(L, i, j, k);
                if (!gen_active(L, c))
                    continue;
                s += GEN_LD(f[c]);
                if (u)
                    s -= GFN(gen_au)(L, u, i, j, k);
            }
    return s * gen_down(C);
}

/* Gauss-Seidel update of an active cell (ec: from its neighbours' prolonged
 * values, gen_nbval).  The diagonal is self + the faces, summed in double: a
 * diagonal rounded to float beside faces of 1e4 contrast perturbs the weak
 * couplings by eps * 1e4 and can make the float32 operator indefinite (sigma
 * jumps stalled at error 1e-2..0.5, 2026-11-26). */
HOMG_HD GEN_V GFN(gen_relax_from)(const gen_level *L, const gen_level *C, const GEN_V *u, const GEN_V *ec,
                                  const GEN_V *f, int i, int j, int k)
{
    const size_t c = gen_index(L, i, j, k);
    double gsum, off, d;
    if (GFN(gen_plain)(L, c, i, j, k)) {
        off = GFN(gen_plain_offsum)(L, C, u, ec, c, i, j, k, &gsum);
        d = (double)(T)(0.0 + L->lam0) + gsum;
    } else {
        off = GFN(gen_offsum)(L, C, u, ec, i, j, k, &gsum);
        d = GFN(gen_selfv)(L, c, i, j, k) + gsum;
    }
    /* a lone cell of a singular island has no equation left (its rhs is projected to 0) */
    return d > 0 ? GEN_ST((GEN_LD(f[c]) + off) / d) : GEN_ST(0.0);
}

HOMG_HD GEN_V GFN(gen_relax)(const gen_level *L, const GEN_V *u, const GEN_V *f, int i, int j, int k)
{
    return GFN(gen_relax_from)(L, NULL, u, NULL, f, i, j, k);
}

/* Cell (i, j, k)'s equation as gen_relax reads it, for a relaxation that keeps it
 * (the CUDA coarse solve, gen.cu): the neighbours in gen_offsum's order (+x, -x,
 * +y, -y, +z, -z; nb[q] = -1 where there is none) with their conductances, and
 * the diagonal.  gen_relax(c) is then (T)((f_c + sum_q g[q] u[nb[q]]) / d), the
 * sum from 0 in q's order (0 where d <= 0): the same operations, the same value. */
HOMG_HD void GFN(gen_equation)(const gen_level *L, int i, int j, int k, int nb[6], double g[6], double *d)
{
    const size_t c = gen_index(L, i, j, k);
    const int n[3] = { L->nx, L->ny, L->nz }, x[3] = { i, j, k };
    const int plain = GFN(gen_plain)(L, c, i, j, k);
    double gs = 0;
    for (int q = 0; q < 6; q++) {
        const int a = q / 2, dir = (q & 1) ? -1 : 1, st = a == 0 ? 1 : a == 1 ? L->nx : L->nx * L->ny;
        const int m = a < 2 || L->nz > 1 ? gen_nb(x[a], n[a], L->periodic[a], dir) : -1;
        size_t cm;
        nb[q] = -1;
        g[q] = 0;
        if (m < 0)
            continue;
        cm = GFN(gen_nbidx)(c, m, x[a], st);
        nb[q] = (int)cm;
        g[q] = plain ? (double)(T)L->g0[a] : dir > 0 ? GFN(gen_g)(L, a, c, cm) : GFN(gen_g)(L, a, cm, c);
        gs += g[q];
    }
    *d = (plain ? (double)(T)(0.0 + L->lam0) : GFN(gen_selfv)(L, c, i, j, k)) + gs;
}

/* u at a cell after the colour-0 half-sweep from u = 0: f / diagonal at an active
 * colour-0 cell (what relaxation gives with zero neighbours), 0 elsewhere. */
HOMG_HD GEN_V GFN(gen_from_zero)(const gen_level *L, const GEN_V *f, int i, int j, int k)
{
    const size_t c = gen_index(L, i, j, k);
    double gsum, d;
    if (((i + j + k) & 1) || !gen_active(L, c))
        return GEN_ST(0.0);
    if (GFN(gen_plain)(L, c, i, j, k)) {
        (void)GFN(gen_plain_offsum)(L, NULL, f, NULL, c, i, j, k, &gsum);
        d = (double)(T)(0.0 + L->lam0) + gsum;
    } else {
        (void)GFN(gen_offsum)(L, NULL, f, NULL, i, j, k, &gsum); /* the sum of the faces (values unused) */
        d = GFN(gen_selfv)(L, c, i, j, k) + gsum;
    }
    return d > 0 ? GEN_ST((GEN_LD(f[c]) + 0.0) / d) : GEN_ST(0.0);
}

#undef GCAT2
#undef GCAT
#undef GFN
#ifdef GEN_IO_DEFAULT_P
#undef GEN_V
#undef GEN_LD
#undef GEN_ST
#undef GEN_IO_DEFAULT_P
#endif
