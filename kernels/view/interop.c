/* interop.c -- CPU backend of the view's interop entries: there is no device
 * memory to share with GL, so the view uploads through the host (lib/view/upload.c).
 * CUDA twin: interop.cu. */
#include "view/view_kernels.h"

static homg_status no_interop(kernel_exec *ex)
{
    return homg_exec_fail(ex, HOMG_ERROR_UNSUPPORTED, "the CPU backend has no CUDA-GL interop");
}

homg_status homg_cpu_view_gl_devices(kernel_exec *ex, int *devices, int max, int *count)
{
    (void)devices;
    (void)max;
    *count = 0;
    return no_interop(ex);
}

homg_status homg_cpu_view_uuid(kernel_exec *ex, unsigned char uuid[16])
{
    (void)uuid;
    return no_interop(ex);
}

homg_status homg_cpu_view_gl_register(kernel_exec *ex, unsigned name, int image, void **resource)
{
    (void)name;
    (void)image;
    *resource = 0;
    return no_interop(ex);
}

void homg_cpu_view_gl_unregister(void *resource) { (void)resource; }

homg_status homg_cpu_view_gl_map(kernel_exec *ex, void *resource, int image, view_dst *dst, size_t *bytes)
{
    (void)resource;
    (void)image;
    (void)dst;
    (void)bytes;
    return no_interop(ex);
}

homg_status homg_cpu_view_gl_unmap(kernel_exec *ex, void *resource, view_dst *dst)
{
    (void)resource;
    (void)dst;
    return no_interop(ex);
}

homg_status homg_cpu_view_shared_alloc(kernel_exec *ex, size_t bytes, view_shared *sh)
{
    (void)bytes;
    sh->ptr = 0;
    sh->fd = -1;
    return no_interop(ex);
}

void homg_cpu_view_shared_free(kernel_exec *ex, view_shared *sh)
{
    (void)ex;
    (void)sh;
}

homg_status homg_cpu_view_shared_surface(kernel_exec *ex, view_shared *sh, size_t offset, int w, int h, int rgba8,
                                         void **handle, unsigned long long *surface)
{
    (void)sh;
    (void)offset;
    (void)w;
    (void)h;
    (void)rgba8;
    *handle = 0;
    *surface = 0;
    return no_interop(ex);
}

void homg_cpu_view_shared_surface_free(void *handle) { (void)handle; }

homg_status homg_cpu_view_sem_import(kernel_exec *ex, int fd, void **sem)
{
    (void)fd;
    *sem = 0;
    return no_interop(ex);
}

void homg_cpu_view_sem_destroy(void *sem) { (void)sem; }

homg_status homg_cpu_view_sem_signal(kernel_exec *ex, void *sem)
{
    (void)sem;
    return no_interop(ex);
}

homg_status homg_cpu_view_sem_wait(kernel_exec *ex, void *sem)
{
    (void)sem;
    return no_interop(ex);
}

homg_status homg_cpu_view_event_create(kernel_exec *ex, int flags, void **ev)
{
    (void)flags;
    *ev = 0;
    return no_interop(ex);
}

void homg_cpu_view_event_destroy(void *ev) { (void)ev; }

homg_status homg_cpu_view_event_record(kernel_exec *ex, void *ev)
{
    (void)ev;
    return no_interop(ex);
}

homg_status homg_cpu_view_event_done(kernel_exec *ex, void *ev, int wait, int *done)
{
    (void)ev;
    (void)wait;
    *done = 1;
    return no_interop(ex);
}

const view_kernels homg_cpu_view_kernels = { .name = "cpu", VIEW_KERNELS(HOMG_KERNEL_CPU_INIT) };
