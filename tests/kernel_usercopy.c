/* SPDX-License-Identifier: MIT */
/*
 * Description: the Linux kernel's own usercopy test cases (lib's kunit
 * usercopy suite) redone for userspace: "user" memory is an mmap'ed region
 * set as this thread's user range, "kernel" memory is a buffer outside it;
 * and the check the suite grew with arm64's copy_to_user rewrite: a copy
 * that runs into a bad page returns exactly what it did not write, and no
 * byte past that count, nor after the destination, is modified.
 *
 * uaccess-test: per-strategy
 */
#include <stdint.h>

#include "test.h"

static size_t pg;
static char *umem; /* 2 pages, the user range */
static char *kmem; /* 2 pages, outside it */

static int
is_zeroed(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* check_zeroed_user agrees with a plain scan for every [start, end) of a
 * 1024-byte window across the page boundary */
static void
test_check_nonzero_user(void)
{
	size_t size = 1024, start = pg - size / 2, zs = size / 4,
	       ze = size - zs;
	char *k = kmem + start, *u = umem + start;
	size_t i, s, e;

	memset(k, 0, size);
	for (i = 1; i < zs; i += 2)
		k[i] = (char)0xff;
	for (i = ze; i < size; i += 2)
		k[i] = (char)0xff;
	CHECK_EQ(ua_copy_to_user(u, k, size), 0);
	for (s = 0; s <= size; s++)
		for (e = s; e <= size; e++)
			CHECK(ua_check_zeroed_user(u + s, e - s) ==
				  is_zeroed(k + s, e - s),
			      "start %zu end %zu", s, e);
}

static void
test_copy_struct_from_user(void)
{
	size_t size = 2 * pg;
	char *src = malloc(size), *want = malloc(size);

	CHECK(src && want, "malloc");
	memset(src, 0x3e, size);
	CHECK_EQ(ua_copy_to_user(umem, src, size), 0);
	/* usize == ksize */
	memset(kmem, 0, size);
	CHECK_EQ(ua_copy_struct_from_user(kmem, size, umem, size), 0);
	CHECK(!memcmp(kmem, src, size), "usize == ksize");
	/* old userspace: usize < ksize */
	memcpy(want, src, size / 2);
	memset(want + size / 2, 0, size / 2);
	memset(kmem, 0x77, size);
	CHECK_EQ(ua_copy_struct_from_user(kmem, size, umem, size / 2), 0);
	CHECK(!memcmp(kmem, want, size), "usize < ksize");
	/* new userspace, non-zero tail: -E2BIG */
	CHECK_EQ(ua_copy_struct_from_user(kmem, size / 2, umem, size), -E2BIG);
	/* new userspace, zero tail */
	CHECK_EQ(ua_clear_user(umem + size / 2, size / 2), 0);
	memset(kmem, 0, size);
	CHECK_EQ(ua_copy_struct_from_user(kmem, size / 2, umem, size), 0);
	CHECK(!memcmp(kmem, src, size / 2), "usize > ksize");
	free(src);
	free(want);
}

/* get_user/put_user's four sizes, each with a value to move */
#define EACH_SIZE(DO)                                                          \
	DO(uint8_t, 0x5a);                                                     \
	DO(uint16_t, 0x5a5b);                                                  \
	DO(uint32_t, 0x5a5b5c5d);                                              \
	DO(uint64_t, 0x5a5b5c5d6a6b6c6dull)

static void
test_valid(void)
{
	memset(kmem, 0x3a, 2 * pg);
	CHECK_EQ(ua_copy_to_user(umem, kmem, pg), 0);
	memset(kmem, 0, pg);
	CHECK_EQ(ua_copy_from_user(kmem, umem, pg), 0);
	CHECK(!memcmp(kmem, kmem + pg, pg), "legitimate copy");
#define LEGIT(type, val)                                                       \
	do {                                                                   \
		type v = (val);                                                \
		CHECK_EQ(ua_put_user(v, (type *)umem), 0);                     \
		v = 0;                                                         \
		CHECK_EQ(ua_get_user(v, (type *)umem), 0);                     \
		CHECK(v == (type)(val), "get_user " #type);                    \
	} while (0)
	EACH_SIZE(LEGIT);
#undef LEGIT
}

static void
test_invalid(void)
{
	uint64_t *k64 = (uint64_t *)kmem;

	memset(kmem, 0x5a, pg);
	memset(kmem + pg, 0, pg);
	/* kernel-to-kernel through copy_from_user: refused, dst zeroed */
	CHECK(ua_copy_from_user(kmem, kmem + pg, pg) != 0, "all-kernel from");
	CHECK(!memcmp(kmem + pg, kmem, pg), "zeroing failure");
	CHECK(ua_copy_to_user(kmem, kmem + pg, pg) != 0, "all-kernel to");
	CHECK(ua_copy_to_user(kmem, umem, pg) != 0, "reversed to");
#define ILLEGAL(type, val)                                                     \
	do {                                                                   \
		type v = (val);                                                \
		CHECK(ua_get_user(v, (type *)kmem) != 0, "get " #type);        \
		CHECK(v == 0, "zeroing failure for illegal get_user " #type);  \
		*k64 = 0xF09FA4AFF09FA4AFull;                                  \
		CHECK(ua_put_user(v, (type *)kmem) != 0, "put " #type);        \
		CHECK(*k64 == 0xF09FA4AFF09FA4AFull, "put wrote " #type);      \
	} while (0)
	EACH_SIZE(ILLEGAL);
#undef ILLEGAL
}

/*
 * The fault rule, at every start 1..FX_BEFORE bytes before the end of the
 * first page and every size 1..FX_MAX, the second page made read-only (the
 * writes) or PROT_NONE (the reads).  The count is exact: the first n - left
 * bytes hold the data; every byte from there to the bad page, every byte
 * after the destination (the rest of the page, and the bad page itself)
 * and before it keeps its canary.  For copy_from_user the trusted
 * destination holds the data and zeros, nothing after it changes.
 */
#define FX_BEFORE 80
#define FX_MAX 160
#define FX_CANARY 0x5c

static void
fx_check_user(const char *what, const char *u, size_t n, size_t left,
	      const unsigned char *want, const unsigned char *bad_page)
{
	size_t before = (size_t)(umem + pg - u), done = n < before ? n : before;
	size_t i;

	CHECK(left == n - done, "%s n=%zu, %zu before the bad page: left %zu",
	      what, n, before, left);
	if (left > n)
		left = n;
	for (i = 0; i < n - left; i++)
		CHECK((unsigned char)u[i] == want[i],
		      "%s n=%zu, %zu before: byte %zu not written", what, n,
		      before, i);
	/* from the count to the bad page, and after the destination */
	for (i = n - left; i < before; i++)
		CHECK((unsigned char)u[i] == FX_CANARY,
		      "%s n=%zu, %zu before: byte %zu past the count (left "
		      "%zu) = %#x",
		      what, n, before, i, left, (unsigned char)u[i]);
	for (i = 0; i < pg - before; i++)
		CHECK((unsigned char)umem[i] == FX_CANARY,
		      "%s n=%zu, %zu before: wrote before the destination",
		      what, n, before);
	CHECK(!memcmp(umem + pg, bad_page, pg),
	      "%s n=%zu, %zu before: the read-only page changed", what, n,
	      before);
}

static void
test_fault_exact(void)
{
	static unsigned char src[FX_MAX], zero[FX_MAX], bad_page[65536];
	size_t before, n, i;
	char *u;

	CHECK(pg <= sizeof(bad_page), "page size %zu", pg);
	t_fill(src, sizeof(src), 35);
	for (i = 0; i < sizeof(src); i++)
		if (src[i] == FX_CANARY || !src[i])
			src[i] = 0x17;
	t_fill(bad_page, pg, 4);
	memcpy(umem + pg, bad_page, pg);
	CHECK(!mprotect(umem + pg, pg, PROT_READ), "mprotect");
	for (before = 1; before <= FX_BEFORE; before++)
		for (n = 1; n <= FX_MAX; n++) {
			u = umem + pg - before;
			memset(umem, FX_CANARY, pg);
			fx_check_user("copy_to_user", u, n,
				      ua_copy_to_user(u, src, n), src,
				      bad_page);
			memset(umem, FX_CANARY, pg);
			fx_check_user("clear_user", u, n, ua_clear_user(u, n),
				      zero, bad_page);
		}
	/* copy_from_user: the user page after is PROT_NONE */
	CHECK(!mprotect(umem + pg, pg, PROT_NONE), "mprotect");
	memcpy(umem + pg - FX_BEFORE, src, FX_BEFORE);
	for (before = 1; before <= FX_BEFORE; before++)
		for (n = 1; n <= FX_MAX; n++) {
			size_t done = n < before ? n : before, left;
			unsigned char *d = (unsigned char *)kmem + 64;

			u = umem + pg - before;
			memset(kmem, FX_CANARY, 64 + FX_MAX + 64);
			left = ua_copy_from_user(d, u, n);
			CHECK(left == n - done,
			      "copy_from_user n=%zu, %zu before the bad page: "
			      "left %zu",
			      n, before, left);
			CHECK(!memcmp(d, u, done),
			      "copy_from_user n=%zu, %zu "
			      "before: data",
			      n, before);
			for (i = done; i < n; i++)
				CHECK(!d[i],
				      "copy_from_user n=%zu, %zu before: byte "
				      "%zu past the count = %#x, not zero",
				      n, before, i, d[i]);
			for (i = 0; i < 64; i++)
				CHECK(kmem[i] == FX_CANARY &&
					  d[n + i] == FX_CANARY,
				      "copy_from_user n=%zu, %zu before: wrote "
				      "outside the destination",
				      n, before);
		}
	CHECK(!mprotect(umem + pg, pg, PROT_READ | PROT_WRITE), "mprotect");
}

/*
 * put_user of 2, 4 and 8 bytes straddling the end of the writable page:
 * -EFAULT, and the bytes before the bad page unchanged (a store that
 * straddles may write its first part before the second faults)
 */
static void
test_put_user_straddle(void)
{
	size_t before;

	CHECK(!mprotect(umem + pg, pg, PROT_READ), "mprotect");
	for (before = 1; before < 8; before++) {
		char *u = umem + pg - before;
		size_t i;

		memset(umem + pg - 8, FX_CANARY, 8);
#define STRADDLE(type, val)                                                    \
	do {                                                                   \
		if (before < sizeof(type))                                     \
			CHECK(ua_put_user((type)(val), (type *)u) == -EFAULT,  \
			      "put_user " #type " %zu before", before);        \
	} while (0)
		STRADDLE(uint16_t, 0x1234);
		STRADDLE(uint32_t, 0x12345678);
		STRADDLE(uint64_t, 0x123456789abcdef0ull);
#undef STRADDLE
		for (i = 0; i < 8; i++)
			CHECK((unsigned char)umem[pg - 8 + i] == FX_CANARY,
			      "put_user %zu before the bad page wrote byte %zu",
			      before, i);
	}
	CHECK(!mprotect(umem + pg, pg, PROT_READ | PROT_WRITE), "mprotect");
}

int
main(void)
{
	t_require_forced_strategy();
	pg = t_page();
	umem = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	kmem = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(umem != MAP_FAILED && kmem != MAP_FAILED, "mmap");
	CHECK_EQ(ua_set_user_range(umem, 2 * pg), 0);
	test_valid();
	test_invalid();
	test_check_nonzero_user();
	test_copy_struct_from_user();
	test_fault_exact();
	test_put_user_straddle();
	t_done("kernel_usercopy");
	return T_PASS;
}
