/* ctx.c -- the context every subcommand makes from its --backend option. */
#include <stdio.h>
#include <string.h>

#include "tool.h"

homg_ctx *homg_tool_ctx(const char *backend_name)
{
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    char msg[512];
    if (!backend_name || !strcmp(backend_name, "auto"))
        d.backend = HOMG_BACKEND_AUTO;
    else if (!strcmp(backend_name, "cpu"))
        d.backend = HOMG_BACKEND_CPU;
    else if (!strcmp(backend_name, "cuda"))
        d.backend = HOMG_BACKEND_CUDA;
    else {
        fprintf(stderr, "homg: --backend must be cpu, cuda or auto, not '%s'\n", backend_name);
        return NULL;
    }
    if (homg_ctx_create_msg(&d, &ctx, msg, sizeof msg) != HOMG_OK) {
        fprintf(stderr, "homg: %s\n", msg);
        return NULL;
    }
    return ctx;
}

int homg_cmd_version(int argc, char **argv)
{
    homg_ctx *ctx;
    if (argc > 1 && homg_tool_is_help(argv[1])) {
        printf("usage: homg version\n\nPrints the library's version and the backend a context would use.\n");
        return 0;
    }
    if (argc > 1)
        return homg_tool_unknown_option("homg version", argv[1]);
    printf("homg %s\n", homg_version_string());
    ctx = homg_tool_ctx("auto");
    if (!ctx)
        return 1;
    printf("backend: %s\n", homg_ctx_device_name(ctx));
    homg_ctx_destroy(ctx);
    return 0;
}
