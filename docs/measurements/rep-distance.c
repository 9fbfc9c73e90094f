/* SPDX-License-Identifier: MIT */
/*
 * rep movsb (the erms copy routine) against a vector copy routine, both
 * called as uaccess-bench's forced strategies call them, at several
 * distances k = (dst - src) mod 4096: copies of SIZE_KB KiB walking two
 * buffers of WS_KB KiB each (256 for the L2, 262144 for memory), the
 * destination k bytes past the source's place in its buffer (both are
 * page-aligned mappings).  Every trial times each k with both routines
 * back to back, in alternating order, so that the host's slow and fast
 * spells fall on all of them alike.  Prints, per k, the median over 15
 * trials of the per-trial ratio vector time / erms time (above 1: rep
 * movsb faster).
 *
 * Build and run (from the top of the tree, after the build):
 *   cc -O2 -Iinclude docs/measurements/rep-distance.c \
 *     build/src/libuaccess.a -o /tmp/rep-distance
 *   taskset -c 1 /tmp/rep-distance 64 256 0 1 17 63 81 273 1041 2065 4079
 * VEC=avx512 (or avx2, sse2) sets another routine against rep movsb
 * (default avx512vbmi).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <uaccess.h>

#include "standalone.h"

#define TRIALS 15
#define MAX_K 32

/* The library's routines (internal: a static link finds them) */
typedef size_t copy_routine(void *, const void *, size_t, uintptr_t, uintptr_t,
			    uintptr_t);
copy_routine ua_copy_erms, ua_copy_avx512vbmi, ua_copy_avx512, ua_copy_avx2,
    ua_copy_sse2;

static char *src, *dst;
static size_t slot, slots, stride;

/* ns per copy of n bytes, walking on from the last call's slot */
static double
walk(copy_routine *fn, size_t n, size_t k, long copies)
{
	uint64_t t0 = now_ns();
	long i;

	for (i = 0; i < copies; i++) {
		const char *s = src + slot * stride;

		/* UA_USER_ARGS(s, s + n, UA_KIND_RAW) (src/x86_64/arch.h) */
		fn(dst + slot * stride + k, s, n, 0, (uintptr_t)s,
		   ((uintptr_t)s + n) | (uintptr_t)4 << 60);
		if (++slot == slots)
			slot = 0;
	}
	return (double)(now_ns() - t0) / (double)copies;
}

int
main(int argc, char **argv)
{
	static double r[MAX_K][TRIALS];
	const char *vec = getenv("VEC");
	copy_routine *v = ua_copy_avx512vbmi;
	size_t n, ws, len, k[MAX_K];
	long copies;
	int nk = argc - 3, i, t;

	if (argc < 4 || nk > MAX_K) {
		fprintf(stderr, "usage: %s SIZE_KB WS_KB K...\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[1], NULL, 0) << 10;
	ws = strtoul(argv[2], NULL, 0) << 10;
	for (i = 0; i < nk; i++)
		k[i] = strtoul(argv[3 + i], NULL, 0) % 4096;
	if (vec && !strcmp(vec, "avx512"))
		v = ua_copy_avx512;
	else if (vec && !strcmp(vec, "avx2"))
		v = ua_copy_avx2;
	else if (vec && !strcmp(vec, "sse2"))
		v = ua_copy_sse2;
	if (!n || ws < n) {
		fprintf(stderr, "SIZE_KB must be 1 to WS_KB\n");
		return 2;
	}
	stride = (n + 4095) & ~(size_t)4095;
	slots = ws / stride ? ws / stride : 1;
	len = slots * stride + 8192;
	src = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	dst = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (src == MAP_FAILED || dst == MAP_FAILED)
		return 1;
	memset(src, 0x5a, len);
	memset(dst, 0xa5, len);
	ua_init();
	/* 16 MiB a trial from the caches, 64 MiB from memory */
	copies = (long)(((ws > (size_t)64 << 20) ? (size_t)64 << 20
						 : (size_t)16 << 20) /
			n);
	for (t = 0; t < TRIALS; t++)
		for (i = 0; i < nk; i++) {
			double a, b;

			if (t & 1) {
				b = walk(ua_copy_erms, n, k[i], copies);
				a = walk(v, n, k[i], copies);
			} else {
				a = walk(v, n, k[i], copies);
				b = walk(ua_copy_erms, n, k[i], copies);
			}
			r[i][t] = a / b;
		}
	printf("%zu KiB, %zu KiB buffers, %s time / erms time:", n >> 10,
	       ws >> 10, vec ? vec : "avx512vbmi");
	for (i = 0; i < nk; i++) {
		qsort(r[i], TRIALS, sizeof(double), cmp_double);
		printf(" k=%zu %.2f", k[i], r[i][TRIALS / 2]);
	}
	printf("\n");
	return 0;
}
