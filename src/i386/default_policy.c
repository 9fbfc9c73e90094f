/* SPDX-License-Identifier: MIT */
/* i386: the default policy per CPU (default_policy.h). */
#include <string.h>

#include "default_policy.h"
#include "page.h"
#include "tunables.h"
#include "x86/cpu_features.h"

/*
 * With SSE2: sse2, and rep movsb for the large classes where ERMS makes it
 * fast.  Without (386 to PIII): rep movsl everywhere; on the PPro/PII/PIII
 * (Intel family 6) the unrolled copy takes over when (src ^ dst) & 7, where
 * rep movsl is slow (the kernel's movsl_mask).
 */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *movsl = UA_PICK("movsl");
	const struct ua_strategy *v = movsl, *r = movsl, *alt = movsl;
	size_t llc = cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)1 << 20;
	size_t mask = 0;

	if (cpu->features & UA_F(SSE2)) {
		v = r = alt = UA_PICK("sse2");
		if (cpu->features & UA_F(ERMS))
			r = UA_PICK("erms");
	} else if (!strcmp(cpu->vendor, "GenuineIntel") &&
		   (cpu->family == 6 || cpu->family == 15)) {
		alt = UA_PICK("intel");
		mask = alt == movsl ? 0 : 7;
	}
	ua_policy_set(p, UA_T_SMALL, v);
	ua_policy_set(p, UA_T_MEDIUM, v);
	ua_policy_set(p, UA_T_LARGE, r);
	ua_policy_set(p, UA_T_HUGE, r);
	ua_policy_set(p, UA_T_CLEAR_SMALL, v->clear ? v : movsl);
	ua_policy_set(p, UA_T_CLEAR_LARGE, r->clear ? r : movsl);
	ua_policy_set(p, UA_T_NOCACHE, UA_PICK("nt"));
	ua_policy_set(p, UA_T_REP_MISALIGNED, alt);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, 2048);
	ua_policy_set_num(p, UA_T_LARGE_MIN, 8192);
	ua_policy_set_num(p, UA_T_HUGE_MIN, llc * 3 / 4);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN, 2048);
	ua_policy_set_num(p, UA_T_NOCACHE_MIN, ua_page_size);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, mask);
}
