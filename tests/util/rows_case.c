/* rows_case.c -- see rows_case.h. */
#include "rows_case.h"
#include "core/internal.h"
#include "devcopy.h"
#include "fem/fem_kernels.h"
#include "mesh/mesh_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, homg_ctx *ctx)
{
    fprintf(stderr, "refined rows: %s%s%s\n", what, ctx ? ": " : "", ctx ? homg_ctx_last_error(ctx) : "");
    abort();
}

/* The definition: row_ptr (n + 1) and col_idx of the sorted unique pairs. */
static int32_t definition(int nv, int32_t n, int32_t ne, const int32_t *el, int32_t **rp, int32_t **ci)
{
    size_t m = (size_t)ne * nv * nv + (size_t)n, u = 0;
    uint64_t *k = (uint64_t *)malloc(m * 8), *tmp = (uint64_t *)malloc(m * 8);
    for (int32_t e = 0; e < ne; e++)
        for (int a = 0; a < nv; a++)
            for (int b = 0; b < nv; b++)
                k[u++] = ((uint64_t)el[(size_t)e * nv + a] << 32) | (uint32_t)el[(size_t)e * nv + b];
    for (int32_t i = 0; i < n; i++)
        k[u++] = ((uint64_t)i << 32) | (uint32_t)i;
    homg_cpu_sort_u64(k, tmp, m, 64); /* qsort takes seconds for the refined irregular3d asset */
    free(tmp);
    *rp = (int32_t *)calloc((size_t)n + 1, 4);
    *ci = (int32_t *)malloc(m * 4);
    u = 0;
    for (size_t t = 0; t < m; t++) {
        if (t > 0 && k[t] == k[t - 1])
            continue;
        (*rp)[(k[t] >> 32) + 1]++;
        (*ci)[u++] = (int32_t)(k[t] & 0xffffffffu);
    }
    for (int32_t i = 0; i < n; i++)
        (*rp)[i + 1] += (*rp)[i];
    free(k);
    return (int32_t)u;
}

int32_t homg_test_refined_pattern(homg_ctx *ctx, const homg_mesh *cm, const homg_mesh *fm, int swap)
{
    const fem_kernels *k = HOMG_KERNELS(&ctx->ex, fem);
    int dim = homg_mesh_dim(fm), nv = dim + 1;
    int32_t n = homg_mesh_num_nodes(fm), ne = homg_mesh_num_elements(fm), nc = homg_mesh_num_nodes(cm), nnz = 0;
    int32_t *el = (int32_t *)malloc((size_t)ne * nv * 4), *rp = NULL, *ci = NULL, *wrp = NULL, *wci = NULL, want;
    int shift = homg_cpu_sort_bits_for((uint64_t)(n > 1 ? n - 1 : 1));
    uint64_t *edges = NULL;
    size_t u = 0, cap, tb = 0;
    fem_problem p;
    void *d_edges, *d_el, *keys, *alt, *temp, *d_rp, *d_ci;
    memcpy(el, homg_mesh_elements(fm), (size_t)ne * nv * 4);
    if (swap)
        for (int i = 0; i < nv; i++) { /* the first and the last child: not children of one element */
            int32_t t = el[i];
            el[i] = el[(size_t)(ne - 1) * nv + i];
            el[(size_t)(ne - 1) * nv + i] = t;
        }
    want = swap ? 0 : definition(nv, n, ne, el, &wrp, &wci);
    if (homg__mesh_edges(ctx, cm, &edges, &u) != HOMG_OK)
        die("edges", ctx);
    memset(&p, 0, sizeof p);
    p.dim = dim;
    p.num_nodes = p.num_dofs = n;
    p.num_elements = ne;
    p.nd = nv;
    d_el = homg_test_up(ctx, el, (size_t)ne * nv * 4);
    d_edges = homg_test_up(ctx, edges, u * 8);
    p.dofs = p.elements = (const int32_t *)d_el;
    cap = fem_pattern_first_keys(&p);
    keys = homg_test_up(ctx, NULL, cap * 8);
    alt = homg_test_up(ctx, NULL, cap * 8);
    d_rp = homg_test_up(ctx, NULL, ((size_t)n + 1) * 4);
    if (k->pattern_temp_bytes(&ctx->ex, cap, 2 * shift, &tb) != HOMG_OK)
        die("temp bytes", ctx);
    temp = homg_test_up(ctx, NULL, tb);
    if (k->pattern_refined(&ctx->ex, &p, (const uint64_t *)d_edges, (int32_t)u, nc, shift, (uint64_t *)keys,
                           (uint64_t *)alt, cap, temp, tb, &nnz) != HOMG_OK)
        die("pattern_refined", ctx);
    if (nnz > 0) {
        if (swap || nnz != want)
            die(swap ? "swapped children not refused" : "nnz differs from the definition", NULL);
        rp = (int32_t *)malloc(((size_t)n + 1) * 4);
        ci = (int32_t *)malloc((size_t)nnz * 4);
        d_ci = homg_test_up(ctx, NULL, (size_t)nnz * 4);
        if (k->pattern_csr(&ctx->ex, (const uint64_t *)keys, nnz, shift, n, (int32_t *)d_rp, (int32_t *)d_ci) !=
            HOMG_OK)
            die("pattern_csr", ctx);
        homg_test_down(ctx, rp, d_rp, ((size_t)n + 1) * 4);
        homg_test_down(ctx, ci, d_ci, (size_t)nnz * 4);
        if (memcmp(rp, wrp, ((size_t)n + 1) * 4) || memcmp(ci, wci, (size_t)nnz * 4))
            die("row pointers or columns differ from the definition", NULL);
        homg_free(ctx, d_ci);
    } else if (!swap) {
        die("a refinement's rows refused", NULL);
    }
    homg_free(ctx, d_el);
    homg_free(ctx, d_edges);
    homg_free(ctx, keys);
    homg_free(ctx, alt);
    homg_free(ctx, d_rp);
    homg_free(ctx, temp);
    free(edges);
    free(el);
    free(rp);
    free(ci);
    free(wrp);
    free(wci);
    return nnz;
}
