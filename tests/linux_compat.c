/* SPDX-License-Identifier: MIT */
/*
 * Description: <uaccess/linux.h>: an ioctl written as kernel code (struct
 * in by copy_struct_from_user, validated, a user array walked in a scoped
 * block, results out by copy_to_user and copy_struct_to_user, a name by
 * strncpy_from_user) compiles unchanged and returns what the kernel's
 * would, faults included.
 */
#include <stdint.h>

#include <uaccess/linux.h>

/* ---- Kernel code, as written (but for the includes) ---- */

#define FROB_IOC_SUM 0x4652
#define FROB_F_MAX (1u << 0)    /* also report the largest item */
#define FROB_F_STRUCT (1u << 1) /* result is an extensible struct */
#define FROB_F_VALID (FROB_F_MAX | FROB_F_STRUCT)
#define FROB_MAX_ITEMS 4096
#define FROB_ARGS_SIZE_VER0 24

struct frob_args {
	u32 flags;
	u32 count;
	u64 items;       /* const u32 __user * */
	u64 result;      /* struct frob_result __user * */
	u32 result_size; /* ver1: sizeof(struct frob_result) in userspace */
	u32 __reserved;
	u64 name; /* const char __user *, ver1 */
};

struct frob_result {
	u64 sum;
	u32 max;
	u32 nonzero;
	char name[16];
};

static inline void __user *
u64_to_user_ptr(u64 v)
{
	return (void __user *)(uintptr_t)v;
}

static int
frob_sum_items(const u32 __user *items, u32 count, struct frob_result *res)
{
	u32 i;

	scoped_user_read_access_size(items, count * sizeof(*items), efault)
	{
		for (i = 0; i < count; i++) {
			u32 v;

			unsafe_get_user(v, &items[i], efault);
			res->sum += v;
			if (v > res->max)
				res->max = v;
			if (v)
				res->nonzero++;
		}
	}
	return 0;
efault:
	return -EFAULT;
}

static long
frob_ioctl(unsigned int cmd, void __user *arg, size_t usize)
{
	struct frob_args args;
	struct frob_result res;
	bool ignored = false;
	int ret;

	if (cmd != FROB_IOC_SUM)
		return -ENOTTY;
	if (usize < FROB_ARGS_SIZE_VER0)
		return -EINVAL;
	ret = copy_struct_from_user(&args, sizeof(args), arg, usize);
	if (ret)
		return ret;
	if (args.flags & ~FROB_F_VALID)
		return -EINVAL;
	if (args.__reserved)
		return -EINVAL;
	if (args.count > FROB_MAX_ITEMS)
		return -E2BIG;

	memset(&res, 0, sizeof(res));
	ret = frob_sum_items(u64_to_user_ptr(args.items), args.count, &res);
	if (ret)
		return ret;
	if (!(args.flags & FROB_F_MAX))
		res.max = 0;
	if (args.name) {
		long len = strncpy_from_user(
		    res.name, u64_to_user_ptr(args.name), sizeof(res.name));

		if (len < 0)
			return len;
		if (len == sizeof(res.name))
			return -ENAMETOOLONG;
	}

	if (args.flags & FROB_F_STRUCT) {
		ret = copy_struct_to_user(u64_to_user_ptr(args.result),
					  args.result_size, &res, sizeof(res),
					  &ignored);
		if (ret)
			return ret;
	} else if (copy_to_user(u64_to_user_ptr(args.result), &res,
				offsetof(struct frob_result, name))) {
		return -EFAULT;
	}
	/* tell userspace how many items were non-zero, in place */
	if (put_user(res.nonzero, &((struct frob_args __user *)arg)->count))
		return -EFAULT;
	return ignored ? 1 : 0;
}

/* A second handler in the older style: an explicit block */
struct frob_pair {
	u32 a, b;
};

static int
frob_swap(struct frob_pair __user *p)
{
	u32 a, b;

	if (!user_access_begin(p, sizeof(*p)))
		return -EFAULT;
	unsafe_get_user(a, &p->a, efault);
	unsafe_get_user(b, &p->b, efault);
	unsafe_put_user(b, &p->a, efault);
	unsafe_put_user(a, &p->b, efault);
	user_access_end();
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

/* And the masked pointer, where the arch can do it */
static int
frob_read_pair(const struct frob_pair __user *p, struct frob_pair *out)
{
	if (can_do_masked_user_access())
		p = masked_user_read_access_begin(p);
	else if (!user_read_access_begin(p, sizeof(*p)))
		return -EFAULT;
	unsafe_copy_from_user(out, p, sizeof(*out), efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/* A counter bumped in a scoped block with the kernel's try_cmpxchg */
static int
frob_inc(u32 __user *uaddr, u32 *ret_old)
{
	u32 old;

	scoped_user_rw_access(uaddr, efault)
	{
		unsafe_get_user(old, uaddr, efault);
		while (!unsafe_try_cmpxchg_user(uaddr, &old, old + 1, efault))
			;
	}
	*ret_old = old;
	return 0;
efault:
	return -EFAULT;
}

/* ---- The test ---- */

#include "test.h"

static long
call(struct frob_args *a, size_t usize)
{
	return frob_ioctl(FROB_IOC_SUM, a, usize);
}

int
main(void)
{
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	struct t_layout ro = t_layout_new(1, T_BAD_RDONLY);
	size_t pg = t_page();
	u32 *items = (u32 *)(void *)(l.bad - 4 * sizeof(u32));
	struct frob_result res;
	struct frob_args a;
	struct frob_pair pair = {1, 2}, out;
	unsigned char big[sizeof(struct frob_args) + 8];
	static const char name[] = "frob";
	static const char long_name[] = "a name far longer than sixteen";
	char nm[8];
	u32 x = 0;
	u64 y = 0;
	int i;

	for (i = 0; i < 4; i++)
		items[i] = (u32)(i * 10);
	memset(&a, 0, sizeof(a));
	memset(&res, 0xee, sizeof(res));
	a.flags = FROB_F_MAX;
	a.count = 4;
	a.items = (uintptr_t)items;
	a.result = (uintptr_t)&res;
	CHECK_EQ(call(&a, sizeof(a)), 0);
	CHECK_EQ(res.sum, 60);
	CHECK_EQ(res.max, 30);
	CHECK_EQ(res.nonzero, 3);
	CHECK_EQ(a.count, 3);                       /* put_user */
	CHECK_EQ((unsigned char)res.name[0], 0xee); /* not copied */

	/* An older, shorter struct: the rest reads as zero */
	a.count = 4;
	CHECK_EQ(call(&a, FROB_ARGS_SIZE_VER0), 0);
	CHECK_EQ(call(&a, FROB_ARGS_SIZE_VER0 - 1), -EINVAL);
	/* A newer, longer one: zero tail ok, non-zero tail -E2BIG */
	memset(big, 0, sizeof(big));
	a.count = 4;
	memcpy(big, &a, sizeof(a));
	CHECK_EQ(frob_ioctl(FROB_IOC_SUM, big, sizeof(big)), 0);
	big[sizeof(big) - 1] = 1;
	CHECK_EQ(frob_ioctl(FROB_IOC_SUM, big, sizeof(big)), -E2BIG);
	CHECK_EQ(frob_ioctl(7, &a, sizeof(a)), -ENOTTY);

	/* Validation */
	a.count = 4;
	a.flags = 1u << 7;
	CHECK_EQ(call(&a, sizeof(a)), -EINVAL);
	a.flags = 0;
	a.__reserved = 1;
	CHECK_EQ(call(&a, sizeof(a)), -EINVAL);
	a.__reserved = 0;
	a.count = FROB_MAX_ITEMS + 1;
	CHECK_EQ(call(&a, sizeof(a)), -E2BIG);

	/* Faults: the array runs into the bad page, or starts refused */
	a.count = 5;
	CHECK_EQ(call(&a, sizeof(a)), -EFAULT);
	a.count = 1;
	a.items = 8;
	CHECK_EQ(call(&a, sizeof(a)), -EFAULT);
	a.items = (uintptr_t)l.bad;
	CHECK_EQ(call(&a, sizeof(a)), -EFAULT);
	a.count = 0; /* nothing to read: fine anywhere */
	CHECK_EQ(call(&a, sizeof(a)), 0);
	/* The args themselves unreadable, or straddling the bad page */
	CHECK_EQ(frob_ioctl(FROB_IOC_SUM, l.bad, sizeof(a)), -EFAULT);
	CHECK_EQ(frob_ioctl(FROB_IOC_SUM, l.bad - 8, sizeof(a)), -EFAULT);
	/* The result unwritable: copy_to_user, then put_user */
	a.items = (uintptr_t)items;
	a.count = 4;
	a.result = (uintptr_t)ro.bad;
	CHECK_EQ(call(&a, sizeof(a)), -EFAULT);
	/* The args readable, not writable: all done but the put_user */
	a.result = (uintptr_t)&res;
	res.sum = 0;
	CHECK(!mprotect(ro.bad, pg, PROT_READ | PROT_WRITE), "mprotect");
	memcpy(ro.bad, &a, sizeof(a));
	CHECK(!mprotect(ro.bad, pg, PROT_READ), "mprotect");
	CHECK_EQ(frob_ioctl(FROB_IOC_SUM, ro.bad, sizeof(a)), -EFAULT);
	CHECK_EQ(res.sum, 60);
	CHECK_EQ(((struct frob_args *)(void *)ro.bad)->count, 4);

	/* The extensible result, and the name */
	memset(&res, 0xee, sizeof(res));
	a.flags = FROB_F_STRUCT;
	a.result_size = sizeof(res);
	a.name = (uintptr_t)name;
	CHECK_EQ(call(&a, sizeof(a)), 0);
	CHECK_EQ(res.sum, 60);
	CHECK_EQ(res.max, 0);
	CHECK(!strcmp(res.name, "frob"), "name %.16s", res.name);
	/* A smaller user struct: the trailing name is dropped, and reported */
	a.result_size = offsetof(struct frob_result, name);
	CHECK_EQ(call(&a, sizeof(a)), 1);
	a.name = 0;
	CHECK_EQ(call(&a, sizeof(a)), 0); /* a zero tail is not reported */
	/* A larger one: its tail is zeroed */
	{
		unsigned char rbig[sizeof(res) + 8];

		memset(rbig, 0xee, sizeof(rbig));
		a.result = (uintptr_t)rbig;
		a.result_size = sizeof(rbig);
		CHECK_EQ(call(&a, sizeof(a)), 0);
		for (i = (int)sizeof(res); i < (int)sizeof(rbig); i++)
			CHECK_EQ(rbig[i], 0);
		a.result = (uintptr_t)&res;
	}
	a.name = (uintptr_t)l.bad;
	a.result_size = sizeof(res);
	CHECK_EQ(call(&a, sizeof(a)), -EFAULT);
	a.name = (uintptr_t)long_name;
	CHECK_EQ(call(&a, sizeof(a)), -ENAMETOOLONG);
	a.name = 0;
	a.result = (uintptr_t)ro.bad;
	CHECK_EQ(call(&a, sizeof(a)), -EFAULT);

	/* The block forms */
	CHECK_EQ(frob_swap(&pair), 0);
	CHECK(pair.a == 2 && pair.b == 1, "swap");
	CHECK_EQ(frob_swap((struct frob_pair *)(void *)(l.bad - 4)), -EFAULT);
	CHECK_EQ(frob_swap((struct frob_pair *)(uintptr_t)8), -EFAULT);
	CHECK_EQ(frob_swap((struct frob_pair *)(void *)(ro.bad - 4)), -EFAULT);
	/* the store to a happened, the one to b faulted */
	CHECK_EQ(*(u32 *)(void *)(ro.bad - 4), *(u32 *)(void *)ro.bad);
	CHECK_EQ(frob_read_pair(&pair, &out), 0);
	CHECK(out.a == 2 && out.b == 1, "read pair");
	CHECK_EQ(frob_read_pair((struct frob_pair *)(uintptr_t)8, &out),
		 -EFAULT);
	CHECK_EQ(frob_read_pair((struct frob_pair *)(void *)(l.bad - 4), &out),
		 -EFAULT);
	/* On a thread's own range: no masked pointer, the checked begin */
	CHECK(can_do_masked_user_access(), "default range");
	CHECK_EQ(ua_set_user_range(&pair, sizeof(pair)), 0);
	CHECK(!can_do_masked_user_access(), "own range");
	CHECK_EQ(frob_read_pair(&pair, &out), 0);
	CHECK_EQ(frob_read_pair(&pair + 1, &out), -EFAULT);
	CHECK_EQ(ua_set_user_range(NULL, 0), 0);

	/* The rest of the names */
	CHECK(access_ok(&x, sizeof(x)) && !access_ok((void *)8, 1),
	      "access_ok");
	CHECK_EQ(get_user(x, &items[1]), 0);
	CHECK_EQ(x, 10);
	CHECK_EQ(__get_user(x, &items[2]), 0);
	CHECK_EQ(x, 20);
	CHECK_EQ(get_user(x, (u32 *)(void *)l.bad), -EFAULT);
	CHECK_EQ(x, 0);
	CHECK_EQ(put_user(5, &items[0]), 0);
	CHECK_EQ(__put_user(6, &items[1]), 0);
	CHECK(items[0] == 5 && items[1] == 6, "put_user");
	CHECK_EQ(put_user(5, (u32 *)(void *)l.bad), -EFAULT);
	CHECK_EQ(get_user_inline(y, (u64 *)(void *)&items[0]), 0);
	CHECK_EQ(put_user_inline(y + 1, (u64 *)(void *)&items[2]), 0);
	CHECK_EQ(get_user_inline(y, (u64 *)(void *)(l.bad - 4)), -EFAULT);
	CHECK_EQ(put_user_inline(y, (u64 *)(void *)(l.bad - 4)), -EFAULT);
	CHECK_EQ(strnlen_user(name, 16), 5);
	CHECK_EQ(strnlen_user(l.bad, 16), 0);
	CHECK_EQ(strncpy_from_user(nm, name, sizeof(nm)), 4);
	CHECK_EQ(check_zeroed_user(l.bad - 8, 8), 0);
	CHECK_EQ(clear_user(l.bad - 8, 8), 0);
	CHECK_EQ(check_zeroed_user(l.bad - 8, 8), 1);
	CHECK_EQ(check_zeroed_user(l.bad - 8, 9), -EFAULT);
	CHECK_EQ(clear_user(l.bad - 8, 16), 8);
	CHECK_EQ(__clear_user(l.bad - 8, 8), 0);
	CHECK_EQ(copy_from_user(nm, l.bad - 4, 8), 4);
	CHECK_EQ(__copy_from_user(nm, name, 4), 0);
	CHECK_EQ(copy_to_user(l.bad - 4, long_name, 8), 4);
	CHECK_EQ(__copy_to_user(l.bad - 4, name, 4), 0);
	{
		char buf[8];

		CHECK_EQ(user_write_access_begin(buf, sizeof(buf)), 1);
		unsafe_copy_to_user(buf, name, 5, efault);
		user_write_access_end();
		CHECK(!strcmp(buf, "frob"), "unsafe_copy_to_user");
	}

	{
		u32 word = 5, cur = 0;
		int oval = 0;

		CHECK_EQ(futex_atomic_cmpxchg_inatomic(&cur, &word, 5, 6), 0);
		CHECK(cur == 5 && word == 6, "cmpxchg");
		CHECK_EQ(futex_atomic_cmpxchg_inatomic(&cur, &word, 5, 7), 0);
		CHECK(cur == 6 && word == 6, "cmpxchg, another value");
		CHECK_EQ(futex_atomic_cmpxchg_inatomic(
			     &cur, (u32 *)(void *)l.bad, 0, 1),
			 -EFAULT);
		CHECK_EQ(futex_atomic_cmpxchg_inatomic(
			     &cur, (u32 *)(void *)ro.bad, 0, 1),
			 -EFAULT);
		CHECK_EQ(
		    arch_futex_atomic_op_inuser(FUTEX_OP_ADD, 3, &oval, &word),
		    0);
		CHECK(oval == 6 && word == 9, "futex op");
		CHECK_EQ(arch_futex_atomic_op_inuser(FUTEX_OP_ADD, 3, &oval,
						     (u32 *)(void *)l.bad),
			 -EFAULT);
		CHECK_EQ(frob_inc(&word, &cur), 0);
		CHECK(cur == 9 && word == 10, "try_cmpxchg");
		CHECK_EQ(frob_inc((u32 *)(void *)l.bad, &cur), -EFAULT);
		CHECK_EQ(frob_inc((u32 *)(void *)ro.bad, &cur), -EFAULT);
	}

	t_layout_free(&ro);
	t_layout_free(&l);
	t_done("linux_compat");
	return T_PASS;
efault:
	CHECK(0, "unsafe_copy_to_user faulted");
	return T_FAIL;
}
