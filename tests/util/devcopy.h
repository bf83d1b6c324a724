/* devcopy.h -- contexts and host <-> device copies for the *_gpu tests, which
 * run a CUDA backend beside the CPU one on the same inputs.  Each helper
 * aborts with a message when the library call fails. */
#ifndef HOMG_DEVCOPY_H
#define HOMG_DEVCOPY_H

#include <stddef.h>

#include "homg.h"

/* A context on backend b with one CPU thread (the CPU twin as CI's two loaded
 * cores run it best). */
homg_ctx *homg_test_ctx_1thread(homg_backend b);

/* bytes of ctx memory (8 when bytes is 0) holding a copy of host; host NULL:
 * room for a result, nothing copied.  Release with homg_free. */
void *homg_test_up(homg_ctx *ctx, const void *host, size_t bytes);

/* Waits for the ctx's stream, then copies bytes of dev into host. */
void homg_test_down(homg_ctx *ctx, void *host, const void *dev, size_t bytes);

/* ||dev - host|| / ||host|| for n floats, dev in ctx memory (homg_rel_diff in double). */
double homg_test_diff_f(homg_ctx *ctx, const float *dev, const float *host, size_t n);

#endif
