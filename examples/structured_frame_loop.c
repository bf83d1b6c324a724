/* structured_frame_loop.c -- a structured Poisson solve inside a frame loop.
 *
 * -lap u = f on a 128 x 128 cell grid of the unit square, u = 0 on its edges; a
 * square heat source moves every frame, and each frame's solve starts from the last
 * frame's solution (warm start), running two cycles with no host wait at all
 * (tol = 0): the pattern of a game or a simulation loop.  Every 20 frames it
 * synchronises and prints where the solution peaks.
 *
 *   cc structured_frame_loop.c $(pkg-config --cflags --libs homg) -o structured_frame_loop
 */
#include <homg.h>

#include <stdio.h>
#include <stdlib.h>

#define N      128
#define FRAMES 60

/* Stops the program with the context's message (it names the failing argument). */
static void check(homg_ctx *ctx, homg_status st, const char *what)
{
    if (st != HOMG_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, ctx ? homg_ctx_last_error(ctx) : "", homg_status_string(st));
        exit(1);
    }
}

int main(void)
{
    homg_ctx_desc cd = { 0 }; /* zero = defaults: CUDA when a device is there, else the CPU */
    homg_ctx *ctx = NULL;
    homg_grid_desc gd = { 0 };
    homg_grid *grid = NULL;
    homg_boundary bc = { 0 }; /* no boundary arrays: u = 0 on every edge */
    homg_solve_desc sd = { 0 };
    homg_solve_info info;
    float *f = malloc(sizeof(float) * N * N), *u = malloc(sizeof(float) * N * N);
    void *d_f = NULL, *d_u = NULL; /* the solver's arrays live in the context's space */
    const double h = 1.0 / N;

    check(NULL, homg_ctx_create(&cd, &ctx), "homg_ctx_create");
    printf("backend: %s\n", homg_ctx_device_name(ctx));
    gd.nx = gd.ny = N; /* float32, the default method */
    check(ctx, homg_grid_create(ctx, &gd, &grid), "homg_grid_create");
    check(ctx, homg_alloc(ctx, sizeof(float) * N * N, &d_f), "homg_alloc");
    check(ctx, homg_alloc(ctx, sizeof(float) * N * N, &d_u), "homg_alloc");
    for (int i = 0; i < N * N; i++)
        u[i] = 0;
    check(ctx, homg_copy_from_host(ctx, d_u, u, sizeof(float) * N * N), "homg_copy_from_host");

    sd.max_cycles = 2; /* tol = 0: exactly two cycles, queued, no synchronisation */
    sd.warm_start = 1; /* u holds the last frame's solution */
    for (int frame = 0; frame < FRAMES; frame++) {
        /* the source: a square of 9 x 9 cells sliding along the diagonal (cell (i, j) is
         * f[i + N j], row 0 at the bottom) */
        int ci = N / 4 + frame, cj = N / 4 + frame / 2;
        double cx = (ci + 0.5) * h, cy = (cj + 0.5) * h;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                f[i + N * j] = (i - ci) * (i - ci) <= 16 && (j - cj) * (j - cj) <= 16 ? 1000.0f : 0.0f;
        check(ctx, homg_copy_from_host(ctx, d_f, f, sizeof(float) * N * N), "homg_copy_from_host");
        check(ctx, homg_grid_solve(grid, d_f, &bc, d_u, &sd, &info), "homg_grid_solve");
        if (frame % 20 == 19) {
            int best = 0;
            check(ctx, homg_copy_to_host(ctx, u, d_u, sizeof(float) * N * N), "homg_copy_to_host");
            for (int k = 1; k < N * N; k++)
                best = u[k] > u[best] ? k : best;
            printf("frame %2d: u peaks at (%.3f, %.3f) = %.4f, source at (%.3f, %.3f)\n", frame + 1,
                   (best % N + 0.5) * h, (best / N + 0.5) * h, u[best], cx, cy);
            if (!(u[best] > 0) || (best % N - ci) * (best % N - ci) > 9 || (best / N - cj) * (best / N - cj) > 9) {
                fprintf(stderr, "the solution does not follow the source\n");
                return 1;
            }
        }
    }
    homg_free(ctx, d_f);
    homg_free(ctx, d_u);
    homg_grid_destroy(grid);
    homg_ctx_destroy(ctx);
    free(f);
    free(u);
    return 0;
}
