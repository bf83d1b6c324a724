/* general_loop.h -- a general (CG) tolerance solve's iterations in one graph with a
 * device loop (general_loop.c); general_solve.c queues the steps. */
#ifndef HOMG_GENERAL_LOOP_H
#define HOMG_GENERAL_LOOP_H

#include "grid_internal.h"

/* The steps the loop asks of general_solve.c's callback (loop_step). */
enum {
    GEN_LOOP_STEP_FIRST = 0, /* the first iteration (CG's update, or the first plain cycle) */
    GEN_LOOP_STEP_ITERATE,   /* any later one */
    GEN_LOOP_STEP_RESTART,   /* a restart before it */
    GEN_LOOP_STEP_DIRECTION  /* CG's next direction before it */
};

typedef struct gen_loop_spec {
    homg_status (*step)(homg_grid *g, void *arg, int step); /* queues a GEN_LOOP_STEP_* */
    void *arg;
    double *s;          /* the lane's scalars (gen_kernels.h GEN_LOOP_*; zero at the start) */
    const double *hist; /* the lane's history and its length */
    const int *count;
    double tol;
    int max_cycles;
    int every; /* a restart every `every` iterations, CG's direction between; 0: neither (plain cycles) */
} gen_loop_spec;

/* Queues (into the graph being captured) the first iteration and its test, then a loop whose
 * body is the next direction or restart (every > 0: decided on the device), an iteration and
 * its test, run while the test says so; g->body holds what one pass queues. */
homg_status homg__gen_loop_queue(homg_grid *g, const gen_loop_spec *L);

/* The accounting of the passes the device ran after the graph of homg__gen_loop_queue (its
 * replay counted the body once, with both branches): `cycles` iterations in all. */
void homg__gen_loop_account(homg_grid *g, int cycles, int every);

#endif
