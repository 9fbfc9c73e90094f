/* SPDX-License-Identifier: MIT */
/*
 * Init (init.c): the page size, the default range, the dispatch table,
 * fault injection, the signal handlers, in that order, once per process;
 * then the default range opens (range.h).  No locks and no allocation, so
 * that a first call may come from a signal handler.
 *
 * Every call initialises on its first use, on its slow path: the bulk
 * copies when the range refuses (refused.c), the others at the gate below.
 * ua_memcpy needs no init: the dispatch table fills itself (dispatch.h).
 */
#ifndef UA_INIT_H
#define UA_INIT_H

#include "inject.h"
#include "once.h"

extern struct ua_once ua_ready;

/*
 * Init, unless done.  Re-entered from a signal handler on the initialising
 * thread it returns at once: the range is still empty, so the call that
 * interrupted is refused rather than run without the handlers.
 */
void ua_init_slow(void);

static inline void
ua_lazy_init(void)
{
	if (ua_unlikely(!ua_once_done(&ua_ready)))
		ua_init_slow();
}

/*
 * The gate of the calls that run no dispatch routine (get_user, put_user,
 * the strings, user_access_begin): 0 when the library is initialised and
 * fault injection is off.  Else ua_gate_slow initialises and, while
 * injection is on, may decide that this call of n bytes at p fails: it
 * returns 1 and the byte of the fault in *ret_cut (0: the whole call
 * fails, and it is recorded for ua_last_fault()).
 */
int ua_gate_slow(const volatile void *p, size_t n, size_t *ret_cut);

static inline __attribute__((always_inline)) int
ua_user_gate(const volatile void *p, size_t n, size_t *ret_cut)
{
	if (ua_likely(atomic_load_explicit(&ua_gate, memory_order_acquire) ==
		      1))
		return 0;
	return ua_gate_slow(p, n, ret_cut);
}

#endif /* UA_INIT_H */
