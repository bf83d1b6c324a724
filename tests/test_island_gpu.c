/* test_island_gpu.c -- the CUDA island labelling (kernels/grid/island.cu)
 * against breadth-first search from the definition, the same random classes as
 * test_island.c plus grids large enough for many blocks and hooking rounds.
 * Skips (exit 77) without a CUDA device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "island_ref.h"

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
    const struct CMUnitTest tests[] = { cmocka_unit_test(labels_match_bfs), cmocka_unit_test(big_grids) };
    homg_test_require_gpu("test_island_gpu");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
