/* SPDX-License-Identifier: MIT */
/*
 * Description: the first page is outside the default user range even when
 * it is mapped (root may map it: vm.mmap_min_addr does not bind
 * CAP_SYS_RAWIO): every call that starts there is refused, copies nothing,
 * writes nothing there and records no fault, at every size the entries
 * copy themselves and the sizes they hand to the strategies.  Skips where
 * the first page cannot be mapped.
 *
 * uaccess-test: per-strategy
 * uaccess-test: static
 */
#include "test.h"

#define FILL 0x5a
#define POISON 0xee

/*
 * The first page is at address 0: the test reaches it through ua_memcpy
 * and integer addresses only, so that neither the compiler nor UBSan sees
 * a null pointer dereferenced or offset
 */
static uintptr_t base;
static size_t pg;
static unsigned char *fill, *seen;

#define AT(off) ((void *)(base + (off)))

/* The first page still holds FILL in every byte */
static void
check_page0(const char *what, size_t n)
{
	size_t i;

	ua_memcpy(seen, AT(0), pg);
	for (i = 0; i < pg; i++)
		CHECK(seen[i] == FILL,
		      "%s, n %zu: byte %zu of the first page is %#x", what, n,
		      i, seen[i]);
}

static void
check_refused(size_t off, size_t n, unsigned char *buf)
{
	const void *u = AT(off);
	const struct ua_fault *f = ua_last_fault();
	const struct ua_fault before = *f;
	static size_t (*const from[])(void *, const void *, size_t) = {
	    ua_copy_from_user, ua_copy_from_user_nocache};
	static const char *const from_name[] = {"copy_from_user",
						"copy_from_user_nocache"};
	size_t i, k;

	CHECK(!ua_access_ok(u, n), "access_ok(%p, %zu) holds", u, n);

	for (k = 0; k < 2; k++) {
		memset(buf, POISON, n);
		CHECK_EQ(from[k](buf, u, n), n);
		for (i = 0; i < n; i++)
			CHECK(buf[i] == 0,
			      "%s(%p, %zu): dst[%zu] = %#x, not zeroed",
			      from_name[k], u, n, i, buf[i]);
	}

	memset(buf, POISON, n);
	CHECK_EQ(ua_copy_to_user(AT(off), buf, n), n);
	check_page0("copy_to_user", n);
	CHECK_EQ(ua_clear_user(AT(off), n), n);
	check_page0("clear_user", n);

	CHECK_EQ(ua_strnlen_user((const char *)u, (long)n), 0);
	CHECK_EQ(ua_strncpy_from_user((char *)buf, (const char *)u, (long)n),
		 -EFAULT);
	CHECK_EQ(ua_check_zeroed_user(u, n), -EFAULT);
	CHECK_EQ(ua_copy_struct_from_user(buf, n, u, n), -EFAULT);

	CHECK(f->addr == before.addr && f->signo == before.signo &&
		  f->code == before.code,
	      "a refused call at %p, n %zu, recorded a fault at %p (signal "
	      "%d)",
	      u, n, f->addr, f->signo);
}

int
main(void)
{
	static const size_t sizes[] = {1,    7,    16,   31,   32,  63,
				       64,   65,   128,  200,  256, 512,
				       1000, 1024, 1025, 2048, 3000};
	static const size_t offs[] = {0, 8, 1000};
	unsigned char *buf, *u;
	void *p;
	uint64_t u64 = 1;
	uint32_t u32 = 1;
	uint16_t u16 = 1;
	uint8_t u8 = 1;
	size_t i, j;

	pg = t_page();
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		printf("first_page: the first page cannot be mapped here "
		       "(%s): skipped\n",
		       strerror(errno));
		return T_SKIP;
	}
	base = (uintptr_t)p;
	CHECK(base == 0, "MAP_FIXED at 0 gave %p", p);
	buf = malloc(pg);
	fill = malloc(pg);
	seen = malloc(pg);
	CHECK(buf && fill && seen, "malloc");
	memset(fill, FILL, pg);
	ua_memcpy(AT(0), fill, pg);
	CHECK_EQ(ua_init(), 0);

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++)
			if (offs[i] + sizes[j] <= pg)
				check_refused(offs[i], sizes[j], buf);
	/* Starting in the first page and running past it: refused whole */
	check_refused(pg - 16, 64, buf);

	CHECK_EQ(ua_get_user_u8(&u8, AT(1)), -EFAULT);
	CHECK_EQ(ua_get_user_u16(&u16, AT(2)), -EFAULT);
	CHECK_EQ(ua_get_user_u32(&u32, AT(4)), -EFAULT);
	CHECK_EQ(ua_get_user_u64(&u64, AT(8)), -EFAULT);
	CHECK(u8 == 0 && u16 == 0 && u32 == 0 && u64 == 0,
	      "a refused get_user left its result non-zero");
	CHECK_EQ(ua_put_user_u8(1, AT(1)), -EFAULT);
	CHECK_EQ(ua_put_user_u16(1, AT(2)), -EFAULT);
	CHECK_EQ(ua_put_user_u32(1, AT(4)), -EFAULT);
	CHECK_EQ(ua_put_user_u64(1, AT(8)), -EFAULT);
	check_page0("put_user", 8);
	u = AT(8);
	CHECK(!ua_user_access_begin(u, 8),
	      "user_access_begin holds in the first page");

	/* The first page itself is plain memory to the program */
	CHECK(ua_memcpy(buf, AT(0), 64) == buf && buf[63] == FILL,
	      "ua_memcpy from the first page");
	free(buf);
	free(fill);
	free(seen);
	munmap(p, pg);
	t_done("first_page");
	return T_PASS;
}
