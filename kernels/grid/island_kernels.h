/* island_kernels.h -- the singular islands of the general structured grid,
 * labelled on the device (lib/grid/islands.c).
 *
 * An island is a connected set of active cells (faces between active cells,
 * wrapped on periodic axes).  It is singular when lambda = 0 on all its cells,
 * none of them touches a Dirichlet side and none has a FIXED neighbour: then
 * the operator is singular there and the solver projects per island.
 *
 * Method: each active cell starts pointing at the first cell of its run of
 * active cells along x within its aligned group of ISLAND_RUN cells (a warp's
 * ballot on the GPU: the chains the hooking walks get ~32x shorter); hooking
 * rounds point the larger of two neighbouring roots at the smaller (atomic min),
 * and compression points every cell at its root, until a round hooks nothing.
 * Rounds are queued in batches without a host wait: a round whose predecessor
 * hooked nothing returns at once (its `go` word is 0).
 * Pointers only ever go to smaller indices, so the final label of a cell is the
 * smallest index of its island on both backends, whatever the order.  Roots then
 * collect counts and a "not singular" bit (mark), the singular roots are
 * numbered by a prefix sum in index order (count, number) and every cell gets
 * its island's number or -1 (relabel). */
#ifndef HOMG_ISLAND_KERNELS_H
#define HOMG_ISLAND_KERNELS_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct island_grid {
    int nx, ny, nz, dims;
    int periodic[3];  /* axis wraps (and has >= 2 cells) */
    int dirichlet[6]; /* side W,E,S,N,B,T is Dirichlet */
} island_grid;

/* Per-root word of `aux`: the count in the low bits, this bit when not singular. */
#define ISLAND_NONSINGULAR (1 << 30)
#define ISLAND_COUNT_MASK  (ISLAND_NONSINGULAR - 1)
/* Cells per block of the numbering's prefix sum (count / number). */
#define ISLAND_SCAN_BLOCK 1024
/* Cells per aligned group of the initial run links (a warp). */
#define ISLAND_RUN 32
/* Hooking rounds queued per host wait (lib/grid/islands.c). */
#define ISLAND_BATCH 4

#define ISLAND_KERNELS(X)                                                                                             \
    /* label[c] = the first cell of c's run at active cells (island_point.h), -1 elsewhere; aux[c] = 0. */            \
    X(homg_status, island, init,                                                                                      \
      (kernel_exec * ex, const island_grid *g, const unsigned char *flags, int *label, int *aux))                     \
    /* One hooking round over the +x/+y/+z faces; *changed = 1 when a root moved; nothing when go && !*go. */         \
    X(homg_status, island, hook,                                                                                      \
      (kernel_exec * ex, const island_grid *g, const unsigned char *flags, int *label, const int *go, int *changed))  \
    /* label[c] = the root of c (for c with label >= 0); nothing when go && !*go. */                                  \
    X(homg_status, island, compress, (kernel_exec * ex, size_t n, int *label, const int *go))                         \
    /* aux[root] += 1 per cell, | NONSINGULAR when a cell has lambda != 0 (lambda_cell of precision p, or */          \
    /* the constant when lambda_cell is NULL), touches a Dirichlet side or has a FIXED neighbour. */                  \
    X(homg_status, island, mark,                                                                                      \
      (kernel_exec * ex, homg_precision p, const island_grid *g, const unsigned char *flags, const void *lambda_cell, \
       double lambda, const int *label, int *aux))                                                                    \
    /* bsum[b] = exclusive prefix of the singular roots before block b (ISLAND_SCAN_BLOCK cells); */                  \
    /* *total = their number. */                                                                                      \
    X(homg_status, island, count,                                                                                     \
      (kernel_exec * ex, size_t n, const int *label, const int *aux, int *bsum, int *total))                          \
    /* ids[r] = number of singular root r (index order), inv[ids[r]] = 1 / its count. */                              \
    X(homg_status, island, number,                                                                                    \
      (kernel_exec * ex, size_t n, const int *label, const int *aux, const int *bsum, int *ids, double *inv))         \
    /* label[c] = ids[root] when c's island is singular, else -1. */                                                  \
    X(homg_status, island, relabel, (kernel_exec * ex, size_t n, const int *aux, const int *ids, int *label))

typedef struct island_kernels {
    const char *name;
    ISLAND_KERNELS(HOMG_KERNEL_MEMBER)
} island_kernels;
ISLAND_KERNELS(HOMG_KERNEL_CPU_PROTO)
extern const island_kernels homg_cpu_island_kernels;
#if HOMG_HAVE_CUDA
ISLAND_KERNELS(HOMG_KERNEL_CUDA_PROTO)
extern const island_kernels homg_cuda_island_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
