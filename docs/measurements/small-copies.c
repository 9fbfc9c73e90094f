/* SPDX-License-Identifier: MIT */
/*
 * Small copies, one process per placement: ua_memcpy (or
 * ua_copy_from_user) against a second contender in one loop shaped like
 * uaccess-bench's (a call through a volatile pointer), either one size at
 * consecutive 64-byte-rounded offsets of a 12 KiB working set (the bench's
 * L1 sweep) or 4096 copies of random sizes in [lo, hi] at random offsets.
 * Prints the median over 41 trials of the per-trial time ratio
 * second / first (above 1: the first is faster), each contender's fastest
 * trial in ns, and where the stack lies in its page: with ASLR off
 * (setarch -R) the size of the environment moves the stack and nothing
 * else, so a loop over PAD sizes shows what the stack's placement does.
 *
 * Build and run (from the top of the tree, after the build):
 *   cc -O2 -Iinclude docs/measurements/small-copies.c \
 *     build/src/libuaccess.a -o /tmp/small-copies
 *   for pad in 0 16 32 48 64 80 96 112; do
 *     env -i PAD=$(head -c $pad /dev/zero | tr '\0' x) \
 *       setarch -R taskset -c 0 /tmp/small-copies 128
 *   done
 * Arguments: SIZE, or 0 LO HI for random sizes.  Environment: FIRST=cfu
 * times ua_copy_from_user first; SECOND=ua or SECOND=avx512 (the avx512
 * routine run directly, as uaccess-bench's forced strategies) replace
 * glibc's memcpy as the second; DOFF and SOFF offset the destination and
 * the source.
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

#define TRIALS 41
#define WS 12288
#define RANDOM_COUNT 4096

typedef void *(*volatile copy_fn)(void *, const void *, size_t);

/* The library's routine (internal: a static link finds it) */
size_t ua_copy_avx512(void *dst, const void *src, size_t n, uintptr_t lo,
		      uintptr_t hi, uintptr_t kind);

static char *src, *dst;
static uint32_t rsize[RANDOM_COUNT], rsoff[RANDOM_COUNT], rdoff[RANDOM_COUNT];

static void *
forced_avx512(void *d, const void *s, size_t n)
{
	/* UA_USER_ARGS(s, s + n, UA_KIND_RAW) (src/x86_64/arch.h) */
	ua_copy_avx512(d, s, n, 0, (uintptr_t)s,
		       ((uintptr_t)s + n) | (uintptr_t)4 << 60);
	return d;
}

static void *
from_user(void *d, const void *s, size_t n)
{
	return (void *)ua_copy_from_user(d, s, n);
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static __attribute__((noinline)) double
sweep(copy_fn f, size_t n, long reps)
{
	size_t stride = (n + 63) & ~(size_t)63, slots = (WS - n) / stride + 1;
	size_t slot = 0;
	uint64_t t0;
	long i;

	for (i = 0; i < reps; i++) {
		f(dst + slot * stride, src + slot * stride, n);
		if (++slot == slots)
			slot = 0;
	}
	slot = 0;
	t0 = now_ns();
	for (i = 0; i < reps; i++) {
		f(dst + slot * stride, src + slot * stride, n);
		if (++slot == slots)
			slot = 0;
	}
	return (double)(now_ns() - t0) / (double)reps;
}

static __attribute__((noinline)) double
random_copies(copy_fn f, long passes)
{
	uint64_t t0;
	long p;
	int i;

	for (i = 0; i < RANDOM_COUNT; i++)
		f(dst + rdoff[i], src + rsoff[i], rsize[i]);
	t0 = now_ns();
	for (p = 0; p < passes; p++)
		for (i = 0; i < RANDOM_COUNT; i++)
			f(dst + rdoff[i], src + rsoff[i], rsize[i]);
	return (double)(now_ns() - t0) / (double)(passes * RANDOM_COUNT);
}

int
main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 128;
	uint32_t lo = argc > 3 ? (uint32_t)atoi(argv[2]) : 0;
	uint32_t hi = argc > 3 ? (uint32_t)atoi(argv[3]) : 0;
	size_t len = WS + 8192 + 4096;
	const char *first = getenv("FIRST"), *second = getenv("SECOND");
	copy_fn a = ua_memcpy, b = memcpy;
	double r[TRIALS], ta[TRIALS], tb[TRIALS];
	uint64_t s = 43 | 1;
	int i, t, local;

	src = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dst = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || dst == MAP_FAILED || (!n && hi < lo))
		return 1;
	memset(src, 0x5a, len);
	memset(dst, 0x5a, len);
	ua_init();
	if (getenv("DOFF"))
		dst += atoi(getenv("DOFF"));
	if (getenv("SOFF"))
		src += atoi(getenv("SOFF"));
	if (first && !strcmp(first, "cfu"))
		a = from_user;
	if (second && !strcmp(second, "ua"))
		b = ua_memcpy;
	else if (second && !strcmp(second, "avx512"))
		b = forced_avx512;
	for (i = 0; !n && i < RANDOM_COUNT; i++) {
		rsize[i] = lo + (uint32_t)(xorshift(&s) % (hi - lo + 1));
		rsoff[i] = (uint32_t)(xorshift(&s) % (WS - rsize[i] + 1));
		rdoff[i] = (uint32_t)(xorshift(&s) % (WS - rsize[i] + 1));
	}
	for (t = 0; t < TRIALS; t++) {
		ta[t] = n ? sweep(a, n, 200000) : random_copies(a, 20);
		tb[t] = n ? sweep(b, n, 200000) : random_copies(b, 20);
		r[t] = tb[t] / ta[t];
	}
	qsort(r, TRIALS, sizeof(r[0]), cmp_double);
	qsort(ta, TRIALS, sizeof(ta[0]), cmp_double);
	qsort(tb, TRIALS, sizeof(tb[0]), cmp_double);
	printf("second/first %.3f (quartiles %.3f..%.3f)  fastest: first %.3f "
	       "ns, second %.3f ns  stack at %#lx in its page\n",
	       r[TRIALS / 2], r[TRIALS / 4], r[3 * TRIALS / 4], ta[0], tb[0],
	       (unsigned long)(uintptr_t)&local & 0xfff);
	return 0;
}
