/* SPDX-License-Identifier: MIT */
/*
 * What the library keeps per thread, in one block so that the assembly
 * entries reach it with one TLS access: the thread's own user range (set by
 * ua_set_user_range, checked by range.h) and its last fault (ua_last_fault:
 * written by the handler and by fault injection).
 */
#ifndef UA_THREAD_H
#define UA_THREAD_H

#include <signal.h>

#include "internal.h"

struct ua_thread {
	struct ua_fault last_fault;
	uintptr_t range_lo, range_hi; /* range_hi == 0: the default range */
};

extern UA_TLS struct ua_thread ua_self;

static inline void
ua_thread_fault(void *addr, int signo, int code)
{
	ua_self.last_fault.addr = addr;
	ua_self.last_fault.signo = signo;
	ua_self.last_fault.code = code;
}

#endif /* UA_THREAD_H */
