#!/bin/sh
# homg_marked_emu.sh -- checks on the host the read set behind HOMG's partial iterations
# (grid_point.h homg_read_coord, lib/grid/mfmg.c): for every shape and level m >= 1
# where it holds, both precisions,
#   1. a whole-grid iteration (homg_point at every point) from u poisoned with NaN off
#      R x R equals the one from u bit for bit at every point (it reads only R x R);
#   2. the partial iteration (homg_iterate_marked's loop) from the poisoned u writes
#      finite values equal to the whole pass's on R x R (R x R reads only R x R);
#   3. a level's four iterations: three partial and one whole equal four whole ones;
#   4. (a next step, not used by the library yet) level m's iteration at level m-1's read
#      set R' x R' also reads only R x R, so a level's last iteration could write R' x R'
#      instead of the whole grid (from level 2 up; level 1's R' is every point).
# EMU_PLANT=1 drops the two arm points from R (must then report differences).
# Needs only the headers.  Usage: sh tools/dev/homg_marked_emu.sh (SAN=1: ASan + UBSan).
set -eu
cd "$(git rev-parse --show-toplevel)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/emu.cpp" <<'CPP'
// tools/dev/homg_marked_emu.sh: the partial iterations' read set on the host (see there)
#include <cmath>
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
static int plant;
static int rcoord(int a, int n, int l, int cx) { return plant && a >= cx ? -1 : homg_read_coord(a, n, l, cx); }
static double point(const grid_level *L, const mfmg_level *H, const float *f, const float *u, int x, int y)
{
    return homg_point_f(L, H, 1.0 / H->l, f, u, x, y);
}
static double point(const grid_level *L, const mfmg_level *H, const double *f, const double *u, int x, int y)
{
    return homg_point_d(L, H, 1.0 / H->l, f, u, x, y);
}
template <class T> static void whole(const grid_level &L, const mfmg_level &H, const T *f, const T *u, T *o)
{
    for (int y = 0; y < L.ny; y++)
        for (int x = 0; x < L.nx; x++) o[(size_t)y * L.nx + x] = (T)point(&L, &H, f, u, x, y);
}
/* homg_point of level H at level W's read set (W = H: the partial iteration) */
template <class T>
static void part(const grid_level &L, const mfmg_level &H, const T *f, const T *u, T *o, const mfmg_level *W = 0)
{
    if (!W) W = &H;
    for (int b = 0; b < W->cy + 2; b++)
        for (int a = 0; a < W->cx + 2; a++) {
            int x = rcoord(a, L.nx, W->l, W->cx), y = rcoord(b, L.ny, W->l, W->cy);
            if (x >= 0 && y >= 0) o[(size_t)y * L.nx + x] = (T)point(&L, &H, f, u, x, y);
        }
}
template <class T> static int check(int nx, int ny, int m)
{
    const size_t n = (size_t)nx * ny;
    grid_level L;
    memset(&L, 0, sizeof L);
    L.nx = nx;
    L.ny = ny;
    L.inv_h2 = (double)nx * nx;
    L.lambda = 0.5;
    const mfmg_level H = homg_mfmg_level(nx, ny, m, 0.8);
    const T nan = (T)NAN;
    std::vector<T> u(n), f((size_t)H.cx * H.cy), up(n, nan), o(n), op(n), a(n), b(n);
    std::vector<char> in(n, 0);
    for (auto &v : u) v = (T)(2.0 * rand() / RAND_MAX - 1);
    for (auto &v : f) v = (T)(200.0 * rand() / RAND_MAX - 100);
    for (int bb = 0; bb < H.cy + 2; bb++)
        for (int aa = 0; aa < H.cx + 2; aa++) {
            int x = rcoord(aa, nx, H.l, H.cx), y = rcoord(bb, ny, H.l, H.cy);
            if (x >= 0 && y >= 0) in[(size_t)y * nx + x] = 1, up[(size_t)y * nx + x] = u[(size_t)y * nx + x];
        }
    size_t d1 = 0, d2 = 0, d3 = 0, d4 = 0;
    whole(L, H, f.data(), u.data(), o.data());
    whole(L, H, f.data(), up.data(), op.data());
    for (size_t i = 0; i < n; i++) d1 += memcmp(&o[i], &op[i], sizeof(T)) != 0;
    std::fill(op.begin(), op.end(), nan);
    part(L, H, f.data(), up.data(), op.data());
    for (size_t i = 0; i < n; i++) d2 += in[i] && memcmp(&o[i], &op[i], sizeof(T)) != 0;
    /* four iterations: whole x 4 against partial x 3 + whole (ping-pong as the restart) */
    std::vector<T> wa(u), wb(n, nan), pa(u), pb(n, nan);
    for (int it = 0; it < 4; it++) {
        whole(L, H, f.data(), wa.data(), wb.data());
        if (it < 3) part(L, H, f.data(), pa.data(), pb.data());
        else whole(L, H, f.data(), pa.data(), pb.data());
        wa.swap(wb);
        pa.swap(pb);
    }
    for (size_t i = 0; i < n; i++) d3 += memcmp(&wa[i], &pa[i], sizeof(T)) != 0;
    if (m >= 2) {
        const mfmg_level W = homg_mfmg_level(nx, ny, m - 1, 0.8);
        std::fill(op.begin(), op.end(), nan);
        part(L, H, f.data(), up.data(), op.data(), &W);
        for (int bb = 0; bb < W.cy + 2; bb++)
            for (int aa = 0; aa < W.cx + 2; aa++) {
                int x = rcoord(aa, nx, W.l, W.cx), y = rcoord(bb, ny, W.l, W.cy);
                size_t i = (size_t)y * nx + x;
                if (x >= 0 && y >= 0) d4 += memcmp(&o[i], &op[i], sizeof(T)) != 0;
            }
    }
    if (d1 || d2 || d3 || d4)
        printf("%d x %d m %d %s: %zu whole-pass, %zu partial, %zu after 4 iterations, %zu at level m-1's set differ "
               "(of %zu)\n", nx, ny, m, sizeof(T) == 4 ? "float" : "double", d1, d2, d3, d4, n);
    return d1 || d2 || d3 || d4;
}
int main()
{
    const int shapes[][2] = { { 4, 4 },    { 8, 8 },    { 16, 4 },   { 64, 64 },   { 128, 32 },
                              { 32, 256 }, { 512, 512 }, { 96, 48 }, { 24, 40 },  { 1024, 256 } };
    plant = getenv("EMU_PLANT") && atoi(getenv("EMU_PLANT"));
    int bad = 0, cases = 0;
    srand(12);
    for (const auto &sh : shapes) {
        const int nx = sh[0], ny = sh[1];
        for (int m = 1; (2 << m) <= (nx < ny ? nx : ny); m++) {
            if (!homg_read_set_holds(nx, 1 << m) || !homg_read_set_holds(ny, 1 << m))
                continue;
            bad += check<float>(nx, ny, m) + check<double>(nx, ny, m);
            cases += 2;
        }
    }
    printf("homg_marked_emu%s: %d of %d case(s) differ\n", plant ? " (planted: arm points dropped)" : "", bad, cases);
    return bad != 0;
}
CPP
SANF=""
[ "${SAN:-0}" = 1 ] && SANF="-fsanitize=address,undefined -fno-sanitize-recover=all"
g++ -std=c++17 -O1 -g $SANF -Ikernels -Ilib -DHOMG_HAVE_CUDA=0 "$T/emu.cpp" -o "$T/emu"
"$T/emu"
