/* SPDX-License-Identifier: MIT */
/*
 * Which strategies (strategies.h) this process may use: the CPU must have
 * what they need, and UACCESS_DISABLE must not turn them off.
 */
#ifndef UA_USABLE_H
#define UA_USABLE_H

#include "ignored.h"
#include "strategies.h"

/* Every strategy built for this architecture, usable here or not */
const struct ua_strategy *ua_strategies(size_t *ret_count);
const struct ua_strategy *ua_strategy_find(const char *name);
/* The CPU has what it needs and UACCESS_DISABLE does not turn it off */
int ua_strategy_usable(const struct ua_strategy *s);
/* The CPU has what it needs (UACCESS_DISABLE not considered) */
int ua_strategy_supported(const struct ua_strategy *s);
/* UACCESS_DISABLE=name,name,...: read when the policy is (policy.c) */
void ua_strategy_read_disable(struct ua_ignored *ign);
/* UACCESS_DISABLE names this (a strategy, or another variant: usable.c) */
int ua_disable_listed(const char *name);

#endif /* UA_USABLE_H */
