/* sweep_plan.c -- the cycles' sweeps per level as the benchmark knobs and defaults write them
 * (HOMG_BOX_SCHED in box.c, HOMG_CUBE_SCHED in general_plan.c). */
#include "grid_internal.h"

#include <string.h>

/* One cycle's "PQ,PQ,..." (digits lo..hi) into p (levels pairs, the last pair repeated down to
 * the coarsest); the rest of s, or NULL where it is not one. */
static const char *parse_cycle(const char *s, char lo, char hi, int levels, unsigned char *p)
{
    int l = 0;
    for (;;) {
        if (l == levels || s[0] < lo || s[0] > hi || s[1] < lo || s[1] > hi)
            return NULL;
        p[2 * l] = (unsigned char)(s[0] - '0');
        p[2 * l + 1] = (unsigned char)(s[1] - '0');
        l++;
        s += 2;
        if (*s != ',')
            break;
        s++;
    }
    for (; l < levels; l++)
        memcpy(p + 2 * l, p + 2 * (l - 1), 2);
    return s;
}

int homg__sweep_plan_parse(const char *s, char lo, char hi, int levels, unsigned char *first, unsigned char *later)
{
    const char *e = parse_cycle(s, lo, hi, levels, first);
    if (e && *e == '\0') {
        memcpy(later, first, 2 * (size_t)levels);
        return 1;
    }
    if (!e || *e != ';')
        return 0;
    e = parse_cycle(e + 1, lo, hi, levels, later);
    return e && *e == '\0';
}
