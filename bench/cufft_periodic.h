/* cufft_periodic.h -- the periodic cuFFT Poisson solve (R2C, scale by the symbol of
 * the 7-point operator, C2R; float32, 3D) that bench_fft quotes for scale: the least
 * an FFT solve of an n^3 box can cost on this GPU.  Not part of the library. */
#ifndef HOMG_BENCH_CUFFT_PERIODIC_H
#define HOMG_BENCH_CUFFT_PERIODIC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cufft_periodic cufft_periodic;

/* n^3 cells of width h, on the legacy default stream; 0 on success. */
int cufft_periodic_create(int n, double h, cufft_periodic **out);
/* u = A^-1 f (mean-free part; f, u: n^3 device floats); 3 launches or more. */
int cufft_periodic_solve(cufft_periodic *p, const float *f, float *u);
void cufft_periodic_destroy(cufft_periodic *p);

#ifdef __cplusplus
}
#endif
#endif
