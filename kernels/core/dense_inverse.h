/* dense_inverse.h -- the CUDA dense inverse both coarsest-level solvers use
 * (AMG: kernels/amg/coarse.cu, float matrix and inverse; GMG:
 * kernels/gmg/coarse.cu, double): the CSR matrix scattered into a dense
 * column-major array, cuSOLVER's double Cholesky (potrf), potrs on the
 * identity.  Its CPU twins share core/dense_cholesky.h. */
#ifndef HOMG_DENSE_INVERSE_H
#define HOMG_DENSE_INVERSE_H

#include "sparse/sparse_kernels.h" /* csr_matrix */

#if HOMG_HAVE_CUDA && defined(__CUDACC__)
/* A^-1 of the n x n matrix a (float or double values) into inv_d (n*n
 * doubles) or, when inv_d is NULL, inv_f (n*n floats), column-major.  *pivot:
 * 0, or the order of the first leading minor potrf finds not positive
 * definite, or (rel > 0, potrf passed) the first j + 1 with L_jj^2 <= rel
 * |a_jj|.  handle: the sparse kernels' handle (its cuSOLVER handle and
 * allocator).  The inverse's contents are undefined where *pivot != 0 (potrs runs
 * before the pivot is read).  One read and one stream synchronisation: the
 * work buffers are freed after it. */
homg_status homg_cuda_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, double rel, double *inv_d,
                                    float *inv_f, int *pivot);
#endif

#endif
