/* memory.c -- CPU backend: host memory, a no-op stream, host-clock events. */
#define _POSIX_C_SOURCE 200809L
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if HOMG_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

homg_status homg_cpu_memory_init(kernel_exec *ex, int device, void *stream, char *name, size_t namelen)
{
    (void)device;
    (void)stream;
    ex->backend = HOMG_BACKEND_CPU;
#ifdef _OPENMP
    ex->sm_count = omp_get_max_threads();
#else
    ex->sm_count = 1;
#endif
    if (name && namelen)
        snprintf(name, namelen, "cpu (%d thread%s)", ex->sm_count, ex->sm_count == 1 ? "" : "s");
    return HOMG_OK;
}

void homg_cpu_memory_shutdown(kernel_exec *ex) { (void)ex; }

homg_status homg_cpu_memory_enter(kernel_exec *ex, int *saved)
{
    (void)ex;
    *saved = 0;
    return HOMG_OK;
}

void homg_cpu_memory_leave(kernel_exec *ex, int saved)
{
    (void)ex;
    (void)saved;
}

homg_status homg_cpu_memory_alloc(kernel_exec *ex, size_t bytes, void **ptr)
{
    /* 64-byte alignment keeps vector loads and OpenMP chunks tidy. */
    size_t rounded = (bytes + 63) / 64 * 64;
    if (rounded < bytes)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "allocation of %zu bytes overflows", bytes);
    *ptr = NULL;
    if (rounded && posix_memalign(ptr, 64, rounded) != 0)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "host allocation of %zu bytes failed", bytes);
    return HOMG_OK;
}

void homg_cpu_memory_free(kernel_exec *ex, void *ptr)
{
    (void)ex;
    free(ptr);
}

homg_status homg_cpu_memory_copy(kernel_exec *ex, void *dst, const void *src, size_t bytes, homg_copy_kind kind)
{
    (void)ex;
    (void)kind;
    if (bytes && dst != src)
        memmove(dst, src, bytes);
    return HOMG_OK;
}

homg_status homg_cpu_memory_zero(kernel_exec *ex, void *ptr, size_t bytes)
{
    (void)ex;
    if (bytes)
        memset(ptr, 0, bytes);
    return HOMG_OK;
}

homg_status homg_cpu_memory_sync(kernel_exec *ex)
{
    (void)ex;
    return HOMG_OK;
}

int homg_cpu_memory_pointer_ok(kernel_exec *ex, const void *ptr)
{
    (void)ex;
#if HOMG_HAVE_CUDA
    /* A device pointer handed to the CPU backend is the classic mix-up; the CUDA
     * runtime can tell when a driver is present. */
    struct cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, ptr) == cudaSuccess)
        return attr.type == cudaMemoryTypeDevice ? 0 : 1;
    cudaGetLastError();
#else
    (void)ptr;
#endif
    return -1;
}

homg_status homg_cpu_memory_capture_begin(kernel_exec *ex)
{
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

homg_status homg_cpu_memory_capture_end(kernel_exec *ex, void **graph)
{
    *graph = NULL;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

homg_status homg_cpu_memory_graph_launch(kernel_exec *ex, void *graph)
{
    (void)graph;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

void homg_cpu_memory_graph_destroy(void *graph) { (void)graph; }

homg_status homg_cpu_memory_loop_handle(kernel_exec *ex, unsigned long long *handle)
{
    *handle = 0;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

homg_status homg_cpu_memory_loop_begin(kernel_exec *ex, unsigned long long handle)
{
    (void)handle;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

homg_status homg_cpu_memory_loop_end(kernel_exec *ex)
{
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

homg_status homg_cpu_memory_branch_begin(kernel_exec *ex, unsigned long long handle)
{
    (void)handle;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

homg_status homg_cpu_memory_branch_end(kernel_exec *ex)
{
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no graphs");
}

/* One lane: callers run the lanes' sequences one after the other. */
homg_status homg_cpu_memory_fork(kernel_exec *ex, int n)
{
    (void)ex;
    (void)n;
    return HOMG_OK;
}

void homg_cpu_memory_lane(kernel_exec *ex, int i)
{
    (void)ex;
    (void)i;
}

homg_status homg_cpu_memory_join(kernel_exec *ex, int n)
{
    (void)ex;
    (void)n;
    return HOMG_OK;
}

homg_status homg_cpu_memory_event_create(void **ev)
{
    *ev = calloc(1, sizeof(struct timespec));
    return *ev ? HOMG_OK : HOMG_ERROR_OUT_OF_MEMORY;
}

void homg_cpu_memory_event_destroy(void *ev) { free(ev); }

homg_status homg_cpu_memory_event_record(kernel_exec *ex, void *ev)
{
    (void)ex;
    clock_gettime(CLOCK_MONOTONIC, (struct timespec *)ev);
    return HOMG_OK;
}

homg_status homg_cpu_memory_event_elapsed_ms(void *start, void *stop, float *ms)
{
    const struct timespec *a = (const struct timespec *)start, *b = (const struct timespec *)stop;
    *ms = (float)((double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) * 1e-6);
    return HOMG_OK;
}

const memory_kernels homg_cpu_memory_kernels = { .name = "cpu", MEMORY_KERNELS(HOMG_KERNEL_CPU_INIT) };
