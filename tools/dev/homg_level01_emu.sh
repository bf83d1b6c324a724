#!/bin/sh
# homg_level01_emu.sh -- runs kernels/grid/homg_level01.cuh's kernels (HOMG's levels 0, 1 and 2,
# four columns a thread) on the host, one CUDA thread after another, and compares every
# output with homg_point_f (the CPU twin's point) bit for bit: every shape below, both
# levels, every rows-a-thread form.  Catches index, pattern and bracket mistakes before a
# device call (not the GPU's own rounding: its fma contraction is what test_grid_gpu's
# tolerance covers).  Needs only the headers.  Usage: sh tools/dev/homg_level01_emu.sh
# (~20 s; SAN=1 adds ASan + UBSan).
set -eu
cd "$(git rev-parse --show-toplevel)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/emu.cpp" <<'CPP'
// tools/dev/homg_level01_emu.sh: homg_level01.cuh's kernels on the host (see there)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cmath>
extern "C" {
#include "grid/grid_kernels.h"
#include "grid/grid_point.h"
}
#define PER_TYPE_TMPL "grid/homg_point_tmpl.h"
#include "core/per_type.h"
struct alignas(16) float4 { float x, y, z, w; };
static float4 make_float4(float a, float b, float c, float d) { return { a, b, c, d }; }
struct dim3e { unsigned x, y, z; };
static dim3e threadIdx, blockIdx;
#define __global__
#define __host__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__
#define BX 32
#define BY 8
#define HOMG_L01_EMU 1
static void homg_pdl_wait() {}
#include "grid/homg_level01.cuh"
template <class K> static void launch(int nx, int ny, int R, K k)
{
    unsigned gx = (nx / 4 + BX - 1) / BX, gy = (ny + BY * R - 1) / (BY * R);
    for (unsigned by = 0; by < gy; by++)
        for (unsigned bx = 0; bx < gx; bx++)
            for (unsigned ty = 0; ty < BY; ty++)
                for (unsigned tx = 0; tx < BX; tx++) {
                    blockIdx = { bx, by, 0 };
                    threadIdx = { tx, ty, 0 };
                    k();
                }
}
int main()
{
    const int shapes[][2] = { { 128, 64 },  { 500, 33 },  { 64, 1030 }, { 1024, 1024 }, { 8, 8 },    { 12, 200 },
                              { 2048, 36 }, { 516, 517 }, { 1028, 40 }, { 132, 99 },    { 4, 4 },    { 256, 77 },
                              { 96, 1 },    { 4, 3 },     { 1032, 21 }, { 36, 2050 },   { 4096, 20 }, { 128, 130 },
                              { 132, 131 }, { 64, 96 },   { 516, 519 }, { 264, 265 },   { 72, 1001 } };
    int bad = 0;
    srand(12);
    for (const auto &sh : shapes) {
        const int nx = sh[0], ny = sh[1];
        const size_t n = (size_t)nx * ny;
        grid_level L;
        memset(&L, 0, sizeof L);
        L.nx = nx;
        L.ny = ny;
        L.inv_h2 = (double)nx * nx;
        L.lambda = 0.5;
        std::vector<float> u(n), f(n), ref(n), out(n);
        for (auto &v : u) v = 2.0f * rand() / RAND_MAX - 1;
        for (auto &v : f) v = 200.0f * rand() / RAND_MAX - 100;
        for (int m = 0; m <= 2 && (2 << m) <= (nx < ny ? nx : ny); m++) {
            const mfmg_level H = homg_mfmg_level(nx, ny, m, 0.8);
            const float *fm = f.data(); /* compact f_m: cx * cy <= n values of f */
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++)
                    ref[(size_t)y * nx + x] = (float)homg_point_f(&L, &H, 1.0 / H.l, fm, u.data(), x, y);
            /* v: R = 4 and 8 at the launch bound of 2 blocks, then the bound-3 and -4 forms
             * (the serial edge points; level 1's lazy lerps): R 4/3, 4/4, 8/3 (level 2: 4/4, 4/4, 8/3) */
            for (int v = 0; v < 5; v++) {
                const int R = v == 1 || v == 4 ? 8 : 4;
                if (v >= 2 && m == 0)
                    continue;
                std::fill(out.begin(), out.end(), 7.0f);
                if (m == 0 && v == 0) launch(nx, ny, R, [&] { homg_iterate0_vec4_kernel<4>(L, H, fm, u.data(), out.data()); });
                if (m == 0 && v == 1) launch(nx, ny, R, [&] { homg_iterate0_vec4_kernel<8>(L, H, fm, u.data(), out.data()); });
                if (m == 1 && v == 0) launch(nx, ny, R, [&] { homg_iterate1_vec4_kernel<4, 2>(L, H, fm, u.data(), out.data()); });
                if (m == 1 && v == 1) launch(nx, ny, R, [&] { homg_iterate1_vec4_kernel<8, 2>(L, H, fm, u.data(), out.data()); });
                if (m == 1 && v == 2) launch(nx, ny, R, [&] { homg_iterate1_vec4_kernel<4, 3>(L, H, fm, u.data(), out.data()); });
                if (m == 1 && v == 3) launch(nx, ny, R, [&] { homg_iterate1_vec4_kernel<4, 4>(L, H, fm, u.data(), out.data()); });
                if (m == 1 && v == 4) launch(nx, ny, R, [&] { homg_iterate1_vec4_kernel<8, 3>(L, H, fm, u.data(), out.data()); });
                if (m == 2 && v == 0) launch(nx, ny, R, [&] { homg_iterate2_vec4_kernel<4, 2>(L, H, fm, u.data(), out.data()); });
                if (m == 2 && v == 1) launch(nx, ny, R, [&] { homg_iterate2_vec4_kernel<8, 2>(L, H, fm, u.data(), out.data()); });
                if (m == 2 && (v == 2 || v == 3)) launch(nx, ny, R, [&] { homg_iterate2_vec4_kernel<4, 4>(L, H, fm, u.data(), out.data()); });
                if (m == 2 && v == 4) launch(nx, ny, R, [&] { homg_iterate2_vec4_kernel<8, 3>(L, H, fm, u.data(), out.data()); });
                size_t diff = 0;
                for (size_t i = 0; i < n; i++) diff += memcmp(&ref[i], &out[i], 4) != 0;
                if (diff) printf("%d x %d m %d R %d form %d: %zu of %zu differ\n", nx, ny, m, R, v, diff, n);
                bad += diff > 0;
            }
        }
    }
    printf("homg_level01_emu: %d case(s) differ\n", bad);
    return bad != 0;
}
CPP
SANF=""
[ "${SAN:-0}" = 1 ] && SANF="-fsanitize=address,undefined -fno-sanitize-recover=all"
g++ -std=c++17 -O1 -g $SANF -Ikernels -Ilib -DHOMG_HAVE_CUDA=0 "$T/emu.cpp" -o "$T/emu"
"$T/emu"
