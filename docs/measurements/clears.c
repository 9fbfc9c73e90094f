/* SPDX-License-Identifier: MIT */
/*
 * Large clears: rep stosb (the erms clear routine) against a vector clear
 * routine, each run as ua_clear_user runs it (ua_user_clear: the whole
 * buffer its user side), with glibc's memset beside them, in one process.
 * HOT clears one buffer again and again; WALK clears consecutive pieces
 * of an arena of ARENA_MB MiB (3072 by default), so that with an arena
 * beyond the caches every piece lands on memory not touched for a while.
 * Prints, per size, each contender's median speed over nine interleaved
 * trials and the median of the per-trial ratios erms / vector (above 1:
 * rep stosb faster), with its quartiles.  Sizes run from 256 KiB up to
 * 1 GiB or the arena, whichever is smaller.
 *
 * Build and run (from the top of the tree, after the build):
 *   cc -O2 -Iinclude docs/measurements/clears.c build/src/libuaccess.a \
 *     -o /tmp/clears
 *   taskset -c 0 /tmp/clears hot
 *   ARENA_MB=256 taskset -c 0 /tmp/clears walk
 * A second argument names the routine set against rep stosb (default
 * avx512vbmi; avx512, avx2, sse2, or nt: streaming stores).
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

#define TRIALS 9

/* The library's routines (internal: a static link finds them) */
typedef size_t clear_routine(void *, const void *, size_t, uintptr_t, uintptr_t,
			     uintptr_t);
typedef clear_routine *clear_fn;
size_t ua_user_clear(clear_fn fn, void *dst, size_t n);
clear_routine ua_clear_erms, ua_clear_avx512vbmi, ua_clear_avx512,
    ua_clear_avx2, ua_clear_sse2, ua_clear_nt;

static char *arena;
static size_t arena_size, cursor;
static clear_fn vector;

/* ns per clear of n bytes by contender k (0 erms, 1 vector, 2 memset) */
static double
timed(int k, size_t n, int walk, unsigned reps)
{
	uint64_t t0 = now_ns();
	unsigned r;

	for (r = 0; r < reps; r++) {
		char *d = arena;

		if (walk) {
			if (cursor + n > arena_size)
				cursor = 0;
			d = arena + cursor;
			cursor += n;
		}
		if (k == 0)
			ua_user_clear(ua_clear_erms, d, n);
		else if (k == 1)
			ua_user_clear(vector, d, n);
		else
			memset(d, 0, n);
	}
	return (double)(now_ns() - t0) / reps;
}

static clear_fn
vector_named(const char *name)
{
	static const struct {
		const char *name;
		clear_fn fn;
	} routines[] = {
	    {"avx512vbmi", ua_clear_avx512vbmi},
	    {"avx512", ua_clear_avx512},
	    {"avx2", ua_clear_avx2},
	    {"sse2", ua_clear_sse2},
	    {"nt", ua_clear_nt},
	};
	size_t i;

	for (i = 0; i < sizeof(routines) / sizeof(routines[0]); i++)
		if (!strcmp(name, routines[i].name))
			return routines[i].fn;
	return NULL;
}

int
main(int argc, char **argv)
{
	/* From 64 MiB, 64 MiB at least; past 64 MiB only what the arena
	 * holds (glibc 2.44's memset streams from 381 MiB on Zen 5) */
	static const size_t sizes[] = {
	    (size_t)256 << 10, (size_t)512 << 10, (size_t)1 << 20,
	    (size_t)2 << 20,   (size_t)4 << 20,   (size_t)8 << 20,
	    (size_t)16 << 20,  (size_t)32 << 20,  (size_t)64 << 20,
	    (size_t)128 << 20, (size_t)256 << 20, (size_t)512 << 20,
	    (size_t)1 << 30};
	const char *mb = getenv("ARENA_MB");
	int walk;
	size_t i;

	if (argc < 2 || (strcmp(argv[1], "hot") && strcmp(argv[1], "walk"))) {
		fprintf(stderr, "usage: %s hot|walk [vector routine]\n",
			argv[0]);
		return 2;
	}
	walk = !strcmp(argv[1], "walk");
	vector = vector_named(argc > 2 ? argv[2] : "avx512vbmi");
	if (!vector) {
		fprintf(stderr, "%s: no vector clear named %s\n", argv[0],
			argv[2]);
		return 2;
	}
	arena_size = (size_t)strtoul(mb ? mb : "3072", NULL, 10) << 20;
	if (arena_size < (size_t)64 << 20) {
		fprintf(stderr, "%s: ARENA_MB below 64\n", argv[0]);
		return 2;
	}
	if (ua_init())
		return 1;
	arena = mmap(NULL, arena_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (arena == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(arena, 1, arena_size);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		unsigned reps =
		    (unsigned)(((size_t)(walk ? 256 : 512) << 20) / n);
		double v[3][TRIALS], r[TRIALS];
		int t, j;

		if (n > arena_size)
			break;
		if (reps < 4)
			reps = 4;
		for (t = 0; t < TRIALS; t++) {
			for (j = 0; j < 3; j++) {
				int k = (j + t) % 3;

				timed(k, n, walk, reps / 4 + 1);
				v[k][t] = timed(k, n, walk, reps);
			}
			r[t] = v[1][t] / v[0][t];
		}
		qsort(r, TRIALS, sizeof(r[0]), cmp_double);
		for (j = 0; j < 3; j++)
			qsort(v[j], TRIALS, sizeof(v[j][0]), cmp_double);
		printf("%s %6zu KiB: erms %5.1f GB/s, vector %5.1f GB/s, "
		       "memset %5.1f GB/s; erms / vector %.2f [%.2f..%.2f]\n",
		       argv[1], n >> 10, n / v[0][TRIALS / 2],
		       n / v[1][TRIALS / 2], n / v[2][TRIALS / 2],
		       r[TRIALS / 2], r[TRIALS / 4], r[3 * TRIALS / 4]);
	}
	return 0;
}
