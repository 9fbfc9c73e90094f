/* SPDX-License-Identifier: MIT */
/*
 * <uaccess/linux.h>: the kernel's user-access names, argument orders and
 * return conventions, mapped onto <uaccess.h>, so that kernel code
 * compiles as written.  Opt-in: <uaccess.h> never includes it, and the
 * short names stay out of programs that do not ask for them.  See
 * uaccess(7) for the table of names and the kernel versions.
 *
 * Define UA_LINUX_NO_TYPES before including it to keep the kernel's
 * integer types (u8 ... s64) and likely()/unlikely() out.
 */
#ifndef UACCESS_LINUX_H
#define UACCESS_LINUX_H

/* What kernel code finds without asking: errno values, memset, offsetof */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <uaccess.h>

#ifndef UA_LINUX_NO_TYPES
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#endif

/* Sparse's address space: nothing to the compiler */
#ifndef __user
#define __user
#endif

/* Bulk copies: the bytes not copied */
#define copy_from_user(to, from, n) ua_copy_from_user((to), (from), (n))
#define copy_to_user(to, from, n) ua_copy_to_user((to), (from), (n))
#define clear_user(to, n) ua_clear_user((to), (n))
#define __copy_from_user(to, from, n) ua_copy_from_user((to), (from), (n))
#define __copy_to_user(to, from, n) ua_copy_to_user((to), (from), (n))
#define __clear_user(to, n) ua_clear_user((to), (n))

/* Single values: 0 or -EFAULT; get_user zeroes x on a fault */
#define get_user(x, ptr) ua_get_user(x, ptr)
#define put_user(x, ptr) ua_put_user(x, ptr)
#define __get_user(x, ptr) ua_get_user(x, ptr)
#define __put_user(x, ptr) ua_put_user(x, ptr)
#define get_user_inline(x, ptr) ua_get_user_inline(x, ptr)
#define put_user_inline(x, ptr) ua_put_user_inline(x, ptr)

/* access_ok(addr, size) (the two-argument form, 5.0+): true or false */
#define access_ok(addr, size) (ua_access_ok((addr), (size)) != 0)

/* Strings and structs */
#define strncpy_from_user(dst, src, count)                                     \
	ua_strncpy_from_user((dst), (src), (count))
#define strnlen_user(str, n) ua_strnlen_user((str), (n))
#define check_zeroed_user(from, size) ua_check_zeroed_user((from), (size))
#define copy_struct_from_user(dst, ksize, src, usize)                          \
	ua_copy_struct_from_user((dst), (ksize), (src), (usize))
#define copy_struct_to_user(dst, usize, src, ksize, ignored_trailing)          \
	ua_copy_struct_to_user((dst), (usize), (src), (ksize),                 \
			       (ignored_trailing))

/* Blocks */
#define user_access_begin(ptr, len) ua_user_access_begin(ptr, len)
#define user_read_access_begin(ptr, len) ua_user_read_access_begin(ptr, len)
#define user_write_access_begin(ptr, len) ua_user_write_access_begin(ptr, len)
#define user_access_end() ua_user_access_end()
#define user_read_access_end() ua_user_read_access_end()
#define user_write_access_end() ua_user_write_access_end()
#define can_do_masked_user_access() (ua_can_do_masked_user_access() != 0)
#define masked_user_access_begin(ptr) ua_masked_user_access_begin(ptr)
#define masked_user_read_access_begin(ptr) ua_masked_user_read_access_begin(ptr)
#define masked_user_write_access_begin(ptr)                                    \
	ua_masked_user_write_access_begin(ptr)
#define unsafe_get_user(x, ptr, label) ua_unsafe_get_user(x, ptr, label)
#define unsafe_put_user(x, ptr, label) ua_unsafe_put_user(x, ptr, label)
#define unsafe_copy_to_user(to, from, len, label)                              \
	ua_unsafe_copy_to_user(to, from, len, label)
#define unsafe_copy_from_user(to, from, len, label)                            \
	ua_unsafe_copy_from_user(to, from, len, label)

/* Scoped blocks (6.19) */
#define scoped_user_read_access(ptr, label)                                    \
	ua_scoped_user_read_access(ptr, label)
#define scoped_user_write_access(ptr, label)                                   \
	ua_scoped_user_write_access(ptr, label)
#define scoped_user_rw_access(ptr, label) ua_scoped_user_rw_access(ptr, label)
#define scoped_user_read_access_size(ptr, size, label)                         \
	ua_scoped_user_read_access_size(ptr, size, label)
#define scoped_user_write_access_size(ptr, size, label)                        \
	ua_scoped_user_write_access_size(ptr, size, label)
#define scoped_user_rw_access_size(ptr, size, label)                           \
	ua_scoped_user_rw_access_size(ptr, size, label)

/*
 * Futexes and compare-and-exchange on user memory (the atomics of
 * <uaccess.h>): 0 or -EFAULT (-EINVAL for a misaligned word).
 *
 * futex_atomic_cmpxchg_inatomic(&cur, uaddr, old, new): *uval is the value
 * found, set on success only, as the kernel's.
 * arch_futex_atomic_op_inuser(op, oparg, &oldval, uaddr): FUTEX_OP_SET,
 * _ADD, _OR, _ANDN, _XOR (<linux/futex.h>); the same order.
 * unsafe_try_cmpxchg_user(ptr, &old, new, label): inside a block; true
 * when *ptr held old and now holds new, false with old = what it held;
 * a fault goes to label.  4- and 8-byte words, inline (one lock cmpxchg,
 * or an ldaxr/stlxr loop, with its exception-table entry in the caller).
 */
/* The operations' numbers, where <linux/futex.h> was not included */
#ifndef FUTEX_OP_SET
#define FUTEX_OP_SET UA_FUTEX_OP_SET
#define FUTEX_OP_ADD UA_FUTEX_OP_ADD
#define FUTEX_OP_OR UA_FUTEX_OP_OR
#define FUTEX_OP_ANDN UA_FUTEX_OP_ANDN
#define FUTEX_OP_XOR UA_FUTEX_OP_XOR
#endif
#define futex_atomic_cmpxchg_inatomic(uval, uaddr, oldval, newval)             \
	__extension__({                                                        \
		uint32_t ua__lx_old = (oldval);                                \
		int ua__lx_ret =                                               \
		    ua_cmpxchg_user_u32((uaddr), &ua__lx_old, (newval));       \
		if (!ua__lx_ret)                                               \
			*(uval) = ua__lx_old;                                  \
		ua__lx_ret;                                                    \
	})
#define arch_futex_atomic_op_inuser(op, oparg, oval, uaddr)                    \
	ua_futex_atomic_op_user((op), (oparg), (oval), (uaddr))
#define unsafe_try_cmpxchg_user(ptr, oldp, new_, label)                        \
	ua_unsafe_try_cmpxchg_user(ptr, oldp, new_, label)

#endif /* UACCESS_LINUX_H */
