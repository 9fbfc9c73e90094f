/* SPDX-License-Identifier: MIT */
/* get_user and put_user: one load or store of 1, 2, 4 or 8 bytes. */
#include <errno.h>

#include "init.h"
#include "range.h"
#include "routine.h"

typedef int (*ua_get_fn)(uint64_t *ret, const void *uptr);
typedef int (*ua_put_fn)(uint64_t val, void *uptr);

/* The sizes get and put take (ua_user_ptr checks .get), their routines */
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
 * The size (-EINVAL), the gate (init, fault injection), then access_ok
 * (-EFAULT): 0 and the pointer to use
 */
static inline __attribute__((always_inline)) int
ua_user_ptr(const volatile void *p, size_t n, void **ret)
{
	uintptr_t u;
	size_t cut;

	if (n > 8 || !ua_fns.get[n])
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
	void *p;
	int r;

	*ret = 0;
	r = ua_user_ptr(uptr, size, &p);
	return r ? r : ua_fns.get[size](ret, p);
}

UA_EXPORT int
ua__put_user_n(uint64_t val, volatile void *uptr, size_t size)
{
	void *p;
	int r = ua_user_ptr(uptr, size, &p);

	return r ? r : ua_fns.put[size](val, p);
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
