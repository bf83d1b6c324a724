/* fluid.c -- the homg_fluid handle: defaults, creation, solids, splats and
 * access to its fields (the time step is in step.c). */
#include "fluid/fluid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

homg_fluid_desc homg_fluid_desc_defaults(const homg_fluid_desc *desc)
{
    homg_fluid_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.ny, d.nx);
    HOMG_DEFAULT(d.h, 1.0 / (d.nx > d.ny ? d.nx : d.ny));
    HOMG_DEFAULT(d.tol, 1e-3);
    HOMG_DEFAULT(d.max_cycles, 20);
    HOMG_DEFAULT(d.start, HOMG_FLUID_START_EXTRAPOLATED);
    /* V(1,2): on the H100 (s9-smoke2, the demo's script at 1024^2, from the extrapolated
       start) a frame of 0.877 ms (3.20 cycles) against V(2,2)'s 0.991 (2.93 cycles) */
    HOMG_DEFAULT(d.pre, 1);
    HOMG_DEFAULT(d.post, 2);
    return d;
}

static homg_status check_desc(homg_ctx *ctx, const homg_fluid_desc *d)
{
    if (d->nx < 2 || d->ny < 2)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fluid_create: nx %d, ny %d: both must be >= 2", d->nx,
                          d->ny);
    if (!(d->h > 0) || !isfinite(d->h))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fluid_create: h is %g; it must be positive", d->h);
    if (d->pre < 0 || d->pre > 16 || d->post < 0 || d->post > 16)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fluid_create: pre %d, post %d: must be 0..16", d->pre,
                          d->post);
    if (d->start < HOMG_FLUID_START_DEFAULT || d->start > HOMG_FLUID_START_EXTRAPOLATED)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_fluid_create: start %d is not a homg_fluid_start",
                          (int)d->start);
    if (d->max_cycles < 1 || d->jacobi < 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fluid_create: max_cycles %d must be >= 1 and jacobi %d >= 0", d->max_cycles, d->jacobi);
    if (!isfinite(d->tol) || !(d->density_decay >= 0) || !isfinite(d->density_decay))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fluid_create: tol %g must be finite and density_decay %g >= 0", d->tol,
                          d->density_decay);
    return HOMG_OK;
}

/* Every array, zeroed. */
static homg_status alloc_fields(homg_fluid *fl)
{
    size_t nx = (size_t)fl->desc.nx, ny = (size_t)fl->desc.ny, cells = nx * ny;
    struct {
        float **q;
        size_t n;
    } f[] = { { &fl->u, (nx + 1) * ny },     { &fl->v, nx * (ny + 1) },  { &fl->u_tmp, (nx + 1) * ny },
              { &fl->v_tmp, nx * (ny + 1) }, { &fl->density, cells },    { &fl->density_tmp, cells },
              { &fl->pressure, cells },      { &fl->rhs, cells },        { &fl->divergence, cells },
              { &fl->jacobi_tmp, cells },    { &fl->correction, cells }, { &fl->pressure_prev, cells } };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        HOMG_TRY(homg__alloc_array(fl->ctx, f[k].n, sizeof(float), (void **)f[k].q, "homg_fluid_create"));
    HOMG_TRY(homg__alloc_array(fl->ctx, cells, 1, (void **)&fl->solid, "homg_fluid_create"));
    HOMG_TRY(homg__alloc_array(fl->ctx, cells, 1, (void **)&fl->flags, "homg_fluid_create"));
    HOMG_TRY(homg__alloc_array(fl->ctx, 1, sizeof(int64_t), (void **)&fl->count, "homg_fluid_create"));
    HOMG_TRY(homg__alloc_array(fl->ctx, 2 * GEN_NSCALARS, sizeof(double), (void **)&fl->norms, "homg_fluid_create"));
    return homg_fluid_reset(fl);
}

/* The grid's operator: flags only where there are solid cells, since any flags
 * array rules out the grid's FFT path (0.06 ms against ~0.6 ms per multigrid
 * cycle at 1024^2 on the H100) for an empty box. */
static homg_status set_operator(homg_fluid *fl)
{
    homg_grid_operator op = { 0 };
    op.flags = fl->solid_cells > 0 ? fl->flags : NULL;
    op.skip_check = 1; /* made here from 0/1 bytes */
    return homg_grid_set_operator(fl->grid, &op);
}

/* A pressure grid: all sides Neumann (zero flux), one right-hand side. */
static homg_status neumann_grid(homg_fluid *fl, homg_method method, homg_grid **out)
{
    homg_grid_desc g = { 0 };
    g.nx = fl->desc.nx;
    g.ny = fl->desc.ny;
    g.h = fl->desc.h;
    g.method = method;
    g.pre = fl->desc.pre;
    g.post = fl->desc.post;
    for (int s = 0; s < 4; s++)
        g.bc[s] = HOMG_BC_NEUMANN;
    return homg_grid_create(fl->ctx, &g, out);
}

static homg_status create_grid(homg_fluid *fl) { return neumann_grid(fl, fl->desc.method, &fl->grid); }

/* The box without solids, solved by the DCT, for the initial pressure (made at the first use). */
homg_status homg__fluid_box(homg_fluid *fl) { return fl->box ? HOMG_OK : neumann_grid(fl, HOMG_METHOD_FFT, &fl->box); }

homg_status homg_fluid_create(homg_ctx *ctx, const homg_fluid_desc *desc, homg_fluid **out)
{
    homg_fluid *fl;
    homg_status st;
    HOMG_TRY(homg__begin(ctx, "homg_fluid_create", !out ? "out" : NULL));
    *out = NULL;
    homg_fluid_desc d = homg_fluid_desc_defaults(desc);
    HOMG_TRY(check_desc(ctx, &d));
    fl = homg__host_alloc(ctx, sizeof *fl, "homg_fluid_create");
    if (!fl)
        return HOMG_ERROR_OUT_OF_MEMORY;
    memset(fl, 0, sizeof *fl);
    fl->ctx = ctx;
    fl->desc = d;
    for (int k = 0; k < 4; k++)
        fl->guess[k] = 2; /* adapts from the first step */
    st = alloc_fields(fl);
    if (st == HOMG_OK)
        st = create_grid(fl);
    if (st == HOMG_OK)
        st = homg_fluid_set_solid(fl, NULL);
    if (st != HOMG_OK) {
        homg_fluid_destroy(fl);
        return st;
    }
    *out = fl;
    return HOMG_OK;
}

homg_status homg_fluid_configure(homg_fluid *fl, const homg_fluid_desc *desc)
{
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg_ctx *ctx = fl->ctx;
    homg_fluid_desc d = homg_fluid_desc_defaults(desc);
    HOMG_TRY(homg__begin(ctx, "homg_fluid_configure", !desc ? "desc" : NULL));
    HOMG_TRY(check_desc(ctx, &d));
    if (d.nx != fl->desc.nx || d.ny != fl->desc.ny || d.h != fl->desc.h)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fluid_configure: nx, ny, h (%d, %d, %g) differ from the fluid's (%d, %d, %g)", d.nx,
                          d.ny, d.h, fl->desc.nx, fl->desc.ny, fl->desc.h);
    if (d.method != fl->desc.method || d.pre != fl->desc.pre || d.post != fl->desc.post) {
        homg_grid *old = fl->grid;
        homg_fluid_desc old_desc = fl->desc;
        fl->desc = d;
        homg_status st = create_grid(fl);
        if (st != HOMG_OK) { /* keep the working grid */
            fl->grid = old;
            fl->desc = old_desc;
            return st;
        }
        homg_grid_destroy(old);
        HOMG_TRY(set_operator(fl));
    }
    fl->desc = d;
    return HOMG_OK;
}

void homg_fluid_destroy(homg_fluid *fl)
{
    if (!fl)
        return;
    float *q[] = { fl->u,        fl->v,   fl->u_tmp,      fl->v_tmp,      fl->density,    fl->density_tmp,
                   fl->pressure, fl->rhs, fl->divergence, fl->jacobi_tmp, fl->correction, fl->pressure_prev };
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++)
        homg__free(fl->ctx, q[k]);
    homg__free(fl->ctx, fl->solid);
    homg__free(fl->ctx, fl->flags);
    homg__free(fl->ctx, fl->count);
    homg__free(fl->ctx, fl->norms);
    homg_grid_destroy(fl->grid);
    homg_grid_destroy(fl->box);
    free(fl);
}

homg_status homg_fluid_reset(homg_fluid *fl)
{
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    size_t nx = (size_t)fl->desc.nx, ny = (size_t)fl->desc.ny;
    const memory_kernels *m = fl->ctx->mem;
    float *q[] = { fl->u, fl->v, fl->density, fl->pressure, fl->divergence, fl->pressure_prev };
    size_t n[] = { (nx + 1) * ny, nx * (ny + 1), nx * ny, nx * ny, nx * ny, nx * ny };
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++)
        HOMG_TRY_BACKEND(fl->ctx, m->zero(&fl->ctx->ex, q[k], n[k] * sizeof(float)), "homg_fluid_reset");
    return HOMG_OK;
}

/* The grid's flags follow the solid cells: solid cells are walls of the
 * pressure problem.  Their count comes back to the host (one wait) to decide
 * whether the grid gets flags at all. */
homg_status homg_fluid_set_solid(homg_fluid *fl, const unsigned char *solid)
{
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    size_t cells = (size_t)fl->desc.nx * fl->desc.ny;
    int64_t count = 0;
    HOMG_TRY(homg__begin(ctx, "homg_fluid_set_solid", NULL));
    if (solid)
        HOMG_TRY(homg__check_pointer(ctx, solid, "homg_fluid_set_solid: solid"));
    if (solid)
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, fl->solid, solid, cells, HOMG_D2D), "homg_fluid_set_solid");
    else
        HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, fl->solid, cells), "homg_fluid_set_solid");
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(&ctx->ex, fl->count, sizeof(int64_t)), "homg_fluid_set_solid");
    HOMG_TRY_BACKEND(ctx, k->flags(&ctx->ex, (int64_t)cells, fl->solid, HOMG_CELL_SOLID, fl->flags, fl->count),
                     "homg_fluid_set_solid");
    if (solid)
        HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, &count, fl->count, sizeof count, HOMG_D2H),
                         "homg_fluid_set_solid: the solid count");
    fl->solid_cells = count;
    return set_operator(fl);
}

fluid_field homg__fluid_field(const homg_fluid *fl, homg_fluid_field which, const float *q)
{
    int nx = fl->desc.nx, ny = fl->desc.ny;
    fluid_field f = { q, nx, ny, 0.5f, 0.5f };
    if (which == HOMG_FLUID_VELOCITY_X)
        f.mx = nx + 1, f.ox = 0.0f;
    else if (which == HOMG_FLUID_VELOCITY_Y)
        f.my = ny + 1, f.oy = 0.0f;
    return f;
}

float *homg_fluid_data(homg_fluid *fl, homg_fluid_field which)
{
    if (!fl)
        return NULL;
    switch (which) {
    case HOMG_FLUID_DENSITY: return fl->density;
    case HOMG_FLUID_VELOCITY_X: return fl->u;
    case HOMG_FLUID_VELOCITY_Y: return fl->v;
    case HOMG_FLUID_PRESSURE: return fl->pressure;
    case HOMG_FLUID_DIVERGENCE: return fl->divergence;
    }
    return NULL;
}

homg_status homg_fluid_splat(homg_fluid *fl, homg_fluid_field which, const homg_splat *splats, int num_splats)
{
    if (!fl)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg_ctx *ctx = fl->ctx;
    const fluid_kernels *k = HOMG_KERNELS(&ctx->ex, fluid);
    HOMG_TRY(homg__begin(ctx, "homg_fluid_splat", NULL));
    if (which != HOMG_FLUID_DENSITY && which != HOMG_FLUID_VELOCITY_X && which != HOMG_FLUID_VELOCITY_Y)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_fluid_splat: field %d is not DENSITY, VELOCITY_X or VELOCITY_Y", (int)which);
    HOMG_TRY(homg__check_splats(ctx, "homg_fluid_splat", 2, splats, num_splats));
    fluid_field f = homg__fluid_field(fl, which, homg_fluid_data(fl, which));
    for (int first = 0; first < num_splats;) {
        splat_batch batch;
        first = splat_batch_fill(&batch, splats, num_splats, first);
        HOMG_TRY_BACKEND(ctx, k->splat(&ctx->ex, f.mx, f.my, f.ox, f.oy, fl->desc.h, &batch, (float *)f.q),
                         "homg_fluid_splat");
    }
    return HOMG_OK;
}
