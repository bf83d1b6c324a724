#!/bin/sh
# homg_vec4s_emu.sh -- runs kernels/grid/grid.cu's homg_iterate_vec4s_kernel on the host (no
# GPU: every thread in turn; no shared memory or barriers) on shapes with nx % 8 == 0 at
# every level m >= 2, R = 4 and 8, and compares each output bit for bit with
# homg_point_f (the CPU twin's formula).  Catches bracket, marked-column and relax-arm
# mistakes before a device call (not the GPU's rounding).  Usage: sh tools/dev/homg_vec4s_emu.sh [CXXFLAGS]
set -eu
cd "$(git rev-parse --show-toplevel)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sed -n '/^template <int R, int B>$/,/^}$/p' kernels/grid/grid.cu > "$T/kern.inc"
cat > "$T/emu.cpp" <<'CPP'
// tools/dev/homg_vec4s_emu.sh: homg_iterate_vec4s_kernel on the host (see there)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" {
#include "grid/grid_kernels.h"
#include "grid/grid_point.h"
}
#define PER_TYPE_TMPL "grid/homg_point_tmpl.h"
#include "core/per_type.h"
struct float4 { float x, y, z, w; };
static float4 make_float4(float a, float b, float c, float d) { return { a, b, c, d }; }
struct dim3e { unsigned x, y, z; };
static dim3e threadIdx, blockIdx;
static int __ffs(unsigned v) { return __builtin_ffs((int)v); }
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(a, b)
#define __restrict__
#define BX 32
#define BY 8
static double homg_point(const grid_level *L, const mfmg_level *H, double inv_l, const float *fm, const float *u, int x, int y)
{
    return homg_point_f(L, H, inv_l, fm, u, x, y);
}
static double homg_lerp_row(const float *row, int x0, int x1, double tx) { return homg_lerp_row_f(row, x0, x1, tx); }
#include "kern.inc"
template <int R> static void run(const grid_level &L, const mfmg_level &H, const float *fm, const float *u, float *o)
{
    const unsigned gx = (L.nx / 4 + BX - 1) / BX, gy = (L.ny + BY * R - 1) / (BY * R);
    for (blockIdx.y = 0; blockIdx.y < gy; blockIdx.y++)
        for (blockIdx.x = 0; blockIdx.x < gx; blockIdx.x++)
            for (threadIdx.y = 0; threadIdx.y < BY; threadIdx.y++)
                for (threadIdx.x = 0; threadIdx.x < BX; threadIdx.x++)
                    homg_iterate_vec4s_kernel<R, 3>(L, H, fm, u, o);
}
int main()
{
    const int shapes[][2] = { { 128, 64 }, { 8, 8 }, { 16, 200 }, { 504, 33 }, { 64, 1030 }, { 1032, 40 },
                              { 2048, 36 }, { 520, 517 }, { 1024, 1024 } };
    long bad = 0, checked = 0;
    unsigned long long z = 777;
    for (auto &sh : shapes) {
        const int nx = sh[0], ny = sh[1], minside = nx < ny ? nx : ny;
        const size_t n = (size_t)nx * ny;
        std::vector<float> u(n), fm(n), o(n);
        for (size_t k = 0; k < n; k++) {
            z = z * 6364136223846793005ull + 1442695040888963407ull;
            u[k] = (float)((double)(z >> 11) / 9007199254740992.0 * 2 - 1);
            z = z * 6364136223846793005ull + 1442695040888963407ull;
            fm[k] = (float)((double)(z >> 11) / 9007199254740992.0 * 200 - 100);
        }
        grid_level L;
        memset(&L, 0, sizeof L);
        L.nx = nx;
        L.ny = ny;
        L.inv_h2 = (double)nx * nx;
        L.lambda = 0.5;
        for (int m = 2; (2 << m) <= minside; m++) {
            const mfmg_level H = homg_mfmg_level(nx, ny, m, 0.8);
            const double inv_l = 1.0 / H.l;
            for (int R = 4; R <= 8; R += 4) {
                std::fill(o.begin(), o.end(), __builtin_nanf(""));
                if (R == 4)
                    run<4>(L, H, fm.data(), u.data(), o.data());
                else
                    run<8>(L, H, fm.data(), u.data(), o.data());
                for (int y = 0; y < ny; y++)
                    for (int x = 0; x < nx; x++) {
                        const float want = (float)homg_point_f(&L, &H, inv_l, fm.data(), u.data(), x, y);
                        const float got = o[(size_t)y * nx + x];
                        checked++;
                        if (memcmp(&want, &got, sizeof want) && bad++ < 10)
                            printf("%dx%d m=%d R=%d (%d,%d): %.9g vs %.9g\n", nx, ny, m, R, x, y, got, want);
                    }
            }
        }
    }
    printf("homg_vec4s_emu: %ld outputs, %ld differ\n", checked, bad);
    return bad != 0;
}
CPP
g++ -std=c++17 -O1 -Ikernels -Ilib -I"$T" ${1:-} "$T/emu.cpp" -o "$T/emu" -lm
"$T/emu"
