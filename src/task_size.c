/* SPDX-License-Identifier: MIT */
/*
 * The end of the user address space on an architecture that does not say
 * (task_size.h): the highest page that can be mapped, found by bisection.
 * Between a page this library occupies and the end, every page can be
 * mapped or is mapped already; from the end up none can (the kernel's
 * half, a hole, or past the last address).  About 50 probes on a 64-bit
 * machine, once, at init.
 */
#include "task_size.h"
#include "page.h"

uintptr_t
ua_task_size(void)
{
	uintptr_t pg = ua_page_size;
	uintptr_t lo = (uintptr_t)&ua_task_size & ~(pg - 1); /* mappable */
	uintptr_t hi = UINTPTR_MAX & ~(pg - 1);              /* never */

	while (hi - lo > pg) {
		uintptr_t mid = lo + ((hi - lo) / 2 & ~(pg - 1));

		if (ua_can_map_at(mid))
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}
