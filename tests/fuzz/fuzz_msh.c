/* fuzz_msh.c -- libFuzzer target for the Gmsh .msh reader (reads from memory). */
#include "fuzz.h"
#include <stdint.h>
#include <stddef.h>

#include "mesh/mesh_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    homg_ctx_desc d = { 0 };
    homg_ctx *ctx = NULL;
    line_reader r;
    homg_mesh *m = NULL;
    d.backend = HOMG_BACKEND_CPU;
    if (homg_ctx_create(&d, &ctx) != HOMG_OK)
        return 0;
    homg__lines_open_memory(ctx, &r, "fuzz.msh", data, size);
    if (homg__read_msh(&r, &m) == HOMG_OK) {
        homg_mesh_quality q;
        homg_mesh_get_quality(m, &q);
    }
    homg_mesh_destroy(m);
    homg__lines_close(&r);
    homg_ctx_destroy(ctx);
    return 0;
}
