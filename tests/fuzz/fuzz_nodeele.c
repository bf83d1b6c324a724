/* fuzz_nodeele.c -- libFuzzer target for the Triangle/TetGen reader.  The input
 * holds the .node, .ele and (optional) .edge/.face texts separated by lines
 * "%%"; the third part is offered as both .edge and .face. */
#include "fuzz.h"
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "mesh/mesh_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    line_reader r[4];
    homg_mesh *m = NULL;
    const uint8_t *part[3] = { data, NULL, NULL };
    size_t len[3] = { size, 0, 0 };
    int parts = 1;
    /* split at "\n%%\n" */
    for (size_t i = 0; i + 4 <= size && parts < 3; i++)
        if (!memcmp(data + i, "\n%%\n", 4)) {
            len[parts - 1] = i + 1 - (size_t)(part[parts - 1] - data);
            part[parts] = data + i + 4;
            len[parts] = size - (i + 4);
            parts++;
            i += 3;
        }
    if (parts < 2)
        return 0;
    d.backend = HOMG_BACKEND_CPU;
    if (homg_ctx_create(&d, &ctx) != HOMG_OK)
        return 0;
    homg__lines_open_memory(ctx, &r[0], "fuzz.node", part[0], len[0]);
    homg__lines_open_memory(ctx, &r[1], "fuzz.ele", part[1], len[1]);
    homg__lines_open_memory(ctx, &r[2], "fuzz.edge", part[2] ? part[2] : data, len[2]);
    homg__lines_open_memory(ctx, &r[3], "fuzz.face", part[2] ? part[2] : data, len[2]);
    if (homg__read_nodeele(ctx, &r[0], &r[1], parts == 3 ? &r[2] : NULL, parts == 3 ? &r[3] : NULL, &m) == HOMG_OK) {
        homg_mesh *fine = NULL;
        if (homg_mesh_num_elements(m) < 1000 && homg_mesh_refine(m, &fine) == HOMG_OK)
            homg_mesh_destroy(fine);
    }
    homg_mesh_destroy(m);
    for (int k = 0; k < 4; k++)
        homg__lines_close(&r[k]);
    homg_ctx_destroy(ctx);
    return 0;
}
