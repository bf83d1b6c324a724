/* internal.h -- what the library's own files share: the context and error helpers. */
#ifndef HOMG_INTERNAL_H
#define HOMG_INTERNAL_H

#include "homg.h"
#include "kernels.h"

#include <stdio.h>

/* Set-up traces: the ctx allocations made while tracking is on (track.c). */
typedef struct homg_track {
    int on;
    size_t bytes, peak; /* held now by tracked allocations; most since the last reset */
    size_t count, cap;
    struct homg_track_entry {
        void *ptr;
        size_t bytes;
    } * live;
} homg_track;

struct homg_ctx {
    homg_ctx_desc desc;
    kernel_exec ex;
    const memory_kernels *mem;
    char device_name[160];
    char msg[1024];
    long host_syncs; /* blocking device reads so far (homg__read; homg__write is stream-ordered) */
    homg_track track;
};

/* track.c: tracking of the ctx's allocations for traces (bytes held, peak). */
void homg__track_begin(homg_ctx *ctx);
void homg__track_end(homg_ctx *ctx);
void homg__track_add(homg_ctx *ctx, void *ptr, size_t bytes);
void homg__track_remove(homg_ctx *ctx, void *ptr);

/* Records a failure on ctx (message + log callback) and returns st. */
homg_status homg__fail(homg_ctx *ctx, homg_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Passes a backend failure (message in ctx->ex.msg) on to the ctx, prefixed by `what`. */
homg_status homg__backend_fail(homg_ctx *ctx, homg_status st, const char *what);
/* Every homg_*_desc_defaults: start from the caller's desc (or a zeroed one),
 * then give each zero field its default with HOMG_DEFAULT. */
void homg__desc_start(void *d, const void *desc, size_t size);
#define HOMG_DEFAULT(field, value) \
    do {                           \
        if ((field) == 0)          \
            (field) = (value);     \
    } while (0)

/* Called first by public entries that can fail, so the message is this call's. */
void homg__clear_error(homg_ctx *ctx);
/* The start of such an entry: NULL ctx is INVALID_ARGUMENT (nowhere to say
 * more); clears the ctx's message; `missing` (the name of the first NULL
 * argument, or NULL when there is none) fails with "<fn>: <missing> is NULL". */
homg_status homg__begin(homg_ctx *ctx, const char *fn, const char *missing);
void homg__log(homg_ctx *ctx, homg_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* snprintf into buf at *used, counting what would have been written (the
 * homg_*_format_* functions). */
void homg__append(char *buf, size_t len, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Around every public entry that touches the device: makes the ctx's device
 * current and restores the caller's afterwards. */
homg_status homg__enter(homg_ctx *ctx, int *saved);
void homg__leave(homg_ctx *ctx, int saved);

/* Allocation in the ctx's space through the caller's allocator or the backend. */
homg_status homg__alloc(homg_ctx *ctx, size_t bytes, void **ptr, const char *what);
void homg__free(homg_ctx *ctx, void *ptr);
/* n elements of `size` bytes in the ctx's space (an overflowing size is OUT_OF_MEMORY). */
homg_status homg__alloc_array(homg_ctx *ctx, size_t n, size_t size, void **ptr, const char *what);
/* Copies of device values to host memory (blocking, counted in ctx->host_syncs) and from it
 * (stream-ordered: the host buffer may be reused on return). */
homg_status homg__read(homg_ctx *ctx, void *host, const void *dev, size_t bytes);
/* ... a tuning variable's text (a schedule), or NULL where unset; an empty text is a text
 * (HOMG_CUBE_SCHED="": no plan, as "0"; tests/test_cube.c schedules_plan); homg__knob is in
 * kernels/kernels.h */
const char *homg__knob_text(const char *name);
homg_status homg__write(homg_ctx *ctx, void *dev, const void *host, size_t bytes);
/* Host allocation (plain malloc; returns NULL and sets the ctx message on failure). */
void *homg__host_alloc(homg_ctx *ctx, size_t bytes, const char *what);
/* Host array of count elements of `size` bytes (malloc; NULL for count 0).
 * Returns NULL and sets the ctx message when the size overflows or malloc fails. */
void *homg__host_array(homg_ctx *ctx, size_t count, size_t size, const char *what);

/* Closes a file the library wrote; when writing or closing failed, removes it and
 * records HOMG_ERROR_IO naming the path (lib/core/file.c). */
homg_status homg__finish_file(homg_ctx *ctx, const char *path, FILE *f);
/* Removes what a failed write left at path, if it is a regular file. */
void homg__remove_partial(const char *path);

/* Checks that ptr (named `arg`) is usable by the ctx's backend. */
homg_status homg__check_pointer(homg_ctx *ctx, const void *ptr, const char *arg);

/* splats[0 .. n) finite with positive widths (centre coordinates up to dim),
 * splats not NULL when n > 0: else INVALID_ARGUMENT naming fn and the entry
 * (lib/core/splat.c). */
homg_status homg__check_splats(homg_ctx *ctx, const char *fn, int dim, const homg_splat *splats, int n);

/* Runs a backend call and turns its failure into a ctx failure. */
#define HOMG_TRY_BACKEND(ctx, call, what)                       \
    do {                                                        \
        homg_status homg_st_ = (call);                          \
        if (homg_st_ != HOMG_OK)                                \
            return homg__backend_fail((ctx), homg_st_, (what)); \
    } while (0)
/* HOMG_TRY(call), which returns a failure as it is, comes from kernels.h. */

#endif
