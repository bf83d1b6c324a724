/* amg_common.h -- small inline functions the CPU and CUDA kernels of AMG share
 * word for word, so both backends make the same decisions: random priorities,
 * packed keys, matching weights. */
#ifndef HOMG_AMG_COMMON_H
#define HOMG_AMG_COMMON_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "amg_kernels.h"
#include "core/search.h"

/* ---- distance-k MIS keys: state in bits 62-63, priority in 32-61, row in 0-31 ---- */
#define HOMG_MIS_OUT       0u
#define HOMG_MIS_UNDECIDED 1u
#define HOMG_MIS_IN        2u

/* A well-mixed 32-bit hash (the murmur3 finaliser) of a row and a seed. */
HOMG_HD uint32_t amg_hash32(uint32_t x, uint32_t seed)
{
    x ^= seed * 0x9E3779B9u;
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return x;
}

HOMG_HD uint64_t amg_mis_key(uint32_t state, uint32_t row, uint32_t seed)
{
    return ((uint64_t)state << 62) | ((uint64_t)(amg_hash32(row, seed) & 0x3FFFFFFFu) << 32) | row;
}

HOMG_HD uint32_t amg_mis_state(uint64_t key) { return (uint32_t)(key >> 62); }

HOMG_HD uint64_t amg_mis_with_state(uint64_t key, uint32_t state)
{
    return (key & 0x3FFFFFFFFFFFFFFFull) | ((uint64_t)state << 62);
}

/* Row i's diagonal a_ii (0 when missing) and, in *l1, sum_j |a_ij|. */
HOMG_HD float amg_row_diag_l1(const int32_t *rp, const int32_t *ci, const float *v, int32_t i, float *l1)
{
    float d = 0, s = 0;
    for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
        s += fabsf(v[k]);
        if (ci[k] == i)
            d = v[k];
    }
    *l1 = s;
    return d;
}

/* 1 / a_ii, 0 where a_ii = 0 (the diag kernel's kinds 1 and 2, of a_ii and of the l1 row sum). */
HOMG_HD float amg_inv_diag(float aii) { return aii != 0 ? 1.0f / aii : 0.0f; }

/* Chebyshev direction of a row from its residual r: c_d d + c_r r / a_ii
 * (first: no c_d d), dinv = amg_inv_diag(a_ii) (the diag kernel's kind 1). */
HOMG_HD float amg_cheb_dir(float d, float r, float dinv, float cd, float cr, int first)
{
    return (first ? 0.0f : cd * d) + cr * dinv * r;
}

/* ---- Suitor: a proposal packs a positive float weight (its bits order like
 * the values) above a random label of the proposer (a bijection of the row),
 * so the best proposal is the maximum and ties fall in random order rather
 * than row order (row order makes long chains of displaced proposals on
 * regular meshes, whose weights are nearly all equal). ---- */
#define HOMG_SUITOR_SEED 0x5BD1E995u

HOMG_HD uint32_t amg_float_bits(float w)
{
    uint32_t u;
    memcpy(&u, &w, sizeof u);
    return u;
}

HOMG_HD uint64_t amg_suitor_key(float w, int32_t row)
{
    return ((uint64_t)amg_float_bits(w) << 32) | amg_hash32((uint32_t)row, HOMG_SUITOR_SEED);
}

/* w[k] of entry (u, v) of a, found by binary search in row u (0 if absent). */
HOMG_HD float amg_entry_weight(const int32_t *row_ptr, const int32_t *col_idx, const float *w, int32_t u, int32_t v)
{
    int32_t k = sorted_find_i32(col_idx, row_ptr[u], row_ptr[u + 1], v);
    return k >= 0 ? w[k] : 0.0f;
}

/* u's proposal to target[u] is the one its target holds. */
HOMG_HD int amg_suitor_holds(const int32_t *rp, const int32_t *ci, const float *w, const uint64_t *suitor,
                             const int32_t *target, int32_t u)
{
    int32_t t = target[u];
    return t >= 0 && suitor[t] == amg_suitor_key(amg_entry_weight(rp, ci, w, u, t), u);
}

/* Suitor's first phase for vertex u, from the state at the round's start: -3
 * when u has nothing to do (no proposal possible, or its proposal holds),
 * else its heaviest neighbour whose held proposal it beats (ties: the larger
 * random label, as the keys order them), -2 when there is none. */
HOMG_HD int32_t amg_suitor_pick(const int32_t *rp, const int32_t *ci, const float *w, const uint64_t *suitor,
                                const int32_t *target, int32_t u)
{
    uint64_t best = 0;
    int32_t best_v = -2;
    if (target[u] == -2 || amg_suitor_holds(rp, ci, w, suitor, target, u))
        return -3;
    for (int32_t k = rp[u]; k < rp[u + 1]; k++) {
        int32_t v = ci[k];
        uint64_t choice;
        if (w[k] <= 0 || v == u || amg_suitor_key(w[k], u) <= suitor[v])
            continue;
        choice = amg_suitor_key(w[k], v);
        if (choice > best) {
            best = choice;
            best_v = v;
        }
    }
    return best_v;
}

/* Weight of edge (i, j) of compatible weighted matching (seed 001, 2.2), from
 * a_ij + a_ji (so w_ij = w_ji bit for bit even when rounding left the coarse
 * matrix slightly unsymmetric), in double with explicit rounding (no fused
 * multiply-add on either backend), so both backends get the same float;
 * non-positive weights are no edges. */
HOMG_HD float amg_match_weight(float aij, float aji, float aii, float ajj, float vi, float vj)
{
#if defined(__CUDA_ARCH__)
    double num = __dmul_rn(__dmul_rn(__dadd_rn((double)aij, (double)aji), (double)vi), (double)vj);
    double den = __dadd_rn(__dmul_rn(__dmul_rn((double)aii, (double)vi), (double)vi),
                           __dmul_rn(__dmul_rn((double)ajj, (double)vj), (double)vj));
    double w = den > 0 ? __dadd_rn(1.0, -__ddiv_rn(num, den)) : 0.0;
#else
    double num = ((double)aij + (double)aji) * (double)vi * (double)vj;
    double den = (double)aii * (double)vi * (double)vi + (double)ajj * (double)vj * (double)vj;
    double w = den > 0 ? 1.0 - num / den : 0.0;
#endif
    float f = (float)w;
    return f > 0 && f < 3.0e38f ? f : 0.0f;
}

/* sqrt(a^2 + b^2) in float with explicit rounding (same on both backends). */
HOMG_HD float amg_pair_norm(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return sqrtf(__fadd_rn(__fmul_rn(a, a), __fmul_rn(b, b)));
#else
    float s = a * a;
    s += b * b;
    return sqrtf(s);
#endif
}

/* ---- strength of connection (classical, symmetric): entry (i, j) is strong
 * when s_ij = (|a_ij| + |a_ji|) / 2 / sqrt(|a_ii a_jj|) >= theta, theta at
 * most AMG_STRENGTH_ROW_FRACTION of the smaller of the two rows' largest s,
 * so a row whose couplings are all alike keeps them: the 3D P1 Laplacian's
 * largest s is 0.17 inside and 0.24 on a natural boundary (where a plain
 * theta of 0.2 drops the couplings along the boundary), the 2D one's 0.25.
 * The diagonal is kept. ---- */
#define AMG_STRENGTH_ROW_FRACTION 0.6f

HOMG_HD float amg_coupling(const int32_t *rp, const int32_t *ci, const float *v, const float *diag, int32_t i,
                           int32_t k)
{
    int32_t j = ci[k];
    float s = 0.5f * (fabsf(v[k]) + fabsf(amg_entry_weight(rp, ci, v, j, i))), den = sqrtf(fabsf(diag[i] * diag[j]));
    return den > 0 ? s / den : 0.0f;
}

/* Entry k of row i: its coupling s_ij (0 on the diagonal) into sc[k]; returns
 * the row's largest (0 when it has none).  The one binary search per entry of
 * the strength graph: the steps below read sc. */
HOMG_HD float amg_row_couplings(const int32_t *rp, const int32_t *ci, const float *v, const float *diag, int32_t i,
                                float *sc)
{
    float m = 0;
    for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
        float s = ci[k] != i ? amg_coupling(rp, ci, v, diag, i, k) : 0.0f;
        sc[k] = s;
        m = s > m ? s : m;
    }
    return m;
}

/* rowmax: the rows' largest couplings (amg_row_couplings). */
HOMG_HD int amg_strong(const int32_t *ci, const float *sc, float theta, int32_t i, int32_t k, const float *rowmax)
{
    int32_t j = ci[k];
    float t;
    if (j == i)
        return 1;
    t = AMG_STRENGTH_ROW_FRACTION * (rowmax[i] < rowmax[j] ? rowmax[i] : rowmax[j]);
    return sc[k] > 0 && sc[k] >= (theta < t ? theta : t);
}

/* Row i's strongest off-diagonal entry (largest coupling; ties: the first),
 * -1 when it has none: a row without a strong entry keeps this one, so it
 * joins a neighbour's aggregate instead of staying alone on every level. */
HOMG_HD int32_t amg_strongest(const int32_t *rp, const int32_t *ci, const float *sc, int32_t i)
{
    int32_t best = -1;
    float bs = 0;
    for (int32_t k = rp[i]; k < rp[i + 1]; k++)
        if (ci[k] != i && sc[k] > bs) {
            bs = sc[k];
            best = k;
        }
    return best;
}

/* Entry k of row i is in the strength graph: strong, or the row's strongest
 * when none is strong (lone = amg_strongest of the row then, else -1). */
HOMG_HD int amg_kept(const int32_t *ci, const float *sc, float theta, int32_t i, int32_t k, int32_t lone,
                     const float *rowmax)
{
    return k == lone || amg_strong(ci, sc, theta, i, k, rowmax);
}

/* lone of row i: amg_strongest when no off-diagonal entry is strong, else -1. */
HOMG_HD int32_t amg_lone(const int32_t *rp, const int32_t *ci, const float *sc, float theta, int32_t i,
                         const float *rowmax)
{
    for (int32_t k = rp[i]; k < rp[i + 1]; k++)
        if (ci[k] != i && amg_strong(ci, sc, theta, i, k, rowmax))
            return -1;
    return amg_strongest(rp, ci, sc, i);
}

/* ---- smoothed aggregation's prolongator, row by row: P = (I - f D^-1 A) P_tent
 * with P_tent piecewise constant, so row i of A P_tent holds, for each distinct
 * aggregate c among its columns (ascending), the sum of a_ij over the j in c
 * (in row order).  f = omega / rho / a_ii (0 where a_ii <= 0).  pc == NULL:
 * only the count.  Rows are short (at most a few hundred entries): a pass per
 * distinct aggregate costs less than a sort. ---- */
HOMG_HD int32_t amg_sa_row(const int32_t *rp, const int32_t *ci, const float *v, const int32_t *agg, int32_t i, float f,
                           int32_t *pc, float *pv)
{
    int32_t cnt = 0, last = -1, own = agg[i];
    for (;;) {
        int32_t c = INT32_MAX;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            int32_t a = agg[ci[k]];
            if (a > last && a < c)
                c = a;
        }
        if (c == INT32_MAX)
            return cnt;
        if (pc) {
            float s = 0;
            for (int32_t k = rp[i]; k < rp[i + 1]; k++)
                if (agg[ci[k]] == c)
                    s += v[k];
            pc[cnt] = c;
            pv[cnt] = (c == own ? 1.0f : 0.0f) - f * s;
        }
        cnt++;
        last = c;
    }
}

/* f of amg_sa_row: omega / rho / a_ii. */
HOMG_HD float amg_sa_factor(const int32_t *rp, const int32_t *ci, const float *v, int32_t i, double omega, float rho)
{
    float d = 0;
    for (int32_t k = rp[i]; k < rp[i + 1]; k++)
        if (ci[k] == i)
            d = v[k];
    return d > 0 ? (float)(omega / (double)rho) / d : 0.0f;
}

/* ---- Lanczos on D^-1/2 A D^-1/2 (set-up's spectral bound): the start vector
 * u_1, a fixed hash of the row in [-1, 1]. ---- */
HOMG_HD float amg_lanczos_start(int32_t i)
{
    return (float)(amg_hash32((uint32_t)i, 0x2545F491u) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

/* ---- patches: rows sorted by group, each group cut into near-equal chunks ---- */

/* First position q in [0, n) with group[perm[q]] > g (strict) or >= g. */
HOMG_HD int32_t amg_group_bound(int32_t n, const int32_t *group, const int32_t *perm, int32_t g, int strict)
{
    int32_t lo = 0, hi = n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2, v = group[perm[mid]];
        if (strict ? v <= g : v < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* 1 where a patch starts at position p: a new group, or every chunk of a
 * group split into ceil(size / max_size) near-equal chunks. */
HOMG_HD int32_t amg_patch_head(int32_t n, const int32_t *group, const int32_t *perm, int32_t max_size, int32_t p)
{
    int32_t g = group[perm[p]];
    int32_t s = amg_group_bound(n, group, perm, g, 0), e = amg_group_bound(n, group, perm, g, 1);
    int32_t size = e - s, chunks = (size + max_size - 1) / max_size;
    int32_t chunk = (size + chunks - 1) / chunks;
    return (p - s) % chunk == 0;
}

/* Row i's entries off the diagonal inside its patch (*inner) and in other patches (*boundary). */
HOMG_HD void amg_patch_row_count(const int32_t *rp, const int32_t *ci, int32_t i, const int32_t *patch_of,
                                 int32_t *inner, int32_t *boundary)
{
    int32_t in = 0, bd = 0;
    for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
        int32_t j = ci[k];
        if (j == i)
            continue;
        if (patch_of[j] == patch_of[i])
            in++;
        else
            bd++;
    }
    *inner = in;
    *boundary = bd;
}

#endif
