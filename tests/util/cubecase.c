/* cubecase.c -- the cube kernels' test levels (cubecase.h). */
#include "cubecase.h"
#include "grid/gen_point.h"

#include <stdlib.h>
#include <string.h>

static const int sizes[][3] = { { 4, 2, 2 }, { 8, 4, 6 }, { 12, 6, 4 }, { 16, 16, 16 }, { 32, 8, 34 }, { 4, 10, 8 } };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

int cube_case_count(void) { return NSIZES * 3; }

void cube_case_level(int t, gen_level *L, gen_level *C) { cube_case_sized(sizes[t % NSIZES], t / NSIZES, L, C); }

void cube_case_sized(const int n[3], int sides, gen_level *L, gen_level *C)
{
    const double g[3] = { 1.3, 0.8, 2.1 };
    memset(L, 0, sizeof *L);
    memset(C, 0, sizeof *C);
    L->nx = n[0], L->ny = n[1], L->nz = n[2];
    L->uniform = 1;
    for (int a = 0; a < 3; a++)
        L->g0[a] = (double)(float)g[a];
    for (int s = 0; s < 6; s++) {
        const int dir = sides == 0 || (sides == 2 && s % 3 == 0);
        L->wall[s] = dir ? 2.0 * g[s / 2] : 0.0;
    }
    L->lam0 = sides == 1 ? 0.37 : sides == 2 ? 0.05 : 0.0;
    C->nx = n[0] / 2, C->ny = n[1] / 2, C->nz = n[2] / 2;
    C->uniform = 1;
    gen_uniform_coarse(L, C, 0);
}

float *cube_case_random(size_t n, homg_rng *rng)
{
    float *v = (float *)malloc(n * sizeof(float));
    for (size_t k = 0; k < n; k++)
        v[k] = (float)(2 * homg_rng_uniform(rng) - 1);
    return v;
}
