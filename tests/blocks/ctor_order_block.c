/* SPDX-License-Identifier: MIT */
/*
 * The block that ctor_order.c calls: a user word, -EFAULT on a fault (named
 * block_*, which tests/valgrind.supp expects of a block's user access)
 */
#include <errno.h>
#include <stdint.h>
#include <uaccess.h>

int block_ctor_order_read(const uint64_t *u, uint64_t *ret);

int
block_ctor_order_read(const uint64_t *u, uint64_t *ret)
{
	if (!ua_user_access_begin(u, sizeof(*u)))
		return -EFAULT;
	ua_unsafe_get_user(*ret, u, efault);
	ua_user_access_end();
	return 0;
efault:
	ua_user_access_end();
	return -EFAULT;
}
