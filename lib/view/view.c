/* view.c -- homg_view: one GL object of the application (or a buffer the view
 * owns) that a field is written into every frame.  This file checks the
 * arguments, picks the path (homg.h explains MAP, SHARED and UPLOAD; AUTO
 * measures them here) and turns a write request into the kernel's source and
 * destination; map.c, shared.c and upload.c do the hand-over to GL. */
#include "view/view_internal.h"
#include "view/colormap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *homg_view_path_name(homg_view_path path)
{
    switch (path) {
    case HOMG_VIEW_PATH_AUTO: return "auto";
    case HOMG_VIEW_PATH_MAP: return "map";
    case HOMG_VIEW_PATH_SHARED: return "shared";
    case HOMG_VIEW_PATH_UPLOAD: return "upload";
    }
    return "?";
}

homg_view_desc homg_view_desc_defaults(const homg_view_desc *desc)
{
    homg_view_desc d;
    if (desc)
        d = *desc;
    else
        memset(&d, 0, sizeof d);
    if (d.target == HOMG_VIEW_BUFFER && d.format == HOMG_VIEW_FORMAT_DEFAULT)
        d.format = HOMG_VIEW_R32F;
    return d;
}

#if HOMG_HAVE_GL

homg_status homg__view_run(homg_view *v, const view_src *src, const view_dst *dst)
{
    homg_ctx *ctx = v->ctx;
    if (dst->range)
        HOMG_TRY_BACKEND(ctx, v->k->range(&ctx->ex, src, v->range), "homg_view_write: the colour range");
    HOMG_TRY_BACKEND(ctx, v->k->write(&ctx->ex, src, dst), "homg_view_write");
    return HOMG_OK;
}

static homg_status path_init(homg_view *v, homg_view_path p)
{
    v->path = p;
    v->info.semaphores = 0;
    v->info.host_waits = 0;
    v->info.direct = 0;
    switch (p) {
    case HOMG_VIEW_PATH_MAP: return homg__view_map_init(v);
    case HOMG_VIEW_PATH_SHARED: return homg__view_shared_init(v);
    default: return homg__view_upload_init(v);
    }
}

static void path_fini(homg_view *v)
{
    switch (v->path) {
    case HOMG_VIEW_PATH_MAP: homg__view_map_fini(v); break;
    case HOMG_VIEW_PATH_SHARED: homg__view_shared_fini(v); break;
    case HOMG_VIEW_PATH_UPLOAD: homg__view_upload_fini(v); break;
    default: break;
    }
    v->path = HOMG_VIEW_PATH_AUTO;
}

static homg_status path_write(homg_view *v, const view_src *src, view_dst *dst)
{
    switch (v->path) {
    case HOMG_VIEW_PATH_MAP: return homg__view_map_write(v, src, dst);
    case HOMG_VIEW_PATH_SHARED: return homg__view_shared_write(v, src, dst);
    default: return homg__view_upload_write(v, src, dst);
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { WARM = 3, TIMED = 9 };

/* Median ms of write + hand-over + glFinish over TIMED frames of `zeros`; with
 * desc.latency (a frame loop) ms per write of TIMED writes queued back to back,
 * then glFinish and the stream synchronised, the median of 3 such runs. */
static homg_status measure(homg_view *v, const void *zeros, double *ms)
{
    double t[TIMED];
    int queued = v->desc.latency, runs = queued ? 3 : TIMED;
    view_src src = { zeros, HOMG_FLOAT32, 0, 1, v->width, v->width, v->height };
    for (int f = 0; f < WARM + runs; f++) {
        double t0 = now_ms();
        for (int q = 0; q < (queued && f >= WARM ? TIMED : 1); q++) {
            view_dst dst = { v->rgba8, NULL, 0, 0.0f, 1.0f, NULL };
            HOMG_TRY(path_write(v, &src, &dst));
            v->gl.Flush();
        }
        v->gl.Finish();
        if (queued && v->ctx->mem->sync(&v->ctx->ex) != HOMG_OK)
            return homg__backend_fail(v->ctx, HOMG_ERROR_BACKEND, "homg_view_create: measuring");
        if (f >= WARM)
            t[f - WARM] = (now_ms() - t0) / (queued ? TIMED : 1);
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    *ms = t[runs / 2];
    return HOMG_OK;
}

/* AUTO on a CUDA context whose device the GL context shares: MAP and SHARED
 * measured on the object itself; the faster kept, one that does not wait on
 * the host preferred within 10%. */
static homg_status calibrate(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    static const homg_view_path cand[2] = { HOMG_VIEW_PATH_MAP, HOMG_VIEW_PATH_SHARED };
    double ms[2] = { -1, -1 };
    int waits[2] = { 1, 1 }, best = -1;
    char why[2][160] = { "", "" };
    void *zeros = NULL;
    size_t bytes = (size_t)v->width * v->height * sizeof(float);
    HOMG_TRY(homg__alloc(ctx, bytes, &zeros, "homg_view_create: calibration field"));
    if (ctx->mem->zero(&ctx->ex, zeros, bytes) != HOMG_OK) {
        homg__free(ctx, zeros);
        return homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "homg_view_create");
    }
    for (int c = 0; c < 2; c++) {
        homg_status st = path_init(v, cand[c]);
        if (st == HOMG_OK)
            st = measure(v, zeros, &ms[c]);
        waits[c] = v->info.host_waits;
        if (st != HOMG_OK) {
            snprintf(why[c], sizeof why[c], "%.150s", ctx->msg);
            ms[c] = -1;
            homg__clear_error(ctx);
        }
        path_fini(v);
        v->info.measured_ms[cand[c]] = ms[c];
    }
    homg__free(ctx, zeros);
    for (int c = 0; c < 2; c++)
        if (ms[c] >= 0 && (best < 0 || ms[c] < ms[best]))
            best = c;
    for (int c = 0; best >= 0 && c < 2; c++)
        if (ms[c] >= 0 && waits[best] && !waits[c] && ms[c] <= 1.1 * ms[best])
            best = c;
    snprintf(v->info.reason, sizeof v->info.reason, "measured per frame (%s): map %.3f ms, shared %.3f ms%s%.80s",
             v->desc.latency ? "writes queued, ring" : "write + hand-over + glFinish", ms[0], ms[1],
             ms[1] < 0 ? " (unavailable: " : "", ms[1] < 0 ? why[1] : "");
    if (ms[1] < 0)
        strncat(v->info.reason, ")", sizeof v->info.reason - strlen(v->info.reason) - 1);
    /* the best, else the other, else through the host: a second set-up can fail where the first did not */
    for (int c = 0; best >= 0 && c < 2; c++) {
        int p = c ? 1 - best : best;
        if (ms[p] < 0)
            continue;
        if (path_init(v, cand[p]) == HOMG_OK)
            return HOMG_OK;
        homg__log(ctx, HOMG_LOG_WARN, "homg_view: setting up %s again failed: %s", homg_view_path_name(cand[p]),
                  ctx->msg);
        path_fini(v);
        homg__clear_error(ctx);
    }
    if (best < 0)
        snprintf(v->info.reason, sizeof v->info.reason, "no interop path worked (map: %.100s; shared: %.100s)", why[0],
                 why[1]);
    else
        strncat(v->info.reason, "; neither could be set up again: uploading through the host",
                sizeof v->info.reason - strlen(v->info.reason) - 1);
    return path_init(v, HOMG_VIEW_PATH_UPLOAD);
}

static homg_status choose_path(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    homg_view_path want = v->desc.path;
    int devices[16], count = 0;
    char why[200];
    if (ctx->ex.backend != HOMG_BACKEND_CUDA) {
        if (want == HOMG_VIEW_PATH_MAP || want == HOMG_VIEW_PATH_SHARED)
            return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED,
                              "homg_view_create: desc.path = %s needs the CUDA backend (this ctx is on the CPU)",
                              homg_view_path_name(want));
        snprintf(v->info.reason, sizeof v->info.reason, "CPU backend: the values are in host memory");
        return path_init(v, HOMG_VIEW_PATH_UPLOAD);
    }
    HOMG_TRY_BACKEND(ctx, v->k->gl_devices(&ctx->ex, devices, 16, &count), "homg_view_create");
    if (!homg__view_device_match(ctx->ex.device, devices, count, why, sizeof why)) {
        if (want == HOMG_VIEW_PATH_MAP || want == HOMG_VIEW_PATH_SHARED)
            return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "homg_view_create: desc.path = %s: %s (GL_RENDERER %s)",
                              homg_view_path_name(want), why, v->info.gl_renderer);
        snprintf(v->info.reason, sizeof v->info.reason, "%.150s (GL_RENDERER %.60s): uploading through the host", why,
                 v->info.gl_renderer);
        homg__log(ctx, HOMG_LOG_WARN, "homg_view: %s", v->info.reason);
        return path_init(v, HOMG_VIEW_PATH_UPLOAD);
    }
    if (want != HOMG_VIEW_PATH_AUTO) {
        snprintf(v->info.reason, sizeof v->info.reason, "desc.path = %s", homg_view_path_name(want));
        return path_init(v, want);
    }
    return calibrate(v);
}

static homg_status check_desc(homg_ctx *ctx, const homg_view_desc *d)
{
    if (!d->get_proc_address)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view_create: desc.get_proc_address is NULL (pass glfwGetProcAddress, "
                          "eglGetProcAddress ...)");
    if (d->target != HOMG_VIEW_TEXTURE_2D && d->target != HOMG_VIEW_BUFFER)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_create: desc.target = %d", (int)d->target);
    if (d->format < HOMG_VIEW_FORMAT_DEFAULT || d->format > HOMG_VIEW_RGBA8)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_create: desc.format = %d", (int)d->format);
    if (d->path < HOMG_VIEW_PATH_AUTO || d->path > HOMG_VIEW_PATH_UPLOAD)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_create: desc.path = %d", (int)d->path);
    if (d->target == HOMG_VIEW_TEXTURE_2D && !d->gl_name)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_create: desc.gl_name = 0: name the texture");
    return HOMG_OK;
}

static homg_status create(homg_view *v)
{
    homg_ctx *ctx = v->ctx;
    const char *r;
    int saved;
    homg_status st;
    HOMG_TRY(homg__view_gl_load(v));
    r = (const char *)v->gl.GetString(GL_RENDERER);
    snprintf(v->info.gl_renderer, sizeof v->info.gl_renderer, "%s", r ? r : "?");
    HOMG_TRY(homg__view_gl_object(v));
    v->owned = v->desc.target == HOMG_VIEW_BUFFER && !v->desc.gl_name;
    v->object = v->desc.gl_name;
    HOMG_TRY(homg__enter(ctx, &saved));
    st = homg__alloc(ctx, 2 * sizeof(int32_t), (void **)&v->range, "homg_view_create: range");
    if (st == HOMG_OK)
        st = choose_path(v);
    if (st == HOMG_OK && ctx->mem->sync(&ctx->ex) != HOMG_OK)
        st = homg__backend_fail(ctx, HOMG_ERROR_BACKEND, "homg_view_create");
    homg__leave(ctx, saved);
    HOMG_TRY(st);
    return homg__view_gl_check(v, "homg_view_create");
}

homg_status homg_view_create(homg_ctx *ctx, const homg_view_desc *desc, homg_view **out)
{
    homg_view *v;
    homg_status st;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(ctx);
    if (!out || !desc)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_create: %s is NULL", out ? "desc" : "out");
    *out = NULL;
    HOMG_TRY(check_desc(ctx, desc));
    v = (homg_view *)calloc(1, sizeof *v);
    if (!v)
        return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "homg_view_create: out of host memory");
    v->ctx = ctx;
    v->desc = homg_view_desc_defaults(desc);
    v->k = HOMG_KERNELS(&ctx->ex, view);
    v->elem = 4;
    v->sh.fd = -1;
    homg__view_knobs_read(&v->knobs);
    st = create(v);
    if (st != HOMG_OK) {
        char msg[sizeof ctx->msg];
        memcpy(msg, ctx->msg, sizeof msg);
        homg_view_destroy(v);
        memcpy(ctx->msg, msg, sizeof msg);
        return st;
    }
    v->info.path = v->path;
    v->info.format = v->rgba8 ? HOMG_VIEW_RGBA8 : HOMG_VIEW_R32F;
    v->info.width = v->width;
    v->info.height = v->height;
    v->info.gl_name = v->object;
    v->info.shown = 0; /* AUTO's measuring wrote */
    if (v->ring && v->slots_why[0]) {
        size_t used = strlen(v->info.reason);
        if (used + 3 < sizeof v->info.reason)
            snprintf(v->info.reason + used, sizeof v->info.reason - used, "; %s", v->slots_why);
    }
    homg__log(ctx, HOMG_LOG_INFO, "homg_view: %s path (%s)", homg_view_path_name(v->path), v->info.reason);
    *out = v;
    return HOMG_OK;
}

void homg_view_destroy(homg_view *v)
{
    int saved;
    if (!v)
        return;
    if (homg__enter(v->ctx, &saved) == HOMG_OK) {
        v->ctx->mem->sync(&v->ctx->ex);
        if (v->gl.GetError) {
            path_fini(v);
            homg__view_gl_drain(v);
        }
        homg__free(v->ctx, v->range);
        homg__leave(v->ctx, saved);
    }
    free(v);
}

/* The picture a write request describes, checked against the object. */
static homg_status source(homg_view *v, const void *values, const homg_view_write_desc *d, view_src *s)
{
    homg_ctx *ctx = v->ctx;
    int64_t nx = d->nx, ny = d->ny ? d->ny : 1, nz = d->nz, plane = nx * ny;
    if (d->precision != HOMG_FLOAT32 && d->precision != HOMG_FLOAT64)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: desc.precision = %d", (int)d->precision);
    if (nx < 1 || ny < 1 || nz < 0 || nx > INT32_MAX || ny > INT32_MAX)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: field size %d x %d x %d", d->nx, d->ny,
                          d->nz);
    s->values = values;
    s->precision = d->precision;
    s->offset = 0;
    s->sx = 1;
    s->sy = nx;
    s->w = (int32_t)nx;
    s->h = (int32_t)ny;
    if (nz > 0) {
        int64_t n = d->slice_axis == HOMG_VIEW_SLICE_Z ? nz : d->slice_axis == HOMG_VIEW_SLICE_Y ? ny : nx;
        if (d->slice_axis < HOMG_VIEW_SLICE_Z || d->slice_axis > HOMG_VIEW_SLICE_X)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: desc.slice_axis = %d",
                              (int)d->slice_axis);
        if (d->slice < 0 || d->slice >= n)
            return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                              "homg_view_write: desc.slice = %d is outside 0..%lld of the %c axis", d->slice,
                              (long long)n - 1, "zyx"[d->slice_axis]);
        if (d->slice_axis == HOMG_VIEW_SLICE_Z)
            s->offset = plane * d->slice;
        else if (d->slice_axis == HOMG_VIEW_SLICE_Y) {
            s->offset = nx * d->slice, s->sy = plane, s->h = (int32_t)nz;
        } else {
            s->offset = d->slice, s->sx = nx, s->sy = plane, s->w = (int32_t)ny, s->h = (int32_t)nz;
        }
    }
    if (v->desc.target == HOMG_VIEW_TEXTURE_2D && (s->w != v->width || s->h != v->height))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT,
                          "homg_view_write: the picture is %d x %d values but texture %u is %d x %d", (int)s->w,
                          (int)s->h, v->object, v->width, v->height);
    if (v->desc.target == HOMG_VIEW_BUFFER && (int64_t)s->w * s->h > v->width)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: %lld values but buffer %u holds %d",
                          (long long)s->w * s->h, v->object, v->width);
    if (v->desc.target == HOMG_VIEW_BUFFER && s->h > 1)
        s->w *= s->h, s->h = 1, s->sy = s->w; /* a buffer is one row */
    return HOMG_OK;
}

homg_status homg_view_write(homg_view *v, const void *values, const homg_view_write_desc *d)
{
    homg_ctx *ctx;
    view_src src;
    view_dst dst;
    int saved;
    homg_status st;
    if (!v)
        return HOMG_ERROR_INVALID_ARGUMENT;
    ctx = v->ctx;
    homg__clear_error(ctx);
    if (!d)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: desc is NULL");
    HOMG_TRY(source(v, values, d, &src));
    if (v->rgba8 && d->lo != d->hi && (!isfinite(d->lo) || !isfinite(d->hi)))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: lo = %g, hi = %g: must be finite", d->lo,
                          d->hi);
    HOMG_TRY(homg__view_gl_current(v, "homg_view_write"));
    if (!(v->desc.target == HOMG_VIEW_BUFFER ? v->gl.IsBuffer(v->object) : v->gl.IsTexture(v->object)))
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_write: GL %s %u no longer exists (deleted?)",
                          v->desc.target == HOMG_VIEW_BUFFER ? "buffer" : "texture", v->object);
    HOMG_TRY(homg__enter(ctx, &saved));
    st = homg__check_pointer(ctx, values, "homg_view_write: values");
    memset(&dst, 0, sizeof dst);
    dst.rgba8 = v->rgba8;
    dst.lo = (float)d->lo;
    dst.hi = (float)d->hi;
    v->range_found = v->rgba8 && d->lo == d->hi;
    v->lo = dst.lo;
    v->hi = dst.hi;
    if (v->range_found)
        dst.range = v->range; /* found by the path once the memory is CUDA's (homg__view_run) */
    if (st == HOMG_OK)
        st = path_write(v, &src, &dst);
    if (st == HOMG_OK && !v->ring)
        v->info.shown++;
    homg__leave(ctx, saved);
    return st;
}

homg_status homg_view_flush(homg_view *v)
{
    int saved;
    homg_status st;
    if (!v)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(v->ctx);
    if (!v->ring)
        return HOMG_OK;
    HOMG_TRY(homg__view_gl_current(v, "homg_view_flush"));
    HOMG_TRY(homg__enter(v->ctx, &saved));
    st = homg__view_ring_flush(v);
    homg__leave(v->ctx, saved);
    HOMG_TRY(st);
    return homg__view_gl_check(v, "homg_view_flush");
}

homg_status homg_view_range_to_host(homg_view *v, double *lo, double *hi)
{
    int32_t r[2];
    float l, h;
    int saved;
    homg_status st;
    if (!v)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(v->ctx);
    if (!lo || !hi)
        return homg__fail(v->ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_view_range_to_host: %s is NULL", lo ? "hi" : "lo");
    if (!v->range_found) {
        *lo = v->lo;
        *hi = v->hi;
        return HOMG_OK;
    }
    HOMG_TRY(homg__enter(v->ctx, &saved));
    st = v->ctx->mem->copy(&v->ctx->ex, r, v->range, sizeof r, HOMG_D2H);
    homg__leave(v->ctx, saved);
    if (st != HOMG_OK)
        return homg__backend_fail(v->ctx, st, "homg_view_range_to_host");
    view_range_read(r, &l, &h);
    *lo = l;
    *hi = h;
    return HOMG_OK;
}

#else /* no GL headers: no views */

static homg_status no_gl(homg_ctx *ctx, const char *what)
{
    if (!ctx)
        return HOMG_ERROR_UNSUPPORTED;
    homg__clear_error(ctx);
    return homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "%s: this homg was built without OpenGL headers (no views)", what);
}

homg_status homg_view_create(homg_ctx *ctx, const homg_view_desc *desc, homg_view **out)
{
    (void)desc;
    if (out)
        *out = NULL;
    return no_gl(ctx, "homg_view_create");
}

void homg_view_destroy(homg_view *v) { (void)v; }

homg_status homg_view_write(homg_view *v, const void *values, const homg_view_write_desc *desc)
{
    (void)v;
    (void)values;
    (void)desc;
    return HOMG_ERROR_UNSUPPORTED;
}

homg_status homg_view_flush(homg_view *v)
{
    (void)v;
    return HOMG_ERROR_UNSUPPORTED;
}

homg_status homg_view_range_to_host(homg_view *v, double *lo, double *hi)
{
    (void)v;
    (void)lo;
    (void)hi;
    return HOMG_ERROR_UNSUPPORTED;
}

#endif

homg_status homg_view_get_info(const homg_view *v, homg_view_info *info)
{
    if (!v || !info)
        return HOMG_ERROR_INVALID_ARGUMENT;
    *info = v->info;
    return HOMG_OK;
}

unsigned homg_view_gl_name(const homg_view *v) { return v ? (unsigned)v->object : 0; }

unsigned homg_view_gl_texture(const homg_view *v)
{
#if HOMG_HAVE_GL
    if (v && v->ring)
        return homg__view_ring_texture(v);
#endif
    return homg_view_gl_name(v);
}
