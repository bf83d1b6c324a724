/* sainv.c -- the stabilised approximate inverse (SAINV, Benzi, Cullum and
 * Tuma) of a symmetric positive definite host matrix: A-biconjugation of the
 * unit vectors, M = Z D^-1 Z^T ~ A^-1 with Z unit upper triangular.  Seed 004
 * notes the set-up is inherently sequential, so it runs on the host; the
 * smoother applies M = W W^T (W = Z D^-1/2) as two sparse products.
 *
 * Left-looking: z_j = e_j - sum_{i<j} (u_i . z_j / p_i) z_i with u_i = A z_i and
 * p_i = z_i . u_i (the stabilised pivot, positive for SPD A in exact
 * arithmetic).  Only the i with u_i . z_j != 0 matter: a heap of candidates
 * found through the columns of U, growing as z_j fills in.  Entries of z_j
 * below drop * max |z_j| are dropped once z_j is complete, and of the rest at
 * most GMG_SAINV_FILL times the length of A's row j are kept (the largest; drop
 * 0 keeps everything, the exact inverse factor):
 * without the cap the columns fill to the bandwidth and the set-up grows as
 * n * bandwidth^2 (6.8 s for a 4913-row 3D level, measured).  A pivot <= 0 (drop
 * rounding on a nearly singular matrix) is replaced by a_jj with z_j = e_j and
 * counted.
 */
#include "gmg_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Entries of a column of Z at most, per entry of A's row (fill cap). */
#define GMG_SAINV_FILL 2

typedef struct svec {
    int32_t n, cap, *idx;
    double *val;
} svec;

typedef struct sainv_work {
    svec *z, *u, *ulist;      /* columns of Z and U = A Z; per row k the i with u_i[k] != 0 */
    double *piv, *acc, *acc2; /* pivots; dense accumulators of z_j and u_j */
    int32_t *stamp, *stamp2, *seen, *heap, *list;
    int32_t nheap, nlist;
    int32_t ucall; /* stamp of the current u_column call (replace_column calls it twice for j) */
} sainv_work;

static int push(svec *v, int32_t i, double x)
{
    if (v->n == v->cap) {
        int32_t cap = v->cap ? 2 * v->cap : 8;
        int32_t *ni = (int32_t *)realloc(v->idx, (size_t)cap * sizeof *ni);
        double *nv;
        if (!ni)
            return 0;
        v->idx = ni;
        nv = (double *)realloc(v->val, (size_t)cap * sizeof *nv);
        if (!nv)
            return 0;
        v->val = nv;
        v->cap = cap;
    }
    v->idx[v->n] = i;
    v->val[v->n++] = x;
    return 1;
}

static void heap_push(sainv_work *w, int32_t i)
{
    int32_t at = w->nheap++;
    while (at > 0 && w->heap[(at - 1) / 2] > i) {
        w->heap[at] = w->heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    w->heap[at] = i;
}

static int32_t heap_pop(sainv_work *w)
{
    int32_t top = w->heap[0], last = w->heap[--w->nheap], at = 0;
    for (;;) {
        int32_t c = 2 * at + 1;
        if (c >= w->nheap)
            break;
        if (c + 1 < w->nheap && w->heap[c + 1] < w->heap[c])
            c++;
        if (w->heap[c] >= last)
            break;
        w->heap[at] = w->heap[c];
        at = c;
    }
    if (w->nheap > 0)
        w->heap[at] = last;
    return top;
}

/* Entry k joins z_j; the i in (after, j) with u_i[k] != 0 become candidates. */
static void touch(sainv_work *w, int32_t j, int32_t k, int32_t after)
{
    if (w->stamp[k] == j)
        return;
    w->stamp[k] = j;
    w->acc[k] = 0;
    w->list[w->nlist++] = k;
    for (int32_t q = 0; q < w->ulist[k].n; q++) {
        int32_t i = w->ulist[k].idx[q];
        if (i > after && i < j && w->seen[i] != j) {
            w->seen[i] = j;
            heap_push(w, i);
        }
    }
}

/* z_j = e_j minus its projections, dropped. */
static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* z_j = e_j minus its projections; entries below drop * max |z_j| dropped, and
 * of the rest at most `cap` (the largest; the diagonal always stays). */
static int z_column(sainv_work *w, int32_t j, double drop, int32_t cap)
{
    double zmax = 0, keep = 0;
    int32_t kept = 0;
    w->nlist = w->nheap = 0;
    touch(w, j, j, -1);
    w->acc[j] = 1;
    while (w->nheap > 0) {
        int32_t i = heap_pop(w);
        const svec *u = &w->u[i], *z = &w->z[i];
        double alpha = 0;
        for (int32_t q = 0; q < u->n; q++)
            if (w->stamp[u->idx[q]] == j)
                alpha += u->val[q] * w->acc[u->idx[q]];
        if (alpha == 0)
            continue;
        alpha /= w->piv[i];
        for (int32_t q = 0; q < z->n; q++) {
            touch(w, j, z->idx[q], i);
            w->acc[z->idx[q]] -= alpha * z->val[q];
        }
    }
    for (int32_t q = 0; q < w->nlist; q++)
        if (fabs(w->acc[w->list[q]]) > zmax)
            zmax = fabs(w->acc[w->list[q]]);
    keep = drop * zmax;
    for (int32_t q = 0; q < w->nlist; q++) /* acc2 as scratch: u_column resets what it uses */
        if (w->list[q] != j && fabs(w->acc[w->list[q]]) >= keep && w->acc[w->list[q]] != 0)
            w->acc2[kept++] = fabs(w->acc[w->list[q]]);
    if (kept > cap) {
        qsort(w->acc2, (size_t)kept, sizeof(double), cmp_desc);
        keep = w->acc2[cap - 1] > keep ? w->acc2[cap - 1] : keep;
    }
    for (int32_t q = 0; q < w->nlist; q++) {
        int32_t k = w->list[q];
        if ((k == j || (fabs(w->acc[k]) >= keep && w->acc[k] != 0)) && !push(&w->z[j], k, w->acc[k]))
            return 0;
    }
    return 1;
}

/* u_j = A z_j (A symmetric: row k is column k) and the pivot z_j . u_j. */
static int u_column(sainv_work *w, const homg_host_csr *a, int32_t j, double *pivot)
{
    const svec *z = &w->z[j];
    int32_t nl = 0;
    double p = 0;
    w->ucall++;
    for (int32_t q = 0; q < z->n; q++)
        for (int32_t e = a->row_ptr[z->idx[q]]; e < a->row_ptr[z->idx[q] + 1]; e++) {
            int32_t r = a->col_idx[e];
            if (w->stamp2[r] != w->ucall) {
                w->stamp2[r] = w->ucall;
                w->acc2[r] = 0;
                w->list[nl++] = r; /* list is free again: z_j is stored */
            }
            w->acc2[r] += a->values[e] * z->val[q];
        }
    for (int32_t q = 0; q < z->n; q++)
        p += z->val[q] * w->acc2[z->idx[q]];
    for (int32_t q = 0; q < nl; q++) {
        int32_t r = w->list[q];
        if (w->acc2[r] != 0 && (!push(&w->u[j], r, w->acc2[r]) || !push(&w->ulist[r], j, 0)))
            return 0;
    }
    *pivot = p;
    return 1;
}

static double diag_of(const homg_host_csr *a, int32_t j)
{
    for (int32_t e = a->row_ptr[j]; e < a->row_ptr[j + 1]; e++)
        if (a->col_idx[e] == j)
            return a->values[e];
    return 0;
}

/* Pivot <= 0: z_j = e_j, u_j = A e_j, p = a_jj (or 1 where that is not positive). */
static int replace_column(sainv_work *w, const homg_host_csr *a, int32_t j, double *pivot)
{
    for (int32_t q = 0; q < w->u[j].n; q++) { /* take j back out of the U columns */
        svec *ul = &w->ulist[w->u[j].idx[q]];
        if (ul->n > 0 && ul->idx[ul->n - 1] == j)
            ul->n--;
    }
    w->z[j].n = w->u[j].n = 0;
    if (!push(&w->z[j], j, 1.0) || !u_column(w, a, j, pivot))
        return 0;
    if (!(*pivot > 0))
        *pivot = 1;
    return 1;
}

static void work_free(sainv_work *w, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        if (w->z) {
            free(w->z[i].idx);
            free(w->z[i].val);
        }
        if (w->u) {
            free(w->u[i].idx);
            free(w->u[i].val);
        }
        if (w->ulist) {
            free(w->ulist[i].idx);
            free(w->ulist[i].val);
        }
    }
    free(w->z);
    free(w->u);
    free(w->ulist);
    free(w->piv);
    free(w->acc);
    free(w->acc2);
    free(w->stamp);
    free(w->stamp2);
    free(w->seen);
    free(w->heap);
    free(w->list);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* W^T: row j = z_j / sqrt(p_j), columns sorted; then W. */
static homg_status assemble_w(homg_ctx *ctx, sainv_work *w, int32_t n, homg_host_csr *out)
{
    homg_host_csr wt;
    int64_t nnz = 0;
    homg_status st;
    int64_t *tmp = NULL;
    int32_t maxn = 0;
    memset(&wt, 0, sizeof wt);
    for (int32_t j = 0; j < n; j++) {
        nnz += w->z[j].n;
        if (w->z[j].n > maxn)
            maxn = w->z[j].n;
    }
    if (nnz > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "SAINV: the factor has more than 2^31 entries");
    wt.nrows = wt.ncols = n;
    wt.nnz = (int32_t)nnz;
    wt.row_ptr = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    wt.col_idx = (int32_t *)malloc(((size_t)nnz + 1) * sizeof(int32_t));
    wt.values = (double *)malloc(((size_t)nnz + 1) * sizeof(double));
    tmp = (int64_t *)malloc(((size_t)maxn + 1) * sizeof *tmp);
    if (!wt.row_ptr || !wt.col_idx || !wt.values || !tmp) {
        free(tmp);
        homg_host_csr_free(&wt);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "SAINV: out of host memory");
    }
    wt.row_ptr[0] = 0;
    for (int32_t j = 0; j < n; j++) {
        const svec *z = &w->z[j];
        double s = 1.0 / sqrt(w->piv[j]);
        int32_t b = wt.row_ptr[j];
        for (int32_t q = 0; q < z->n; q++)
            tmp[q] = (int64_t)z->idx[q] << 32 | q;
        qsort(tmp, (size_t)z->n, sizeof *tmp, cmp_i64);
        for (int32_t q = 0; q < z->n; q++) {
            wt.col_idx[b + q] = (int32_t)(tmp[q] >> 32);
            wt.values[b + q] = z->val[tmp[q] & 0xffffffff] * s;
        }
        wt.row_ptr[j + 1] = b + z->n;
    }
    free(tmp);
    st = homg__gmg_host_transpose(ctx, &wt, out);
    homg_host_csr_free(&wt);
    return st;
}

homg_status homg__gmg_sainv(homg_ctx *ctx, const homg_host_csr *a, double drop, homg_host_csr *out, int32_t *replaced)
{
    sainv_work w;
    int32_t n = a->nrows;
    homg_status st = HOMG_OK;
    memset(&w, 0, sizeof w);
    memset(out, 0, sizeof *out);
    *replaced = 0;
    w.z = (svec *)calloc((size_t)n + 1, sizeof(svec));
    w.u = (svec *)calloc((size_t)n + 1, sizeof(svec));
    w.ulist = (svec *)calloc((size_t)n + 1, sizeof(svec));
    w.piv = (double *)malloc(((size_t)n + 1) * sizeof(double));
    w.acc = (double *)malloc(((size_t)n + 1) * sizeof(double));
    w.acc2 = (double *)malloc(((size_t)n + 1) * sizeof(double));
    w.stamp = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    w.stamp2 = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    w.seen = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    w.heap = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    w.list = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!w.z || !w.u || !w.ulist || !w.piv || !w.acc || !w.acc2 || !w.stamp || !w.stamp2 || !w.seen || !w.heap ||
        !w.list) {
        work_free(&w, 0);
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "SAINV: out of host memory");
    }
    for (int32_t i = 0; i < n; i++)
        w.stamp[i] = w.stamp2[i] = w.seen[i] = -1;
    for (int32_t j = 0; j < n && st == HOMG_OK; j++) {
        double p = 0, ajj = diag_of(a, j);
        if (!z_column(&w, j, drop, drop > 0 ? GMG_SAINV_FILL * (a->row_ptr[j + 1] - a->row_ptr[j]) : INT32_MAX) ||
            !u_column(&w, a, j, &p)) {
            st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "SAINV: out of host memory");
            break;
        }
        if (!(p > 1e-12 * fabs(ajj)) || !isfinite(p)) {
            (*replaced)++;
            if (!replace_column(&w, a, j, &p))
                st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "SAINV: out of host memory");
        }
        w.piv[j] = p;
    }
    if (st == HOMG_OK)
        st = assemble_w(ctx, &w, n, out);
    work_free(&w, n);
    return st;
}
