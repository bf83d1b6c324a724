/* cubeblock.h -- cube block tables (kernels/grid/cube_coarse.h) for the tests: a
 * chain of uniform levels halving down to the coarsest, host arrays, the coarsest's
 * matrix from the CPU gen kernel. */
#ifndef HOMG_CUBEBLOCK_H
#define HOMG_CUBEBLOCK_H

#include "grid/cube_coarse.h"
#include "grid/cube_exact.h"
#include "grid/cube_cluster.h"
#include "grid/cube_sep.h"
#include "testutil.h"

/* B: `levels` levels from nx x ny x nz with cube case t's sides and constants
 * (cubecase.h), the cube levels' weight omega and sweeps pre / post, the way up from
 * colour `first`; b[0] random, every other array random too (garbage the cycle
 * overwrites).  Returns 0 when the chain is not a cube block's. */
int cube_block_case(kernel_exec *ex, int t, int nx, int ny, int nz, int levels, float omega, int first, int pre,
                    int post, uint64_t seed, cube_block *B);
/* Level q of cube case t (0: the case's level, 1: its coarse level; cubecase.h) as a cube level K
 * of at most CUBE_EXACT_N cells a side and its exact solve E (cube_exact.h): 1; 0 where it is no
 * such level; -1 where cube_exact_of refuses it. */
int cube_case_exact(int t, int q, cube_level *K, cube_exact *E);
/* Case t (0 .. cube_sep_count() - 1) of cube_sep.h's exact solve: a level K of 4..CUBE_SEP_N cells
 * a side (64^3, 64 x 32 x 48, 32^3, 16 x 64 x 8, 4 x 8 x 12; Dirichlet, Neumann + lambda, mixed)
 * and its tables t (CUBE_SEP_FLOATS, host): cube_sep_tables's answer. */
int cube_sep_count(void);
int cube_sep_case(int t, cube_level *K, float *tables);
/* The same for cube_cluster.h's one-launch solve: levels of 8..32 cells a side (32^3, 16 x 32 x 16,
 * 32 x 16 x 32, 12 x 16 x 32, 8^3, 20 x 24 x 8; the same three boundary sets), tables
 * (CUBE_CLUSTER_FLOATS) and C (C->t unset): cube_cluster_tables's answer. */
int cube_clu_count(void);
int cube_clu_case(int t, cube_level *K, float *tables, cube_clu *C);
/* The tests' tables: sides, sizes (2 to 4 levels, 16^3 and a 32 x 32 x 16 top), omega 1
 * and 1.1, either first colour, pre / post 1 to 3 (index 0 .. cube_block_count() - 1). */
int cube_block_count(void);
int cube_block_nth(kernel_exec *ex, int i, uint64_t seed, cube_block *B);
size_t cube_block_cells(const cube_block *B, int q);
/* B's steps one kernel at a time, as lib/grid/general.c's visit() runs them: cube_pre, the
 * half-sweeps from 2, the restriction; the coarsest's coarse_apply; prolong_smooth, the
 * half-sweeps from 1 (the first Gauss-Seidel).  Q, G: the cube and gen tables of ex's backend. */
homg_status cube_block_steps(kernel_exec *ex, const cube_kernels *Q, const gen_kernels *G, const cube_block *B);
void cube_block_case_free(cube_block *B);

#endif
