/* SPDX-License-Identifier: MIT */
/*
 * x86-64: addresses above 47 bits are canonical only under 5-level paging,
 * and the kernel hands them out only to those who ask.  Ask once: if a
 * mapping can be placed there, the top is 56 bits.
 */
#include "task_size.h"
#include "page.h"

uintptr_t
ua_task_size(void)
{
	return ua_can_map_at((uintptr_t)1 << 52) ? (uintptr_t)1 << 56
						 : (uintptr_t)1 << 47;
}
