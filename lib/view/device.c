/* device.c -- is the GL context on the context's CUDA device?  (The list comes
 * from cudaGLGetDevices; kept apart so the rule is tested without two GPUs.) */
#include "view/view_internal.h"

int homg__view_device_match(int ctx_device, const int *gl_devices, int count, char *why, size_t len)
{
    size_t used = 0;
    if (why && len)
        why[0] = 0;
    for (int k = 0; k < count; k++)
        if (gl_devices[k] == ctx_device)
            return 1;
    if (count <= 0) {
        homg__append(why, len, &used, "the GL context is on no CUDA device (ctx on CUDA device %d)", ctx_device);
        return 0;
    }
    homg__append(why, len, &used, "the GL context is on CUDA device%s", count > 1 ? "s" : "");
    for (int k = 0; k < count; k++)
        homg__append(why, len, &used, "%s %d", k ? "," : "", gl_devices[k]);
    homg__append(why, len, &used, ", the ctx on CUDA device %d", ctx_device);
    return 0;
}
