/* amg_cpu.h -- the CPU backend's AMG and Krylov kernels, gathered into tables
 * by amg.c and sparse.c (one file per concern, one table per area). */
#ifndef HOMG_AMG_CPU_H
#define HOMG_AMG_CPU_H

#include "amg_kernels.h"

/* amg_aggregate.c */
homg_status homg_cpu_mis_init(kernel_exec *ex, int32_t n, uint32_t seed, uint64_t *key);
homg_status homg_cpu_mis_max(kernel_exec *ex, const csr_matrix *a, const uint64_t *in, uint64_t *out);
homg_status homg_cpu_mis_update(kernel_exec *ex, int32_t n, uint64_t *key, const uint64_t *kmax, int32_t *undecided);
homg_status homg_cpu_mis_flags(kernel_exec *ex, int32_t n, const uint64_t *key, int32_t *flag);
homg_status homg_cpu_agg_from_roots(kernel_exec *ex, const csr_matrix *a, const int32_t *flag, const int32_t *root_id,
                                    int32_t *agg);
homg_status homg_cpu_agg_grow(kernel_exec *ex, const csr_matrix *a, const int32_t *in, int32_t *out,
                              int32_t *unassigned);
homg_status homg_cpu_agg_sizes(kernel_exec *ex, int32_t n, const int32_t *agg, int32_t nagg, int32_t *size);
homg_status homg_cpu_agg_keep(kernel_exec *ex, int32_t nagg, const int32_t *size, int32_t min_size, int32_t *keep);
homg_status homg_cpu_agg_relabel(kernel_exec *ex, int32_t n, const int32_t *agg, const int32_t *keep,
                                 const int32_t *new_id, int32_t *out);
homg_status homg_cpu_agg_restore(kernel_exec *ex, int32_t n, const int32_t *agg, const int32_t *cur, int32_t *keep);
homg_status homg_cpu_agg_compose(kernel_exec *ex, int32_t n, const int32_t *inner, const int32_t *outer, int32_t *out);

/* amg_matching.c */
homg_status homg_cpu_match_weights(kernel_exec *ex, const csr_matrix *a, const float *diag, const float *v, float *w);
homg_status homg_cpu_suitor_round(kernel_exec *ex, const csr_matrix *a, const float *w, uint64_t *suitor,
                                  int32_t *target, int32_t *cand, int32_t *proposals);
homg_status homg_cpu_match_pairs(kernel_exec *ex, const csr_matrix *a, const float *w, const uint64_t *suitor,
                                 const int32_t *target, int32_t *mate, int32_t *flag);
homg_status homg_cpu_match_agg(kernel_exec *ex, int32_t n, const int32_t *mate, const int32_t *id, int32_t *agg);
homg_status homg_cpu_match_weights_p(kernel_exec *ex, int32_t n, const int32_t *mate, const int32_t *agg,
                                     const float *v, float *pw, float *vc);
homg_status homg_cpu_weight_compose(kernel_exec *ex, int32_t n, const float *pw, const int32_t *agg, const float *pw2,
                                    float *out);

/* amg_prolong.c */
homg_status homg_cpu_prolong_tentative(kernel_exec *ex, int32_t n, const int32_t *agg, const float *w, csr_matrix *p);
homg_status homg_cpu_gershgorin(kernel_exec *ex, const csr_matrix *a, float *out);
homg_status homg_cpu_prolong_smooth(kernel_exec *ex, const csr_matrix *a, const int32_t *agg, double omega,
                                    const float *rho, csr_matrix *ap);

/* amg_smooth.c */
homg_status homg_cpu_diag(kernel_exec *ex, const csr_matrix *a, int kind, float *d);
homg_status homg_cpu_residual(kernel_exec *ex, const csr_matrix *a, const float *b, const float *x, float *r);
homg_status homg_cpu_jacobi_correct(kernel_exec *ex, int32_t n, const float *dinv, double omega, const float *r,
                                    float *x, int zero);
homg_status homg_cpu_jacobi_zero_residual(kernel_exec *ex, const csr_matrix *a, const float *dinv, double omega,
                                          const float *b, float *x, float *r);
homg_status homg_cpu_cheb_step(kernel_exec *ex, int32_t n, const float *dinv, const float *r, float *d, float *x,
                               double c_d, double c_r, int first, int zero_x);
homg_status homg_cpu_patch_boundary(kernel_exec *ex, const amg_patches *pt, const float *x, const float *in,
                                    float *out);
homg_status homg_cpu_patch_smooth(kernel_exec *ex, const amg_patches *pt, const float *b, const float *rhs, float *x,
                                  float *r, int zero, int inner, double w_in, double w_out);

/* amg_patch.c */
homg_status homg_cpu_patch_sort(kernel_exec *ex, void *handle, int32_t n, const int32_t *group, const int32_t *agg,
                                int32_t *perm);
homg_status homg_cpu_patch_heads(kernel_exec *ex, int32_t n, const int32_t *group, const int32_t *perm,
                                 int32_t max_size, int32_t *head);
homg_status homg_cpu_patch_index(kernel_exec *ex, int32_t n, const int32_t *perm, const int32_t *head,
                                 const int32_t *id, int32_t count, int32_t *start, int32_t *patch_of, int32_t *pos);
homg_status homg_cpu_patch_count(kernel_exec *ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos,
                                 int32_t *inner_cnt, int32_t *boundary_cnt);
homg_status homg_cpu_patch_fill(kernel_exec *ex, const csr_matrix *a, const int32_t *patch_of, const int32_t *pos,
                                int l1, amg_patches *pt);

/* amg_coarse.c */
homg_status homg_cpu_dense_inverse(kernel_exec *ex, void *handle, const csr_matrix *a, float *inv, int *pivot);
homg_status homg_cpu_dense_apply(kernel_exec *ex, int32_t n, const float *inv, const float *b, float *x);

/* krylov.c */
homg_status homg_cpu_cg_start(kernel_exec *ex, void *handle, const csr_matrix *a, const double *b, double *x, double *r,
                              int warm, homg_cg_state *state, double *history);
homg_status homg_cpu_cg_diag_precond(kernel_exec *ex, const double *dinv, const double *r, double *z, int32_t n);
homg_status homg_cpu_cg_direction(kernel_exec *ex, void *handle, const double *r, const double *z, const double *q,
                                  double *p, int32_t n, homg_cg_state *state);
homg_status homg_cpu_cg_spmv_dot(kernel_exec *ex, void *handle, const csr_matrix *a, const double *p, double *q,
                                 homg_cg_state *state);
homg_status homg_cpu_cg_update(kernel_exec *ex, void *handle, double *x, double *r, const double *p, const double *q,
                               int32_t n, homg_cg_state *state, double *history);

#endif
