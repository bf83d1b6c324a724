/* test_cxx_header.cpp -- lib/homg.h is valid C++ (extern "C", nothing C-only):
 * built with g++ -std=c++11 -pedantic -Werror (Makefile) and linked against the
 * C library, it makes a CPU context through the header's declarations. */
#include "homg.h"
#include "homg.h" /* the include guard */

#include <cstdio>
#include <cstring>

int main()
{
    homg_ctx_desc d = homg_ctx_desc_defaults(NULL);
    homg_ctx *ctx = NULL;
    d.backend = HOMG_BACKEND_CPU;
    if (homg_version() != HOMG_VERSION) {
        std::fprintf(stderr, "test_cxx_header: homg_version() %d, HOMG_VERSION %d\n", homg_version(), HOMG_VERSION);
        return 1;
    }
    if (homg_ctx_create(&d, &ctx) != HOMG_OK || homg_ctx_backend(ctx) != HOMG_BACKEND_CPU) {
        std::fprintf(stderr, "test_cxx_header: no CPU context\n");
        return 1;
    }
    homg_ctx_destroy(ctx);
    if (std::strcmp(homg_status_string(HOMG_ERROR_PARSE), "HOMG_ERROR_PARSE") != 0) {
        std::fprintf(stderr, "test_cxx_header: homg_status_string says %s\n", homg_status_string(HOMG_ERROR_PARSE));
        return 1;
    }
    std::printf("test_cxx_header: homg.h compiles as C++ and links (%s)\n", homg_version_string());
    return 0;
}
