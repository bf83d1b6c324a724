/* tool_run.c -- see tool_run.h. */
#include "tool_run.h"

#include <stdio.h>
#include <sys/wait.h>

int homg_test_tool_run(const char *tool, const char *args, char *out, size_t len)
{
    char cmd[2048];
    size_t n = 0, got;
    FILE *p;
    int status;
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", tool, args);
    p = popen(cmd, "r");
    if (!p)
        return -1;
    while (n + 1 < len && (got = fread(out + n, 1, len - 1 - n, p)) > 0)
        n += got;
    out[n] = 0;
    while (fgetc(p) != EOF) /* drain anything beyond the buffer */
        ;
    status = pclose(p);
    printf("$ %s %s -> %d\n%s", tool, args, WIFEXITED(status) ? WEXITSTATUS(status) : -1, out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
