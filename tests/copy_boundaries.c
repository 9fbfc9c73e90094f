/* SPDX-License-Identifier: MIT */
/*
 * Description: exact counts and data of copy_from_user, copy_to_user and
 * clear_user when the user side runs into a bad page (PROT_NONE, unmapped,
 * read-only, SIGBUS), for every start 0..128 bytes before it and sizes
 * 1..1100 around every class edge, and for every end 1..136 bytes into it
 * (the bulk loops' tails); nothing outside [dst, dst+n) is written.
 *
 * uaccess-test: per-strategy
 */
#include <signal.h>

#include "test.h"

#define MAX_N 1100
#define MAX_BEFORE 128
/* copies that end 1..MAX_AFTER bytes into the bad page: the bulk tails */
#define MAX_AFTER 136
#define CANARY 0xc3

static struct t_sizes sizes = {MAX_N, 0, {0}};

static void
make_sizes(void)
{
	size_t n, e;

	for (n = 1; n <= 300; n++)
		t_sizes_add(&sizes, n);
	for (e = 256; e <= 1024; e *= 2)
		for (n = e - 2; n <= e + 2; n++)
			t_sizes_add(&sizes, n);
	for (n = 301; n <= MAX_N; n += 37)
		t_sizes_add(&sizes, n);
	t_sizes_add(&sizes, MAX_N);
}

static void
check_fault(enum t_bad kind, const char *bad)
{
	const struct ua_fault *f = ua_last_fault();
	int want = kind == T_BAD_SIGBUS ? SIGBUS : SIGSEGV;

	CHECK(f->signo == want, "%s: signo %d, expected %d", t_bad_names[kind],
	      f->signo, want);
	CHECK((const char *)f->addr >= bad &&
		  (const char *)f->addr < bad + t_page(),
	      "%s: fault address %p outside the bad page %p", t_bad_names[kind],
	      f->addr, (const void *)bad);
}

/* One copy_from_user of n bytes starting before bytes before the bad page */
static void
from_user_case(enum t_bad kind, const struct t_layout *l, size_t before,
	       size_t n)
{
	static unsigned char dst[MAX_N + 128], want[MAX_N];
	const char *src = l->bad - before;
	size_t k, left, j;

	k = t_bad_blocks_read(kind) && n > before ? before : n;
	memset(dst, CANARY, sizeof(dst));
	memcpy(want, src, k);
	left = ua_copy_from_user(dst + 64, src, n);
	CHECK(left == n - k,
	      "%s: from_user(n=%zu, %zu before): left %zu, expected %zu",
	      t_bad_names[kind], n, before, left, n - k);
	CHECK(!memcmp(dst + 64, want, k), "%s: data n=%zu", t_bad_names[kind],
	      n);
	for (j = k; j < n; j++)
		CHECK(dst[64 + j] == 0, "%s: tail not zeroed at %zu (n=%zu)",
		      t_bad_names[kind], j, n);
	for (j = 0; j < 64; j++)
		CHECK(dst[j] == CANARY && dst[64 + n + j] == CANARY,
		      "%s: wrote outside dst (n=%zu)", t_bad_names[kind], n);
	if (k < n)
		check_fault(kind, l->bad);
}

static void
test_from_user(enum t_bad kind)
{
	struct t_layout l = t_layout_new(2, kind);
	size_t before, after, i;

	for (before = 0; before <= MAX_BEFORE; before++)
		for (i = 0; i < sizes.n; i++)
			from_user_case(kind, &l, before, sizes.v[i]);
	for (i = 0; i < sizes.n; i++)
		for (after = 1; after <= MAX_AFTER && after < sizes.v[i];
		     after++)
			if (sizes.v[i] - after > MAX_BEFORE)
				from_user_case(kind, &l, sizes.v[i] - after,
					       sizes.v[i]);
	t_layout_free(&l);
}

/* One copy_to_user (clear == 0) or clear_user (clear == 1) */
static void
to_user_case(enum t_bad kind, const struct t_layout *l, int clear,
	     size_t before, size_t n)
{
	static unsigned char src[MAX_N];
	static int filled;
	const char *what = clear ? "clear_user" : "to_user";
	size_t pg = t_page(), k, left, j;
	char *dst = l->bad - before;

	if (!filled) {
		t_fill(src, sizeof(src), 7);
		filled = 1;
	}
	k = n > before ? before : n;
	memset(l->bad - pg, CANARY, pg);
	left = clear ? ua_clear_user(dst, n) : ua_copy_to_user(dst, src, n);
	CHECK(left == n - k, "%s %s: n=%zu, %zu before: left %zu, expected %zu",
	      t_bad_names[kind], what, n, before, left, n - k);
	for (j = 0; j < k; j++)
		CHECK((unsigned char)dst[j] == (clear ? 0 : src[j]),
		      "%s %s: data at %zu (n=%zu)", t_bad_names[kind], what, j,
		      n);
	for (j = 0; j < pg - before; j++)
		CHECK((unsigned char)l->bad[-(long)pg + (long)j] == CANARY,
		      "%s %s: wrote before dst (n=%zu)", t_bad_names[kind],
		      what, n);
	if (kind == T_BAD_RDONLY)
		for (j = 0; j < 64; j++)
			CHECK(l->bad[j] == 0x5a, "%s: read-only page changed",
			      what);
	if (k < n)
		check_fault(kind, l->bad);
}

static void
test_to_user(enum t_bad kind, int clear)
{
	struct t_layout l = t_layout_new(2, kind);
	size_t before, after, i;

	for (before = 0; before <= MAX_BEFORE; before++)
		for (i = 0; i < sizes.n; i++)
			to_user_case(kind, &l, clear, before, sizes.v[i]);
	for (i = 0; i < sizes.n; i++)
		for (after = 1; after <= MAX_AFTER && after < sizes.v[i];
		     after++)
			if (sizes.v[i] - after > MAX_BEFORE)
				to_user_case(kind, &l, clear,
					     sizes.v[i] - after, sizes.v[i]);
	t_layout_free(&l);
}

int
main(void)
{
	int kind;

	t_require_forced_strategy();
	make_sizes();
	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		if (!t_bad_testable((enum t_bad)kind))
			continue;
		test_from_user((enum t_bad)kind);
		test_to_user((enum t_bad)kind, 0);
		test_to_user((enum t_bad)kind, 1);
	}
	t_done("copy_boundaries");
	return T_PASS;
}
