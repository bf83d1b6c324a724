/* view_ref.h -- references for the view's tests, computed here, independently
 * of the library: the colour map in double from viridis' samples, random
 * fields with NaN and infinities, and checks of what GL reads back. */
#ifndef HOMG_VIEW_REF_H
#define HOMG_VIEW_REF_H

#include <stddef.h>
#include <stdint.h>

/* The RGBA8 colour of v for the range lo..hi (homg_write_png's map). */
void view_ref_colour(double v, double lo, double hi, unsigned char out[4]);
/* n values uniform in [-1.5, 2.5), with a NaN and both infinities at 3, 5, 7 (n > 10). */
double *view_ref_field(size_t n, uint64_t seed);
/* min and max of the finite values, as float. */
void view_ref_range(const double *v, size_t n, double *lo, double *hi);
/* Number of values whose colour is more than one step (1 per channel) off; prints the first. */
size_t view_ref_colour_errors(const unsigned char *got, const double *v, size_t n, double lo, double hi);
/* Number of floats that are not exactly (float)v (NaN matches NaN); prints the first. */
size_t view_ref_float_errors(const float *got, const double *v, size_t n);

#endif
