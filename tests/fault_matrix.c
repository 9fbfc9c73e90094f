/* SPDX-License-Identifier: MIT */
/*
 * Description: every kind of bad page (unmapped, PROT_NONE, read-only,
 * SIGBUS past the end of a memfd), at the end of the good memory or as a
 * one-page hole with good memory after it, under every position of the first
 * bad byte relative to the head, body and tail of the copy, user and kernel
 * alignments 0..63 and size-class edges, for copy_from_user, copy_to_user,
 * clear_user and copy_from_user_nocache: exact counts, exact data, zeroed
 * tail, nothing written outside the destination.
 *
 * uaccess-test: per-strategy
 * uaccess-test: timeout=300
 */
#include <signal.h>

#include "test.h"

#define GOOD_PAGES 80  /* good memory before the bad page */
#define AFTER_PAGES 81 /* after it: good (hole) or bad like it (end) */
#define MAX_N (GOOD_PAGES * 4096 - 4096)
#define CANARY_K 0xc3 /* around the kernel-side destination */
#define CANARY_U 0xa5 /* around and in the user-side destination */
#define MARGIN 64

enum fn { F_FROM, F_NOCACHE, F_TO, F_CLEAR, F_COUNT };
static const char *const fn_names[] = {
    "copy_from_user", "copy_from_user_nocache", "copy_to_user", "clear_user"};

struct mx {
	char *base, *bad, *end; /* bad: first bad byte; end: end of mapping */
	char *after;            /* good memory after a hole, or NULL */
	size_t pg;
	int fd;
	enum t_bad kind;
	int hole;
	char name[32];
};

static unsigned long n_cases;
static unsigned char *kbuf; /* kernel side: MARGIN + 64 + MAX_N + MARGIN */
static unsigned char *ksrc; /* kernel-side source for to_user */

/* Values 1..0x90: never 0 (the zero fill), never a canary */
static inline unsigned char
pat(size_t i)
{
	uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull;

	return (unsigned char)(1 + (x >> 40) % 0x90);
}

static void
fill_pat(char *p, size_t n, size_t salt)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (char)pat(i + salt);
}

static int
mx_good(const struct mx *m, const char *p)
{
	if (p >= m->base && p < m->bad)
		return 1;
	return m->after && p >= m->after && p < m->end;
}

static struct mx
mx_new(enum t_bad kind, int hole)
{
	size_t pg = t_page();
	size_t total = (GOOD_PAGES + 1 + AFTER_PAGES) * pg;
	struct mx m = {0};
	char *p, *bad, *after;

	m.pg = pg;
	m.fd = -1;
	m.kind = kind;
	m.hole = hole;
	snprintf(m.name, sizeof(m.name), "%s%s", t_bad_names[kind],
		 hole ? "+hole" : "");
	if (kind == T_BAD_SIGBUS) {
		m.fd = memfd_create("uaccess-matrix", 0);
		CHECK(m.fd >= 0, "memfd_create: %s", strerror(errno));
		CHECK(!ftruncate(m.fd, (off_t)total), "ftruncate");
		p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd,
			 0);
	} else {
		p = mmap(NULL, total, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));
	fill_pat(p, total, 0);
	bad = p + GOOD_PAGES * pg;
	after = bad + pg;
	m.base = p;
	m.bad = bad;
	m.end = p + total;
	m.after = hole ? after : NULL;

	switch (kind) {
	case T_BAD_SIGBUS:
		/* Pages past the end of the file raise SIGBUS */
		CHECK(!ftruncate(m.fd, (off_t)(GOOD_PAGES * pg)), "ftruncate");
		if (hole) {
			CHECK(mmap(after, AFTER_PAGES * pg,
				   PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
				   0) == after,
			      "mmap");
			fill_pat(after, AFTER_PAGES * pg, (size_t)(after - p));
		}
		break;
	case T_BAD_UNMAPPED:
		/* Past the hole: PROT_NONE, so that no later mmap lands there
		 */
		CHECK(!munmap(bad, pg), "munmap");
		if (!hole)
			CHECK(!mprotect(after, AFTER_PAGES * pg, PROT_NONE),
			      "mprotect");
		break;
	case T_BAD_NONE:
		CHECK(!mprotect(bad, hole ? pg : (1 + AFTER_PAGES) * pg,
				PROT_NONE),
		      "mprotect");
		break;
	case T_BAD_RDONLY:
		CHECK(!mprotect(bad, hole ? pg : (1 + AFTER_PAGES) * pg,
				PROT_READ),
		      "mprotect");
		break;
	default:
		break;
	}
	return m;
}

static void
mx_free(struct mx *m)
{
	munmap(m->base, (size_t)(m->end - m->base));
	if (m->fd >= 0)
		close(m->fd);
}

static void
check_fault(const struct mx *m, const char *what, size_t n, size_t k)
{
	const struct ua_fault *f = ua_last_fault();
	int want = m->kind == T_BAD_SIGBUS ? SIGBUS : SIGSEGV;

	CHECK(f->signo == want && (const char *)f->addr >= m->bad &&
		  (const char *)f->addr < m->bad + m->pg,
	      "%s %s n=%zu k=%zu: last fault signo %d at %p, bad page %p", what,
	      m->name, n, k, f->signo, f->addr, (void *)m->bad);
}

/*
 * One call: the user side starts k bytes before the bad page (k >= n: the
 * bad page starts at or after its end), the kernel side is ka bytes past a
 * 64-byte boundary.
 */
static void
one_case(const struct mx *m, enum fn fn, size_t n, size_t k, size_t ka)
{
	char *u = m->bad - k;
	size_t want_done = k < n ? k : n, left, i;
	const char *what = fn_names[fn];

	n_cases++;
	if (fn == F_FROM || fn == F_NOCACHE) {
		unsigned char *d = kbuf + MARGIN + ka;

		memset(kbuf, CANARY_K, MARGIN + ka);
		memset(d, 0xee, n); /* neither data nor zero */
		memset(d + n, CANARY_K, MARGIN);
		left = fn == F_FROM ? ua_copy_from_user(d, u, n)
				    : ua_copy_from_user_nocache(d, u, n);
		CHECK(left == n - want_done,
		      "%s %s n=%zu k=%zu ua=%zu ka=%zu: left %zu, expected %zu",
		      what, m->name, n, k, (size_t)((uintptr_t)u & 63), ka,
		      left, n - want_done);
		CHECK(!memcmp(d, u, want_done),
		      "%s %s n=%zu k=%zu ka=%zu: data", what, m->name, n, k,
		      ka);
		for (i = want_done; i < n; i++)
			CHECK(d[i] == 0,
			      "%s %s n=%zu k=%zu: tail byte %zu = %#x", what,
			      m->name, n, k, i, d[i]);
		for (i = 0; i < MARGIN; i++)
			CHECK(kbuf[ka + i] == CANARY_K && d[n + i] == CANARY_K,
			      "%s %s n=%zu k=%zu ka=%zu: wrote outside dst",
			      what, m->name, n, k, ka);
	} else {
		const unsigned char *s = ksrc + ka;
		char *lo = u - MARGIN, *hi = u + n + MARGIN, *p;

		/* The user side and its margins, where writable */
		for (p = lo; p < hi;) {
			char *q = p;

			while (q < hi && mx_good(m, q))
				q++;
			memset(p, CANARY_U, (size_t)(q - p));
			p = q;
			while (p < hi && !mx_good(m, p))
				p++;
		}
		left =
		    fn == F_TO ? ua_copy_to_user(u, s, n) : ua_clear_user(u, n);
		CHECK(left == n - want_done,
		      "%s %s n=%zu k=%zu ua=%zu ka=%zu: left %zu, expected %zu",
		      what, m->name, n, k, (size_t)((uintptr_t)u & 63), ka,
		      left, n - want_done);
		if (fn == F_TO) {
			CHECK(!memcmp(u, s, want_done),
			      "%s %s n=%zu k=%zu ka=%zu: data", what, m->name,
			      n, k, ka);
		} else {
			for (i = 0; i < want_done; i++)
				CHECK(!u[i],
				      "%s %s n=%zu k=%zu: byte %zu not cleared",
				      what, m->name, n, k, i);
		}
		/*
		 * Past the count: unchanged, even where a hole lets the
		 * destination go on after the bad page
		 */
		for (i = want_done; i < n; i++)
			if (mx_good(m, u + i))
				CHECK((unsigned char)u[i] == CANARY_U,
				      "%s %s n=%zu k=%zu ua=%zu ka=%zu: byte "
				      "%zu past the count = %#x",
				      what, m->name, n, k,
				      (size_t)((uintptr_t)u & 63), ka, i,
				      (unsigned char)u[i]);
		for (p = lo; p < hi; p++) {
			if (p == u)
				p += n;
			if (p < hi && mx_good(m, p))
				CHECK((unsigned char)*p == CANARY_U,
				      "%s %s n=%zu k=%zu: wrote outside [udst, "
				      "udst+n) at %td",
				      what, m->name, n, k, p - u);
		}
	}
	if (want_done < n)
		check_fault(m, what, n, k);
}

/* Sizes: every class edge we know of, and those the library reports */
static struct t_sizes sizes = {MAX_N, 0, {0}};

static void
make_sizes(void)
{
	size_t n, e;

	for (n = 1; n <= 17; n++)
		t_sizes_add(&sizes, n);
	for (e = 32; e <= 65536; e *= 2) {
		t_sizes_add(&sizes, e - 1);
		t_sizes_add(&sizes, e);
		t_sizes_add(&sizes, e + 1);
	}
	t_sizes_add(&sizes, 100);
	t_sizes_add(&sizes, 1000);
	t_sizes_add(&sizes, 3000);
	t_sizes_add(&sizes, 5000);
	t_sizes_add(&sizes, 40000);
	t_sizes_add(&sizes, MAX_N);
	/* Where the library switches routines (none when one is forced) */
	for (e = 1; e < MAX_N; e *= 2) {
		size_t lo = e, hi = e * 2 > MAX_N ? MAX_N : e * 2;

		if (!strcmp(ua_copy_strategy(lo), ua_copy_strategy(hi)))
			continue;
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (!strcmp(ua_copy_strategy(lo),
				    ua_copy_strategy(mid)))
				lo = mid;
			else
				hi = mid;
		}
		t_sizes_add(&sizes, lo - 1);
		t_sizes_add(&sizes, lo);
		t_sizes_add(&sizes, hi);
		t_sizes_add(&sizes, hi + 1);
	}
}

/*
 * The first bad byte at k, for user alignments ua 0..63 (k and the user
 * pointer's alignment are tied: u = bad - k), in the head (first 64
 * bytes), the start of the body, its middle, the tail (last 64 bytes), and
 * just past the end (no fault may happen).  Large sizes sample every
 * fourth alignment.  The kernel-side alignment walks 0..63 with ua.
 */
static void
sweep(const struct mx *m, enum fn fn, size_t n, unsigned salt)
{
	size_t blocks[5], nb = 0, b, ua;
	size_t step = n > 16384 ? 4 : 1;

	blocks[nb++] = 0;
	if (n > 64)
		blocks[nb++] = 1;
	if (n > 256)
		blocks[nb++] = n / 128;
	if (n > 128)
		blocks[nb++] = (n - 1) / 64;
	blocks[nb++] = (n + 63) / 64;
	for (b = 0; b < nb; b++) {
		for (ua = (b + salt) % step; ua < 64; ua += step) {
			/* u & 63 == ua, so k == -ua (mod 64) */
			size_t k = blocks[b] * 64 + ((64 - ua) & 63);
			size_t ka = (ua * 37 + b * 11 + salt) & 63;

			one_case(m, fn, n, k, ka);
		}
	}
}

/* Every pair of alignments, for a few sizes, fault in the head and tail */
static void
full_alignments(const struct mx *m, enum fn fn)
{
	static const size_t ns[] = {7, 64, 100, 1000, 4096, 5000};
	size_t i, ua, ka;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		size_t n = ns[i];

		for (ua = 0; ua < 64; ua++)
			for (ka = 0; ka < 64; ka++) {
				size_t r = (64 - ua) & 63;

				one_case(m, fn, n, r + (n > 64 ? 64 : 0), ka);
				if (n > 128)
					one_case(m, fn, n,
						 ((n - 1) / 64) * 64 + r, ka);
			}
	}
}

int
main(void)
{
	enum t_bad kind;
	int hole;
	size_t i;
	unsigned long per_fn[F_COUNT] = {0};

	t_require_forced_strategy();
	make_sizes();
	kbuf = aligned_alloc(64, 2 * MARGIN + 64 + MAX_N);
	ksrc = aligned_alloc(64, 64 + MAX_N);
	CHECK(kbuf && ksrc, "aligned_alloc");
	fill_pat((char *)ksrc, 64 + MAX_N, 12345);

	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		if (!t_bad_testable((enum t_bad)kind))
			continue;
		for (hole = 0; hole < 2; hole++) {
			struct mx m = mx_new(kind, hole);
			int fn;

			for (fn = 0; fn < F_COUNT; fn++) {
				unsigned long before = n_cases;

				/* Read-only memory stops only writes */
				if (kind == T_BAD_RDONLY &&
				    (fn == F_FROM || fn == F_NOCACHE))
					continue;
				for (i = 0; i < sizes.n; i++)
					sweep(&m, (enum fn)fn, sizes.v[i],
					      (unsigned)(i + kind + hole));
				full_alignments(&m, (enum fn)fn);
				per_fn[fn] += n_cases - before;
			}
			mx_free(&m);
		}
	}
	printf("fault_matrix: %zu sizes; cases: %s %lu, %s %lu, %s %lu, "
	       "%s %lu; total %lu\n",
	       sizes.n, fn_names[0], per_fn[0], fn_names[1], per_fn[1],
	       fn_names[2], per_fn[2], fn_names[3], per_fn[3], n_cases);
	t_done("fault_matrix");
	return T_PASS;
}
