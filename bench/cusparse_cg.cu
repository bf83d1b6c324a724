/* cusparse_cg.cu -- CG and Jacobi-PCG with cusparseSpMV and cuBLAS: the
 * baselines bench_amg runs on the same matrices in the same process. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusparse_cg.h"

#define CHECK(ok, what)                               \
    do {                                              \
        if (!(ok)) {                                  \
            snprintf(why, whylen, "%s failed", what); \
            goto done;                                \
        }                                             \
    } while (0)

__global__ static void jacobi_kernel(const double *dinv, const double *r, double *z, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        z[i] = dinv[i] * r[i];
}

/* p = z + beta p */
__global__ static void xpby_kernel(const double *z, double beta, double *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = z[i] + beta * p[i];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

extern "C" int homg_cusparse_cg(const homg_host_csr *a, const double *b, double tol, int max_iter, int jacobi, int reps,
                                double *x, homg_cusparse_cg_result *out, char *why, size_t whylen)
{
    int n = a->nrows, rc = -1, blocks = (n + 255) / 256 > 4096 ? 4096 : (n + 255) / 256;
    int *drp = NULL, *dci = NULL;
    double *dval = NULL, *db = NULL, *dx = NULL, *dr = NULL, *dz = NULL, *dp = NULL, *dq = NULL, *ddinv = NULL;
    double *dinv = NULL, *times = NULL;
    void *buf = NULL;
    size_t bytes = 0;
    cusparseHandle_t sp = NULL;
    cublasHandle_t bl = NULL;
    cusparseSpMatDescr_t ma = NULL;
    cusparseDnVecDescr_t vp = NULL, vq = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    const double one = 1.0, zero = 0.0;
    memset(out, 0, sizeof *out);
    if (reps < 1)
        reps = 1;
    times = (double *)malloc(sizeof(double) * reps);
    dinv = (double *)malloc(sizeof(double) * n);
    CHECK(times && dinv, "host allocation");
    for (int i = 0; i < n; i++) {
        dinv[i] = 0;
        for (int k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
            if (a->col_idx[k] == i && a->values[k] != 0)
                dinv[i] = 1.0 / a->values[k];
    }
    CHECK(cudaMalloc(&drp, sizeof(int) * (n + 1)) == cudaSuccess &&
              cudaMalloc(&dci, sizeof(int) * a->nnz) == cudaSuccess &&
              cudaMalloc(&dval, sizeof(double) * a->nnz) == cudaSuccess,
          "cudaMalloc");
    CHECK(cudaMalloc(&db, 8 * n) == cudaSuccess && cudaMalloc(&dx, 8 * n) == cudaSuccess &&
              cudaMalloc(&dr, 8 * n) == cudaSuccess && cudaMalloc(&dz, 8 * n) == cudaSuccess &&
              cudaMalloc(&dp, 8 * n) == cudaSuccess && cudaMalloc(&dq, 8 * n) == cudaSuccess &&
              cudaMalloc(&ddinv, 8 * n) == cudaSuccess,
          "cudaMalloc");
    CHECK(cudaMemcpy(drp, a->row_ptr, sizeof(int) * (n + 1), cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(dci, a->col_idx, sizeof(int) * a->nnz, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(dval, a->values, sizeof(double) * a->nnz, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(db, b, 8 * n, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(ddinv, dinv, 8 * n, cudaMemcpyHostToDevice) == cudaSuccess,
          "upload");
    CHECK(cusparseCreate(&sp) == CUSPARSE_STATUS_SUCCESS && cublasCreate(&bl) == CUBLAS_STATUS_SUCCESS, "handles");
    CHECK(cusparseCreateCsr(&ma, n, n, a->nnz, drp, dci, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS &&
              cusparseCreateDnVec(&vp, n, dp, CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS &&
              cusparseCreateDnVec(&vq, n, dq, CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS,
          "descriptors");
    CHECK(cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, ma, vp, &zero, vq, CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, &bytes) == CUSPARSE_STATUS_SUCCESS,
          "SpMV buffer");
    CHECK(cudaMalloc(&buf, bytes ? bytes : 8) == cudaSuccess, "cudaMalloc");
    CHECK(cudaEventCreate(&e0) == cudaSuccess && cudaEventCreate(&e1) == cudaSuccess, "events");
    for (int rep = 0; rep <= reps; rep++) { /* rep 0 warms up */
        double bnorm = 0, rz = 0, rz_old, pq, alpha, beta, rnorm = 0;
        float ms = 0;
        int it = 0;
        cudaEventRecord(e0, 0);
        cudaMemset(dx, 0, 8 * n);
        cudaMemcpy(dr, db, 8 * n, cudaMemcpyDeviceToDevice);
        cublasDnrm2(bl, n, db, 1, &bnorm);
        rnorm = bnorm;
        if (jacobi)
            jacobi_kernel<<<blocks, 256>>>(ddinv, dr, dz, n);
        else
            cudaMemcpy(dz, dr, 8 * n, cudaMemcpyDeviceToDevice);
        cudaMemcpy(dp, dz, 8 * n, cudaMemcpyDeviceToDevice);
        cublasDdot(bl, n, dr, 1, dz, 1, &rz);
        while (it < max_iter && rnorm > tol * bnorm) {
            cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, ma, vp, &zero, vq, CUDA_R_64F,
                         CUSPARSE_SPMV_ALG_DEFAULT, buf);
            cublasDdot(bl, n, dp, 1, dq, 1, &pq);
            alpha = rz / pq;
            cublasDaxpy(bl, n, &alpha, dp, 1, dx, 1);
            alpha = -alpha;
            cublasDaxpy(bl, n, &alpha, dq, 1, dr, 1);
            cublasDnrm2(bl, n, dr, 1, &rnorm);
            it++;
            if (rnorm <= tol * bnorm)
                break;
            if (jacobi)
                jacobi_kernel<<<blocks, 256>>>(ddinv, dr, dz, n);
            rz_old = rz;
            cublasDdot(bl, n, dr, 1, jacobi ? dz : dr, 1, &rz);
            beta = rz / rz_old;
            xpby_kernel<<<blocks, 256>>>(jacobi ? dz : dr, beta, dp, n);
        }
        cudaEventRecord(e1, 0);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms, e0, e1);
        if (rep > 0)
            times[rep - 1] = ms;
        out->iterations = it;
        out->rel_residual = bnorm > 0 ? rnorm / bnorm : rnorm;
    }
    CHECK(cudaGetLastError() == cudaSuccess, "the CG kernels");
    qsort(times, (size_t)reps, sizeof *times, cmp_double);
    out->solve_ms = times[reps / 2];
    CHECK(cudaMemcpy(x, dx, 8 * n, cudaMemcpyDeviceToHost) == cudaSuccess, "download");
    rc = 0;
done:
    if (ma)
        cusparseDestroySpMat(ma);
    if (vp)
        cusparseDestroyDnVec(vp);
    if (vq)
        cusparseDestroyDnVec(vq);
    if (sp)
        cusparseDestroy(sp);
    if (bl)
        cublasDestroy(bl);
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(drp);
    cudaFree(dci);
    cudaFree(dval);
    cudaFree(db);
    cudaFree(dx);
    cudaFree(dr);
    cudaFree(dz);
    cudaFree(dp);
    cudaFree(dq);
    cudaFree(ddinv);
    cudaFree(buf);
    free(times);
    free(dinv);
    return rc;
}
