/* test_ctx.c -- the context: creation, bad descs, messages, memory helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "homg.h"
#include "testutil.h"

static void version_macros_match_runtime(void **state)
{
    (void)state;
    assert_int_equal(homg_version(), HOMG_VERSION);
    assert_non_null(strstr(homg_version_string(), "0.1.0"));
}

static void cpu_context_roundtrip(void **state)
{
    (void)state;
    homg_ctx *ctx = homg_test_ctx(HOMG_BACKEND_CPU);
    double host[5] = { 1, 2, 3, 4, 5 }, back[5] = { 0 };
    void *p = NULL;
    assert_int_equal(homg_ctx_backend(ctx), HOMG_BACKEND_CPU);
    assert_int_equal(homg_alloc(ctx, sizeof host, &p), HOMG_OK);
    assert_int_equal(homg_copy_from_host(ctx, p, host, sizeof host), HOMG_OK);
    assert_int_equal(homg_copy_to_host(ctx, back, p, sizeof back), HOMG_OK);
    assert_memory_equal(host, back, sizeof host);
    assert_int_equal(homg_ctx_synchronize(ctx), HOMG_OK);
    homg_free(ctx, p);
    homg_ctx_destroy(ctx);
}

static void bad_descs_are_refused_with_a_message(void **state)
{
    (void)state;
    homg_ctx *ctx = (homg_ctx *)0x1;
    char msg[256];
    homg_ctx_desc d = { 0 };
    d.backend = (homg_backend)42;
    assert_int_equal(homg_ctx_create_msg(&d, &ctx, msg, sizeof msg), HOMG_ERROR_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_non_null(strstr(msg, "desc.backend"));

    memset(&d, 0, sizeof d);
    d.backend = HOMG_BACKEND_CPU;
    d.allocator.user = NULL;
    d.allocator.alloc = (void *(*)(size_t, void *))1; /* alloc without free */
    assert_int_equal(homg_ctx_create_msg(&d, &ctx, msg, sizeof msg), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "allocator"));

    memset(&d, 0, sizeof d);
    d.device = -3;
    assert_int_equal(homg_ctx_create_msg(&d, &ctx, msg, sizeof msg), HOMG_ERROR_INVALID_ARGUMENT);
    assert_int_equal(homg_ctx_create(&d, NULL), HOMG_ERROR_INVALID_ARGUMENT);
}

static void cuda_without_device_says_so(void **state)
{
    (void)state;
    homg_ctx *ctx = NULL;
    char msg[256];
    homg_ctx_desc d = { 0 };
    if (homg_cuda_available())
        skip();
    d.backend = HOMG_BACKEND_CUDA;
    homg_status st = homg_ctx_create_msg(&d, &ctx, msg, sizeof msg);
    assert_true(st == HOMG_ERROR_NO_DEVICE || st == HOMG_ERROR_UNSUPPORTED);
    assert_null(ctx);
    assert_true(strlen(msg) > 10);
}

static int allocs, frees;
static void *count_alloc(size_t n, void *user)
{
    (void)user;
    allocs++;
    return malloc(n);
}
static void count_free(void *p, void *user)
{
    (void)user;
    frees++;
    free(p);
}

static void callers_allocator_is_used(void **state)
{
    (void)state;
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    void *p = NULL;
    d.backend = HOMG_BACKEND_CPU;
    d.allocator.alloc = count_alloc;
    d.allocator.free = count_free;
    assert_int_equal(homg_ctx_create(&d, &ctx), HOMG_OK);
    assert_int_equal(homg_alloc(ctx, 100, &p), HOMG_OK);
    homg_free(ctx, p);
    assert_int_equal(allocs, 1);
    assert_int_equal(frees, 1);
    homg_ctx_destroy(ctx);
}

static int logged;
static void count_log(homg_log_level l, const char *m, void *u)
{
    (void)l;
    (void)m;
    (void)u;
    logged++;
}

static void errors_reach_the_log_and_message(void **state)
{
    (void)state;
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    d.backend = HOMG_BACKEND_CPU;
    d.log = count_log;
    assert_int_equal(homg_ctx_create(&d, &ctx), HOMG_OK);
    assert_int_equal(homg_copy_to_host(ctx, NULL, (void *)8, 8), HOMG_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(homg_ctx_last_error(ctx), "dst is NULL"));
    assert_true(logged >= 1);
    assert_string_equal(homg_status_string(HOMG_ERROR_DEVICE_LOST), "HOMG_ERROR_DEVICE_LOST");
    homg_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_macros_match_runtime),
        cmocka_unit_test(cpu_context_roundtrip),
        cmocka_unit_test(bad_descs_are_refused_with_a_message),
        cmocka_unit_test(cuda_without_device_says_so),
        cmocka_unit_test(callers_allocator_is_used),
        cmocka_unit_test(errors_reach_the_log_and_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
