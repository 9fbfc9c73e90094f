/* SPDX-License-Identifier: MIT */
/*
 * Description: a user of the installed <uaccess/linux.h>: kernel code that
 * names every mapped call but the atomics (another branch's), compiled as
 * strict C99, C11 and C++11/17 (pedantic, -Werror), linked and run.
 */
#include <uaccess/linux.h>

struct k_pair {
	u32 a, b;
};

static int
k_handler(struct k_pair __user *up, const u32 __user *arr, u32 n)
{
	struct k_pair kp;
	u32 i, sum = 0, v = 0;
	bool ignored = false;
	char name[8];

	if (!access_ok(up, sizeof(*up)))
		return -EFAULT;
	if (copy_struct_from_user(&kp, sizeof(kp), up, sizeof(*up)))
		return -EFAULT;
	scoped_user_read_access_size(arr, n * sizeof(*arr), efault)
	{
		for (i = 0; i < n; i++) {
			unsafe_get_user(v, &arr[i], efault);
			sum += v;
		}
	}
	scoped_user_read_access(arr, efault) unsafe_get_user(v, arr, efault);
	scoped_user_write_access(up, efault)
	    unsafe_put_user(sum, &up->a, efault);
	scoped_user_rw_access(up, efault)
	{
		unsafe_get_user(v, &up->b, efault);
		unsafe_put_user(v, &up->b, efault);
	}
	scoped_user_write_access_size(up, 8, efault)
	    unsafe_put_user(v, &up->b, efault);
	scoped_user_rw_access_size(up, 8, efault)
	    unsafe_put_user(v, &up->b, efault);
	if (!user_access_begin(up, sizeof(*up)))
		return -EFAULT;
	unsafe_copy_from_user(&kp, up, sizeof(kp), efault_end);
	unsafe_copy_to_user(up, &kp, sizeof(kp), efault_end);
	user_access_end();
	if (!user_read_access_begin(arr, sizeof(*arr)))
		return -EFAULT;
	user_read_access_end();
	if (!user_write_access_begin(up, sizeof(*up)))
		return -EFAULT;
	user_write_access_end();
	if (can_do_masked_user_access()) {
		const u32 __user *m = masked_user_read_access_begin(arr);

		up = masked_user_access_begin(up);
		up = masked_user_write_access_begin(up);
		unsafe_get_user(v, m, efault_end);
		user_access_end();
	}
	if (get_user(v, arr) || __get_user(v, arr) || put_user(v, &up->a) ||
	    __put_user(v, &up->a) || get_user_inline(v, arr) ||
	    put_user_inline(v, &up->a))
		return -EFAULT;
	if (copy_from_user(&kp, up, sizeof(kp)) ||
	    __copy_from_user(&kp, up, sizeof(kp)) ||
	    copy_to_user(up, &kp, sizeof(kp)) ||
	    __copy_to_user(up, &kp, sizeof(kp)))
		return -EFAULT;
	if (strncpy_from_user(name, (const char __user *)"k", sizeof(name)) !=
		1 ||
	    strnlen_user((const char __user *)"k", 8) != 2)
		return -EFAULT;
	if (clear_user(&up->b, 4) || __clear_user(&up->b, 4) ||
	    check_zeroed_user(&up->b, 4) != 1)
		return -EFAULT;
	if (copy_struct_to_user(up, sizeof(*up), &kp, sizeof(kp), &ignored) ||
	    ignored)
		return -EFAULT;
	if (unlikely(!sum) || !likely(sum))
		return -EINVAL;
	return (int)sum;
efault_end:
	user_access_end();
efault:
	return -EFAULT;
}

/* A futex word bumped as the kernel's futex code does it */
static int
k_futex_add(u32 __user *uaddr, u32 *found)
{
	u32 cur = 0;
	int oval = 0;

	if (arch_futex_atomic_op_inuser(FUTEX_OP_ADD, 1, &oval, uaddr))
		return -EFAULT;
	if (futex_atomic_cmpxchg_inatomic(&cur, uaddr, (u32)oval + 1, 0))
		return -EFAULT;
	*found = cur;
	return 0;
}

/* The kernel's inline cmpxchg in a scoped block: ++*uaddr */
static int
k_inc(u32 __user *uaddr)
{
	u32 old = 0;

	scoped_user_rw_access(uaddr, efault)
	{
		unsafe_get_user(old, uaddr, efault);
		while (!unsafe_try_cmpxchg_user(uaddr, &old, old + 1, efault))
			;
	}
	return 0;
efault:
	return -EFAULT;
}

int
main(void)
{
	static struct k_pair p = {1, 2};
	static const u32 arr[2] = {3, 4};

	if (k_handler(&p, arr, 2) != 7)
		return 1;
	if (k_handler(&p, (const u32 *)(const void *)(uintptr_t)8, 1) !=
	    -EFAULT)
		return 1;
	{
		static u32 word = 41;
		u32 found = 0;

		if (k_futex_add(&word, &found) || found != 42 || word != 0)
			return 1;
		if (k_inc(&word) || word != 1)
			return 1;
	}
	return 0;
}
