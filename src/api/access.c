/* SPDX-License-Identifier: MIT */
/*
 * The calls about the user range: ua_access_ok(), ua_set_user_range() and
 * the check that opens a block of inline accesses, ua_user_access_begin().
 * The range and the check themselves: range.h.
 */
#include "init.h"
#include "inject.h"
#include "range.h"

UA_EXPORT int
ua_access_ok(const void *uptr, size_t n)
{
	ua_lazy_init();
	return ua_user_ok(uptr, n);
}

UA_EXPORT int
ua_set_user_range(const void *base, size_t len)
{
	/* The handlers first: copies on a thread's own range skip the test
	 * that sends the first calls to init */
	ua_lazy_init();
	return ua_range_set((uintptr_t)base, len);
}

/*
 * ua_user_access_begin(): access_ok for a block, checked whole.  Returns
 * the address masked as the bulk copies mask theirs (range.h): itself when
 * accepted, UA_REFUSED when not, also under speculation.  A zero-length
 * block is accepted anywhere; at UA_REFUSED itself it gets NULL, which it
 * must not dereference either.
 */
UA_EXPORT uintptr_t
ua__user_access_begin(const volatile void *uptr, size_t len)
{
	size_t cut;

	if (ua_user_gate(uptr, len, &cut)) {
		if (cut) /* a block is checked as a whole */
			ua_fail_record((uintptr_t)uptr);
		return UA_REFUSED;
	}
	if (!len)
		return (uintptr_t)uptr == UA_REFUSED ? 0 : (uintptr_t)uptr;
	return ua_user_addr(uptr, len);
}

/*
 * ua_masked_user_access_begin(): the pointer clamped without a branch,
 * itself when it lies in the thread's range, else the top of the default
 * range, a page that is never mapped, so that the block's first access
 * faults there (its length is not checked: the kernel's guard page).
 */
UA_EXPORT uintptr_t
ua__masked_user_access_begin(const volatile void *uptr)
{
	uintptr_t a = ua__user_access_begin(uptr, 1);
	uintptr_t bad = 0 - (uintptr_t)(a == UA_REFUSED);

	__asm__("" : "+r"(bad)); /* data, not a branch */
	return (a & ~bad) | (ua_user_top & bad);
}

/* The guard page that the masked pointer relies on: the default range's */
UA_EXPORT int
ua_can_do_masked_user_access(void)
{
	return !ua_self.range_hi;
}
