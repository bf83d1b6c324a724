/* harness.h -- what every demo shares: a GLFW window (or, headless, an EGL
 * pbuffer: the NVIDIA GPU on the GPU machine, Mesa elsewhere), GL loaded by
 * GLEW, the homg context, a text overlay (stb_easy_font) with frame and solver
 * times, the common keys, and scripted headless runs that end in a PNG.
 *
 * A demo is one file: a demo_app with its callbacks and `return demo_run(argc,
 * argv, &app);` in main.  Common options: --help, --backend auto|cpu|cuda,
 * --size N, --frames K --png FILE (headless, scripted), --glfw (headless through
 * a hidden GLFW window, e.g. under Xvfb, instead of EGL), --width/--height,
 * --vsync 0|1, --path auto|map|shared|upload, --deterministic (the overlay's
 * times print as "-", for reference pictures).
 * Common keys: space pause, r reset, m method, + / - size, b backend, h help, q / Esc quit. */
#ifndef DEMO_HARNESS_H
#define DEMO_HARNESS_H

#include <GL/glew.h>

#include "homg.h"

typedef struct demo demo;

typedef struct demo_app {
    const char *name;             /* "heat" */
    const char *summary;          /* one line for --help */
    const char *keys;             /* the demo's own keys and mouse, for --help and h */
    int width, height;            /* default window size */
    int size, min_size, max_size; /* problem size: + doubles it, - halves it (or +-1 when step1) */
    int step1;
    /* Makes the homg objects and GL objects for d->size on d->ctx; 0 on success
     * (after printing why not). */
    int (*init)(demo *d);
    void (*fini)(demo *d);
    /* One frame: the input applied, the solve queued, the view written, the picture drawn. */
    void (*frame)(demo *d);
    void (*key)(demo *d, int key); /* 'm' and the demo's own keys */
    /* Headless runs: the scripted input of frame k (sets d->mouse_*). */
    void (*script)(demo *d, int frame);
} demo_app;

struct demo {
    const demo_app *app;
    homg_ctx *ctx;
    homg_backend backend;
    homg_gl_loader gl_loader; /* for homg_view_desc.get_proc_address */
    homg_view_path path;      /* --path */
    int size;
    int fb_width, fb_height; /* framebuffer pixels */
    int paused, headless, deterministic, frame;
    /* input: the cursor in window coordinates scaled to [0,1] (y up), button 0 none, 1 left, 2 right */
    double mouse_x, mouse_y;
    int mouse_button;
    /* what the overlay prints; the demo fills these each frame */
    double solve_ms; /* GPU time of the solve (homg_timer), -1 unknown */
    int iterations;  /* cycles or CG iterations */
    double residual; /* relative residual, -1 unknown */
    char method[48]; /* "vcycle", "AMG-PCG" ... */
    char detail[96]; /* size, view path ... */
    double frame_ms; /* wall time per frame, filled by the harness */
    void *user;
};

int demo_run(int argc, char **argv, const demo_app *app);
/* Prints homg's message for a failed call and exits (demos stop on errors). */
void demo_check(demo *d, homg_status st, const char *what);
/* A linked GL program from two GLSL 330 sources; exits on a compile error. */
GLuint demo_program(const char *vertex, const char *fragment);

/* overlay.c */
void demo_overlay_init(void);
void demo_overlay_fini(void);
/* Draws text lines (\n separated) at the top left over a dark band, twice stb_easy_font's
 * size where the window is wide enough. */
void demo_overlay_draw(const char *text, int fb_width, int fb_height);

#endif
