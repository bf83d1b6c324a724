/* toolrun.h -- running the built `homg` tool from a test: its exit status, and
 * what it printed on stdout and on stderr, kept apart. */
#ifndef HOMG_TOOLRUN_H
#define HOMG_TOOLRUN_H

#include <stddef.h>

typedef struct homg_tool_run {
    int status;        /* exit status; -1 when it did not exit normally (a signal, a sanitizer abort) */
    char out[1 << 16]; /* stdout (truncated beyond) */
    char err[1 << 14]; /* stderr */
} homg_tool_run;

/* Runs `tool ARGS` through the shell (ARGS is a shell command line) and fills r;
 * prints the command, its status and output for the test's log. */
void homg_test_tool(const char *tool, const char *args, homg_tool_run *r);

/* The same with ARGS formatted printf-style; returns 0, or -1 when stderr holds
 * a sanitizer report (ASan, UBSan "runtime error"), which a test must fail on. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int homg_test_toolf(const char *tool, homg_tool_run *r, const char *fmt, ...);

/* A test program's set-up: the tool must be built (run from the repository
 * root), and a fresh /tmp/homg_<tag>_XXXXXX goes to dir.  0, or -1 with the
 * reason on stderr. */
int homg_test_tool_setup(const char *program, const char *tool, char *dir, size_t len, const char *tag);

/* 1 when the run's stderr holds no sanitizer report. */
int homg_tool_run_clean(const homg_tool_run *r);

#endif
