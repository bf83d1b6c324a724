/* harness.c -- the demos' shared main loop (harness.h): options, the window or
 * headless context, the homg context, keys, the overlay, the PNG of a scripted run. */
#define _POSIX_C_SOURCE 200809L
#include "harness/harness.h"
#include "harness/egl.h"

#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>

typedef struct options {
    int frames, width, height, vsync, glfw, help;
    const char *png, *keys;
} options;

static demo D;
static options O;
static GLFWwindow *window;

static void usage(const demo_app *app)
{
    printf("%s -- %s\n\n"
           "options:\n"
           "  --backend auto|cpu|cuda   homg backend (default auto: CUDA when there is a GPU)\n"
           "  --size N                  problem size (default %d)\n"
           "  --frames K --png FILE     headless: K frames of scripted input, the last one written to FILE\n"
           "  --glfw                    headless through a hidden GLFW window (e.g. under Xvfb) instead of EGL\n"
           "  --width W --height H      window size (default %d x %d)\n"
           "  --vsync 0|1               wait for the display's refresh (default 1)\n"
           "  --path auto|map|shared|upload   how the solution reaches GL (homg_view; default auto)\n"
           "  --latency 0|1             1: the view may show a frame or two old, so CUDA and GL never wait for\n"
           "                            each other on the GPU (homg_view_desc.latency; default: heat 1 while\n"
           "                            pipelined (key p), else 0: solves that read a norm every cycle were\n"
           "                            faster with MAP on the H100)\n"
           "  --deterministic           the overlay prints no times (reference pictures)\n"
           "  --stats                   at the end: median frame, solve, view-write and draw times\n"
           "  --keys STR                the demo's keys in STR pressed once after the start (e.g. --keys mm:\n"
           "                            the third method), so a headless run can measure every option\n"
           "  --trace                   progress lines on stderr (frames 0-2 and every 100th)\n"
           "keys:\n"
           "  space pause   r reset   m method   + / - size   b backend (cpu <-> cuda)   h help   q quit\n"
           "%s\n",
           app->name, app->summary, app->size, app->width, app->height, app->keys);
}

static int parse(int argc, char **argv, const demo_app *app)
{
    D.size = app->size;
    D.latency = -1; /* the demo's choice */
    O.width = app->width;
    O.height = app->height;
    O.vsync = 1;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        int used = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            O.help = 1, used = 0;
        else if (!strcmp(a, "--glfw"))
            O.glfw = 1, used = 0;
        else if (!strcmp(a, "--deterministic"))
            D.deterministic = 1, used = 0;
        else if (!strcmp(a, "--stats"))
            D.stats = 1, used = 0;
        else if (!strcmp(a, "--trace"))
            D.trace = 1, used = 0;
        else if (!v)
            return fprintf(stderr, "%s: %s needs a value (--help)\n", app->name, a), -1;
        else if (!strcmp(a, "--backend"))
            D.backend = !strcmp(v, "cpu")    ? HOMG_BACKEND_CPU
                        : !strcmp(v, "cuda") ? HOMG_BACKEND_CUDA
                                             : HOMG_BACKEND_AUTO;
        else if (!strcmp(a, "--size"))
            D.size = atoi(v);
        else if (!strcmp(a, "--frames"))
            O.frames = atoi(v);
        else if (!strcmp(a, "--png"))
            O.png = v;
        else if (!strcmp(a, "--keys"))
            O.keys = v;
        else if (!strcmp(a, "--width"))
            O.width = atoi(v);
        else if (!strcmp(a, "--height"))
            O.height = atoi(v);
        else if (!strcmp(a, "--vsync"))
            O.vsync = atoi(v);
        else if (!strcmp(a, "--latency"))
            D.latency = atoi(v) != 0;
        else if (!strcmp(a, "--path"))
            D.path = !strcmp(v, "map")      ? HOMG_VIEW_PATH_MAP
                     : !strcmp(v, "shared") ? HOMG_VIEW_PATH_SHARED
                     : !strcmp(v, "upload") ? HOMG_VIEW_PATH_UPLOAD
                                            : HOMG_VIEW_PATH_AUTO;
        else
            return fprintf(stderr, "%s: unknown option %s (--help)\n", app->name, a), -1;
        k += used;
    }
    if (D.size < app->min_size || D.size > app->max_size)
        return fprintf(stderr, "%s: --size %d: between %d and %d\n", app->name, D.size, app->min_size, app->max_size),
               -1;
    if (O.width < 16 || O.height < 16 || O.width > 8192 || O.height > 8192)
        return fprintf(stderr, "%s: window %d x %d: 16 .. 8192 per side\n", app->name, O.width, O.height), -1;
    D.headless = O.frames > 0 || O.png;
    if (D.headless && (O.frames < 1 || !O.png))
        return fprintf(stderr, "%s: headless runs need both --frames K (>= 1) and --png FILE\n", app->name), -1;
    return 0;
}

void demo_check(demo *d, homg_status st, const char *what)
{
    if (st == HOMG_OK)
        return;
    fprintf(stderr, "%s: %s: %s: %s\n", d->app->name, what, homg_status_string(st),
            d->ctx ? homg_ctx_last_error(d->ctx) : "");
    exit(1);
}

/* ---------------------------------------------------------------- homg context + demo */

static int start(void)
{
    homg_ctx_desc cd = { 0 };
    char msg[512];
    cd.backend = D.backend;
    if (homg_ctx_create_msg(&cd, &D.ctx, msg, sizeof msg) != HOMG_OK) {
        fprintf(stderr, "%s: no homg context: %s\n", D.app->name, msg);
        return -1;
    }
    D.backend = homg_ctx_backend(D.ctx);
    D.solve_ms = D.residual = -1;
    D.iterations = 0;
    D.frame = 0;
    demo_trace(&D, "homg context on %s", homg_ctx_device_name(D.ctx));
    demo_timing_start(&D);
    if (D.app->init(&D) != 0)
        return -1;
    demo_trace(&D, "%s ready", D.app->name);
    for (const char *k = O.keys; k && *k && D.app->key; k++)
        D.app->key(&D, *k); /* --keys: the demo's own keys, as if pressed now */
    O.keys = NULL;          /* once: a restart (r, +, -) keeps what they chose */
    return 0;
}

static void stop(void)
{
    if (!D.ctx)
        return;
    demo_trace(&D, "%s fini", D.app->name);
    D.app->fini(&D);
    demo_timing_stop(&D);
    demo_trace(&D, "destroying the homg context");
    homg_ctx_destroy(D.ctx);
    D.ctx = NULL;
}

static void restart(void)
{
    stop();
    if (start() != 0)
        exit(1);
}

/* ---------------------------------------------------------------- input */

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    const demo_app *app = D.app;
    (void)scancode;
    (void)mods;
    if (action != GLFW_PRESS)
        return;
    switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(w, 1); break;
    case GLFW_KEY_SPACE: D.paused = !D.paused; break;
    case GLFW_KEY_R: restart(); break;
    case GLFW_KEY_H: usage(app); break;
    case GLFW_KEY_B:
        D.backend = D.backend == HOMG_BACKEND_CUDA ? HOMG_BACKEND_CPU : HOMG_BACKEND_CUDA;
        if (D.backend == HOMG_BACKEND_CUDA && !homg_cuda_available()) {
            printf("%s: no CUDA device: staying on the CPU\n", app->name);
            D.backend = HOMG_BACKEND_CPU;
            break;
        }
        restart();
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: {
        int up = key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD;
        int s = app->step1 ? D.size + (up ? 1 : -1) : up ? D.size * 2 : D.size / 2;
        if (s >= app->min_size && s <= app->max_size) {
            D.size = s;
            restart();
        }
        break;
    }
    default:
        if (app->key && key >= 0 && key < 128)
            app->key(&D, key >= 'A' && key <= 'Z' ? key - 'A' + 'a' : key);
    }
}

static void poll_mouse(void)
{
    double x, y;
    int w, h;
    glfwGetCursorPos(window, &x, &y);
    glfwGetWindowSize(window, &w, &h);
    D.mouse_x = x / (w > 0 ? w : 1);
    D.mouse_y = 1 - y / (h > 0 ? h : 1);
    D.mouse_button = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS    ? 1
                     : glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ? 2
                                                                                         : 0;
}

/* ---------------------------------------------------------------- GL context */

static homg_gl_proc glfw_proc(const char *name) { return (homg_gl_proc)glfwGetProcAddress(name); }

static int open_gl(void)
{
    char err[256];
    demo_trace(&D, "opening GL");
    if (D.headless && !O.glfw) {
        if (demo_egl_begin(O.width, O.height, D.backend != HOMG_BACKEND_CPU, err, sizeof err) != 0) {
            fprintf(stderr, "%s: no headless EGL context (%s); try --glfw under Xvfb\n", D.app->name, err);
            return -1;
        }
        demo_trace(&D, "EGL context on %s", demo_egl_vendor());
        D.gl_loader = demo_egl_proc;
    } else {
        if (!glfwInit()) {
            fprintf(stderr, "%s: glfwInit failed (no display? headless: --frames K --png FILE)\n", D.app->name);
            return -1;
        }
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_VISIBLE, D.headless ? GLFW_FALSE : GLFW_TRUE);
        window = glfwCreateWindow(O.width, O.height, D.app->name, NULL, NULL);
        if (!window) {
            fprintf(stderr, "%s: no GL 3.3 window\n", D.app->name);
            return -1;
        }
        glfwMakeContextCurrent(window);
        demo_pin_libraries();
        glfwSwapInterval(O.vsync);
        glfwSetKeyCallback(window, on_key);
        D.gl_loader = glfw_proc;
    }
    if (demo_glew_init(err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", D.app->name, err);
        return -1;
    }
    return 0;
}

static void close_gl(void)
{
    demo_trace(&D, "closing GL");
    if (window) {
        glfwDestroyWindow(window);
        glfwTerminate();
    } else
        demo_egl_end();
}

static void framebuffer_size(void)
{
    if (window)
        glfwGetFramebufferSize(window, &D.fb_width, &D.fb_height);
    else
        D.fb_width = O.width, D.fb_height = O.height;
}

/* ---------------------------------------------------------------- overlay, picture */

static void overlay(void)
{
    char text[640], t_frame[32], t_solve[32], t_res[32];
    if (D.deterministic || D.frame_ms <= 0)
        snprintf(t_frame, sizeof t_frame, "-");
    else
        snprintf(t_frame, sizeof t_frame, "%.2f ms", D.frame_ms);
    if (D.deterministic || D.solve_ms < 0)
        snprintf(t_solve, sizeof t_solve, "-");
    else
        snprintf(t_solve, sizeof t_solve, "%.3f ms", D.solve_ms);
    if (D.residual < 0)
        snprintf(t_res, sizeof t_res, "-");
    else
        snprintf(t_res, sizeof t_res, "%.1e", D.residual);
    snprintf(text, sizeof text, "homg %s   %s\n%s\nframe %s   %s %s\n%s: %d it, residual %s%s\n[h] help", D.app->name,
             D.detail, homg_ctx_device_name(D.ctx), t_frame, demo_timed_name(&D), t_solve, D.method, D.iterations,
             t_res, D.paused ? "   PAUSED" : "");
    demo_overlay_draw(text, D.fb_width, D.fb_height);
}

static int write_png(const char *path)
{
    int w = D.fb_width, h = D.fb_height, ok;
    unsigned char *px = malloc((size_t)w * h * 4), *flip = malloc((size_t)w * h * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            memcpy(flip + 3 * ((size_t)w * y + x), px + 4 * ((size_t)w * (h - 1 - y) + x), 3);
    ok = stbi_write_png(path, w, h, 3, flip, 3 * w);
    free(px);
    free(flip);
    if (!ok)
        fprintf(stderr, "%s: cannot write %s\n", D.app->name, path);
    return ok ? 0 : -1;
}

/* ---------------------------------------------------------------- main loop */

int demo_run(int argc, char **argv, const demo_app *app)
{
    int rc = 0;
    double last;
    D.app = app;
    /* OpenMP threads that spin while waiting starve the GL driver's own threads
     * (Mesa's llvmpipe renders on the CPU): let them sleep, unless told otherwise. */
    setenv("OMP_WAIT_POLICY", "passive", 0);
    setvbuf(stdout, NULL, _IOLBF, 0); /* a log file shows how far a run got */
    if (parse(argc, argv, app) != 0)
        return 2;
    if (O.help) {
        usage(app);
        return 0;
    }
    if (open_gl() != 0)
        return 1;
    demo_overlay_init();
    framebuffer_size();
    if (start() != 0) {
        close_gl();
        return 1;
    }
    if (!D.headless)
        usage(app);
    last = demo_now_ms();
    for (;;) {
        double t;
        if (window) {
            glfwPollEvents();
            if (glfwWindowShouldClose(window))
                break;
        }
        framebuffer_size();
        if (D.headless)
            app->script(&D, D.frame);
        else
            poll_mouse();
        glViewport(0, 0, D.fb_width, D.fb_height);
        glClearColor(0.08f, 0.08f, 0.1f, 1);
        if (!demo_skip("clear"))
            glClear(GL_COLOR_BUFFER_BIT);
        D.last = D.headless && D.frame + 1 >= O.frames;
        demo_trace(&D, "frame begins");
        app->frame(&D);
        if (!demo_skip("overlay"))
            overlay();
        if (demo_skip("flush"))
            glFlush();
        if (demo_skip("finish"))
            glFinish();
        demo_trace(&D, "frame queued");
        if (D.headless && D.frame + 1 >= O.frames) {
            D.closing = 1;
            demo_trace(&D, "glFinish");
            glFinish();
            demo_stats_print(&D);
            rc = write_png(O.png);
            demo_trace(&D, "picture written");
            printf("%s: %d frames on %s: frame %.2f ms, %s %.3f ms (%s, %d it, residual %.1e); %s\n", app->name,
                   D.frame + 1, homg_ctx_device_name(D.ctx), D.frame_ms, demo_timed_name(&D), D.solve_ms, D.method,
                   D.iterations, D.residual, O.png);
            break;
        }
        if (window)
            glfwSwapBuffers(window);
        t = demo_now_ms();
        demo_stats_frame(&D, t - last);
        D.frame_ms = D.frame_ms > 0 ? 0.9 * D.frame_ms + 0.1 * (t - last) : t - last;
        last = t;
        D.frame++;
    }
    D.closing = 1;
    if (!D.headless)
        demo_stats_print(&D); /* --stats in a window: at exit */
    stop();
    demo_overlay_fini();
    close_gl();
    demo_trace(&D, "done");
    return rc;
}
