/* SPDX-License-Identifier: MIT */
/*
 * The default policy: which strategy serves each size class, and the
 * thresholds, for the CPU at hand.  src/default_policy.c is the portable
 * one; an architecture with measurements replaces it
 * (src/policy/<arch>/default_policy.c).  The profile and UACCESS_TUNABLES are
 * applied over it (policy.c).
 */
#ifndef UA_DEFAULT_POLICY_H
#define UA_DEFAULT_POLICY_H

#include "cpu_detect.h"
#include "tunables.h"

/*
 * Fill every tunable of p (source UA_FROM_DEFAULT) with this CPU's default
 * policy.  Strategies must satisfy ua_strategy_usable(); UA_T_STRATEGY is
 * left NULL.  Runs after ua_page_init().
 */
void ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu);
/*
 * What the default policy rests on for cpu, in one line of words for
 * uaccess-tune --show (the rules it follows, the measurements it departs
 * on); returns the length
 */
size_t ua_arch_default_policy_basis(char *buf, size_t size,
				    const struct ua_cpu *cpu);

#endif /* UA_DEFAULT_POLICY_H */
