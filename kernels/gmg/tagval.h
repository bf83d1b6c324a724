/* tagval.h -- a node's Dirichlet value from its marker and the per-tag values
 * (the last listed tag that matches wins, as GMG's host loop did): shared word
 * for word by gmg.c and gmg.cu. */
#ifndef HOMG_GMG_TAGVAL_H
#define HOMG_GMG_TAGVAL_H

#include "gmg_kernels.h"

HOMG_HD double tag_value(int32_t marker, const int32_t *tags, const double *vals, int num_tags, double dflt)
{
    double v = dflt;
    for (int k = 0; k < num_tags; k++)
        if (marker == tags[k])
            v = vals[k];
    return v;
}

#endif
