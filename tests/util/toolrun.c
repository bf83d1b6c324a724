/* toolrun.c -- running the built `homg` tool from a test (toolrun.h). */
#include "toolrun.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

void homg_test_tool(const char *tool, const char *args, homg_tool_run *r)
{
    char dir[128], out[192], err[192], cmd[4096];
    int status;
    if (homg_test_mkdtemp(dir, sizeof dir, "toolrun") != 0) {
        fprintf(stderr, "homg_test_tool: cannot make a temporary directory\n");
        abort();
    }
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s", tool, args, out, err);
    status = system(cmd);
    r->status = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    slurp(out, r->out, sizeof r->out);
    slurp(err, r->err, sizeof r->err);
    remove(out);
    remove(err);
    rmdir(dir);
    printf("$ %s %s -> %d\n%s%s", strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool, args, r->status, r->out, r->err);
}

int homg_tool_run_clean(const homg_tool_run *r)
{
    return !strstr(r->err, "Sanitizer") && !strstr(r->err, "runtime error");
}

int homg_test_toolf(const char *tool, homg_tool_run *r, const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    homg_test_tool(tool, args, r);
    return homg_tool_run_clean(r) ? 0 : -1;
}

int homg_test_tool_setup(const char *program, const char *tool, char *dir, size_t len, const char *tag)
{
    if (access(tool, X_OK) != 0) {
        fprintf(stderr, "%s: %s is not there: build it and run this from the repository root\n", program, tool);
        return -1;
    }
    if (homg_test_mkdtemp(dir, len, tag) != 0) {
        fprintf(stderr, "%s: cannot make a temporary directory\n", program);
        return -1;
    }
    return 0;
}
