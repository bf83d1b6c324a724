/* matching.c -- coarsening by compatible weighted matching (seed 001, 2.2
 * and 3.1).
 *
 * Edge weights w_ij = 1 - 2 a_ij v_i v_j / (a_ii v_i^2 + a_jj v_j^2) with the
 * level's smooth vector v (ones on the fine level, its restriction below); an
 * approximate maximum-weight matching by Suitor in synchronous rounds (every
 * unmatched vertex proposes to its heaviest neighbour whose held proposal it
 * beats; the best proposal per vertex wins; beaten vertices propose again);
 * matched pairs and unmatched singletons are the aggregates, with the
 * prolongator weights v_i / ||v_pair|| (orthonormal projection of v).  Two such
 * pairwise steps, the second on the Galerkin matrix of the first, compose into
 * double pairwise aggregates of up to four rows; the prolongator is not
 * smoothed.  Weights are rounded the same way on both backends and proposals
 * resolved by maximum, so the CPU and CUDA builds match the same pairs on the
 * same values.
 */
#include "amg_internal.h"

#include <string.h>

#define SUITOR_ROUNDS_MAX 100

/* Scratch of one pairwise matching of n rows. */
typedef struct match_scratch {
    float *d, *w; /* diagonal, edge weights */
    uint64_t *suitor;
    int32_t *target, *cand, *mate, *flag, *id;
} match_scratch;

static homg_status scratch_alloc(homg_ctx *ctx, const csr_matrix *a, match_scratch *m)
{
    int32_t **ints[] = { &m->target, &m->cand, &m->mate, &m->flag, &m->id };
    size_t n = (size_t)a->nrows;
    HOMG_TRY(homg__alloc_array(ctx, n, sizeof(float), (void **)&m->d, "matching"));
    HOMG_TRY(homg__alloc_array(ctx, (size_t)a->nnz, sizeof(float), (void **)&m->w, "matching weights"));
    HOMG_TRY(homg__alloc_array(ctx, n, sizeof(uint64_t), (void **)&m->suitor, "matching"));
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        HOMG_TRY(homg__alloc_array(ctx, n + 1, sizeof(int32_t), (void **)ints[i], "matching"));
    return HOMG_OK;
}

static void scratch_free(homg_ctx *ctx, match_scratch *m)
{
    homg__free(ctx, m->d);
    homg__free(ctx, m->w);
    homg__free(ctx, m->suitor);
    homg__free(ctx, m->target);
    homg__free(ctx, m->cand);
    homg__free(ctx, m->mate);
    homg__free(ctx, m->flag);
    homg__free(ctx, m->id);
}

/* Suitor rounds until no proposal is open (at most SUITOR_ROUNDS_MAX). */
static homg_status suitor(homg_amg *amg, const csr_matrix *a, const float *v, match_scratch *m, int *rounds,
                          int32_t *proposals)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    HOMG_TRY_BACKEND(ctx, ak->diag(ex, a, 0, m->d), "matching weights");
    HOMG_TRY_BACKEND(ctx, ak->match_weights(ex, a, m->d, v, m->w), "matching weights");
    HOMG_TRY_BACKEND(ctx, ctx->mem->zero(ex, m->suitor, (size_t)a->nrows * sizeof(uint64_t)), "matching");
    HOMG_TRY_BACKEND(ctx, AMG_SK(amg)->fill_i32(ex, m->target, a->nrows, -1), "matching");
    *proposals = 1;
    for (*rounds = 0; *rounds<SUITOR_ROUNDS_MAX && * proposals> 0; ++*rounds) {
        HOMG_TRY_BACKEND(ctx, ak->suitor_round(ex, a, m->w, m->suitor, m->target, m->cand, amg->count),
                         "Suitor matching");
        HOMG_TRY(homg__amg_read_count(amg, proposals));
    }
    return HOMG_OK;
}

/* Pairs and singletons from the proposals: agg, pw and the coarse smooth vector. */
static homg_status match_steps(homg_amg *amg, const csr_matrix *a, const float *v, match_scratch *m, int32_t *agg,
                               float *pw, float **vc, int32_t *nc)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    int32_t n = a->nrows, proposals = 0;
    int rounds = 0;
    HOMG_TRY(suitor(amg, a, v, m, &rounds, &proposals));
    HOMG_TRY_BACKEND(ctx, ak->match_pairs(ex, a, m->w, m->suitor, m->target, m->mate, m->flag), "matching");
    HOMG_TRY_BACKEND(ctx, AMG_SK(amg)->scan_i32(ex, amg->handle, m->flag, m->id, n, amg->count), "matching");
    HOMG_TRY(homg__amg_read_count(amg, nc));
    homg__log(ctx, HOMG_LOG_DEBUG, "matching: %d rows, %d rounds (%d proposals open), %d aggregates", (int)n, rounds,
              (int)proposals, (int)*nc);
    HOMG_TRY_BACKEND(ctx, ak->match_agg(ex, n, m->mate, m->id, agg), "matching");
    HOMG_TRY(homg__alloc_array(ctx, (size_t)*nc, sizeof(float), (void **)vc, "matching"));
    HOMG_TRY_BACKEND(ctx, ak->match_weights_p(ex, n, m->mate, agg, v, pw, *vc), "matching");
    return HOMG_OK;
}

/* One pairwise matching of a (n rows): agg (n), pw (n) and the coarse smooth
 * vector *vc (allocated here, *nc values). */
static homg_status match_once(homg_amg *amg, const csr_matrix *a, const float *v, int32_t *agg, float *pw, float **vc,
                              int32_t *nc)
{
    match_scratch m;
    homg_status st;
    memset(&m, 0, sizeof m);
    *vc = NULL;
    st = scratch_alloc(amg->ctx, a, &m);
    if (st == HOMG_OK)
        st = match_steps(amg, a, v, &m, agg, pw, vc, nc);
    scratch_free(amg->ctx, &m);
    if (st != HOMG_OK) {
        homg__free(amg->ctx, *vc);
        *vc = NULL;
    }
    return st;
}

/* t = P^T a P for a tentative P (one entry per row). */
static homg_status galerkin_once(homg_amg *amg, const csr_matrix *a, const csr_matrix *p, csr_matrix *t)
{
    homg_ctx *ctx = amg->ctx;
    const sparse_kernels *sk = AMG_SK(amg);
    csr_matrix r, ap;
    void *plan1 = NULL, *plan2 = NULL;
    homg_status st;
    memset(&ap, 0, sizeof ap);
    memset(t, 0, sizeof *t);
    HOMG_TRY(homg__mat_alloc(ctx, p->ncols, p->nrows, p->nnz, HOMG_FLOAT32, &r, "restriction"));
    st = sk->transpose(&ctx->ex, amg->handle, p, &r);
    if (st == HOMG_OK)
        st = sk->spgemm(&ctx->ex, amg->handle, a, p, &ap, &plan1);
    if (st == HOMG_OK)
        st = sk->spgemm(&ctx->ex, amg->handle, &r, &ap, t, &plan2);
    if (st != HOMG_OK)
        st = homg__backend_fail(ctx, st, "Galerkin product of the first pairwise step");
    sk->spgemm_free(&ctx->ex, amg->handle, plan1);
    sk->spgemm_free(&ctx->ex, amg->handle, plan2);
    homg__mat_free(ctx, &r);
    homg__mat_free(ctx, &ap);
    return st;
}

homg_status homg__amg_match(homg_amg *amg, int l, int32_t *nagg)
{
    homg_ctx *ctx = amg->ctx;
    kernel_exec *ex = &ctx->ex;
    const amg_kernels *ak = AMG_AK(amg);
    amg_level *lv = &amg->lv[l];
    int32_t n = lv->a.nrows, n1 = 0, n2 = 0;
    int32_t *agg1 = NULL, *agg2 = NULL;
    float *pw1 = NULL, *pw2 = NULL, *v1 = NULL, *v2 = NULL, *pw = NULL;
    csr_matrix p1, a1;
    homg_status st;
    memset(&p1, 0, sizeof p1);
    memset(&a1, 0, sizeof a1);

    st = homg__alloc_array(amg->ctx, (size_t)n, sizeof(int32_t), (void **)&agg1, "matching");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&pw1, "matching");
    if (st == HOMG_OK)
        st = match_once(amg, &lv->a, lv->v, agg1, pw1, &v1, &n1);
    if (st == HOMG_OK)
        st = homg__mat_alloc(ctx, n, n1, n, HOMG_FLOAT32, &p1, "pairwise prolongator");
    if (st == HOMG_OK) {
        st = ak->prolong_tentative(ex, n, agg1, pw1, &p1);
        if (st != HOMG_OK)
            st = homg__backend_fail(ctx, st, "pairwise prolongator");
    }
    if (st == HOMG_OK)
        st = galerkin_once(amg, &lv->a, &p1, &a1);
    /* Second pairwise step on the first one's coarse matrix. */
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n1, sizeof(int32_t), (void **)&agg2, "matching");
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n1, sizeof(float), (void **)&pw2, "matching");
    if (st == HOMG_OK)
        st = match_once(amg, &a1, v1, agg2, pw2, &v2, &n2);
    if (st == HOMG_OK)
        st = homg__alloc_array(amg->ctx, (size_t)n, sizeof(float), (void **)&pw, "matching");
    if (st == HOMG_OK)
        st = homg__mat_alloc(ctx, n, n2, n, HOMG_FLOAT32, &lv->p, "prolongator");
    if (st == HOMG_OK) {
        st = ak->agg_compose(ex, n, agg1, agg2, lv->agg);
        if (st == HOMG_OK)
            st = ak->weight_compose(ex, n, pw1, agg1, pw2, pw);
        if (st == HOMG_OK)
            st = ak->prolong_tentative(ex, n, lv->agg, pw, &lv->p);
        if (st != HOMG_OK)
            st = homg__backend_fail(ctx, st, "double pairwise prolongator");
    }
    if (st == HOMG_OK) {
        amg->lv[l + 1].v = v2;
        v2 = NULL;
        *nagg = n2;
    }
    homg__free(ctx, agg1);
    homg__free(ctx, agg2);
    homg__free(ctx, pw1);
    homg__free(ctx, pw2);
    homg__free(ctx, pw);
    homg__free(ctx, v1);
    homg__free(ctx, v2);
    homg__mat_free(ctx, &p1);
    homg__mat_free(ctx, &a1);
    return st;
}
