/* SPDX-License-Identifier: MIT */
/*
 * Description: get_user/put_user of every size and the type-generic macros:
 * values, sign and pointer types, -EFAULT with a zeroed result at bad
 * addresses, values straddling into a bad page, nothing written on failure.
 */
#include <signal.h>
#include <stdint.h>

#include "test.h"

int
main(void)
{
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	struct t_layout ro = t_layout_new(1, T_BAD_RDONLY);
	char *good = l.bad - 64;
	uint8_t v8 = 1;
	uint16_t v16 = 1;
	uint32_t v32 = 1;
	uint64_t v64 = 1;
	int8_t s8;
	long sl;
	char *ptr;
	const volatile int *cvp;
	int iv, off;

	/* Round trips */
	CHECK_EQ(ua_put_user_u8(0xa5, good), 0);
	CHECK_EQ(ua_get_user_u8(&v8, good), 0);
	CHECK_EQ(v8, 0xa5);
	CHECK_EQ(ua_put_user_u16(0xbeef, good), 0);
	CHECK_EQ(ua_get_user_u16(&v16, good), 0);
	CHECK_EQ(v16, 0xbeef);
	CHECK_EQ(ua_put_user_u32(0xdeadbeef, good + 1), 0);
	CHECK_EQ(ua_get_user_u32(&v32, good + 1), 0);
	CHECK_EQ(v32, 0xdeadbeef);
	CHECK_EQ(ua_put_user_u64(0x0123456789abcdefull, good + 3), 0);
	CHECK_EQ(ua_get_user_u64(&v64, good + 3), 0);
	CHECK(v64 == 0x0123456789abcdefull, "u64");

	/* The macros follow the pointer's type */
	CHECK_EQ(ua_put_user((int8_t)-3, (int8_t *)good), 0);
	CHECK_EQ(ua_get_user(s8, (int8_t *)good), 0);
	CHECK_EQ(s8, -3);
	CHECK_EQ(ua_get_user(sl, (int8_t *)good), 0);
	CHECK_EQ(sl, -3); /* sign-extended through the pointee type */
	CHECK_EQ(ua_put_user(-123456789L, (long *)good), 0);
	CHECK_EQ(ua_get_user(sl, (long *)good), 0);
	CHECK_EQ(sl, -123456789L);
	CHECK_EQ(ua_put_user(good, (char **)(good + 8)), 0);
	CHECK_EQ(ua_get_user(ptr, (char **)(good + 8)), 0);
	CHECK(ptr == good, "pointer");
	*(int *)(good + 16) = 4242;
	cvp = (const volatile int *)(good + 16);
	CHECK_EQ(ua_get_user(iv, cvp), 0);
	CHECK_EQ(iv, 4242);

	/* Faults: every size at every offset that reaches the bad page */
	for (off = 1; off <= 8; off++) {
		char *p = l.bad - off;

		CHECK_EQ(ua_get_user_u8(&v8, l.bad), -EFAULT);
		CHECK_EQ(v8, 0);
		v16 = v32 = 7;
		v64 = 7;
		CHECK_EQ(ua_get_user_u16(&v16, p), off >= 2 ? 0 : -EFAULT);
		CHECK_EQ(ua_get_user_u32(&v32, p), off >= 4 ? 0 : -EFAULT);
		CHECK_EQ(ua_get_user_u64(&v64, p), off >= 8 ? 0 : -EFAULT);
		if (off < 2)
			CHECK_EQ(v16, 0);
		if (off < 4)
			CHECK_EQ(v32, 0);
		if (off < 8)
			CHECK_EQ(v64, 0);
		memset(l.bad - 16, 0x33, 16);
		CHECK_EQ(ua_put_user_u64(~0ull, p), off >= 8 ? 0 : -EFAULT);
		if (off < 8)
			for (iv = 1; iv <= 16; iv++)
				CHECK(l.bad[-iv] == 0x33,
				      "put wrote on failure");
		CHECK_EQ(ua_put_user(1, (int *)p), off >= 4 ? 0 : -EFAULT);
		CHECK_EQ(ua_get_user(iv, (int *)p), off >= 4 ? 0 : -EFAULT);
	}
	CHECK(ua_last_fault()->signo == SIGSEGV, "signo");
	/* Read-only: get works, put fails and leaves the value */
	CHECK_EQ(ua_get_user_u32(&v32, ro.bad), 0);
	CHECK_EQ(v32, 0x5a5a5a5a);
	CHECK_EQ(ua_put_user_u32(1, ro.bad), -EFAULT);
	CHECK_EQ(ua_get_user_u32(&v32, ro.bad), 0);
	CHECK_EQ(v32, 0x5a5a5a5a);
	CHECK(ua_last_fault()->addr == ro.bad, "fault address");
	/* Sizes the helpers refuse */
	CHECK_EQ(ua__get_user_n(&v64, good, 3), -EINVAL);
	CHECK_EQ(ua__put_user_n(0, good, 16), -EINVAL);
	t_layout_free(&l);
	t_layout_free(&ro);
	t_done("getput");
	return T_PASS;
}
