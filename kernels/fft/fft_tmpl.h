/* fft_tmpl.h -- the per-element steps of the FFT solves for one real type, shared
 * by the CPU loops (fft.c, C99) and the CUDA kernels (fft.cu), so that both compute
 * every value with the same operations in the same order.  The includer defines
 *   T       float or double
 *   CPX     a struct of two T named x and y (float2 / double2 in CUDA)
 *   SUFFIX  f or d
 *   FFT_FN  the qualifiers (static inline, or static __device__ __forceinline__)
 * and includes this file once per type.  fft_kernels.h explains the algorithm.
 * Loops over axes are unrolled and cells are picked with selects rather than by a
 * runtime array index, so that CUDA keeps the small arrays in registers. */

#ifndef FFT_UNROLL
#ifdef __CUDACC__
#define FFT_UNROLL _Pragma("unroll")
#else
#define FFT_UNROLL
#endif
#endif

#define FFT_CAT2(a, b) a##_##b
#define FFT_CAT(a, b)  FFT_CAT2(a, b)
#define FN(name)       FFT_CAT(name, SUFFIX)

FFT_FN CPX FN(cx)(T x, T y)
{
    CPX c;
    c.x = x;
    c.y = y;
    return c;
}
FFT_FN CPX FN(cmul)(CPX a, CPX b) { return FN(cx)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
/* conj(a) * b */
FFT_FN CPX FN(cmulc)(CPX a, CPX b) { return FN(cx)(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x); }

/* f' = f + face terms at cell (i0, i1, i2) of field r, in double (lib/fft/fft.h). */
FFT_FN double FN(rhs_at)(const fft_geom *g, const fft_faces *fc, const T *f, int i0, int i1, int i2, int r)
{
    const int i[3] = { i0, i1, i2 };
    double v = f[(size_t)i0 + (size_t)g->n[0] * ((size_t)i1 + (size_t)g->n[1] * i2) + (size_t)r * g->ncell];
    FFT_UNROLL
    for (int a = 0; a < 3; a++) {
        const void *lo = fc->p[2 * a], *hi = fc->p[2 * a + 1];
        size_t k;
        if (a >= g->dim || !((i[a] == 0 && lo) || (i[a] == g->n[a] - 1 && hi)))
            continue;
        k = a == 0   ? (size_t)i1 + (size_t)g->n[1] * i2
            : a == 1 ? (size_t)i0 + (size_t)g->n[0] * i2
                     : (size_t)i0 + (size_t)g->n[0] * i1;
        k += (size_t)r * g->face_n[a];
        if (i[a] == 0 && lo)
            v += g->bcoef[2 * a] * (double)((const T *)lo)[k];
        if (i[a] == g->n[a] - 1 && hi)
            v += g->bcoef[2 * a + 1] * (double)((const T *)hi)[k];
    }
    return v;
}

/* reorder_in: the value at transform position (p0, p1, p2) of field r: the cell it
 * comes from through Makhoul's permutation (cosine axes), the mirror (mixed axes)
 * and the sign (-1)^i (Dirichlet-Dirichlet axes, after mirroring). */
FFT_FN T FN(gather_in)(const fft_geom *g, const fft_faces *fc, const T *f, int p0, int p1, int p2, int r)
{
    const int p[3] = { p0, p1, p2 };
    int i0 = 0, i1 = 0, i2 = 0, neg = 0;
    FFT_UNROLL
    for (int a = 0; a < 3; a++) {
        if (a >= g->rank)
            break;
        int ax = g->act[a], t = g->t[a], n = g->n[ax], q = p[a], c;
        if (g->tcos[a])
            q = 2 * q < t ? 2 * q : 2 * (t - 1 - q) + 1;
        neg ^= g->flip[ax] & q;
        c = g->ext[ax] == 1 ? (q < n ? q : 2 * n - 1 - q) : g->ext[ax] == 2 ? (q < n ? n - 1 - q : q - n) : q;
        i0 = ax == 0 ? c : i0;
        i1 = ax == 1 ? c : i1;
        i2 = ax == 2 ? c : i2;
    }
    double v = FN(rhs_at)(g, fc, f, i0, i1, i2, r);
    return (T)((neg & 1) ? -v : v);
}

/* reorder_out: the solution at cell (i0, i1, i2) of field r from the transform array. */
FFT_FN T FN(gather_out)(const fft_geom *g, const T *v, int i0, int i1, int i2, int r)
{
    int p[3] = { 0, 0, 0 }, neg = 0;
    FFT_UNROLL
    for (int a = 0; a < 3; a++) {
        if (a >= g->rank)
            break;
        int ax = g->act[a], t = g->t[a], q = (ax == 0 ? i0 : ax == 1 ? i1 : i2) + (g->ext[ax] == 2 ? g->n[ax] : 0);
        neg ^= g->flip[ax] & q;
        p[a] = !g->tcos[a] ? q : (q & 1) ? t - 1 - q / 2 : q / 2;
    }
    T x = v[(size_t)p[0] + (size_t)g->t[0] * ((size_t)p[1] + (size_t)g->t[1] * p[2]) + (size_t)r * g->nt];
    return (neg & 1) ? -x : x;
}

/* The spectral step on the orbit of (m0, m1, m2), 0 <= m_a <= t_a/2, of field r, in
 * place in the half spectrum V (fft_kernels.h).  F[s0 + 2 s1 + 4 s2] is the full
 * spectrum value at (+-m0, +-m1, +-m2), s_a = 1 for the negative index. */
FFT_FN void FN(orbit)(const fft_geom *g, CPX *V, const CPX *tw, const T *eig, double *mean, int m0, int m1, int m2,
                      int r, int three)
{
    /* three = 0 (t2 = 1, a 2D transform): axis 2 is degenerate, the orbit has 4 values
     * (CUDA passes a constant, so the loops below have constant bounds). */
    const int nb = three ? 8 : 4, na = three ? 3 : 2, ns = three ? 4 : 2;
    const int m[3] = { m0, m1, m2 };
    int mb[3], ok2[3];
    CPX w[3], F[8];
    T e[3][2];
    size_t off[4];
    CPX *Vr = V + (size_t)r * g->nc;
    FFT_UNROLL
    for (int a = 0; a < 3; a++) {
        int t = g->t[a];
        const T *ea = eig + g->eig_off[a];
        mb[a] = m[a] ? t - m[a] : 0;
        w[a] = tw[g->tw_off[a] + m[a]];
        e[a][0] = ea[m[a]];
        ok2[a] = !g->tcos[a] || m[a] > 0; /* cosine mode t does not exist */
        e[a][1] = g->tcos[a] ? (m[a] > 0 ? ea[t - m[a]] : (T)0) : ea[mb[a]];
    }
    FFT_UNROLL
    for (int s = 0; s < ns; s++) {
        int s1 = s & 1, s2 = s >> 1;
        CPX G;
        off[s] = (size_t)m0 +
                 ((size_t)g->t[0] / 2 + 1) * ((size_t)(s1 ? mb[1] : m1) + (size_t)g->t[1] * (size_t)(s2 ? mb[2] : m2));
        G = Vr[off[s]];
        F[2 * s1 + 4 * s2] = G;
        F[1 + 2 * (1 - s1) + (three ? 4 * (1 - s2) : 0)] = FN(cx)(G.x, -G.y); /* Hermitian mirror */
    }
    /* to coefficients, axis by axis */
    FFT_UNROLL
    for (int a = 0; a < na; a++) {
        int st = 1 << a;
        if (!g->tcos[a])
            continue;
        FFT_UNROLL
        for (int b = 0; b < nb; b++) {
            if (b & st)
                continue;
            CPX A = FN(cmul)(w[a], F[b]), B = FN(cmulc)(w[a], F[b + st]);
            F[b] = FN(cx)((T)0.5 * (A.x + B.x), (T)0.5 * (A.y + B.y));
            F[b + st] = FN(cx)((T)-0.5 * (A.y - B.y), (T)0.5 * (A.x - B.x));
        }
    }
    if (m0 == 0 && m1 == 0 && m2 == 0)
        mean[r] = g->singular ? (double)F[0].x * g->inv_norm : 0.0;
    FFT_UNROLL
    for (int b = 0; b < nb; b++) {
        int c0 = b & 1, c1 = (b >> 1) & 1, c2 = b >> 2;
        T den = e[0][c0] + e[1][c1] + e[2][c2] + (T)g->lam_scaled;
        int ok = (!c0 || ok2[0]) && (!c1 || ok2[1]) && (!c2 || ok2[2]) && den != (T)0;
        F[b] = ok ? FN(cx)(F[b].x / den, F[b].y / den) : FN(cx)((T)0, (T)0);
    }
    /* back to the spectrum */
    FFT_UNROLL
    for (int a = 0; a < na; a++) {
        int st = 1 << a;
        if (!g->tcos[a])
            continue;
        FFT_UNROLL
        for (int b = 0; b < nb; b++) {
            if (b & st)
                continue;
            CPX D1 = F[b], D2 = F[b + st];
            F[b] = FN(cmulc)(w[a], FN(cx)(D1.x + D2.y, D1.y - D2.x));
            F[b + st] = FN(cmul)(w[a], FN(cx)(D1.x - D2.y, D1.y + D2.x));
        }
    }
    FFT_UNROLL
    for (int s = 0; s < ns; s++)
        Vr[off[s]] = F[2 * (s & 1) + 4 * (s >> 1)];
}

/* A problem of one cell per field (no transform axis): u = f' / lambda_eff. */
FFT_FN T FN(single)(const fft_geom *g, const fft_faces *fc, const T *f, double *mean, int r)
{
    double v = FN(rhs_at)(g, fc, f, 0, 0, 0, r);
    mean[r] = g->singular ? v : 0.0;
    return g->singular ? (T)0 : (T)v / (T)g->lam_eff;
}

#undef FN
#undef FFT_CAT
#undef FFT_CAT2
