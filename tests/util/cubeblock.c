/* cubeblock.c -- the cube block's test tables (cubeblock.h). */
#include "cubeblock.h"
#include "cubecase.h"
#include "grid/cube_point.h"
#include "grid/gen_point.h"

#include <stdlib.h>
#include <string.h>

size_t cube_block_cells(const cube_block *B, int q)
{
    if (q == B->n - 1)
        return (size_t)B->coarsest.nx * B->coarsest.ny * B->coarsest.nz;
    return (size_t)B->K[q].nx * B->K[q].ny * B->K[q].nz;
}

int cube_block_case(kernel_exec *ex, int t, int nx, int ny, int nz, int levels, float omega, int first, int pre,
                    int post, uint64_t seed, cube_block *B)
{
    gen_level L, C;
    homg_rng rng = homg_rng_seed(seed);
    memset(B, 0, sizeof *B);
    cube_case_level(t, &L, &C);
    L.nx = nx, L.ny = ny, L.nz = nz;
    B->n = levels;
    B->first = first;
    for (int q = 0; q + 1 < levels; q++) {
        if (!cube_from_gen(&L, &B->K[q]))
            return 0;
        B->K[q].omega = omega;
        B->pre[q] = pre, B->post[q] = post;
        memset(&C, 0, sizeof C);
        C.nx = L.nx / 2, C.ny = L.ny / 2, C.nz = L.nz / 2, C.uniform = 1;
        gen_uniform_coarse(&L, &C, 0);
        L = C;
    }
    B->coarsest = L;
    for (int q = 0; q < levels; q++) {
        B->x[q] = cube_case_random(cube_block_cells(B, q), &rng);
        B->b[q] = cube_case_random(cube_block_cells(B, q), &rng);
    }
    {
        const size_t n = cube_block_cells(B, levels - 1);
        float *cm = (float *)malloc(n * n * sizeof(float));
        if (homg_cpu_gen_coarse_matrix(ex, HOMG_FLOAT32, &B->coarsest, 40, cm) != HOMG_OK) {
            free(cm);
            return 0;
        }
        B->cm = cm;
    }
    return 1;
}

homg_status cube_block_steps(kernel_exec *ex, const cube_kernels *Q, const gen_kernels *G, const cube_block *B)
{
    const int c = B->n - 1;
    for (int q = 0; q < c; q++) {
        HOMG_TRY(Q->pre(ex, &B->K[q], B->x[q], B->b[q]));
        for (int h = 2; h < 2 * B->pre[q]; h++)
            HOMG_TRY(Q->sweep(ex, &B->K[q], B->x[q], B->b[q], h & 1));
        HOMG_TRY(Q->residual_restrict(ex, &B->K[q], B->x[q], B->b[q], B->b[q + 1]));
    }
    HOMG_TRY(G->coarse_apply(ex, HOMG_FLOAT32, &B->coarsest, B->cm, B->x[c], B->b[c]));
    for (int q = c - 1; q >= 0; q--) {
        cube_level gs = B->K[q];
        gs.omega = 1.0f;
        HOMG_TRY(Q->prolong_smooth(ex, &B->K[q], B->x[q + 1], B->x[q], B->b[q], B->first));
        for (int h = 1; h < 2 * B->post[q]; h++)
            HOMG_TRY(Q->sweep(ex, h == 1 ? &gs : &B->K[q], B->x[q], B->b[q], (h + B->first) & 1));
    }
    return HOMG_OK;
}

static const struct {
    int t, nx, ny, nz, levels;
    float omega;
    int first, pre, post;
} cfg[] = { { 3, 16, 16, 16, 3, 1.1f, 0, 2, 2 }, { 9, 16, 8, 8, 3, 1.0f, 1, 1, 3 },
            { 14, 8, 8, 8, 2, 1.1f, 0, 2, 2 },   { 15, 32, 32, 16, 4, 1.0f, 1, 2, 2 },
            { 10, 8, 32, 16, 3, 1.1f, 0, 3, 1 }, { 6, 16, 16, 16, 3, 1.0f, 1, 2, 2 } };

int cube_block_count(void) { return (int)(sizeof cfg / sizeof cfg[0]); }

int cube_block_nth(kernel_exec *ex, int i, uint64_t seed, cube_block *B)
{
    return cube_block_case(ex, cfg[i].t, cfg[i].nx, cfg[i].ny, cfg[i].nz, cfg[i].levels, cfg[i].omega, cfg[i].first,
                           cfg[i].pre, cfg[i].post, seed, B);
}

void cube_block_case_free(cube_block *B)
{
    for (int q = 0; q < B->n; q++)
        free(B->x[q]), free(B->b[q]);
    free((void *)B->cm);
    memset(B, 0, sizeof *B);
}

int cube_case_exact(int t, int q, cube_level *K, cube_exact *E)
{
    gen_level L[2];
    cube_case_level(t, &L[0], &L[1]);
    if (!cube_from_gen(&L[q], K) || K->nx > CUBE_EXACT_N || K->ny > CUBE_EXACT_N || K->nz > CUBE_EXACT_N)
        return 0;
    return cube_exact_of(K, E) ? 1 : -1;
}

static const int sep_sizes[][3] = { { 64, 64, 64 }, { 64, 32, 48 }, { 32, 32, 32 }, { 16, 64, 8 }, { 4, 8, 12 } };
#define SEP_SIZES ((int)(sizeof sep_sizes / sizeof sep_sizes[0]))

int cube_sep_count(void) { return 3 * SEP_SIZES; }

int cube_sep_case(int t, cube_level *K, float *tables)
{
    gen_level L, C;
    cube_case_sized(sep_sizes[t % SEP_SIZES], t / SEP_SIZES, &L, &C);
    return cube_from_gen(&L, K) && cube_sep_tables(K, tables);
}

/* Levels a cluster of 8 or 16 blocks takes (cube_cluster.h): ny, nz multiples of 8 / 16. */
static const int clu_sizes[][3] = { { 32, 32, 32 }, { 16, 32, 16 }, { 32, 16, 32 },
                                    { 12, 16, 32 }, { 8, 8, 8 },    { 20, 24, 8 } };
#define CLU_SIZES ((int)(sizeof clu_sizes / sizeof clu_sizes[0]))

int cube_clu_count(void) { return 3 * CLU_SIZES; }

int cube_clu_case(int t, cube_level *K, float *tables, cube_clu *C)
{
    gen_level L, Lc;
    cube_case_sized(clu_sizes[t % CLU_SIZES], t / CLU_SIZES, &L, &Lc);
    return cube_from_gen(&L, K) && cube_cluster_tables(K, 1, tables, C);
}
