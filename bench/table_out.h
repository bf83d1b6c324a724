/* table_out.h -- where a benchmark's markdown table goes.  The table always goes to
 * stdout; a file only when the caller names one (--out FILE).  The files under
 * bench/results/ hold hand-written sections of earlier sessions, so no benchmark
 * writes there by itself, whatever the GPU or the working directory. */
#ifndef HOMG_BENCH_TABLE_OUT_H
#define HOMG_BENCH_TABLE_OUT_H

#include <stdio.h>

/* The file named by --out opened for writing (the caller named it, so an existing one
 * is replaced), or NULL after a line on stderr naming it.  main() opens it before
 * measuring and exits with 1 when it cannot (path && !file), so a bad path fails at
 * once, not after the run. */
FILE *table_out_open(const char *path, const char *program);

/* printf to stdout, and the same to f unless f is NULL: for benchmarks that print their
 * rows as they come (stdout is flushed, so a cut-off run shows how far it got). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void table_out_printf(FILE *f, const char *fmt, ...);

/* Closes f (NULL: nothing) and prints "wrote PATH" on stdout. */
void table_out_close(FILE *f, const char *path);

#endif
