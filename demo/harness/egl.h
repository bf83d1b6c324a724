/* egl.h -- a headless OpenGL context through EGL: a pbuffer on an EGL device
 * (EGL_EXT_platform_device), the NVIDIA GPU on the GPU machine, Mesa's software
 * device elsewhere.  One context per process.  Used by the demos' headless mode
 * and by the view's tests and benchmark. */
#ifndef DEMO_EGL_H
#define DEMO_EGL_H

#include "homg.h"

#include <stddef.h>

/* Makes a desktop-GL (3.3 core or newer) context with a width x height pbuffer
 * current.  prefer_nvidia: take an NVIDIA device when there is one.  0 on
 * success; otherwise -1 and the reason in err. */
int demo_egl_begin(int width, int height, int prefer_nvidia, char *err, size_t len);
void demo_egl_end(void);
/* eglGetProcAddress with homg's loader type. */
homg_gl_proc demo_egl_proc(const char *name);
/* The EGL vendor of the device in use ("NVIDIA", "Mesa Project"). */
const char *demo_egl_vendor(void);
/* Releases the context from the thread and makes it current again (tests of
 * "no current context"). */
void demo_egl_release(void);
void demo_egl_make_current(void);
/* Sanitizer builds: keeps the GL driver's libraries loaded to the end, so leak
 * reports name them (and the suppressions in egl.c apply); nothing otherwise. */
void demo_pin_libraries(void);
/* glewInit for the current context (GLEW's GLX build answers "no GLX display"
 * under EGL after loading every function: that counts as success). */
int demo_glew_init(char *err, size_t len);

#endif
