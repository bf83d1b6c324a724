/* spai1.cu -- CUDA twin of the SPAI-1 set-up (spai.h's per-row formulas,
 * gmg.c's homg_cpu_gmg_spai1): one small least-squares problem a row, by a
 * half or a whole warp. */
#include "sparse/sparse_util.cuh"
#include "mirror.h"
#include "spai.h"

#include <stdlib.h>

/* SPAI-1 with a group of LANES lanes per row (16: two rows a warp; 32: one).
 * The row's n neighbour rows (those of its columns j) are first staged in
 * shared memory, already scaled (a_jk w_k), by all lanes at once: the Gram
 * entries' row merges -- most of the work -- then read shared memory instead
 * of chains of dependent global loads (rows whose neighbours do not fit STAGE
 * entries merge from global memory).  G and m in shared memory; the Cholesky
 * factor, L y = a and L^T m = y column by column (lanes over the rows below /
 * above the pivot; each entry's sum in spai.h's order: the same bits as the
 * CPU twin's row-by-row loops); the row stored by all lanes, and with outt its
 * mirror entries of M^T (column i searched in each neighbour row, staged or
 * not: no separate transpose pass over M).  These column
 * loops are serial: two rows a warp share their instructions (measured: the
 * kernel is issue-bound).  Two instances: rows of up to SPAI1_SHORT entries
 * (most P1 rows) by half-warps with small slots and staging, then the longer
 * rows by whole warps with GMG_SPAI1_MAX_ROW slots and no staging; rows
 * outside (lo, hi] are left to the other.  spai1 launches the two in turn;
 * spai1_batch runs both, for several matrices, in one launch (s14-gmg26: the
 * long rows' launches were latency -- a warp a row, 45-80 us however few the
 * rows -- and a small level's short rows too, ~40 us a row). */
#define SPAI1_SHORT GMG_SPAI1_SHORT /* interior 3D P1 rows: 15 entries */
#define SPAI1_STAGE GMG_SPAI1_STAGE /* their 15 neighbour rows: 225 */
#define FULL_MASK   0xFFFFFFFFu

/* Stages the neighbour rows: sc/sv[so[r] ..] = columns / scaled values of row
 * j_r (so: exclusive prefix sums of the lengths sl, computed by the caller). */
template <int LANES>
__device__ static void spai1_stage(const int32_t *ci, const double *v, const double *w, const int32_t *st,
                                   const int32_t *so, int n, int32_t total, int lane, int32_t *sc, double *sv)
{
#pragma unroll 4 /* the loads of several rounds in flight */
    for (int32_t e = lane; e < total; e += LANES) {
        int lo = 0, hi = n; /* the last r with so[r] <= e (empty rows skipped) */
        while (hi - lo > 1) {
            int mid = (lo + hi) >> 1;
            if (so[mid] <= e)
                lo = mid;
            else
                hi = mid;
        }
        int32_t k = st[lo] + (e - so[lo]), col = ci[k];
        sc[e] = col;
        sv[e] = spai_wv(v[k], w, col);
    }
}

/* (r, c), c <= r, of packed lower-triangle index e: a float estimate, then
 * exact integer fix-ups (no double square root). */
__device__ static void spai1_tri_rc(int e, int *r, int *c)
{
    int k = (int)((sqrtf(8.0f * (float)e + 1.0f) - 1.0f) * 0.5f);
    while (SPAI_TRI(k + 1, 0) <= e)
        k++;
    while (SPAI_TRI(k, 0) > e)
        k--;
    *r = k;
    *c = e - SPAI_TRI(k, 0);
}

/* G_rc of the row (spai1_gram): neighbour rows r and c merged from the staged
 * copies or from global memory, then scaled. */
__device__ static double spai1_gram_entry(const int32_t *ci, const double *v, const double *w, const int32_t *st,
                                          const int32_t *sl, const int32_t *so, const int32_t *sc, const double *sv,
                                          const double *jw, int staged, int r, int c)
{
    double d = staged ? spai_dot(sc + so[r], sv + so[r], sl[r], sc + so[c], sv + so[c], sl[c], NULL)
                      : spai_dot(ci + st[r], v + st[r], sl[r], ci + st[c], v + st[c], sl[c], w);
    return d * (w ? jw[r] * jw[c] : 1.0);
}

/* A block's shared slots: G, m and the neighbour rows of SLOTS rows in flight
 * (and their staged copies where STAGE > 0). */
template <int CAP, int SLOTS, int STAGE> struct spai1_slots {
    double g[SLOTS][SPAI_TRI(CAP, 0)];
    double m[SLOTS][CAP], jw[SLOTS][CAP];
    int32_t st[SLOTS][CAP], sl[SLOTS][CAP], so[SLOTS][CAP + 1];
    int32_t sc[SLOTS][STAGE > 0 ? STAGE : 1];
    double sv[SLOTS][STAGE > 0 ? STAGE : 1];
};

/* The rows of one instance, as a block `block` of a grid of `grid` blocks
 * (its own launch, or its segment of spai1_batch_kernel's). */
template <int CAP, int WARPS, int STAGE, int LANES>
__device__ static void spai1_rows(spai1_slots<CAP, WARPS *(32 / LANES), STAGE> &sm, const int32_t *__restrict__ rp,
                                  const int32_t *__restrict__ ci, const double *__restrict__ v,
                                  const double *__restrict__ w, int32_t nrows, int lo, int hi, double *out,
                                  double *outt, int32_t *fallback, int64_t block, int64_t grid)
{
    constexpr int SLOTS = WARPS * (32 / LANES); /* rows in flight a block */
    static_assert(LANES == 16 || LANES == 32, "a half or a whole warp per row");
    static_assert(STAGE == 0 || CAP <= LANES, "staging takes one lane per neighbour row");
    int slot = threadIdx.x / LANES, lane = threadIdx.x & (LANES - 1);
    unsigned mask = LANES == 32 ? FULL_MASK : 0xFFFFu << (threadIdx.x & 16); /* this row's lanes */
    double *g = sm.g[slot], *m = sm.m[slot], *jw = sm.jw[slot], *sv = sm.sv[slot];
    int32_t *st = sm.st[slot], *sl = sm.sl[slot], *so = sm.so[slot], *sc = sm.sc[slot];
    for (int64_t row = block * SLOTS + slot; row < nrows; row += grid * SLOTS) {
        int32_t i = (int32_t)row, b = rp[i], n = rp[i + 1] - b;
        int ok = n > 0 && n <= GMG_SPAI1_MAX_ROW && n <= CAP, staged = 0;
        if (n <= lo || n > hi)
            continue; /* the other instance's row (the same on the row's lanes) */
        if (ok) {
            double wi = w ? w[i] : 1.0;
            for (int r = lane; r < n; r += LANES) { /* neighbour row j_r: start, length, w_j, rhs */
                int32_t j = ci[b + r];
                st[r] = rp[j];
                sl[r] = rp[j + 1] - st[r];
                jw[r] = w ? w[j] : 1.0;
                m[r] = v[b + r] * (w ? wi * jw[r] : 1.0); /* spai1_rhs */
            }
            if (STAGE > 0) {
                int32_t len = lane < n ? sl[lane] : 0, inc = len;
                for (int o = 1; o < LANES; o <<= 1) {
                    int32_t t = __shfl_up_sync(mask, inc, o, LANES);
                    if (lane >= o)
                        inc += t;
                }
                int32_t total = __shfl_sync(mask, inc, LANES - 1, LANES);
                if (lane < n)
                    so[lane] = inc - len;
                staged = total <= STAGE;
                __syncwarp(mask);
                if (staged)
                    spai1_stage<LANES>(ci, v, w, st, so, n, total, lane, sc, sv);
            }
            __syncwarp(mask);
            /* the n (n - 1) / 2 merges below the diagonal first (their packed index e is
             * SPAI_TRI(r - 1, c)), then the diagonal's sums of squares in one round: a
             * round of lanes lasts as long as its longest merge */
            for (int e = lane; e < SPAI_TRI(n - 1, 0); e += LANES) {
                int r, c;
                spai1_tri_rc(e, &r, &c);
                r++;
                g[SPAI_TRI(r, c)] = spai1_gram_entry(ci, v, w, st, sl, so, sc, sv, jw, staged, r, c);
            }
            for (int r = lane; r < n; r += LANES)
                g[SPAI_TRI(r, r)] = spai1_gram_entry(ci, v, w, st, sl, so, sc, sv, jw, staged, r, r);
            __syncwarp(mask);
        }
        for (int c = 0; ok && c < n; c++) { /* G = L L^T, the diagonal as 1 / L_cc (spai1_inv_diag) */
            double s = spai1_chol_sum(g, c, c);
            ok = spai1_pivot_ok(s, g[SPAI_TRI(c, c)]); /* the same on the row's lanes */
            __syncwarp(mask);                          /* all have read g_cc */
            if (ok) {
                double dinv = spai1_inv_diag(s);
                for (int r = c + 1 + lane; r < n; r += LANES)
                    g[SPAI_TRI(r, c)] = spai1_chol_sum(g, r, c) * dinv;
                if (lane == 0)
                    g[SPAI_TRI(c, c)] = dinv;
            }
            __syncwarp(mask);
        }
        for (int k = 0; ok && k < n; k++) { /* L y = a: y_k final, then the rows below updated */
            double y = m[k] * g[SPAI_TRI(k, k)];
            __syncwarp(mask); /* all have read m[k] */
            for (int r = k + 1 + lane; r < n; r += LANES)
                m[r] -= g[SPAI_TRI(r, k)] * y;
            if (lane == 0)
                m[k] = y;
            __syncwarp(mask);
        }
        for (int k = n - 1; ok && k >= 0; k--) { /* L^T m = y: m_k final, then the rows above updated */
            double y = m[k] * g[SPAI_TRI(k, k)];
            __syncwarp(mask);
            for (int r = lane; r < k; r += LANES)
                m[r] -= g[SPAI_TRI(k, r)] * y;
            if (lane == 0)
                m[k] = y;
            __syncwarp(mask);
        }
        if (ok) { /* spai1_backward's finiteness test, then spai1_store by all lanes */
            int bad = 0;
            for (int r = lane; r < n; r += LANES)
                bad |= !isfinite(m[r]);
            ok = !__any_sync(mask, bad);
        }
        if (ok) { /* entry (i, j_r), and M^T's (j_r, i): column i found in row j_r (staged, or global) */
            double wi = w ? w[i] : 1.0;
            for (int r = lane; r < n; r += LANES) {
                double val = m[r] * (w ? wi * jw[r] : 1.0);
                out[b + r] = val;
                if (outt) {
                    int32_t k = mirror_index(staged ? sc + so[r] : ci + st[r], sl[r], i);
                    if (k >= 0)
                        outt[st[r] + k] = val;
                }
            }
        } else {
            if (lane == 0 && spai1_store(rp, ci, v, w, i, m, 0, out))
                atomicAdd(fallback, 1);
            if (outt) { /* the SPAI(0) row lane 0 stored, mirrored by all lanes */
                __syncwarp(mask);
                for (int r = lane; r < n; r += LANES) {
                    int32_t j = ci[b + r], k = mirror_index(ci + rp[j], rp[j + 1] - rp[j], i);
                    if (k >= 0)
                        outt[rp[j] + k] = out[b + r];
                }
            }
        }
        __syncwarp(mask); /* the shared slots are reused by the next row */
    }
}

template <int CAP, int WARPS, int STAGE, int LANES>
__global__ static void __launch_bounds__(WARPS * 32)
    spai1_warp_kernel(const int32_t *__restrict__ rp, const int32_t *__restrict__ ci, const double *__restrict__ v,
                      const double *__restrict__ w, int32_t nrows, int lo, int hi, double *out, double *outt,
                      int32_t *fallback)
{
    __shared__ spai1_slots<CAP, WARPS *(32 / LANES), STAGE> sm;
    spai1_rows<CAP, WARPS, STAGE, LANES>(sm, rp, ci, v, w, nrows, lo, hi, out, outt, fallback, blockIdx.x, gridDim.x);
}

template <int CAP, int WARPS, int STAGE, int LANES>
static void spai1_launch(cudaStream_t s, const csr_matrix *a, const double *w, int lo, int hi, double *out,
                         double *outt, int32_t *fallback)
{
    constexpr int SLOTS = WARPS * (32 / LANES);
    int64_t blocks = ((int64_t)a->nrows + SLOTS - 1) / SLOTS;
    spai1_warp_kernel<CAP, WARPS, STAGE, LANES>
        <<<(unsigned)(blocks < (1 << 20) ? blocks : (1 << 20)), WARPS * 32, 0, s>>>(
            a->row_ptr, a->col_idx, (const double *)a->values, w, a->nrows, lo, hi, out, outt, fallback);
}

homg_status homg_cuda_gmg_spai1(kernel_exec *ex, const csr_matrix *a, const double *w, csr_matrix *m, double *mt,
                                int32_t *fallback, int32_t max_row)
{
    cudaStream_t s = homg_cuda_stream(ex);
    if (a->nrows == 0)
        return HOMG_OK;
    spai1_launch<SPAI1_SHORT, 4, SPAI1_STAGE, 16>(s, a, w, -1, SPAI1_SHORT, (double *)m->values, mt, fallback);
    HOMG_CUDA_LAUNCHED(ex, "SPAI-1 rows (short)");
    /* a block per 4 rows, as before s8-gmg6: a grid-stride of 1024 blocks over
     * all rows (3D P1: none long) cost 0.21 ms on the 65^3 cube, this 0.11;
     * none where the caller knows there is no long row */
    if (max_row <= 0 || max_row > SPAI1_SHORT) {
        spai1_launch<GMG_SPAI1_MAX_ROW, 4, 0, 32>(s, a, w, SPAI1_SHORT, INT32_MAX, (double *)m->values, mt, fallback);
        HOMG_CUDA_LAUNCHED(ex, "SPAI-1 rows (long)");
    }
    return HOMG_OK;
}

/* spai1_batch's launch: segments of blocks, each one instance over one
 * item's rows (the long rows' segments first: their few rows are the
 * longest-lived blocks; then the short rows, the largest item first, so that
 * the small items' blocks fill the last wave; the long rows last measured no
 * different, s14-gmg26). */
typedef struct spai1_segment {
    const int32_t *rp, *ci;
    const double *v, *w;
    double *out, *outt;
    int32_t *fallback;
    int32_t nrows, first, blocks, is_long;
} spai1_segment;
typedef struct spai1_grid {
    int count;
    spai1_segment seg[2 * GMG_SPAI1_BATCH_MAX];
} spai1_grid;

#define SPAI1_SHORT_WARPS 4
#define SPAI1_LONG_WARPS  4

__global__ static void __launch_bounds__(128) spai1_batch_kernel(const __grid_constant__ spai1_grid q)
{
    static_assert(SPAI1_SHORT_WARPS * 32 == 128 && SPAI1_LONG_WARPS * 32 == 128, "one block shape");
    __shared__ union {
        spai1_slots<SPAI1_SHORT, SPAI1_SHORT_WARPS * 2, SPAI1_STAGE> s;
        spai1_slots<GMG_SPAI1_MAX_ROW, SPAI1_LONG_WARPS, 0> l;
    } sm;
    int k = 0;
    while (k + 1 < q.count && (int32_t)blockIdx.x >= q.seg[k + 1].first)
        k++;
    const spai1_segment &g = q.seg[k];
    int64_t block = (int64_t)blockIdx.x - g.first;
    if (g.is_long) /* the same on the whole block */
        spai1_rows<GMG_SPAI1_MAX_ROW, SPAI1_LONG_WARPS, 0, 32>(sm.l, g.rp, g.ci, g.v, g.w, g.nrows, SPAI1_SHORT,
                                                               INT32_MAX, g.out, g.outt, g.fallback, block, g.blocks);
    else
        spai1_rows<SPAI1_SHORT, SPAI1_SHORT_WARPS, SPAI1_STAGE, 16>(
            sm.s, g.rp, g.ci, g.v, g.w, g.nrows, -1, SPAI1_SHORT, g.out, g.outt, g.fallback, block, g.blocks);
}

/* Segment of item it's rows for one instance (slots rows a block). */
static spai1_segment spai1_segment_of(const spai1_item *it, int is_long, int slots)
{
    spai1_segment g;
    int64_t blocks = ((int64_t)it->a->nrows + slots - 1) / slots;
    g.rp = it->a->row_ptr;
    g.ci = it->a->col_idx;
    g.v = (const double *)it->a->values;
    g.w = it->w;
    g.out = (double *)it->m->values;
    g.outt = it->mt;
    g.fallback = it->fallback;
    g.nrows = it->a->nrows;
    g.first = 0;
    g.blocks = (int32_t)(blocks < (1 << 20) ? blocks : (1 << 20));
    g.is_long = is_long;
    return g;
}

homg_status homg_cuda_gmg_spai1_batch(kernel_exec *ex, const spai1_batch *b)
{
    spai1_grid q;
    int64_t total = 0;
    q.count = 0;
    if (b->count < 0 || b->count > GMG_SPAI1_BATCH_MAX)
        return HOMG_ERROR_INVALID_ARGUMENT;
    int nlong = 0;
    spai1_segment longs[GMG_SPAI1_BATCH_MAX];
    for (int k = 0; k < b->count; k++) /* long rows (none where max_row says so) */
        if (b->item[k].a->nrows > 0 && (b->item[k].max_row <= 0 || b->item[k].max_row > SPAI1_SHORT))
            longs[nlong++] = spai1_segment_of(&b->item[k], 1, SPAI1_LONG_WARPS);
    for (int k = 0; k < nlong; k++)
        q.seg[q.count++] = longs[k];
    for (int k = 0; k < b->count; k++) { /* short rows, by descending row count */
        spai1_segment g = spai1_segment_of(&b->item[k], 0, SPAI1_SHORT_WARPS * 2);
        int at = q.count;
        if (g.nrows == 0)
            continue;
        while (at > 0 && !q.seg[at - 1].is_long && q.seg[at - 1].nrows < g.nrows) {
            q.seg[at] = q.seg[at - 1];
            at--;
        }
        q.seg[at] = g;
        q.count++;
    }
    for (int k = 0; k < q.count; k++) {
        q.seg[k].first = (int32_t)total;
        total += q.seg[k].blocks;
    }
    if (total == 0)
        return HOMG_OK;
    spai1_batch_kernel<<<(unsigned)total, 128, 0, homg_cuda_stream(ex)>>>(q);
    HOMG_CUDA_LAUNCHED(ex, "SPAI-1 rows (batch)");
    return HOMG_OK;
}
