/* egl.c -- a headless OpenGL context through EGL (egl.h). */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "harness/egl.h"

#include <GL/glew.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif

static EGLDisplay dpy = EGL_NO_DISPLAY;
static EGLSurface surface = EGL_NO_SURFACE;
static EGLContext context = EGL_NO_CONTEXT;
static char vendor[64];

/* A pbuffer and a GL context on one EGL device; 0 on success. */
static int open_device(EGLDeviceEXT dev, int width, int height, char *err, size_t len)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    static const EGLint config_attr[] = { EGL_SURFACE_TYPE,
                                          EGL_PBUFFER_BIT,
                                          EGL_RENDERABLE_TYPE,
                                          EGL_OPENGL_BIT,
                                          EGL_RED_SIZE,
                                          8,
                                          EGL_GREEN_SIZE,
                                          8,
                                          EGL_BLUE_SIZE,
                                          8,
                                          EGL_ALPHA_SIZE,
                                          8,
                                          EGL_NONE };
    static const EGLint context_attr[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE
    };
    EGLint pbuffer_attr[] = { EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE };
    EGLint major, minor, n = 0;
    EGLConfig config;
    const char *v;
    dpy = get_display ? get_display(EGL_PLATFORM_DEVICE_EXT, dev, NULL) : EGL_NO_DISPLAY;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
        snprintf(err, len, "eglInitialize failed (0x%x)", eglGetError());
        dpy = EGL_NO_DISPLAY;
        return -1;
    }
    if (!eglChooseConfig(dpy, config_attr, &config, 1, &n) || n < 1) {
        snprintf(err, len, "no EGL config with an OpenGL pbuffer");
        return -1;
    }
    surface = eglCreatePbufferSurface(dpy, config, pbuffer_attr);
    if (surface == EGL_NO_SURFACE || !eglBindAPI(EGL_OPENGL_API)) {
        snprintf(err, len, "eglCreatePbufferSurface failed (0x%x)", eglGetError());
        return -1;
    }
    context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attr);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surface, surface, context)) {
        snprintf(err, len, "eglCreateContext / eglMakeCurrent (GL 3.3 core) failed (0x%x)", eglGetError());
        return -1;
    }
    v = eglQueryString(dpy, EGL_VENDOR);
    snprintf(vendor, sizeof vendor, "%s", v ? v : "?");
    demo_pin_libraries();
    return 0;
}

int demo_egl_begin(int width, int height, int prefer_nvidia, char *err, size_t len)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    EGLDeviceEXT devs[16];
    EGLint n = 0;
    int order[16], m = 0;
    if (!query || !query(16, devs, &n) || n < 1) {
        snprintf(err, len, "EGL lists no devices (EGL_EXT_device_enumeration)");
        return -1;
    }
    /* NVIDIA devices first when asked: they carry the CUDA device. */
    for (int pass = 0; pass < 2; pass++)
        for (EGLint k = 0; k < n; k++) {
            const char *ext = query_string ? query_string(devs[k], EGL_EXTENSIONS) : NULL;
            int nvidia = ext && strstr(ext, "EGL_NV_device_cuda");
            if ((pass == 0) == (prefer_nvidia && nvidia))
                order[m++] = (int)k;
        }
    for (int k = 0; k < m; k++) {
        if (open_device(devs[order[k]], width, height, err, len) == 0)
            return 0;
        demo_egl_end();
    }
    return -1;
}

void demo_egl_end(void)
{
    if (dpy != EGL_NO_DISPLAY) {
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context != EGL_NO_CONTEXT)
            eglDestroyContext(dpy, context);
        if (surface != EGL_NO_SURFACE)
            eglDestroySurface(dpy, surface);
        eglTerminate(dpy);
    }
    dpy = EGL_NO_DISPLAY;
    surface = EGL_NO_SURFACE;
    context = EGL_NO_CONTEXT;
}

homg_gl_proc demo_egl_proc(const char *name) { return (homg_gl_proc)eglGetProcAddress(name); }

const char *demo_egl_vendor(void) { return vendor; }

void demo_egl_release(void) { eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT); }

void demo_egl_make_current(void) { eglMakeCurrent(dpy, surface, surface, context); }

int demo_glew_init(char *err, size_t len)
{
    GLenum r;
    glewExperimental = GL_TRUE;
    r = glewInit();
    if (r != GLEW_OK && r != GLEW_ERROR_NO_GLX_DISPLAY) {
        snprintf(err, len, "glewInit: %s", (const char *)glewGetErrorString(r));
        return -1;
    }
    glGetError(); /* glewInit may leave GL_INVALID_ENUM behind in a core context */
    return 0;
}

#if defined(__SANITIZE_ADDRESS__)
static int pin(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0])
        dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}
#endif

void demo_pin_libraries(void)
{
#if defined(__SANITIZE_ADDRESS__)
    /* The GL driver is unloaded before LeakSanitizer looks: its allocations would show
     * as "<unknown module>" and escape the suppressions below.  Keep every library. */
    dl_iterate_phdr(pin, NULL);
#endif
}

/* Sanitizer builds (make SAN=1): what Mesa, LLVM, X and GLVND keep until exit is
 * theirs, not a leak of homg's. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libEGL\nleak:libGLX\nleak:libGLdispatch\nleak:libGL.so\nleak:swrast_dri\nleak:libgallium\n"
           "leak:libLLVM\nleak:libX11\nleak:libxcb\nleak:libglfw\nleak:libGLEW\nleak:libglapi\nleak:_dri.so\n"
           "leak:libdrm\nleak:libvulkan\nleak:libnvidia\nleak:libcuda\n";
}
