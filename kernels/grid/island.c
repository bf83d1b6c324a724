/* island.c -- CPU twin of kernels/grid/island.cu: the island labelling
 * (island_kernels.h), sequential; the final labels equal the CUDA ones. */
#include "island_kernels.h"
#include "island_point.h"

homg_status homg_cpu_island_init(kernel_exec *ex, const island_grid *g, const unsigned char *flags, int *label,
                                 int *aux)
{
    int start = 0;
    (void)ex;
    for (size_t c = 0; c < island_cells(g); c++) {
        if (!island_run_continues(g, flags, c))
            start = (int)c;
        label[c] = island_active(flags, c) ? start : -1;
        aux[c] = 0;
    }
    return HOMG_OK;
}

homg_status homg_cpu_island_hook(kernel_exec *ex, const island_grid *g, const unsigned char *flags, int *label,
                                 const int *go, int *changed)
{
    (void)ex;
    if (go && !*go)
        return HOMG_OK;
    for (size_t c = 0; c < island_cells(g); c++) {
        if (!island_active(flags, c))
            continue;
        for (int a = 0; a < g->dims; a++) {
            size_t m;
            int rc, rm;
            if (!island_neighbour(g, c, a, 1, &m) || !island_active(flags, m))
                continue;
            rc = island_root(label, (int)c), rm = island_root(label, (int)m);
            if (rc == rm)
                continue;
            label[rc > rm ? rc : rm] = rc < rm ? rc : rm;
            *changed = 1;
        }
    }
    return HOMG_OK;
}

homg_status homg_cpu_island_compress(kernel_exec *ex, size_t n, int *label, const int *go)
{
    (void)ex;
    if (go && !*go)
        return HOMG_OK;
    for (size_t c = 0; c < n; c++)
        if (label[c] >= 0)
            label[c] = island_root(label, (int)c);
    return HOMG_OK;
}

homg_status homg_cpu_island_mark(kernel_exec *ex, homg_precision p, const island_grid *g, const unsigned char *flags,
                                 const void *lambda_cell, double lambda, const int *label, int *aux)
{
    (void)ex;
    for (size_t c = 0; c < island_cells(g); c++) {
        double lam;
        if (label[c] < 0)
            continue;
        lam = !lambda_cell        ? lambda
              : p == HOMG_FLOAT64 ? ((const double *)lambda_cell)[c]
                                  : ((const float *)lambda_cell)[c];
        aux[label[c]] += 1;
        if (lam != 0 || island_cell_fixes(g, flags, c))
            aux[label[c]] |= ISLAND_NONSINGULAR;
    }
    return HOMG_OK;
}

homg_status homg_cpu_island_count(kernel_exec *ex, size_t n, const int *label, const int *aux, int *bsum, int *total)
{
    int sum = 0;
    (void)ex;
    for (size_t c = 0; c < n; c++) {
        if (c % ISLAND_SCAN_BLOCK == 0)
            bsum[c / ISLAND_SCAN_BLOCK] = sum;
        sum += island_singular_root(label, aux, c);
    }
    *total = sum;
    return HOMG_OK;
}

homg_status homg_cpu_island_number(kernel_exec *ex, size_t n, const int *label, const int *aux, const int *bsum,
                                   int *ids, double *inv)
{
    int id = 0;
    (void)ex, (void)bsum;
    for (size_t c = 0; c < n; c++)
        if (island_singular_root(label, aux, c)) {
            ids[c] = id;
            inv[id++] = 1.0 / (double)(aux[c] & ISLAND_COUNT_MASK);
        }
    return HOMG_OK;
}

homg_status homg_cpu_island_relabel(kernel_exec *ex, size_t n, const int *aux, const int *ids, int *label)
{
    (void)ex;
    for (size_t c = 0; c < n; c++) {
        int r = label[c];
        label[c] = r >= 0 && !(aux[r] & ISLAND_NONSINGULAR) ? ids[r] : -1;
    }
    return HOMG_OK;
}

const island_kernels homg_cpu_island_kernels = { .name = "cpu", ISLAND_KERNELS(HOMG_KERNEL_CPU_INIT) };
