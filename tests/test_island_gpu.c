/* test_island_gpu.c -- the CUDA island labelling (kernels/grid/island.cu)
 * against breadth-first search from the definition, the same random classes as
 * test_island.c plus grids large enough for many blocks and hooking rounds.
 * Skips (exit 77) without a CUDA device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>

#include "core/internal.h"
#include "grid/island_kernels.h"
#include "devcopy.h"
#include "island_ref.h"

#if HOMG_HAVE_CUDA
/* The init kernel (run links by the warps' ballots) against its CPU twin, cell
 * for cell, on the random classes' masks: rows of any length (not multiples of
 * 32, shorter than a warp), 3D, cell counts off the warp size. */
static void init_matches_cpu(void **state)
{
    homg_ctx *gpu = homg_test_ctx(HOMG_BACKEND_CUDA), *cpu = homg_test_ctx_1thread(HOMG_BACKEND_CPU);
    homg_rng rng = homg_rng_seed(7);
    (void)state;
    for (int k = 0; k < 200; k++) {
        island_case c;
        island_grid g = { 0 };
        island_case_make(&c, k, &rng);
        g.nx = c.desc.nx, g.ny = c.desc.ny > 0 ? c.desc.ny : 1, g.nz = c.desc.nz > 0 ? c.desc.nz : 1;
        g.dims = g.nz > 1 ? 3 : 2;
        const size_t n = (size_t)g.nx * g.ny * g.nz;
        int *lg = malloc(n * sizeof(int)), *lc = malloc(n * sizeof(int)), *ag = malloc(n * sizeof(int)),
            *ac = malloc(n * sizeof(int));
        void *fg = c.flags ? homg_test_up(gpu, c.flags, n) : NULL, *dl = homg_test_up(gpu, NULL, n * sizeof(int));
        void *da = homg_test_up(gpu, NULL, n * sizeof(int));
        assert_int_equal(homg_cuda_island_init(&gpu->ex, &g, fg, dl, da), HOMG_OK);
        homg_test_down(gpu, lg, dl, n * sizeof(int));
        homg_test_down(gpu, ag, da, n * sizeof(int));
        assert_int_equal(homg_cpu_island_init(&cpu->ex, &g, c.flags, lc, ac), HOMG_OK);
        for (size_t i = 0; i < n; i++)
            if (lg[i] != lc[i] || ag[i] != 0)
                fail_msg("%s: cell %zu: init label %d (CUDA) against %d (CPU), aux %d", c.name, i, lg[i], lc[i], ag[i]);
        homg_free(gpu, fg);
        homg_free(gpu, dl);
        homg_free(gpu, da);
        free(lg), free(lc), free(ag), free(ac);
        island_case_free(&c);
    }
    homg_ctx_destroy(gpu);
    homg_ctx_destroy(cpu);
}
#endif

static void labels_match_bfs(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    int with_islands, several;
    (void)state;
    assert_int_equal(island_check_classes(ctx, 400, &with_islands, &several), 0);
    homg_ctx_destroy(ctx);
}

/* Big grids: one island over millions of cells (keyed sums across blocks), a
 * dense mask with thousands of islands, a 3D periodic box. */
static void big_grids(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CUDA);
    (void)state;
    assert_int_equal(island_check_big(ctx, 0, 5, 1), 0);
    homg_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#if HOMG_HAVE_CUDA
        cmocka_unit_test(init_matches_cpu),
#endif
        cmocka_unit_test(labels_match_bfs),
        cmocka_unit_test(big_grids)
    };
    homg_test_require_gpu("test_island_gpu");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
