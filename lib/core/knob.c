/* knob.c -- the tuning variables (HOMG_BOX_*, HOMG_GMG_*, HOMG_FEM_* ... environment
 * variables that the benchmarks and tests set to compare variants; not a user API). */
#include "internal.h"

#include <stdlib.h>

double homg__knob(const char *name, double dflt)
{
    const char *env = getenv(name);
    return env && *env ? atof(env) : dflt;
}

const char *homg__knob_text(const char *name) { return getenv(name); }
