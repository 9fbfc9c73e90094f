/* SPDX-License-Identifier: MIT */
/* x86-64: the strategy table, cpuid, and the default policy per CPU. */
#include <cpuid.h>
#include <string.h>

#include "dispatch.h"

enum {
	UA_X86_ERMS,
	UA_X86_FSRM,
	UA_X86_AVX2,    /* with the OS saving ymm state */
	UA_X86_AVX512,  /* F, BW and VL, with the OS saving zmm state */
	UA_X86_NFEATURES
};
#define UA_F(x) ((uint64_t)1 << UA_X86_##x)

static const char *const ua_x86_feature_names[UA_X86_NFEATURES] = {
	[UA_X86_ERMS] = "erms",
	[UA_X86_FSRM] = "fsrm",
	[UA_X86_AVX2] = "avx2",
	[UA_X86_AVX512] = "avx512",
};

const char *
ua_arch_feature_name(unsigned bit)
{
	return bit < UA_X86_NFEATURES ? ua_x86_feature_names[bit] : NULL;
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

/* ---- cpuid ---- */

static uint64_t
ua_xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* Cache sizes from leaf 4 (Intel) or 0x8000001D (AMD): same layout */
static void
ua_x86_caches(unsigned leaf, struct ua_cpu *c)
{
	unsigned i, a, b, cx, d;

	for (i = 0; i < 16; i++) {
		unsigned type, level;
		size_t size;

		__cpuid_count(leaf, i, a, b, cx, d);
		type = a & 0x1f;
		if (type == 0)
			break;
		if (type != 1 && type != 3) /* data or unified */
			continue;
		level = (a >> 5) & 7;
		size = (size_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
		       ((b & 0xfff) + 1) * ((size_t)cx + 1);
		if (level == 1)
			c->l1d = size;
		else if (level == 2)
			c->l2 = size;
		else if (level == 3)
			c->l3 = size;
	}
}

void
ua_arch_cpu_detect(struct ua_cpu *ret)
{
	unsigned a, b, c, d, max, maxext, fam, model;
	uint64_t f = 0;

	if (!__get_cpuid(0, &max, &b, &c, &d))
		return;
	memcpy(ret->vendor, &b, 4);
	memcpy(ret->vendor + 4, &d, 4);
	memcpy(ret->vendor + 8, &c, 4);
	ret->vendor[12] = 0;
	__cpuid(1, a, b, c, d);
	fam = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	ret->family = fam;
	ret->model = model;
	ret->stepping = a & 0xf;
	if (max >= 7) {
		unsigned osxsave = (c >> 27) & 1, b7, c7, d7;
		uint64_t xcr0 = osxsave ? ua_xgetbv0() : 0;

		__cpuid_count(7, 0, a, b7, c7, d7);
		if (b7 & (1u << 9))
			f |= UA_F(ERMS);
		if (d7 & (1u << 4))
			f |= UA_F(FSRM);
		/* xmm and ymm state */
		if ((b7 & (1u << 5)) && (xcr0 & 6) == 6)
			f |= UA_F(AVX2);
		/* F (16), BW (30), VL (31); opmask, zmm hi256, hi16 zmm */
		if ((b7 & (1u << 16)) && (b7 & (1u << 30)) && (b7 & (1u << 31)) &&
		    (xcr0 & 0xe6) == 0xe6)
			f |= UA_F(AVX512);
		(void)c7;
	}
	ret->features = f;
	__cpuid(0x80000000, maxext, b, c, d);
	if (max >= 4 && !strcmp(ret->vendor, "GenuineIntel"))
		ua_x86_caches(4, ret);
	else if (maxext >= 0x8000001d)
		ua_x86_caches(0x8000001d, ret);
	if (!ret->l1d && maxext >= 0x80000005) {
		__cpuid(0x80000005, a, b, c, d);
		ret->l1d = (size_t)(c >> 24) << 10;
	}
	if (!ret->l2 && maxext >= 0x80000006) {
		__cpuid(0x80000006, a, b, c, d);
		ret->l2 = (size_t)(c >> 16) << 10;
		ret->l3 = (size_t)(d >> 18) << 19;
	}
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
