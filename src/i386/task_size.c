/* SPDX-License-Identifier: MIT */
/*
 * i386: 3 GiB under an i386 kernel (the 3G/1G split); under an x86-64
 * kernel a 32-bit process has all of 4 GiB but the top page (0xffffe000).
 */
#include "task_size.h"
#include "page.h"

uintptr_t
ua_task_size(void)
{
	return ua_can_map_at(0xe0000000u) ? 0xffffe000u : 0xc0000000u;
}
