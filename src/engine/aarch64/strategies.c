/* SPDX-License-Identifier: MIT */
/* aarch64: the strategies (strategies.h), the first one running everywhere. */
#include "strategies.h"
#include "cpu_features.h"

/* clang-format off */
#define UA_STRATEGY_LIST(STRATEGY)                                             \
	STRATEGY(ldp, COPY_CLEAR)                                              \
	STRATEGY(ldpq, COPY_CLEAR, .needs = UA_F(ASIMD))                       \
	STRATEGY(nt, COPY, .nontemporal = 1, .needs = UA_F(ASIMD))
/* clang-format on */

UA_STRATEGY_TABLE(UA_STRATEGY_LIST)
