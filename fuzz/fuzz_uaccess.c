/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a random layout of user pages (mapped, hole, read-only,
 * PROT_NONE, past the end of a file), a random user range, then random
 * calls with random pointers and sizes, each checked against a byte-exact
 * model of what the kernel's semantics say must happen: counts, data,
 * zeroed tails, bytes past the fault, fault records, return codes.
 *
 * Input: 3 bytes of page kinds, 5 bytes of user range, then 8 bytes per
 * call.  Any input is valid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uaccess.h>

/* The library's default user range, open once ua_init() has run (src/range.h;
 * linked statically: visible here) */
extern uintptr_t ua_user_lo, ua_user_top;

#define NPAGES 6
#define MAX_CALLS 16

enum page { P_RW, P_RO, P_NONE, P_HOLE, P_BUS, P_KINDS };

static size_t pg;
static char *reserve;        /* guard, NPAGES pages, guard */
static char *arena;          /* reserve + pg */
static int fd_good, fd_dead; /* memfd of the pages; empty memfd */
static enum page kind[NPAGES];
static unsigned char *model;   /* what the readable pages hold */
static unsigned char *pattern; /* NPAGES pages of data, some zeros */
static uintptr_t range_lo, range_hi;

#define FAIL(...)                                                              \
	do {                                                                   \
		fprintf(stderr, "fuzz_uaccess: " __VA_ARGS__);                 \
		fputc('\n', stderr);                                           \
		abort();                                                       \
	} while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pg = (size_t)sysconf(_SC_PAGESIZE);
	if (ua_init())
		FAIL("ua_init failed");
	reserve = mmap(NULL, (NPAGES + 2) * pg, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd_good = memfd_create("fuzz-good", 0);
	fd_dead = memfd_create("fuzz-dead", 0);
	if (reserve == MAP_FAILED || fd_good < 0 || fd_dead < 0 ||
	    ftruncate(fd_good, (off_t)(NPAGES * pg)))
		FAIL("setup");
	arena = reserve + pg;
	model = malloc(NPAGES * pg);
	pattern = malloc(NPAGES * pg);
	if (!model || !pattern)
		FAIL("malloc");
	for (size_t j = 0; j < NPAGES * pg; j++) {
		uint32_t x = (uint32_t)j * 2654435761u;

		pattern[j] = (x >> 8 & 31) ? (unsigned char)(x >> 24) : 0;
	}
	return 0;
}

/* ---- The model ---- */

static int
readable(uintptr_t a)
{
	uintptr_t b = (uintptr_t)arena;

	if (a < b || a >= b + NPAGES * pg)
		return 0;
	return kind[(a - b) / pg] <= P_RO;
}

static int
writable(uintptr_t a)
{
	uintptr_t b = (uintptr_t)arena;

	if (a < b || a >= b + NPAGES * pg)
		return 0;
	return kind[(a - b) / pg] == P_RW;
}

static int
model_access_ok(uintptr_t p, size_t n)
{
	if (n == 0)
		return 1;
	return p >= range_lo && p <= range_hi && n <= range_hi - p;
}

/* Offset of the first byte of [p, p + n) that cannot be read/written */
static size_t
first_bad(uintptr_t p, size_t n, int write)
{
	size_t i = 0;

	while (i < n) {
		uintptr_t a = p + i, next = (a | (pg - 1)) + 1;

		if (write ? !writable(a) : !readable(a))
			return i;
		i += next - a;
	}
	return n;
}

static unsigned char
model_at(uintptr_t a)
{
	return model[a - (uintptr_t)arena];
}

static void
check_fault(uintptr_t p, size_t k, const char *what)
{
	const struct ua_fault *f = ua_last_fault();
	uintptr_t a = (uintptr_t)f->addr, bad = p + k;
	uintptr_t b = (uintptr_t)arena;
	int bus =
	    bad >= b && bad < b + NPAGES * pg && kind[(bad - b) / pg] == P_BUS;

	if (f->signo != (bus ? SIGBUS : SIGSEGV) || a < bad ||
	    a >= (bad & ~(uintptr_t)(pg - 1)) + pg)
		FAIL("%s: fault record signo %d addr %p, first bad byte %p",
		     what, f->signo, f->addr, (void *)bad);
}

/* After a write of n bytes at p meant to be `meant` (NULL: zeros) */
static void
check_written(uintptr_t p, size_t n, size_t k, const unsigned char *meant,
	      const char *what)
{
	size_t i, j;

	for (i = 0; i < NPAGES; i++) {
		uintptr_t a0 = (uintptr_t)arena + i * pg;
		const unsigned char *now = (const unsigned char *)a0;
		unsigned char *m = model + i * pg;
		size_t lo, hi;

		if (kind[i] > P_RO)
			continue;
		/* [lo, hi): the part of this page inside [p, p + n) */
		lo = p + n <= a0 || p >= a0 + pg ? pg : p > a0 ? p - a0 : 0;
		hi = lo == pg ? pg : p + n >= a0 + pg ? pg : p + n - a0;
		if (memcmp(now, m, lo) || memcmp(now + hi, m + hi, pg - hi))
			FAIL("%s: byte outside [dst, dst+n) changed", what);
		for (j = lo; j < hi; j++) {
			size_t off = a0 + j - p;
			unsigned char want = meant ? meant[off] : 0;

			if (off < k ? now[j] != want
				    : now[j] != m[j] && now[j] != want)
				FAIL("%s: byte %zu = %#x (meant %#x, was %#x, "
				     "fault at %zu)",
				     what, off, now[j], want, m[j], k);
			m[j] = now[j];
		}
	}
}

/* ---- Layout ---- */

static void
set_page(size_t i, enum page k)
{
	char *at = arena + i * pg;

	kind[i] = k;
	switch (k) {
	case P_HOLE:
		munmap(at, pg);
		return;
	case P_BUS:
		if (mmap(at, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			 fd_dead, 0) != at)
			FAIL("mmap dead");
		return;
	default:
		break;
	}
	if (mmap(at, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd_good, (off_t)(i * pg)) != at)
		FAIL("mmap good");
	memcpy(at, pattern + i * pg, pg);
	memcpy(model + i * pg, pattern + i * pg, pg);
	if (k == P_RO && mprotect(at, pg, PROT_READ))
		FAIL("mprotect");
	if (k == P_NONE && mprotect(at, pg, PROT_NONE))
		FAIL("mprotect");
}

static void
reset_layout(void)
{
	if (mmap(arena, NPAGES * pg, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != arena)
		FAIL("mmap reset");
	ua_set_user_range(NULL, 0);
}

/* ---- Calls ---- */

enum op {
	OP_FROM,
	OP_NOCACHE,
	OP_TO,
	OP_CLEAR,
	OP_STRNLEN,
	OP_STRNCPY,
	OP_GET,
	OP_PUT,
	OP_ZEROED,
	OP_N
};

static void
do_from(int nocache, uintptr_t p, size_t n, unsigned ka)
{
	const char *what = nocache ? "from_user_nocache" : "from_user";
	unsigned char *buf = malloc(n + ka + 1), *d = buf + ka;
	size_t k = model_access_ok(p, n) ? first_bad(p, n, 0) : 0, left, i;

	if (!buf)
		FAIL("malloc");
	memset(d, 0xee, n);
	left = nocache ? ua_copy_from_user_nocache(d, (const void *)p, n)
		       : ua_copy_from_user(d, (const void *)p, n);
	if (!model_access_ok(p, n)) {
		if (left != n)
			FAIL("%s: access_ok failed, left %zu of %zu", what,
			     left, n);
	} else if (left != n - k) {
		FAIL("%s: left %zu, expected %zu (n %zu)", what, left, n - k,
		     n);
	}
	for (i = 0; i < n; i++)
		if (d[i] != (i < n - left ? model_at(p + i) : 0))
			FAIL("%s: byte %zu of %zu = %#x", what, i, n, d[i]);
	if (model_access_ok(p, n) && k < n)
		check_fault(p, k, what);
	free(buf);
}

static void
do_to(int clear, uintptr_t p, size_t n, unsigned ka, uint8_t salt)
{
	const char *what = clear ? "clear_user" : "to_user";
	size_t k, left, i;
	unsigned char *buf = NULL, *s = NULL;
	int ok = model_access_ok(p, n);

	if (!clear && ok) {
		buf = malloc(n + ka + 1);
		if (!buf)
			FAIL("malloc");
		s = buf + ka;
		for (i = 0; i < n; i++)
			s[i] = (unsigned char)(i * 13 + salt);
	}
	k = ok ? first_bad(p, n, 1) : 0;
	/* Huge n: access_ok fails, and the source is never read */
	left = clear ? ua_clear_user((void *)p, n)
		     : ua_copy_to_user((void *)p, s ? s : (void *)&salt, n);
	if (!ok) {
		if (left != n)
			FAIL("%s: access_ok failed, left %zu of %zu", what,
			     left, n);
		check_written(p, 0, 0, NULL, what);
		return;
	}
	if (left != n - k)
		FAIL("%s: left %zu, expected %zu (n %zu)", what, left, n - k,
		     n);
	check_written(p, n, k, s, what);
	if (k < n)
		check_fault(p, k, what);
	free(buf);
}

/* The kernel's strnlen_user and strncpy_from_user, on the model */
static long
model_string(uintptr_t p, long n, int copy, size_t *ret_scanned)
{
	size_t lim, i;
	int clipped;

	*ret_scanned = 0;
	if (n <= 0)
		return 0;
	if (p < range_lo || p >= range_hi)
		return copy ? -EFAULT : 0;
	lim = range_hi - p;
	clipped = lim < (size_t)n;
	if (!clipped)
		lim = (size_t)n;
	for (i = 0; i < lim; i++) {
		if (!readable(p + i))
			return copy ? -EFAULT : 0;
		if (!model_at(p + i)) {
			*ret_scanned = i + 1;
			return copy ? (long)i : (long)i + 1;
		}
	}
	*ret_scanned = lim;
	if (clipped)
		return copy ? -EFAULT : 0;
	return copy ? n : n + 1;
}

static void
do_string(int copy, uintptr_t p, long n)
{
	size_t scanned, cap = (NPAGES + 2) * pg, i;
	long want = model_string(p, n, copy, &scanned), got;
	char *d;

	if (!copy) {
		got = ua_strnlen_user((const char *)p, n);
		if (got != want)
			FAIL("strnlen_user(n %ld): %ld, expected %ld", n, got,
			     want);
		return;
	}
	/* It writes at most what it scans, which stays inside the arena */
	d = malloc(cap);
	if (!d)
		FAIL("malloc");
	got = ua_strncpy_from_user(d, (const char *)p, n);
	if (got != want)
		FAIL("strncpy_from_user(n %ld): %ld, expected %ld", n, got,
		     want);
	if (got >= 0)
		for (i = 0; i < scanned; i++)
			if ((unsigned char)d[i] != model_at(p + i))
				FAIL("strncpy_from_user: byte %zu", i);
	free(d);
}

/* In do_getput: get or put_user_uBITS of val at p, r its result, got what a
 * get read */
#define GETPUT(bits)                                                           \
	do {                                                                   \
		uint##bits##_t v = 0;                                          \
		r = put ? ua_put_user_u##bits((uint##bits##_t)val, (void *)p)  \
			: ua_get_user_u##bits(&v, (const void *)p);            \
		got = v;                                                       \
	} while (0)

static void
do_getput(int put, uintptr_t p, unsigned size, uint64_t val)
{
	int ok = model_access_ok(p, size), r = 0;
	size_t k = ok ? first_bad(p, size, put) : 0;
	uint64_t got = 0, want = 0;
	unsigned char meant[8];
	unsigned i;

	for (i = 0; i < size; i++)
		meant[i] = (unsigned char)(val >> (8 * i));
	switch (size) {
	case 1:
		GETPUT(8);
		break;
	case 2:
		GETPUT(16);
		break;
	case 4:
		GETPUT(32);
		break;
	default:
		GETPUT(64);
		break;
	}
	if (!ok || k < size) {
		if (r != -EFAULT || (!put && got))
			FAIL("%s_user_u%u: %d (value %#llx), expected -EFAULT",
			     put ? "put" : "get", size * 8, r,
			     (unsigned long long)got);
		if (put)
			check_written(p, size, 0, meant, "put_user");
		return;
	}
	if (r)
		FAIL("%s_user_u%u: %d, expected 0", put ? "put" : "get",
		     size * 8, r);
	if (put) {
		check_written(p, size, size, meant, "put_user");
		return;
	}
	for (i = 0; i < size; i++)
		want |= (uint64_t)model_at(p + i) << (8 * i);
	if (got != want)
		FAIL("get_user_u%u: %#llx, expected %#llx", size * 8,
		     (unsigned long long)got, (unsigned long long)want);
}

static void
do_zeroed(uintptr_t p, size_t n)
{
	int want = 1, got;
	size_t k, i;

	if (!model_access_ok(p, n)) {
		want = -EFAULT;
	} else {
		k = first_bad(p, n, 0);
		for (i = 0; i < k; i++)
			if (model_at(p + i)) {
				want = 0;
				break;
			}
		if (want == 1 && k < n)
			want = -EFAULT;
	}
	got = ua_check_zeroed_user((const void *)p, n);
	if (got != want)
		FAIL("check_zeroed_user(n %zu): %d, expected %d", n, got, want);
}

static uint32_t
get(const uint8_t **d, size_t *left, unsigned bytes)
{
	uint32_t v = 0;

	while (bytes--) {
		v = v << 8 | (*left ? **d : 0);
		if (*left) {
			(*d)++;
			(*left)--;
		}
	}
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t span = (NPAGES + 2) * pg, i, calls = 0;
	uint32_t kinds = get(&data, &size, 3), rmode;

	for (i = 0; i < NPAGES; i++)
		set_page(i, (enum page)((kinds >> (3 * i) & 7) % P_KINDS));

	/* The user range: the default one, or a window around the arena */
	rmode = get(&data, &size, 1);
	range_lo = ua_user_lo;
	range_hi = ua_user_top;
	{
		uint32_t a = get(&data, &size, 2), b = get(&data, &size, 2);

		if (rmode & 1) {
			uintptr_t lo = (uintptr_t)reserve + a % span;
			size_t len = 1 + b % span;

			if (ua_set_user_range((void *)lo, len))
				FAIL("ua_set_user_range");
			range_lo = lo;
			range_hi = lo + len;
		}
	}

	while (size && calls++ < MAX_CALLS) {
		uint32_t op = get(&data, &size, 1), off = get(&data, &size, 2);
		uint32_t nv = get(&data, &size, 3), ex = get(&data, &size, 2);
		uintptr_t p = (uintptr_t)reserve + off % span;
		size_t n = nv % (span + 1);
		unsigned ka = ex & 63;

		/* Sizes that no range can hold, where the call allows it */
		if (op & 0x80)
			n = SIZE_MAX - nv;
		switch ((op & 0x7f) % OP_N) {
		case OP_FROM:
		case OP_NOCACHE:
			if (op & 0x80)
				n = nv % (span + 1);
			do_from((op & 0x7f) % OP_N == OP_NOCACHE, p, n, ka);
			break;
		case OP_TO:
		case OP_CLEAR:
			do_to((op & 0x7f) % OP_N == OP_CLEAR, p, n, ka,
			      (uint8_t)ex);
			break;
		case OP_STRNLEN:
		case OP_STRNCPY:
			do_string((op & 0x7f) % OP_N == OP_STRNCPY, p,
				  (op & 0x80) ? LONG_MAX - (long)nv
					      : (long)(nv % (span + 1)) -
						    (long)(ex & 1));
			break;
		case OP_GET:
		case OP_PUT:
			do_getput((op & 0x7f) % OP_N == OP_PUT, p,
				  1u << (ex & 3),
				  (uint64_t)nv * 0x100000001ull);
			break;
		case OP_ZEROED:
			if (op & 0x80)
				n = nv % (span + 1);
			do_zeroed(p, n);
			break;
		}
	}
	reset_layout();
	return 0;
}
