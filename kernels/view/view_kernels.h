/* view_kernels.h -- what homg_view (lib/view) asks of a backend: writing a
 * field into memory that GL reads (raw float values, or RGBA8 colours through
 * the colour map of colormap.h), the colour range found where the values are,
 * and -- CUDA only; the CPU twins return UNSUPPORTED -- the interop calls:
 * registered GL objects mapped per frame, a VMM allocation exported as a file
 * descriptor, and semaphores imported from file descriptors. */
#ifndef HOMG_VIEW_KERNELS_H
#define HOMG_VIEW_KERNELS_H

#include "kernels.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values written: element (i, j) of the w x h picture, i < w, j < h, is
 * values[offset + i * sx + j * sy] (a 2D field, a plane of a 3D one, a vector
 * with h = 1), in the exec's memory space. */
typedef struct view_src {
    const void *values;
    homg_precision precision;
    int64_t offset, sx, sy;
    int32_t w, h;
} view_src;

/* Where they go: w * h floats (rgba8 = 0) or RGBA8 texels (rgba8 = 1), row
 * after row, at `ptr` (exec's space), or, when ptr is NULL, a CUDA surface
 * object (a mapped GL texture).  The colour range is lo, hi, or, when range is
 * not NULL, the two ordered integers view_range left there. */
typedef struct view_dst {
    int rgba8;
    void *ptr;
    unsigned long long surface;
    float lo, hi;
    const int32_t *range;
} view_dst;

/* A device allocation made with the CUDA virtual memory calls and exported as
 * a POSIX file descriptor, which GL imports (GL_EXT_memory_object_fd). */
typedef struct view_shared {
    void *ptr;                 /* device address, mapped read-write on the exec's device */
    size_t bytes;              /* rounded up to the allocation granularity */
    int fd;                    /* the exported descriptor; -1 once it is handed to GL */
    unsigned long long handle; /* CUmemGenericAllocationHandle */
    void *ext;                 /* CUDA's one import of this memory for the slots' arrays (shared_surface), freed
                                  by shared_free; NULL: none yet */
    int import_each;           /* each array its own import, freed with it (before s8-view5; a benchmark knob) */
} view_shared;

/* The interop entries take `image` = 1 for a GL_TEXTURE_2D, 0 for a buffer object. */
#define VIEW_KERNELS(X)                                                                                       \
    /* min and max of the finite values of src, as ordered integers (colormap.h), into range[0..1] */         \
    X(homg_status, view, range, (kernel_exec * ex, const view_src *src, int32_t *range))                      \
    X(homg_status, view, write, (kernel_exec * ex, const view_src *src, const view_dst *dst))                 \
    /* The CUDA devices of the current GL context (cudaGLGetDevices); *count = 0 when it is on none, \
     * with the reason in ex->msg. */        \
    X(homg_status, view, gl_devices, (kernel_exec * ex, int *devices, int max, int *count))                   \
    X(homg_status, view, uuid, (kernel_exec * ex, unsigned char uuid[16]))                                    \
    X(homg_status, view, gl_register, (kernel_exec * ex, unsigned name, int image, void **resource))          \
    X(void, view, gl_unregister, (void *resource))                                                            \
    /* Maps on the exec's stream; fills dst->ptr (buffer, *bytes its size) or dst->surface (image). */        \
    X(homg_status, view, gl_map, (kernel_exec * ex, void *resource, int image, view_dst *dst, size_t *bytes)) \
    X(homg_status, view, gl_unmap, (kernel_exec * ex, void *resource, view_dst *dst))                         \
    X(homg_status, view, shared_alloc, (kernel_exec * ex, size_t bytes, view_shared * sh))                    \
    X(void, view, shared_free, (kernel_exec * ex, view_shared * sh))                                          \
    /* A w x h CUDA array (rgba8: uchar4, else float; 1 level) on sh's memory at `offset` (sh imported \
     * once as external memory from a fresh descriptor: sh->ext), and a surface object on it; *handle frees \
     * both (not sh->ext, unless sh->import_each). */      \
    X(homg_status, view, shared_surface,                                                                      \
      (kernel_exec * ex, view_shared * sh, size_t offset, int w, int h, int rgba8, void **handle,             \
       unsigned long long *surface))                                                                          \
    X(void, view, shared_surface_free, (void *handle))                                                        \
    /* Imports a semaphore from fd (taking the descriptor on success). */                                     \
    X(homg_status, view, sem_import, (kernel_exec * ex, int fd, void **sem))                                  \
    X(void, view, sem_destroy, (void *sem))                                                                   \
    /* Queued on the exec's stream. */                                                                        \
    X(homg_status, view, sem_signal, (kernel_exec * ex, void *sem))                                           \
    X(homg_status, view, sem_wait, (kernel_exec * ex, void *sem))                                             \
    /* Events the host checks (the SHARED ring, lib/view/ring.c): flags 0 without timing (1 with, 2 \
     * blocking sync; bench_view's knob), recorded on the exec's stream; done: *done = 1 once it has \
     * passed (wait = 0: a query, never blocks). */         \
    X(homg_status, view, event_create, (kernel_exec * ex, int flags, void **ev))                              \
    X(void, view, event_destroy, (void *ev))                                                                  \
    X(homg_status, view, event_record, (kernel_exec * ex, void *ev))                                          \
    X(homg_status, view, event_done, (kernel_exec * ex, void *ev, int wait, int *done))

typedef struct view_kernels {
    const char *name;
    VIEW_KERNELS(HOMG_KERNEL_MEMBER)
} view_kernels;
VIEW_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
VIEW_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const view_kernels homg_cpu_view_kernels;
#if HOMG_HAVE_CUDA
extern const view_kernels homg_cuda_view_kernels;
#endif

#ifdef __cplusplus
}
#endif
#endif
