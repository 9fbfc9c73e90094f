/* SPDX-License-Identifier: MIT */
/*
 * Description: strnlen_user and strncpy_from_user with the kernel's return
 * values: length with the NUL, n + 1 or n when too long, 0 or -EFAULT on a
 * fault; strings that end right before a hole succeed at every alignment.
 */
#include "test.h"

static void
test_plain(void)
{
	char dst[64];
	long n;

	CHECK_EQ(ua_strnlen_user("hello", 100), 6);
	CHECK_EQ(ua_strnlen_user("", 100), 1);
	CHECK_EQ(ua_strnlen_user("hello", 6), 6);
	CHECK_EQ(ua_strnlen_user("hello", 5), 6); /* too long: > n */
	CHECK_EQ(ua_strnlen_user("hello", 1), 2);
	CHECK_EQ(ua_strnlen_user("hello", 0), 0);
	CHECK_EQ(ua_strnlen_user("hello", -5), 0);

	memset(dst, 'x', sizeof(dst));
	CHECK_EQ(ua_strncpy_from_user(dst, "hello", 100), 5);
	CHECK(!strcmp(dst, "hello"), "copied");
	CHECK(dst[6] == 'x', "nothing written after the NUL");
	memset(dst, 'x', sizeof(dst));
	CHECK_EQ(ua_strncpy_from_user(dst, "hello", 5), 5); /* truncated */
	CHECK(!memcmp(dst, "hello", 5) && dst[5] == 'x',
	      "no NUL when truncated");
	CHECK_EQ(ua_strncpy_from_user(dst, "hello", 6), 5);
	CHECK_EQ(ua_strncpy_from_user(dst, "", 6), 0);
	CHECK_EQ(ua_strncpy_from_user(dst, "hello", 0), 0);
	CHECK_EQ(ua_strncpy_from_user(dst, "hello", -1), 0);

	/* Long strings at every alignment: the word loop and its edges */
	{
		static char s[600];
		long off, len;

		for (off = 0; off < 16; off++)
			for (len = 0; len < 300; len += 7) {
				memset(s, 'q', sizeof(s));
				s[off + len] = 0;
				CHECK_EQ(ua_strnlen_user(s + off, 500),
					 len + 1);
				if (len > 0) /* too long for n = len */
					CHECK_EQ(ua_strnlen_user(s + off, len),
						 len + 1);
				n = ua_strncpy_from_user(dst, s + off,
							 len < 63 ? 63 : 0);
				if (len < 63) {
					CHECK_EQ(n, len);
					CHECK(!memcmp(dst, s + off,
						      (size_t)len + 1),
					      "data");
				}
			}
	}
}

/* Strings whose last bytes sit right before a bad page */
static void
test_at_hole(enum t_bad kind)
{
	struct t_layout l = t_layout_new(1, kind);
	char dst[200];
	long len;

	if (!t_bad_blocks_read(kind)) {
		t_layout_free(&l);
		return;
	}
	for (len = 0; len < 150; len++) {
		char *s = l.bad - len - 1;

		memset(l.bad - 200, 'z', 200);
		l.bad[-1] = 0;
		CHECK_EQ(ua_strnlen_user(s, 1000), len + 1);
		CHECK_EQ(ua_strnlen_user(s, len + 1), len + 1);
		CHECK_EQ(ua_strnlen_user(s, len), len ? len + 1 : 0);
		CHECK_EQ(ua_strncpy_from_user(dst, s, 1000), len);
		CHECK(!memcmp(dst, s, (size_t)len + 1), "data at hole");
		/* No NUL before the hole: a fault, unless n stops first */
		l.bad[-1] = 'z';
		CHECK_EQ(ua_strnlen_user(s, 1000), 0);
		CHECK_EQ(ua_strncpy_from_user(dst, s, 1000), -EFAULT);
		CHECK_EQ(ua_strnlen_user(s, len + 1), len + 2);
		CHECK_EQ(ua_strncpy_from_user(dst, s, len + 1), len + 1);
		CHECK(ua_last_fault()->signo ==
			  (kind == T_BAD_SIGBUS ? SIGBUS : SIGSEGV),
		      "fault recorded");
	}
	/* Starting in the bad page */
	CHECK_EQ(ua_strnlen_user(l.bad, 10), 0);
	CHECK_EQ(ua_strncpy_from_user(dst, l.bad, 10), -EFAULT);
	t_layout_free(&l);
}

int
main(void)
{
	int kind;

	test_plain();
	for (kind = 0; kind < T_BAD_KINDS; kind++)
		test_at_hole((enum t_bad)kind);
	t_done("strings");
	return T_PASS;
}
