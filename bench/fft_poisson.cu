/* fft_poisson.cu -- the cuFFT sine-transform direct solve, the baseline of the
 * structured benchmark (bench/, not the library: it calls cuFFT directly).
 *
 * The algorithm.  The operator's eigenvectors are sin(pi k (i+1/2)/n), k = 1..n,
 * per direction, so u = S (Lambda^-1 (S^-1 f)) with S^-1 a 2D DST-II (up to a
 * diagonal, which commutes with Lambda) and S its inverse.  Each DST-II of length
 * n is one real DFT of length n (Makhoul 1980):
 *   - (-1)^i x_i turns the sine transform into a cosine transform with reversed
 *     index: S_k = C_{n-k}, and the eigenvalue of cosine mode q = n-k is
 *     (4/h^2) sin^2(pi (n-q)/(2n));
 *   - the permutation v_{i/2} = y_i (i even), v_{n-1-(i-1)/2} = y_i (i odd) turns
 *     the cosine transform into C_q = Re(exp(-i pi q/(2n)) V_q), V = DFT(v).
 * In 2D both directions are done by one 2D real FFT of the permuted array, and the
 * post-twiddle combines V(m1, m2) with V(m1, -m2) (and, by Hermitian symmetry, the
 * mirrored column nx-m1): one thread owning the pair {V(m1,m2), V(m1,ny-m2)} gets
 * the four cosine coefficients of modes (m1 | nx-m1, m2 | ny-m2), divides them by
 * their eigenvalues, and turns them back into the same two spectrum values with
 * the inverse pre-twiddle -- in place, with no transposes.  A solve is:
 *   1. reorder_in   f -> v         sign and permutation in both directions
 *   2. cuFFT R2C    v -> V         2D, (nx/2+1) x ny half spectrum
 *   3. spectral     V -> V         post-twiddle, divide, inverse pre-twiddle
 *   4. cuFFT C2R    V -> v         2D, unnormalised (the scale is in the tables)
 *   5. reorder_out  v -> u
 * fft_poisson_ref.c is the same sequence in plain C, step for step.
 *
 * Why this variant.  Memory traffic is the cost.  The odd extension doubles the
 * FFT length per direction (4x the data in 2D) and needs a kernel to build it;
 * batched 1D transforms with tiled transposes in between add two passes over the
 * data for the transposes and one more elementwise kernel per direction.  One 2D
 * real FFT of length nx x ny each way moves the least data: the whole solve is 3
 * elementwise kernels (each reads and writes its array once) and 2 cuFFT 2D
 * executions, which cuFFT does in its own row and column passes (strided column
 * passes without an explicit transpose).  The twiddles and eigenvalues come from
 * small tables computed once in double (fft_ref_tables), rounded to the data type:
 * twiddles computed from a float pi are not exact roots of unity, and in the twin
 * run in float that phase error gave 5e-5 at 2048^2 and 1e-4 at 4096^2 instead of
 * 4e-6 and 2e-5.  Division by the eigenvalues costs one divide per value; the
 * kernels are memory bound.
 */
#include "fft_poisson.h"
#include "fft_poisson_ref.h"

#include <cuda_runtime.h>
#include <cufft.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ kernels */

template <typename T> struct cpx_of;
template <> struct cpx_of<float> {
    typedef float2 type;
};
template <> struct cpx_of<double> {
    typedef double2 type;
};

__device__ __forceinline__ float2 cmake(float x, float y) { return make_float2(x, y); }
__device__ __forceinline__ double2 cmake(double x, double y) { return make_double2(x, y); }
template <typename C> __device__ __forceinline__ C cmul(C a, C b)
{
    return cmake(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
template <typename C> __device__ __forceinline__ C cconj(C a) { return cmake(a.x, -a.y); }
template <typename C> __device__ __forceinline__ C cadd(C a, C b) { return cmake(a.x + b.x, a.y + b.y); }
template <typename C> __device__ __forceinline__ C csub(C a, C b) { return cmake(a.x - b.x, a.y - b.y); }

/* Makhoul's permutation: even i to i/2 (ascending), odd i to n-1-i/2 (descending). */
__device__ __forceinline__ int perm(int i, int n) { return (i & 1) ? n - 1 - (i >> 1) : i >> 1; }

/* v(perm(i), perm(j)) = (-1)^(i+j) f(i,j).  One thread per pair (2n, 2n+1) of row j:
 * the reads are contiguous, the two writes are contiguous runs (one ascending, one
 * descending). */
template <typename T>
__global__ void __launch_bounds__(256) reorder_in(const T *__restrict__ f, T *__restrict__ v, int nx, int ny)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (n >= nx / 2 || j >= ny)
        return;
    T s = (j & 1) ? T(-1) : T(1);
    const T *src = f + (size_t)nx * j;
    T *dst = v + (size_t)nx * perm(j, ny);
    dst[n] = s * src[2 * n];
    dst[nx - 1 - n] = -s * src[2 * n + 1];
}

/* The inverse: u(i,j) = (-1)^(i+j) v(perm(i), perm(j)). */
template <typename T>
__global__ void __launch_bounds__(256) reorder_out(const T *__restrict__ v, T *__restrict__ u, int nx, int ny)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (n >= nx / 2 || j >= ny)
        return;
    T s = (j & 1) ? T(-1) : T(1);
    const T *src = v + (size_t)nx * perm(j, ny);
    T *dst = u + (size_t)nx * j;
    T a = src[n], b = src[nx - 1 - n];
    dst[2 * n] = s * a;
    dst[2 * n + 1] = -s * b;
}

/* 2D post-twiddle: from A = V(m1, m2), B = V(m1, -m2 mod ny) to t = 2 C at the cosine
 * modes (m1, m2), (nx-m1, m2), (m1, ny-m2), (nx-m1, ny-m2).  w1 = twx[m1], w2 = twy[m2]. */
template <typename T, typename C> __device__ __forceinline__ void spec_to_dct(C A, C B, C w1, C w2, T t[4])
{
    C a = cmul(w2, A), b = cmul(cconj(w2), B);
    C z1 = cmul(w1, cadd(a, b)), z2 = cmul(w1, csub(a, b));
    t[0] = z1.x;
    t[1] = -z1.y;
    t[2] = -z2.y;
    t[3] = -z2.x;
}

/* Its exact inverse: cosine coefficients d (order as t) back to A and B. */
template <typename T, typename C> __device__ __forceinline__ void dct_to_spec(const T d[4], C w1, C w2, C *A, C *B)
{
    C p = cmake(d[0] - d[3], -(d[1] + d[2])), q = cmake(d[0] + d[3], d[2] - d[1]);
    *A = cmul(cmul(cconj(w1), cconj(w2)), p);
    *B = cmul(cmul(cconj(w1), w2), q);
}

/* Post-twiddle, division by the eigenvalues, inverse pre-twiddle, in place.  One
 * thread per (m1, m2) in [0, nx/2] x [0, ny/2] owns rows m2 and ny-m2 of column m1
 * (rows 0 and ny/2 pair with themselves).  Cosine mode nx (or ny) does not exist: its
 * coefficient is 0 and its table entry is never divided by.  ex, ey, lam carry the
 * factor 2 nx ny (fft_ref_tables). */
template <typename T>
__global__ void __launch_bounds__(256)
    spectral(typename cpx_of<T>::type *__restrict__ V, int nx, int ny, const typename cpx_of<T>::type *__restrict__ twx,
             const typename cpx_of<T>::type *__restrict__ twy, const T *__restrict__ ex, const T *__restrict__ ey,
             T lam)
{
    typedef typename cpx_of<T>::type C;
    int m1 = blockIdx.x * blockDim.x + threadIdx.x;
    int m2 = blockIdx.y * blockDim.y + threadIdx.y;
    int hx = nx / 2, hy = ny / 2;
    if (m1 > hx || m2 > hy)
        return;
    size_t ld = (size_t)hx + 1;
    int r2 = m2 ? ny - m2 : 0;
    T t[4], d[4];
    C A, B, w1 = twx[m1], w2 = twy[m2];
    spec_to_dct(V[m1 + ld * m2], V[m1 + ld * r2], w1, w2, t);
    d[0] = t[0] / (ex[m1] + ey[m2] + lam);
    d[1] = m1 ? t[1] / (ex[nx - m1] + ey[m2] + lam) : T(0);
    d[2] = m2 ? t[2] / (ex[m1] + ey[ny - m2] + lam) : T(0);
    d[3] = m1 && m2 ? t[3] / (ex[nx - m1] + ey[ny - m2] + lam) : T(0);
    dct_to_spec(d, w1, w2, &A, &B);
    V[m1 + ld * m2] = A;
    if (r2 != m2)
        V[m1 + ld * r2] = B;
}

/* -------------------------------------------------------------------- host */

struct fft_poisson {
    int nx, ny, use_double, quiet;
    cudaStream_t stream;
    cufftHandle fwd, inv;
    int have_fwd, have_inv;
    void *v;      /* real work array, nx*ny */
    void *V;      /* half spectrum, (nx/2+1)*ny complex */
    void *tables; /* twx, twy, ex, ey */
    void *work;   /* cuFFT work area, shared: the plans run one after the other */
    const void *twx, *twy, *ex, *ey;
    double lam;
    dim3 pair_grid, pair_block, spec_grid, spec_block;
    fft_poisson_cost cost;
};

static const char *cufft_name(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult (other)";
    }
}

static int cuda_check(const fft_poisson *p, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return FFT_POISSON_OK;
    if (!p || !p->quiet)
        fprintf(stderr, "fft_poisson: %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return FFT_POISSON_ECUDA;
}

static int cufft_check(const fft_poisson *p, cufftResult r, const char *what)
{
    if (r == CUFFT_SUCCESS)
        return FFT_POISSON_OK;
    if (!p || !p->quiet)
        fprintf(stderr, "fft_poisson: %s: %s (%d)\n", what, cufft_name(r), (int)r);
    return FFT_POISSON_ECUFFT;
}

#define TRY(expr)         \
    do {                  \
        int rc_ = (expr); \
        if (rc_)          \
            return rc_;   \
    } while (0)

static cufftResult exec_r2c(cufftHandle h, float *in, float2 *out) { return cufftExecR2C(h, in, out); }
static cufftResult exec_r2c(cufftHandle h, double *in, double2 *out) { return cufftExecD2Z(h, in, out); }
static cufftResult exec_c2r(cufftHandle h, float2 *in, float *out) { return cufftExecC2R(h, in, out); }
static cufftResult exec_c2r(cufftHandle h, double2 *in, double *out) { return cufftExecZ2D(h, in, out); }

/* The five steps, queued on p->stream. */
template <typename T> static int launch_all(fft_poisson *p, const T *f, T *u)
{
    typedef typename cpx_of<T>::type C;
    T *v = (T *)p->v;
    C *V = (C *)p->V;
    reorder_in<T><<<p->pair_grid, p->pair_block, 0, p->stream>>>(f, v, p->nx, p->ny);
    TRY(cuda_check(p, cudaGetLastError(), "reorder_in launch"));
    TRY(cufft_check(p, exec_r2c(p->fwd, v, V), "cuFFT R2C"));
    spectral<T><<<p->spec_grid, p->spec_block, 0, p->stream>>>(V, p->nx, p->ny, (const C *)p->twx, (const C *)p->twy,
                                                               (const T *)p->ex, (const T *)p->ey, (T)p->lam);
    TRY(cuda_check(p, cudaGetLastError(), "spectral launch"));
    TRY(cufft_check(p, exec_c2r(p->inv, V, v), "cuFFT C2R"));
    reorder_out<T><<<p->pair_grid, p->pair_block, 0, p->stream>>>(v, u, p->nx, p->ny);
    TRY(cuda_check(p, cudaGetLastError(), "reorder_out launch"));
    return FFT_POISSON_OK;
}

static int launch(fft_poisson *p, const void *f, void *u)
{
    return p->use_double ? launch_all<double>(p, (const double *)f, (double *)u)
                         : launch_all<float>(p, (const float *)f, (float *)u);
}

extern "C" int fft_poisson_solve(fft_poisson *p, const void *f, void *u)
{
    if (!p || !f || !u)
        return FFT_POISSON_EINVAL;
    return launch(p, f, u);
}

static int set_stream(fft_poisson *p, cudaStream_t s)
{
    p->stream = s;
    TRY(cufft_check(p, cufftSetStream(p->fwd, s), "cufftSetStream"));
    TRY(cufft_check(p, cufftSetStream(p->inv, s), "cufftSetStream"));
    return FFT_POISSON_OK;
}

/* The tables of fft_ref_tables in the data type, packed: twx, twy (complex), ex, ey. */
template <typename T> static int upload_tables(fft_poisson *p, double h, double lambda)
{
    typedef typename cpx_of<T>::type C;
    int nx = p->nx, ny = p->ny, rc = FFT_POISSON_OK;
    size_t ntx = nx / 2 + 1, nty = ny / 2 + 1;
    size_t bytes = (ntx + nty) * sizeof(C) + ((size_t)nx + ny + 2) * sizeof(T);
    double *d = (double *)malloc(sizeof(double) * (2 * (ntx + nty) + nx + ny + 2));
    unsigned char *host = (unsigned char *)malloc(bytes);
    if (!d || !host) {
        free(d);
        free(host);
        fprintf(stderr, "fft_poisson: out of host memory\n");
        return FFT_POISSON_ECUDA;
    }
    double *dtx = d, *dty = dtx + 2 * ntx, *dex = dty + 2 * nty, *dey = dex + nx + 1;
    if (fft_ref_tables(nx, ny, h, lambda, dtx, dty, dex, dey, &p->lam)) {
        free(d);
        free(host);
        return FFT_POISSON_EINVAL;
    }
    C *tx = (C *)host, *ty = tx + ntx;
    T *ex = (T *)(ty + nty), *ey = ex + nx + 1;
    for (size_t m = 0; m < ntx; m++) {
        tx[m].x = (T)dtx[2 * m];
        tx[m].y = (T)dtx[2 * m + 1];
    }
    for (size_t m = 0; m < nty; m++) {
        ty[m].x = (T)dty[2 * m];
        ty[m].y = (T)dty[2 * m + 1];
    }
    for (int q = 0; q <= nx; q++)
        ex[q] = (T)dex[q];
    for (int q = 0; q <= ny; q++)
        ey[q] = (T)dey[q];
    rc = cuda_check(p, cudaMalloc(&p->tables, bytes), "cudaMalloc (tables)");
    if (!rc)
        rc = cuda_check(p, cudaMemcpy(p->tables, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (tables)");
    if (!rc) {
        C *dtw = (C *)p->tables;
        p->twx = dtw;
        p->twy = dtw + ntx;
        p->ex = (T *)(dtw + ntx + nty);
        p->ey = (T *)(dtw + ntx + nty) + nx + 1;
    }
    free(d);
    free(host);
    return rc;
}

/* Kernel launches of one solve, counted from a graph captured on a private stream
 * (nothing runs).  -1 when the capture fails: that only costs the exact count. */
static int count_launches(fft_poisson *p)
{
    cudaStream_t cs = NULL, saved = p->stream;
    cudaGraph_t g = NULL;
    int kernels = -1;
    if (cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    p->quiet = 1;
    if (set_stream(p, cs) == FFT_POISSON_OK &&
        cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
        int rc = launch(p, p->V, p->V);
        cudaError_t e = cudaStreamEndCapture(cs, &g);
        size_t n = 0;
        if (rc == FFT_POISSON_OK && e == cudaSuccess && g && cudaGraphGetNodes(g, NULL, &n) == cudaSuccess) {
            cudaGraphNode_t *nodes = (cudaGraphNode_t *)malloc(sizeof(cudaGraphNode_t) * (n ? n : 1));
            if (nodes && cudaGraphGetNodes(g, nodes, &n) == cudaSuccess) {
                kernels = 0;
                for (size_t i = 0; i < n; i++) {
                    cudaGraphNodeType type;
                    if (cudaGraphNodeGetType(nodes[i], &type) == cudaSuccess && type == cudaGraphNodeTypeKernel)
                        kernels++;
                }
            }
            free(nodes);
        }
    }
    if (g)
        cudaGraphDestroy(g);
    cudaGetLastError(); /* a failed capture is not the solver's error */
    p->quiet = 0;
    int rc = set_stream(p, saved);
    cudaStreamDestroy(cs);
    return rc ? -2 : kernels;
}

static int setup(fft_poisson *p, double h, double lambda)
{
    int nx = p->nx, ny = p->ny;
    size_t es = p->use_double ? sizeof(double) : sizeof(float);
    size_t nr = (size_t)nx * ny, nc = ((size_t)nx / 2 + 1) * ny, w1 = 0, w2 = 0;

    TRY(cuda_check(p, cudaMalloc(&p->v, nr * es), "cudaMalloc (work array)"));
    TRY(cuda_check(p, cudaMalloc(&p->V, nc * 2 * es), "cudaMalloc (spectrum)"));
    TRY(p->use_double ? upload_tables<double>(p, h, lambda) : upload_tables<float>(p, h, lambda));

    TRY(cufft_check(p, cufftCreate(&p->fwd), "cufftCreate"));
    p->have_fwd = 1;
    TRY(cufft_check(p, cufftCreate(&p->inv), "cufftCreate"));
    p->have_inv = 1;
    TRY(cufft_check(p, cufftSetAutoAllocation(p->fwd, 0), "cufftSetAutoAllocation"));
    TRY(cufft_check(p, cufftSetAutoAllocation(p->inv, 0), "cufftSetAutoAllocation"));
    /* cuFFT lists dimensions slowest first: ny rows of nx. */
    TRY(cufft_check(p, cufftMakePlan2d(p->fwd, ny, nx, p->use_double ? CUFFT_D2Z : CUFFT_R2C, &w1),
                    "cufftMakePlan2d (R2C)"));
    TRY(cufft_check(p, cufftMakePlan2d(p->inv, ny, nx, p->use_double ? CUFFT_Z2D : CUFFT_C2R, &w2),
                    "cufftMakePlan2d (C2R)"));
    if (w1 || w2) {
        TRY(cuda_check(p, cudaMalloc(&p->work, w1 > w2 ? w1 : w2), "cudaMalloc (cuFFT work area)"));
        TRY(cufft_check(p, cufftSetWorkArea(p->fwd, p->work), "cufftSetWorkArea"));
        TRY(cufft_check(p, cufftSetWorkArea(p->inv, p->work), "cufftSetWorkArea"));
    }
    TRY(set_stream(p, p->stream));

    int bx = nx / 2 < 256 ? nx / 2 : 256, by = 256 / bx;
    p->pair_block = dim3(bx, by);
    p->pair_grid = dim3((nx / 2) / bx, (ny + by - 1) / by);
    p->spec_block = dim3(32, 8);
    p->spec_grid = dim3((nx / 2 + 1 + 31) / 32, (ny / 2 + 1 + 7) / 8);

    /* One solve on zeros, using the spectrum buffer as f and u (each step reads one
     * buffer and writes another, so this is race-free): loads the kernels, checks
     * that everything launches and runs, before anything is timed. */
    TRY(cuda_check(p, cudaMemsetAsync(p->V, 0, nc * 2 * es, p->stream), "cudaMemsetAsync"));
    TRY(launch(p, p->V, p->V));
    TRY(cuda_check(p, cudaStreamSynchronize(p->stream), "first solve (cudaStreamSynchronize)"));

    int k = count_launches(p);
    if (k == -2)
        return FFT_POISSON_ECUFFT;
    p->cost.own_kernels = 3;
    p->cost.launches_counted = k >= 3;
    p->cost.launches = k >= 3 ? k : 3 + 2 * 2;
    p->cost.fft_kernels = p->cost.launches - 3;
    /* reorder_in and reorder_out read and write nr values, spectral reads and writes
     * nc complex values, each cuFFT kernel is taken as one pass over the spectrum. */
    p->cost.bytes = (double)es * (4.0 * nr + 4.0 * nc + p->cost.fft_kernels * 4.0 * nc);
    return FFT_POISSON_OK;
}

static int pow2(int n) { return n >= 2 && n <= FFT_REF_MAX && (n & (n - 1)) == 0; }

extern "C" int fft_poisson_create(int nx, int ny, double h, double lambda, int use_double, void *stream,
                                  fft_poisson **out)
{
    if (!out)
        return FFT_POISSON_EINVAL;
    *out = NULL;
    if (!pow2(nx) || !pow2(ny) || !(h > 0) || !isfinite(h) || !(lambda >= 0) || !isfinite(lambda)) {
        fprintf(stderr,
                "fft_poisson: bad problem: nx = %d, ny = %d (powers of two, 2..%d), h = %g (> 0), "
                "lambda = %g (>= 0)\n",
                nx, ny, FFT_REF_MAX, h, lambda);
        return FFT_POISSON_EINVAL;
    }
    fft_poisson *p = (fft_poisson *)calloc(1, sizeof *p);
    if (!p)
        return FFT_POISSON_ECUDA;
    p->nx = nx;
    p->ny = ny;
    p->use_double = use_double != 0;
    p->stream = (cudaStream_t)stream;
    int rc = setup(p, h, lambda);
    if (rc) {
        fft_poisson_destroy(p);
        return rc;
    }
    *out = p;
    return FFT_POISSON_OK;
}

extern "C" void fft_poisson_destroy(fft_poisson *p)
{
    if (!p)
        return;
    if (p->have_fwd)
        cufftDestroy(p->fwd);
    if (p->have_inv)
        cufftDestroy(p->inv);
    cudaFree(p->work);
    cudaFree(p->tables);
    cudaFree(p->V);
    cudaFree(p->v);
    free(p);
}

extern "C" void fft_poisson_get_cost(const fft_poisson *p, fft_poisson_cost *out)
{
    if (p && out)
        *out = p->cost;
}
