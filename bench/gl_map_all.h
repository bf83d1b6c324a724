/* gl_map_all.h -- bench_view's one-call map of several registered GL objects
 * (cudaGraphicsMapResources with a count), to measure whether one map per
 * frame for all objects costs less than a pair each.  Not part of the library. */
#ifndef HOMG_BENCH_GL_MAP_ALL_H
#define HOMG_BENCH_GL_MAP_ALL_H

#ifdef __cplusplus
extern "C" {
#endif

/* map = 1: cudaGraphicsMapResources(n, res, stream), else the unmap; 0 on success. */
int bench_gl_map_all(void **res, int n, int map, void *stream);

#ifdef __cplusplus
}
#endif
#endif
