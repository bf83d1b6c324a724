/* vulkan.c -- two binary semaphores that can be exported as file descriptors,
 * made with Vulkan because neither CUDA nor GL can make exportable ones (both
 * only import).  libvulkan.so.1 is opened at run time, so homg links no Vulkan;
 * the Vulkan device is the one whose UUID is the CUDA device's.  Built only
 * with Vulkan's headers (libvulkan-dev); without them SHARED orders by the host.
 * The only process-wide state of the library lives here (see below). */
#include "view/view_internal.h"

#include <stdlib.h>
#include <string.h>

#if HOMG_HAVE_GL && HOMG_HAVE_VULKAN
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <pthread.h>
#include <vulkan/vulkan.h>

/* The Vulkan instance stays for the process's life, and libvulkan is never
 * unloaded: destroying the instance unloads NVIDIA's Vulkan driver library,
 * which takes the GL context's CUDA interop down with it (seen on the H100:
 * after one SHARED view was destroyed, registering a texture with CUDA failed
 * and cudaGLGetDevices found no device).  A device goes with the last view
 * that uses it: while a VkDevice lives on the GPU, GL misreads some textures
 * made on CUDA's memory later (the ring's slot textures; h100_view.md L:
 * destroying the device, not the semaphores, is what keeps the probe right).
 * Per view there are only the two semaphores. */
enum { MAX_DEVICES = 16 };

typedef struct vk_device {
    unsigned char uuid[16];
    VkDevice device;
    PFN_vkCreateSemaphore create_semaphore;
    PFN_vkDestroySemaphore destroy_semaphore;
    PFN_vkGetSemaphoreFdKHR get_fd;
    int users; /* views with semaphores on it; destroyed at 0 (homg__view_vk_destroy) */
} vk_device;

static pthread_mutex_t vk_lock = PTHREAD_MUTEX_INITIALIZER;
static PFN_vkGetInstanceProcAddr gipa;
static VkInstance instance;
static vk_device devices[MAX_DEVICES];
static int num_devices;

struct view_vk {
    vk_device *dev;
    VkSemaphore sem[2];
};

static homg_status vk_fail(homg_view *v, const char *what, VkResult r)
{
    return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: %s failed (VkResult %d)", what, (int)r);
}

/* Once per process (vk_lock held). */
static homg_status open_instance(homg_view *v)
{
    VkApplicationInfo app;
    VkInstanceCreateInfo ci;
    PFN_vkCreateInstance create;
    void *lib;
    VkResult r;
    if (instance)
        return HOMG_OK;
    lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: libvulkan.so.1 cannot be opened");
    gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
    create = gipa ? (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance") : NULL;
    if (!create)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: no vkCreateInstance");
    memset(&app, 0, sizeof app);
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "homg_view";
    app.apiVersion = VK_API_VERSION_1_1;
    memset(&ci, 0, sizeof ci);
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pApplicationInfo = &app;
    if ((r = create(&ci, NULL, &instance)) != VK_SUCCESS) {
        instance = NULL;
        return vk_fail(v, "vkCreateInstance", r);
    }
    return HOMG_OK;
}

/* The physical device whose UUID is the CUDA device's, and that can export
 * binary semaphores as opaque file descriptors. */
static homg_status find_physical(homg_view *v, const unsigned char uuid[16], VkPhysicalDevice *out)
{
    PFN_vkEnumeratePhysicalDevices enumerate =
        (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
    PFN_vkGetPhysicalDeviceProperties2 props2 =
        (PFN_vkGetPhysicalDeviceProperties2)gipa(instance, "vkGetPhysicalDeviceProperties2");
    PFN_vkGetPhysicalDeviceExternalSemaphoreProperties semprops =
        (PFN_vkGetPhysicalDeviceExternalSemaphoreProperties)gipa(instance,
                                                                 "vkGetPhysicalDeviceExternalSemaphoreProperties");
    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    if (!enumerate || !props2 || !semprops || enumerate(instance, &n, devs) < 0)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: cannot list the physical devices");
    for (uint32_t k = 0; k < n; k++) {
        VkPhysicalDeviceIDProperties id;
        VkPhysicalDeviceProperties2 p;
        VkPhysicalDeviceExternalSemaphoreInfo si;
        VkExternalSemaphoreProperties sp;
        memset(&id, 0, sizeof id);
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        memset(&p, 0, sizeof p);
        p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p.pNext = &id;
        props2(devs[k], &p);
        if (memcmp(id.deviceUUID, uuid, 16))
            continue;
        memset(&si, 0, sizeof si);
        si.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO;
        si.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        memset(&sp, 0, sizeof sp);
        sp.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES;
        semprops(devs[k], &si, &sp);
        if (!(sp.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT))
            return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: the device cannot export semaphores as fds");
        *out = devs[k];
        return HOMG_OK;
    }
    return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: none of %u devices is the CUDA device", n);
}

/* The logical device of `uuid`, made on first use (vk_lock held). */
static homg_status open_device(homg_view *v, const unsigned char uuid[16], vk_device **out)
{
    static const char *ext[] = { "VK_KHR_external_semaphore_fd" };
    float prio = 1;
    VkDeviceQueueCreateInfo q;
    VkDeviceCreateInfo dc;
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    PFN_vkCreateDevice create;
    PFN_vkGetDeviceProcAddr gdpa;
    vk_device *d;
    VkResult r;
    int free_k = num_devices; /* an emptied entry (drop_device), else the next */
    for (int k = num_devices - 1; k >= 0; k--) {
        if (devices[k].device && !memcmp(devices[k].uuid, uuid, 16)) {
            *out = &devices[k];
            return HOMG_OK;
        }
        if (!devices[k].device)
            free_k = k;
    }
    if (free_k == MAX_DEVICES)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: more than %d devices", MAX_DEVICES);
    HOMG_TRY(find_physical(v, uuid, &pd));
    create = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
    gdpa = (PFN_vkGetDeviceProcAddr)gipa(instance, "vkGetDeviceProcAddr");
    if (!create || !gdpa)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: no vkCreateDevice");
    memset(&q, 0, sizeof q);
    q.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    q.queueFamilyIndex = 0;
    q.queueCount = 1;
    q.pQueuePriorities = &prio;
    memset(&dc, 0, sizeof dc);
    dc.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    dc.queueCreateInfoCount = 1;
    dc.pQueueCreateInfos = &q;
    dc.enabledExtensionCount = 1;
    dc.ppEnabledExtensionNames = ext;
    d = &devices[free_k];
    memset(d, 0, sizeof *d);
    if ((r = create(pd, &dc, NULL, &d->device)) != VK_SUCCESS)
        return vk_fail(v, "vkCreateDevice (VK_KHR_external_semaphore_fd)", r);
    memcpy(d->uuid, uuid, 16);
    d->create_semaphore = (PFN_vkCreateSemaphore)gdpa(d->device, "vkCreateSemaphore");
    d->destroy_semaphore = (PFN_vkDestroySemaphore)gdpa(d->device, "vkDestroySemaphore");
    d->get_fd = (PFN_vkGetSemaphoreFdKHR)gdpa(d->device, "vkGetSemaphoreFdKHR");
    num_devices += free_k == num_devices; /* kept even when incomplete (users 0: never destroyed) */
    if (!d->create_semaphore || !d->destroy_semaphore || !d->get_fd)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: the device lacks vkGetSemaphoreFdKHR");
    *out = d;
    return HOMG_OK;
}

static homg_status make_semaphores(homg_view *v, view_vk *vk)
{
    for (int k = 0; k < 2; k++) {
        VkExportSemaphoreCreateInfo e;
        VkSemaphoreCreateInfo sc;
        VkResult r;
        memset(&e, 0, sizeof e);
        e.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
        e.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        memset(&sc, 0, sizeof sc);
        sc.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
        sc.pNext = &e;
        if ((r = vk->dev->create_semaphore(vk->dev->device, &sc, NULL, &vk->sem[k])) != VK_SUCCESS)
            return vk_fail(v, "vkCreateSemaphore (exportable)", r);
    }
    return HOMG_OK;
}

homg_status homg__view_vk_create(homg_view *v, const unsigned char uuid[16], view_vk **out)
{
    homg_status st;
    view_vk *vk = (view_vk *)calloc(1, sizeof *vk);
    *out = vk;
    if (!vk)
        return homg__fail(v->ctx, HOMG_ERROR_OUT_OF_MEMORY, "Vulkan: out of host memory");
    pthread_mutex_lock(&vk_lock);
    st = open_instance(v);
    if (st == HOMG_OK)
        st = open_device(v, uuid, &vk->dev);
    if (st == HOMG_OK)
        vk->dev->users++;
    pthread_mutex_unlock(&vk_lock);
    if (st == HOMG_OK)
        st = make_semaphores(v, vk);
    return st; /* on failure the caller destroys what was made */
}

int homg__view_vk_fd(view_vk *vk, int k)
{
    VkSemaphoreGetFdInfoKHR gi;
    int fd = -1;
    memset(&gi, 0, sizeof gi);
    gi.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
    gi.semaphore = vk->sem[k];
    gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    return vk->dev->get_fd(vk->dev->device, &gi, &fd) == VK_SUCCESS ? fd : -1;
}

/* Device k destroyed; its entry empty for the next device (views point at entries: none moves; vk_lock held). */
static void drop_device(int k)
{
    PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)gipa(instance, "vkDestroyDevice");
    if (destroy && devices[k].device)
        destroy(devices[k].device, NULL);
    memset(&devices[k], 0, sizeof devices[k]);
}

void homg__view_vk_destroy(view_vk *vk)
{
    if (!vk)
        return;
    for (int k = 0; k < 2 && vk->dev; k++)
        if (vk->sem[k])
            vk->dev->destroy_semaphore(vk->dev->device, vk->sem[k], NULL);
    if (vk->dev) {
        pthread_mutex_lock(&vk_lock);
        if (--vk->dev->users == 0)
            drop_device((int)(vk->dev - devices));
        pthread_mutex_unlock(&vk_lock);
    }
    free(vk);
}

/* Tests only (test_view_gpu matrix, s9-view7's bisection of the probe failure): the
 * Vulkan device of `uuid` made (the instance too), no semaphore. */
homg_status homg__view_vk_device(homg_view *v, const unsigned char uuid[16])
{
    vk_device *d = NULL;
    homg_status st;
    pthread_mutex_lock(&vk_lock);
    st = open_instance(v);
    if (st == HOMG_OK)
        st = open_device(v, uuid, &d);
    pthread_mutex_unlock(&vk_lock);
    return st;
}

/* Tests only: every Vulkan device destroyed (none may have semaphores left); the
 * instance stays (see above).  A later view makes its device again. */
void homg__view_vk_drop_devices(void)
{
    pthread_mutex_lock(&vk_lock);
    for (int k = 0; k < num_devices; k++)
        drop_device(k);
    pthread_mutex_unlock(&vk_lock);
}

#else

homg_status homg__view_vk_create(homg_view *v, const unsigned char uuid[16], view_vk **out)
{
    (void)uuid;
    *out = NULL;
    return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "homg was built without Vulkan headers (libvulkan-dev)");
}

int homg__view_vk_fd(view_vk *vk, int k)
{
    (void)vk;
    (void)k;
    return -1;
}

void homg__view_vk_destroy(view_vk *vk) { (void)vk; }
homg_status homg__view_vk_device(homg_view *v, const unsigned char uuid[16])
{
    (void)uuid;
    return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "built without Vulkan");
}
void homg__view_vk_drop_devices(void) {}

#endif
