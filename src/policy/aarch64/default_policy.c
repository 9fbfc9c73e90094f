/* SPDX-License-Identifier: MIT */
/* aarch64: the default policy (default_policy.h). */
#include "default_policy.h"
#include "cpu.h"
#include "page.h"
#include "tunables.h"

/* x-register pairs for small copies, q-register pairs from 256 bytes */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *x = UA_PICK("ldp");
	const struct ua_strategy *q = UA_PICK("ldpq");
	size_t llc = ua_cpu_llc(cpu);

	ua_policy_set(p, UA_T_SMALL, x);
	ua_policy_set(p, UA_T_MEDIUM, q);
	ua_policy_set(p, UA_T_LARGE, q);
	ua_policy_set(p, UA_T_HUGE, q);
	ua_policy_set(p, UA_T_CLEAR_SMALL, x);
	ua_policy_set(p, UA_T_CLEAR_LARGE, q);
	ua_policy_set(p, UA_T_NOCACHE, UA_PICK("nt"));
	ua_policy_set(p, UA_T_REP_MISALIGNED, x);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, 256);
	ua_policy_set_num(p, UA_T_LARGE_MIN, 8192);
	ua_policy_set_num(p, UA_T_HUGE_MIN, llc * 3 / 4);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN, 256);
	ua_policy_set_num(p, UA_T_CLEAR_HUGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_NOCACHE_MIN, ua_page_size);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, 0);
}

size_t
ua_arch_default_policy_basis(char *buf, size_t size, const struct ua_cpu *cpu)
{
	(void)cpu;
	return ua_put_str(buf, size, 0,
			  "ldp below 256 bytes, ldpq above (unmeasured)");
}
