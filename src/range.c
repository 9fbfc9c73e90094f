/* SPDX-License-Identifier: MIT */
/*
 * The user range (range.h): the default one, and a thread's own; the
 * per-thread block it lives in (ua_self).
 */
#include <errno.h>
#include <stdatomic.h>

#include "arch.h"
#include "page.h"
#include "range.h"
#include "task_size.h"

uintptr_t ua_user_lo, ua_user_top, ua_entry_top;
struct ua_inline_limit ua_user_inline, ua_user_nocache_inline;
UA_TLS struct ua_thread ua_self;

void
ua_inline_limit_store(struct ua_inline_limit *l, size_t max)
{
	size_t first = max;

#ifdef UA_INLINE_FIRST_WIDE
	if (max > UA_INLINE_NARROW)
		first = UA_INLINE_FIRST_WIDE;
	else if (max > UA_INLINE_FIRST_WIDE - 1)
		first = UA_INLINE_FIRST_WIDE - 1;
#endif
	__atomic_store_n(&l->max, max, __ATOMIC_SEQ_CST);
	__atomic_store_n(&l->first, first, __ATOMIC_SEQ_CST);
}

/* Every user address above the first page, up to the top less one page */
static uintptr_t ua_default_lo, ua_default_hi;

void
ua_range_init(void)
{
	ua_default_lo = ua_page_size;
	ua_default_hi = ua_task_size() - ua_page_size;
}

/* The handlers are in: from now on the default range accepts pointers */
void
ua_range_open(void)
{
	__atomic_store_n(&ua_user_lo, ua_default_lo, __ATOMIC_RELEASE);
	__atomic_store_n(&ua_user_top, ua_default_hi, __ATOMIC_RELEASE);
	__atomic_store_n(&ua_entry_top, ua_default_hi, __ATOMIC_RELEASE);
}

/*
 * Called whenever the memcpy entries' limits change, and once the range is
 * open.  A thread that sets a range of its own stores 0 in ua_entry_top,
 * then in the limits (ua_range_set); a call here that raced with it read
 * ua_entry_top before that store, so it stores its limits before the
 * thread's 0s, or it reads 0 after storing them and stores 0 itself
 * (every access sequentially consistent): once a thread has a range of
 * its own, the limits stay 0.
 */
void
ua_range_entry_limits(size_t copy, size_t nocache)
{
	int open = __atomic_load_n(&ua_entry_top, __ATOMIC_SEQ_CST) != 0;

	ua_inline_limit_store(&ua_user_inline, open ? copy : 0);
	ua_inline_limit_store(&ua_user_nocache_inline, open ? nocache : 0);
	if (open && !__atomic_load_n(&ua_entry_top, __ATOMIC_SEQ_CST)) {
		ua_inline_limit_store(&ua_user_inline, 0);
		ua_inline_limit_store(&ua_user_nocache_inline, 0);
	}
}

int
ua_range_set(uintptr_t b, size_t len)
{
	if (len &&
	    (b < ua_default_lo || b > ua_default_hi || len > ua_default_hi - b))
		return -EINVAL;
	/*
	 * From now on the entries copy no size themselves and send every
	 * call the full way, this thread's before it has its range (init
	 * came first, and never opens the range again)
	 */
	if (len) {
		__atomic_store_n(&ua_entry_top, 0, __ATOMIC_SEQ_CST);
		ua_inline_limit_store(&ua_user_inline, 0);
		ua_inline_limit_store(&ua_user_nocache_inline, 0);
	}
	/* A handler that runs between the stores sees the default range */
	ua_self.range_hi = 0;
	atomic_signal_fence(memory_order_seq_cst);
	ua_self.range_lo = len ? b : 0;
	atomic_signal_fence(memory_order_seq_cst);
	ua_self.range_hi = len ? b + len : 0;
	return 0;
}
