/* memory.cu -- CUDA backend: device memory, the caller's stream, graphs, events. */
#include "cuda_check.h"

#include <stdio.h>

extern "C" int homg_cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
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
    HOMG_CUDA_TRY(ex, cudaMalloc(ptr, bytes));
    return HOMG_OK;
}

void homg_cuda_memory_free(kernel_exec *ex, void *ptr)
{
    (void)ex;
    if (ptr)
        cudaFree(ptr);
}

homg_status homg_cuda_memory_copy(kernel_exec *ex, void *dst, const void *src, size_t bytes, homg_copy_kind kind)
{
    if (!bytes)
        return HOMG_OK;
    cudaMemcpyKind k = kind == HOMG_H2D   ? cudaMemcpyHostToDevice
                       : kind == HOMG_D2H ? cudaMemcpyDeviceToHost
                                          : cudaMemcpyDeviceToDevice;
    cudaStream_t s = homg_cuda_stream(ex);
    HOMG_CUDA_TRY(ex, cudaMemcpyAsync(dst, src, bytes, k, s));
    if (kind != HOMG_D2D)
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
