/* cubecase.h -- uniform 3D levels for the cube kernels' tests (kernels/grid/cube*):
 * a gen_level with constants only (no arrays) and random float arrays. */
#ifndef HOMG_CUBECASE_H
#define HOMG_CUBECASE_H

#include "grid/gen_kernels.h"
#include "testutil.h"

#include <stddef.h>

/* The cases: sizes and side kinds (index 0 .. cube_case_count() - 1). */
int cube_case_count(void);
/* Case t as a uniform gen level L (walls Dirichlet or Neumann per the case, lambda
 * 0 or not) and its coarse level C (gen_uniform_coarse). */
void cube_case_level(int t, gen_level *L, gen_level *C);
/* n floats uniform in [-1, 1). */
/* cube_case_level's level of n[0] x n[1] x n[2] cells with side kind `sides` (0 Dirichlet, 1
 * Neumann + lambda, 2 mixed; the cases' constants) and its coarse level. */
void cube_case_sized(const int n[3], int sides, gen_level *L, gen_level *C);
float *cube_case_random(size_t n, homg_rng *rng);

#endif
