/* SPDX-License-Identifier: MIT */
/*
 * Description: the Linux kernel's own usercopy test cases (lib's kunit
 * usercopy suite) redone for userspace: "user" memory is an mmap'ed region
 * set as this thread's user range, "kernel" memory is a buffer outside it.
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
	LEGIT(uint8_t, 0x5a);
	LEGIT(uint16_t, 0x5a5b);
	LEGIT(uint32_t, 0x5a5b5c5d);
	LEGIT(uint64_t, 0x5a5b5c5d6a6b6c6dull);
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
	ILLEGAL(uint8_t, 0x5a);
	ILLEGAL(uint16_t, 0x5a5b);
	ILLEGAL(uint32_t, 0x5a5b5c5d);
	ILLEGAL(uint64_t, 0x5a5b5c5d6a6b6c6dull);
#undef ILLEGAL
}

int
main(void)
{
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
	t_done("kernel_usercopy");
	return T_PASS;
}
