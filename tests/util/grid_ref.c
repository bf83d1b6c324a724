/* grid_ref.c -- the reference operator of the general structured grid, assembled cell by
 * cell, and its direct solve in double (grid_ref.h). */
#include "grid_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Envelope Cholesky above this many multiply-adds (sum of squared row widths) hands over to
 * AMG-PCG (about a second of work). */
#define GRID_REF_ENVELOPE_MAX 6e8

size_t grid_ref_face_n(const grid_ref_problem *p, int s)
{
    int nz = p->nz > 1 ? p->nz : 1;
    int a = s / 2;
    return a == 0 ? (size_t)p->ny * nz : a == 1 ? (size_t)p->nx * nz : (size_t)p->nx * p->ny;
}

static int flag_of(const grid_ref *r, size_t c) { return r->p.flags ? r->p.flags[c] : GRID_REF_ACTIVE; }

static double sigma_of(const grid_ref *r, size_t c) { return r->p.sigma_cell ? r->p.sigma_cell[c] : r->p.sigma; }

static double lambda_of(const grid_ref *r, size_t c) { return r->p.lambda_cell ? r->p.lambda_cell[c] : r->p.lambda; }

/* What lies beyond face `side` (0..2*dim-1) of cell (i,j,k): 1 and *nb the neighbour cell
 * (periodic wrap included), or 0 (outside, a Dirichlet or Neumann side); *fi the index of
 * the face value on that side. */
static int neighbour(const grid_ref *r, const int at[3], int side, size_t *nb, size_t *fi)
{
    const int n[3] = { r->p.nx, r->p.ny, r->dim == 3 ? r->p.nz : 1 };
    int a = side / 2, q[3] = { at[0], at[1], at[2] };
    q[a] += side % 2 ? 1 : -1;
    *fi = a == 0 ? at[1] + (size_t)n[1] * at[2] : a == 1 ? at[0] + (size_t)n[0] * at[2] : at[0] + (size_t)n[0] * at[1];
    if (q[a] < 0 || q[a] >= n[a]) {
        if (r->p.side[side] != GRID_REF_P)
            return 0;
        q[a] = (q[a] + n[a]) % n[a];
    }
    *nb = q[0] + (size_t)n[0] * (q[1] + (size_t)n[1] * q[2]);
    return 1;
}

static void cell_coords(const grid_ref *r, size_t c, int at[3])
{
    at[0] = (int)(c % r->p.nx);
    at[1] = (int)(c / r->p.nx % r->p.ny);
    at[2] = (int)(c / ((size_t)r->p.nx * r->p.ny));
}

/* One row: the diagonal and up to 6 off-diagonal entries (duplicate columns merged, a
 * periodic wrap onto the cell itself cancels); *anchored: the row has a term that is not a
 * difference (lambda, a Dirichlet face, a FIXED neighbour). */
static int assemble_row(const grid_ref *r, size_t c, int32_t *cols, double *vals, int *anchored)
{
    const double ih2 = 1.0 / (r->p.h * r->p.h), sc = sigma_of(r, c);
    int at[3], m = 1;
    cell_coords(r, c, at);
    cols[0] = r->unk[c];
    vals[0] = lambda_of(r, c);
    *anchored = vals[0] > 0;
    for (int side = 0; side < 2 * r->dim; side++) {
        size_t nb, fi;
        if (!neighbour(r, at, side, &nb, &fi)) {
            if (r->p.side[side] == GRID_REF_D) {
                vals[0] += 2 * sc * ih2;
                *anchored = 1;
            }
            continue;
        }
        int fl = flag_of(r, nb);
        if (fl == GRID_REF_SOLID)
            continue;
        double sn = sigma_of(r, nb), s = 2 * sc * sn / (sc + sn) * ih2;
        vals[0] += s;
        if (fl == GRID_REF_FIXED) {
            *anchored = 1;
            continue;
        }
        int col = r->unk[nb], k = 0;
        while (k < m && cols[k] != col)
            k++;
        if (k == m) {
            cols[m] = col;
            vals[m++] = 0;
        }
        vals[k] -= s;
    }
    /* sort the columns (insertion; at most 7) */
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && cols[b - 1] > cols[b]; b--) {
            int32_t tc = cols[b];
            double tv = vals[b];
            cols[b] = cols[b - 1];
            vals[b] = vals[b - 1];
            cols[b - 1] = tc;
            vals[b - 1] = tv;
        }
    return m;
}

static int assemble(grid_ref *r, int *anchored)
{
    homg_host_csr *a = &r->a;
    a->nrows = a->ncols = r->n;
    a->row_ptr = (int32_t *)malloc(sizeof(int32_t) * (r->n + 1));
    a->col_idx = (int32_t *)malloc(sizeof(int32_t) * 7 * (size_t)(r->n ? r->n : 1));
    a->values = (double *)malloc(sizeof(double) * 7 * (size_t)(r->n ? r->n : 1));
    if (!a->row_ptr || !a->col_idx || !a->values)
        return -1;
    a->row_ptr[0] = 0;
    for (int u = 0; u < r->n; u++) {
        int m = assemble_row(r, r->cell[u], a->col_idx + a->row_ptr[u], a->values + a->row_ptr[u], &anchored[u]);
        a->row_ptr[u + 1] = a->row_ptr[u] + m;
    }
    a->nnz = a->row_ptr[r->n];
    return 0;
}

/* Islands: connected components of the active cells through the matrix graph (BFS). */
static void label_islands(grid_ref *r, const int *anchored)
{
    int *queue = (int *)malloc(sizeof(int) * (r->n ? r->n : 1));
    r->nisland = 0;
    for (int u = 0; u < r->n; u++)
        r->island[u] = -1;
    for (int s = 0; s < r->n; s++) {
        if (r->island[s] >= 0)
            continue;
        int head = 0, tail = 0, id = r->nisland++, anch = 0;
        queue[tail++] = s;
        r->island[s] = id;
        while (head < tail) {
            int u = queue[head++];
            anch |= anchored[u];
            for (int k = r->a.row_ptr[u]; k < r->a.row_ptr[u + 1]; k++) {
                int v = r->a.col_idx[k];
                if (r->island[v] < 0) {
                    r->island[v] = id;
                    queue[tail++] = v;
                }
            }
        }
        r->singular = (int *)realloc(r->singular, sizeof(int) * r->nisland);
        r->singular[id] = !anch;
        r->nsingular += !anch;
    }
    free(queue);
}

int grid_ref_build(grid_ref *r, const grid_ref_problem *p)
{
    memset(r, 0, sizeof *r);
    r->p = *p;
    if (r->p.nz < 1)
        r->p.nz = 1;
    r->dim = r->p.nz > 1 ? 3 : 2;
    r->ncell = (size_t)r->p.nx * r->p.ny * r->p.nz;
    r->unk = (int *)malloc(sizeof(int) * r->ncell);
    r->cell = (int *)malloc(sizeof(int) * r->ncell);
    if (!r->unk || !r->cell)
        return -1;
    for (size_t c = 0; c < r->ncell; c++) {
        r->unk[c] = flag_of(r, c) == GRID_REF_ACTIVE ? r->n : -1;
        if (r->unk[c] >= 0)
            r->cell[r->n++] = (int)c;
    }
    int *anchored = (int *)malloc(sizeof(int) * (r->n ? r->n : 1));
    r->island = (int *)malloc(sizeof(int) * (r->n ? r->n : 1));
    if (!anchored || !r->island || assemble(r, anchored)) {
        free(anchored);
        return -1;
    }
    label_islands(r, anchored);
    free(anchored);
    return 0;
}

void grid_ref_rhs(const grid_ref *r, const double *f, const double *const face[6], const double *u, double *b)
{
    const double ih2 = 1.0 / (r->p.h * r->p.h);
    for (int k = 0; k < r->n; k++) {
        size_t c = r->cell[k], nb, fi;
        int at[3];
        double acc = f[c], sc = sigma_of(r, c);
        cell_coords(r, c, at);
        for (int side = 0; side < 2 * r->dim; side++) {
            if (!neighbour(r, at, side, &nb, &fi)) {
                double g = face && face[side] ? face[side][fi] : 0;
                acc += r->p.side[side] == GRID_REF_D ? 2 * sc * g * ih2 : g / r->p.h;
            } else if (flag_of(r, nb) == GRID_REF_FIXED) {
                double sn = sigma_of(r, nb);
                acc += 2 * sc * sn / (sc + sn) * ih2 * u[nb];
            }
        }
        b[k] = acc;
    }
}

/* ------------------------------------------------------------ the pinned system */

/* A with one unknown per singular island pinned: its row and column replaced by the
 * identity (the projected system is then definite, and its solution is the singular one
 * plus a constant per island). */
static void pinned_index(const grid_ref *r, int *pin)
{
    for (int i = 0; i < r->nisland; i++)
        pin[i] = -1;
    for (int u = 0; u < r->n; u++)
        if (r->singular[r->island[u]] && pin[r->island[u]] < 0)
            pin[r->island[u]] = u;
}

static void make_pinned(grid_ref *r, const int *is_pin)
{
    homg_host_csr *m = &r->pinned;
    *m = r->a;
    m->row_ptr = (int32_t *)malloc(sizeof(int32_t) * (r->n + 1));
    m->col_idx = (int32_t *)malloc(sizeof(int32_t) * (size_t)(r->a.nnz ? r->a.nnz : 1));
    m->values = (double *)malloc(sizeof(double) * (size_t)(r->a.nnz ? r->a.nnz : 1));
    int nnz = 0;
    m->row_ptr[0] = 0;
    for (int u = 0; u < r->n; u++) {
        for (int k = r->a.row_ptr[u]; k < r->a.row_ptr[u + 1]; k++) {
            int v = r->a.col_idx[k];
            if ((is_pin[u] || is_pin[v]) && u != v)
                continue;
            m->col_idx[nnz] = v;
            m->values[nnz++] = is_pin[u] ? 1.0 : r->a.values[k];
        }
        m->row_ptr[u + 1] = nnz;
    }
    m->nnz = nnz;
}

/* ------------------------------------------------------------ envelope Cholesky */

/* Reverse Cuthill-McKee order of the pinned graph, each component from a far node. */
static int bfs(const homg_host_csr *m, int s, int *mark, int stamp, int *queue, const int *deg)
{
    int head = 0, tail = 0;
    queue[tail++] = s;
    mark[s] = stamp;
    while (head < tail) {
        int u = queue[head++], first = tail;
        for (int k = m->row_ptr[u]; k < m->row_ptr[u + 1]; k++) {
            int v = m->col_idx[k];
            if (mark[v] != stamp) {
                mark[v] = stamp;
                queue[tail++] = v;
            }
        }
        for (int a = first + 1; a < tail; a++) /* by increasing degree */
            for (int b = a; b > first && deg[queue[b - 1]] > deg[queue[b]]; b--) {
                int t = queue[b];
                queue[b] = queue[b - 1];
                queue[b - 1] = t;
            }
    }
    return tail;
}

static void rcm(grid_ref *r)
{
    const homg_host_csr *m = &r->pinned;
    int n = r->n, done = 0, stamp = 1;
    int *mark = (int *)calloc(n, sizeof(int)), *deg = (int *)malloc(sizeof(int) * n);
    int *queue = (int *)malloc(sizeof(int) * n), *seen = (int *)calloc(n, sizeof(int));
    for (int u = 0; u < n; u++)
        deg[u] = m->row_ptr[u + 1] - m->row_ptr[u];
    for (int s = 0; s < n; s++) {
        if (seen[s])
            continue;
        int len = bfs(m, s, mark, ++stamp, queue, deg);
        int far = queue[len - 1];
        len = bfs(m, far, mark, ++stamp, queue, deg);
        far = queue[len - 1];
        len = bfs(m, far, mark, ++stamp, queue, deg);
        for (int k = 0; k < len; k++) {
            seen[queue[k]] = 1;
            r->perm[n - 1 - (done + k)] = queue[k];
        }
        done += len;
    }
    free(mark);
    free(deg);
    free(queue);
    free(seen);
}

/* Envelope of the permuted matrix; returns the multiply-adds of its factorisation. */
static double envelope(grid_ref *r, int *iperm)
{
    const homg_host_csr *m = &r->pinned;
    double work = 0;
    for (int k = 0; k < r->n; k++)
        iperm[r->perm[k]] = k;
    r->start[0] = 0;
    for (int k = 0; k < r->n; k++) {
        int u = r->perm[k], f = k;
        for (int e = m->row_ptr[u]; e < m->row_ptr[u + 1]; e++)
            if (iperm[m->col_idx[e]] < f)
                f = iperm[m->col_idx[e]];
        r->first[k] = f;
        r->start[k + 1] = r->start[k] + (size_t)(k - f + 1);
        work += 0.5 * (double)(k - f) * (k - f);
    }
    return work;
}

static int factor_envelope(grid_ref *r, const int *iperm)
{
    const homg_host_csr *m = &r->pinned;
    r->env = (double *)calloc(r->start[r->n] ? r->start[r->n] : 1, sizeof(double));
    if (!r->env)
        return -1;
    for (int k = 0; k < r->n; k++) {
        int u = r->perm[k];
        for (int e = m->row_ptr[u]; e < m->row_ptr[u + 1]; e++) {
            int j = iperm[m->col_idx[e]];
            if (j <= k)
                r->env[r->start[k] + (j - r->first[k])] = m->values[e];
        }
    }
    for (int i = 0; i < r->n; i++) {
        double *li = r->env + r->start[i] - r->first[i]; /* li[j]: L(i,j) */
        for (int j = r->first[i]; j <= i; j++) {
            const double *lj = r->env + r->start[j] - r->first[j];
            int k0 = r->first[i] > r->first[j] ? r->first[i] : r->first[j];
            double s = li[j];
            for (int k = k0; k < j; k++)
                s -= li[k] * lj[k];
            if (j < i) {
                li[j] = s / lj[j];
            } else {
                if (!(s > 0))
                    return -1;
                li[i] = sqrt(s);
            }
        }
    }
    return 0;
}

static void solve_envelope(const grid_ref *r, const double *b, double *x, double *y)
{
    for (int i = 0; i < r->n; i++) {
        const double *li = r->env + r->start[i] - r->first[i];
        double s = b[r->perm[i]];
        for (int k = r->first[i]; k < i; k++)
            s -= li[k] * y[k];
        y[i] = s / li[i];
    }
    for (int i = r->n - 1; i >= 0; i--) {
        const double *li = r->env + r->start[i] - r->first[i];
        double xi = y[i] / li[i];
        y[i] = xi;
        for (int k = r->first[i]; k < i; k++)
            y[k] -= li[k] * xi;
    }
    for (int i = 0; i < r->n; i++)
        x[r->perm[i]] = y[i];
}

/* ------------------------------------------------------------ AMG-PCG (large systems) */

static int setup_pcg(grid_ref *r)
{
    homg_ctx_desc cd = { 0 };
    homg_pcg_desc pd = { 0 };
    homg_csr v = homg_host_csr_view(&r->pinned);
    cd.backend = HOMG_BACKEND_CPU;
    pd.tol = 1e-13;
    pd.max_iter = 3000;
    if (homg_ctx_create(&cd, &r->cpu) != HOMG_OK || homg_amg_create(r->cpu, &v, NULL, &r->amg) != HOMG_OK ||
        homg_pcg_create(r->cpu, NULL, r->amg, &pd, &r->pcg) != HOMG_OK) {
        fprintf(stderr, "grid_ref: AMG-PCG set-up failed: %s\n", r->cpu ? homg_ctx_last_error(r->cpu) : "no ctx");
        return -1;
    }
    return 0;
}

/* r->pin and r->pinned, where not yet made. */
static void pins_ready(grid_ref *r)
{
    if (r->pin)
        return;
    int *pin = r->pin = (int *)malloc(sizeof(int) * (r->nisland ? r->nisland : 1));
    int *is_pin = (int *)calloc(r->n ? r->n : 1, sizeof(int));
    pinned_index(r, pin);
    for (int i = 0; i < r->nisland; i++)
        if (pin[i] >= 0)
            is_pin[pin[i]] = 1;
    make_pinned(r, is_pin);
    free(is_pin);
}

static int factor(grid_ref *r)
{
    int *iperm = (int *)malloc(sizeof(int) * (r->n + 1));
    int rc = 0;
    pins_ready(r);
    r->perm = (int *)malloc(sizeof(int) * (r->n + 1));
    r->first = (int *)malloc(sizeof(int) * (r->n + 1));
    r->start = (size_t *)malloc(sizeof(size_t) * (r->n + 1));
    rcm(r);
    double work = envelope(r, iperm);
    if (r->solver == 2 || (r->solver == 0 && work > GRID_REF_ENVELOPE_MAX)) {
        r->use_pcg = 1;
        rc = setup_pcg(r);
    } else {
        rc = factor_envelope(r, iperm);
    }
    free(iperm);
    r->factored = rc == 0;
    return rc;
}

/* x = pinned^-1 b. */
static int solve_pinned(grid_ref *r, const double *b, double *x, double *work)
{
    if (!r->use_pcg) {
        solve_envelope(r, b, x, work);
        return 0;
    }
    homg_pcg_info info;
    homg_status st = homg_pcg_solve(r->pcg, b, x, &info);
    if (st != HOMG_OK)
        fprintf(stderr, "grid_ref: PCG %s after %d iterations (%.2e): %s\n", homg_status_string(st), info.iterations,
                info.rel_residual, homg_ctx_last_error(r->cpu));
    return st == HOMG_OK ? 0 : -1;
}

/* Per singular island: subtracts the mean of v over the island; returns the largest |mean|. */
static double remove_means(const grid_ref *r, double *v, double *sum, int *cnt)
{
    double worst = 0;
    memset(sum, 0, sizeof(double) * r->nisland);
    memset(cnt, 0, sizeof(int) * r->nisland);
    for (int u = 0; u < r->n; u++) {
        sum[r->island[u]] += v[u];
        cnt[r->island[u]]++;
    }
    for (int i = 0; i < r->nisland; i++) {
        sum[i] = r->singular[i] ? sum[i] / cnt[i] : 0;
        if (fabs(sum[i]) > worst)
            worst = fabs(sum[i]);
    }
    for (int u = 0; u < r->n; u++)
        v[u] -= sum[r->island[u]];
    return worst;
}

/* b projected per singular island, 0 at the pinned unknowns (a pinned unknown is 0 until
 * the mean is fixed); returns the largest |mean| removed. */
static double pin_rhs(const grid_ref *r, double *b, double *sum, int *cnt)
{
    double pr = remove_means(r, b, sum, cnt);
    for (int i = 0; i < r->nisland; i++)
        if (r->pin[i] >= 0)
            b[r->pin[i]] = 0;
    return pr;
}

int grid_ref_pin(grid_ref *r, double *b)
{
    double *sum = (double *)malloc(sizeof(double) * (r->nisland + 1));
    int *cnt = (int *)malloc(sizeof(int) * (r->nisland + 1));
    pins_ready(r);
    if (!sum || !cnt || !r->pinned.row_ptr) {
        free(sum), free(cnt);
        return -1;
    }
    pin_rhs(r, b, sum, cnt);
    free(sum), free(cnt);
    return 0;
}

void grid_ref_unpin(const grid_ref *r, double *x)
{
    double *sum = (double *)malloc(sizeof(double) * (r->nisland + 1));
    int *cnt = (int *)malloc(sizeof(int) * (r->nisland + 1));
    remove_means(r, x, sum, cnt);
    free(sum), free(cnt);
}

int grid_ref_solve(grid_ref *r, const double *f, const double *const face[6], double *u, int nrhs, double *projected)
{
    size_t nn = r->n ? (size_t)r->n : 1;
    double *b = (double *)malloc(sizeof(double) * nn), *x = (double *)malloc(sizeof(double) * nn);
    double *w = (double *)malloc(sizeof(double) * nn), *sum = (double *)malloc(sizeof(double) * (r->nisland + 1));
    int *cnt = (int *)malloc(sizeof(int) * (r->nisland + 1)), rc = 0;
    if (projected)
        *projected = 0;
    if (!r->factored && r->n)
        rc = factor(r);
    for (int k = 0; k < nrhs && rc == 0; k++) {
        const double *fk[6];
        for (int s = 0; s < 6; s++)
            fk[s] = face && face[s] ? face[s] + grid_ref_face_n(&r->p, s) * k : NULL;
        grid_ref_rhs(r, f + r->ncell * k, fk, u + r->ncell * k, b);
        double pr = pin_rhs(r, b, sum, cnt);
        if (projected && pr > *projected)
            *projected = pr;
        memset(x, 0, sizeof(double) * nn);
        rc = r->n ? solve_pinned(r, b, x, w) : 0;
        remove_means(r, x, sum, cnt);
        for (int q = 0; q < r->n; q++)
            u[r->ncell * k + r->cell[q]] = x[q];
    }
    free(b);
    free(x);
    free(w);
    free(sum);
    free(cnt);
    return rc;
}

double grid_ref_residual(const grid_ref *r, const double *f, const double *const face[6], const double *u)
{
    double *b = (double *)malloc(sizeof(double) * (r->n ? r->n : 1)), rr = 0, bb = 0;
    grid_ref_rhs(r, f, face, u, b);
    for (int q = 0; q < r->n; q++) {
        double au = 0;
        for (int k = r->a.row_ptr[q]; k < r->a.row_ptr[q + 1]; k++)
            au += r->a.values[k] * u[r->cell[r->a.col_idx[k]]];
        rr += (b[q] - au) * (b[q] - au);
        bb += b[q] * b[q];
    }
    free(b);
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

void grid_ref_island_means(const grid_ref *r, const double *u, double *mean)
{
    int *cnt = (int *)calloc(r->nisland + 1, sizeof(int));
    memset(mean, 0, sizeof(double) * r->nisland);
    for (int q = 0; q < r->n; q++) {
        mean[r->island[q]] += u[r->cell[q]];
        cnt[r->island[q]]++;
    }
    for (int i = 0; i < r->nisland; i++)
        mean[i] /= cnt[i];
    free(cnt);
}

void grid_ref_free(grid_ref *r)
{
    free(r->unk);
    free(r->cell);
    free(r->island);
    free(r->singular);
    free(r->a.row_ptr);
    free(r->a.col_idx);
    free(r->a.values);
    free(r->pinned.row_ptr);
    free(r->pinned.col_idx);
    free(r->pinned.values);
    free(r->pin);
    free(r->perm);
    free(r->first);
    free(r->start);
    free(r->env);
    homg_pcg_destroy(r->pcg);
    homg_amg_destroy(r->amg);
    homg_ctx_destroy(r->cpu);
    memset(r, 0, sizeof *r);
}
