/* SPDX-License-Identifier: MIT */
/*
 * Streaming stores against the cached copy for large copies, side by side
 * in one process: ua_memcpy_nocache (the nocache routine from nocache_min)
 * against ua_memcpy (the large class's routine), per size, with the
 * destination either walking a window far larger than the LLC ("cold":
 * each copy lands on memory no recent copy touched) or the same buffer
 * every time ("hot": the copy's source and destination stay wherever the
 * caches keep them), or hot with the destination read once after each
 * copy ("hot+read": what a consumer of the copy pays for where the
 * streaming stores left it).  Median over trials of the per-trial speed
 * ratio nocache / cached, the contenders alternating in each trial.
 *
 * Build and run (from the top of the tree, after the build):
 *   cc -O2 -Iinclude docs/measurements/stream-vs-rep.c \
 *     build/src/libuaccess.a -o /tmp/stream-vs-rep
 *   T=large=erms:large_min=2112:huge_min=max:nocache=nt:nocache_min=1M
 *   UACCESS_TUNABLES=$T taskset -c 0 /tmp/stream-vs-rep [window MiB]
 * (the window defaults to 1024 MiB; docs/measurements/intel-emr.md used
 * 2048)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <uaccess.h>

#include "standalone.h"

#define TRIALS 9
#define MIB ((size_t)1 << 20)

static char *
map(size_t n)
{
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(p, 1, n);
	return p;
}

enum mode { COLD, HOT, HOT_READ };

static const char *const mode_name[] = {"cold", "hot", "hot+read"};

/* Read n bytes at p, a word at a time, so that the reads cannot be skipped */
static unsigned long
consume(const char *p, size_t n)
{
	const unsigned long *w = (const unsigned long *)p;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < n / sizeof(*w); i++)
		sum += w[i];
	return sum;
}

static volatile unsigned long sink;

/* GB/s of copies of n bytes, reps of them, at slot i of the window (cold)
 * or always at its start (hot, hot+read, which also reads the copy) */
static double
run(int nocache, char *dst, const char *src, size_t win, size_t n, enum mode m,
    size_t *slot)
{
	size_t slots = win / n, reps = (512 * MIB) / n, r;
	int hot = m != COLD;
	unsigned long sum = 0;
	uint64_t t;

	if (reps < 4)
		reps = 4;
	t = now_ns();
	for (r = 0; r < reps; r++) {
		size_t o = hot ? 0 : (*slot % slots) * n;

		if (nocache)
			ua_memcpy_nocache(dst + o, src + o, n);
		else
			ua_memcpy(dst + o, src + o, n);
		if (m == HOT_READ)
			sum += consume(dst + o, n);
		++*slot;
	}
	t = now_ns() - t;
	sink = sum;
	return (double)(reps * n) / (double)t;
}

int
main(int argc, char **argv)
{
	size_t win = (argc > 1 ? strtoul(argv[1], NULL, 0) : 1024) * MIB;
	char *src = map(win), *dst = map(win);
	size_t n, slot = 0;
	enum mode m;

	printf("cached: %s, nocache: %s (from the policy in force)\n",
	       ua_copy_strategy(64 * MIB), "nocache routine");
	printf("%-8s %8s %12s %12s %14s %s\n", "dest", "size", "cached GB/s",
	       "nocache GB/s", "nocache/cached", "(min..max of the ratios)");
	for (m = COLD; m <= HOT_READ; m++)
		for (n = MIB; n <= 256 * MIB && n <= win; n *= 2) {
			double r[TRIALS], c[TRIALS], s[TRIALS];
			int t;

			run(0, dst, src, win, n, m, &slot);
			run(1, dst, src, win, n, m, &slot);
			for (t = 0; t < TRIALS; t++) {
				if (t & 1) {
					s[t] =
					    run(1, dst, src, win, n, m, &slot);
					c[t] =
					    run(0, dst, src, win, n, m, &slot);
				} else {
					c[t] =
					    run(0, dst, src, win, n, m, &slot);
					s[t] =
					    run(1, dst, src, win, n, m, &slot);
				}
				r[t] = s[t] / c[t];
			}
			qsort(r, TRIALS, sizeof(r[0]), cmp_double);
			qsort(c, TRIALS, sizeof(c[0]), cmp_double);
			qsort(s, TRIALS, sizeof(s[0]), cmp_double);
			printf(
			    "%-8s %7zuM %12.2f %12.2f %13.2fx (%.2f..%.2f)\n",
			    mode_name[m], n / MIB, c[TRIALS / 2], s[TRIALS / 2],
			    r[TRIALS / 2], r[0], r[TRIALS - 1]);
			fflush(stdout);
		}
	return 0;
}
