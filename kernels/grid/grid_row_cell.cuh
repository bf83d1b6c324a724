/* grid_row_cell.cuh -- one cell of a float32 box level for the row-block fused
 * steps (grid_rows.cu): the relaxed value and the
 * residual, the edge corrections applied where the cell touches the domain edge. */
#ifndef HOMG_GRID_ROW_CELL_CUH
#define HOMG_GRID_ROW_CELL_CUH

#include "grid_point.cuh"

/* The level's stencil in float: 1 / h^2 and the inverse diagonals of an interior
 * cell and of cells touching one or two edges. */
struct row_const {
    float ih2, idiag, id1, id2;
};

__device__ __forceinline__ row_const row_const_of(const grid_level &L)
{
    row_const K;
    K.ih2 = (float)L.inv_h2;
    K.idiag = (float)(1.0 / (4 * L.inv_h2 + L.lambda));
    K.id1 = (float)(1.0 / (5 * L.inv_h2 + L.lambda));
    K.id2 = (float)(1.0 / (6 * L.inv_h2 + L.lambda));
    return K;
}

/* Cell gi of row gj relaxed: rhs and inverse diagonal corrected at the domain edge
 * (only looked for where edge is set). */
__device__ __forceinline__ float row_cell(const grid_level &L, const row_const &K, float f, float xl, float xr,
                                          float yd, float yu, int gi, int gj, bool edge)
{
    float rhs = f + K.ih2 * ((xl + xr) + (yd + yu));
    float id = K.idiag;
    if (edge) {
        const int e = homg_edges_touched(gi, gj, L.nx, L.ny);
        if (e) {
            rhs += (float)bterm_at<float>(L, gi, gj);
            id = e == 1 ? K.id1 : e == 2 ? K.id2 : (float)(1.0 / ((4 + e) * L.inv_h2 + L.lambda));
        }
    }
    return rhs * id;
}

/* f + bterm - A u of one cell (ih2, lam: the level's in float). */
__device__ __forceinline__ float row_res1(const grid_level &L, float ih2, float lam, float f, float c, float xl,
                                          float xr, float yd, float yu, int gi, int gj)
{
    if (!homg_edges_touched(gi, gj, L.nx, L.ny))
        return f + ih2 * (((xl - c) + (xr - c)) + ((yd - c) + (yu - c))) - lam * c;
    const float dd = (gi > 0 ? xl - c : -2 * c) + (gi < L.nx - 1 ? xr - c : -2 * c) + (gj > 0 ? yd - c : -2 * c) +
                     (gj < L.ny - 1 ? yu - c : -2 * c);
    return f + ih2 * dd - lam * c + (float)bterm_at<float>(L, gi, gj);
}

#endif
