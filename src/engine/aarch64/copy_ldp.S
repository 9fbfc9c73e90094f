/* SPDX-License-Identifier: MIT */
/*
 * ldp/stp of x-register pairs, 64 bytes a round, then 32, 16, 8, 4, 2, 1.
 * Runs on every aarch64, so it is also the routine that finishes a copy
 * after a fault.
 */
#include "asm.h"
#include "pair_template.S"

	.text
/* The contract: asm.h */
	PAIR_ROUTINE ua_copy_ldp, ldp, stp, 3, \
		x6, x7, x8, x9, x10, x11, x12, x13, ua_arch_copy_bytes
	PAIR_ROUTINE ua_clear_ldp, , stp, 3, \
		xzr, xzr, xzr, xzr, xzr, xzr, xzr, xzr, ua_arch_clear_bytes
