/* msh_binary.h -- writes a homg_mesh as a binary Gmsh .msh 2.2 or 4.1 file in
 * either byte order, independently of homg's writer (which writes ASCII 2.2):
 * the reader's tests compare what it reads back, big-endian files included,
 * which gmsh itself only writes on big-endian machines. */
#ifndef HOMG_MSH_BINARY_H
#define HOMG_MSH_BINARY_H

#include "homg.h"

/* version 22 or 41; swap non-zero writes the other byte order than this
 * machine's.  Node tags are 1..n, element tags 1..; the physical tag of every
 * element and facet is its homg tag (4.1: one entity per run of equal tags).
 * Returns 0, or -1 when the file cannot be written. */
int homg_test_write_msh_binary(const homg_mesh *mesh, const char *path, int version, int swap);

#endif
