/* refused.h -- the bad-input check the test programs repeat: a call returns the
 * expected status and the ctx's message names the argument.  A macro (not a
 * function) so that cmocka reports the caller's line; include after cmocka.h. */
#ifndef HOMG_TEST_REFUSED_H
#define HOMG_TEST_REFUSED_H

#include <string.h>

#include "homg.h"

/* call returns status, and ctx's last error contains needle. */
#define HOMG_TEST_REFUSED(ctx, call, status, needle)                 \
    do {                                                             \
        assert_int_equal((call), (status));                          \
        assert_non_null(strstr(homg_ctx_last_error(ctx), (needle))); \
    } while (0)

#endif
