#!/bin/sh
# cube_cluster_emu.sh -- runs kernels/grid/cube_cluster.cu's kernel on the host (no GPU): a
# std::thread per CUDA thread of every block of the cluster at once, a std::barrier per block
# for __syncthreads and one over the cluster for cluster.sync(), map_shared_rank into the
# other blocks' arrays; compares x with the CPU twin (homg_cpu_cubeclu_solve) bit for bit on
# cube_clu_case's levels on clusters of 8 and 16 (and prints the twin against cube_sep's solve).  Catches index and tiling mistakes before a
# device call (not races, not the GPU's own rounding: fmaf is IEEE on both).  Needs the main
# build (make CUDA=1: build/libhomg.a and the test helpers).
# Usage: sh tools/dev/cube_cluster_emu.sh   (~1 min)
set -eu
cd "$(git rev-parse --show-toplevel)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sed -n '/^#define CC_NT/,/^extern "C" homg_status homg_cuda_cubeclu_solve/p' kernels/grid/cube_cluster.cu | sed '$d' |
    sed 's/extern __shared__ __align__(16) float sm\[\];/float *sm = emu_sm;/' > "$T/kern.inc"
cat > "$T/emu.cpp" <<'CPP'
// tools/dev/cube_cluster_emu.sh: cube_cluster.cu's kernel on the host (see there)
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
extern "C" {
#include "grid/cube_cluster.h"
#include "cubeblock.h"
}
struct float4 { float x, y, z, w; };
template <class T> static T __ldg(const T *p) { return *p; }
struct dim3e { unsigned x, y, z; };
static thread_local dim3e threadIdx;
static thread_local std::barrier<> *block_bar;
static thread_local float *emu_sm;
static thread_local unsigned emu_rank;
static std::barrier<> *cluster_bar;
static std::vector<float *> emu_base;
namespace cg {
struct cluster_group {
    unsigned num_blocks() const { return (unsigned)emu_base.size(); }
    unsigned block_rank() const { return emu_rank; }
    void sync() const { cluster_bar->arrive_and_wait(); }
    template <class T> T *map_shared_rank(T *p, unsigned r) const { return (T *)(emu_base[r] + ((const float *)p - emu_sm)); }
};
static cluster_group this_cluster() { return {}; }
}
#define __syncthreads() block_bar->arrive_and_wait()
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __restrict__
using std::max;
static void homg_pdl_wait(void) {}
#include "kern.inc"
static void run(cube_clu P, unsigned cs, float *x, const float *b)
{
    const unsigned fl = cc_floats(P.n[0], P.n[1], P.n[2], cs);
    std::vector<std::vector<float>> mem(cs, std::vector<float>(fl + 4, NAN));
    std::vector<std::barrier<> *> bars;
    emu_base.clear();
    for (unsigned r = 0; r < cs; r++) {
        emu_base.push_back(mem[r].data());
        bars.push_back(new std::barrier<>(CC_NT));
    }
    std::barrier<> all(cs * CC_NT);
    cluster_bar = &all;
    std::vector<std::thread> th;
    for (unsigned r = 0; r < cs; r++)
        for (unsigned t = 0; t < CC_NT; t++)
            th.emplace_back([&, r, t] {
                threadIdx = { t, 0, 0 };
                block_bar = bars[r];
                emu_sm = emu_base[r];
                emu_rank = r;
                cube_cluster_solve(P, x, b);
            });
    for (auto &x : th) x.join();
    for (auto *p : bars) delete p;
}
int main()
{
    float *t = (float *)malloc(sizeof(float) * CUBE_CLUSTER_FLOATS), *ts = (float *)malloc(sizeof(float) * CUBE_SEP_FLOATS);
    int bad = 0, runs = 0;
    for (int c = 0; c < cube_clu_count(); c++) {
        cube_level K;
        cube_clu P;
        if (!cube_clu_case(c, &K, t, &P)) continue;
        P.t = t;
        size_t n = (size_t)K.nx * K.ny * K.nz;
        std::vector<float> b(n), x(n), y(n), z(n);
        srand(c);
        for (auto &v : b) v = rand() / (float)RAND_MAX - 0.5f;
        cube_sep_tables(&K, ts);
        cube_sep S = { { K.nx, K.ny, K.nz }, K.lam, ts, NULL, 0 };
        homg_cpu_cubesep_solve(NULL, &S, z.data(), b.data());
        homg_cpu_cubeclu_solve(NULL, &P, 8, x.data(), b.data());
        double dz = 0, zz = 0;
        for (size_t i = 0; i < n; i++) dz = std::max(dz, (double)fabsf(x[i] - z[i])), zz = std::max(zz, (double)fabsf(z[i]));
        printf("case %d %dx%dx%d half %d%d%d: twin vs cube_sep %.2e (relative to max)\n", c, K.nx, K.ny, K.nz, P.half[0], P.half[1], P.half[2], dz / zz);
        for (unsigned cs = 8; cs <= 16; cs *= 2) {
            if (!cube_cluster_fits(&P, (int)cs)) continue;
            std::fill(y.begin(), y.end(), 7.0f);
            run(P, cs, y.data(), b.data());
            size_t diff = 0;
            for (size_t i = 0; i < n; i++) diff += memcmp(&x[i], &y[i], 4) != 0;
            printf("case %d %dx%dx%d cluster %u: %zu differ\n", c, K.nx, K.ny, K.nz, cs, diff);
            bad += diff > 0;
            runs++;
        }
    }
    printf("runs %d bad %d\n", runs, bad);
    return bad != 0 || runs < 20;
}
CPP
O=build/obj/tests/util
g++ -std=c++20 -O1 -pthread -Ikernels -Ilib -Itests/util -I"$T" -DHOMG_HAVE_CUDA=0 "$T/emu.cpp" $O/cubeblock.c.o \
    $O/cubecase.c.o $O/testutil.c.o build/obj/kernels/grid/cube_cluster.c.o build/libhomg.a -L/usr/local/cuda/lib64 \
    -Wl,-rpath,/usr/local/cuda/lib64 -lcusparse -lcublas -lcusolver -lcufft -lcudart -lstdc++ -lcmocka -lstb -lz \
    -lfftw3 -lfftw3f -lm -fopenmp -o "$T/emu"
"$T/emu"
