/* gen_family.c -- the hard SPD problems of issue 14 (see gen_family.h). */
#include "gen_family.h"

#include "gen_matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }

/* g_a^T K g_b with K as 3 (2D) or 6 (3D) symmetric entries, or sigma I. */
static double k_product(int dim, const double *k, double sigma, const double *ga, const double *gb)
{
    if (!k) {
        double s = 0;
        for (int c = 0; c < dim; c++)
            s += ga[c] * gb[c];
        return sigma * s;
    }
    if (dim == 2)
        return ga[0] * (k[0] * gb[0] + k[1] * gb[1]) + ga[1] * (k[1] * gb[0] + k[2] * gb[1]);
    return ga[0] * (k[0] * gb[0] + k[1] * gb[1] + k[2] * gb[2]) + ga[1] * (k[1] * gb[0] + k[3] * gb[1] + k[4] * gb[2]) +
           ga[2] * (k[2] * gb[0] + k[4] * gb[1] + k[5] * gb[2]);
}

/* Row buckets of (column, value) pairs merged into a sorted CSR. */
typedef struct buckets {
    int32_t n;
    int64_t *start, *fill;
    int32_t *col;
    double *val;
} buckets;

static void buckets_free(buckets *b)
{
    free(b->start);
    free(b->fill);
    free(b->col);
    free(b->val);
}

static int buckets_to_csr(buckets *b, homg_host_csr *out)
{
    int64_t nnz = 0;
    memset(out, 0, sizeof *out);
    for (int32_t i = 0; i < b->n; i++) { /* sort each row by insertion, then merge duplicates */
        int64_t s = b->start[i], e = b->fill[i], w = s;
        for (int64_t a = s + 1; a < e; a++)
            for (int64_t c = a; c > s && b->col[c - 1] > b->col[c]; c--) {
                int32_t tc = b->col[c];
                double tv = b->val[c];
                b->col[c] = b->col[c - 1];
                b->val[c] = b->val[c - 1];
                b->col[c - 1] = tc;
                b->val[c - 1] = tv;
            }
        for (int64_t a = s; a < e; a++) {
            if (w > s && b->col[w - 1] == b->col[a]) {
                b->val[w - 1] += b->val[a];
            } else {
                b->col[w] = b->col[a];
                b->val[w++] = b->val[a];
            }
        }
        b->fill[i] = w;
        nnz += w - s;
    }
    if (nnz > INT32_MAX)
        return -1;
    out->nrows = out->ncols = b->n;
    out->nnz = (int32_t)nnz;
    out->row_ptr = (int32_t *)malloc(((size_t)b->n + 1) * sizeof(int32_t));
    out->col_idx = (int32_t *)malloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
    out->values = (double *)malloc((size_t)(nnz ? nnz : 1) * sizeof(double));
    if (!out->row_ptr || !out->col_idx || !out->values) {
        homg_host_csr_free(out);
        return -1;
    }
    nnz = 0;
    for (int32_t i = 0; i < b->n; i++) {
        out->row_ptr[i] = (int32_t)nnz;
        for (int64_t a = b->start[i]; a < b->fill[i]; a++) {
            out->col_idx[nnz] = b->col[a];
            out->values[nnz++] = b->val[a];
        }
    }
    out->row_ptr[b->n] = (int32_t)nnz;
    return 0;
}

/* Room for per_row[i] entries in row i. */
static int buckets_alloc(buckets *b, int32_t n, const int64_t *per_row)
{
    int64_t total = 0;
    memset(b, 0, sizeof *b);
    b->n = n;
    b->start = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    b->fill = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    if (!b->start || !b->fill)
        return -1;
    for (int32_t i = 0; i < n; i++) {
        b->start[i] = b->fill[i] = total;
        total += per_row[i];
    }
    b->col = (int32_t *)malloc((size_t)(total ? total : 1) * sizeof(int32_t));
    b->val = (double *)malloc((size_t)(total ? total : 1) * sizeof(double));
    return b->col && b->val ? 0 : -1;
}

static void buckets_add(buckets *b, int32_t i, int32_t j, double v)
{
    int64_t k = b->fill[i]++;
    b->col[k] = j;
    b->val[k] = v;
}

int homg_gen_p1_mesh(int dim, int32_t num_nodes, const double *coords, int32_t num_elements, const int32_t *elements,
                     const double *k_elem, const double *sigma_elem, const uint8_t *fixed, homg_host_csr *out)
{
    int nv = dim + 1, nk = dim == 2 ? 3 : 6, rc = -1;
    int32_t *free_id = (int32_t *)malloc((size_t)(num_nodes > 0 ? num_nodes : 1) * sizeof(int32_t)), nfree = 0;
    int64_t *per_row = NULL;
    buckets b;
    memset(&b, 0, sizeof b);
    memset(out, 0, sizeof *out);
    if (!free_id || (dim != 2 && dim != 3))
        goto done;
    for (int32_t i = 0; i < num_nodes; i++)
        free_id[i] = fixed && fixed[i] ? -1 : nfree++;
    per_row = (int64_t *)calloc((size_t)nfree + 1, sizeof(int64_t));
    if (!per_row)
        goto done;
    for (int32_t e = 0; e < num_elements; e++)
        for (int a = 0; a < nv; a++) {
            int32_t fa = free_id[elements[(size_t)e * nv + a]];
            if (fa >= 0)
                per_row[fa] += nv;
        }
    if (buckets_alloc(&b, nfree, per_row))
        goto done;
    for (int32_t e = 0; e < num_elements; e++) {
        double x[4][3], g[4][3], vol;
        const int32_t *el = elements + (size_t)e * nv;
        for (int a = 0; a < nv; a++)
            for (int c = 0; c < dim; c++)
                x[a][c] = coords[(size_t)el[a] * dim + c];
        vol = homg_gen_simplex_grads(dim, x, g);
        for (int a = 0; a < nv; a++) {
            int32_t fa = free_id[el[a]];
            if (fa < 0)
                continue;
            for (int c = 0; c < nv; c++) {
                int32_t fc = free_id[el[c]];
                if (fc >= 0)
                    buckets_add(&b, fa, fc,
                                vol * k_product(dim, k_elem ? k_elem + (size_t)e * nk : NULL,
                                                sigma_elem ? sigma_elem[e] : 1.0, g[a], g[c]));
            }
        }
    }
    rc = buckets_to_csr(&b, out);
done:
    buckets_free(&b);
    free(per_row);
    free(free_id);
    return rc;
}

/* A CPU context for the mesh calls. */
static homg_ctx *mesh_ctx(void)
{
    homg_ctx_desc d;
    homg_ctx *ctx = NULL;
    memset(&d, 0, sizeof d);
    d.backend = HOMG_BACKEND_CPU;
    d.cpu_threads = 1;
    return homg_ctx_create(&d, &ctx) == HOMG_OK ? ctx : NULL;
}

/* Boundary nodes (marker != 0) as a fixed mask. */
static uint8_t *boundary_mask(const homg_mesh *mesh)
{
    int32_t n = homg_mesh_num_nodes(mesh);
    const int32_t *mk = homg_mesh_node_markers(mesh);
    uint8_t *fixed = (uint8_t *)calloc((size_t)n + 1, 1);
    for (int32_t i = 0; fixed && mk && i < n; i++)
        fixed[i] = mk[i] != 0;
    return fixed;
}

/* P1 of `mesh` with moved coordinates (coords NULL: the mesh's own). */
static int assemble_mesh(const homg_mesh *mesh, const double *coords, const double *k_elem, const double *sigma,
                         homg_host_csr *out)
{
    uint8_t *fixed = boundary_mask(mesh);
    int rc = fixed ? homg_gen_p1_mesh(homg_mesh_dim(mesh), homg_mesh_num_nodes(mesh),
                                      coords ? coords : homg_mesh_coords(mesh), homg_mesh_num_elements(mesh),
                                      homg_mesh_elements(mesh), k_elem, sigma, fixed, out)
                   : -1;
    free(fixed);
    return rc;
}

static homg_mesh *generated(homg_ctx *ctx, int dim, int cells, double size)
{
    homg_mesh_generate_desc gd;
    homg_mesh *mesh = NULL;
    memset(&gd, 0, sizeof gd);
    gd.cells = cells;
    gd.size = size;
    if ((dim == 2 ? homg_mesh_generate_square(ctx, &gd, &mesh) : homg_mesh_generate_cube(ctx, &gd, &mesh)) != HOMG_OK)
        return NULL;
    return mesh;
}

int homg_gen_rotated_anisotropy(int cells, double theta_deg, double eps, homg_host_csr *out)
{
    homg_ctx *ctx = mesh_ctx();
    homg_mesh *mesh = ctx ? generated(ctx, 2, cells, 1.0) : NULL;
    double t = theta_deg * PI / 180, c = cos(t), s = sin(t), *k = NULL;
    int rc = -1;
    if (mesh && (k = (double *)malloc((size_t)homg_mesh_num_elements(mesh) * 3 * sizeof(double)))) {
        for (int32_t e = 0; e < homg_mesh_num_elements(mesh); e++) { /* R diag(1, eps) R^T */
            k[3 * e + 0] = c * c + eps * s * s;
            k[3 * e + 1] = c * s * (1 - eps);
            k[3 * e + 2] = s * s + eps * c * c;
        }
        rc = assemble_mesh(mesh, NULL, k, NULL, out);
    }
    free(k);
    homg_mesh_destroy(mesh);
    homg_ctx_destroy(ctx);
    return rc;
}

/* Element centroid of a tetrahedron mesh. */
static void centroid(const homg_mesh *mesh, const double *coords, int32_t e, double c[3])
{
    const int32_t *el = homg_mesh_elements(mesh) + (size_t)e * 4;
    c[0] = c[1] = c[2] = 0;
    for (int a = 0; a < 4; a++)
        for (int d = 0; d < 3; d++)
            c[d] += coords[(size_t)el[a] * 3 + d] / 4;
}

int homg_gen_checkerboard(int cells, int blocks, double jump, int ball, homg_host_csr *out)
{
    homg_ctx *ctx = mesh_ctx();
    homg_mesh *mesh = ctx ? generated(ctx, 3, cells, 2.0) : NULL;
    double *x = NULL, *sigma = NULL;
    int32_t nn, ne;
    int rc = -1;
    if (!mesh)
        goto done;
    nn = homg_mesh_num_nodes(mesh);
    ne = homg_mesh_num_elements(mesh);
    x = (double *)malloc((size_t)nn * 3 * sizeof(double));
    sigma = (double *)malloc((size_t)ne * sizeof(double));
    if (!x || !sigma)
        goto done;
    for (int32_t i = 0; i < nn; i++) {
        double p[3], inf = 0, two = 0;
        for (int d = 0; d < 3; d++) {
            p[d] = homg_mesh_coords(mesh)[(size_t)i * 3 + d] - 1.0; /* [-1, 1]^3 */
            inf = fabs(p[d]) > inf ? fabs(p[d]) : inf;
            two += p[d] * p[d];
        }
        for (int d = 0; d < 3; d++) /* the ball: |x|_inf = r becomes |x|_2 = r */
            x[(size_t)i * 3 + d] = ball && two > 0 ? p[d] * inf / sqrt(two) : p[d];
    }
    for (int32_t e = 0; e < ne; e++) {
        double c[3];
        int parity = 0;
        centroid(mesh, homg_mesh_coords(mesh), e, c); /* the checkerboard of the cube, carried along */
        for (int d = 0; d < 3; d++)
            parity += (int)floor(c[d] / 2.0 * blocks);
        sigma[e] = parity % 2 ? jump : 1.0;
    }
    rc = assemble_mesh(mesh, x, NULL, sigma, out);
done:
    free(x);
    free(sigma);
    homg_mesh_destroy(mesh);
    homg_ctx_destroy(ctx);
    return rc;
}

static double tet_volume(const double *x, const int32_t *el)
{
    double a[3], b[3], c[3];
    for (int d = 0; d < 3; d++) {
        a[d] = x[(size_t)el[1] * 3 + d] - x[(size_t)el[0] * 3 + d];
        b[d] = x[(size_t)el[2] * 3 + d] - x[(size_t)el[0] * 3 + d];
        c[d] = x[(size_t)el[3] * 3 + d] - x[(size_t)el[0] * 3 + d];
    }
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6.0;
}

/* Moves interior node i by up to amount * h while its tetrahedra keep 2% of their volume. */
static void jiggle(double *x, int32_t i, const int32_t *inc_ptr, const int32_t *inc, const int32_t *el,
                   const double *vol0, double amount, uint64_t *rng)
{
    double old[3], d[3];
    for (int k = 0; k < 3; k++) {
        old[k] = x[(size_t)i * 3 + k];
        d[k] = (2 * rng_unit(rng) - 1) * amount;
    }
    for (int attempt = 0; attempt < 4; attempt++, d[0] /= 2, d[1] /= 2, d[2] /= 2) {
        int ok = 1;
        for (int k = 0; k < 3; k++)
            x[(size_t)i * 3 + k] = old[k] + d[k];
        for (int32_t q = inc_ptr[i]; ok && q < inc_ptr[i + 1]; q++)
            ok = tet_volume(x, el + (size_t)inc[q] * 4) / vol0[inc[q]] >= 0.02;
        if (ok)
            return;
    }
    for (int k = 0; k < 3; k++)
        x[(size_t)i * 3 + k] = old[k];
}

/* The mesh with new coordinates (for its quality). */
static double min_dihedral(homg_ctx *ctx, const homg_mesh *mesh, const double *x)
{
    homg_mesh_data md;
    homg_mesh *moved = NULL;
    homg_mesh_quality q;
    double angle = -1;
    memset(&md, 0, sizeof md);
    md.dim = 3;
    md.num_nodes = homg_mesh_num_nodes(mesh);
    md.num_elements = homg_mesh_num_elements(mesh);
    md.coords = x;
    md.elements = homg_mesh_elements(mesh);
    md.node_markers = homg_mesh_node_markers(mesh);
    if (homg_mesh_create(ctx, &md, &moved) == HOMG_OK && homg_mesh_get_quality(moved, &q) == HOMG_OK)
        angle = q.min_angle;
    homg_mesh_destroy(moved);
    return angle;
}

int homg_gen_slivers(int cells, double amount, unsigned seed, homg_host_csr *out, double *min_angle_deg)
{
    homg_ctx *ctx = mesh_ctx();
    homg_mesh *mesh = ctx ? generated(ctx, 3, cells, 1.0) : NULL;
    double *x = NULL, *vol0 = NULL;
    int32_t *inc_ptr = NULL, *inc = NULL, nn, ne;
    const int32_t *el, *mk;
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ seed;
    int rc = -1;
    if (!mesh)
        goto done;
    nn = homg_mesh_num_nodes(mesh);
    ne = homg_mesh_num_elements(mesh);
    el = homg_mesh_elements(mesh);
    mk = homg_mesh_node_markers(mesh);
    x = (double *)malloc((size_t)nn * 3 * sizeof(double));
    vol0 = (double *)malloc((size_t)ne * sizeof(double));
    inc_ptr = (int32_t *)calloc((size_t)nn + 1, sizeof(int32_t));
    inc = (int32_t *)malloc((size_t)ne * 4 * sizeof(int32_t));
    if (!x || !vol0 || !inc_ptr || !inc)
        goto done;
    memcpy(x, homg_mesh_coords(mesh), (size_t)nn * 3 * sizeof(double));
    for (int32_t e = 0; e < ne; e++) {
        vol0[e] = tet_volume(x, el + (size_t)e * 4);
        for (int a = 0; a < 4; a++)
            inc_ptr[el[(size_t)e * 4 + a] + 1]++;
    }
    for (int32_t i = 0; i < nn; i++)
        inc_ptr[i + 1] += inc_ptr[i];
    for (int32_t e = 0; e < ne; e++)
        for (int a = 0; a < 4; a++)
            inc[inc_ptr[el[(size_t)e * 4 + a]]++] = e;
    for (int32_t i = nn; i > 0; i--) /* the fill moved each start to the next one's */
        inc_ptr[i] = inc_ptr[i - 1];
    inc_ptr[0] = 0;
    for (int32_t i = 0; i < nn; i++)
        if (!mk || !mk[i])
            jiggle(x, i, inc_ptr, inc, el, vol0, amount / cells, &rng);
    if (min_angle_deg)
        *min_angle_deg = min_dihedral(ctx, mesh, x);
    rc = assemble_mesh(mesh, x, NULL, NULL, out);
done:
    free(x);
    free(vol0);
    free(inc_ptr);
    free(inc);
    homg_mesh_destroy(mesh);
    homg_ctx_destroy(ctx);
    return rc;
}

int homg_gen_graded(int cells, double ratio, homg_host_csr *out)
{
    homg_ctx *ctx = mesh_ctx();
    homg_mesh *mesh = ctx ? generated(ctx, 3, cells, 1.0) : NULL;
    double *x = NULL;
    int rc = -1;
    if (mesh && (x = (double *)malloc((size_t)homg_mesh_num_nodes(mesh) * 3 * sizeof(double)))) {
        /* The spacing grows by ratio^(1/cells) per cell: ratio from the first cell to the last. */
        double r = pow(ratio, (double)cells / (cells - 1 > 0 ? cells - 1 : 1));
        for (size_t k = 0; k < (size_t)homg_mesh_num_nodes(mesh) * 3; k++)
            x[k] = (pow(r, homg_mesh_coords(mesh)[k]) - 1) / (r - 1);
        rc = assemble_mesh(mesh, x, NULL, NULL, out);
    }
    free(x);
    homg_mesh_destroy(mesh);
    homg_ctx_destroy(ctx);
    return rc;
}

int homg_gen_mesh_file(const char *path, double jump, homg_host_csr *out)
{
    homg_ctx *ctx = mesh_ctx();
    homg_mesh *mesh = NULL;
    double *sigma = NULL;
    int rc = -1;
    if (ctx && homg_mesh_read(ctx, path, &mesh) == HOMG_OK &&
        (sigma = (double *)malloc((size_t)homg_mesh_num_elements(mesh) * sizeof(double) + 1))) {
        const int32_t *tag = homg_mesh_element_tags(mesh);
        for (int32_t e = 0; e < homg_mesh_num_elements(mesh); e++)
            sigma[e] = tag && tag[e] == 2 ? jump : 1.0;
        rc = assemble_mesh(mesh, NULL, NULL, sigma, out);
    }
    free(sigma);
    homg_mesh_destroy(mesh);
    homg_ctx_destroy(ctx);
    return rc;
}
