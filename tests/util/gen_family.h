/* gen_family.h -- the hard SPD problems every AMG smoother and coarsening must
 * converge on (issue 14): P1 Dirichlet problems on meshes from homg's mesh
 * generator and reader, assembled here from the definition (not by homg's FEM).
 *
 * Every P1 case is -div(K grad u) = f with u = 0 on the boundary nodes (node
 * marker != 0), the boundary rows and columns removed, so A is SPD; K is a
 * symmetric tensor or a scalar per element.  Each returns 0, or -1 on failure
 * (out of memory, a mesh call failed).  The family's irregular graph is the
 * real power network HB/1138_bus, read from assets/1138_bus.mtx. */
#ifndef HOMG_GEN_FAMILY_H
#define HOMG_GEN_FAMILY_H

#include <stdint.h>

#include "homg.h"

/* P1 stiffness of a mesh (dim 2: triangles, dim 3: tetrahedra) with tensor
 * k_elem per element (3 values xx xy yy, or 6 xx xy xz yy yz zz; NULL: K = I)
 * or scalar sigma_elem (NULL: 1), rows and columns of the nodes with
 * fixed[i] != 0 removed.  Rows of the result follow the free nodes in order. */
int homg_gen_p1_mesh(int dim, int32_t num_nodes, const double *coords, int32_t num_elements, const int32_t *elements,
                     const double *k_elem, const double *sigma_elem, const uint8_t *fixed, homg_host_csr *out);

/* The unit square in cells^2 squares of 2 triangles, K = R(theta) diag(1, eps)
 * R(theta)^T (theta in degrees): anisotropy rotated away from the grid axes.
 * cells = 500: 249,001 unknowns. */
int homg_gen_rotated_anisotropy(int cells, double theta_deg, double eps, homg_host_csr *out);

/* The unit cube in cells^3 Kuhn cubes, sigma = jump on the cubes of a
 * blocks^3 checkerboard whose indices sum to an odd number, 1 elsewhere.
 * ball != 0 maps the cube [-1,1]^3 onto the unit ball first (each node moved
 * along its ray from the centre: a sphere mesh whose elements near the
 * cube's diagonals are flattened). */
int homg_gen_checkerboard(int cells, int blocks, double jump, int ball, homg_host_csr *out);

/* The unit cube with every interior node moved by up to `amount` times the
 * cell size in a random direction (seeded), each move kept only while every
 * tetrahedron around the node keeps at least 2% of its volume: slivers and
 * needles.  The smallest dihedral angle goes to *min_angle_deg when not NULL. */
int homg_gen_slivers(int cells, double amount, unsigned seed, homg_host_csr *out, double *min_angle_deg);

/* The unit cube with the geometric grading x -> (r^x - 1) / (r - 1) in each
 * coordinate: cells next to the origin `ratio` times smaller than the far ones. */
int homg_gen_graded(int cells, double ratio, homg_host_csr *out);

/* A mesh file (homg_mesh_read), sigma = jump on element tag 2, 1 elsewhere. */
int homg_gen_mesh_file(const char *path, double jump, homg_host_csr *out);

#endif
