/* copy_bandwidth.h -- the yardstick every GPU benchmark quotes: a device-to-device
 * copy on the legacy default stream, timed by CUDA events. */
#ifndef HOMG_BENCH_COPY_BANDWIDTH_H
#define HOMG_BENCH_COPY_BANDWIDTH_H

#include <stddef.h>

/* Median ms of 11 copies of `bytes` (after one warm-up); 0 without CUDA or memory. */
double bench_copy_ms(size_t bytes);
/* Bytes read + written per second of a 1 GiB copy, in GB/s; 0 without CUDA. */
double bench_copy_gbs(void);

#endif
