/* SPDX-License-Identifier: MIT */
/*
 * ldp/stp of q-register (SIMD) pairs, 128 bytes a round, then 64, 32, 16,
 * 8, 4, 2, 1.  "nt" is the same with ldnp/stnp, the non-temporal hint, for
 * the nocache copies of a page and more.
 */
#include "asm.h"
#include "pair_template.S"

	.text
/* The contract: asm.h */
	PAIR_ROUTINE ua_copy_ldpq, ldp, stp, 4, q0, q1, q2, q3, q4, q5, q6, q7
	PAIR_ROUTINE ua_copy_nt, ldnp, stnp, 4, q0, q1, q2, q3, q4, q5, q6, q7
	PAIR_ROUTINE ua_clear_ldpq, , stp, 4, q0, q0, q0, q0, q0, q0, q0, q0
