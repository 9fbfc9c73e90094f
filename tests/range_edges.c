/* SPDX-License-Identifier: MIT */
/*
 * Description: no pointer and no n, however large, makes the library read
 * or write outside the thread's user range: a small unaligned range inside
 * a larger mapping, every call with pointers and lengths around both edges
 * and huge or wrapping n; bytes outside untouched, counts and errors right.
 * Also pins ua_user_addr (access_ok with the Spectre v1 mask) on the same
 * values: the pointer when access_ok holds, an unmappable address
 * otherwise.
 *
 * uaccess-test: internal
 */
#include <errno.h>

#include "range.h"
#include "test.h"

#define PAGES 16
#define FILL 0x77
#define SENT 0x00 /* a NUL just past each end: an over-read would find it */
/* Far from the range: beyond 4-level user space, and 4 GiB away (64-bit) */
#if UINTPTR_MAX > 0xffffffffu
#define T_HIGH ((uintptr_t)1 << 47)
#define T_FAR ((uintptr_t)1 << 32)
#else
#define T_HIGH ((uintptr_t)1 << 30)
#define T_FAR ((uintptr_t)1 << 28)
#endif
#define T_TOP ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

static char *map;
static size_t pg, maplen;
static uintptr_t lo, hi;
static unsigned long ncalls;
static unsigned char fill64[64];

static int
model_ok(uintptr_t p, size_t n)
{
	return n == 0 || (p >= lo && p <= hi && n <= hi - p);
}

static void
reset(void)
{
	memset(map, FILL, maplen);
	map[lo - (uintptr_t)map - 1] = SENT;
	map[hi - (uintptr_t)map] = SENT;
}

/* Everything outside [p, p + n) (clipped to the map) as reset() left it */
static void
check_untouched(uintptr_t p, size_t n, const char *what)
{
	uintptr_t m = (uintptr_t)map, a;

	for (a = m; a < m + maplen; a++) {
		unsigned char want = a == lo - 1 || a == hi ? SENT : FILL;

		/* Fast path: whole 64-byte runs of FILL */
		if (!(a & 63) && a + 64 <= m + maplen &&
		    (a + 64 <= p || a >= p + n) &&
		    (a + 64 <= lo - 1 || a > hi) &&
		    !memcmp((void *)a, fill64, 64)) {
			a += 63;
			continue;
		}
		if (n && a >= p && a - p < n)
			continue;
		CHECK(*(unsigned char *)a == want,
		      "%s(range%+ld, %zu): byte at range%+ld changed", what,
		      (long)(p - lo), n, (long)(a - lo));
	}
}

static void
one(uintptr_t p, size_t n)
{
	static unsigned char buf[8 * 4096], src[8 * 4096];
	int ok = model_ok(p, n);
	size_t left;
	long r;

	ncalls++;
	/* copy_from_user zero-fills n bytes of dst on failure: keep n small */
	if (n <= sizeof(buf)) {
		left = ua_copy_from_user(buf, (void *)p, n);
		CHECK_EQ(left, ok ? 0 : n);
		left = ua_copy_from_user_nocache(buf, (void *)p, n);
		CHECK_EQ(left, ok ? 0 : n);
		CHECK_EQ(ua_check_zeroed_user((void *)p, n),
			 ok ? (n ? 0 : 1) : -EFAULT);
	}
	reset();
	left = ua_copy_to_user((void *)p, src, n);
	CHECK_EQ(left, ok ? 0 : n);
	check_untouched(p, ok ? n : 0, "copy_to_user");
	reset();
	left = ua_clear_user((void *)p, n);
	CHECK_EQ(left, ok ? 0 : n);
	check_untouched(p, ok ? n : 0, "clear_user");
	reset();

	/* Strings: the range holds no NUL; one lies just past each end */
	if ((long)n >= 0) {
		long want = 0;

		if (p >= lo && p < hi && n && n <= hi - p)
			want = (long)n + 1; /* too long for n: n + 1 */
		r = ua_strnlen_user((const char *)p, (long)n);
		CHECK(r == want, "strnlen_user(range%+ld, %zu) = %ld, want %ld",
		      (long)(p - lo), n, r, want);
		if (n <= sizeof(buf)) {
			want = n == 0                             ? 0
			       : p >= lo && p < hi && n <= hi - p ? (long)n
								  : -EFAULT;
			r = ua_strncpy_from_user((char *)buf, (const char *)p,
						 (long)n);
			CHECK(
			    r == want,
			    "strncpy_from_user(range%+ld, %zu) = %ld, want %ld",
			    (long)(p - lo), n, r, want);
		}
	}
	if (n == 1 || n == 2 || n == 4 || n == 8) {
		uint64_t v = 1;
		int want = ok ? 0 : -EFAULT;

		CHECK_EQ(ua__get_user_n(&v, (void *)p, n), want);
		CHECK(ok || v == 0, "get_user: value not zeroed");
		CHECK_EQ(ua__put_user_n(0, (void *)p, n), want);
		check_untouched(p, ok ? n : 0, "put_user");
		reset();
	}
}

/* ua_user_addr: identity when access_ok holds, else unmappable */
static void
mask(uintptr_t p, size_t n)
{
	uintptr_t m = ua_user_addr((const void *)p, n);

	if (model_ok(p, n))
		CHECK(m == p, "mask(%#lx, %zu) = %#lx", (unsigned long)p, n,
		      (unsigned long)m);
	else
		CHECK(m == UA_REFUSED, "mask(%#lx, %zu) = %#lx, not clamped",
		      (unsigned long)p, n, (unsigned long)m);
}

int
main(void)
{
	static const size_t fixed_n[] = {0,
					 1,
					 2,
					 4,
					 7,
					 8,
					 63,
					 64,
					 4096,
					 (size_t)T_HIGH,
					 (size_t)T_TOP,
					 SIZE_MAX / 2,
					 SIZE_MAX - 1,
					 SIZE_MAX};
	uintptr_t ptrs[512];
	size_t np = 0, i, j;
	long d;

	pg = t_page();
	memset(fill64, FILL, sizeof(fill64));
	maplen = PAGES * pg;
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED, "mmap");
	/* Unaligned at both ends, well inside the mapping */
	lo = (uintptr_t)map + 5 * pg + 100;
	hi = lo + 3 * pg + 37;
	CHECK_EQ(ua_set_user_range((void *)lo, hi - lo), 0);
	reset();

	for (d = -70; d <= 70; d++) {
		ptrs[np++] = lo + (uintptr_t)d;
		ptrs[np++] = hi + (uintptr_t)d;
	}
	ptrs[np++] = 0;
	ptrs[np++] = 1;
	ptrs[np++] = (uintptr_t)map;
	ptrs[np++] = (uintptr_t)map + maplen - 1;
	ptrs[np++] = lo - pg;
	ptrs[np++] = hi + pg;
	ptrs[np++] = T_HIGH;
	ptrs[np++] = T_TOP;
	ptrs[np++] = UINTPTR_MAX;
	ptrs[np++] = UINTPTR_MAX - 7;
	ptrs[np++] = lo + T_FAR;
	ptrs[np++] = lo - T_FAR;

	for (i = 0; i < np; i++) {
		uintptr_t p = ptrs[i];
		size_t ns[32], nn = 0;

		for (j = 0; j < sizeof(fixed_n) / sizeof(fixed_n[0]); j++)
			ns[nn++] = fixed_n[j];
		/* Exactly to the end, one past it, and wrapping to p + n == 0
		 * or to just inside the range */
		ns[nn++] = hi - p;
		ns[nn++] = hi - p + 1;
		ns[nn++] = hi - p - 1;
		ns[nn++] = (size_t)0 - p;
		ns[nn++] = (size_t)0 - p + (lo + 8);
		for (j = 0; j < nn; j++) {
			mask(p, ns[j]);
			one(p, ns[j]);
		}
	}
	CHECK_EQ(ua_set_user_range(NULL, 0), 0);
	printf("range_edges: %lu pointer/length pairs, every call\n", ncalls);
	t_done("range_edges");
	return T_PASS;
}
