/* stub.c -- TEMPORARY: the solver entries until the general grid API (branch
 * grid) lands; lib/image/pending/ holds the real ones, moved in by the merge. */
#include "image/image_internal.h"

#define WAIT(fn) homg__fail(ctx, HOMG_ERROR_UNSUPPORTED, "%s: needs the general grid API (not merged yet)", fn)

homg_clone_desc homg_clone_desc_defaults(const homg_clone_desc *desc)
{
    homg_clone_desc d;
    homg__desc_start(&d, desc, sizeof d);
    return d;
}
homg_status homg_image_clone(homg_ctx *ctx, const homg_image *src, const homg_image *mask, const homg_image *dst,
                             const homg_image *out, const homg_clone_desc *desc, homg_image_info *info)
{
    return WAIT("homg_image_clone");
}
homg_status homg_clone_create(homg_ctx *ctx, const homg_image *src, const homg_image *mask, int dst_width,
                              int dst_height, const homg_clone_desc *desc, homg_clone **out)
{
    return WAIT("homg_clone_create");
}
homg_status homg_clone_apply(homg_clone *clone, const homg_image *dst, int x, int y, const homg_image *out,
                             homg_image_info *info)
{
    return HOMG_ERROR_UNSUPPORTED;
}
homg_status homg_clone_set_mode(homg_clone *clone, homg_clone_mode mode) { return HOMG_ERROR_UNSUPPORTED; }
void homg_clone_destroy(homg_clone *clone) {}
homg_status homg_image_inpaint(homg_ctx *ctx, const homg_image *img, const homg_image *mask, const homg_image *out,
                               const homg_image_desc *desc, homg_image_info *info)
{
    return WAIT("homg_image_inpaint");
}
homg_status homg_image_smooth(homg_ctx *ctx, const homg_image *img, const homg_image *out, const homg_image_desc *desc,
                              homg_image_info *info)
{
    return WAIT("homg_image_smooth");
}
homg_status homg_image_integrate(homg_ctx *ctx, const homg_image *grad, const homg_image *out,
                                 const homg_image_desc *desc, homg_image_info *info)
{
    return WAIT("homg_image_integrate");
}
