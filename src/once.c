/* SPDX-License-Identifier: MIT */
/* Once per process, lock-free and re-entrancy-safe (once.h). */
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "once.h"

/*
 * Runs claimed and not ended, of every thread and of this one; threads in
 * fork(), and whether this is one.  A claim counts itself first, then
 * backs off while another thread forks; fork says it forks, then waits
 * until the runs in progress are its own (both sequentially consistent:
 * one of the two sees the other), so that no child inherits a claim of a
 * thread it lacks.
 */
static atomic_int ua_once_running, ua_once_forks;
static UA_TLS int ua_once_mine, ua_once_forking;

static void
ua_once_claim_slot(void)
{
	for (;;) {
		atomic_fetch_add(&ua_once_running, 1);
		/* one within a run of this thread's goes on: fork waits for
		 * the outer one anyway */
		if (!atomic_load(&ua_once_forks) || ua_once_forking ||
		    ua_once_mine)
			return;
		atomic_fetch_sub(&ua_once_running, 1);
		while (atomic_load(&ua_once_forks))
			sched_yield();
	}
}

enum ua_once_state
ua_once_enter(struct ua_once *o)
{
	long self, owner = 0;

	if (ua_once_done(o))
		return UA_ONCE_DONE;
	self = (long)syscall(SYS_gettid);
	ua_once_claim_slot();
	if (atomic_compare_exchange_strong(&o->owner, &owner, self)) {
		ua_once_mine++;
		return UA_ONCE_RUN;
	}
	atomic_fetch_sub(&ua_once_running, 1);
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
	ua_once_mine--;
	atomic_fetch_sub(&ua_once_running, 1);
}

static void
ua_once_fork_prepare(void)
{
	ua_once_forking = 1;
	atomic_fetch_add(&ua_once_forks, 1);
	while (atomic_load(&ua_once_running) != ua_once_mine)
		sched_yield();
}

static void
ua_once_fork_done(void)
{
	ua_once_forking = 0;
	atomic_fetch_sub(&ua_once_forks, 1);
}

static void
ua_once_fork_child(void)
{
	ua_once_forking = 0;
	atomic_store(&ua_once_forks, 0);
}

void
ua_once_atfork(void)
{
	pthread_atfork(ua_once_fork_prepare, ua_once_fork_done,
		       ua_once_fork_child);
}
