/* SPDX-License-Identifier: MIT */
/* x86-64: the strategy table and the default policy per CPU. */
#include <stddef.h>
#include <string.h>

#include "dispatch.h"
#include "dispatch_offsets.h"
#include "x86/cpu.h"

/* entry.S reads the table and this thread's range at these offsets */
#define UA_AT(field, off)                                                      \
	_Static_assert(offsetof(struct ua_dispatch, field) == (off),           \
		       "entry.S: offset of " #field)
UA_AT(medium_min, UA_DISPATCH_MEDIUM_MIN);
UA_AT(large_min, UA_DISPATCH_LARGE_MIN);
UA_AT(huge_min, UA_DISPATCH_HUGE_MIN);
UA_AT(copy, UA_DISPATCH_COPY);
UA_AT(nocache_min, UA_DISPATCH_NOCACHE_MIN);
UA_AT(nocache, UA_DISPATCH_NOCACHE);
UA_AT(memcpy, UA_DISPATCH_MEMCPY);
UA_AT(memcpy_nocache, UA_DISPATCH_MEMCPY_NOCACHE);
_Static_assert(offsetof(struct ua_misaligned, mask) == UA_MISALIGNED_MASK,
	       "entry.S: offset of ua_misaligned.mask");
_Static_assert(offsetof(struct ua_misaligned, copy) == UA_MISALIGNED_COPY,
	       "entry.S: offset of ua_misaligned.copy");
_Static_assert(offsetof(struct ua_misaligned, memcpy) == UA_MISALIGNED_MEMCPY,
	       "entry.S: offset of ua_misaligned.memcpy");
_Static_assert(sizeof(ua_memcpy_fn) == 8 && sizeof(size_t) == 8,
	       "entry.S: 8-byte table entries");
_Static_assert(offsetof(struct ua_thread, range_lo) == UA_SELF_RANGE_LO,
	       "entry.S: offset of range_lo");
_Static_assert(offsetof(struct ua_thread, range_hi) == UA_SELF_RANGE_HI,
	       "entry.S: offset of range_hi");

const char *
ua_arch_feature_name(unsigned bit)
{
	return ua_x86_feature_name(bit);
}

#define UA_ROUTINES(name)                                                      \
	size_t ua_copy_##name(void *dst, const void *src, size_t n,            \
			      uintptr_t a3, uintptr_t a4, uintptr_t a5);       \
	size_t ua_clear_##name(void *dst, const void *src, size_t n,           \
			       uintptr_t a3, uintptr_t a4, uintptr_t a5);      \
	void *ua_memcpy_##name(void *dst, const void *src, size_t n);
UA_ROUTINES(erms)
UA_ROUTINES(movsq)
UA_ROUTINES(unrolled)
UA_ROUTINES(sse2)
UA_ROUTINES(avx2)
UA_ROUTINES(avx512)
UA_ROUTINES(avx512vbmi)
UA_ROUTINES(nt)

/* The first entry runs on every x86-64 */
static const struct ua_strategy ua_x86_strategies[] = {
    {.name = "sse2",
     .copy = ua_copy_sse2,
     .clear = ua_clear_sse2,
     .plain = ua_memcpy_sse2,
     .memcpy_inline = 31},
    {.name = "erms", .copy = ua_copy_erms, .clear = ua_clear_erms, .string = 1},
    {.name = "movsq",
     .copy = ua_copy_movsq,
     .clear = ua_clear_movsq,
     .string = 1},
    {.name = "unrolled", .copy = ua_copy_unrolled, .clear = ua_clear_unrolled},
    {.name = "avx2",
     .copy = ua_copy_avx2,
     .clear = ua_clear_avx2,
     .plain = ua_memcpy_avx2,
     .memcpy_inline = 512,
     .needs = UA_F(AVX2)},
    {.name = "avx512",
     .copy = ua_copy_avx512,
     .clear = ua_clear_avx512,
     .plain = ua_memcpy_avx512,
     .memcpy_inline = 512,
     .memcpy_inline_wide = 1024,
     .needs = UA_F(AVX512)},
    {.name = "avx512vbmi",
     .copy = ua_copy_avx512vbmi,
     .clear = ua_clear_avx512vbmi,
     .plain = ua_memcpy_avx512vbmi,
     .memcpy_inline = 512,
     .memcpy_inline_wide = 1024,
     .needs = UA_F(AVX512) | UA_F(AVX512VBMI)},
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

/*
 * What was measured (uaccess-tune refines it per machine):
 * - AMD Zen 3 (family 0x19): the AVX2 loop is at the store-port limit in
 *   L1 and level with rep movsb in L2; from the LLC aligned rep movsb is
 *   up to 1.5x faster.  rep movsb loses 30% when src is not 32-byte
 *   aligned to dst and collapses (30x slower) when (dst - src) mod 4096
 *   is in 1..31.  So: vectors below half the L2, erms above for equally
 *   aligned pointers, non-temporal above 3/4 of the last-level cache.
 *   rep stosb clears large buffers without reading them: clear_large
 *   from the L2 size.  32-byte moves in the entries: one store a cycle.
 * - AMD Zen 5 (family 0x1a, 2-core KVM guest, 2026-12): 64-byte stores
 *   at one a cycle, so 64-byte moves in the entries up to 1 KiB
 *   (inline_wide: 512 B 0.57x glibc with 32-byte ones, 0.97x with 64).
 *   8 KiB: the zmm loop 212 GB/s aligned in L1 against rep movsb's 124;
 *   misaligned, its loads across two lines halve it from the LLC (43
 *   against glibc's 59-64), and the shifted loads of avx512vbmi keep L1
 *   speed (132-143) and the LLC's (64-68).  From 32 KiB rep movsb is level
 *   with or ahead of every loop at any relative alignment (32 KiB in L2:
 *   130 against 74 aligned, 75 against 73 misaligned): erms from 32 KiB
 *   at any relative alignment.  From 4 MiB with the data beyond the L3,
 *   streaming stores are level with rep movsb for equally aligned pointers
 *   (0.96-1.0x) and 1.15-1.25x faster for the others (rep movsb 21-25
 *   GB/s, movntdq 27-30; 1 MiB: 0.75x): misaligned copies from 4x the L2
 *   stream.  Streaming 64 KiB pieces into 32 MiB, movntdq ran at
 *   0.70-0.77x the cached copy (1 MiB L2, a large L3): nocache copies
 *   never stream.
 * - Intel with ERMS and FSRM: rep movsb from 4 KiB when src and dst are
 *   equally aligned (seed 000), vectors otherwise.
 * - Without ERMS: never a string copy.
 * Zen 4 and Intel with AVX-512 keep 32-byte moves in the entries and
 * the plain avx512 loop: unmeasured there.
 */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	static const char *const vec[] = {"avx512", "avx2", "sse2", NULL};
	static const char *const vec_zen5[] = {"avx512vbmi", "avx512", "avx2",
					       "sse2", NULL};
	static const char *const rep[] = {"erms", NULL};
	static const char *const stream[] = {"nt", NULL};
	int amd = !strcmp(cpu->vendor, "AuthenticAMD") ||
		  !strcmp(cpu->vendor, "HygonGenuine");
	int intel = !strcmp(cpu->vendor, "GenuineIntel");
	int zen5 = amd && cpu->family >= 0x1a;
	int erms = (cpu->features & UA_F(ERMS)) != 0;
	int fsrm = (cpu->features & UA_F(FSRM)) != 0;
	const struct ua_strategy *v = ua_policy_pick(zen5 ? vec_zen5 : vec);
	const struct ua_strategy *large = v, *huge, *clear_large = v;
	size_t llc = cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)1 << 20;
	size_t l2 = cpu->l2 ? cpu->l2 : (size_t)256 << 10;
	size_t large_min = (size_t)32 << 10, huge_min = llc * 3 / 4;
	size_t align_mask = 63;

	huge = ua_policy_pick(stream);
	if (erms) {
		clear_large = ua_policy_pick(rep);
		if (zen5) {
			large = huge = ua_policy_pick(rep);
			huge_min = 4 * l2;
		} else if (amd && cpu->family == 0x19 && fsrm) {
			large = ua_policy_pick(rep);
			large_min = l2 / 2;
		} else if (intel && fsrm) {
			large = ua_policy_pick(rep);
			large_min = 4096;
		}
	}
	if (large == v)
		large_min = huge_min; /* no large class */
	ua_policy_set(p, UA_T_SMALL, v);
	ua_policy_set(p, UA_T_MEDIUM, v);
	ua_policy_set(p, UA_T_LARGE, large);
	ua_policy_set(p, UA_T_HUGE, huge);
	ua_policy_set(p, UA_T_CLEAR_SMALL, v);
	ua_policy_set(p, UA_T_CLEAR_LARGE, clear_large);
	ua_policy_set(p, UA_T_NOCACHE, ua_policy_pick(stream));
	ua_policy_set(p, UA_T_REP_MISALIGNED, v);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, large_min);
	ua_policy_set_num(p, UA_T_LARGE_MIN, large_min);
	ua_policy_set_num(p, UA_T_HUGE_MIN, huge_min);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN,
			  clear_large == v ? SIZE_MAX : l2);
	ua_policy_set_num(p, UA_T_NOCACHE_MIN, zen5 ? SIZE_MAX : ua_page_size);
	if (zen5) {
		/* rep movsb at any relative alignment; beyond 4x the L2,
		 * misaligned pairs stream */
		ua_policy_set(p, UA_T_LARGE_MISALIGNED, large);
		ua_policy_set(p, UA_T_HUGE_MISALIGNED, ua_policy_pick(stream));
	}
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, align_mask);
	ua_policy_set_num(p, UA_T_INLINE_WIDE, zen5);
}
