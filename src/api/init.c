/* SPDX-License-Identifier: MIT */
/* Init (init.h). */
#include <errno.h>

#include "dispatch.h"
#include "fault.h"
#include "init.h"
#include "page.h"
#include "range.h"
#include "user_atomic.h"

struct ua_once ua_ready;
static int ua_init_error;

void
ua_init_slow(void)
{
	int saved_errno;

	if (ua_once_enter(&ua_ready) != UA_ONCE_RUN)
		return;
	saved_errno = errno; /* the probes fail on purpose */
	ua_page_init();
	ua_range_init();
	ua_dispatch_ready();
	ua_arch_atomic_init();
	ua_fail_init();
	ua_init_error = ua_fault_install();
	/* Without our handlers (a runtime owns the signals) the calls still
	 * run: the program's own handler may call ua_handle_fault() */
	ua_range_open();
	ua_range_entry_limits(ua_memcpy_inline.max, ua_nocache_inline.max);
	errno = saved_errno;
	ua_once_end(&ua_ready);
}

UA_EXPORT int
ua_init(void)
{
	ua_lazy_init();
	return ua_init_error;
}

int
ua_gate_slow(const volatile void *p, size_t n, size_t *ret_cut)
{
	ua_lazy_init();
	return ua_fail_gate(p, n, ret_cut, ua_once_done(&ua_ready));
}
