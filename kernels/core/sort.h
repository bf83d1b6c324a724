/* sort.h -- host sorting of 64-bit keys, shared by the mesh code and the CPU
 * backend's pattern build (the twin of CUB's device radix sort). */
#ifndef HOMG_SORT_H
#define HOMG_SORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host LSD radix sort of the low `bits` bits of 64-bit keys (tmp: n keys). */
void homg_cpu_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n, int bits);
/* Removes adjacent duplicates of sorted keys; returns the new count. */
size_t homg_cpu_sort_unique_u64(uint64_t *keys, size_t n);
/* Bits needed to hold max_value. */
int homg_cpu_sort_bits_for(uint64_t max_value);

#ifdef __cplusplus
}
#endif
#endif
