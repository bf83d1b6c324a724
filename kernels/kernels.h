/* kernels.h -- the backend table the library calls.
 *
 * Two implementations of one interface, side by side in each component's
 * folder (kernels/grid, kernels/amg, ...): name.cu (CUDA, the product) and
 * name.c (plain C, the test oracle and the fallback) carry the same name.  Nothing here knows about files, meshes or
 * windows; nothing in lib/ launches a CUDA kernel directly.
 *
 * Every entry takes a kernel_exec: where to queue work (the ctx's stream) and
 * where to leave an error message.  Entries return homg_status; on failure they
 * have written a message to ex->msg.
 *
 * Areas add their own tables in their own headers (grid_kernels.h, ...) and pick
 * the implementation with HOMG_KERNELS(ex, name).
 */
#ifndef HOMG_KERNELS_H
#define HOMG_KERNELS_H

#include "homg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kernel_exec {
    homg_backend backend;    /* CPU or CUDA, never AUTO */
    int device;              /* CUDA ordinal */
    void *stream;            /* cudaStream_t the work is queued on */
    void *capture_stream;    /* private stream used to capture graphs when `stream` is legacy */
    int sm_count;            /* multiprocessors (CUDA), threads (CPU) */
    size_t shared_per_block; /* largest opt-in shared memory per block (CUDA) */
    int capturing;           /* non-zero while a graph is being captured */
    char msg[512];           /* message of the last failure */
} kernel_exec;

/* Selects area table `name` (e.g. grid) of the exec's backend: declares nothing,
 * expects `homg_cpu_<name>_kernels` and, with CUDA, `homg_cuda_<name>_kernels`. */
#if HOMG_HAVE_CUDA
#define HOMG_KERNELS(ex, name) \
    ((ex)->backend == HOMG_BACKEND_CUDA ? &homg_cuda_##name##_kernels : &homg_cpu_##name##_kernels)
#else
#define HOMG_KERNELS(ex, name) (&homg_cpu_##name##_kernels)
#endif

typedef enum homg_copy_kind { HOMG_H2D = 0, HOMG_D2H, HOMG_D2D } homg_copy_kind;

/* Memory, streams, graphs and timers of one backend. */
typedef struct memory_kernels {
    const char *name;
    /* Probes the device (ordinal < 0: the thread's current one), fills ex, writes a name. */
    homg_status (*init)(kernel_exec *ex, int device, void *stream, char *name, size_t namelen);
    void (*shutdown)(kernel_exec *ex);
    /* Make ex's device current for the calling thread; leave restores the previous one. */
    homg_status (*enter)(kernel_exec *ex, int *saved);
    void (*leave)(kernel_exec *ex, int saved);
    homg_status (*alloc)(kernel_exec *ex, size_t bytes, void **ptr);
    void (*free)(kernel_exec *ex, void *ptr);
    /* Ordered on the stream; D2H and H2D block until done. */
    homg_status (*copy)(kernel_exec *ex, void *dst, const void *src, size_t bytes, homg_copy_kind kind);
    homg_status (*zero)(kernel_exec *ex, void *ptr, size_t bytes);
    homg_status (*sync)(kernel_exec *ex);
    /* 1: ptr is usable by this backend, 0: it is not (host pointer given to CUDA,
     * device pointer given to CPU), -1: cannot tell. */
    int (*pointer_ok)(kernel_exec *ex, const void *ptr);
    /* Graph capture of everything queued between begin and end (CUDA); the CPU
     * backend returns UNSUPPORTED and callers run the sequence directly. */
    homg_status (*capture_begin)(kernel_exec *ex);
    homg_status (*capture_end)(kernel_exec *ex, void **graph);
    homg_status (*graph_launch)(kernel_exec *ex, void *graph);
    void (*graph_destroy)(void *graph);
    /* Events on the stream (CPU: host clock). */
    homg_status (*event_create)(void **ev);
    void (*event_destroy)(void *ev);
    homg_status (*event_record)(kernel_exec *ex, void *ev);
    homg_status (*event_elapsed_ms)(void *start, void *stop, float *ms);
} memory_kernels;

extern const memory_kernels homg_cpu_memory_kernels;
#if HOMG_HAVE_CUDA
extern const memory_kernels homg_cuda_memory_kernels;
/* Non-zero when cudaGetDeviceCount finds a device. */
int homg_cuda_device_count(void);
#endif

/* Write a formatted message into ex->msg and return st. */
homg_status homg_exec_fail(kernel_exec *ex, homg_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* HOMG_KERNELS_H */
