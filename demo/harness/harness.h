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
 * times print as "-", for reference pictures), --stats (medians of frame, solve,
 * view and draw times printed at the end), --trace (progress lines on stderr),
 * --keys STR (the demo's keys pressed once after the start).
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
    /* What demo_solve_begin .. demo_solve_end bracket, as the overlay and --stats name
     * it ("step" for the fluid's whole step); NULL: "solve". */
    const char *timed;
} demo_app;

struct demo {
    const demo_app *app;
    homg_ctx *ctx;
    homg_backend backend;
    homg_gl_loader gl_loader; /* for homg_view_desc.get_proc_address */
    homg_view_path path;      /* --path */
    int latency;              /* --latency: homg_view_desc.latency; -1 (not given): the demo's choice */
    int last;                 /* the last frame of a headless run: demo_view_write flushes the view */
    int size;
    int fb_width, fb_height; /* framebuffer pixels */
    int paused, headless, deterministic, frame;
    int stats, trace; /* --stats, --trace */
    int closing;      /* the loop has ended: every trace line prints */
    /* input: the cursor in window coordinates scaled to [0,1] (y up), button 0 none, 1 left, 2 right */
    double mouse_x, mouse_y;
    int mouse_button;
    /* what the overlay prints; the demo fills these each frame */
    double solve_ms; /* the solve's time (homg_timer, timing.c says what it holds), -1 unknown */
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

/* quad.c: a quad over the largest centred square of the framebuffer, drawn by
 * `fragment` (GLSL 330 core, `in vec2 uv` over [0,1]^2); the caller binds its textures. */
typedef struct demo_quad {
    GLuint program, vao;
} demo_quad;
void demo_quad_init(demo_quad *q, const char *fragment);
void demo_quad_draw(const demo_quad *q, const demo *d);
void demo_quad_fini(demo_quad *q);
/* An immutable w x h 2D texture of `format`, clamped to its edges, sampled with `filter`. */
GLuint demo_texture(GLenum format, int w, int h, GLenum filter);

/* stamp.c: rows lo..hi of a host field changed since its last copy (lo > hi: none). */
typedef struct demo_rows {
    int lo, hi;
} demo_rows;
void demo_rows_none(demo_rows *rows, int n);
void demo_rows_all(demo_rows *rows, int n);
/* Sets the cells of an n x n field (elem bytes each, i fastest) within r cells of the
 * cell under (x, y) in [0,1]^2 to *value, and adds their rows to `rows`. */
void demo_stamp_disc(void *field, size_t elem, const void *value, int n, double x, double y, int r, demo_rows *rows);

/* timing.c: the solve of a frame between demo_solve_begin and demo_solve_end
 * (CUDA events; d->solve_ms becomes the last frame's, read without a wait; it is the
 * span between the two events, so GL work that the GPU switches to in between counts);
 * demo_view_write: homg_view_write, checked and timed.  demo_trace: a progress
 * line on stderr with --trace (frames 0-2 and every 100th). */
void demo_solve_begin(demo *d);
void demo_solve_end(demo *d);
void demo_view_write(demo *d, homg_view *view, const void *values, const homg_view_write_desc *wd);
/* The frame's GL drawing between these two is timed by a GL query (--stats: "draw ... ms GL",
 * GPU time of the GL commands; the first pair of a frame only). */
void demo_draw_begin(const demo *d);
void demo_draw_end(const demo *d);
void demo_trace(const demo *d, const char *fmt, ...);
/* app->timed, or "solve". */
const char *demo_timed_name(const demo *d);
double demo_now_ms(void);
/* for harness.c */
void demo_timing_start(demo *d);
/* HOMG_DEMO_SKIP names `what` (clear, overlay, query, timers, flush: timing.c). */
int demo_skip(const char *what);
void demo_timing_stop(demo *d);
void demo_stats_frame(demo *d, double wall_ms);
void demo_stats_print(demo *d);

/* overlay.c */
void demo_overlay_init(void);
void demo_overlay_fini(void);
/* Draws text lines (\n separated) at the top left over a dark band, twice stb_easy_font's
 * size where the window is wide enough. */
void demo_overlay_draw(const char *text, int fb_width, int fb_height);

#endif
