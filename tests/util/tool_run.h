/* tool_run.h -- running the built `homg` tool from a test. */
#ifndef HOMG_TOOL_RUN_H
#define HOMG_TOOL_RUN_H

#include <stddef.h>

/* Runs `tool ARGS` (a shell command line, stderr merged into stdout), keeps up to
 * len - 1 bytes of what it printed in out (NUL-terminated), echoes the command and the
 * output, and returns its exit status (-1 when it did not exit normally). */
int homg_test_tool_run(const char *tool, const char *args, char *out, size_t len);

#endif
