/* SPDX-License-Identifier: MIT */
/*
 * The default policy where nothing was measured (default_policy.h): the
 * first strategy, which runs on every CPU of the architecture, for every
 * size, in one size class; the first usable one with a clear routine for
 * the clears; the first usable non-temporal one, if any, for nocache
 * copies from a page up.
 */
#include "default_policy.h"
#include "cpu.h"
#include "page.h"
#include "usable.h"

void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *all, *first, *clear = NULL, *stream = NULL;
	size_t n, i;
	int t;

	(void)cpu;
	all = ua_strategies(&n);
	first = &all[0];
	for (i = 0; i < n; i++) {
		if (!ua_strategy_usable(&all[i]))
			continue;
		if (!clear && all[i].clear)
			clear = &all[i];
		if (!stream && all[i].nontemporal)
			stream = &all[i];
	}
	for (t = UA_T_SMALL; t <= UA_T_HUGE; t++)
		ua_policy_set(p, t, first);
	ua_policy_set(p, UA_T_REP_MISALIGNED, first);
	ua_policy_set(p, UA_T_CLEAR_SMALL, clear);
	ua_policy_set(p, UA_T_CLEAR_LARGE, clear);
	ua_policy_set(p, UA_T_NOCACHE, stream ? stream : first);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_LARGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_HUGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_CLEAR_HUGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_NOCACHE_MIN,
			  stream ? ua_page_size : SIZE_MAX);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, 0);
}

size_t
ua_arch_default_policy_basis(char *buf, size_t size, const struct ua_cpu *cpu)
{
	(void)cpu;
	return ua_put_str(buf, size, 0,
			  "the first strategy at every size: nothing measured "
			  "on this architecture");
}
