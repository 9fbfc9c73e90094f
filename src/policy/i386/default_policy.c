/* SPDX-License-Identifier: MIT */
/* i386: the default policy per CPU (default_policy.h). */
#include <string.h>

#include "cpu.h"
#include "default_policy.h"
#include "page.h"
#include "tunables.h"
#include "x86/cpu_features.h"
#include "x86/glibc_floor.h"

/*
 * With SSE2: glibc's choices for the CPU (x86/glibc_floor.h) as x86-64
 * makes them, with sse2 for its vectors: 32-bit glibc's own memcpy has
 * neither rep movsb nor wider vectors, but the CPU's thresholds are the
 * same.  Without (386 to PIII): rep movsl everywhere; on the PPro/PII/PIII
 * (Intel family 6) the unrolled copy takes over when (src ^ dst) & 7, where
 * rep movsl is slow (the kernel's movsl_mask).
 */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *movsl = UA_PICK("movsl");
	struct ua_glibc_floor f;
	size_t llc = ua_cpu_llc(cpu);
	int t;

	ua_glibc_floor(cpu, &f);
	ua_x86_floor_policy(p, &f);
	if (cpu->features & UA_F(SSE2))
		return;
	for (t = UA_T_SMALL; t <= UA_T_CLEAR_LARGE; t++)
		ua_policy_set(p, t, movsl);
	ua_policy_set(p, UA_T_REP_MISALIGNED, movsl);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_LARGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_HUGE_MIN, llc * 3 / 4);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, 0);
	if (!strcmp(cpu->vendor, "GenuineIntel") &&
	    (cpu->family == 6 || cpu->family == 15)) {
		const struct ua_strategy *alt = UA_PICK("intel");

		ua_policy_set(p, UA_T_REP_MISALIGNED, alt);
		ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, alt == movsl ? 0 : 7);
	}
}

size_t
ua_arch_default_policy_basis(char *buf, size_t size, const struct ua_cpu *cpu)
{
	struct ua_glibc_floor f;
	size_t at;

	if (!(cpu->features & UA_F(SSE2)))
		return ua_put_str(
		    buf, size, 0,
		    "rep movsl: no SSE2 (the kernel's i386 rules)");
	ua_glibc_floor(cpu, &f);
	at = ua_x86_floor_text(buf, size, 0, &f);
	return ua_put_str(buf, size, at, "; sse2 for its vectors");
}
