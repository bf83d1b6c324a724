/* vulkan.c -- two binary semaphores that can be exported as file descriptors,
 * made with Vulkan because neither CUDA nor GL can make exportable ones (both
 * only import).  libvulkan.so.1 is opened at run time, so homg links no Vulkan;
 * the Vulkan device is the one whose UUID is the CUDA device's.  Built only
 * with Vulkan's headers (libvulkan-dev); without them SHARED orders by the host. */
#include "view/view_internal.h"

#include <stdlib.h>
#include <string.h>

#if HOMG_HAVE_GL && HOMG_HAVE_VULKAN
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <vulkan/vulkan.h>

struct view_vk {
    void *lib;
    VkInstance instance;
    VkDevice device;
    VkSemaphore sem[2];
    PFN_vkDestroyInstance destroy_instance;
    PFN_vkDestroyDevice destroy_device;
    PFN_vkDestroySemaphore destroy_semaphore;
    PFN_vkGetSemaphoreFdKHR get_fd;
};

static homg_status vk_fail(homg_view *v, const char *what, VkResult r)
{
    return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: %s failed (VkResult %d)", what, (int)r);
}

static homg_status open_instance(homg_view *v, view_vk *vk, PFN_vkGetInstanceProcAddr *gipa)
{
    VkApplicationInfo app;
    VkInstanceCreateInfo ci;
    PFN_vkCreateInstance create;
    VkResult r;
    vk->lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!vk->lib)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: libvulkan.so.1 cannot be opened");
    *gipa = (PFN_vkGetInstanceProcAddr)dlsym(vk->lib, "vkGetInstanceProcAddr");
    create = *gipa ? (PFN_vkCreateInstance)(*gipa)(NULL, "vkCreateInstance") : NULL;
    if (!create)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: no vkCreateInstance");
    memset(&app, 0, sizeof app);
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "homg_view";
    app.apiVersion = VK_API_VERSION_1_1;
    memset(&ci, 0, sizeof ci);
    ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ci.pApplicationInfo = &app;
    if ((r = create(&ci, NULL, &vk->instance)) != VK_SUCCESS)
        return vk_fail(v, "vkCreateInstance", r);
    vk->destroy_instance = (PFN_vkDestroyInstance)(*gipa)(vk->instance, "vkDestroyInstance");
    return HOMG_OK;
}

/* The physical device whose UUID is the CUDA device's, and that can export
 * binary semaphores as opaque file descriptors. */
static homg_status find_device(homg_view *v, view_vk *vk, PFN_vkGetInstanceProcAddr gipa, const unsigned char uuid[16],
                               VkPhysicalDevice *out)
{
    PFN_vkEnumeratePhysicalDevices enumerate =
        (PFN_vkEnumeratePhysicalDevices)gipa(vk->instance, "vkEnumeratePhysicalDevices");
    PFN_vkGetPhysicalDeviceProperties2 props2 =
        (PFN_vkGetPhysicalDeviceProperties2)gipa(vk->instance, "vkGetPhysicalDeviceProperties2");
    PFN_vkGetPhysicalDeviceExternalSemaphoreProperties semprops =
        (PFN_vkGetPhysicalDeviceExternalSemaphoreProperties)gipa(vk->instance,
                                                                 "vkGetPhysicalDeviceExternalSemaphoreProperties");
    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    if (!enumerate || !props2 || !semprops || enumerate(vk->instance, &n, devs) < 0)
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

static homg_status open_device(homg_view *v, view_vk *vk, PFN_vkGetInstanceProcAddr gipa, VkPhysicalDevice pd)
{
    static const char *ext[] = { "VK_KHR_external_semaphore_fd" };
    float prio = 1;
    VkDeviceQueueCreateInfo q;
    VkDeviceCreateInfo dc;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(vk->instance, "vkCreateDevice");
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(vk->instance, "vkGetDeviceProcAddr");
    VkResult r;
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
    if (!create || !gdpa)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: no vkCreateDevice");
    if ((r = create(pd, &dc, NULL, &vk->device)) != VK_SUCCESS)
        return vk_fail(v, "vkCreateDevice (VK_KHR_external_semaphore_fd)", r);
    vk->destroy_device = (PFN_vkDestroyDevice)gdpa(vk->device, "vkDestroyDevice");
    vk->destroy_semaphore = (PFN_vkDestroySemaphore)gdpa(vk->device, "vkDestroySemaphore");
    vk->get_fd = (PFN_vkGetSemaphoreFdKHR)gdpa(vk->device, "vkGetSemaphoreFdKHR");
    PFN_vkCreateSemaphore create_sem = (PFN_vkCreateSemaphore)gdpa(vk->device, "vkCreateSemaphore");
    if (!vk->destroy_device || !vk->destroy_semaphore || !vk->get_fd || !create_sem)
        return homg__fail(v->ctx, HOMG_ERROR_UNSUPPORTED, "Vulkan: the device lacks vkGetSemaphoreFdKHR");
    for (int k = 0; k < 2; k++) {
        VkExportSemaphoreCreateInfo e;
        VkSemaphoreCreateInfo sc;
        memset(&e, 0, sizeof e);
        e.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
        e.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
        memset(&sc, 0, sizeof sc);
        sc.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
        sc.pNext = &e;
        if ((r = create_sem(vk->device, &sc, NULL, &vk->sem[k])) != VK_SUCCESS)
            return vk_fail(v, "vkCreateSemaphore (exportable)", r);
    }
    return HOMG_OK;
}

homg_status homg__view_vk_create(homg_view *v, const unsigned char uuid[16], view_vk **out)
{
    PFN_vkGetInstanceProcAddr gipa = NULL;
    VkPhysicalDevice pd;
    homg_status st;
    view_vk *vk = (view_vk *)calloc(1, sizeof *vk);
    *out = vk;
    if (!vk)
        return homg__fail(v->ctx, HOMG_ERROR_OUT_OF_MEMORY, "Vulkan: out of host memory");
    st = open_instance(v, vk, &gipa);
    if (st == HOMG_OK)
        st = find_device(v, vk, gipa, uuid, &pd);
    if (st == HOMG_OK)
        st = open_device(v, vk, gipa, pd);
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
    return vk->get_fd(vk->device, &gi, &fd) == VK_SUCCESS ? fd : -1;
}

void homg__view_vk_destroy(view_vk *vk)
{
    if (!vk)
        return;
    for (int k = 0; k < 2; k++)
        if (vk->sem[k])
            vk->destroy_semaphore(vk->device, vk->sem[k], NULL);
    if (vk->device)
        vk->destroy_device(vk->device, NULL);
    if (vk->instance && vk->destroy_instance)
        vk->destroy_instance(vk->instance, NULL);
    if (vk->lib)
        dlclose(vk->lib);
    free(vk);
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

#endif
