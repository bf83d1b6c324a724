/* test_island.c -- the singular-island labelling of the general grid (lib/grid/
 * islands.c, CPU kernels) against breadth-first search from the definition
 * (tests/util/island_ref.c) on random classes: 2D and 3D, every side kind,
 * masks from none to near percolation, FIXED cells, per-cell lambda. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "island_ref.h"

static void labels_match_bfs(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    int with_islands, several;
    (void)state;
    assert_int_equal(island_check_classes(ctx, 400, &with_islands, &several), 0);
    /* the classes reach what they are for */
    assert_true(with_islands > 100);
    assert_true(several > 20);
    homg_ctx_destroy(ctx);
}

/* The serpentine corridor and a dense mask at full size on the CPU too. */
static void big_grids(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    (void)state;
    assert_int_equal(island_check_big(ctx, 1, 5, 4), 0);
    homg_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(labels_match_bfs), cmocka_unit_test(big_grids) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
