/* timing.c -- the demos' measurements: the solve and the view's write each
 * bracketed by CUDA events (homg_timer, read LAG frames later: reading waits for
 * the events, and a wait for the frame before held the host one frame behind
 * the GPU, so the frame loop could not pipeline; HOMG_DEMO_TIMER_LAG=1 brings
 * that back for the measurement),
 * the GL draw by a GL_TIME_ELAPSED query (read DRAW_QUERIES frames later, only
 * when its result is there), the medians of a headless run (--stats), and
 * progress lines on stderr (--trace) that show where a run stops.
 * The solve's figure is the span between its two events on the ctx's stream, not the
 * solve's own GPU time: GL work that the GPU runs between them counts, with the
 * CUDA/GL context switches around it (a hand-over costs ~0.3 ms of GPU time on the
 * H100: bench/results/h100_view.md, section F).  The view's write frees GL's draw as the solve is queued,
 * and GL runs frames behind the host, so under a GL view the span holds some of that.
 * HOMG_DEMO_SKIP=finish (GL idle when each frame ends) shows the difference.  On the
 * CPU backend it is the host's time of the solve. */
#define _POSIX_C_SOURCE 200809L
#include "harness/harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SOLVE, VIEW, NTIMERS, MAX_SAMPLES = 1 << 14, DRAW_QUERIES = 4, DEPTH = 4 };

typedef struct samples {
    double *v;
    int n;
} samples;

static homg_timer *timers[NTIMERS][DEPTH]; /* frame f's in f % DEPTH */
static int started[NTIMERS][DEPTH], lag = DEPTH - 1;
static samples frame_wall, solve_gpu, view_gpu, view_host, draw_gpu;
static GLuint draw_query[DRAW_QUERIES];
static int draw_issued[DRAW_QUERIES], draw_frame = -1, drawing;

/* HOMG_DEMO_SKIP=clear,overlay,query,timers leaves those parts of a frame out and
 * HOMG_DEMO_SKIP=...,flush (finish) adds a glFlush (glFinish) after each frame:
 * measurement knobs, to find what in a frame costs more than bench_view's loop
 * (bench/results/h100_view.md); with finish, GL has no work of an earlier frame left
 * to run inside the next solve's events. */
int demo_skip(const char *what)
{
    const char *env = getenv("HOMG_DEMO_SKIP");
    return env && strstr(env, what) != NULL;
}

double demo_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

void demo_trace(const demo *d, const char *fmt, ...)
{
    static double t0;
    va_list ap;
    if (!d->trace || (d->frame > 2 && d->frame % 100 != 0 && !d->closing))
        return;
    if (t0 == 0)
        t0 = demo_now_ms();
    fprintf(stderr, "[%9.1f ms] %s frame %d: ", demo_now_ms() - t0, d->app->name, d->frame);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void demo_timing_start(demo *d)
{
    const char *env = getenv("HOMG_DEMO_TIMER_LAG");
    lag = env && atoi(env) >= 1 && atoi(env) < DEPTH ? atoi(env) : DEPTH - 1;
    for (int k = 0; k < NTIMERS; k++)
        for (int b = 0; b < DEPTH; b++) {
            demo_check(d, homg_timer_create(d->ctx, &timers[k][b]), "homg_timer_create");
            started[k][b] = 0;
        }
}

void demo_timing_stop(demo *d)
{
    (void)d;
    if (draw_query[0])
        glDeleteQueries(DRAW_QUERIES, draw_query);
    memset(draw_query, 0, sizeof draw_query);
    memset(draw_issued, 0, sizeof draw_issued);
    draw_frame = -1;
    drawing = 0;
    for (int k = 0; k < NTIMERS; k++)
        for (int b = 0; b < DEPTH; b++) {
            homg_timer_destroy(timers[k][b]);
            timers[k][b] = NULL;
        }
}

static void add(samples *s, double v)
{
    if (!s->v)
        s->v = malloc(sizeof(double) * MAX_SAMPLES);
    if (s->v && s->n < MAX_SAMPLES && v >= 0)
        s->v[s->n++] = v;
}

/* Timer k of `lag` frames ago: normally passed, so reading it does not wait. */
static double last_ms(const demo *d, int k)
{
    int b = (d->frame - lag) % DEPTH;
    double ms = -1;
    if (d->frame >= lag && started[k][b] && homg_timer_ms(timers[k][b], &ms) != HOMG_OK)
        ms = -1;
    return ms;
}

static void begin(demo *d, int k)
{
    int b = d->frame % DEPTH;
    if (demo_skip("timers"))
        return;
    started[k][b] = homg_timer_start(timers[k][b]) == HOMG_OK;
}

static void end(demo *d, int k)
{
    int b = d->frame % DEPTH;
    if (started[k][b])
        started[k][b] = homg_timer_stop(timers[k][b]) == HOMG_OK;
}

const char *demo_timed_name(const demo *d) { return d->app->timed ? d->app->timed : "solve"; }

void demo_solve_begin(demo *d)
{
    demo_trace(d, "solve queued");
    begin(d, SOLVE);
}

void demo_solve_end(demo *d)
{
    double ms;
    end(d, SOLVE);
    if ((ms = last_ms(d, SOLVE)) >= 0)
        d->solve_ms = ms;
    demo_trace(d, "solve returned");
}

void demo_view_write(demo *d, homg_view *view, const void *values, const homg_view_write_desc *wd)
{
    double t = demo_now_ms();
    demo_trace(d, "view write");
    begin(d, VIEW);
    demo_check(d, homg_view_write(view, values, wd), "homg_view_write");
    end(d, VIEW);
    if (d->last) /* the picture written to the PNG is the newest write */
        demo_check(d, homg_view_flush(view), "homg_view_flush");
    if (d->stats) {
        add(&view_host, demo_now_ms() - t);
        add(&view_gpu, last_ms(d, VIEW));
    }
    demo_trace(d, "view written");
}

/* One timed draw per frame (the first one); the query of DRAW_QUERIES frames ago is read
 * where its result is already there, so the host never waits for GL. */
void demo_draw_begin(const demo *d)
{
    int q = d->frame % DRAW_QUERIES;
    GLint ready = 0;
    GLuint64 ns = 0;
    if (!d->stats || d->frame == draw_frame || demo_skip("query"))
        return;
    if (!draw_query[0])
        glGenQueries(DRAW_QUERIES, draw_query);
    if (draw_issued[q]) {
        glGetQueryObjectiv(draw_query[q], GL_QUERY_RESULT_AVAILABLE, &ready);
        if (ready) {
            glGetQueryObjectui64v(draw_query[q], GL_QUERY_RESULT, &ns);
            add(&draw_gpu, ns * 1e-6);
        }
    }
    glBeginQuery(GL_TIME_ELAPSED, draw_query[q]);
    draw_issued[q] = 1;
    draw_frame = d->frame;
    drawing = 1;
}

void demo_draw_end(const demo *d)
{
    (void)d;
    if (drawing)
        glEndQuery(GL_TIME_ELAPSED);
    drawing = 0;
}

void demo_stats_frame(demo *d, double wall_ms)
{
    if (!d->stats)
        return;
    add(&frame_wall, wall_ms);
    add(&solve_gpu, d->solve_ms);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the samples after the first quarter (warm-up); -1 when none. */
static double median(samples *s, double *p90)
{
    int first = s->n / 4, n = s->n - first;
    *p90 = -1;
    if (n <= 0)
        return -1;
    qsort(s->v + first, (size_t)n, sizeof(double), cmp);
    *p90 = s->v[first + (n * 9) / 10 < s->n ? first + (n * 9) / 10 : s->n - 1];
    return s->v[first + n / 2];
}

/* Mean of the samples after the first quarter: a pipelined loop's frames come in
 * bursts (the host runs ahead, then waits), so its median is no frame time. */
static double mean(const samples *s)
{
    int first = s->n / 4;
    double sum = 0;
    for (int i = first; i < s->n; i++)
        sum += s->v[i];
    return s->n > first ? sum / (s->n - first) : -1;
}

void demo_stats_print(demo *d)
{
    double p90[5], m[5], wall_mean;
    samples *s[5] = { &frame_wall, &solve_gpu, &view_gpu, &view_host, &draw_gpu };
    if (!d->stats)
        return;
    wall_mean = mean(&frame_wall);
    for (int k = 0; k < 5; k++)
        m[k] = median(s[k], &p90[k]);
    printf("stats: %s %s (%s) on %s, median of the last %d of %d frames (p90): frame %.3f ms wall (%.3f), %.0f "
           "frames/s; %s %.3f ms device (%.3f); view write %.3f ms device (%.3f), %.3f ms host (%.3f); draw %.3f "
           "ms GL (%.3f, %d samples); frame mean %.3f ms wall\n",
           d->app->name, d->detail, d->method, homg_ctx_device_name(d->ctx), frame_wall.n - frame_wall.n / 4,
           frame_wall.n, m[0], p90[0], m[0] > 0 ? 1e3 / m[0] : 0, demo_timed_name(d), m[1], p90[1], m[2], p90[2], m[3],
           p90[3], m[4], p90[4], draw_gpu.n, wall_mean);
    for (int k = 0; k < 5; k++) {
        free(s[k]->v);
        memset(s[k], 0, sizeof *s[k]);
    }
}
