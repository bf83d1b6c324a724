/* interop.cu -- CUDA backend of the view's interop entries (CPU twin: interop.c):
 *  - registered GL objects: cudaGraphicsGLRegisterImage / Buffer once, then a
 *    map + unmap pair per frame on the exec's stream (a texture is written
 *    through a surface object of its mapped array);
 *  - memory shared with GL: a CUDA virtual-memory allocation (cuMemCreate with
 *    a POSIX file descriptor as its shareable handle), exported for
 *    glImportMemoryFdEXT; the driver calls are reached through
 *    cudaGetDriverEntryPointByVersion, so nothing links libcuda;
 *  - semaphores shared with GL, imported from file descriptors;
 *  - events the host checks without waiting (cudaEventQuery): the SHARED
 *    path's ring hands a slot to GL once the host has seen its event pass.
 * Without GL headers (HOMG_HAVE_GL = 0) the GL-specific entries say so. */
#include "core/cuda_check.h"
#include "view/view_kernels.h"

#include <cuda.h>
#include <stdlib.h>
#include <unistd.h>

#if HOMG_HAVE_GL
#include <GL/gl.h>
#include <cuda_gl_interop.h>
#endif

extern "C" homg_status homg_cuda_view_gl_devices(kernel_exec *ex, int *devices, int max, int *count)
{
    *count = 0;
#if HOMG_HAVE_GL
    unsigned n = 0;
    cudaError_t e = cudaGLGetDevices(&n, devices, (unsigned)max, cudaGLDeviceListAll);
    if (e != cudaSuccess) {
        cudaGetLastError();
        homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "cudaGLGetDevices: %s (%s)", cudaGetErrorString(e),
                       cudaGetErrorName(e));
        return HOMG_OK; /* the context is on no CUDA device: not an error of this call */
    }
    *count = (int)n;
    return HOMG_OK;
#else
    (void)devices;
    (void)max;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "homg was built without GL headers");
#endif
}

extern "C" homg_status homg_cuda_view_uuid(kernel_exec *ex, unsigned char uuid[16])
{
    cudaDeviceProp p;
    HOMG_CUDA_TRY(ex, cudaGetDeviceProperties(&p, ex->device));
    memcpy(uuid, p.uuid.bytes, 16);
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_view_gl_register(kernel_exec *ex, unsigned name, int image, void **resource)
{
    *resource = NULL;
#if HOMG_HAVE_GL
    cudaGraphicsResource_t r = NULL;
    if (image)
        HOMG_CUDA_TRY(ex, cudaGraphicsGLRegisterImage(&r, name, GL_TEXTURE_2D,
                                                      cudaGraphicsRegisterFlagsSurfaceLoadStore |
                                                          cudaGraphicsRegisterFlagsWriteDiscard));
    else
        HOMG_CUDA_TRY(ex, cudaGraphicsGLRegisterBuffer(&r, name, cudaGraphicsRegisterFlagsWriteDiscard));
    *resource = r;
    return HOMG_OK;
#else
    (void)name;
    (void)image;
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "homg was built without GL headers");
#endif
}

extern "C" void homg_cuda_view_gl_unregister(void *resource)
{
    if (resource)
        cudaGraphicsUnregisterResource((cudaGraphicsResource_t)resource);
}

extern "C" homg_status homg_cuda_view_gl_map(kernel_exec *ex, void *resource, int image, view_dst *dst, size_t *bytes)
{
    cudaGraphicsResource_t r = (cudaGraphicsResource_t)resource;
    cudaStream_t st = homg_cuda_stream(ex);
    cudaError_t e;
    HOMG_CUDA_TRY(ex, cudaGraphicsMapResources(1, &r, st));
    dst->ptr = NULL;
    dst->surface = 0;
    *bytes = 0;
    if (image) {
        cudaArray_t a = NULL;
        e = cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0);
        if (e == cudaSuccess) {
            cudaResourceDesc rd;
            cudaSurfaceObject_t s = 0;
            memset(&rd, 0, sizeof rd);
            rd.resType = cudaResourceTypeArray;
            rd.res.array.array = a;
            e = cudaCreateSurfaceObject(&s, &rd);
            dst->surface = s;
        }
    } else {
        e = cudaGraphicsResourceGetMappedPointer(&dst->ptr, bytes, r);
    }
    if (e != cudaSuccess) {
        cudaGraphicsUnmapResources(1, &r, st);
        return homg_cuda_fail(ex, e, image ? "the mapped texture's array" : "the mapped buffer's pointer");
    }
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_view_gl_unmap(kernel_exec *ex, void *resource, view_dst *dst)
{
    cudaGraphicsResource_t r = (cudaGraphicsResource_t)resource;
    if (dst->surface)
        cudaDestroySurfaceObject((cudaSurfaceObject_t)dst->surface);
    dst->surface = 0;
    dst->ptr = NULL;
    HOMG_CUDA_TRY(ex, cudaGraphicsUnmapResources(1, &r, homg_cuda_stream(ex)));
    return HOMG_OK;
}

/* ---- virtual memory, through the driver's entry points */

struct vmm_api {
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*address_free)(CUdeviceptr, size_t);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*export_handle)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType, unsigned long long);
};

static homg_status entry(kernel_exec *ex, const char *sym, void **fn)
{
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion(sym, fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fn) {
        cudaGetLastError();
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CUDA driver has no %s", sym);
    }
    return HOMG_OK;
}

static homg_status vmm_load(kernel_exec *ex, vmm_api *a)
{
    const char *sym[] = { "cuMemGetAllocationGranularity",
                          "cuMemCreate",
                          "cuMemRelease",
                          "cuMemAddressReserve",
                          "cuMemAddressFree",
                          "cuMemMap",
                          "cuMemUnmap",
                          "cuMemSetAccess",
                          "cuMemExportToShareableHandle" };
    void **fn[] = { (void **)&a->granularity, (void **)&a->create,       (void **)&a->release,
                    (void **)&a->reserve,     (void **)&a->address_free, (void **)&a->map,
                    (void **)&a->unmap,       (void **)&a->set_access,   (void **)&a->export_handle };
    for (int k = 0; k < 9; k++) {
        homg_status st = entry(ex, sym[k], fn[k]);
        if (st != HOMG_OK)
            return st;
    }
    return HOMG_OK;
}

static homg_status cu_fail(kernel_exec *ex, CUresult r, const char *what)
{
    return homg_exec_fail(ex, r == CUDA_ERROR_OUT_OF_MEMORY ? HOMG_ERROR_OUT_OF_MEMORY : HOMG_ERROR_BACKEND,
                          "%s failed (CUresult %d)", what, (int)r);
}

extern "C" homg_status homg_cuda_view_shared_alloc(kernel_exec *ex, size_t bytes, view_shared *sh)
{
    vmm_api a;
    CUmemAllocationProp p;
    CUmemAccessDesc acc;
    CUmemGenericAllocationHandle h = 0;
    CUdeviceptr d = 0;
    size_t g = 0, size;
    CUresult r;
    int fd = -1;
    sh->ptr = NULL;
    sh->fd = -1;
    sh->bytes = 0;
    sh->ext = NULL;
    homg_status st = vmm_load(ex, &a);
    if (st != HOMG_OK)
        return st;
    HOMG_CUDA_TRY(ex, cudaFree(0)); /* the runtime's primary context current on this thread */
    memset(&p, 0, sizeof p);
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = ex->device;
    p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    if ((r = a.granularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)) != CUDA_SUCCESS || !g)
        return cu_fail(ex, r, "cuMemGetAllocationGranularity");
    size = (bytes + g - 1) / g * g;
    if ((r = a.create(&h, size, &p, 0)) != CUDA_SUCCESS)
        return cu_fail(ex, r, "cuMemCreate (exportable as a file descriptor)");
    if ((r = a.reserve(&d, size, 0, 0, 0)) != CUDA_SUCCESS) {
        a.release(h);
        return cu_fail(ex, r, "cuMemAddressReserve");
    }
    memset(&acc, 0, sizeof acc);
    acc.location = p.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if ((r = a.map(d, size, 0, h, 0)) != CUDA_SUCCESS || (r = a.set_access(d, size, &acc, 1)) != CUDA_SUCCESS ||
        (r = a.export_handle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)) != CUDA_SUCCESS) {
        a.unmap(d, size);
        a.address_free(d, size);
        a.release(h);
        return cu_fail(ex, r, "mapping or exporting the shared allocation");
    }
    sh->ptr = (void *)d;
    sh->bytes = size;
    sh->fd = fd;
    sh->handle = h;
    return HOMG_OK;
}

extern "C" void homg_cuda_view_shared_free(kernel_exec *ex, view_shared *sh)
{
    vmm_api a;
    if (sh->fd >= 0)
        close(sh->fd);
    sh->fd = -1;
    if (sh->ext) /* the slots' arrays on it are freed (slots.c) */
        cudaDestroyExternalMemory((cudaExternalMemory_t)sh->ext);
    sh->ext = NULL;
    if (!sh->ptr || vmm_load(ex, &a) != HOMG_OK)
        return;
    a.unmap((CUdeviceptr)sh->ptr, sh->bytes);
    a.address_free((CUdeviceptr)sh->ptr, sh->bytes);
    a.release((CUmemGenericAllocationHandle)sh->handle);
    sh->ptr = NULL;
}

/* ---- the ring's slots as CUDA arrays (lib/view/slots.c: GL's optimal-tiled textures on the same memory) */

struct slot_surface {
    cudaExternalMemory_t ext; /* its own import (sh->import_each), else NULL: sh->ext */
    cudaMipmappedArray_t mip;
    cudaSurfaceObject_t surf;
};

extern "C" void homg_cuda_view_shared_surface_free(void *handle)
{
    slot_surface *s = (slot_surface *)handle;
    if (!s)
        return;
    if (s->surf)
        cudaDestroySurfaceObject(s->surf);
    if (s->mip)
        cudaFreeMipmappedArray(s->mip);
    if (s->ext)
        cudaDestroyExternalMemory(s->ext);
    free(s);
}

/* sh's memory imported into CUDA as external memory from a fresh descriptor. */
static cudaError_t import_shared(const view_shared *sh, vmm_api *a, cudaExternalMemory_t *ext, CUresult *r)
{
    cudaExternalMemoryHandleDesc md;
    cudaError_t e;
    int fd = -1;
    *ext = NULL;
    if ((*r = a->export_handle(&fd, (CUmemGenericAllocationHandle)sh->handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                               0)) != CUDA_SUCCESS)
        return cudaErrorUnknown;
    memset(&md, 0, sizeof md);
    md.type = cudaExternalMemoryHandleTypeOpaqueFd;
    md.handle.fd = fd;
    md.size = sh->bytes;
    e = cudaImportExternalMemory(ext, &md);
    if (e != cudaSuccess) {
        close(fd); /* CUDA owns it once imported */
        *ext = NULL;
    }
    return e;
}

extern "C" homg_status homg_cuda_view_shared_surface(kernel_exec *ex, view_shared *sh, size_t offset, int w, int h,
                                                     int rgba8, void **handle, unsigned long long *surface)
{
    vmm_api a;
    cudaExternalMemoryMipmappedArrayDesc ad;
    cudaExternalMemory_t ext = NULL;
    cudaResourceDesc rd;
    cudaArray_t arr = NULL;
    cudaError_t e = cudaSuccess;
    CUresult r = CUDA_SUCCESS;
    slot_surface *s;
    *handle = NULL;
    *surface = 0;
    homg_status st = vmm_load(ex, &a);
    if (st != HOMG_OK)
        return st;
    s = (slot_surface *)calloc(1, sizeof *s);
    if (!s)
        return homg_exec_fail(ex, HOMG_ERROR_OUT_OF_MEMORY, "a slot surface");
    if (sh->import_each) {
        e = import_shared(sh, &a, &s->ext, &r);
        ext = s->ext;
    } else {
        if (!sh->ext && (e = import_shared(sh, &a, &ext, &r)) == cudaSuccess)
            sh->ext = (void *)ext;
        ext = (cudaExternalMemory_t)sh->ext;
    }
    if (r != CUDA_SUCCESS) {
        free(s);
        return cu_fail(ex, r, "cuMemExportToShareableHandle");
    }
    if (e == cudaSuccess) {
        memset(&ad, 0, sizeof ad);
        ad.offset = offset;
        ad.formatDesc = rgba8 ? cudaCreateChannelDesc<uchar4>() : cudaCreateChannelDesc<float>();
        ad.extent = make_cudaExtent((size_t)w, (size_t)h, 0);
        ad.flags = cudaArraySurfaceLoadStore;
        ad.numLevels = 1;
        e = cudaExternalMemoryGetMappedMipmappedArray(&s->mip, ext, &ad);
    }
    if (e == cudaSuccess)
        e = cudaGetMipmappedArrayLevel(&arr, s->mip, 0);
    if (e == cudaSuccess) {
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        e = cudaCreateSurfaceObject(&s->surf, &rd);
    }
    if (e != cudaSuccess) {
        cudaGetLastError();
        homg_cuda_view_shared_surface_free(s);
        return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "a CUDA array on the shared memory: %s",
                              cudaGetErrorString(e));
    }
    *handle = s;
    *surface = (unsigned long long)s->surf;
    return HOMG_OK;
}

/* ---- semaphores */

extern "C" homg_status homg_cuda_view_sem_import(kernel_exec *ex, int fd, void **sem)
{
    cudaExternalSemaphoreHandleDesc d;
    cudaExternalSemaphore_t s = NULL;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = fd;
    *sem = NULL;
    HOMG_CUDA_TRY(ex, cudaImportExternalSemaphore(&s, &d));
    *sem = s;
    return HOMG_OK;
}

extern "C" void homg_cuda_view_sem_destroy(void *sem)
{
    if (sem)
        cudaDestroyExternalSemaphore((cudaExternalSemaphore_t)sem);
}

extern "C" homg_status homg_cuda_view_sem_signal(kernel_exec *ex, void *sem)
{
    cudaExternalSemaphore_t s = (cudaExternalSemaphore_t)sem;
    cudaExternalSemaphoreSignalParams p;
    memset(&p, 0, sizeof p);
    HOMG_CUDA_TRY(ex, cudaSignalExternalSemaphoresAsync(&s, &p, 1, homg_cuda_stream(ex)));
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_view_sem_wait(kernel_exec *ex, void *sem)
{
    cudaExternalSemaphore_t s = (cudaExternalSemaphore_t)sem;
    cudaExternalSemaphoreWaitParams p;
    memset(&p, 0, sizeof p);
    HOMG_CUDA_TRY(ex, cudaWaitExternalSemaphoresAsync(&s, &p, 1, homg_cuda_stream(ex)));
    return HOMG_OK;
}

/* ---- events the host checks (the SHARED ring: a slot reaches GL once its event has passed) */

extern "C" homg_status homg_cuda_view_event_create(kernel_exec *ex, int flags, void **ev)
{
    static const unsigned cuda_flags[3] = { cudaEventDisableTiming, cudaEventDefault,
                                            cudaEventBlockingSync | cudaEventDisableTiming };
    cudaEvent_t e = NULL;
    *ev = NULL;
    HOMG_CUDA_TRY(ex, cudaEventCreateWithFlags(&e, cuda_flags[flags >= 0 && flags < 3 ? flags : 0]));
    *ev = (void *)e;
    return HOMG_OK;
}

extern "C" void homg_cuda_view_event_destroy(void *ev)
{
    if (ev)
        cudaEventDestroy((cudaEvent_t)ev);
}

extern "C" homg_status homg_cuda_view_event_record(kernel_exec *ex, void *ev)
{
    HOMG_CUDA_TRY(ex, cudaEventRecord((cudaEvent_t)ev, homg_cuda_stream(ex)));
    return HOMG_OK;
}

extern "C" homg_status homg_cuda_view_event_done(kernel_exec *ex, void *ev, int wait, int *done)
{
    cudaError_t e = wait ? cudaEventSynchronize((cudaEvent_t)ev) : cudaEventQuery((cudaEvent_t)ev);
    *done = e == cudaSuccess;
    if (e == cudaErrorNotReady) /* not an error */
        return HOMG_OK;
    HOMG_CUDA_TRY(ex, e);
    return HOMG_OK;
}

extern "C" const view_kernels homg_cuda_view_kernels = { .name = "cuda", VIEW_KERNELS(HOMG_KERNEL_CUDA_INIT) };
