/* patch.c -- CPU twin of seed 000's patch-based assembly.  One patch at a
 * time per thread; the thread's scratch plays the CUDA block's shared memory:
 * the patch's column indices and values, accumulated by binary search; rows
 * outside the patch go to values_B / rhs_B (atomically), added in a second pass. */
#include "fem_element.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static size_t align64(size_t n) { return (n + 63) / 64 * 64; }

size_t homg_cpu_fem_patch_scratch_bytes(kernel_exec *ex, int32_t max_nnz, int32_t max_nodes, homg_precision precision)
{
    size_t vb = precision == HOMG_FLOAT32 ? sizeof(float) : sizeof(double);
    (void)ex;
    return align64((size_t)max_nnz * sizeof(int32_t)) + align64((size_t)max_nnz * vb) +
           align64((size_t)max_nodes * vb) + align64(((size_t)max_nodes + 1) * sizeof(int32_t));
}

static void add_atomic(void *values, homg_precision precision, int64_t k, double x)
{
    if (precision == HOMG_FLOAT32) {
        float *v = (float *)values + k, fx = (float)x;
#pragma omp atomic
        *v += fx;
    } else {
        double *v = (double *)values + k;
#pragma omp atomic
        *v += x;
    }
}

static void one_patch(const fem_problem *p, const fem_system *s, const fem_patches *q, int32_t pt,
                      unsigned char *scratch)
{
    int nv = p->dim + 1;
    homg_precision prec = s->precision;
    size_t vb = prec == HOMG_FLOAT32 ? sizeof(float) : sizeof(double);
    int32_t *scol = (int32_t *)scratch;
    void *sval = scratch + align64((size_t)q->max_nnz * sizeof(int32_t));
    void *srhs = (unsigned char *)sval + align64((size_t)q->max_nnz * vb);
    int32_t *srow = (int32_t *)((unsigned char *)srhs + align64((size_t)q->max_nodes * vb));
    int32_t e0 = q->entry_ptr[pt], ne = q->entry_ptr[pt + 1] - e0;
    int32_t n0 = q->node_ptr[pt], nn = q->node_ptr[pt + 1] - n0;
    /* 1. the patch's rows into "shared memory" */
    for (int32_t t = 0; t < ne; t++)
        scol[t] = s->col_idx[q->entry_src[e0 + t]];
    memset(sval, 0, (size_t)ne * vb);
    memset(srhs, 0, (size_t)nn * vb);
    for (int32_t l = 0; l <= nn; l++)
        srow[l] = q->row_off[n0 + pt + l];
    /* 2. element matrices, accumulated inside the patch or into the boundary arrays */
    for (int32_t i = q->elem_ptr[pt]; i < q->elem_ptr[pt + 1]; i++) {
        int32_t e = q->elems[i];
        const int32_t *v = p->elements + (size_t)e * nv;
        double A[16], F[4];
        fem_element(p, p->dim, e, v, A, F);
        for (int a = 0; a < nv; a++) {
            int32_t row = v[a];
            if (q->node_patch[row] == pt) {
                int32_t l = q->node_local[row];
                for (int b = 0; b < nv; b++) {
                    int32_t k = sorted_find_i32(scol, srow[l], srow[l + 1], v[b]);
                    if (k >= 0)
                        fem_add(sval, prec, k, A[a * nv + b]);
                }
                fem_add(srhs, prec, l, F[a]);
            } else {
                int32_t lo = s->row_ptr[row], hi = s->row_ptr[row + 1];
                for (int b = 0; b < nv; b++) {
                    int32_t k = sorted_find_i32(s->col_idx, lo, hi, v[b]);
                    if (k >= 0)
                        add_atomic(q->values_B, prec, k, A[a * nv + b]);
                }
                add_atomic(q->rhs_B, prec, row, F[a]);
            }
        }
    }
    /* 3. write the patch's rows back */
    for (int32_t t = 0; t < ne; t++) {
        int32_t k = q->entry_src[e0 + t];
        if (prec == HOMG_FLOAT32)
            ((float *)s->values)[k] = ((float *)sval)[t];
        else
            ((double *)s->values)[k] = ((double *)sval)[t];
    }
    for (int32_t l = 0; l < nn; l++) {
        int32_t row = q->nodes[n0 + l];
        if (prec == HOMG_FLOAT32)
            ((float *)s->rhs)[row] = ((float *)srhs)[l];
        else
            ((double *)s->rhs)[row] = ((double *)srhs)[l];
    }
}

homg_status homg_cpu_fem_numeric_patch(kernel_exec *ex, const fem_problem *p, const fem_system *s, const fem_patches *q)
{
    size_t per_thread = homg_cpu_fem_patch_scratch_bytes(ex, q->max_nnz, q->max_nodes, s->precision);
    size_t vb = s->precision == HOMG_FLOAT32 ? sizeof(float) : sizeof(double);
    if (q->scratch_bytes < per_thread * (size_t)(ex->sm_count > 0 ? ex->sm_count : 1))
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "patch scratch too small");
    memset(q->values_B, 0, (size_t)s->nnz * vb);
    memset(q->rhs_B, 0, (size_t)s->num_rows * vb);
#pragma omp parallel for schedule(dynamic, 2)
    for (int32_t pt = 0; pt < q->num_patches; pt++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        one_patch(p, s, q, pt, (unsigned char *)q->scratch + (size_t)tid * per_thread);
    }
    /* second pass: the patch-boundary contributions */
#pragma omp parallel for schedule(static)
    for (int32_t k = 0; k < s->nnz; k++) {
        if (s->precision == HOMG_FLOAT32)
            ((float *)s->values)[k] += ((float *)q->values_B)[k];
        else
            ((double *)s->values)[k] += ((double *)q->values_B)[k];
    }
#pragma omp parallel for schedule(static)
    for (int32_t i = 0; i < s->num_rows; i++) {
        if (s->precision == HOMG_FLOAT32)
            ((float *)s->rhs)[i] += ((float *)q->rhs_B)[i];
        else
            ((double *)s->rhs)[i] += ((double *)q->rhs_B)[i];
    }
    return HOMG_OK;
}
