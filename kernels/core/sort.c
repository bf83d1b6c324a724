/* sort.c -- host LSD radix sort of 64-bit keys, shared by the mesh code and the
 * CPU backend's pattern build (the twin of CUB's device radix sort). */
#include "sort.h"

#include <string.h>

void homg_cpu_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n, int bits)
{
    uint64_t *src = keys, *dst = tmp;
    size_t count[256];
    if (bits > 64)
        bits = 64;
    for (int shift = 0; shift < bits; shift += 8) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(src[i] >> shift) & 255]++;
        for (size_t b = 0, sum = 0; b < 256; b++) {
            size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 255]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

size_t homg_cpu_sort_unique_u64(uint64_t *keys, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || keys[i] != keys[m - 1])
            keys[m++] = keys[i];
    return m;
}

int homg_cpu_sort_bits_for(uint64_t max_value)
{
    int b = 0;
    while (b < 64 && (max_value >> b))
        b++;
    return b;
}
