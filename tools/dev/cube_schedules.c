/* cube_schedules.c -- CPU experiment (session 8, cube4): multigrid schedules for the
 * 3D Dirichlet box of bench/grid_general.c (float32 there; float64 here, which does not
 * change the cycle counts), the error after each cycle against the converged float64
 * solution, and what the schedule would cost on the H100 at 256^3.  Standalone (no
 * library); build and run from the repository root:
 *   cc -O2 -std=c99 tools/dev/cube_schedules.c -lm -o /tmp/cs && /tmp/cs 128
 *
 * The operator is the library's (kernels/grid/cube_point.h on a uniform level): cell-
 * centred 7-point, faces g = 1/h^2, Dirichlet walls 2g (ghost -u); level l+1 is level l
 * coarsened 2x per axis with g_c = gscale * g (gscale 2: the rediscretisation the library
 * uses, consistent with restriction = the sum of the eight children; 4: the piecewise-
 * constant Galerkin product) and walls 2 g_c; the coarsest (4^3) solved exactly.
 * Smoothing: red-black Gauss-Seidel, colours 0,1 on the way down, 1,0 on the way up
 * (general.c's order).  Correction prolongation: piecewise constant (the library's) or
 * trilinear (3/4, 1/4 per axis, ghost -e at a wall).  FMG: f restricted to every level,
 * the coarsest solved, then per level the solution interpolated (constant, trilinear or
 * tricubic; odd reflection at a wall) and one V-cycle; then V-cycles on the finest.
 *
 * Cost model (microseconds at 256^3 on the H100; ncu of session 7, h100_cube.md): a
 * finest-level kernel costs T0 (pre = zero + 2 half-sweeps 87, half-sweep 74,
 * residual+restriction 52, constant prolong + half-sweep 97; estimates for kernels not
 * written: trilinear prolong + half-sweep 105, FMG interpolation + half-sweep 90, f
 * restriction 30), level l T0 / 8^l but at least a 4.3 us launch; the error monitor 55
 * per finest cycle; "passes" = cost / 74 (one finest half-sweep). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXL 12
enum { T_PRE, T_HS, T_RR, T_PS, T_PST, T_FI, T_FR, T_MON, T_CS, NT };
static const double T0[NT] = { 87, 74, 52, 97, 105, 90, 30, 55, 4.3 };

typedef struct {
    int pre, post; /* V(pre, post) sweeps */
    int tri;       /* correction prolongation trilinear */
    double gscale; /* coarse conductance per level: 2 rediscretised, 4 Galerkin (constant) */
    int fmg;       /* 0 none; FMG solution interpolation 1 constant, 2 trilinear, 3 tricubic */
    int fmg_v;     /* V-cycles per FMG level */
    int rtri;      /* restriction the transpose of trilinear (else the sum of the children) */
    double omega;  /* over-relaxation in the half-sweeps (1: Gauss-Seidel) */
    const char *name;
    double corr; /* coarse correction scale (0: 1) */
    int wc;      /* W-cycles below the finest level */
    int fmg_v0;  /* FMG's V-cycles on the finest level (0: fmg_v) */
} sched;

/* stale (CS_STALE): 1 the half-sweep after the correction's (the other colour) runs SOR from the
 * uncorrected u of those cells (a fused in-place prolongation keeps it), 2 that half-sweep Gauss-Seidel */
static int stale;
static int nlev, N[MAXL], up1 = 1; /* up1: the way up starts with colour 1 (general.c); CS_UP0=1: colour 0 */
static double G[MAXL], *U[MAXL], *B[MAXL], *R, cost, scale256;

static size_t ix(int n, int i, int j, int k) { return (size_t)i + (size_t)n * ((size_t)j + (size_t)n * k); }
static double at(const double *u, int n, int i, int j, int k)
{
    return i < 0 || j < 0 || k < 0 || i >= n || j >= n || k >= n ? 0.0 : u[ix(n, i, j, k)];
}
static int sides(int n, int i) { return (i == 0) + (i == n - 1); }

/* the kernel's cost at level l, scaled to a 256^3 finest level */
static void pay(int t, int l)
{
    double c = T0[t] * scale256 / pow(8.0, l);
    cost += c > 4.3 ? c : 4.3;
}

static double nb(const double *u, int n, int i, int j, int k)
{
    return at(u, n, i - 1, j, k) + at(u, n, i + 1, j, k) + at(u, n, i, j - 1, k) + at(u, n, i, j + 1, k) +
           at(u, n, i, j, k - 1) + at(u, n, i, j, k + 1);
}
static double dg(int l, int i, int j, int k)
{
    const int n = N[l];
    return G[l] * (6 + sides(n, i) + sides(n, j) + sides(n, k));
}

static void half(int l, int colour, double omega)
{
    const int n = N[l];
    double *u = U[l];
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = (j + k + colour) & 1; i < n; i += 2) {
                const size_t c = ix(n, i, j, k);
                const double gs = (B[l][c] + G[l] * nb(u, n, i, j, k)) / dg(l, i, j, k);
                u[c] += omega * (gs - u[c]);
            }
}

static void residual(int l, double *r)
{
    const int n = N[l];
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                const size_t c = ix(n, i, j, k);
                r[c] = B[l][c] + G[l] * nb(U[l], n, i, j, k) - dg(l, i, j, k) * U[l][c];
            }
}

static void restrict_sum(const double *r, int n, double *rc)
{
    const int m = n / 2;
    for (int K = 0; K < m; K++)
        for (int J = 0; J < m; J++)
            for (int I = 0; I < m; I++) {
                double s = 0;
                for (int d = 0; d < 8; d++)
                    s += r[ix(n, 2 * I + (d & 1), 2 * J + (d >> 1 & 1), 2 * K + (d >> 2))];
                rc[ix(m, I, J, K)] = s;
            }
}

static double codd(const double *e, int m, int I, int J, int K);
static int w1(int kind, int i, int *o, double *w);

/* rc = P^T r for the interpolation `kind` (1: the sum of the eight children) */
static void restrict_t(const double *r, int n, double *rc, int kind)
{
    const int m = n / 2;
    if (kind == 1) {
        restrict_sum(r, n, rc);
        return;
    }
    memset(rc, 0, sizeof(double) * m * m * m);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int oi[4], oj[4], ok[4];
                double wi[4], wj[4], wk[4];
                const int ni = w1(kind, i, oi, wi), nj = w1(kind, j, oj, wj), nk = w1(kind, k, ok, wk);
                for (int c = 0; c < nk; c++)
                    for (int b = 0; b < nj; b++)
                        for (int a = 0; a < ni; a++) {
                            int I = i / 2 + oi[a], J = j / 2 + oj[b], K = k / 2 + ok[c];
                            double sg = 1;
                            int *v[3] = { &I, &J, &K };
                            for (int q = 0; q < 3; q++) {
                                if (*v[q] < 0)
                                    *v[q] = -1 - *v[q], sg = -sg;
                                else if (*v[q] >= m)
                                    *v[q] = 2 * m - 1 - *v[q], sg = -sg;
                            }
                            rc[ix(m, I, J, K)] += sg * wi[a] * wj[b] * wk[c] * r[ix(n, i, j, k)];
                        }
            }
}

/* coarse value with odd reflection at the walls (ghost -e) */
static double codd(const double *e, int m, int I, int J, int K)
{
    double s = 1;
    int *v[3] = { &I, &J, &K };
    for (int a = 0; a < 3; a++) {
        if (*v[a] < 0)
            *v[a] = -1 - *v[a], s = -s;
        else if (*v[a] >= m)
            *v[a] = 2 * m - 1 - *v[a], s = -s;
    }
    return s * e[ix(m, I, J, K)];
}

/* 1D weights and coarse offsets of fine cell i: kind 1 constant, 2 linear, 3 cubic */
static int w1(int kind, int i, int *o, double *w)
{
    const int s = i & 1 ? 1 : -1; /* side of the parent's centre the child lies on */
    if (kind == 1) {
        o[0] = 0, w[0] = 1;
        return 1;
    }
    if (kind == 2) {
        o[0] = 0, w[0] = 0.75, o[1] = s, w[1] = 0.25;
        return 2;
    }
    o[0] = -s, w[0] = -7 / 128.0, o[1] = 0, w[1] = 105 / 128.0, o[2] = s, w[2] = 35 / 128.0, o[3] = 2 * s,
    w[3] = -5 / 128.0;
    return 4;
}

/* u (+)= the interpolation of coarse e (level l + 1) */
static void interp(int l, const double *e, int kind, int add)
{
    const int n = N[l], m = n / 2;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int oi[4], oj[4], ok[4];
                double wi[4], wj[4], wk[4], s = 0;
                const int ni = w1(kind, i, oi, wi), nj = w1(kind, j, oj, wj), nk = w1(kind, k, ok, wk);
                for (int c = 0; c < nk; c++)
                    for (int b = 0; b < nj; b++)
                        for (int a = 0; a < ni; a++)
                            s += wi[a] * wj[b] * wk[c] * codd(e, m, i / 2 + oi[a], j / 2 + oj[b], k / 2 + ok[c]);
                U[l][ix(n, i, j, k)] = (add ? U[l][ix(n, i, j, k)] : 0) + s;
            }
}

/* q = A p on level l */
static void apply_a(int l, const double *p, double *q)
{
    const int n = N[l];
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                q[ix(n, i, j, k)] = dg(l, i, j, k) * p[ix(n, i, j, k)] - G[l] * nb(p, n, i, j, k);
}

/* U_l = A_l^-1 B_l to a relative residual of 1e-13 by CG: the library's exact coarse solves
 * (kernels/grid/cube_exact.h, cube_sep.h; CS_CSW=-1, s12-cube14) */
static void coarse_exact(int l)
{
    const size_t m = (size_t)N[l] * N[l] * N[l];
    double *r = malloc(m * sizeof(double)), *p = malloc(m * sizeof(double)), *q = malloc(m * sizeof(double));
    double rr = 0, r0;
    memset(U[l], 0, sizeof(double) * m);
    for (size_t c = 0; c < m; c++)
        r[c] = p[c] = B[l][c], rr += r[c] * r[c];
    r0 = rr;
    for (int it = 0; it < 5000 && rr > 1e-26 * r0; it++) {
        double pq = 0, rn = 0;
        apply_a(l, p, q);
        for (size_t c = 0; c < m; c++)
            pq += p[c] * q[c];
        for (size_t c = 0; c < m; c++) {
            U[l][c] += rr / pq * p[c];
            r[c] -= rr / pq * q[c];
            rn += r[c] * r[c];
        }
        for (size_t c = 0; c < m; c++)
            p[c] = r[c] + rn / rr * p[c];
        rr = rn;
    }
    free(r), free(p), free(q);
}

static int csweeps = 200; /* the coarsest level's sweeps (plan mode: the library's 40; -1: exact, coarse_exact) */
static void coarse_solve(int l)
{
    if (csweeps < 0) {
        coarse_exact(l);
        pay(T_CS, l);
        return;
    }
    memset(U[l], 0, sizeof(double) * N[l] * N[l] * N[l]);
    for (int s = 0; s < 2 * csweeps; s++)
        half(l, s & 1, 1.0);
    pay(T_CS, l);
}

/* u_l += corr * P e_{l+1} */
static void interp_scaled(int l, double *e, const sched *S)
{
    const size_t m = (size_t)N[l + 1] * N[l + 1] * N[l + 1];
    if (S->corr != 0 && S->corr != 1)
        for (size_t c = 0; c < m; c++)
            e[c] *= S->corr;
    interp(l, e, S->tri ? 2 : 1, 1);
}

/* one V-cycle on level l (from zero when zero) */
static void vcycle(const sched *S, int l, int zero)
{
    const int n = N[l];
    if (l == nlev - 1) {
        coarse_solve(l);
        return;
    }
    if (zero)
        memset(U[l], 0, sizeof(double) * n * n * n);
    for (int h = 0; h < 2 * S->pre; h++)
        half(l, h & 1, S->omega);
    if (zero && S->pre > 0)
        pay(T_PRE, l);
    for (int h = zero && S->pre > 0 ? 2 : 0; h < 2 * S->pre; h++)
        pay(T_HS, l);
    residual(l, R);
    restrict_t(R, n, B[l + 1], S->rtri ? 2 : 1);
    pay(T_RR, l);
    vcycle(S, l + 1, 1);
    if (S->wc && l > 0 && l + 2 < nlev) { /* the W-cycle's second visit */
        interp_scaled(l, U[l + 1], S);
        for (int h = 0; h < 2 * S->post; h++)
            half(l, (h + up1) & 1, S->omega), pay(T_HS, l);
        residual(l, R);
        restrict_t(R, n, B[l + 1], S->rtri ? 2 : 1);
        pay(T_RR, l);
        vcycle(S, l + 1, 1);
    }
    if (stale && S->post > 0) /* the fused kernel's in-place limits (CS_STALE, below) */
        memcpy(R, U[l], sizeof(double) * n * n * n);
    interp_scaled(l, U[l + 1], S);
    for (int h = 0; h < 2 * S->post; h++) {
        if (h == 1 && stale == 1) /* the other colour kept u (uncorrected) through the fused pass */
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n; j++)
                    for (int i = (j + k + up1 + 1) & 1; i < n; i += 2)
                        U[l][ix(n, i, j, k)] = R[ix(n, i, j, k)];
        half(l, (h + up1) & 1, h == 1 && stale == 2 ? 1.0 : S->omega);
    }
    pay(S->tri ? T_PST : T_PS, l);
    for (int h = 1; h < 2 * S->post; h++)
        pay(T_HS, l);
}

static void fmg(const sched *S)
{
    for (int l = 0; l + 1 < nlev; l++) {
        restrict_sum(B[l], N[l], B[l + 1]);
        pay(T_FR, l);
    }
    coarse_solve(nlev - 1);
    for (int l = nlev - 2; l >= 0; l--) {
        interp(l, U[l + 1], S->fmg, 0);
        pay(T_FI, l); /* fused with the first half-sweep: one T_HS less below */
        cost -= T0[T_HS] * scale256 / pow(8.0, l) > 4.3 ? T0[T_HS] * scale256 / pow(8.0, l) : 4.3;
        for (int v = 0; v < (l == 0 && S->fmg_v0 ? S->fmg_v0 : S->fmg_v); v++)
            vcycle(S, l, 0);
    }
}

static double err(const double *u, const double *ref, size_t n)
{
    double e = 0, r = 0;
    for (size_t c = 0; c < n; c++)
        e += (u[c] - ref[c]) * (u[c] - ref[c]), r += ref[c] * ref[c];
    return sqrt(e / r);
}

/* ---- plan mode (session 11, cube10): CS_PLAN="c1;c2;c3" a schedule per cycle (the last repeats),
 * each cycle "PQ,PQ,..." level 0, 1, ... V(P,Q) sweeps (the last entry repeats down to the
 * coarsest); CS_OMEGA / CS_OMEGAC the SOR weight on level 0 / the levels below; CS_BOTTOM the
 * coarsest size (4); the library's order (up from colour 0, the half-sweep after the fused
 * prolongation Gauss-Seidel), its coarsest solve (40 symmetric sweeps, stored as a matrix).
 * Cost: the split passes alone on the H100 at 128^3 / 256^3 / 512^3 (bench/results/h100_cube.md,
 * cube7's table; the pre from zero + 3.7 us at 128^3 for the fold, scaled), a level below the
 * finest 1/8 of the level above but at least one launch (PL us, graph + PDL), the cube block
 * (levels of <= 512 cells) one launch of BL us. */
enum { P_PRE, P_HS, P_GS, P_RR, P_PS, P_NAT, NP };
static const double PC[3][NP] = { /* us: pre (fold), SOR half-sweep, GS half-sweep, res+restr, prol+hs, hs+natural */
                                  { 17.8, 7.25, 7.2, 11.6, 12.2, 12.1 },
                                  { 77.0, 52.9, 41.9, 61.7, 63.1, 80.9 },
                                  { 470.0, 361.1, 281.3, 411.6, 399.6, 588.1 }
};
#define PL 1.8
#define BL 6.0
static double pcost[3];
static int pl_pre[MAXL], pl_post[MAXL];
static double om0 = 1.1, omc = 1.1;
static void ppay(int t, int l)
{
    for (int z = 0; z < 3; z++) {
        double c = PC[z][t] / pow(8.0, l);
        if (N[l] * N[l] * N[l] <= 512) /* in the cube block: counted once per cycle (BL) */
            continue;
        pcost[z] += c > PL ? c : PL;
    }
}
static void pvcycle(int l, int zero, int last)
{
    const int n = N[l];
    const double om = l ? omc : om0;
    if (l == nlev - 1) {
        coarse_solve(l);
        return;
    }
    if (zero)
        memset(U[l], 0, sizeof(double) * n * n * n);
    for (int h = 0; h < 2 * pl_pre[l]; h++)
        half(l, h & 1, om);
    if (zero)
        ppay(P_PRE, l);
    for (int h = zero ? 2 : 0; h < 2 * pl_pre[l]; h++)
        ppay(P_HS, l);
    residual(l, R);
    restrict_sum(R, n, B[l + 1]);
    ppay(P_RR, l);
    pvcycle(l + 1, 1, last);
    interp(l, U[l + 1], 1, 1);
    for (int h = 0; h < 2 * pl_post[l]; h++) {
        half(l, h & 1, h == 1 ? 1.0 : om); /* from colour 0; the one after the fused prolongation GS */
        if (h == 0)
            ppay(P_PS, l);
        else
            ppay(h == 2 * pl_post[l] - 1 && l == 0 && last ? P_NAT : h == 1 ? P_GS : P_HS, l);
    }
}
static void parse_cycle(const char *s)
{
    int l = 0;
    while (*s && *s != ';' && l < MAXL) {
        pl_pre[l] = s[0] - '0', pl_post[l] = s[1] - '0', l++;
        s += 2;
        if (*s == ',')
            s++;
    }
    for (; l < MAXL; l++)
        pl_pre[l] = pl_pre[l - 1], pl_post[l] = pl_post[l - 1];
}
static void run_plan(const char *plan, int ncyc, const double *f, const double *ref, size_t n)
{
    const char *cyc[16];
    int nc = 0;
    double e[16];
    cyc[nc++] = plan;
    for (const char *q = plan; *q; q++)
        if (*q == ';' && nc < 16)
            cyc[nc++] = q + 1;
    for (int l = 1; l < nlev; l++)
        G[l] = 2 * G[l - 1];
    memcpy(B[0], f, n * sizeof *f);
    memset(pcost, 0, sizeof pcost);
    int hit = -1;
    double at_hit[3] = { 0, 0, 0 };
    for (int it = 0; it < ncyc; it++) {
        parse_cycle(cyc[it < nc ? it : nc - 1]);
        pvcycle(0, it == 0, it == ncyc - 1);
        for (int z = 0; z < 3; z++)
            pcost[z] += BL;
        e[it] = err(U[0], ref, n);
        if (hit < 0 && e[it] <= 1e-4) {
            hit = it;
            memcpy(at_hit, pcost, sizeof at_hit);
        }
    }
    printf("| %s w%.2f/%.2f b%d |", plan, om0, omc, N[nlev - 1]);
    for (int it = 0; it < ncyc; it++)
        printf(" %.2e%s", e[it], it + 1 < ncyc ? "," : "");
    {
        double rr = 0, ff = 0;
        residual(0, R);
        for (size_t c = 0; c < n; c++)
            rr += R[c] * R[c], ff += f[c] * f[c];
        printf(" | %.2e | %.0f / %.0f / %.0f us |\n", sqrt(rr / ff), pcost[0], pcost[1], pcost[2]);
    }
    (void)at_hit;
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const int n0 = argc > 1 ? atoi(argv[1]) : 64, ncyc = argc > 2 ? atoi(argv[2]) : 4;
    const char *only = argc > 3 ? argv[3] : NULL;
    const size_t n = (size_t)n0 * n0 * n0;
    double *f = malloc(n * sizeof *f), *ref = malloc(n * sizeof *ref);
    unsigned s = 99;
    static const sched list[] = {
        { 2, 2, 0, 2, 0, 0, 0, 1, "V(2,2) const (library)" },
        { 2, 1, 0, 2, 0, 0, 0, 1, "V(2,1) const" },
        { 2, 2, 1, 2, 0, 0, 0, 1, "V(2,2) trilinear, rediscretised" },
        { 2, 2, 1, 4, 0, 0, 0, 1, "V(2,2) trilinear, Galerkin-const (4g)" },
        { 2, 1, 1, 2, 0, 0, 0, 1, "V(2,1) trilinear" },
        { 1, 2, 1, 2, 0, 0, 0, 1, "V(1,2) trilinear" },
        { 1, 1, 1, 2, 0, 0, 0, 1, "V(1,1) trilinear" },
        { 2, 2, 0, 2, 2, 1, 0, 1, "FMG(tri)+V(2,2) const" },
        { 2, 2, 0, 2, 3, 1, 0, 1, "FMG(cubic)+V(2,2) const" },
        { 2, 2, 1, 2, 3, 1, 0, 1, "FMG(cubic)+V(2,2) trilinear" },
        { 2, 1, 1, 2, 3, 1, 0, 1, "FMG(cubic)+V(2,1) trilinear" },
        { 1, 1, 1, 2, 3, 1, 0, 1, "FMG(cubic)+V(1,1) trilinear" },
        { 2, 1, 0, 2, 3, 1, 0, 1, "FMG(cubic)+V(2,1) const" },
        { 2, 2, 1, 2, 0, 0, 1, 1, "V(2,2) trilinear, full weighting" },
        { 1, 1, 1, 2, 0, 0, 1, 1, "V(1,1) trilinear, full weighting" },
        { 2, 2, 0, 2, 2, 2, 0, 1, "FMG(tri, 2 V per level)+V(2,2) const" },
        { 2, 2, 1, 2, 0, 0, 0, 1, "V(2,2) trilinear x1.3", 1.3 },
        { 2, 2, 1, 2, 0, 0, 0, 1, "V(2,2) trilinear x1.6", 1.6 },
        { 2, 2, 1, 2, 0, 0, 0, 1, "V(2,2) trilinear x0.8", 0.8 },
        { 2, 2, 1, 2, 0, 0, 0, 1.15, "V(2,2) trilinear SOR 1.15" },
        { 2, 2, 0, 2, 0, 0, 0, 1.15, "V(2,2) const SOR 1.15" },
        { 2, 2, 0, 2, 0, 0, 0, 1, "V(2,2) const, W below the finest", 1, 1 },
        { 2, 2, 0, 2, 2, 1, 0, 1, "FMG(tri)+V(2,2) const, W below the finest", 1, 1 },
        { 1, 1, 0, 2, 2, 1, 0, 1, "FMG(tri)+V(1,1) const" },
        { 2, 2, 0, 2, 2, 2, 0, 1, "FMG(tri, 2 V on coarse levels, 1 on the finest)+V(2,2) const", 1, 0, 1 },
        { 2, 2, 0, 2, 2, 3, 0, 1, "FMG(tri, 3 V on coarse levels, 1 on the finest)+V(2,2) const", 1, 0, 1 },
        { 3, 3, 0, 2, 2, 2, 0, 1, "FMG(tri, 2 V on coarse levels, 1 on the finest)+V(3,3) const", 1, 0, 1 },
        { 1, 2, 0, 2, 2, 1, 0, 1, "FMG(tri)+V(1,2) const" },
    };
    const int bottom = getenv("CS_BOTTOM") ? atoi(getenv("CS_BOTTOM")) : 4;
    for (int m = n0; m >= bottom; m /= 2) {
        N[nlev] = m;
        G[nlev] = nlev == 0 ? (double)n0 * n0 : 0;
        U[nlev] = calloc((size_t)m * m * m, sizeof(double));
        B[nlev] = calloc((size_t)m * m * m, sizeof(double));
        nlev++;
    }
    R = calloc(n, sizeof(double));
    for (size_t c = 0; c < n; c++) {
        s = s * 1664525u + 1013904223u;
        f[c] = (float)((s >> 8) % 2001) / 1000.0f - 1.0f;
    }
    up1 = getenv("CS_UP0") ? 0 : 1;
    stale = getenv("CS_STALE") ? atoi(getenv("CS_STALE")) : 0;
    scale256 = 1; /* T0 are the finest level's costs at 256^3 whatever n0 */
    /* the reference: V(3,3) trilinear, rediscretised, to a residual of 1e-13 */
    {
        const sched S = { 3, 3, 1, 2, 0, 0, 0, 1, "ref" };
        double r0 = 0, r1;
        for (int l = 1; l < nlev; l++)
            G[l] = 2 * G[l - 1];
        memcpy(B[0], f, n * sizeof *f);
        memset(U[0], 0, n * sizeof(double));
        for (size_t c = 0; c < n; c++)
            r0 += f[c] * f[c];
        for (int it = 0; it < 60; it++) {
            vcycle(&S, 0, it == 0);
            residual(0, R);
            r1 = 0;
            for (size_t c = 0; c < n; c++)
                r1 += R[c] * R[c];
            if (sqrt(r1 / r0) < 1e-13)
                break;
        }
        printf("# %d^3, reference residual %.1e\n", n0, sqrt(r1 / r0));
        memcpy(ref, U[0], n * sizeof *ref);
    }
    if (getenv("CS_PLAN")) { /* plan mode: the schedules separated by spaces */
        char buf[4096], *tok;
        csweeps = getenv("CS_CSW") ? atoi(getenv("CS_CSW")) : 40; /* the coarsest's sweeps (1000 at 16^3: exact) */
        om0 = getenv("CS_OMEGA") ? atof(getenv("CS_OMEGA")) : 1.1;
        omc = getenv("CS_OMEGAC") ? atof(getenv("CS_OMEGAC")) : om0;
        snprintf(buf, sizeof buf, "%s", getenv("CS_PLAN"));
        printf("| plan (per cycle; per level PQ = V(P,Q)) | errors after cycles 1..%d | residual after the last | cost "
               "128^3 / 256^3 / 512^3 |\n|---|---|---|---|\n",
               ncyc);
        for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
            run_plan(tok, ncyc, f, ref, n);
        return 0;
    }
    printf("| schedule | errors after cycles 1..%d | cycles to 1e-4 | cost to 1e-4 at 256^3 (us, passes) |\n", ncyc);
    printf("|---|---|---|---|\n");
    for (size_t q = 0; q < sizeof list / sizeof list[0]; q++) {
        const sched *S = &list[q];
        double e[16], c[16];
        int hit = -1;
        if (only && !strstr(S->name, only) && strncmp(only, "spec:", 5))
            continue;
        if (only && !strncmp(only, "spec:", 5)) { /* spec:pre,post,tri,fmg,fmg_v,omega: one schedule */
            static sched T;
            static char nm[64];
            if (q)
                break;
            T.gscale = 2, T.corr = 1, T.name = nm;
            sscanf(only + 5, "%d,%d,%d,%d,%d,%lf", &T.pre, &T.post, &T.tri, &T.fmg, &T.fmg_v, &T.omega);
            snprintf(nm, sizeof nm, "%s up%d", only + 5, up1);
            S = &T;
        }
        for (int l = 1; l < nlev; l++)
            G[l] = S->gscale * G[l - 1];
        memcpy(B[0], f, n * sizeof *f);
        cost = 0;
        for (int it = 0; it < ncyc; it++) {
            if (it == 0 && S->fmg)
                fmg(S);
            else
                vcycle(S, 0, it == 0);
            pay(T_MON, 0);
            e[it] = err(U[0], ref, n);
            c[it] = cost;
            if (hit < 0 && e[it] <= 1e-4)
                hit = it;
        }
        printf("| %s |", S->name);
        for (int it = 0; it < ncyc; it++)
            printf(" %.1e%s", e[it], it + 1 < ncyc ? "," : "");
        if (hit >= 0)
            printf(" | %d | %.0f, %.1f |\n", hit + 1, c[hit], c[hit] / T0[T_HS]);
        else
            printf(" | >%d | >%.0f |\n", ncyc, c[ncyc - 1]);
        fflush(stdout);
    }
    return 0;
}
