/* SPDX-License-Identifier: MIT */
/*
 * Description: check_zeroed_user and copy_struct_from_user with the
 * kernel's semantics: zero-fill a short user struct, accept a longer one
 * whose extra tail is zero, -E2BIG when it is not, -EFAULT on a fault.
 */
#include "test.h"

int
main(void)
{
	struct t_layout l = t_layout_new(2, T_BAD_NONE);
	char *u = l.bad - 1000;
	unsigned char k[512];
	size_t i, n;

	memset(u, 0, 1000);
	CHECK_EQ(ua_check_zeroed_user(u, 0), 1);
	CHECK_EQ(ua_check_zeroed_user(u, 1000), 1);
	for (i = 0; i < 1000; i += 37) {
		u[i] = 1;
		CHECK_EQ(ua_check_zeroed_user(u, 1000), 0);
		CHECK_EQ(ua_check_zeroed_user(u, i), 1);
		CHECK_EQ(ua_check_zeroed_user(u + i + 1, 1000 - i - 1), 1);
		u[i] = 0;
	}
	CHECK_EQ(ua_check_zeroed_user(u, 1001), -EFAULT);
	/*
	 * A non-zero byte before the fault is found first, as in the kernel,
	 * without reading the next page: no fault, ua_last_fault() kept
	 */
	u[990] = 1;
	CHECK_EQ(ua_copy_from_user(k, l.bad + 100, 1), 1);
	CHECK(ua_last_fault()->addr == l.bad + 100, "a fault recorded");
	CHECK_EQ(ua_check_zeroed_user(u, 1001), 0);
	CHECK(ua_last_fault()->addr == l.bad + 100,
	      "check_zeroed_user answered 0 after a fault");
	CHECK_EQ(ua_copy_struct_from_user(k, 16, u, 1001), -E2BIG);
	CHECK(ua_last_fault()->addr == l.bad + 100,
	      "copy_struct_from_user answered -E2BIG after a fault");
	CHECK_EQ(ua_check_zeroed_user(u + 991, 10), -EFAULT);
	u[990] = 0;
	CHECK_EQ(ua_check_zeroed_user(l.bad, 1), -EFAULT);
	CHECK_EQ(ua_check_zeroed_user(NULL, 1), -EFAULT);

	/* usize == ksize */
	t_fill(u, 64, 3);
	memset(k, 0xee, sizeof(k));
	CHECK_EQ(ua_copy_struct_from_user(k, 64, u, 64), 0);
	CHECK(!memcmp(k, u, 64) && k[64] == 0xee, "same size");
	/* usize < ksize: the rest of dst is zeroed */
	memset(k, 0xee, sizeof(k));
	CHECK_EQ(ua_copy_struct_from_user(k, 128, u, 40), 0);
	CHECK(!memcmp(k, u, 40), "short: data");
	for (i = 40; i < 128; i++)
		CHECK(k[i] == 0, "short: zero-filled");
	CHECK(k[128] == 0xee, "short: nothing past ksize");
	/* usize > ksize with a zero tail */
	memset(u + 64, 0, 200);
	CHECK_EQ(ua_copy_struct_from_user(k, 64, u, 264), 0);
	CHECK(!memcmp(k, u, 64), "long: data");
	/* ... and with a non-zero byte anywhere in the tail */
	for (n = 64; n < 264; n += 13) {
		u[n] = 9;
		CHECK_EQ(ua_copy_struct_from_user(k, 64, u, 264), -E2BIG);
		u[n] = 0;
	}
	/* Faults: in the copied part, in the checked tail */
	CHECK_EQ(ua_copy_struct_from_user(k, 64, l.bad - 32, 64), -EFAULT);
	CHECK_EQ(ua_copy_struct_from_user(k, 16, l.bad - 32, 64), -EFAULT);
	CHECK_EQ(ua_copy_struct_from_user(k, 16, NULL, 16), -EFAULT);
	/* Size zero on both sides */
	CHECK_EQ(ua_copy_struct_from_user(k, 0, u, 0), 0);
	t_layout_free(&l);
	t_done("struct");
	return T_PASS;
}
