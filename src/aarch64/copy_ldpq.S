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
	PAIR_COPY ldpq, ldp, stp, 4, q0, q1, q2, q3, q4, q5, q6, q7
	PAIR_COPY nt, ldnp, stnp, 4, q0, q1, q2, q3, q4, q5, q6, q7
	PAIR_CLEAR ldpq, 4, q0
