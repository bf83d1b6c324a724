/* test_island.c -- the singular-island labelling of the general grid (lib/grid/
 * islands.c, CPU kernels) against breadth-first search from the definition
 * (tests/util/island_ref.c) on random classes: 2D and 3D, every side kind,
 * masks from none to near percolation, FIXED cells, per-cell lambda. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>

#include "island_ref.h"

static void labels_match_bfs(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    homg_rng rng = homg_rng_seed(20261126);
    int bad = 0, with_islands = 0, several = 0;
    (void)state;
    for (int k = 0; k < 400; k++) {
        island_case c;
        island_case_make(&c, k, &rng);
        bad += island_case_check(ctx, &c);
        with_islands += c.nisl > 0;
        several += c.nisl > 3;
        island_case_free(&c);
    }
    printf("400 cases: %d with singular islands, %d with more than 3\n", with_islands, several);
    assert_int_equal(bad, 0);
    /* the classes reach what they are for */
    assert_true(with_islands > 100);
    assert_true(several > 20);
    homg_ctx_destroy(ctx);
}

/* The serpentine corridor and a dense mask at full size on the CPU too. */
static void big_grids(void **state)
{
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    homg_rng rng = homg_rng_seed(7);
    int bad = 0;
    (void)state;
    for (int k = 1; k <= 5; k += 4) {
        island_case c;
        island_case_big(&c, k, &rng);
        bad += island_case_check(ctx, &c);
        printf("%s: %d islands\n", c.name, c.nisl);
        island_case_free(&c);
    }
    assert_int_equal(bad, 0);
    homg_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(labels_match_bfs), cmocka_unit_test(big_grids) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
