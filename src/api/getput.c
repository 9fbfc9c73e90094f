/* SPDX-License-Identifier: MIT */
/* get_user and put_user: one load or store of 1, 2, 4 or 8 bytes. */
#include <errno.h>

#include "init.h"
#include "range.h"
#include "routine.h"

typedef int (*ua_get_fn)(uint64_t *ret, const void *uptr);
typedef int (*ua_put_fn)(uint64_t val, void *uptr);

/* The sizes get and put take, their routines (none: -EINVAL) */
static const struct {
	ua_get_fn get[9];
	ua_put_fn put[9];
} ua_fns = {
    .get = {[1] = ua_arch_get_1,
	    [2] = ua_arch_get_2,
	    [4] = ua_arch_get_4,
	    [8] = ua_arch_get_8},
    .put = {[1] = ua_arch_put_1,
	    [2] = ua_arch_put_2,
	    [4] = ua_arch_put_4,
	    [8] = ua_arch_put_8},
};

/*
 * The size's routine (have_fn 0: none, -EINVAL), the gate (init, fault
 * injection), then access_ok (-EFAULT): 0 and the pointer to use.  The
 * caller loads its routine once and calls it: a second load of the table
 * kept the table's base in a callee-saved register, one more push and pop
 * a call.
 */
static inline __attribute__((always_inline)) int
ua_user_ptr(const volatile void *p, size_t n, int have_fn, void **ret)
{
	uintptr_t u;
	size_t cut;

	if (!have_fn)
		return -EINVAL;
	if (ua_user_gate(p, n, &cut)) {
		if (cut) /* one access: a part of it is all of it */
			ua_fail_record((uintptr_t)p);
		return -EFAULT;
	}
	u = ua_user_addr(p, n);
	if (u == UA_REFUSED)
		return -EFAULT;
	*ret = (void *)u;
	return 0;
}

UA_EXPORT int
ua__get_user_n(uint64_t *ret, const volatile void *uptr, size_t size)
{
	ua_get_fn fn = size <= 8 ? ua_fns.get[size] : NULL;
	void *p;
	int r;

	*ret = 0;
	r = ua_user_ptr(uptr, size, fn != NULL, &p);
	return r ? r : fn(ret, p);
}

UA_EXPORT int
ua__put_user_n(uint64_t val, volatile void *uptr, size_t size)
{
	ua_put_fn fn = size <= 8 ? ua_fns.put[size] : NULL;
	void *p;
	int r = ua_user_ptr(uptr, size, fn != NULL, &p);

	return r ? r : fn(val, p);
}

#define UA_GET_PUT(bits)                                                       \
	UA_EXPORT int ua_get_user_u##bits(uint##bits##_t *ret,                 \
					  const void *uptr)                    \
	{                                                                      \
		uint64_t v;                                                    \
		int r = ua__get_user_n(&v, uptr, bits / 8);                    \
		*ret = (uint##bits##_t)v;                                      \
		return r;                                                      \
	}                                                                      \
	UA_EXPORT int ua_put_user_u##bits(uint##bits##_t val, void *uptr)      \
	{                                                                      \
		return ua__put_user_n(val, uptr, bits / 8);                    \
	}

UA_GET_PUT(8)
UA_GET_PUT(16)
UA_GET_PUT(32)
UA_GET_PUT(64)
