/* fem_kernels.h -- the FEM assembly table (pattern, numeric passes, Dirichlet)
 * and the host helpers the mesh code shares with the CPU backend. */
#ifndef HOMG_FEM_KERNELS_H
#define HOMG_FEM_KERNELS_H

#include "kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host LSD radix sort of the low `bits` bits of 64-bit keys (tmp: n keys). */
void homg_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n, int bits);
/* Removes adjacent duplicates of sorted keys; returns the new count. */
size_t homg_unique_u64(uint64_t *keys, size_t n);
/* Bits needed to hold max_value. */
int homg_bits_for(uint64_t max_value);

#ifdef __cplusplus
}
#endif
#endif
