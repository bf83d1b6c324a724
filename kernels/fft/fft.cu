/* fft.cu -- CUDA backend of the FFT solves: Makhoul's reordering around one
 * multi-dimensional cuFFT R2C/C2R pair, batched over the right-hand sides
 * (fft_kernels.h explains it; fft.c's FFT_MAKHOUL path is the twin, step for step).
 * A solve queues reorder_in, R2C, spectral, C2R, reorder_out on the ctx's stream:
 * no allocation, no host work beyond the launches, capturable in a CUDA graph. */
#include "core/cuda_check.h"
#include "fft_kernels.h"

#include <cufft.h>
#include <stdlib.h>

#define FFT_FN static __device__ __forceinline__
#define T      float
#define CPX    float2
#define SUFFIX f
#include "fft_tmpl.h"
#undef T
#undef CPX
#undef SUFFIX
#define T      double
#define CPX    double2
#define SUFFIX d
#include "fft_tmpl.h"
#undef T
#undef CPX
#undef SUFFIX

/* The per-element steps by overload, for the kernel templates. */
__device__ __forceinline__ float gather_in(const fft_geom *g, const fft_faces *fc, const float *f, int p0, int p1,
                                           int p2, int r)
{
    return gather_in_f(g, fc, f, p0, p1, p2, r);
}
__device__ __forceinline__ double gather_in(const fft_geom *g, const fft_faces *fc, const double *f, int p0, int p1,
                                            int p2, int r)
{
    return gather_in_d(g, fc, f, p0, p1, p2, r);
}
__device__ __forceinline__ float gather_out(const fft_geom *g, const float *v, int i0, int i1, int i2, int r)
{
    return gather_out_f(g, v, i0, i1, i2, r);
}
__device__ __forceinline__ double gather_out(const fft_geom *g, const double *v, int i0, int i1, int i2, int r)
{
    return gather_out_d(g, v, i0, i1, i2, r);
}
__device__ __forceinline__ void orbit(const fft_geom *g, float2 *V, const float2 *tw, const float *eig, double *mean,
                                      int m0, int m1, int m2, int r, int three)
{
    orbit_f(g, V, tw, eig, mean, m0, m1, m2, r, three);
}
__device__ __forceinline__ void orbit(const fft_geom *g, double2 *V, const double2 *tw, const double *eig, double *mean,
                                      int m0, int m1, int m2, int r, int three)
{
    orbit_d(g, V, tw, eig, mean, m0, m1, m2, r, three);
}
__device__ __forceinline__ float single(const fft_geom *g, const fft_faces *fc, const float *f, double *mean, int r)
{
    return single_f(g, fc, f, mean, r);
}
__device__ __forceinline__ double single(const fft_geom *g, const fft_faces *fc, const double *f, double *mean, int r)
{
    return single_d(g, fc, f, mean, r);
}

/* ------------------------------------------------------------------ kernels
 * 2D launches: x runs along the fastest axis (n0 threads), y over the rows
 * (k1, k2, rhs) with a grid-stride loop, so any size and nrhs fit (rows < 2^32,
 * checked at plan time: 32-bit division). */

__device__ __forceinline__ void split_row(unsigned row, unsigned n1, unsigned n2, int *k1, int *k2, int *r)
{
    *k1 = (int)(row % n1);
    row /= n1;
    *k2 = (int)(row % n2);
    *r = (int)(row / n2);
}

/* Thread x takes the value that comes from unpermuted index x along axis 0 and
 * writes it at its permuted place: consecutive threads read consecutive cells, and
 * write two contiguous runs (Makhoul's even indices ascending, odd descending). */
template <typename Tr>
__global__ void __launch_bounds__(256)
    k_reorder_in(const __grid_constant__ fft_geom g, const __grid_constant__ fft_faces fc, const Tr *__restrict__ f,
                 Tr *__restrict__ v)
{
    const int q = blockIdx.x * blockDim.x + threadIdx.x, t0 = g.t[0];
    const unsigned rows = (unsigned)g.t[1] * g.t[2] * g.nrhs;
    if (q >= t0)
        return;
    const int p0 = !g.tcos[0] ? q : (q & 1) ? t0 - 1 - q / 2 : q / 2;
    for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y) {
        int p1, p2, r;
        split_row(row, g.t[1], g.t[2], &p1, &p2, &r);
        v[p0 + (size_t)t0 * row] = gather_in(&g, &fc, f, p0, p1, p2, r);
    }
}

template <typename Tr>
__global__ void __launch_bounds__(256)
    k_reorder_out(const __grid_constant__ fft_geom g, const Tr *__restrict__ v, Tr *__restrict__ u)
{
    const int i0 = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned rows = (unsigned)g.n[1] * g.n[2] * g.nrhs;
    if (i0 >= g.n[0])
        return;
    for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y) {
        int i1, i2, r;
        split_row(row, g.n[1], g.n[2], &i1, &i2, &r);
        u[i0 + (size_t)g.n[0] * row] = gather_out(&g, v, i0, i1, i2, r);
    }
}

/* THREE: a 3D transform (t2 > 1), orbits of 8 values; else of 4. */
template <typename Tr, typename C, bool THREE>
__global__ void __launch_bounds__(256)
    k_spectral(const __grid_constant__ fft_geom g, C *__restrict__ V, const C *__restrict__ tw,
               const Tr *__restrict__ eig, double *__restrict__ mean)
{
    const int m0 = blockIdx.x * blockDim.x + threadIdx.x, h1 = g.t[1] / 2 + 1, h2 = g.t[2] / 2 + 1;
    const unsigned rows = (unsigned)h1 * h2 * g.nrhs;
    if (m0 > g.t[0] / 2)
        return;
    for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y) {
        int m1, m2, r;
        split_row(row, h1, h2, &m1, &m2, &r);
        orbit(&g, V, tw, eig, mean, m0, m1, m2, r, THREE);
    }
}

template <typename Tr>
__global__ void k_single(const __grid_constant__ fft_geom g, const __grid_constant__ fft_faces fc, const Tr *f, Tr *u,
                         double *mean)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < g.nrhs)
        u[r] = single(&g, &fc, f, mean, r);
}

/* -------------------------------------------------------------------- host */

struct fft_exec {
    fft_geom g;
    int dbl;
    cufftHandle fwd, inv;
    int have_fwd, have_inv;
    size_t o_tw, o_eig, o_v, o_V, o_work; /* workspace offsets (the means are first) */
    double *mean;
    void *tw, *eig, *v, *V;
    cudaStream_t cur; /* the stream the cuFFT plans are set to */
    int cur_set;
};

static const char *cufft_name(cufftResult r)
{
    switch (r) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cufftResult";
    }
}

static homg_status cufft_fail(kernel_exec *ex, cufftResult r, const char *what)
{
    return homg_exec_fail(ex, r == CUFFT_ALLOC_FAILED ? HOMG_ERROR_OUT_OF_MEMORY : HOMG_ERROR_BACKEND, "%s: %s (%d)",
                          what, cufft_name(r), (int)r);
}

static size_t up256(size_t x) { return (x + 255) & ~(size_t)255; }

static void release(fft_exec *e)
{
    if (e->have_fwd)
        cufftDestroy(e->fwd);
    if (e->have_inv)
        cufftDestroy(e->inv);
    free(e);
}

static homg_status make_plans(kernel_exec *ex, fft_exec *e, size_t *fft_work)
{
    const fft_geom *g = &e->g;
    long long n[3];
    size_t w1 = 0, w2 = 0;
    cufftResult r;
    const char *what = "cufftCreate";
    for (int d = 0; d < g->rank; d++)
        n[d] = g->t[g->rank - 1 - d]; /* cuFFT lists dimensions slowest first */
    if ((r = cufftCreate(&e->fwd)) != CUFFT_SUCCESS)
        return cufft_fail(ex, r, what);
    e->have_fwd = 1;
    if ((r = cufftCreate(&e->inv)) != CUFFT_SUCCESS)
        return cufft_fail(ex, r, what);
    e->have_inv = 1;
    what = "cufftSetAutoAllocation";
    if ((r = cufftSetAutoAllocation(e->fwd, 0)) == CUFFT_SUCCESS)
        r = cufftSetAutoAllocation(e->inv, 0);
    if (r == CUFFT_SUCCESS) {
        what = "cufftMakePlanMany64 (R2C)";
        r = cufftMakePlanMany64(e->fwd, g->rank, n, NULL, 1, (long long)g->nt, NULL, 1, (long long)g->nc,
                                e->dbl ? CUFFT_D2Z : CUFFT_R2C, g->nrhs, &w1);
    }
    if (r == CUFFT_SUCCESS) {
        what = "cufftMakePlanMany64 (C2R)";
        r = cufftMakePlanMany64(e->inv, g->rank, n, NULL, 1, (long long)g->nc, NULL, 1, (long long)g->nt,
                                e->dbl ? CUFFT_Z2D : CUFFT_C2R, g->nrhs, &w2);
    }
    if (r != CUFFT_SUCCESS)
        return cufft_fail(ex, r, what);
    *fft_work = w1 > w2 ? w1 : w2;
    return HOMG_OK;
}

homg_status homg_cuda_fft_plan(kernel_exec *ex, const fft_geom *g, fft_exec **out, size_t *work_bytes)
{
    size_t es = g->precision == HOMG_FLOAT64 ? sizeof(double) : sizeof(float), b, fft_work = 0, avail = 0, total = 0;
    fft_exec *e = (fft_exec *)calloc(1, sizeof *e);
    *out = NULL;
    if (!e)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "host allocation failed");
    if ((double)g->t[1] * g->t[2] * g->nrhs >= 4294967295.0 || (double)g->n[1] * g->n[2] * g->nrhs >= 4294967295.0) {
        free(e);
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "%d x %d rows of %d right-hand sides: more than 2^32 rows",
                              g->t[1], g->t[2], g->nrhs);
    }
    e->g = *g;
    e->dbl = g->precision == HOMG_FLOAT64;
    b = up256(sizeof(double) * g->nrhs);
    e->o_tw = b;
    b = up256(b + 2 * es * g->ntw);
    e->o_eig = b;
    b = up256(b + es * g->neig);
    e->o_v = b;
    if (g->rank > 0)
        b = up256(b + es * g->nrhs * g->nt);
    e->o_V = b;
    if (g->rank > 0)
        b = up256(b + 2 * es * g->nrhs * g->nc);
    e->o_work = b;
    /* The arrays alone must fit before cuFFT is asked to plan (it may allocate);
     * the ctx's pool's idle bytes count as free (the arrays come from it). */
    avail = homg_cuda_free_bytes(ex, &total);
    if (avail && b > avail) {
        release(e);
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY,
                              "%zu bytes of arrays needed (%.1f per cell), %zu of %zu free on the device", b,
                              (double)b / ((double)g->ncell * g->nrhs), avail, total);
    }
    cudaGetLastError();
    if (g->rank > 0) {
        homg_status st = make_plans(ex, e, &fft_work);
        if (st != HOMG_OK) {
            release(e);
            return st;
        }
    }
    *work_bytes = up256(b + fft_work);
    *out = e;
    return HOMG_OK;
}

/* Converts the double tables to the data type and copies them to dst (device). */
template <typename Tr> static homg_status upload_tables(kernel_exec *ex, const fft_geom *g, void *tw, void *eig)
{
    size_t nd = 2 * (size_t)g->ntw + g->neig;
    double *d = (double *)malloc(sizeof(double) * (nd + 1));
    Tr *h = (Tr *)malloc(sizeof(Tr) * (nd + 1));
    cudaStream_t s = homg_cuda_stream(ex);
    cudaError_t err;
    if (!d || !h) {
        free(d);
        free(h);
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "host allocation failed");
    }
    homg_fft_tables(g, d, d + 2 * g->ntw);
    for (size_t k = 0; k < nd; k++)
        h[k] = (Tr)d[k];
    err = cudaMemcpyAsync(tw, h, sizeof(Tr) * 2 * g->ntw, cudaMemcpyHostToDevice, s);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(eig, h + 2 * g->ntw, sizeof(Tr) * g->neig, cudaMemcpyHostToDevice, s);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(s); /* h is freed next */
    free(d);
    free(h);
    if (err != cudaSuccess)
        return homg_cuda_fail(ex, err, "uploading the tables");
    return HOMG_OK;
}

homg_status homg_cuda_fft_bind(kernel_exec *ex, fft_exec *e, void *work)
{
    unsigned char *base = (unsigned char *)work;
    homg_status st;
    cufftResult r = CUFFT_SUCCESS;
    e->mean = (double *)base;
    e->tw = base + e->o_tw;
    e->eig = base + e->o_eig;
    e->v = base + e->o_v;
    e->V = base + e->o_V;
    HOMG_CUDA_TRY(ex, cudaMemsetAsync(e->mean, 0, sizeof(double) * e->g.nrhs, homg_cuda_stream(ex)));
    st = e->dbl ? upload_tables<double>(ex, &e->g, e->tw, e->eig) : upload_tables<float>(ex, &e->g, e->tw, e->eig);
    if (st != HOMG_OK)
        return st;
    if (e->g.rank > 0 && (r = cufftSetWorkArea(e->fwd, base + e->o_work)) == CUFFT_SUCCESS)
        r = cufftSetWorkArea(e->inv, base + e->o_work);
    if (r != CUFFT_SUCCESS)
        return cufft_fail(ex, r, "cufftSetWorkArea");
    return HOMG_OK;
}

/* Block and grid of a kernel over n threads along x and `rows` rows. */
static void shape(int n, long rows, dim3 *grid, dim3 *block)
{
    int bx = 32;
    while (bx < n && bx < 256)
        bx *= 2;
    int by = 256 / bx;
    long gy = (rows + by - 1) / by;
    *block = dim3(bx, by);
    *grid = dim3((n + bx - 1) / bx, (unsigned)(gy < 65535 ? gy : 65535));
}

template <typename Tr, typename C>
static homg_status launch(kernel_exec *ex, fft_exec *e, const fft_faces *fc, const Tr *f, Tr *u)
{
    const fft_geom *g = &e->g;
    cudaStream_t s = homg_cuda_stream(ex);
    Tr *v = (Tr *)e->v;
    C *V = (C *)e->V;
    dim3 grid, block;
    cufftResult r = CUFFT_SUCCESS;
    if (g->rank == 0) {
        k_single<Tr><<<(g->nrhs + 127) / 128, 128, 0, s>>>(*g, *fc, f, u, e->mean);
        HOMG_CUDA_LAUNCHED(ex, "fft single-cell solve");
        return HOMG_OK;
    }
    if (!e->cur_set || e->cur != s) {
        if ((r = cufftSetStream(e->fwd, s)) == CUFFT_SUCCESS)
            r = cufftSetStream(e->inv, s);
        if (r != CUFFT_SUCCESS)
            return cufft_fail(ex, r, "cufftSetStream");
        e->cur = s;
        e->cur_set = 1;
    }
    shape(g->t[0], (long)g->t[1] * g->t[2] * g->nrhs, &grid, &block);
    k_reorder_in<Tr><<<grid, block, 0, s>>>(*g, *fc, f, v);
    HOMG_CUDA_LAUNCHED(ex, "fft reorder_in");
    r = e->dbl ? cufftExecD2Z(e->fwd, (double *)v, (cufftDoubleComplex *)V)
               : cufftExecR2C(e->fwd, (float *)v, (cufftComplex *)V);
    if (r != CUFFT_SUCCESS)
        return cufft_fail(ex, r, "cuFFT R2C");
    shape(g->t[0] / 2 + 1, (long)(g->t[1] / 2 + 1) * (g->t[2] / 2 + 1) * g->nrhs, &grid, &block);
    if (g->t[2] > 1)
        k_spectral<Tr, C, true><<<grid, block, 0, s>>>(*g, V, (const C *)e->tw, (const Tr *)e->eig, e->mean);
    else
        k_spectral<Tr, C, false><<<grid, block, 0, s>>>(*g, V, (const C *)e->tw, (const Tr *)e->eig, e->mean);
    HOMG_CUDA_LAUNCHED(ex, "fft spectral");
    r = e->dbl ? cufftExecZ2D(e->inv, (cufftDoubleComplex *)V, (double *)v)
               : cufftExecC2R(e->inv, (cufftComplex *)V, (float *)v);
    if (r != CUFFT_SUCCESS)
        return cufft_fail(ex, r, "cuFFT C2R");
    shape(g->n[0], (long)g->n[1] * g->n[2] * g->nrhs, &grid, &block);
    k_reorder_out<Tr><<<grid, block, 0, s>>>(*g, v, u);
    HOMG_CUDA_LAUNCHED(ex, "fft reorder_out");
    return HOMG_OK;
}

homg_status homg_cuda_fft_solve(kernel_exec *ex, fft_exec *e, const void *f, const void *const face[6], void *u)
{
    fft_faces fc;
    for (int k = 0; k < 6; k++)
        fc.p[k] = face ? face[k] : NULL;
    return e->dbl ? launch<double, double2>(ex, e, &fc, (const double *)f, (double *)u)
                  : launch<float, float2>(ex, e, &fc, (const float *)f, (float *)u);
}

/* Captures one solve on a private stream (nothing runs) and counts its kernel nodes. */
homg_status homg_cuda_fft_count(kernel_exec *ex, fft_exec *e, int *own, int *lib)
{
    kernel_exec x = *ex;
    cudaStream_t cs = NULL;
    cudaGraph_t graph = NULL;
    size_t nodes = 0;
    int kernels = -1;
    *own = e->g.rank ? 3 : 1;
    *lib = -1;
    HOMG_CUDA_TRY(ex, cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    x.stream = cs;
    x.capturing = 0;
    if (cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
        homg_status st = homg_cuda_fft_solve(&x, e, e->v, NULL, e->V);
        if (cudaStreamEndCapture(cs, &graph) == cudaSuccess && st == HOMG_OK && graph &&
            cudaGraphGetNodes(graph, NULL, &nodes) == cudaSuccess) {
            cudaGraphNode_t *list = (cudaGraphNode_t *)malloc(sizeof(cudaGraphNode_t) * (nodes ? nodes : 1));
            if (list && cudaGraphGetNodes(graph, list, &nodes) == cudaSuccess) {
                kernels = 0;
                for (size_t k = 0; k < nodes; k++) {
                    cudaGraphNodeType type;
                    if (cudaGraphNodeGetType(list[k], &type) == cudaSuccess && type == cudaGraphNodeTypeKernel)
                        kernels++;
                }
            }
            free(list);
        }
    }
    if (graph)
        cudaGraphDestroy(graph);
    cudaGetLastError(); /* a failed capture only costs the exact count */
    e->cur_set = 0;     /* the plans point at cs: the next solve sets the ctx's stream again */
    cudaStreamDestroy(cs);
    if (kernels >= *own)
        *lib = kernels - *own;
    return HOMG_OK;
}

double *homg_cuda_fft_mean(fft_exec *e) { return e->mean; }

void homg_cuda_fft_destroy(kernel_exec *ex, fft_exec *e)
{
    (void)ex;
    if (e)
        release(e);
}

extern "C" const fft_kernels homg_cuda_fft_kernels = { .name = "cuda", FFT_KERNELS(HOMG_KERNEL_CUDA_INIT) };
