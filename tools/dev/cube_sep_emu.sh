#!/bin/sh
# cube_sep_emu.sh -- runs kernels/grid/cube_sep.cu's kernels on the host (no GPU): a
# std::thread per CUDA thread, a std::barrier per block for __syncthreads, blocks one after
# another, and compares x with the CPU twin (homg_cpu_cubesep_solve) bit for bit on
# cube_sep_case's levels at every tile width and outputs a thread (tt; the 64^3 level with
# tt 1 and 44 only: time).  Catches index and tiling mistakes in the
# kernels before a device call (not races between blocks, not the GPU's own rounding: fmaf is
# IEEE on both).  Needs the main build (make CUDA=1: build/libhomg.a and the test helpers).
# Usage: sh tools/dev/cube_sep_emu.sh   (~2 min)
set -eu
cd "$(git rev-parse --show-toplevel)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sed -n '/^#define CUBESEP_PP/,/^template <int TW> static void sep_launch/p' kernels/grid/cube_sep.cu | sed '$d' |
    sed 's/extern __shared__ float4 cube_sep_smem\[\];//' > "$T/kern.inc"
cat > "$T/emu.cpp" <<'CPP'
// tools/dev/cube_sep_emu.sh: cube_sep.cu's kernels on the host (see there)
#include <barrier>
#include <thread>
#include <vector>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <cmath>
extern "C" {
#include "grid/cube_sep.h"
#include "grid/cube_sep_point.h"
}
extern "C" {
#include "cubeblock.h"
}
struct float4 { float x, y, z, w; };
struct float2 { float x, y; };
static float4 make_float4(float a, float b, float c, float d) { return { a, b, c, d }; }
template <class T> static T __ldg(const T *p) { return *p; }
struct dim3e { unsigned x, y, z; };
static thread_local dim3e threadIdx;
static dim3e blockIdx, blockDim;
static std::barrier<> *bar;
#define __syncthreads() bar->arrive_and_wait()
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __shared__ static
#define __restrict__
using std::min;
static void homg_pdl_wait(void) {}
static float4 cube_sep_smem[(2 * CUBE_SEP_N * (CUBE_SEP_N + 1) + 2 * CUBE_SEP_MAT) / 4]; /* a block's dynamic shared */
#include "kern.inc"
template <class F> static void launch(unsigned gx, unsigned gy, unsigned nt, F f)
{
    for (unsigned by = 0; by < gy; by++)
        for (unsigned bx = 0; bx < gx; bx++) {
            blockIdx = { bx, by, 0 };
            blockDim = { nt, 1, 1 };
            memset(cube_sep_smem, 0xff, sizeof(cube_sep_smem)); /* NaN: a read before a write shows */
            std::barrier<> b(nt);
            bar = &b;
            std::vector<std::thread> th;
            for (unsigned t = 0; t < nt; t++)
                th.emplace_back([&, t] { threadIdx = { t, 0, 0 }; f(); });
            for (auto &x : th) x.join();
        }
}
template <int TW> static void run(cube_sep P, float *x, const float *b)
{
    unsigned nx = P.n[0], ny = P.n[1], nz = P.n[2];
    launch(nz, (nx + TW - 1) / TW, 4 * TW, [&] { cube_sep_pass1<TW>(P, b); });
    launch(ny, (nx + TW - 1) / TW, 4 * TW, [&] { cube_sep_pass2<TW>(P); });
    launch(nz, (ny + TW - 1) / TW, 4 * TW, [&] { cube_sep_pass3<TW>(P, x); });
}
/* cube_sep.cu's sep_threads */
static unsigned threads(unsigned outputs, unsigned per, unsigned most)
{
    const unsigned n = (outputs / per + 31) / 32 * 32;
    return n < most ? n : most;
}
template <int TW, int RA, int RB> static void run_tt(cube_sep P, float *x, const float *b)
{
    unsigned nx = P.n[0], ny = P.n[1], nz = P.n[2], most = SEP_NTMAX(TW, RA, RB), per = RA * RB;
    launch(nz, (nx + TW - 1) / TW, threads(min((unsigned)TW, nx) * ny, per, most), [&] { cube_sep_tt1<TW, RA, RB>(P, b); });
    launch(ny, (nx + TW - 1) / TW, threads(min((unsigned)TW, nx) * nz, per, most), [&] { cube_sep_tt2<TW, RA, RB>(P); });
    launch(nz, (ny + TW - 1) / TW, threads(min((unsigned)TW, ny) * nx, per, most), [&] { cube_sep_tt3<TW, RA, RB>(P, x); });
}
template <int TW> static void run_tw(cube_sep P, float *x, const float *b, int tt)
{
    if (tt == 11) run_tt<TW, 1, 1>(P, x, b);
    if (tt == 21) run_tt<TW, 2, 1>(P, x, b);
    if (tt == 22) run_tt<TW, 2, 2>(P, x, b);
    if (tt == 44) run_tt<TW, 4, 4>(P, x, b);
}
int main()
{
    float *t = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    int bad = 0;
    for (int c = 0; c < cube_sep_count(); c++) {
        cube_level K;
        if (!cube_sep_case(c, &K, t)) continue;
        if (c % 5 == 0 && c > 0) continue; /* one 64^3 case: time */
        size_t n = (size_t)K.nx * K.ny * K.nz;
        std::vector<float> b(n), x(n), y(n), w(n + 4);
        srand(c);
        for (auto &v : b) v = rand() / (float)RAND_MAX - 0.5f;
        cube_sep P = { { K.nx, K.ny, K.nz }, K.lam, t, NULL, 0, 0 };
        kernel_exec *ex = NULL;
        homg_cpu_cubesep_solve(ex, &P, x.data(), b.data());
        static const int cfg[][2] = { { 16, 1 },  { 32, 1 },  { 64, 1 },  { 8, 11 },  { 8, 21 },  { 8, 22 },  { 8, 44 },
                                      { 16, 11 }, { 16, 21 }, { 16, 22 }, { 16, 44 }, { 32, 11 }, { 32, 21 }, { 32, 22 },
                                      { 32, 44 } };
        for (const auto &f : cfg) {
            const int tw = f[0], tt = f[1];
            if (n == 64 * 64 * 64 && tt != 1 && tt != 44) continue;
            std::fill(y.begin(), y.end(), 7.0f);
            cube_sep D = P;
            D.w = (float *)(((uintptr_t)w.data() + 15) & ~(uintptr_t)15);
            D.tw = tw;
            D.tt = tt;
            if (tt == 1 && tw == 16) run<16>(D, y.data(), b.data());
            if (tt == 1 && tw == 32) run<32>(D, y.data(), b.data());
            if (tt == 1 && tw == 64) run<64>(D, y.data(), b.data());
            if (tt != 1 && tw == 8) run_tw<8>(D, y.data(), b.data(), tt);
            if (tt != 1 && tw == 16) run_tw<16>(D, y.data(), b.data(), tt);
            if (tt != 1 && tw == 32) run_tw<32>(D, y.data(), b.data(), tt);
            size_t diff = 0;
            for (size_t i = 0; i < n; i++) diff += memcmp(&x[i], &y[i], 4) != 0;
            printf("case %d %dx%dx%d tw %d tt %d: %zu differ\n", c, K.nx, K.ny, K.nz, tw, tt, diff);
            bad += diff > 0;
        }
    }
    printf("bad %d\n", bad);
    return bad != 0;
}
CPP
O=build/obj/tests/util
g++ -std=c++20 -O1 -pthread -Ikernels -Ilib -Itests/util -I"$T" -DHOMG_HAVE_CUDA=0 "$T/emu.cpp" $O/cubeblock.c.o \
    $O/cubecase.c.o $O/testutil.c.o build/libhomg.a -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 \
    -lcusparse -lcublas -lcusolver -lcufft -lcudart -lstdc++ -lcmocka -lstb -lz -lfftw3 -lfftw3f -lm -fopenmp \
    -o "$T/emu"
"$T/emu"
