/* int_list.h -- a benchmark's comma-separated integer option ("--sizes 64,128,256"). */
#ifndef HOMG_BENCH_INT_LIST_H
#define HOMG_BENCH_INT_LIST_H

/* Reads up to max integers of s (atoi of each comma-separated field) into out;
 * returns how many. */
int bench_int_list(const char *s, int *out, int max);

#endif
