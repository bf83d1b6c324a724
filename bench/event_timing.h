/* event_timing.h -- the timing loop the GPU benchmarks share: CUDA events on the
 * legacy default stream around each repetition, untimed warm-up repetitions first,
 * the median of the timed ones. */
#ifndef HOMG_BENCH_EVENT_TIMING_H
#define HOMG_BENCH_EVENT_TIMING_H

/* Repetition r of a timed loop: r runs from -warmup (warm-up, negative) to reps - 1. */
typedef void (*bench_rep_fn)(void *arg, int r);

/* Median ms over `reps` repetitions of `body` after `warmup` untimed ones; `before`
 * (may be NULL) is queued ahead of the start event each time, outside the timed
 * window.  0 without CUDA or memory. */
double bench_event_median_ms(int warmup, int reps, bench_rep_fn before, bench_rep_fn body, void *arg);

#endif
