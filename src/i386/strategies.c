/* SPDX-License-Identifier: MIT */
/* i386: the strategy table and the default policy per CPU (seeds 000, 002). */
#include <string.h>

#include "dispatch.h"
#include "x86/cpu.h"

#define UA_ROUTINES(name)                                                      \
	size_t ua_copy_##name(void *dst, const void *src, size_t n,            \
			      uintptr_t a3, uintptr_t a4, uintptr_t a5);       \
	size_t ua_clear_##name(void *dst, const void *src, size_t n,           \
			       uintptr_t a3, uintptr_t a4, uintptr_t a5);
UA_ROUTINES(movsl)
UA_ROUTINES(erms)
UA_ROUTINES(sse2)
size_t ua_copy_intel(void *dst, const void *src, size_t n, uintptr_t a3,
		     uintptr_t a4, uintptr_t a5);
size_t ua_copy_nt(void *dst, const void *src, size_t n, uintptr_t a3,
		  uintptr_t a4, uintptr_t a5);

/* The first entry runs on every i386 */
static const struct ua_strategy ua_i386_strategies[] = {
    {.name = "movsl",
     .copy = ua_copy_movsl,
     .clear = ua_clear_movsl,
     .string = 1},
    {.name = "intel", .copy = ua_copy_intel},
    {.name = "erms",
     .copy = ua_copy_erms,
     .clear = ua_clear_erms,
     .string = 1,
     .needs = UA_F(ERMS)},
    {.name = "sse2",
     .copy = ua_copy_sse2,
     .clear = ua_clear_sse2,
     .needs = UA_F(SSE2)},
    {.name = "nt", .copy = ua_copy_nt, .nontemporal = 1, .needs = UA_F(SSE2)},
};

const struct ua_strategy *
ua_arch_strategies(size_t *ret_count)
{
	*ret_count = sizeof(ua_i386_strategies) / sizeof(ua_i386_strategies[0]);
	return ua_i386_strategies;
}

void
ua_arch_cpu_detect(struct ua_cpu *ret)
{
	ua_x86_cpu_detect(ret);
}

const char *
ua_arch_feature_name(unsigned bit)
{
	return ua_x86_feature_name(bit);
}

/* ---- The default policy ---- */

/*
 * With SSE2: sse2, and rep movsb for the large classes where ERMS makes it
 * fast.  Without (386 to PIII): rep movsl everywhere, as seed 002; on the
 * PPro/PII/PIII (Intel family 6) the unrolled copy takes over when
 * (src ^ dst) & 7, as seed 000's movsl_mask.
 */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *movsl = &ua_i386_strategies[0];
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
