/* SPDX-License-Identifier: MIT */
/*
 * Description: one meaning of access_ok (src/range.h) through every public
 * call: ua_access_ok, copy_from_user (and _nocache), copy_to_user,
 * clear_user, get_user, put_user, strnlen_user, strncpy_from_user and
 * user_access_begin, on a thread's own range, on one that ends at the top
 * of the default range, and on the default range, for pointers and lengths
 * at both ends, n == 0, huge n and n that wraps.  A call may touch only
 * bytes inside the range.  On a thread's own range a call access_ok
 * refuses does nothing; on the default range a bulk call runs up to the
 * end and stops there as at an unmapped page (the kernel's
 * masked_user_access; n above the top is refused whole).  Each case's
 * counts and every byte of the memory around are checked against that
 * model; where the page below the top cannot be mapped, the cases there
 * are left out.
 *
 * uaccess-test: internal
 */
#include <limits.h>

#include "range.h"
#include "test.h"

#define FILL(a) ((unsigned char)(0x41 + (a) % 26)) /* never a NUL */
#define BUF (64 * 1024)
#define T_HALF ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

static size_t pg;
static uintptr_t lo, top;  /* the default range */
static unsigned char *m;   /* 8 pages: the first and last PROT_NONE */
static unsigned char *t;   /* [top - 2 pg, top), or NULL */
static int own;            /* the thread's own range is set */
static uintptr_t rlo, rhi; /* the thread's range, own or default */
static unsigned char dst[BUF], src[BUF];
static unsigned long ncases;

/* Of [p, p + k), the bytes before the first one that is not mapped */
static size_t
mapped(uintptr_t p, size_t k)
{
	uintptr_t end = 0;

	if (p >= (uintptr_t)m + pg && p < (uintptr_t)m + 7 * pg)
		end = (uintptr_t)m + 7 * pg;
	else if (t && p >= top - 2 * pg && p < top)
		end = top;
	else
		return 0;
	return k < end - p ? k : end - p;
}

static int
model_ok(uintptr_t p, size_t n)
{
	return n == 0 || (p >= rlo && p <= rhi && n <= rhi - p);
}

/* The bytes from p a bulk call runs on (range.h) */
static size_t
model_part(uintptr_t p, size_t n)
{
	if (model_ok(p, n))
		return n;
	if (own || n > top || p < rlo || p >= rhi)
		return 0;
	return rhi - p;
}

static void
reset(void)
{
	uintptr_t a;

	for (a = (uintptr_t)m + pg; a < (uintptr_t)m + 7 * pg; a++)
		*(unsigned char *)a = FILL(a);
	if (t)
		for (a = top - 2 * pg; a < top; a++)
			*(unsigned char *)a = FILL(a);
}

/* Every byte of the two regions outside [p, p + k) as reset() left it */
static void
untouched(uintptr_t p, size_t k, const char *call, size_t n)
{
	uintptr_t a, from[2] = {(uintptr_t)m + pg, t ? top - 2 * pg : 0};
	uintptr_t to[2] = {(uintptr_t)m + 7 * pg, t ? top : 0};
	int r;

	for (r = 0; r < 2; r++)
		for (a = from[r]; a < to[r]; a++)
			if (a < p || a - p >= k)
				CHECK(*(unsigned char *)a == FILL(a),
				      "%s(%#lx, %zu): byte %#lx written", call,
				      (unsigned long)p, n, (unsigned long)a);
}

static void
bulk(uintptr_t p, size_t n)
{
	size_t part = model_part(p, n), done = mapped(p, part), left, i;
	size_t want = n - done;
	int big = n > INT_MAX; /* copies refuse it whole (check_copy_size) */

	if (n <= BUF || big) {
		memset(dst, 0xee, sizeof(dst));
		left = ua_copy_from_user(dst, (void *)p, n);
		CHECK(left == (big ? n : want),
		      "copy_from_user(%#lx, %zu) = %zu, want %zu",
		      (unsigned long)p, n, left, big ? n : want);
		for (i = 0; !big && i < n; i++)
			CHECK(dst[i] == (i < done ? FILL(p + i) : 0),
			      "copy_from_user(%#lx, %zu): dst[%zu]",
			      (unsigned long)p, n, i);
		left = ua_copy_from_user_nocache(dst, (void *)p, n);
		CHECK(left == (big ? n : want),
		      "copy_from_user_nocache(%#lx, %zu) = %zu, want %zu",
		      (unsigned long)p, n, left, big ? n : want);
	}
	if (n <= BUF || big) {
		left = ua_copy_to_user((void *)p, src, n);
		CHECK(left == (big ? n : want),
		      "copy_to_user(%#lx, %zu) = %zu, want %zu",
		      (unsigned long)p, n, left, big ? n : want);
		for (i = 0; !big && i < done; i++)
			CHECK(((unsigned char *)p)[i] == src[i],
			      "copy_to_user(%#lx, %zu): byte %zu",
			      (unsigned long)p, n, i);
		untouched(p, big ? 0 : done, "copy_to_user", n);
		reset();
	}
	left = ua_clear_user((void *)p, n);
	CHECK(left == want, "clear_user(%#lx, %zu) = %zu, want %zu",
	      (unsigned long)p, n, left, want);
	for (i = 0; i < done; i++)
		CHECK(((unsigned char *)p)[i] == 0,
		      "clear_user(%#lx, %zu): byte %zu", (unsigned long)p, n,
		      i);
	untouched(p, done, "clear_user", n);
	reset();
}

/* The single accesses fail whole: inside the range and mapped, or not */
static void
single(uintptr_t p, size_t n)
{
	int ok = model_ok(p, n) && mapped(p, n) == n;
	uint64_t v = 1;

	CHECK_EQ(ua__get_user_n(&v, (void *)p, n), ok ? 0 : -EFAULT);
	if (!ok)
		CHECK_EQ(v, 0);
	CHECK_EQ(ua__put_user_n(0, (void *)p, n), ok ? 0 : -EFAULT);
	untouched(p, ok ? n : 0, "put_user", n);
	reset();
}

/* The strings stop at the end of the range (the memory holds no NUL) */
static void
strings(uintptr_t p, size_t n)
{
	long want;
	size_t lim;
	int inside = p >= rlo && p < rhi, clipped;

	if (n == 0 || n > LONG_MAX)
		return;
	lim = inside ? (n < rhi - p ? n : rhi - p) : 0;
	clipped = lim < n;
	want = !inside || mapped(p, lim) < lim || clipped ? 0 : (long)n + 1;
	CHECK_EQ(ua_strnlen_user((const char *)p, (long)n), want);
	if (n <= BUF) {
		want = want ? (long)n : -EFAULT;
		CHECK_EQ(
		    ua_strncpy_from_user((char *)dst, (const char *)p, (long)n),
		    want);
	}
}

static void
one(uintptr_t p, size_t n)
{
	int ok = model_ok(p, n);
	uintptr_t b;

	ncases++;
	CHECK(ua_access_ok((void *)p, n) == ok, "access_ok(%#lx, %zu) != %d",
	      (unsigned long)p, n, ok);
	/* A block is checked whole; accepted, its pointer is kept */
	b = ua__user_access_begin((void *)p, n);
	if (!ok)
		CHECK(b == UINTPTR_MAX, "user_access_begin(%#lx, %zu) = %#lx",
		      (unsigned long)p, n, (unsigned long)b);
	else
		CHECK(b != UINTPTR_MAX && (b == p || (n == 0 && b == 0)),
		      "user_access_begin(%#lx, %zu) = %#lx", (unsigned long)p,
		      n, (unsigned long)b);
	bulk(p, n);
	if (n == 1 || n == 2 || n == 4 || n == 8)
		single(p, n);
	strings(p, n);
}

/* Every length of interest at p */
static void
lengths(uintptr_t p)
{
	/* clang-format off */
	const size_t fixed[] = {0, 1, 2, 4, 7, 8, 64, 4096, pg + 1, top,
				top + 1, (size_t)INT_MAX + 1, SIZE_MAX / 2,
				SIZE_MAX};
	/* clang-format on */
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		one(p, fixed[i]);
	/* To the end of the range and around it; wrapping to 0 and past */
	one(p, rhi - p);
	one(p, rhi - p - 1);
	one(p, rhi - p + 1);
	one(p, (size_t)0 - p);
	one(p, (size_t)0 - p + 16);
}

static void
pointers(const uintptr_t *ps, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		lengths(ps[i]);
}

int
main(void)
{
	uintptr_t mm;
	size_t i;

	CHECK_EQ(ua_init(), 0);
	pg = t_page();
	lo = ua_user_lo;
	top = ua_user_top;
	CHECK(lo && top > lo, "the default range is open after ua_init");
	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(0xa5 ^ i);
	m = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED, "mmap");
	CHECK(!mprotect(m, pg, PROT_NONE) &&
		  !mprotect(m + 7 * pg, pg, PROT_NONE),
	      "mprotect");
	/* The page below the top, and one guard page below that */
	t = mmap((void *)(top - 3 * pg), 3 * pg, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (t != (void *)(top - 3 * pg)) {
		if (t != MAP_FAILED)
			munmap(t, 3 * pg);
		t = NULL;
		printf("access_ok: the pages below the top (%#lx) cannot be "
		       "mapped: no case there\n",
		       (unsigned long)top);
	} else {
		t += pg;
		CHECK(!mprotect(t, 2 * pg, PROT_READ | PROT_WRITE), "mprotect");
	}
	reset();
	mm = (uintptr_t)m;

	/* A thread's own range, unaligned at both ends, in the middle of m */
	own = 1;
	rlo = mm + pg + 100;
	rhi = mm + 5 * pg + 37;
	CHECK_EQ(ua_set_user_range((void *)rlo, rhi - rlo), 0);
	{
		const uintptr_t ps[] = {
		    rlo - 1,         rlo, rlo + 1, rhi - 8,
		    rhi - 1,         rhi, rhi + 1, mm + pg,
		    mm + 6 * pg,     0,   1,       UINTPTR_MAX,
		    UINTPTR_MAX - 7, top, top + pg};

		pointers(ps, sizeof(ps) / sizeof(ps[0]));
	}
	/* A thread's own range that ends at the top of the default one */
	if (t) {
		rlo = top - 2 * pg + 5;
		rhi = top;
		CHECK_EQ(ua_set_user_range((void *)rlo, rhi - rlo), 0);
		{
			const uintptr_t ps[] = {rlo - 1, rlo,        rhi - 9,
						rhi - 1, rhi,        rhi + 1,
						mm + pg, UINTPTR_MAX};

			pointers(ps, sizeof(ps) / sizeof(ps[0]));
		}
	}
	/* The default range */
	own = 0;
	rlo = lo;
	rhi = top;
	CHECK_EQ(ua_set_user_range(NULL, 0), 0);
	{
		const uintptr_t ps[] = {0,
					1,
					lo - 1,
					mm + pg,
					mm + 6 * pg + pg / 2,
					mm + 7 * pg,
					top,
					top + 1,
					top + pg,
					T_HALF,
					UINTPTR_MAX - 7,
					UINTPTR_MAX};

		pointers(ps, sizeof(ps) / sizeof(ps[0]));
	}
	if (t) {
		const uintptr_t ps[] = {top - 2 * pg, top - 2 * pg + 3, top - 9,
					top - 1};

		pointers(ps, sizeof(ps) / sizeof(ps[0]));
	}
	printf("access_ok: %lu pointer/length pairs, every call%s\n", ncases,
	       t ? ", the top of the default range" : "");
	t_done("access_ok");
	return T_PASS;
}
