/* ctx.c -- the context: backend choice, the caller's device/stream/allocator,
 * status messages and logging. */
#include "internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define STR2(x) #x
#define STR(x)  STR2(x)

int homg_version(void) { return HOMG_VERSION; }

const char *homg_version_string(void)
{
    return STR(HOMG_VERSION_MAJOR) "." STR(HOMG_VERSION_MINOR) "." STR(HOMG_VERSION_PATCH)
#if HOMG_HAVE_CUDA
        " (cuda)";
#else
        " (cpu only)";
#endif
}

const char *homg_status_string(homg_status s)
{
    switch (s) {
    case HOMG_OK: return "HOMG_OK";
    case HOMG_ERROR_INVALID_ARGUMENT: return "HOMG_ERROR_INVALID_ARGUMENT";
    case HOMG_ERROR_OUT_OF_MEMORY: return "HOMG_ERROR_OUT_OF_MEMORY";
    case HOMG_ERROR_UNSUPPORTED: return "HOMG_ERROR_UNSUPPORTED";
    case HOMG_ERROR_NO_DEVICE: return "HOMG_ERROR_NO_DEVICE";
    case HOMG_ERROR_BACKEND: return "HOMG_ERROR_BACKEND";
    case HOMG_ERROR_DEVICE_LOST: return "HOMG_ERROR_DEVICE_LOST";
    case HOMG_ERROR_IO: return "HOMG_ERROR_IO";
    case HOMG_ERROR_PARSE: return "HOMG_ERROR_PARSE";
    case HOMG_ERROR_NUMERIC: return "HOMG_ERROR_NUMERIC";
    case HOMG_ERROR_NOT_CONVERGED: return "HOMG_ERROR_NOT_CONVERGED";
    }
    return "HOMG_ERROR_UNKNOWN";
}

int homg_cuda_available(void)
{
#if HOMG_HAVE_CUDA
    return homg_cuda_device_count() > 0;
#else
    return 0;
#endif
}

void homg__desc_start(void *d, const void *desc, size_t size)
{
    if (desc)
        memcpy(d, desc, size);
    else
        memset(d, 0, size);
}

homg_ctx_desc homg_ctx_desc_defaults(const homg_ctx_desc *desc)
{
    homg_ctx_desc d;
    homg__desc_start(&d, desc, sizeof d);
    HOMG_DEFAULT(d.backend, homg_cuda_available() ? HOMG_BACKEND_CUDA : HOMG_BACKEND_CPU);
    HOMG_DEFAULT(d.log_level, HOMG_LOG_WARN);
    return d;
}

static void vlog(homg_ctx *ctx, homg_log_level level, const char *fmt, va_list ap)
{
    char buf[1024];
    if (!ctx->desc.log || level > ctx->desc.log_level)
        return;
    vsnprintf(buf, sizeof buf, fmt, ap);
    ctx->desc.log(level, buf, ctx->desc.log_user);
}

void homg__log(homg_ctx *ctx, homg_log_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(ctx, level, fmt, ap);
    va_end(ap);
}

homg_status homg__fail(homg_ctx *ctx, homg_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    va_end(ap);
    homg__log(ctx, HOMG_LOG_ERROR, "%s: %s", homg_status_string(st), ctx->msg);
    return st;
}

void homg__append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(buf && *used < len ? buf + *used : NULL, buf && *used < len ? len - *used : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n;
}

void homg__clear_error(homg_ctx *ctx)
{
    ctx->msg[0] = 0;
    ctx->ex.msg[0] = 0;
}

homg_status homg__begin(homg_ctx *ctx, const char *fn, const char *missing)
{
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    homg__clear_error(ctx);
    if (missing)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, missing);
    return HOMG_OK;
}

homg_status homg__backend_fail(homg_ctx *ctx, homg_status st, const char *what)
{
    return homg__fail(ctx, st, "%s: %s", what, ctx->ex.msg[0] ? ctx->ex.msg : homg_status_string(st));
}

static homg_status create(const homg_ctx_desc *desc, homg_ctx **out, char *buf, size_t buflen)
{
    homg_ctx *ctx;
    homg_status st;
    if (buf && buflen)
        buf[0] = 0;
    if (!out) {
        if (buf && buflen)
            snprintf(buf, buflen, "homg_ctx_create: out is NULL");
        return HOMG_ERROR_INVALID_ARGUMENT;
    }
    *out = NULL;
    ctx = (homg_ctx *)calloc(1, sizeof *ctx);
    if (!ctx) {
        if (buf && buflen)
            snprintf(buf, buflen, "homg_ctx_create: out of host memory");
        return HOMG_ERROR_OUT_OF_MEMORY;
    }
    ctx->desc = homg_ctx_desc_defaults(desc);
    st = HOMG_OK;
    if (ctx->desc.backend != HOMG_BACKEND_CPU && ctx->desc.backend != HOMG_BACKEND_CUDA)
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.backend = %d is not a homg_backend",
                        (int)ctx->desc.backend);
    else if ((ctx->desc.allocator.alloc == NULL) != (ctx->desc.allocator.free == NULL))
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.allocator: set both alloc and free, or neither");
    else if (ctx->desc.device < 0)
        st = homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "desc.device = %d is negative", ctx->desc.device);
    if (st == HOMG_OK && ctx->desc.backend == HOMG_BACKEND_CUDA) {
#if HOMG_HAVE_CUDA
        ctx->mem = &homg_cuda_memory_kernels;
#else
        st = homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "this build of homg has no CUDA backend (built with CUDA=0)");
#endif
    } else if (st == HOMG_OK) {
        ctx->mem = &homg_cpu_memory_kernels;
#ifdef _OPENMP
        if (ctx->desc.cpu_threads > 0)
            omp_set_num_threads(ctx->desc.cpu_threads);
#endif
    }
    if (st == HOMG_OK) {
        int dev = (ctx->desc.device_set || ctx->desc.device > 0) ? ctx->desc.device : -1;
        st = ctx->mem->init(&ctx->ex, dev, ctx->desc.stream, ctx->device_name, sizeof ctx->device_name);
        if (st != HOMG_OK)
            homg__backend_fail(ctx, st, "homg_ctx_create");
        else
            homg__log(ctx, HOMG_LOG_INFO, "homg %s on %s", homg_version_string(), ctx->device_name);
    }
    if (st != HOMG_OK) {
        if (buf && buflen)
            snprintf(buf, buflen, "%s", ctx->msg);
        free(ctx);
        return st;
    }
    *out = ctx;
    return HOMG_OK;
}

homg_status homg_ctx_create(const homg_ctx_desc *desc, homg_ctx **out) { return create(desc, out, NULL, 0); }

homg_status homg_ctx_create_msg(const homg_ctx_desc *desc, homg_ctx **out, char *buf, size_t buflen)
{
    return create(desc, out, buf, buflen);
}

void homg_ctx_destroy(homg_ctx *ctx)
{
    if (!ctx)
        return;
    ctx->mem->shutdown(&ctx->ex);
    free(ctx);
}

homg_backend homg_ctx_backend(const homg_ctx *ctx) { return ctx ? ctx->ex.backend : HOMG_BACKEND_AUTO; }
const char *homg_ctx_device_name(const homg_ctx *ctx) { return ctx ? ctx->device_name : ""; }
const char *homg_ctx_last_error(const homg_ctx *ctx) { return ctx ? ctx->msg : "ctx is NULL"; }

homg_status homg__enter(homg_ctx *ctx, int *saved)
{
    HOMG_TRY_BACKEND(ctx, ctx->mem->enter(&ctx->ex, saved), "selecting the context's device");
    return HOMG_OK;
}

void homg__leave(homg_ctx *ctx, int saved) { ctx->mem->leave(&ctx->ex, saved); }

homg_status homg_ctx_synchronize(homg_ctx *ctx)
{
    int saved;
    homg_status st;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    HOMG_TRY(homg__enter(ctx, &saved));
    st = ctx->mem->sync(&ctx->ex);
    if (st != HOMG_OK)
        homg__backend_fail(ctx, st, "homg_ctx_synchronize");
    homg__leave(ctx, saved);
    return st;
}

homg_status homg__alloc(homg_ctx *ctx, size_t bytes, void **ptr, const char *what)
{
    *ptr = NULL;
    if (ctx->desc.allocator.alloc) {
        if (!bytes)
            return HOMG_OK;
        *ptr = ctx->desc.allocator.alloc(bytes, ctx->desc.allocator.user);
        if (!*ptr)
            return homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: the caller's allocator returned NULL for %zu bytes",
                              what, bytes);
    } else {
        HOMG_TRY_BACKEND(ctx, ctx->mem->alloc(&ctx->ex, bytes, ptr), what);
    }
    if (ctx->track.on)
        homg__track_add(ctx, *ptr, bytes);
    return HOMG_OK;
}

void homg__free(homg_ctx *ctx, void *ptr)
{
    if (!ptr)
        return;
    if (ctx->track.count)
        homg__track_remove(ctx, ptr);
    if (ctx->desc.allocator.free)
        ctx->desc.allocator.free(ptr, ctx->desc.allocator.user);
    else
        ctx->mem->free(&ctx->ex, ptr);
}

/* The bytes of an array, or 0 with the ctx message when they overflow. */
static int array_bytes(homg_ctx *ctx, size_t count, size_t size, const char *what, size_t *bytes)
{
    if (size && count > SIZE_MAX / size) {
        homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: %zu elements of %zu bytes overflow size_t", what, count, size);
        return 0;
    }
    *bytes = count * size;
    return 1;
}

homg_status homg__read(homg_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    ctx->host_syncs++;
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, host, dev, bytes, HOMG_D2H), "reading a device value");
    return HOMG_OK;
}

homg_status homg__write(homg_ctx *ctx, void *dev, const void *host, size_t bytes)
{
    /* stream-ordered: host may be reused on return, the queued work is not waited for */
    HOMG_TRY_BACKEND(ctx, ctx->mem->copy(&ctx->ex, dev, host, bytes, HOMG_H2D_ORDERED), "writing a device value");
    return HOMG_OK;
}

homg_status homg__alloc_array(homg_ctx *ctx, size_t n, size_t size, void **ptr, const char *what)
{
    size_t bytes;
    *ptr = NULL;
    if (!array_bytes(ctx, n, size, what, &bytes))
        return HOMG_ERROR_OUT_OF_MEMORY;
    return homg__alloc(ctx, bytes, ptr, what);
}

void *homg__host_array(homg_ctx *ctx, size_t count, size_t size, const char *what)
{
    size_t bytes;
    return array_bytes(ctx, count, size, what, &bytes) ? homg__host_alloc(ctx, bytes, what) : NULL;
}

void *homg__host_alloc(homg_ctx *ctx, size_t bytes, const char *what)
{
    void *p = bytes ? malloc(bytes) : NULL;
    if (bytes && !p)
        homg__fail(ctx, HOMG_ERROR_OUT_OF_MEMORY, "%s: host allocation of %zu bytes failed", what, bytes);
    return p;
}

homg_status homg__check_pointer(homg_ctx *ctx, const void *ptr, const char *arg)
{
    if (!ptr)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
    if (ctx->mem->pointer_ok(&ctx->ex, ptr) == 0)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s is not in the %s backend's memory space%s", arg,
                          ctx->ex.backend == HOMG_BACKEND_CUDA ? "CUDA" : "CPU",
                          ctx->ex.backend == HOMG_BACKEND_CUDA ? " (a host pointer? copy it with homg_copy_from_host)"
                                                               : " (a device pointer?)");
    return HOMG_OK;
}

homg_status homg_alloc(homg_ctx *ctx, size_t bytes, void **ptr)
{
    int saved;
    homg_status st;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!ptr)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "homg_alloc: ptr is NULL");
    HOMG_TRY(homg__enter(ctx, &saved));
    st = homg__alloc(ctx, bytes, ptr, "homg_alloc");
    homg__leave(ctx, saved);
    return st;
}

void homg_free(homg_ctx *ctx, void *ptr)
{
    int saved;
    if (!ctx || !ptr || homg__enter(ctx, &saved) != HOMG_OK)
        return;
    homg__free(ctx, ptr);
    homg__leave(ctx, saved);
}

static homg_status copy(homg_ctx *ctx, void *dst, const void *src, size_t bytes, homg_copy_kind kind, const char *what)
{
    int saved;
    homg_status st;
    if (!ctx)
        return HOMG_ERROR_INVALID_ARGUMENT;
    if (!bytes)
        return HOMG_OK;
    if (!dst || !src)
        return homg__fail(ctx, HOMG_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", what, dst ? "src" : "dst");
    HOMG_TRY(homg__enter(ctx, &saved));
    st = homg__check_pointer(ctx, kind == HOMG_H2D ? dst : src, kind == HOMG_H2D ? "dst" : "src");
    if (st == HOMG_OK) {
        st = ctx->mem->copy(&ctx->ex, dst, src, bytes, kind);
        if (st != HOMG_OK)
            homg__backend_fail(ctx, st, what);
    }
    homg__leave(ctx, saved);
    return st;
}

homg_status homg_copy_from_host(homg_ctx *ctx, void *dst, const void *host_src, size_t bytes)
{
    return copy(ctx, dst, host_src, bytes, HOMG_H2D, "homg_copy_from_host");
}

homg_status homg_copy_to_host(homg_ctx *ctx, void *host_dst, const void *src, size_t bytes)
{
    return copy(ctx, host_dst, src, bytes, HOMG_D2H, "homg_copy_to_host");
}
