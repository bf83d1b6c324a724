/* memory.cu -- CUDA backend: device memory, the caller's stream, graphs, events. */
#include "cuda_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" int homg_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

/* The default allocator (the caller gave no homg_allocator): a stream-ordered
 * pool the ctx owns, cudaMallocFromPoolAsync / cudaFreeAsync on the ctx's
 * stream.  A create's ~30 cudaMalloc calls cost 45-190 us of host time each
 * (s11-gmg15's CUPTI timeline, GMG 65^3), and every cudaFree waits for the
 * whole device; from the pool both are queue operations.  HOMG_CUDA_POOL=0
 * gives plain cudaMalloc / cudaFree back; HOMG_CUDA_POOL_KEEP_MB (default 1/64 of
 * the device's memory, 1.2 GB on an 80 GB H100)
 * is the pool's release threshold: at each synchronisation it returns its idle
 * memory to the driver down to that many MB reserved, so a ctx keeps at most
 * that much idle memory between creates.  Why it is safe:
 *  (1) lanes: alloc and free go on ex->stream, i.e. the selected lane's
 *      stream while forked (GMG's smoother set-up allocates inside a fork:
 *      the memory is then ready on that lane, and on the others only after the
 *      join, which is where they may use it).  Memory allocated before a fork
 *      is ready on every lane (the fork's event follows it); frees of memory
 *      that several lanes used come after the join.  The pool's reuse across
 *      streams follows CUDA's rules (event dependencies / completed frees), so
 *      a block freed on one lane is never handed to another lane early.
 *  (2) host copies: homg's copies are cudaMemcpyAsync on homg_cuda_stream(ex)
 *      followed by a stream synchronisation, never cudaMemcpy on the legacy
 *      stream, so memory allocated on a non-blocking caller stream is ready
 *      for them; cuSPARSE/cuSOLVER/CUB work is queued on the same stream.
 *  (3) homg_alloc's memory is ready in the ctx stream's order, and homg_free
 *      frees in that order (lib/homg.h says so): a caller who uses it on
 *      another stream orders that stream after the ctx's (an event), or gives
 *      its own allocator, or sets HOMG_CUDA_POOL=0.
 *  (4) graphs: nothing is allocated while a graph is captured (homg.h), and
 *      alloc/free use ex->stream, never the capture stream, so no memory node
 *      could enter a graph even if one were.
 *  (5) memory figures: homg's reported bytes (AMG's, GMG's, track.c) are
 *      counted from the sizes asked for, not from cudaMemGetInfo; the
 *      library's own free-memory checks (gen memory_available, the FFT's)
 *      use homg_cuda_free_bytes, which adds the pool's idle bytes.  A
 *      caller's cudaMemGetInfo sees up to HOMG_CUDA_POOL_KEEP_MB more in use
 *      while the ctx lives (bench_grid --general sets HOMG_CUDA_POOL=0 for
 *      its bytes/unknown figure).  The pool is destroyed with the ctx (its
 *      memory returned once the last block is freed).
 * A device without memory pools, or a failed cudaMemPoolCreate, gets cudaMalloc. */
static void *pool_create(int device, size_t device_bytes)
{
    const char *on = getenv("HOMG_CUDA_POOL"), *keep_mb = getenv("HOMG_CUDA_POOL_KEEP_MB");
    int supported = 0;
    if (on && !strcmp(on, "0"))
        return NULL;
    if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess || !supported) {
        cudaGetLastError();
        return NULL;
    }
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = NULL;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    /* 1/64 of the device: GMG 65^3 (a 407 MB hierarchy) set-up 9.33 ms median of 3 rounds with 1024 MB kept,
     * 9.87 with 256, 10.09 with cudaMalloc (H100 2026-11-27, raw/h100_pool_keep_2026-11-27_s11.log) */
    uint64_t keep = keep_mb && *keep_mb ? (uint64_t)strtoull(keep_mb, NULL, 10) << 20 : (uint64_t)device_bytes / 64;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    return pool;
}

size_t homg_cuda_free_bytes(const kernel_exec *ex, size_t *total)
{
    size_t avail = 0, all = 0;
    uint64_t reserved = 0, used = 0;
    if (total)
        *total = 0;
    if (cudaMemGetInfo(&avail, &all) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    if (total)
        *total = all;
    if (ex->pool &&
        cudaMemPoolGetAttribute((cudaMemPool_t)ex->pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
        cudaMemPoolGetAttribute((cudaMemPool_t)ex->pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess &&
        reserved > used)
        avail += (size_t)(reserved - used);
    return avail;
}

homg_status homg_cuda_memory_init(kernel_exec *ex, int device, void *stream, char *name, size_t namelen)
{
    int n = 0, saved = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        cudaGetLastError();
        return homg_exec_fail(ex, HOMG_ERROR_NO_DEVICE, "no CUDA device: %s",
                              e == cudaSuccess ? "cudaGetDeviceCount found 0 devices" : cudaGetErrorString(e));
    }
    HOMG_CUDA_TRY(ex, cudaGetDevice(&saved));
    if (device < 0)
        device = saved;
    if (device >= n)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "desc.device = %d but only %d CUDA device%s", device, n,
                              n == 1 ? "" : "s");
    cudaDeviceProp p;
    HOMG_CUDA_TRY(ex, cudaGetDeviceProperties(&p, device));
    ex->backend = HOMG_BACKEND_CUDA;
    ex->device = device;
    ex->stream = stream;
    ex->sm_count = p.multiProcessorCount;
    ex->shared_per_block = p.sharedMemPerBlockOptin;
    if (name && namelen)
        snprintf(name, namelen, "cuda:%d %s (sm_%d%d, %d SMs)", device, p.name, p.major, p.minor,
                 p.multiProcessorCount);
    /* The capture stream is created on the context's device without leaving it current. */
    HOMG_CUDA_TRY(ex, cudaSetDevice(device));
    cudaStream_t cs;
    e = cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking);
    cudaSetDevice(saved);
    if (e != cudaSuccess)
        return homg_cuda_fail(ex, e, "cudaStreamCreateWithFlags");
    ex->capture_stream = cs;
    ex->pool = pool_create(device, p.totalGlobalMem);
    return HOMG_OK;
}

void homg_cuda_memory_shutdown(kernel_exec *ex)
{
    for (int i = 0; i < HOMG_EXEC_LANES - 1; i++) {
        if (ex->side[i])
            cudaStreamDestroy((cudaStream_t)ex->side[i]);
        if (ex->side_done[i])
            cudaEventDestroy((cudaEvent_t)ex->side_done[i]);
        ex->side[i] = ex->side_done[i] = NULL;
    }
    if (ex->forked)
        cudaEventDestroy((cudaEvent_t)ex->forked);
    ex->forked = NULL;
    if (ex->capture_stream) {
        cudaStreamDestroy((cudaStream_t)ex->capture_stream);
        ex->capture_stream = NULL;
    }
    if (ex->loop_stream)
        cudaStreamDestroy((cudaStream_t)ex->loop_stream);
    ex->loop_stream = NULL;
    if (ex->branch_stream)
        cudaStreamDestroy((cudaStream_t)ex->branch_stream);
    ex->branch_stream = NULL;
    if (ex->pool) /* freed now, or once the last block (queued frees, homg_alloc's) is freed */
        cudaMemPoolDestroy((cudaMemPool_t)ex->pool);
    ex->pool = NULL;
}

homg_status homg_cuda_memory_enter(kernel_exec *ex, int *saved)
{
    HOMG_CUDA_TRY(ex, cudaGetDevice(saved));
    if (*saved != ex->device)
        HOMG_CUDA_TRY(ex, cudaSetDevice(ex->device));
    return HOMG_OK;
}

void homg_cuda_memory_leave(kernel_exec *ex, int saved)
{
    if (saved != ex->device)
        cudaSetDevice(saved);
}

homg_status homg_cuda_memory_alloc(kernel_exec *ex, size_t bytes, void **ptr)
{
    *ptr = NULL;
    if (!bytes)
        return HOMG_OK;
    if (ex->pool)
        HOMG_CUDA_TRY(ex, cudaMallocFromPoolAsync(ptr, bytes, (cudaMemPool_t)ex->pool, (cudaStream_t)ex->stream));
    else
        HOMG_CUDA_TRY(ex, cudaMalloc(ptr, bytes));
    return HOMG_OK;
}

void homg_cuda_memory_free(kernel_exec *ex, void *ptr)
{
    if (!ptr)
        return;
    if (ex->pool)
        cudaFreeAsync(ptr, (cudaStream_t)ex->stream);
    else
        cudaFree(ptr);
}

/* Pageable (unregistered) host memory: cudaMemcpyAsync has read it (staged
 * it) before it returns.  Pinned or managed memory is read by the DMA later.
 * HOMG_SYNC_UPLOADS=1 in the environment: every upload waits (as before
 * s13-gmg20; for comparisons). */
static int host_pageable(const void *p)
{
    static int sync_all = -1;
    cudaPointerAttributes a;
    if (sync_all < 0)
        sync_all = getenv("HOMG_SYNC_UPLOADS") && atoi(getenv("HOMG_SYNC_UPLOADS")) != 0;
    if (sync_all)
        return 0;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeUnregistered;
}

homg_status homg_cuda_memory_copy(kernel_exec *ex, void *dst, const void *src, size_t bytes, homg_copy_kind kind)
{
    if (!bytes)
        return HOMG_OK;
    cudaMemcpyKind k = kind == HOMG_D2H   ? cudaMemcpyDeviceToHost
                       : kind == HOMG_D2D ? cudaMemcpyDeviceToDevice
                                          : cudaMemcpyHostToDevice;
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(dst, src, bytes, k, s));
    if (kind == HOMG_H2D || kind == HOMG_D2H || (kind == HOMG_H2D_ORDERED && !host_pageable(src)))
        HOMG_CUDA_TRY(ex, cudaStreamSynchronize(s));
    return HOMG_OK;
}

homg_status homg_cuda_memory_zero(kernel_exec *ex, void *ptr, size_t bytes)
{
    if (bytes)
        HOMG_CUDA_TRY(ex, cudaMemsetAsync(ptr, 0, bytes, homg_cuda_stream(ex)));
    return HOMG_OK;
}

homg_status homg_cuda_memory_sync(kernel_exec *ex)
{
    HOMG_CUDA_TRY(ex, cudaStreamSynchronize((cudaStream_t)ex->stream));
    return HOMG_OK;
}

int homg_cuda_memory_pointer_ok(kernel_exec *ex, const void *ptr)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    if (a.type == cudaMemoryTypeDevice)
        return a.device == ex->device ? 1 : 0;
    return a.type == cudaMemoryTypeManaged ? 1 : 0;
}

homg_status homg_cuda_memory_capture_begin(kernel_exec *ex)
{
    /* Capture on the private stream, ordered after the caller's stream. */
    cudaStream_t cs = (cudaStream_t)ex->capture_stream;
    HOMG_CUDA_TRY(ex, cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
    ex->capturing = 1;
    return HOMG_OK;
}

homg_status homg_cuda_memory_capture_end(kernel_exec *ex, void **graph)
{
    cudaGraph_t g = NULL;
    cudaGraphExec_t ge = NULL;
    if (ex->branch_outer) /* a failure inside a branch's or a loop's body: end their captures first */
        homg_cuda_memory_branch_end(ex);
    if (ex->loop_outer)
        homg_cuda_memory_loop_end(ex);
    ex->capturing = 0;
    *graph = NULL;
    HOMG_CUDA_TRY(ex, cudaStreamEndCapture((cudaStream_t)ex->capture_stream, &g));
    cudaError_t e = cudaGraphInstantiate(&ge, g, 0);
    cudaGraphDestroy(g);
    if (e != cudaSuccess)
        return homg_cuda_fail(ex, e, "cudaGraphInstantiate");
    *graph = ge;
    return HOMG_OK;
}

/* The graph the capture stream is capturing into, and (deps not NULL) its current
 * dependencies; the edges' data is asked for only because a query without it fails
 * where an edge is programmatic. */
static homg_status capture_graph(kernel_exec *ex, cudaGraph_t *graph, const cudaGraphNode_t **deps, size_t *ndeps)
{
    cudaStreamCaptureStatus st;
    const cudaGraphEdgeData *edges = NULL;
    HOMG_CUDA_TRY(ex, cudaStreamGetCaptureInfo((cudaStream_t)ex->capture_stream, &st, NULL, graph, deps,
                                               deps ? &edges : NULL, ndeps));
    if (st != cudaStreamCaptureStatusActive)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "a loop or branch outside a graph capture");
    return HOMG_OK;
}

/* Adds a conditional node of `type` after what the capture holds and captures what follows
 * into its body on *body_stream (made on first use) while the capture stream waits in *outer. */
static homg_status conditional_begin(kernel_exec *ex, unsigned long long handle, cudaGraphConditionalNodeType type,
                                     void **body_stream, void **outer)
{
    cudaGraph_t graph;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    cudaGraphNode_t node;
    cudaGraphNodeParams p = { cudaGraphNodeTypeConditional }; /* the rest zero */
    HOMG_TRY(capture_graph(ex, &graph, &deps, &ndeps));
    p.conditional.handle = handle;
    p.conditional.type = type;
    p.conditional.size = 1;
    HOMG_CUDA_TRY(ex, cudaGraphAddNode(&node, graph, deps, NULL, ndeps, &p));
    HOMG_CUDA_TRY(ex, cudaStreamUpdateCaptureDependencies((cudaStream_t)ex->capture_stream, &node, NULL, 1,
                                                          cudaStreamSetCaptureDependencies));
    if (!*body_stream) {
        cudaStream_t bs;
        HOMG_CUDA_TRY(ex, cudaStreamCreateWithFlags(&bs, cudaStreamNonBlocking));
        *body_stream = bs;
    }
    HOMG_CUDA_TRY(ex, cudaStreamBeginCaptureToGraph((cudaStream_t)*body_stream, p.conditional.phGraph_out[0], NULL,
                                                    NULL, 0, cudaStreamCaptureModeThreadLocal));
    *outer = ex->capture_stream;
    ex->capture_stream = *body_stream;
    return HOMG_OK;
}

/* Ends the capture of a conditional body begun by conditional_begin. */
static homg_status conditional_end(kernel_exec *ex, void *body_stream, void **outer, const char *what)
{
    cudaGraph_t body = NULL;
    if (!*outer)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "%s_end without %s_begin", what, what);
    cudaError_t e = cudaStreamEndCapture((cudaStream_t)body_stream, &body);
    ex->capture_stream = *outer;
    *outer = NULL;
    if (e != cudaSuccess)
        return homg_cuda_fail(ex, e, what);
    return HOMG_OK;
}

homg_status homg_cuda_memory_loop_handle(kernel_exec *ex, unsigned long long *handle)
{
    cudaGraph_t graph;
    cudaGraphConditionalHandle h;
    HOMG_TRY(capture_graph(ex, &graph, NULL, NULL));
    HOMG_CUDA_TRY(ex, cudaGraphConditionalHandleCreate(&h, graph, 0, cudaGraphCondAssignDefault));
    *handle = h;
    return HOMG_OK;
}

homg_status homg_cuda_memory_loop_begin(kernel_exec *ex, unsigned long long handle)
{
    if (ex->loop_outer)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "a loop inside a loop");
    return conditional_begin(ex, handle, cudaGraphCondTypeWhile, &ex->loop_stream, &ex->loop_outer);
}

homg_status homg_cuda_memory_loop_end(kernel_exec *ex)
{
    return conditional_end(ex, ex->loop_stream, &ex->loop_outer, "loop");
}

homg_status homg_cuda_memory_branch_begin(kernel_exec *ex, unsigned long long handle)
{
    if (!ex->loop_outer || ex->branch_outer)
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "a branch outside a loop's body, or inside a branch");
    return conditional_begin(ex, handle, cudaGraphCondTypeIf, &ex->branch_stream, &ex->branch_outer);
}

homg_status homg_cuda_memory_branch_end(kernel_exec *ex)
{
    return conditional_end(ex, ex->branch_stream, &ex->branch_outer, "branch");
}

homg_status homg_cuda_memory_graph_launch(kernel_exec *ex, void *graph)
{
    HOMG_CUDA_TRY(ex, cudaGraphLaunch((cudaGraphExec_t)graph, (cudaStream_t)ex->stream));
    return HOMG_OK;
}

void homg_cuda_memory_graph_destroy(void *graph)
{
    if (graph)
        cudaGraphExecDestroy((cudaGraphExec_t)graph);
}

homg_status homg_cuda_memory_event_create(void **ev)
{
    cudaEvent_t e;
    if (cudaEventCreate(&e) != cudaSuccess)
        return HOMG_ERROR_BACKEND;
    *ev = e;
    return HOMG_OK;
}

void homg_cuda_memory_event_destroy(void *ev)
{
    if (ev)
        cudaEventDestroy((cudaEvent_t)ev);
}

homg_status homg_cuda_memory_event_record(kernel_exec *ex, void *ev)
{
    HOMG_CUDA_TRY(ex, cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)ex->stream));
    return HOMG_OK;
}

homg_status homg_cuda_memory_event_elapsed_ms(void *start, void *stop, float *ms)
{
    if (cudaEventSynchronize((cudaEvent_t)stop) != cudaSuccess ||
        cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)stop) != cudaSuccess)
        return HOMG_ERROR_BACKEND;
    return HOMG_OK;
}

/* The side streams and events, made on the context's device on the first fork. */
static homg_status lanes_create(kernel_exec *ex, int n)
{
    int saved = 0;
    cudaError_t e = cudaSuccess;
    HOMG_CUDA_TRY(ex, cudaGetDevice(&saved));
    HOMG_CUDA_TRY(ex, cudaSetDevice(ex->device));
    if (!ex->forked)
        e = cudaEventCreateWithFlags((cudaEvent_t *)&ex->forked, cudaEventDisableTiming);
    for (int i = 0; i < n - 1 && e == cudaSuccess; i++) {
        if (!ex->side[i])
            e = cudaStreamCreateWithFlags((cudaStream_t *)&ex->side[i], cudaStreamNonBlocking);
        if (e == cudaSuccess && !ex->side_done[i])
            e = cudaEventCreateWithFlags((cudaEvent_t *)&ex->side_done[i], cudaEventDisableTiming);
    }
    cudaSetDevice(saved);
    if (e != cudaSuccess)
        return homg_cuda_fail(ex, e, "creating the lanes' streams");
    return HOMG_OK;
}

homg_status homg_cuda_memory_fork(kernel_exec *ex, int n)
{
    if (n > HOMG_EXEC_LANES)
        return homg_exec_fail(ex, HOMG_ERROR_INVALID_ARGUMENT, "%d lanes (at most %d)", n, HOMG_EXEC_LANES);
    if (n < 2)
        return HOMG_OK;
    HOMG_TRY(lanes_create(ex, n));
    ex->home = ex->stream;
    HOMG_CUDA_TRY(ex, cudaEventRecord((cudaEvent_t)ex->forked, (cudaStream_t)ex->stream));
    for (int i = 0; i < n - 1; i++)
        HOMG_CUDA_TRY(ex, cudaStreamWaitEvent((cudaStream_t)ex->side[i], (cudaEvent_t)ex->forked, 0));
    return HOMG_OK;
}

void homg_cuda_memory_lane(kernel_exec *ex, int i)
{
    if (ex->forked)
        ex->stream = i > 0 && ex->side[i - 1] ? ex->side[i - 1] : ex->home;
}

homg_status homg_cuda_memory_join(kernel_exec *ex, int n)
{
    if (n < 2)
        return HOMG_OK;
    homg_cuda_memory_lane(ex, 0);
    for (int i = 0; i < n - 1; i++) {
        HOMG_CUDA_TRY(ex, cudaEventRecord((cudaEvent_t)ex->side_done[i], (cudaStream_t)ex->side[i]));
        HOMG_CUDA_TRY(ex, cudaStreamWaitEvent((cudaStream_t)ex->stream, (cudaEvent_t)ex->side_done[i], 0));
    }
    return HOMG_OK;
}

extern "C" const memory_kernels homg_cuda_memory_kernels = { .name = "cuda", MEMORY_KERNELS(HOMG_KERNEL_CUDA_INIT) };
