/* gen_matrix.h -- test and benchmark matrices made in code: finite-difference
 * Poisson (5- and 7-point) and the P1 finite-element matrix of seed 000's
 * "Regular" cube.  A stand-in until the FEM module (issue 3) assembles meshes. */
#ifndef HOMG_GEN_MATRIX_H
#define HOMG_GEN_MATRIX_H

#include "homg.h"

/* -Laplace on an n x n grid of interior points, Dirichlet boundary, h = 1 (5-point). */
int homg_gen_poisson2d(int n, homg_host_csr *out);
/* The same on n x n x n (7-point). */
int homg_gen_poisson3d(int n, homg_host_csr *out);

/* P1 elements on [0,4]^3 cut into k^3 cubes of 6 tetrahedra each (Kuhn: every
 * tetrahedron holds the cube's (0,0,0)-(1,1,1) diagonal), (k+1)^3 nodes, node
 * (i,j,l) at index i + (k+1) (j + (k+1) l).  A = S + lambda M with S_ij =
 * (sigma grad phi_i, grad phi_j), M_ij = (phi_i, phi_j), natural boundary
 * conditions.  sigma = sigma_in on the tetrahedra inside the block [1,3]^3,
 * sigma_out elsewhere (sigma_in = sigma_out: one material).  k = 64: 274,625
 * nodes, seed 000's Regular mesh.  Returns 0, or -1 when out of memory. */
int homg_gen_p1_cube(int k, double sigma_out, double sigma_in, double lambda, homg_host_csr *out);

/* Gradients g[a] of the barycentric functions of the simplex x[0..dim] (dim 2:
 * a triangle, third coordinates unused; 3: a tetrahedron); returns its area or
 * volume. */
double homg_gen_simplex_grads(int dim, const double x[4][3], double g[4][3]);

/* Free with homg_host_csr_free; view with homg_host_csr_view. */

#endif
