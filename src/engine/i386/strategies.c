/* SPDX-License-Identifier: MIT */
/* i386: the strategies (strategies.h), the first one running everywhere. */
#include "strategies.h"
#include "x86/cpu_features.h"

/* clang-format off */
#define UA_STRATEGY_LIST(STRATEGY)                                             \
	STRATEGY(movsl, COPY_CLEAR, .string = 1)                               \
	STRATEGY(intel, COPY)                                                  \
	STRATEGY(erms, COPY_CLEAR, .string = 1, .needs = UA_F(ERMS))           \
	STRATEGY(sse2, COPY_CLEAR, .needs = UA_F(SSE2))                        \
	STRATEGY(nt, COPY, .nontemporal = 1, .needs = UA_F(SSE2))
/* clang-format on */

UA_STRATEGY_TABLE(UA_STRATEGY_LIST)
