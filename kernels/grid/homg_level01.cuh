/* homg_level01.cuh -- HOMG's whole-grid pass at levels 0, 1 and 2 (float32, nx % 4 == 0)
 * with four consecutive columns and R rows a thread: one float4 store a row (a warp
 * writes 512 contiguous bytes).  Included by grid.cu after homg_point and its
 * helpers; tools/dev/homg_level01_emu.sh runs these kernels' threads on the host and
 * compares them with homg_point_f bit for bit.
 *
 * Values: homg_point's functions in the same order (homg_lerp for the row lerps --
 * homg_lerp_row is the same expression on the two loaded values --, the arms
 * x-l, x+l, y-l, y+l summed from 0, homg_relax with extra 0 and inv = inv_h2 / l^2).
 * Threads whose points are not all in the regular pattern (the grid's edges, the
 * middle rows and columns where the two halves' marked points meet) take
 * homg_point for each of their points. */

/* Level 1 (l = 2).  In a half, every other row and column is marked: the low
 * half's even ones, the high half's (n-1-x) even ones (with nx % 4 == 0: odd x).
 * A thread's four columns then have two marked columns, at P0 = x_o and
 * P1 = x_o + 2 (x_o = xb in the low half, xb + 1 in the high half), and every
 * point's x bracket lies on P-1, P0, P1 or P2 (P-1 = x_o - 2, P2 = x_o + 4).  The
 * thread loads those four values of the marked rows ys, ys + 2, ..., ys + R + 2
 * (its window) once; each window row gives the four columns' row lerps.
 *
 * YV: how the rows run.  0: the low half (marked rows even; ys = yb - 2);
 * 1: the high half of an even ny (marked rows odd; ys = yb - 1); 2: the high half
 * of an odd ny (marked rows even; ys = yb - 2).  XLow: the low half along x. */
#define HOMG_L1_HD __device__ __forceinline__

/* The four columns' row lerps of one window row P[0..3] = P-1, P0, P1, P2:
 * homg_bracket_p2's x0, x1, tx for xb .. xb+3. */
template <bool XLow> HOMG_L1_HD void homg_l1_row_lerps(const float P[4], double lr[4])
{
    const double p0 = P[0], p1 = P[1], p2 = P[2], p3 = P[3];
    if (XLow) {
        lr[0] = homg_lerp_d(p1, p2, 0.0);
        lr[1] = homg_lerp_d(p1, p2, 0.5);
        lr[2] = homg_lerp_d(p2, p3, 0.0);
        lr[3] = homg_lerp_d(p2, p3, 0.5);
    } else {
        lr[0] = homg_lerp_d(p1, p0, 0.5);
        lr[1] = homg_lerp_d(p1, p0, 0.0);
        lr[2] = homg_lerp_d(p2, p1, 0.5);
        lr[3] = homg_lerp_d(p2, p1, 0.0);
    }
}

/* The regular pattern along x (XLow or high half) for the columns xb .. xb+3 with
 * every arm and bracket point inside: 1 low, 2 high, 0 neither. */
HOMG_L1_HD int homg_l1_x_kind(int xb, int nx)
{
    const int hx = nx / 2;
    if (xb >= 4 && xb + 4 < nx - hx)
        return 1;
    if (xb > hx && xb + 8 <= nx)
        return 2;
    return 0;
}

/* The same along y for the rows yb .. yb+R-1: YV + 1, or 0 for none. */
HOMG_L1_HD int homg_l1_y_kind(int yb, int ny, int R)
{
    const int hy = ny / 2;
    if (yb >= 2 && yb + R < ny - hy)
        return 1;
    if (yb > hy && (ny % 2 == 0 ? yb + R + 2 <= ny : yb + R < ny))
        return ny % 2 == 0 ? 2 : 3;
    return 0;
}

/* Lazy: each output row forms its two window rows' lerps (twice the lerps, no
 * 4 x W doubles held: for the kernels bound to more blocks an SM). */
template <int R, bool XLow, int YV, bool Lazy = false>
HOMG_L1_HD void homg_l1_regular(const grid_level &L, const mfmg_level &H, const float *__restrict__ fm,
                                const float *__restrict__ u, float *__restrict__ u_out, int xb, int yb)
{
    const int nx = L.nx, ny = L.ny, W = R / 2 + 2, py = YV == 1 ? 1 : 0;
    const int xo = XLow ? xb : xb + 1, ys = yb - 2 + py;
    const double inv_l = 1.0 / H.l; /* exact: l = 2^m */
    const double inv = L.inv_h2 * (inv_l * inv_l);
    const int ax0 = homg_marked_index_p2(xo, nx, 1), ax1 = homg_marked_index_p2(xo + 2, nx, 1);
    float P[W][4]; /* converted where used: fewer registers */
    double lr[W][4];
#pragma unroll
    for (int w = 0; w < W; w++) {
        const float *row = u + (size_t)(ys + 2 * w) * nx + xo;
#pragma unroll
        for (int k = 0; k < 4; k++)
            P[w][k] = row[2 * k - 2];
    }
#pragma unroll
    for (int w = 0; w < W; w++)
        homg_l1_row_lerps<XLow>(P[w], lr[w]);
#pragma unroll
    for (int k = 0; k < R; k++) {
        const int y = yb + k;
        const bool marked = YV == 1 ? (k & 1) : !(k & 1);
        /* A: the row's own bracket row y0, B: y1 (homg_bracket_p2 along y) */
        int a, b;
        if (marked) {
            a = (k - py) / 2 + 1;
            b = YV == 0 ? a + 1 : a - 1;
        } else if (YV == 0) {
            a = k / 2 + 1;
            b = a + 1;
        } else if (YV == 1) {
            a = k / 2 + 1;
            b = a - 1;
        } else {
            a = k / 2 + 2;
            b = a - 1;
        }
        const double ty = marked ? 0.0 : 0.5;
        double v[4];
        if (Lazy) {
            double la[4], lb[4];
            homg_l1_row_lerps<XLow>(P[a], la);
            homg_l1_row_lerps<XLow>(P[b], lb);
#pragma unroll
            for (int c = 0; c < 4; c++)
                v[c] = homg_lerp_d(la[c], lb[c], ty);
        } else {
#pragma unroll
            for (int c = 0; c < 4; c++)
                v[c] = homg_lerp_d(lr[Lazy ? 0 : a][c], lr[Lazy ? 0 : b][c], ty);
        }
        if (marked) {
            const size_t fr = (size_t)homg_marked_index_p2(y, ny, 1) * H.cx;
#pragma unroll
            for (int q = 0; q < 2; q++) {
                double nb = 0;
                nb += (double)P[a][q];
                nb += (double)P[a][q + 2];
                nb += (double)P[a - 1][q + 1];
                nb += (double)P[a + 1][q + 1];
                const double rhs = (double)fm[fr + (q ? ax1 : ax0)];
                v[(XLow ? 0 : 1) + 2 * q] = homg_relax_d((double)P[a][q + 1], nb, 0.0, rhs, inv, L.lambda, H.omega);
            }
        }
        *(float4 *)(u_out + (size_t)y * nx + xb) = make_float4((float)v[0], (float)v[1], (float)v[2], (float)v[3]);
    }
}

/* Any level, any four columns and R rows: homg_point per point, a row's four
 * points at once (their loads in flight together: these threads hold their warp).
 * Serial: one point at a time (fewer registers, for the kernels bound to more blocks
 * an SM: the four at once set the level-1 kernel's 126 registers). */
template <int R, bool Serial = false>
HOMG_L1_HD void homg_l01_points(const grid_level &L, const mfmg_level &H, const float *fm, const float *u, float *u_out,
                                int xb, int yb)
{
    const double inv_l = 1.0 / H.l;
    if (Serial) {
#pragma unroll 1
        for (int y = yb; y < yb + R && y < L.ny; y++)
#pragma unroll 1
            for (int x = xb; x < xb + 4 && x < L.nx; x++)
                u_out[(size_t)y * L.nx + x] = (float)homg_point_f(&L, &H, inv_l, fm, u, x, y);
    } else {
#pragma unroll 1
        for (int y = yb; y < yb + R && y < L.ny; y++) {
            double v[4];
#pragma unroll
            for (int c = 0; c < 4; c++)
                v[c] = xb + c < L.nx ? homg_point_f(&L, &H, inv_l, fm, u, xb + c, y) : 0.0;
#pragma unroll
            for (int c = 0; c < 4; c++)
                if (xb + c < L.nx)
                    u_out[(size_t)y * L.nx + xb + c] = (float)v[c];
        }
    }
}

/* MB: the launch bound's blocks an SM (2: 128 registers, 16 warps; 3: 85; 4: 64) */
template <int R, int MB>
__global__ void __launch_bounds__(BX *BY, MB)
    homg_iterate1_vec4_kernel(grid_level L, mfmg_level H, const float *__restrict__ fm, const float *__restrict__ u,
                              float *__restrict__ u_out)
{
    homg_pdl_wait();
    const int xb = (blockIdx.x * BX + threadIdx.x) * 4, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (xb >= L.nx || yb >= L.ny)
        return;
    const int xk = homg_l1_x_kind(xb, L.nx), yk = homg_l1_y_kind(yb, L.ny, R);
    if (xk == 1 && yk == 1)
        homg_l1_regular<R, true, 0, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
    else if (xk == 2 && yk == 1)
        homg_l1_regular<R, false, 0, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
    else if (xk == 1 && yk == 2)
        homg_l1_regular<R, true, 1, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
    else if (xk == 2 && yk == 2)
        homg_l1_regular<R, false, 1, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
    else if (xk == 1 && yk == 3)
        homg_l1_regular<R, true, 2, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
    else if (xk == 2 && yk == 3)
        homg_l1_regular<R, false, 2, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
    else
        homg_l01_points<R, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
}

/* Level 0 (l = 1: every point relaxes, f_0 = r whole): a thread's four columns and
 * R rows, its columns' rows yb-1 .. yb+R as float4s (each loaded once), the side
 * values (x-1, x+4) of its rows and f as float4s, all loaded before any arithmetic.
 * Threads with an edge point take homg_point. */
template <int R>
HOMG_L1_HD void homg_l0_regular(const grid_level &L, const mfmg_level &H, const float *__restrict__ f,
                                const float *__restrict__ u, float *__restrict__ u_out, int xb, int yb)
{
    const int nx = L.nx;
    const float *uc = u + (size_t)(yb - 1) * nx + xb, *fc = f + (size_t)yb * nx + xb;
    /* every load first (rows yb-1 .. yb+R of u, the side values, f): all in flight at once */
    float4 U[R + 2], F[R];
    float w[R], e[R];
#pragma unroll
    for (int k = 0; k < R + 2; k++)
        U[k] = *(const float4 *)(uc + (size_t)k * nx);
#pragma unroll
    for (int k = 0; k < R; k++) {
        F[k] = *(const float4 *)(fc + (size_t)k * nx);
        w[k] = uc[(size_t)(k + 1) * nx - 1];
        e[k] = uc[(size_t)(k + 1) * nx + 4];
    }
#pragma unroll
    for (int k = 0; k < R; k++) {
        const double s[4] = { U[k].x, U[k].y, U[k].z, U[k].w },
                     c[4] = { U[k + 1].x, U[k + 1].y, U[k + 1].z, U[k + 1].w },
                     n[4] = { U[k + 2].x, U[k + 2].y, U[k + 2].z, U[k + 2].w },
                     r[4] = { F[k].x, F[k].y, F[k].z, F[k].w };
        double v[4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
            double nb = 0;
            nb += q ? c[q - 1] : (double)w[k];
            nb += q < 3 ? c[q + 1] : (double)e[k];
            nb += s[q];
            nb += n[q];
            v[q] = homg_relax_d(c[q], nb, 0.0, r[q], L.inv_h2, L.lambda, H.omega);
        }
        *(float4 *)(u_out + (size_t)(yb + k) * nx + xb) =
            make_float4((float)v[0], (float)v[1], (float)v[2], (float)v[3]);
    }
}

template <int R>
__global__ void __launch_bounds__(BX *BY, 2)
    homg_iterate0_vec4_kernel(grid_level L, mfmg_level H, const float *__restrict__ f, const float *__restrict__ u,
                              float *__restrict__ u_out)
{
    homg_pdl_wait();
    const int xb = (blockIdx.x * BX + threadIdx.x) * 4, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (xb >= L.nx || yb >= L.ny)
        return;
    if (xb >= 4 && xb + 4 < L.nx && yb >= 1 && yb + R < L.ny)
        homg_l0_regular<R>(L, H, f, u, u_out, xb, yb);
    else
        homg_l01_points<R>(L, H, f, u, u_out, xb, yb);
}

/* Level 2 (l = 4).  In a half every fourth row and column is marked (low half
 * x % 4 == 0, high half (n-1-x) % 4 == 0: x % 4 == 3 with nx % 4 == 0), so a thread's
 * four columns hold one marked column, P0 = x_o (x_o = xb low, xb + 3 high), and
 * every bracket and arm lies on P-1 = x_o - 4, P0, P1 = x_o + 4.  The thread loads
 * those three values of the marked rows ys, ys + 4, ..., ys + 4 (W - 1) (its window,
 * W = R/4 + 2: the rows' brackets and the marked rows' arms) once, before any
 * arithmetic, and relaxes its marked points inline (arms in homg_point's order).
 * YO: how the rows run.  -1: the low half (marked rows y % 4 == 0, y0 = y & ~3 <= y);
 * 0..3: the high half with o = (ny - 1) & 3 (marked rows y % 4 == o, y0 >= y);
 * ys = yb + o - 4 (o = 0 low).  XLow: the low half along x. */
template <int R, bool XLow, int YO>
HOMG_L1_HD void homg_l2_regular(const grid_level &L, const mfmg_level &H, const float *__restrict__ fm,
                                const float *__restrict__ u, float *__restrict__ u_out, int xb, int yb)
{
    const int nx = L.nx, ny = L.ny, W = R / 4 + 2, o = YO < 0 ? 0 : YO;
    const int xo = XLow ? xb : xb + 3, ys = yb + o - 4, cm = XLow ? 0 : 3; /* cm: the marked column */
    /* inv_l = 1/l at run time, as homg_point has it: tx, ty below are its values and
     * not constants, so the lerps contract (fma) as homg_point's on the GPU */
    const double inv_l = 1.0 / H.l, inv = L.inv_h2 * (inv_l * inv_l);
    const int ax = homg_marked_index_p2(xo, nx, 2);
    float P[W][3];
#pragma unroll
    for (int w = 0; w < W; w++) {
        const float *row = u + (size_t)(ys + 4 * w) * nx + xo;
#pragma unroll
        for (int k = 0; k < 3; k++)
            P[w][k] = row[4 * k - 4];
    }
#pragma unroll
    for (int k = 0; k < R; k++) {
        const int y = yb + k;
        /* d = y0 - y (homg_bracket_p2 along y: low y0 = y & ~3, high y0 = y + ((o - k) & 3)) */
        const int d = YO < 0 ? -(k & 3) : ((o - k) & 3);
        const int a = (k + d - o) / 4 + 1, b = YO < 0 ? a + 1 : a - 1;
        const double ty = (double)(YO < 0 ? (k & 3) : d) * inv_l;
        double v[4];
#pragma unroll
        for (int c = 0; c < 4; c++) {
            /* homg_bracket_p2 along x: low x0 = xb, x1 = xb + 4, t = c/4; high x0 = xb + 3,
             * x1 = xb - 1, t = (3 - c)/4 */
            const double tx = (double)(XLow ? c : 3 - c) * inv_l;
            const double r0 = homg_lerp_d(P[a][1], P[a][XLow ? 2 : 0], tx);
            const double r1 = homg_lerp_d(P[b][1], P[b][XLow ? 2 : 0], tx);
            v[c] = homg_lerp_d(r0, r1, ty);
        }
        if (d == 0) { /* a marked row: its marked column relaxes */
            double nb = 0;
            nb += (double)P[a][0];
            nb += (double)P[a][2];
            nb += (double)P[a - 1][1];
            nb += (double)P[a + 1][1];
            const double rhs = (double)fm[(size_t)homg_marked_index_p2(y, ny, 2) * H.cx + ax];
            v[cm] = homg_relax_d((double)P[a][1], nb, 0.0, rhs, inv, L.lambda, H.omega);
        }
        *(float4 *)(u_out + (size_t)y * nx + xb) = make_float4((float)v[0], (float)v[1], (float)v[2], (float)v[3]);
    }
}

/* The regular pattern along y for level 2's rows yb .. yb+R-1 (yb % 4 == 0): 1 the
 * low half, 2 + o the high half (o = (ny - 1) & 3), 0 neither (edges, the middle). */
HOMG_L1_HD int homg_l2_y_kind(int yb, int ny, int R)
{
    const int hy = ny / 2;
    if (yb >= 4 && yb + R < ny - hy)
        return 1;
    if (yb > hy && yb + R + ((ny - 1) & 3) < ny)
        return 2 + ((ny - 1) & 3);
    return 0;
}

template <int R, bool XLow>
HOMG_L1_HD void homg_l2_rows(const grid_level &L, const mfmg_level &H, const float *fm, const float *u, float *u_out,
                             int xb, int yb, int yk)
{
    if (yk == 1)
        homg_l2_regular<R, XLow, -1>(L, H, fm, u, u_out, xb, yb);
    else if (yk == 2)
        homg_l2_regular<R, XLow, 0>(L, H, fm, u, u_out, xb, yb);
    else if (yk == 3)
        homg_l2_regular<R, XLow, 1>(L, H, fm, u, u_out, xb, yb);
    else if (yk == 4)
        homg_l2_regular<R, XLow, 2>(L, H, fm, u, u_out, xb, yb);
    else
        homg_l2_regular<R, XLow, 3>(L, H, fm, u, u_out, xb, yb);
}

/* MB as level 1's (3 and 4: the edge points one at a time) */
template <int R, int MB>
__global__ void __launch_bounds__(BX *BY, MB)
    homg_iterate2_vec4_kernel(grid_level L, mfmg_level H, const float *__restrict__ fm, const float *__restrict__ u,
                              float *__restrict__ u_out)
{
    homg_pdl_wait();
    const int xb = (blockIdx.x * BX + threadIdx.x) * 4, yb = (blockIdx.y * BY + threadIdx.y) * R;
    if (xb >= L.nx || yb >= L.ny)
        return;
    const int xk = homg_l1_x_kind(xb, L.nx), yk = homg_l2_y_kind(yb, L.ny, R);
    if (xk == 1 && yk)
        homg_l2_rows<R, true>(L, H, fm, u, u_out, xb, yb, yk);
    else if (xk == 2 && yk)
        homg_l2_rows<R, false>(L, H, fm, u, u_out, xb, yb, yk);
    else
        homg_l01_points<R, (MB > 2)>(L, H, fm, u, u_out, xb, yb);
}

#ifndef HOMG_L01_EMU /* tools/dev/homg_level01_emu.sh takes the kernels alone */
/* Launches level 0, 1 or 2 by the kernels above where they apply (float32 -- the caller
 * checks --, nx % 4 == 0, 16-byte aligned arrays where read or written as float4s) and
 * returns its name, or NULL (the caller takes the other forms).  Defaults as measured
 * (H100, bench/results/h100.md "Session 13 homg6" and "Session 13 homg8"): level 1 at
 * every size, level 0 on grids of HOMG_HOMG_BIG_N points up (at 1024^2, in L2, the
 * column kernel was 1.6% faster over the solve), 4 rows a thread (8: 2048^2 +6%, 4096^2
 * +1%; 1024^2 +17%); on grids of 4 x HOMG_HOMG_BIG_N points up (4096^2) level 1 bound to
 * 3 blocks an SM and level 2 by homg_iterate2_vec4_kernel, also bound to 3 (4096^2
 * 26.13 -> 25.46 ms; level 2's kernel was slower at 1024^2 and 2048^2: +3.8%, +2.5%);
 * level 1 bound to 3 on large grids too (2048^2: "Session 13 homg10" -0.9 to -1.3%,
 * "Session 14 homg11" 6.78 -> 6.67 ms alone, 6.56 with the fitted filter rows).
 * Knobs: HOMG_HOMG_L1_VEC, HOMG_HOMG_L0_VEC (1: on at every size, 0: the earlier
 * forms), HOMG_HOMG_L01_ROWS (4 or 8; 16 spills in both kernels), HOMG_HOMG_L1_MINB
 * (level 1's launch bound, 2, 3 or 4 blocks an SM; 3 and 4 with the lazy lerps and
 * serial edge points; 4 only with 4 rows), HOMG_HOMG_L2_VEC (1: level 2 by
 * homg_iterate2_vec4_kernel at every size; 0: never, the vec4 kernel of levels >= 2
 * takes it), HOMG_HOMG_L2_MINB (2 or 3; 4 rows take 4), HOMG_HOMG_L2_ROWS (4 or 8;
 * default 8 on large grids, 4 below, as the vec4 kernel). */
static const char *homg_l01_launch(cudaStream_t s, const grid_level *L, const mfmg_level *H, const void *fm,
                                   const void *u_in, void *u_out)
{
    /* float4 stores; level 0 also loads u and f as float4s (levels 1, 2 load scalars) */
    const bool aligned = ((H->m ? 0 : (uintptr_t)fm | (uintptr_t)u_in) | (uintptr_t)u_out) % 16 == 0;
    const bool large = homg_large_grid(L->nx, L->ny);
    /* 4 x HOMG_HOMG_BIG_N points up (2^24 by default: 4096^2) */
    const bool huge = (double)L->nx * L->ny >= 4.0 * homg_env_int("HOMG_HOMG_BIG_N", 1 << 22);
    const int on = H->m == 2   ? homg_env_int("HOMG_HOMG_L2_VEC", huge ? 1 : 0)
                   : H->m == 1 ? homg_env_int("HOMG_HOMG_L1_VEC", 1)
                               : homg_env_int("HOMG_HOMG_L0_VEC", large ? 1 : 0);
    if (H->m > 2 || L->nx % 4 != 0 || !aligned || !on)
        return NULL;
    const int ry = H->m == 2 ? (homg_env_int("HOMG_HOMG_L2_ROWS", large ? 8 : 4) == 4 ? 4 : 8)
                             : (homg_env_int("HOMG_HOMG_L01_ROWS", 4) == 8 ? 8 : 4);
    const dim3 blocks((L->nx / 4 + BX - 1) / BX, (L->ny + BY * ry - 1) / (BY * ry)), threads(BX, BY);
    const float *f = (const float *)fm, *u = (const float *)u_in;
    float *o = (float *)u_out;
    const int pdl = HOMG_PDL;
    const int mb = H->m == 2 ? homg_env_int("HOMG_HOMG_L2_MINB", huge ? 3 : 2)
                   : H->m    ? homg_env_int("HOMG_HOMG_L1_MINB", large ? 3 : 2)
                             : 2;
    if (H->m == 2 && ry == 4 && mb >= 3)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate2_vec4_kernel<4, 4>, *L, *H, f, u, o);
    else if (H->m == 2 && ry == 4)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate2_vec4_kernel<4, 2>, *L, *H, f, u, o);
    else if (H->m == 2 && mb >= 3)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate2_vec4_kernel<8, 3>, *L, *H, f, u, o);
    else if (H->m == 2)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate2_vec4_kernel<8, 2>, *L, *H, f, u, o);
    else if (H->m == 1 && ry == 4 && mb == 3)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate1_vec4_kernel<4, 3>, *L, *H, f, u, o);
    else if (H->m == 1 && ry == 4 && mb == 4)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate1_vec4_kernel<4, 4>, *L, *H, f, u, o);
    else if (H->m == 1 && ry == 4)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate1_vec4_kernel<4, 2>, *L, *H, f, u, o);
    else if (H->m == 1 && mb == 3)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate1_vec4_kernel<8, 3>, *L, *H, f, u, o);
    else if (H->m == 1)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate1_vec4_kernel<8, 2>, *L, *H, f, u, o);
    else if (ry == 4)
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate0_vec4_kernel<4>, *L, *H, f, u, o);
    else
        homg_pdl_launch(s, blocks, threads, pdl, homg_iterate0_vec4_kernel<8>, *L, *H, f, u, o);
    return H->m == 2 ? "homg_iterate2_vec4_kernel" : H->m ? "homg_iterate1_vec4_kernel" : "homg_iterate0_vec4_kernel";
}
#endif
