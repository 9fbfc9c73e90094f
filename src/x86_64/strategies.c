/* SPDX-License-Identifier: MIT */
/* x86-64: the strategy table and the default policy per CPU. */
#include <string.h>

#include "dispatch.h"
#include "x86/cpu.h"

const char *
ua_arch_feature_name(unsigned bit)
{
	return ua_x86_feature_name(bit);
}

#define UA_ROUTINES(name)                                                      \
	size_t ua_copy_##name(void *dst, const void *src, size_t n);           \
	size_t ua_clear_##name(void *dst, size_t n);
UA_ROUTINES(erms)
UA_ROUTINES(movsq)
UA_ROUTINES(unrolled)
UA_ROUTINES(sse2)
UA_ROUTINES(avx2)
UA_ROUTINES(avx512)
UA_ROUTINES(nt)

/* The first entry runs on every x86-64 */
static const struct ua_strategy ua_x86_strategies[] = {
	{.name = "sse2", .copy = ua_copy_sse2, .clear = ua_clear_sse2},
	{.name = "erms", .copy = ua_copy_erms, .clear = ua_clear_erms, .string = 1},
	{.name = "movsq", .copy = ua_copy_movsq, .clear = ua_clear_movsq, .string = 1},
	{.name = "unrolled", .copy = ua_copy_unrolled, .clear = ua_clear_unrolled},
	{.name = "avx2", .copy = ua_copy_avx2, .clear = ua_clear_avx2, .needs = UA_F(AVX2)},
	{.name = "avx512", .copy = ua_copy_avx512, .clear = ua_clear_avx512,
	 .needs = UA_F(AVX512)},
	{.name = "nt", .copy = ua_copy_nt, .clear = ua_clear_nt, .nontemporal = 1},
};

const struct ua_strategy *
ua_arch_strategies(size_t *ret_count)
{
	*ret_count = sizeof(ua_x86_strategies) / sizeof(ua_x86_strategies[0]);
	return ua_x86_strategies;
}

void
ua_arch_cpu_detect(struct ua_cpu *ret)
{
	ua_x86_cpu_detect(ret);
}

/* ---- The default policy ---- */

static const struct ua_strategy *
ua_x86_pick(const char *const *names)
{
	for (; *names; names++) {
		const struct ua_strategy *s = ua_strategy_find(*names);

		if (s && ua_strategy_usable(s))
			return s;
	}
	return &ua_x86_strategies[0];
}

static void
ua_set(struct ua_policy *p, int t, const struct ua_strategy *s)
{
	p->t[t].strategy = s;
	p->t[t].source = UA_FROM_DEFAULT;
}

static void
ua_set_num(struct ua_policy *p, int t, size_t v)
{
	p->t[t].num = v;
	p->t[t].source = UA_FROM_DEFAULT;
}

void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	static const char *const vec[] = {"avx512", "avx2", "sse2", NULL};
	static const char *const rep[] = {"erms", "movsq", "avx512", "avx2", "sse2", NULL};
	static const char *const stream[] = {"nt", NULL};
	const struct ua_strategy *v = ua_x86_pick(vec), *r = v;
	size_t llc = cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)1 << 20;

	if (cpu->features & UA_F(ERMS))
		r = ua_x86_pick(rep);
	ua_set(p, UA_T_SMALL, v);
	ua_set(p, UA_T_MEDIUM, v);
	ua_set(p, UA_T_LARGE, r);
	ua_set(p, UA_T_HUGE, r);
	ua_set(p, UA_T_CLEAR_SMALL, v->clear ? v : &ua_x86_strategies[0]);
	ua_set(p, UA_T_CLEAR_LARGE, r->clear ? r : &ua_x86_strategies[0]);
	ua_set(p, UA_T_NOCACHE, ua_x86_pick(stream));
	ua_set(p, UA_T_REP_MISALIGNED, v);
	ua_set_num(p, UA_T_MEDIUM_MIN, 2048);
	ua_set_num(p, UA_T_LARGE_MIN, 8192);
	ua_set_num(p, UA_T_HUGE_MIN, llc * 3 / 4);
	ua_set_num(p, UA_T_CLEAR_LARGE_MIN, 2048);
	ua_set_num(p, UA_T_NOCACHE_MIN, ua_page_size);
	ua_set_num(p, UA_T_REP_ALIGN_MASK, 0);
}
