/* SPDX-License-Identifier: MIT */
/*
 * Description: access_ok and the per-thread user range: the default range,
 * non-canonical and kernel-half pointers, wrapping ranges, n == 0, and
 * ua_set_user_range; calls outside the range touch nothing.
 */
/* Copies of SIZE_MAX bytes from a 64-byte buffer are what this test checks
 * the range rules with; under _FORTIFY_SOURCE (a distribution's build
 * flags) the copy-size check would stop them first, by design */
#undef _FORTIFY_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "test.h"

/* TOP: the lowest address above every user range this test may meet */
#if defined(__x86_64__)
#define TOP ((uintptr_t)1 << 47) /* first non-canonical (4-level) */
static const uintptr_t bad_ptrs[] = {
    0,
    1,
    4095,
    TOP,
    0x0000800000001000ull,
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0xffff800000000000ull, /* kernel half */
    0xffffffffff600000ull, /* vsyscall page */
    UINTPTR_MAX,
};
#elif defined(__aarch64__)
#define TOP ((uintptr_t)1 << 52) /* above 48-bit and 52-bit (LVA) VAs */
static const uintptr_t bad_ptrs[] = {
    0,
    1,
    4095,
    TOP,
    0x0100000000001000ull, /* tagged: TBI would access 0x1000 */
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0xffff000000000000ull, /* kernel half */
    UINTPTR_MAX,
};
#elif defined(__i386__)
#define TOP ((uintptr_t)0xffffe000u) /* a 32-bit task on x86-64 ends here */
static const uintptr_t bad_ptrs[] = {
    0, 1, 4095, TOP, 0xfffff000u, UINTPTR_MAX,
};
#else
#error "tests/range.c: no bad pointers for this architecture"
#endif

static void
check_rejected(uintptr_t u, size_t n)
{
	unsigned char buf[64];
	uint64_t v = 77;
	size_t i;

	CHECK(!ua_access_ok((void *)u, n), "access_ok(%#lx, %zu)",
	      (unsigned long)u, n);
	memset(buf, 0xab, sizeof(buf));
	if (n <= sizeof(buf)) {
		/* from_user zero-fills all of dst: only for small n */
		CHECK_EQ(ua_copy_from_user(buf, (void *)u, n), n);
		for (i = 0; i < n; i++)
			CHECK(buf[i] == 0, "from_user must zero dst");
		memset(buf, 0xab, sizeof(buf));
		CHECK_EQ(ua_copy_from_user_nocache(buf, (void *)u, n), n);
		for (i = 0; i < n; i++)
			CHECK(buf[i] == 0, "from_user_nocache must zero dst");
	}
	CHECK_EQ(ua_copy_to_user((void *)u, buf, n), n);
	CHECK_EQ(ua_clear_user((void *)u, n), n);
	if (n == 1 || n == 2 || n == 4 || n == 8) {
		CHECK_EQ(ua__get_user_n(&v, (void *)u, n), -EFAULT);
		CHECK_EQ(v, 0);
		CHECK_EQ(ua__put_user_n(1, (void *)u, n), -EFAULT);
	}
	if ((long)n > 0 && n <= sizeof(buf)) {
		CHECK_EQ(ua_strnlen_user((const char *)u, (long)n), 0);
		CHECK_EQ(
		    ua_strncpy_from_user((char *)buf, (const char *)u, (long)n),
		    -EFAULT);
	}
	CHECK_EQ(ua_check_zeroed_user((void *)u, n), -EFAULT);
}

static void *
other_thread(void *arg)
{
	char *p = arg;
	unsigned char buf[300];
	size_t i;

	/* The range is per thread: this one still has the default, also in
	 * the entries, which look at it once any thread has had its own */
	CHECK(ua_access_ok(p - 4096, 1), "default range in another thread");
	memset(buf, 0x22, sizeof(buf));
	CHECK_EQ(ua_copy_to_user(p - 4096, buf, sizeof(buf)), 0);
	CHECK_EQ(ua_copy_from_user(buf, p - 4096 + 8, sizeof(buf)), 0);
	CHECK_EQ(ua_copy_from_user_nocache(buf, p - 4096, 8), 0);
	CHECK(buf[0] == 0x22 && buf[7] == 0x22, "copied in another thread");
	/* ... and refuses what it refused before any thread had its own */
	for (i = 0; i < sizeof(bad_ptrs) / sizeof(bad_ptrs[0]); i++)
		check_rejected(bad_ptrs[i], 8);
	check_rejected((uintptr_t)p, SIZE_MAX);
	check_rejected(TOP - 4096, 8192);
	return NULL;
}

int
main(void)
{
	size_t pg = t_page(), i;
	char *p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char buf[64];
	pthread_t th;

	CHECK(p != MAP_FAILED, "mmap");
	CHECK_EQ(ua_init(), 0);
	CHECK_EQ(ua_init(), 0);

	/* n == 0 is always fine, and copies nothing */
	for (i = 0; i < sizeof(bad_ptrs) / sizeof(bad_ptrs[0]); i++) {
		CHECK(ua_access_ok((void *)bad_ptrs[i], 0), "n == 0");
		CHECK_EQ(ua_copy_from_user(buf, (void *)bad_ptrs[i], 0), 0);
		CHECK_EQ(ua_copy_to_user((void *)bad_ptrs[i], buf, 0), 0);
		check_rejected(bad_ptrs[i], 1);
		check_rejected(bad_ptrs[i], 8);
	}
	/* Ranges that wrap or leave the user half */
	CHECK(!ua_access_ok(p, SIZE_MAX), "huge n");
	CHECK(!ua_access_ok(p, (size_t)0 - (uintptr_t)p + 1), "wrap");
	CHECK(!ua_access_ok((void *)(TOP - 8), 16), "crosses the top");
	check_rejected((uintptr_t)p, SIZE_MAX);
	check_rejected(TOP - 4096, 8192);
	CHECK(ua_access_ok(p, 4 * pg), "a real mapping");
	CHECK(ua_access_ok((void *)4096, 1), "first page above zero");

	/* A per-thread range: [p + pg, p + 3 pg) */
	CHECK_EQ(ua_set_user_range(p + pg, 2 * pg), 0);
	CHECK(ua_access_ok(p + pg, 2 * pg), "inside");
	CHECK(!ua_access_ok(p + pg - 1, 2), "below");
	CHECK(!ua_access_ok(p + 3 * pg - 1, 2), "above");
	CHECK(ua_access_ok(p + 3 * pg - 1, 1), "last byte");
	memset(p, 0x11, 4 * pg);
	check_rejected((uintptr_t)p + pg - 1, 2);
	check_rejected((uintptr_t)p + 3 * pg - 1, 2);
	for (i = 0; i < pg; i++)
		CHECK(p[i] == 0x11 && p[3 * pg + i] == 0x11,
		      "outside the range was written");
	/* Strings stop at the end of the range: 0 for strnlen_user */
	memset(p + 3 * pg - 8, 'a', 8);
	CHECK_EQ(ua_strnlen_user(p + 3 * pg - 8, 100), 0);
	CHECK_EQ(ua_strncpy_from_user((char *)buf, p + 3 * pg - 8, 100),
		 -EFAULT);
	CHECK_EQ(ua_strnlen_user(p + 3 * pg - 8, 8), 9);
	CHECK_EQ(ua_strncpy_from_user((char *)buf, p + 3 * pg - 8, 8), 8);
	CHECK(pthread_create(&th, NULL, other_thread, p + pg) == 0, "thread");
	pthread_join(th, NULL);

	/* Invalid ranges are refused and change nothing */
	CHECK_EQ(ua_set_user_range(NULL, pg), -EINVAL);
	CHECK_EQ(ua_set_user_range((void *)(TOP - pg), 2 * pg), -EINVAL);
	CHECK_EQ(ua_set_user_range(p, SIZE_MAX), -EINVAL);
	CHECK(!ua_access_ok(p, 1), "range unchanged after -EINVAL");
	/* len 0: back to the default */
	CHECK_EQ(ua_set_user_range(p, 0), 0);
	CHECK(ua_access_ok(p, 4 * pg), "default again");
	CHECK_EQ(ua_copy_to_user(p, buf, sizeof(buf)), 0);
	CHECK_EQ(ua_copy_from_user(buf, p + 4 * pg - sizeof(buf), sizeof(buf)),
		 0);
	for (i = 0; i < sizeof(bad_ptrs) / sizeof(bad_ptrs[0]); i++)
		check_rejected(bad_ptrs[i], 8);
	check_rejected((uintptr_t)p, SIZE_MAX);
	munmap(p, 4 * pg);
	t_done("range");
	return T_PASS;
}
