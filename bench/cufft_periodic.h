/* cufft_periodic.h -- the periodic cuFFT Poisson solve (R2C, scale by the symbol of
 * the 5/7-point operator, C2R; float32) that bench_fft quotes for scale: the least
 * an FFT solve of the box can cost on this GPU.  Not part of the library. */
#ifndef HOMG_BENCH_CUFFT_PERIODIC_H
#define HOMG_BENCH_CUFFT_PERIODIC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cufft_periodic cufft_periodic;

/* nx x ny (nz = 1: 2D) or nx x ny x nz cells of width h, on the legacy default
 * stream; 0 on success. */
int cufft_periodic_create(int nx, int ny, int nz, double h, cufft_periodic **out);
/* u = A^-1 f (mean-free part; f, u: device floats); 3 launches or more. */
int cufft_periodic_solve(cufft_periodic *p, const float *f, float *u);
void cufft_periodic_destroy(cufft_periodic *p);

#ifdef __cplusplus
}
#endif
#endif
