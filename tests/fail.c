/* SPDX-License-Identifier: MIT */
/*
 * Description: usercopy fault injection (UACCESS_FAIL, ua_fail_usercopy):
 * the configured rate, interval and count of failures are met; every
 * public user-memory call can be made to fail; partial failures have every
 * postcondition of a real fault; ua_copy_struct_from_user and
 * ua_copy_strings handle injected failures as real ones; off, every call
 * works again and ua_memcpy never fails.
 * uaccess-test: per-strategy
 */
#include <limits.h>
#include <signal.h>
#include <stdint.h>

#include "test.h"

static const size_t sizes[] = {1, 7, 16, 63, 300, 512, 513, 4096, 70000};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
#define BIG 70000

static unsigned char src[BIG], dst[BIG];

static void
set(const char *spec)
{
	CHECK_EQ(ua_fail_usercopy(spec), 0);
}

/* probability, interval and times, as the kernel counts them */
static void
check_rates(void)
{
	long fails = 0, i;
	const long calls = 20000;

	set("probability=30:interval=1:times=-1:seed=7");
	for (i = 0; i < calls; i++)
		fails += ua_copy_from_user(dst, src, 64) == 64;
	/* 30% of 20000: 6000, sigma 65 */
	CHECK(fails > 5600 && fails < 6400, "probability 30: %ld of %ld", fails,
	      calls);
	set("probability=100:interval=4:times=-1");
	for (i = 1; i <= 400; i++)
		CHECK((ua_copy_to_user(dst, src, 8) == 8) == (i % 4 == 0),
		      "interval 4: call %ld", i);
	set("probability=100:times=5");
	for (fails = 0, i = 0; i < 100; i++)
		fails += ua_clear_user(dst, 32) != 0;
	CHECK_EQ(fails, 5);
	set("probability=50:interval=2:times=-1:seed=3");
	for (fails = 0, i = 0; i < calls; i++)
		fails += ua_copy_from_user(dst, src, 16) != 0;
	CHECK(fails > 4600 && fails < 5400, "interval 2, 50%%: %ld", fails);
	/* The kernel's defaults: one failure */
	set("probability=100");
	CHECK_EQ(ua_copy_from_user(dst, src, 8), 8);
	CHECK_EQ(ua_copy_from_user(dst, src, 8), 0);
	printf("rates, intervals and counts met\n");
}

#define check_last(a) check_last_at(a, __LINE__)
static void
check_last_at(const void *addr, int line)
{
	const struct ua_fault *f = ua_last_fault();

	CHECK(f->addr == addr, "line %d: last fault at %p, expected %p", line,
	      f->addr, addr);
	CHECK_EQ(f->signo, SIGSEGV);
}

/* Every public call that touches user memory fails */
static void
check_every_call(struct ua_argblock *ab)
{
	const char *const argv[] = {(const char *)src};
	char str[32];
	uint8_t u8 = 1;
	uint16_t u16 = 1;
	uint32_t u32 = 1;
	uint64_t u64 = 1;
	int v = 1;
	const unsigned char *up = src;
	size_t i;

	set("probability=100:times=-1:mode=whole");
	for (i = 0; i < NSIZES; i++) {
		size_t n = sizes[i];

		memset(dst, 0xa5, n);
		CHECK(ua_copy_from_user(dst, src, n) == n, "from %zu", n);
		CHECK(t_all(dst, n, 0), "from %zu: not zero-filled", n);
		check_last(src);
		memset(dst, 0xa5, n);
		CHECK(ua_copy_from_user_nocache(dst, src, n) == n,
		      "nocache %zu", n);
		CHECK(t_all(dst, n, 0), "nocache %zu: not zero-filled", n);
		memset(dst, 0xa5, n);
		CHECK(ua_copy_to_user(dst, src, n) == n, "to %zu", n);
		CHECK(t_all(dst, n, 0xa5), "to %zu wrote", n);
		check_last(dst);
		CHECK(ua_clear_user(dst, n) == n, "clear %zu", n);
		CHECK(t_all(dst, n, 0xa5), "clear %zu wrote", n);
		/* ua_memcpy has no user side */
		CHECK(ua_memcpy(dst, src, n) == dst && !memcmp(dst, src, n),
		      "memcpy %zu", n);
	}
	CHECK_EQ(ua_strnlen_user((const char *)src, 16), 0);
	CHECK_EQ(ua_strncpy_from_user(str, (const char *)src, 16), -EFAULT);
	check_last(src);
	CHECK(ua_get_user_u8(&u8, src) == -EFAULT && u8 == 0, "get u8");
	CHECK(ua_get_user_u16(&u16, src) == -EFAULT && u16 == 0, "get u16");
	CHECK(ua_get_user_u32(&u32, src) == -EFAULT && u32 == 0, "get u32");
	CHECK(ua_get_user_u64(&u64, src) == -EFAULT && u64 == 0, "get u64");
	memset(dst, 0xa5, 8);
	CHECK_EQ(ua_put_user_u8(1, dst), -EFAULT);
	CHECK_EQ(ua_put_user_u16(1, dst), -EFAULT);
	CHECK_EQ(ua_put_user_u32(1, dst), -EFAULT);
	CHECK_EQ(ua_put_user_u64(1, dst), -EFAULT);
	CHECK_EQ(ua_put_user(v, (int *)(void *)dst), -EFAULT);
	check_last(dst);
	CHECK(ua_get_user(v, (const int *)(const void *)src) == -EFAULT &&
		  v == 0,
	      "ua_get_user");
	check_last(src);
	CHECK(t_all(dst, 8, 0xa5), "a put wrote");
	CHECK_EQ(ua_check_zeroed_user(dst, 64), -EFAULT);
	CHECK_EQ(ua_copy_struct_from_user(dst, 64, src, 64), -EFAULT);
	CHECK_EQ(ua_copy_strings(ab, 1, argv), -EFAULT);
	CHECK(!ua_user_access_begin(up, 8), "ua_user_access_begin");
	check_last(src);

	/* Off: every call works again */
	set(NULL);
	CHECK_EQ(ua_copy_from_user(dst, src, 300), 0);
	CHECK_EQ(ua_copy_to_user(dst, src, 300), 0);
	CHECK_EQ(ua_clear_user(dst, 300), 0);
	CHECK_EQ(ua_get_user_u64(&u64, src), 0);
	CHECK_EQ(ua_put_user_u64(u64, dst), 0);
	CHECK_EQ(ua_strnlen_user("abc", 8), 4);
	up = src;
	CHECK(ua_user_access_begin(up, 8), "ua_user_access_begin");
	ua_user_access_end();
	printf("every user-memory call can be made to fail\n");
}

/* The bulk calls a partial failure cuts; clear_user's cut is in dst */
enum cut { CUT_FROM, CUT_NOCACHE, CUT_TO, CUT_CLEAR, CUTS };
static const char *const cut_names[] = {"from", "nocache", "to", "clear"};

static size_t
cut_call(enum cut c, size_t n)
{
	memset(dst, 0xa5, n);
	switch (c) {
	case CUT_FROM:
		return ua_copy_from_user(dst, src, n);
	case CUT_NOCACHE:
		return ua_copy_from_user_nocache(dst, src, n);
	case CUT_TO:
		return ua_copy_to_user(dst, src, n);
	default:
		return ua_clear_user(dst, n);
	}
}

/* A cut at byte k: the postconditions of a real fault at k */
static void
check_partial(void)
{
	size_t i, lo_k = SIZE_MAX, hi_k = 0;
	int t, c;

	set("probability=100:times=-1:mode=partial:seed=11");
	for (i = 0; i < NSIZES; i++) {
		size_t n = sizes[i];

		for (t = 0; t < 40; t++) {
			for (c = 0; c < CUTS; c++) {
				const char *what = cut_names[c];
				size_t r = cut_call((enum cut)c, n), k = n - r;
				/* a copy from user space zero-fills the rest */
				unsigned char rest = c < CUT_TO ? 0 : 0xa5;

				CHECK(r > 0 && r <= n, "%s %zu: %zu left", what,
				      n, r);
				CHECK((c == CUT_CLEAR ? t_all(dst, k, 0)
						      : !memcmp(dst, src, k)) &&
					  t_all(dst + k, r, rest),
				      "%s %zu cut at %zu: contents", what, n,
				      k);
				if (c == CUT_FROM || c == CUT_TO)
					check_last(c == CUT_FROM ? src + k
								 : dst + k);
				if (c == CUT_FROM && n == 4096) {
					lo_k = k < lo_k ? k : lo_k;
					hi_k = k > hi_k ? k : hi_k;
				}
			}
		}
	}
	CHECK(lo_k < 1024 && hi_k > 3072, "cuts of 4096 in [%zu, %zu]", lo_k,
	      hi_k);
	/* A string: a cut past its NUL is never reached */
	for (t = 0; t < 200; t++) {
		static const char s[] = "a string of 31 bytes and a NUL";
		char out[64];
		long r = ua_strncpy_from_user(out, s, 64);

		if (r == -EFAULT) {
			const char *a = ua_last_fault()->addr;

			CHECK(a >= s && a <= s + 30, "string cut at %p",
			      (const void *)a);
			CHECK(!memcmp(out, s, (size_t)(a - s)),
			      "string before the cut");
		} else {
			CHECK(r == 30 && !strcmp(out, s), "string: %ld", r);
		}
		r = ua_strnlen_user(s, 64);
		CHECK(r == 0 || r == 31, "strnlen: %ld", r);
	}
	set(NULL);
	printf("partial failures: exact counts, zeroed tails, last fault\n");
}

/* Injected failures reach the callers as real ones */
static void
check_callers(void)
{
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	size_t pg = t_page();
	char *u = l.bad - 40;
	struct ua_argblock *ab;
	const char *strs[3];
	long i;
	int r;

	/* copy_struct_from_user: a real fault, then an injected one */
	memset(l.base, 0, pg);
	CHECK_EQ(ua_copy_struct_from_user(dst, 64, u, 64), -EFAULT);
	CHECK_EQ(ua_copy_struct_from_user(dst, 32, u, 64), -EFAULT);
	for (i = 0; i < 50; i++) {
		set("probability=100:times=1:mode=partial");
		CHECK_EQ(ua_copy_struct_from_user(dst, 64, l.base, 64),
			 -EFAULT);
		set("probability=100:times=1:mode=partial");
		r = ua_copy_struct_from_user(dst, 32, l.base, 64);
		CHECK_EQ(r, -EFAULT);
	}
	set(NULL);
	CHECK_EQ(ua_copy_struct_from_user(dst, 32, l.base, 64), 0);

	/*
	 * copy_strings copies the last string first; a real fault on
	 * strs[1] keeps strs[2] in the block and gives -EFAULT.  Injected
	 * into each user access in turn, it must end the same way: -EFAULT,
	 * and the block holds whole strings only.
	 */
	strcpy(l.base, "first");
	strcpy(l.base + 100, "third");
	strs[0] = l.base;
	strs[1] = l.bad;
	strs[2] = l.base + 100;
	CHECK_EQ(ua_argblock_new(&ab, 1 << 16, 0), 0);
	CHECK_EQ(ua_copy_strings(ab, 3, strs), -EFAULT);
	CHECK_EQ(ua_argblock_size(ab), 6);
	ua_argblock_free(ab);
	strs[1] = l.base + 50;
	strcpy(l.base + 50, "second");
	for (i = 1; i < 20; i++) {
		char spec[96];
		char out[32];
		size_t sz;

		snprintf(spec, sizeof(spec),
			 "probability=100:interval=%ld:times=1:mode=%s", i,
			 i & 1 ? "partial" : "whole");
		CHECK_EQ(ua_argblock_new(&ab, 1 << 16, 0), 0);
		set(spec);
		r = ua_copy_strings(ab, 3, strs);
		set(NULL);
		sz = ua_argblock_size(ab);
		if (r == 0) {
			/* fewer user accesses than i: nothing failed */
			CHECK_EQ(sz, 19);
			ua_argblock_free(ab);
			break;
		}
		CHECK_EQ(r, -EFAULT);
		CHECK(sz == 0 || sz == 6 || sz == 13, "size %zu at %ld", sz, i);
		ua_argblock_read(ab, out, sz);
		CHECK(!memcmp(out, &"second\0third\0"[13 - sz], sz),
		      "block contents at %ld", i);
		ua_argblock_free(ab);
	}
	CHECK(i > 3 && i < 20, "copy_strings made %ld user accesses", i);
	t_layout_free(&l);
	printf("copy_struct_from_user and copy_strings: as real faults\n");
}

/*
 * UACCESS_FAIL in the environment, read at init: "fail --env N", run by
 * ctest with UACCESS_FAIL set (tests/CMakeLists.txt), expects N of 8
 * copies to fail
 */
static int
env_child(const char *want)
{
	int i, fails = 0;

	for (i = 0; i < 8; i++)
		fails += ua_copy_from_user(dst, src, 64) != 0;
	printf("UACCESS_FAIL=%s: %d of 8 copies failed, %s expected\n",
	       getenv("UACCESS_FAIL"), fails, want);
	return fails == atoi(want) ? T_PASS : T_FAIL;
}

static void
check_spec_errors(void)
{
	CHECK_EQ(ua_fail_usercopy("probability=101"), -EINVAL);
	CHECK_EQ(ua_fail_usercopy("times=-2"), -EINVAL);
	CHECK_EQ(ua_fail_usercopy("mode=whole:probability"), -EINVAL);
	CHECK_EQ(ua_fail_usercopy("probability=5:bogus=1"), -EINVAL);
	CHECK_EQ(ua_fail_usercopy("mode=sideways"), -EINVAL);
	CHECK_EQ(ua_fail_usercopy(""), 0);
	printf("bad specs refused\n");
}

int
main(int argc, char **argv)
{
	struct ua_argblock *ab;

	t_fill(src, sizeof(src), 1);
	if (argc > 2 && !strcmp(argv[1], "--env"))
		return env_child(argv[2]);
	t_require_forced_strategy();
	CHECK_EQ(ua_argblock_new(&ab, 1 << 16, 0), 0);
	check_rates();
	check_every_call(ab);
	check_partial();
	check_callers();
	check_spec_errors();
	ua_argblock_free(ab);
	t_done("fail");
	return T_PASS;
}
