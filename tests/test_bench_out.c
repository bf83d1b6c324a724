/* test_bench_out.c -- a benchmark writes no file unless told: run from a folder that
 * holds bench/results/ with the hand-written tables benchmarks used to overwrite,
 * bench_gmg, bench_amg --cpu and bench_fluid --cpu (those that run without a GPU)
 * leave every one of them as it was and make no file, print their table on stdout,
 * write it to the file --out names, and stop at once (status 1) when that file cannot
 * be written.  The benchmarks of the same build: HOMG_BENCH_PATH from the Makefile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "toolrun.h"

#ifndef HOMG_BENCH_PATH
#error "the Makefile passes HOMG_BENCH_PATH, the folder of the built benchmarks"
#endif

/* The tables under bench/results/ that some benchmark wrote by default before. */
static const char *const curated[] = {
    "h100.md",     "h100_grid_general.md", "h100_gmg.md",        "cpu_gmg.md",
    "h100_amg.md", "cpu_amg.md",           "h100_amg_family.md", "cpu_amg_family.md",
    "h100_fem.md", "h100_fft.md",          "h100_image.md",      "h100_view.md",
};
#define NUM_CURATED (sizeof curated / sizeof curated[0])
static const char sentinel[] = "hand-written section\n";

static char dir[64], results[128];
static homg_tool_run r;

/* Number of entries in folder d (without . and ..). */
static int entries(const char *d)
{
    DIR *h = opendir(d);
    struct dirent *e;
    int n = 0;
    assert_non_null(h);
    while ((e = readdir(h)) != NULL)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(h);
    return n;
}

static int file_has(const char *path, const char *text)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (!f)
        return 0;
    fclose(f);
    buf[n] = 0;
    return strstr(buf, text) != NULL;
}

/* Every curated table still holds its sentinel alone, and the folder has nothing else. */
static void results_untouched(void)
{
    for (size_t k = 0; k < NUM_CURATED; k++) {
        const char *p = homg_test_path(results, curated[k]);
        struct stat st;
        if (!file_has(p, sentinel) || stat(p, &st) != 0 || st.st_size != (off_t)strlen(sentinel))
            fail_msg("%s was changed", p);
    }
    assert_int_equal(entries(results), (int)NUM_CURATED);
    assert_int_equal(entries(dir), 1); /* bench/ alone: no file beside it */
}

/* Runs `BENCH ARGS` with the temporary folder as its working directory. */
static void run_bench(const char *bench, const char *args)
{
    char tool[PATH_MAX + 160], abs[PATH_MAX];
    if (!realpath(HOMG_BENCH_PATH, abs))
        fail_msg("%s: not built", HOMG_BENCH_PATH);
    snprintf(tool, sizeof tool, "cd %s && %s/%s", dir, abs, bench);
    homg_test_tool(tool, args, &r);
    assert_true(homg_tool_run_clean(&r));
}

static const struct {
    const char *bench, *args, *header;
} runs[] = {
    { "bench_gmg", "--fast --no-rcm --dim 2 --levels 2 --reps 1", "| problem | smoother |" },
    { "bench_amg", "--cpu --sizes 9 --reps 1", "| problem | method | iterations |" },
    /* no size of its list: the table's head alone (a full CPU run takes a minute) */
    { "bench_fluid", "--cpu --size 7", "| size | box | projection |" },
};
#define NUM_RUNS (sizeof runs / sizeof runs[0])

static void table_on_stdout_no_file(void **state)
{
    (void)state;
    for (size_t k = 0; k < NUM_RUNS; k++) {
        run_bench(runs[k].bench, runs[k].args);
        assert_int_equal(r.status, 0);
        if (!strstr(r.out, runs[k].header))
            fail_msg("%s: no table on stdout", runs[k].bench);
        results_untouched();
    }
}

static void out_writes_the_named_file(void **state)
{
    char args[256];
    (void)state;
    for (size_t k = 0; k < NUM_RUNS; k++) {
        const char *t = homg_test_path(dir, "table.md");
        snprintf(args, sizeof args, "%s --out table.md", runs[k].args);
        run_bench(runs[k].bench, args);
        assert_int_equal(r.status, 0);
        if (!file_has(t, runs[k].header))
            fail_msg("%s --out table.md: no table in %s", runs[k].bench, t);
        assert_non_null(strstr(r.out, runs[k].header)); /* stdout has it too */
        assert_int_equal(remove(t), 0);
        results_untouched();
    }
}

static void unwritable_out_stops_at_once(void **state)
{
    char args[256];
    (void)state;
    for (size_t k = 0; k < NUM_RUNS; k++) {
        snprintf(args, sizeof args, "%s --out no/such/folder/table.md", runs[k].args);
        run_bench(runs[k].bench, args);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "cannot write no/such/folder/table.md"));
        assert_null(strstr(r.out, runs[k].header)); /* nothing measured */
        results_untouched();
    }
}

static int setup(void **state)
{
    char bench[96];
    (void)state;
    if (homg_test_mkdtemp(dir, sizeof dir, "bench_out") != 0)
        return -1;
    snprintf(bench, sizeof bench, "%s/bench", dir);
    snprintf(results, sizeof results, "%s/results", bench);
    if (mkdir(bench, 0755) != 0 || mkdir(results, 0755) != 0)
        return -1;
    for (size_t k = 0; k < NUM_CURATED; k++) {
        FILE *f = fopen(homg_test_path(results, curated[k]), "w");
        if (!f)
            return -1;
        fputs(sentinel, f);
        fclose(f);
    }
    return 0;
}

static int teardown(void **state)
{
    char bench[96];
    (void)state;
    for (size_t k = 0; k < NUM_CURATED; k++)
        remove(homg_test_path(results, curated[k]));
    snprintf(bench, sizeof bench, "%s/bench", dir);
    return rmdir(results) || rmdir(bench) || rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_on_stdout_no_file),
        cmocka_unit_test(out_writes_the_named_file),
        cmocka_unit_test(unwritable_out_stops_at_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
