/* read.c -- homg_mesh_read: picks the reader from the file name. */
#include "mesh_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* BASE.node + BASE.ele, and BASE.edge / BASE.face where they exist. */
static homg_status read_nodeele(homg_ctx *ctx, const char *path, size_t base_len, homg_mesh **out)
{
    static const char *const ext[4] = { ".node", ".ele", ".edge", ".face" };
    char *name[4] = { NULL, NULL, NULL, NULL };
    line_reader r[4];
    int open[4] = { 0, 0, 0, 0 };
    homg_status st = HOMG_OK;
    memset(r, 0, sizeof r);
    for (int k = 0; k < 4 && st == HOMG_OK; k++) {
        name[k] = (char *)malloc(base_len + 8);
        if (!name[k]) {
            st = homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_mesh_read: out of host memory");
            break;
        }
        memcpy(name[k], path, base_len);
        strcpy(name[k] + base_len, ext[k]);
        if (k >= 2 && access(name[k], R_OK) != 0)
            continue; /* boundary files are optional */
        st = homg__lines_open(ctx, &r[k], name[k]);
        open[k] = st == HOMG_OK;
    }
    if (st == HOMG_OK)
        st = homg__read_nodeele(ctx, &r[0], &r[1], open[2] ? &r[2] : NULL, open[3] ? &r[3] : NULL, out);
    for (int k = 0; k < 4; k++) {
        if (open[k])
            homg__lines_close(&r[k]);
        free(name[k]);
    }
    return st;
}

homg_status homg_mesh_read(homg_ctx *ctx, const char *path, homg_mesh **out)
{
    line_reader r;
    homg_status st;
    HOMG_TRY(homg__begin(ctx, "homg_mesh_read", out ? NULL : "out"));
    *out = NULL;
    if (!path)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_mesh_read: path is NULL");
    if (ends_with(path, ".node"))
        return read_nodeele(ctx, path, strlen(path) - 5, out);
    if (ends_with(path, ".ele"))
        return read_nodeele(ctx, path, strlen(path) - 4, out);
    /* .msh, .msh.gz, and anything else: the .msh reader says when it is not one */
    HOMG_TRY(homg__lines_open(ctx, &r, path));
    st = homg__read_msh(&r, out);
    homg__lines_close(&r);
    return st;
}
