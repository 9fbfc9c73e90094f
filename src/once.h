/* SPDX-License-Identifier: MIT */
/*
 * Run something once per process, without a lock and without allocation,
 * so that the first caller may be a signal handler: init (init.c) and the
 * dispatch table (dispatch.c) fill themselves with it.
 *
 * The running thread is claimed and recorded in one step.  Another thread
 * waits until it is done; the same thread, re-entering from a signal
 * handler that interrupted it, is told so and must go on without it rather
 * than wait for itself forever.  fork() waits until no other thread runs
 * one, so that a child never waits for a thread it does not have.
 */
#ifndef UA_ONCE_H
#define UA_ONCE_H

#include <stdatomic.h>

struct ua_once {
	atomic_long owner; /* the thread that runs it (its tid), 0 before */
	atomic_int done;
};

enum ua_once_state {
	UA_ONCE_DONE,      /* done, by this thread or one it waited for */
	UA_ONCE_RUN,       /* the caller runs it, then calls ua_once_end() */
	UA_ONCE_REENTERED, /* the caller is running it, interrupted */
};

static inline int
ua_once_done(struct ua_once *o)
{
	return atomic_load_explicit(&o->done, memory_order_acquire);
}

enum ua_once_state ua_once_enter(struct ua_once *o);
void ua_once_end(struct ua_once *o);
/*
 * Register fork's wait for the runs of other threads (once, before
 * anything forks); a fork handler registered earlier runs after it
 */
void ua_once_atfork(void);

#endif /* UA_ONCE_H */
