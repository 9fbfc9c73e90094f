/* SPDX-License-Identifier: MIT */
/*
 * Description: copy_struct_to_user with the kernel's rules (6.13): a
 * larger user struct's tail is zeroed, a larger trusted struct's non-zero
 * tail is reported through the flag (and a zero tail is not), -EFAULT
 * when the user side cannot be written; the cases of sched_getattr and
 * of the kernel's documentation.
 */
#include "test.h"

/* Two versions of one extensible struct, as sched_attr grew */
struct v1 {
	uint32_t size, policy;
	uint64_t flags;
};
struct v2 {
	uint32_t size, policy;
	uint64_t flags;
	uint32_t util_min, util_max;
};

int
main(void)
{
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	struct v2 k2 = {sizeof(struct v2), 1, 0x1122334455667788ull, 0, 0};
	struct v1 k1 = {sizeof(struct v1), 2, 0x99};
	unsigned char *u = (unsigned char *)l.bad - 64, ref[64];
	bool ign;

	/* Same size: a plain copy; nothing ignored */
	memset(u, 0xee, 64);
	ign = true;
	CHECK_EQ(ua_copy_struct_to_user(u, sizeof(k2), &k2, sizeof(k2), &ign),
		 0);
	CHECK(!memcmp(u, &k2, sizeof(k2)), "same size: not copied");
	CHECK(!ign, "same size: trailing bytes reported");
	CHECK_EQ(u[sizeof(k2)], 0xee);

	/* A newer caller (usize > ksize): the unknown tail reads as zero */
	memset(u, 0xee, 64);
	ign = true;
	CHECK_EQ(ua_copy_struct_to_user(u, 40, &k1, sizeof(k1), &ign), 0);
	CHECK(!memcmp(u, &k1, sizeof(k1)), "newer caller: not copied");
	memset(ref, 0, sizeof(ref));
	CHECK(!memcmp(u + sizeof(k1), ref, 40 - sizeof(k1)),
	      "newer caller: tail not zeroed");
	CHECK_EQ(u[40], 0xee);
	CHECK(!ign, "newer caller: trailing bytes reported");

	/* An older caller (usize < ksize): its part copied, nothing past it
	 * written; the flag says whether the dropped fields held anything */
	memset(u, 0xee, 64);
	CHECK_EQ(ua_copy_struct_to_user(u, sizeof(k1), &k2, sizeof(k2), &ign),
		 0);
	CHECK(!memcmp(u, &k2, sizeof(k1)), "older caller: not copied");
	CHECK_EQ(u[sizeof(k1)], 0xee);
	CHECK(!ign, "older caller: zero fields reported as ignored");
	k2.util_max = 1024;
	CHECK_EQ(ua_copy_struct_to_user(u, sizeof(k1), &k2, sizeof(k2), &ign),
		 0);
	CHECK(ign, "older caller: a set field dropped without a word");
	/* The flag is optional (sched_getattr passes NULL) */
	CHECK_EQ(ua_copy_struct_to_user(u, sizeof(k1), &k2, sizeof(k2), NULL),
		 0);
	/* usize 0: nothing written, the whole struct is the tail */
	memset(u, 0xee, 64);
	CHECK_EQ(ua_copy_struct_to_user(u, 0, &k2, sizeof(k2), &ign), 0);
	CHECK(ign && u[0] == 0xee, "usize 0");

	/* Faults: the copy runs into the bad page */
	memset(u, 0xee, 64);
	CHECK_EQ(
	    ua_copy_struct_to_user(u + 60, sizeof(k2), &k2, sizeof(k2), &ign),
	    -EFAULT);
	/* ... and the tail to clear does */
	CHECK_EQ(ua_copy_struct_to_user(u + 32, 64, &k1, sizeof(k1), &ign),
		 -EFAULT);
	CHECK(ua_last_fault()->addr == l.bad, "fault at %p, not the bad page",
	      ua_last_fault()->addr);
	/* Outside the user range: -EFAULT, nothing written */
	CHECK_EQ(ua_copy_struct_to_user((void *)8, sizeof(k2), &k2, sizeof(k2),
					&ign),
		 -EFAULT);
	t_layout_free(&l);
	t_done("struct_to_user");
	return T_PASS;
}
