/* SPDX-License-Identifier: MIT */
/*
 * aarch64: 48-bit user addresses, 52 with FEAT_LVA when the kernel has it
 * and one asks for a high address.  Kernels with fewer VA bits (39, 42, 47)
 * leave the rest of the 48-bit range unmappable: an access there faults
 * with its address, like any hole.  Tagged pointers (top byte set) stay
 * outside.
 */
#include "task_size.h"
#include "page.h"

uintptr_t
ua_task_size(void)
{
	return ua_can_map_at((uintptr_t)1 << 50) ? (uintptr_t)1 << 52
						 : (uintptr_t)1 << 48;
}
