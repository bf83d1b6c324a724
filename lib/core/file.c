/* file.c -- files the library writes: closing them and cleaning up after a failed write. */
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

void homg__remove_partial(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) /* never a device such as /dev/full */
        remove(path);
}

homg_status homg__finish_file(homg_ctx *ctx, const char *path, FILE *f)
{
    int bad = ferror(f), err = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (!bad)
        return HOMG_OK;
    homg__remove_partial(path);
    return homg__fail(ctx, HOMG_ERROR_IO, "%s: write failed: %s", path, strerror(err));
}
