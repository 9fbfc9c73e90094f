/* SPDX-License-Identifier: MIT */
/*
 * What the stand-alone measurement programs beside this file share: the
 * clock and the comparison their medians sort with.  Each includes it from
 * its own directory; none is part of the build.
 */
#ifndef UA_MEASUREMENTS_STANDALONE_H
#define UA_MEASUREMENTS_STANDALONE_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on the monotonic clock */
static inline uint64_t
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* qsort's order of doubles, for medians */
static inline int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
