/* amg_internal.h -- what the AMG files share: the hierarchy and its set-up steps. */
#ifndef HOMG_AMG_INTERNAL_H
#define HOMG_AMG_INTERNAL_H

#include "amg/amg_kernels.h"
#include "sparse/sparse.h"

typedef struct amg_level {
    csr_matrix a;         /* float; level 0: float values on the fine matrix's pattern (shared) */
    csr_matrix p;         /* prolongator (n x nc; none on the coarsest); restriction by P^T */
    int32_t *agg;         /* n: the row of the next level each row belongs to */
    float *v;             /* matching: the level's smooth vector */
    float *dinv;          /* Jacobi: 1 / a_ii; l1 Jacobi: 1 / sum_j |a_ij| */
    amg_patches pt;       /* patch smoother */
    float *b, *x, *t, *u; /* cycle: right-hand side, iterate, residual (Chebyshev: also its step), patch rhs */
    float *inv;           /* coarsest level, Cholesky: dense inverse */
    float rho;            /* Jacobi, Chebyshev: estimate of rho(D^-1 A) from above (host) */
    int rho_set;          /* rho came with the prolongator (its filtered matrix was A): no second Lanczos */
} amg_level;

/* desc.trace: an event at the start of every phase (and one at the end). */
#define AMG_TRACE_MARKS (8 * HOMG_AMG_MAX_LEVELS + 8)
typedef struct amg_trace {
    int active, n;
    int phase[AMG_TRACE_MARKS]; /* the phase each mark starts (-1: the end) */
    void *ev[AMG_TRACE_MARKS];
    long syncs; /* ctx->host_syncs when the current phase began */
    homg_amg_phase_info ph[HOMG_AMG_PHASES];
    size_t peak;
} amg_trace;

struct homg_amg {
    homg_ctx *ctx;
    homg_amg_desc desc;
    void *handle; /* sparse kernels' handle */
    csr_matrix a; /* the fine matrix, double */
    int nlevels;
    amg_level lv[HOMG_AMG_MAX_LEVELS];
    int32_t *count;    /* device scalars for counts read by the host */
    float *rho;        /* device scalar: the prolongator's rho(D^-1 A) */
    const double *b64; /* during a cycle without lv[0].b (Chebyshev): level 0's right-hand side, the caller's r */
    double setup_ms;
    amg_trace trace;
};

#define AMG_SK(amg) HOMG_KERNELS(&(amg)->ctx->ex, sparse)
#define AMG_AK(amg) HOMG_KERNELS(&(amg)->ctx->ex, amg)

/* trace.c: desc.trace's phase table; homg__amg_phase starts `phase` (-1: the
 * end) and closes the one before; a no-op unless a traced set-up runs. */
void homg__amg_trace_begin(homg_amg *amg);
void homg__amg_phase(homg_amg *amg, int phase);
void homg__amg_trace_end(homg_amg *amg);

/* strength.c: the strength graph of level l (strong entries, weak ones lumped on
 * the diagonal); *lumped = 0 when every weak entry is 0 (the graph is A then). */
homg_status homg__amg_strength(homg_amg *amg, int l, csr_matrix *s, int *lumped);
/* spectrum.c: rho(D^-1 A) from above (Lanczos, capped by Gershgorin), read to the host. */
homg_status homg__amg_spectral_bound(homg_amg *amg, const csr_matrix *a, float *rho);
/* aggregate.c: smoothed-aggregation aggregates of level l on graph g (agg: n rows). */
homg_status homg__amg_aggregate(homg_amg *amg, int l, const csr_matrix *g, int32_t *agg, int32_t *nagg);
/* matching.c: the double-pairwise prolongator of level l and the next level's smooth vector. */
homg_status homg__amg_match(homg_amg *amg, int l, int32_t *nagg);
/* galerkin.c: level l+1 from level l (agg, and for smoothed aggregation P). */
homg_status homg__amg_smoothed_prolongator(homg_amg *amg, int l, int32_t nagg, const csr_matrix *filtered, int lumped);
homg_status homg__amg_galerkin(homg_amg *amg, int l);
homg_status homg__amg_galerkin_values(homg_amg *amg, int l);
/* patch.c: patch partition of every smoothed level; values only on re-setup. */
homg_status homg__amg_patches(homg_amg *amg);
homg_status homg__amg_patch_values(homg_amg *amg);
void homg__amg_patches_free(homg_amg *amg, amg_patches *pt);
/* cycle.c: smoother and coarse-solver data, cycle vectors, the cycle. */
homg_status homg__amg_smoother_setup(homg_amg *amg, int values_only);
/* The safe smoother after a CG breakdown: l1 Jacobi on every level (for good);
 * UNSUPPORTED when the amg smooths with it already. */
homg_status homg__amg_fall_back(homg_amg *amg);
/* One cycle on the level vectors: lv[0].b in, lv[0].x out (from x = 0). */
homg_status homg__amg_cycle(homg_amg *amg);

/* For pcg.c: the fine matrix, the ctx, one cycle without the entry checks. */
const csr_matrix *homg__amg_matrix(const homg_amg *amg);
homg_ctx *homg__amg_ctx(const homg_amg *amg);
homg_status homg__amg_apply_raw(homg_amg *amg, const double *r, double *z);

/* Reads the device counter amg->count (rows, rounds ... a step counted). */
static inline homg_status homg__amg_read_count(homg_amg *amg, int32_t *host)
{
    return homg__read(amg->ctx, host, amg->count, sizeof *host);
}

#endif
