/* SPDX-License-Identifier: MIT */
/*
 * Description: copy_strings() order, page spanning, the top pointer, E2BIG
 * edges, identical backends and mapping counts.
 */
#include "argblock.h"

static size_t pg;

static struct ua_argblock *
t_new(size_t max, unsigned flags)
{
	struct ua_argblock *bp = NULL;
	int r = ua_argblock_new(&bp, max, flags);

	CHECK(r == 0 && bp, "ua_argblock_new(%zu, %u) = %d", max, flags, r);
	return bp;
}

/* The block's bytes must be exactly want[0..n) */
static void
t_check_bytes(const struct ua_argblock *bp, const char *want, size_t n)
{
	char *got = malloc(n + 16);
	size_t i;

	CHECK(got, "out of memory");
	CHECK_EQ(ua_argblock_size(bp), n);
	memset(got, 0x77, n + 16);
	CHECK_EQ(ua_argblock_read(bp, got, n + 16), n);
	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	CHECK(i == n, "byte %zu of %zu differs: %#x, expected %#x", i, n,
	      i < n ? (unsigned char)got[i] : 0,
	      i < n ? (unsigned char)want[i] : 0);
	CHECK_EQ((unsigned char)got[n], 0x77); /* nothing past n */
	free(got);
}

static void
test_arguments(void)
{
	struct ua_argblock *bp = (struct ua_argblock *)&bp, *keep = bp;
	const char *v[] = {"x"};
	char buf[4];

	CHECK_EQ(ua_argblock_new(NULL, 4096, 0), -EINVAL);
	CHECK_EQ(ua_argblock_new(&bp, 0, 0), -EINVAL);
	CHECK_EQ(ua_argblock_new(&bp, 4096, 4), -EINVAL);
	CHECK_EQ(ua_argblock_new(&bp, 4096, ~0u), -EINVAL);
	CHECK_EQ(ua_argblock_new(&bp, 4096, UA_ARGBLOCK_NO_MAP_CACHE), -EINVAL);
	CHECK_EQ(ua_argblock_new(&bp, (size_t)-1, 0), -EINVAL);
	CHECK(bp == keep, "*ret changed by a failed ua_argblock_new");

	CHECK_EQ(ua_copy_strings(NULL, 1, v), -EINVAL);
	CHECK_EQ(ua_copy_strings_kernel(NULL, 1, v), -EINVAL);
	CHECK_EQ(ua_argblock_size(NULL), 0);
	CHECK_EQ(ua_argblock_maps(NULL), 0);
	CHECK_EQ(ua_argblock_read(NULL, buf, 1), 0);
	ua_argblock_free(NULL);

	bp = t_new(100, 0);
	CHECK_EQ(ua_copy_strings(bp, -1, v), -EINVAL);
	CHECK_EQ(ua_copy_strings_kernel(bp, -1, v), -EINVAL);
	CHECK_EQ(ua_copy_strings(bp, 0, NULL), 0);
	CHECK_EQ(ua_copy_strings_kernel(bp, 0, NULL), 0);
	CHECK_EQ(ua_copy_strings_kernel(bp, 1, NULL), -EFAULT);
	CHECK_EQ(ua_argblock_size(bp), 0);
	ua_argblock_free(bp);
}

/* Strings last to first, each below the previous; calls stack downwards */
static void
test_order(unsigned flags)
{
	const char *a[] = {"first", "", "third arg"};
	const char *b[] = {"env=1", "env=2"};
	const char *f[] = {"/bin/true"};
	const char *const *calls[] = {f, b, a};
	int counts[] = {1, 2, 3};
	char want[64];
	struct ua_argblock *bp = t_new(1000, flags);
	size_t n;

	CHECK_EQ(ua_copy_strings_kernel(bp, 1, f), 0);
	CHECK_EQ(ua_argblock_size(bp), 10);
	CHECK_EQ(ua_copy_strings(bp, 2, b), 0);
	CHECK_EQ(ua_argblock_size(bp), 22);
	CHECK_EQ(ua_copy_strings(bp, 3, a), 0);
	n = t_expect(want, calls, counts, 3);
	CHECK_EQ(n, 39);
	t_check_bytes(bp, want, n);
	CHECK(!memcmp(want, "first\0\0third arg\0env=1\0env=2\0/bin/true", n),
	      "model");

	/* A short read gets the lowest bytes */
	{
		char got[8] = {0};

		CHECK_EQ(ua_argblock_read(bp, got, 7), 7);
		CHECK(!memcmp(got, "first\0\0", 7), "short read");
	}
	ua_argblock_free(bp);

	/*
	 * Which strings made it when the block fills up shows the order:
	 * "c" then "bb" fit exactly, "aaaa" does not.
	 */
	{
		const char *v[] = {"aaaa", "bb", "c"};

		bp = t_new(5, flags);
		CHECK_EQ(ua_copy_strings(bp, 3, v), -E2BIG);
		t_check_bytes(bp, "bb\0c", 5);
		ua_argblock_free(bp);
	}
}

/* Strings across page boundaries, longer than a page, block not page sized */
static void
test_spanning(unsigned flags)
{
	size_t max = 3 * pg + 100, big = 2 * pg + 77, i;
	char *s1 = malloc(big + 1), *s2 = malloc(pg + 1), *want = malloc(max);
	const char *v[4];
	struct ua_argblock *bp = t_new(max, flags);
	size_t top;

	CHECK(s1 && s2 && want, "out of memory");
	t_fill(s1, big, 1);
	t_fill(s2, pg, 2);
	for (i = 0; i < big; i++)
		s1[i] = s1[i] ? s1[i] : 'z';
	for (i = 0; i < pg; i++)
		s2[i] = s2[i] ? s2[i] : 'y';
	s1[big] = '\0';
	s2[pg - 300] = '\0'; /* crosses a page boundary once placed */
	v[0] = s1;
	v[1] = "tiny";
	v[2] = s2;
	v[3] = "top";

	/* The top pointer only decreases, by each call's bytes */
	CHECK_EQ(ua_copy_strings(bp, 2, v + 2), 0);
	top = ua_argblock_size(bp);
	CHECK_EQ(top, strlen(s2) + 1 + 4);
	CHECK_EQ(ua_copy_strings(bp, 2, v), 0);
	CHECK_EQ(ua_argblock_size(bp), top + big + 1 + 5);
	{
		const char *const *calls[] = {v + 2, v};
		int counts[] = {2, 2};
		size_t n = t_expect(want, calls, counts, 2);

		t_check_bytes(bp, want, n);
	}
	ua_argblock_free(bp);
	free(s1);
	free(s2);
	free(want);
}

/* E2BIG: exactly fits, one byte too many, and a full block */
static void
test_e2big(unsigned flags)
{
	char s[3000];
	const char *v[] = {s, "abc", s};
	size_t total, i;
	struct ua_argblock *bp;

	memset(s, 'q', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	total = 2 * sizeof(s) + 4;

	for (i = 0; i < 2; i++) {
		int (*copy)(struct ua_argblock *, int, const char *const *) =
		    i ? ua_copy_strings_kernel : ua_copy_strings;

		bp = t_new(total, flags);
		CHECK_EQ(copy(bp, 3, v), 0);
		CHECK_EQ(ua_argblock_size(bp), total);
		/* Full: the next string, even "", is too big */
		CHECK_EQ(copy(bp, 1, v + 1), -E2BIG);
		CHECK_EQ(copy(bp, 0, v + 1), 0);
		CHECK_EQ(ua_argblock_size(bp), total);
		ua_argblock_free(bp);

		bp = t_new(total - 1, flags);
		CHECK_EQ(copy(bp, 3, v), -E2BIG);
		/* The last two fit; the top pointer stayed above the first */
		CHECK_EQ(ua_argblock_size(bp), sizeof(s) + 4);
		ua_argblock_free(bp);

		/* One string, exactly its size, then one byte short */
		bp = t_new(4, flags);
		CHECK_EQ(copy(bp, 1, v + 1), 0);
		t_check_bytes(bp, "abc", 4);
		ua_argblock_free(bp);
		bp = t_new(3, flags);
		CHECK_EQ(copy(bp, 1, v + 1), -E2BIG);
		CHECK_EQ(ua_argblock_size(bp), 0);
		ua_argblock_free(bp);
	}
}

/*
 * The mappings the algorithm makes, derived from the string lengths alone:
 * one per piece (a string's part within one page) without the cache, one
 * per change of page with it, counted from zero at each call.
 */
static unsigned long
t_model_maps(size_t *top, const char *const *v, int argc, int cache)
{
	unsigned long maps = 0;
	size_t last = (size_t)-1;

	while (argc-- > 0) {
		size_t len = strlen(v[argc]) + 1, pos;

		*top -= len;
		for (pos = *top; pos < *top + len; pos = (pos / pg + 1) * pg) {
			if (!cache || pos / pg != last)
				maps++;
			last = pos / pg;
		}
	}
	return maps;
}

static void
test_maps(void)
{
	struct t_cmdline c = t_cmdline_new(300, 40, 4);
	const char *fn[] = {"/usr/lib/gcc/x86_64-linux-gnu/14/cc1"};
	const char *const *calls[] = {fn, (const char *const *)c.envp,
				      (const char *const *)c.argv};
	int counts[] = {1, c.envc, c.argc};
	size_t max = 32 * pg, n;
	unsigned long maps[T_NBACKENDS];
	char *want = malloc(max), *got = malloc(max);
	int b, k;

	CHECK(want && got, "out of memory");
	n = t_expect(want, calls, counts, 3);
	for (b = 0; b < T_NBACKENDS; b++) {
		struct ua_argblock *bp = t_new(max, t_backends[b]);
		int cache = !(t_backends[b] & UA_ARGBLOCK_NO_MAP_CACHE);
		unsigned long model = 0;
		size_t top = max;

		for (k = 0; k < 3; k++) {
			CHECK_EQ(ua_copy_strings(bp, counts[k], calls[k]), 0);
			model += t_model_maps(&top, calls[k], counts[k], cache);
			if (t_backends[b])
				CHECK_EQ(ua_argblock_maps(bp), model);
		}
		/* All three backends hold the same bytes */
		t_check_bytes(bp, want, n);
		maps[b] = ua_argblock_maps(bp);
		/* Reading makes no mapping */
		CHECK_EQ(ua_argblock_read(bp, got, max), n);
		CHECK_EQ(ua_argblock_maps(bp), maps[b]);
		ua_argblock_free(bp);
	}
	CHECK_EQ(maps[0], 0);
	/* Without the cache: one mapping per string at least */
	CHECK(maps[2] >= 341, "no-cache maps %lu", maps[2]);
	CHECK(maps[2] >= 30 * maps[1], "maps with cache %lu, without %lu",
	      maps[1], maps[2]);
	printf("compiler command line (%zu bytes): maps %lu with the cache, "
	       "%lu without (%.1fx)\n",
	       n, maps[1], maps[2], (double)maps[2] / (double)maps[1]);

	/* Hand-counted: a string over a page boundary between two others */
	{
		char s[5000];
		const char *v[] = {"low", s, "top"};
		struct ua_argblock *bp;

		memset(s, 's', sizeof(s) - 1);
		s[sizeof(s) - 1] = '\0';
		/* top: page 1; s: pages 0 and 1; low: page 0 */
		bp = t_new(2 * pg, UA_ARGBLOCK_WINDOWED);
		CHECK_EQ(ua_copy_strings(bp, 3, v), 0);
		CHECK_EQ(ua_argblock_maps(bp), 4);
		/* A new call starts with nothing mapped */
		CHECK_EQ(ua_copy_strings(bp, 1, v), 0);
		CHECK_EQ(ua_argblock_maps(bp), 5);
		ua_argblock_free(bp);
		bp = t_new(2 * pg,
			   UA_ARGBLOCK_WINDOWED | UA_ARGBLOCK_NO_MAP_CACHE);
		CHECK_EQ(ua_copy_strings(bp, 3, v), 0);
		CHECK_EQ(ua_argblock_maps(bp), 4);
		CHECK_EQ(ua_copy_strings(bp, 1, v + 2), 0);
		CHECK_EQ(ua_argblock_maps(bp), 5);
		ua_argblock_free(bp);
		bp = t_new(8 * pg, UA_ARGBLOCK_WINDOWED);
		CHECK_EQ(ua_copy_strings(bp, 1, v + 2), 0);
		CHECK_EQ(ua_copy_strings(bp, 1, v + 2), 0);
		CHECK_EQ(ua_argblock_maps(bp), 2);
		ua_argblock_free(bp);
	}
	t_cmdline_free(&c);
	free(want);
	free(got);
}

/* User and kernel copies build the same block; errno is never touched */
static void
test_kernel_and_errno(unsigned flags)
{
	struct t_cmdline c = t_cmdline_new(50, 10, 9);
	struct ua_argblock *u = t_new(64 * 1024, flags);
	struct ua_argblock *k = t_new(64 * 1024, flags);
	char *bu = malloc(64 * 1024), *bk = malloc(64 * 1024);
	const char *bad[] = {(const char *)8};
	struct ua_argblock *none = NULL;

	CHECK(bu && bk, "out of memory");
	errno = 4242;
	CHECK_EQ(ua_copy_strings(u, c.envc, (const char *const *)c.envp), 0);
	CHECK_EQ(ua_copy_strings(u, c.argc, (const char *const *)c.argv), 0);
	CHECK_EQ(ua_copy_strings_kernel(k, c.envc, (const char *const *)c.envp),
		 0);
	CHECK_EQ(ua_copy_strings_kernel(k, c.argc, (const char *const *)c.argv),
		 0);
	CHECK_EQ(ua_copy_strings(u, 1, bad), -EFAULT);
	CHECK_EQ(ua_copy_strings(u, 1, (const char *const *)16), -EFAULT);
	CHECK_EQ(ua_argblock_new(&none, 0, flags), -EINVAL);
	CHECK_EQ(errno, 4242);
	CHECK_EQ(ua_argblock_size(u), ua_argblock_size(k));
	CHECK_EQ(ua_argblock_read(u, bu, 64 * 1024), ua_argblock_size(u));
	CHECK_EQ(ua_argblock_read(k, bk, 64 * 1024), ua_argblock_size(k));
	CHECK_EQ(errno, 4242);
	CHECK(!memcmp(bu, bk, ua_argblock_size(u)), "user and kernel differ");
	ua_argblock_free(u);
	ua_argblock_free(k);
	CHECK_EQ(errno, 4242);
	free(bu);
	free(bk);
	t_cmdline_free(&c);
}

int
main(void)
{
	int b;

	pg = t_page();
	test_arguments();
	for (b = 0; b < T_NBACKENDS; b++) {
		test_order(t_backends[b]);
		test_spanning(t_backends[b]);
		test_e2big(t_backends[b]);
		test_kernel_and_errno(t_backends[b]);
	}
	test_maps();
	t_done("argblock");
	return T_PASS;
}
