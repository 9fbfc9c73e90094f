/* SPDX-License-Identifier: MIT */
/*
 * The user range (range.h): the default one, and a thread's own; the
 * per-thread block it lives in (ua_self).
 */
#include <errno.h>
#include <stdatomic.h>

#include "page.h"
#include "range.h"
#include "task_size.h"

uintptr_t ua_user_lo, ua_user_top, ua_entry_top;
UA_TLS struct ua_thread ua_self;

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

int
ua_range_set(uintptr_t b, size_t len)
{
	if (len &&
	    (b < ua_default_lo || b > ua_default_hi || len > ua_default_hi - b))
		return -EINVAL;
	/*
	 * The entries' first test sends every call the full way from now
	 * on, this thread's before it has its range (init came first, and
	 * never opens the range again)
	 */
	if (len)
		__atomic_store_n(&ua_entry_top, 0, __ATOMIC_RELAXED);
	/* A handler that runs between the stores sees the default range */
	ua_self.range_hi = 0;
	atomic_signal_fence(memory_order_seq_cst);
	ua_self.range_lo = len ? b : 0;
	atomic_signal_fence(memory_order_seq_cst);
	ua_self.range_hi = len ? b + len : 0;
	return 0;
}
