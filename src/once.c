/* SPDX-License-Identifier: MIT */
/* Once per process, lock-free and re-entrancy-safe (once.h). */
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "once.h"

enum ua_once_state
ua_once_enter(struct ua_once *o)
{
	long self, owner = 0;

	if (ua_once_done(o))
		return UA_ONCE_DONE;
	self = (long)syscall(SYS_gettid);
	if (atomic_compare_exchange_strong(&o->owner, &owner, self))
		return UA_ONCE_RUN;
	if (owner == self)
		return UA_ONCE_REENTERED;
	while (!ua_once_done(o))
		sched_yield();
	return UA_ONCE_DONE;
}

void
ua_once_end(struct ua_once *o)
{
	atomic_store_explicit(&o->done, 1, memory_order_release);
}
