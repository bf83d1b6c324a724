/* exec.c -- the one helper both backends share: recording a failure message. */
#include "kernels.h"

#include <stdarg.h>
#include <stdio.h>

homg_status homg_exec_fail(kernel_exec *ex, homg_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ex->msg, sizeof ex->msg, fmt, ap);
    va_end(ap);
    return st;
}
