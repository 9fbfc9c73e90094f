/* SPDX-License-Identifier: MIT */
/*
 * Atomic operations on user memory: the checks the kernel's futex code
 * makes, then one routine (user_atomic.h).  Misaligned: -EINVAL, before
 * anything else, as get_futex_key(); outside the user range: -EFAULT.
 */
#include <errno.h>

#include "init.h"
#include "range.h"
#include "user_atomic.h"

/* Behind a closed gate (init, fault injection): 0, or -EFAULT */
static __attribute__((noinline, cold)) int
ua_atomic_gate_slow(const volatile void *p, size_t n)
{
	size_t cut;

	if (!ua_user_gate(p, n, &cut))
		return 0;
	if (cut) /* one access: a part of it is all of it */
		ua_fail_record((uintptr_t)p);
	return -EFAULT;
}

/*
 * Alignment, the gate, then access_ok: 0 and the pointer to use, or the
 * error.  The slow path out of line, so that the calls need no frame.
 */
static inline __attribute__((always_inline)) int
ua_atomic_ptr(const volatile void *p, size_t n, void **ret)
{
	uintptr_t u;

	if ((uintptr_t)p & (n - 1))
		return -EINVAL;
	if (ua_unlikely(atomic_load_explicit(&ua_gate, memory_order_acquire) !=
			1) &&
	    ua_atomic_gate_slow(p, n))
		return -EFAULT;
	u = ua_user_addr(p, n);
	if (u == UA_REFUSED)
		return -EFAULT;
	*ret = (void *)u;
	return 0;
}

#define UA_ATOMIC_CALL(bits, call)                                             \
	do {                                                                   \
		void *p;                                                       \
		int r = ua_atomic_ptr(uptr, bits / 8, &p);                     \
		if (r)                                                         \
			return r;                                              \
		return call;                                                   \
	} while (0)

UA_EXPORT int
ua_cmpxchg_user_u32(volatile uint32_t *uptr, uint32_t *old, uint32_t new_)
{
	UA_ATOMIC_CALL(32, ua_arch_cmpxchg_4(p, old, new_));
}

UA_EXPORT int
ua_cmpxchg_user_u64(volatile uint64_t *uptr, uint64_t *old, uint64_t new_)
{
	UA_ATOMIC_CALL(64, ua_arch_cmpxchg_8(p, old, new_));
}

UA_EXPORT int
ua_xchg_user_u32(volatile uint32_t *uptr, uint32_t val, uint32_t *oldp)
{
	UA_ATOMIC_CALL(32, ua_arch_xchg_4(p, val, oldp));
}

UA_EXPORT int
ua_xchg_user_u64(volatile uint64_t *uptr, uint64_t val, uint64_t *oldp)
{
	UA_ATOMIC_CALL(64, ua_arch_xchg_8(p, val, oldp));
}

UA_EXPORT int
ua_load_acquire_user_u32(const volatile uint32_t *uptr, uint32_t *val)
{
	UA_ATOMIC_CALL(32, ua_arch_load_acquire_4(p, val));
}

UA_EXPORT int
ua_load_acquire_user_u64(const volatile uint64_t *uptr, uint64_t *val)
{
	UA_ATOMIC_CALL(64, ua_arch_load_acquire_8(p, val));
}

UA_EXPORT int
ua_store_release_user_u32(volatile uint32_t *uptr, uint32_t val)
{
	UA_ATOMIC_CALL(32, ua_arch_store_release_4(p, val));
}

UA_EXPORT int
ua_store_release_user_u64(volatile uint64_t *uptr, uint64_t val)
{
	UA_ATOMIC_CALL(64, ua_arch_store_release_8(p, val));
}

/*
 * The kernel's arch_futex_atomic_op_inuser(): op already decoded
 * (FUTEX_OP_SET..XOR, oparg shifted if FUTEX_OP_OPARG_SHIFT asked), an
 * unknown op -ENOSYS once access_ok holds, *oval set on success only
 */
typedef int (*ua_futex_fn)(volatile uint32_t *uptr, uint32_t oparg,
			   uint32_t *oldp);

static const ua_futex_fn ua_futex_fns[] = {
    [UA_FUTEX_OP_SET] = ua_arch_xchg_4,
    [UA_FUTEX_OP_ADD] = ua_arch_futex_add,
    [UA_FUTEX_OP_OR] = ua_arch_futex_or,
    [UA_FUTEX_OP_ANDN] = ua_arch_futex_andn,
    [UA_FUTEX_OP_XOR] = ua_arch_futex_xor,
};

UA_EXPORT int
ua_futex_atomic_op_user(int op, uint32_t oparg, int *oval,
			volatile uint32_t *uptr)
{
	uint32_t old;
	void *p;
	int r = ua_atomic_ptr(uptr, sizeof(*uptr), &p);

	if (r)
		return r;
	if (op < 0 ||
	    (size_t)op >= sizeof(ua_futex_fns) / sizeof(*ua_futex_fns))
		return -ENOSYS;
	r = ua_futex_fns[op](p, oparg, &old);
	if (!r)
		*oval = (int)old;
	return r;
}
