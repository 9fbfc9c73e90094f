/* SPDX-License-Identifier: MIT */
/* aarch64: the strategy table, the CPU as the kernel describes it, the policy.
 */
#include <sys/auxv.h>
#include <unistd.h>

#include "dispatch.h"

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

enum {
	UA_A64_ASIMD, /* Advanced SIMD: q registers */
	UA_A64_NFEATURES
};
#define UA_F(x) ((uint64_t)1 << UA_A64_##x)

static const char *const ua_a64_feature_names[UA_A64_NFEATURES] = {
    [UA_A64_ASIMD] = "asimd",
};

const char *
ua_arch_feature_name(unsigned bit)
{
	return bit < UA_A64_NFEATURES ? ua_a64_feature_names[bit] : NULL;
}

#define UA_ROUTINE(name)                                                       \
	size_t name(void *dst, const void *src, size_t n, uintptr_t a3,        \
		    uintptr_t a4, uintptr_t a5)
UA_ROUTINE(ua_copy_ldp);
UA_ROUTINE(ua_clear_ldp);
UA_ROUTINE(ua_copy_ldpq);
UA_ROUTINE(ua_clear_ldpq);
UA_ROUTINE(ua_copy_nt);

/* The first entry runs on every aarch64 */
static const struct ua_strategy ua_a64_strategies[] = {
    {.name = "ldp", .copy = ua_copy_ldp, .clear = ua_clear_ldp},
    {.name = "ldpq",
     .copy = ua_copy_ldpq,
     .clear = ua_clear_ldpq,
     .needs = UA_F(ASIMD)},
    {.name = "nt", .copy = ua_copy_nt, .nontemporal = 1, .needs = UA_F(ASIMD)},
};

const struct ua_strategy *
ua_arch_strategies(size_t *ret_count)
{
	*ret_count = sizeof(ua_a64_strategies) / sizeof(ua_a64_strategies[0]);
	return ua_a64_strategies;
}

/*
 * The kernel's hwcaps, and MIDR_EL1 (which it lets EL0 read and emulates
 * when HWCAP_CPUID says so) for implementer and part.
 */
void
ua_arch_cpu_detect(struct ua_cpu *ret)
{
	static const char hex[] = "0123456789abcdef";
	unsigned long hwcap = getauxval(AT_HWCAP);
	long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);

	if (hwcap & HWCAP_ASIMD)
		ret->features |= UA_F(ASIMD);
	if (hwcap & HWCAP_CPUID) {
		uint64_t midr;

		__asm__("mrs %0, midr_el1" : "=r"(midr));
		/* "arm-0x41" style: the implementer code */
		ret->vendor[0] = 'a';
		ret->vendor[1] = 'r';
		ret->vendor[2] = 'm';
		ret->vendor[3] = '-';
		ret->vendor[4] = hex[(midr >> 28) & 0xf];
		ret->vendor[5] = hex[(midr >> 24) & 0xf];
		ret->vendor[6] = 0;
		ret->family = (unsigned)(midr >> 16) & 0xf; /* architecture */
		ret->model = (unsigned)(midr >> 4) & 0xfff; /* part number */
		ret->stepping =
		    (unsigned)((midr >> 20) & 0xf) << 4 | (midr & 0xf);
	}
	ret->l1d = l1d > 0 ? (size_t)l1d : 0;
	ret->l2 = l2 > 0 ? (size_t)l2 : 0;
	ret->l3 = l3 > 0 ? (size_t)l3 : 0;
}

/* ---- The default policy ---- */

/* x-register pairs for small copies, q-register pairs from 256 bytes */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *x = &ua_a64_strategies[0];
	const struct ua_strategy *q = UA_PICK("ldpq");
	size_t llc = cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)1 << 20;

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
	ua_policy_set_num(p, UA_T_NOCACHE_MIN, ua_page_size);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, 0);
}
