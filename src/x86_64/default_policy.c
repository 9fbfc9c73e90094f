/* SPDX-License-Identifier: MIT */
/* x86-64: the default policy per CPU (default_policy.h). */
#include <string.h>

#include "default_policy.h"
#include "page.h"
#include "tunables.h"
#include "x86/cpu_features.h"

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
 *   8 KiB: the zmm loop 212-234 GB/s aligned in L1 against rep movsb's
 *   124-137; misaligned, its loads across two lines halve it from the LLC
 *   (43 against glibc's 59-64), and the shifted loads of avx512vbmi keep
 *   the aligned speed in L1 (229-234) and the LLC's (64-84).  From 32 KiB
 *   rep movsb is level with or ahead of every loop at any relative
 *   alignment (32 KiB in L2: 130 against 74 aligned, 75 against 73
 *   misaligned): erms from 32 KiB at any relative alignment.  With the
 *   data beyond the L3, streaming stores are level with rep movsb for
 *   equally aligned pointers (0.96-1.0x) and 1.0-1.46x for the others;
 *   with a 4 MiB copy in the L3 they run 0.80x: misaligned copies stream
 *   from 3/4 of the LLC, as elsewhere (uaccess-tune finds the crossover).
 *   Streaming 64 KiB pieces into 32 MiB, movntdq ran at 0.70-0.77x the
 *   cached copy (1 MiB L2, a large L3): nocache copies never stream.
 * - Intel with ERMS and FSRM: rep movsb from 4 KiB when src and dst are
 *   equally aligned, vectors otherwise.
 * - Intel with AVX-512: the 32-byte loop, as glibc chooses for every Intel
 *   part but Xeon Phi (Prefer_No_AVX512, "to avoid lower CPU frequency"):
 *   512-bit moves can lower the core's clock for the code around the copy
 *   too, which no copy loop's own timing shows.
 * - Without ERMS: never a string copy.
 * Zen 4 keeps 32-byte moves in the entries and the plain avx512 loop:
 * unmeasured there.
 */
void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	static const char *const vec[] = {"avx512", "avx2", "sse2", NULL};
	static const char *const vec_zen5[] = {"avx512vbmi", "avx512", "avx2",
					       "sse2", NULL};
	static const char *const vec_intel[] = {"avx2", "avx512", "sse2", NULL};
	static const char *const rep[] = {"erms", NULL};
	static const char *const stream[] = {"nt", NULL};
	int amd = !strcmp(cpu->vendor, "AuthenticAMD") ||
		  !strcmp(cpu->vendor, "HygonGenuine");
	int intel = !strcmp(cpu->vendor, "GenuineIntel");
	int zen5 = amd && cpu->family >= 0x1a;
	int erms = (cpu->features & UA_F(ERMS)) != 0;
	int fsrm = (cpu->features & UA_F(FSRM)) != 0;
	const struct ua_strategy *v = ua_policy_pick(zen5    ? vec_zen5
						     : intel ? vec_intel
							     : vec);
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
		/* rep movsb at any relative alignment; beyond 3/4 of the
		 * LLC, misaligned pairs stream */
		ua_policy_set(p, UA_T_LARGE_MISALIGNED, large);
		ua_policy_set(p, UA_T_HUGE_MISALIGNED, ua_policy_pick(stream));
	}
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, align_mask);
	ua_policy_set_num(p, UA_T_INLINE_WIDE, zen5);
}
