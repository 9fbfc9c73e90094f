/* SPDX-License-Identifier: MIT */
/*
 * x86-64: the default policy per CPU (default_policy.h): glibc's choices
 * for the CPU (x86/glibc_floor.h), departed from only where a measurement
 * in docs/measurements/ shows a win on that family.  Intel keeps the
 * floor: on Emerald Rapids (docs/measurements/intel-emr.md) glibc's
 * choices took random copies of 129 B-8 KiB from 0.53-0.76x glibc (the
 * 32-byte loop the library used to prefer) to 0.71-1.00x.
 */
#include <string.h>

#include "cpu.h"
#include "default_policy.h"
#include "page.h"
#include "tunables.h"
#include "x86/cpu_features.h"
#include "x86/glibc_floor.h"

/*
 * AMD Zen 3 (family 0x19 without AVX-512; Zen 4 has it), with ERMS and
 * FSRM: docs/measurements/zen3.md.  Where glibc 2.42 never runs rep movsb
 * on AMD, aligned rep movsb from the LLC is up to 1.5x the AVX2 loop and
 * level with it from half the L2; it loses 30% when src is not 32-byte
 * aligned to dst and runs 30x slower when (dst - src) mod 4096 is 1..31:
 * erms from half the L2 for pairs equally aligned to 64 bytes.  rep stosb
 * clears large buffers without reading them: from the L2 size.
 */
static void
ua_zen3_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	const struct ua_strategy *erms = UA_PICK("erms");
	size_t l2 = cpu->l2 ? cpu->l2 : (size_t)256 << 10;

	ua_policy_set(p, UA_T_LARGE, erms);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, l2 / 2);
	ua_policy_set_num(p, UA_T_LARGE_MIN, l2 / 2);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, 63);
	ua_policy_set(p, UA_T_CLEAR_LARGE, erms);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN, l2);
}

/*
 * AMD Zen 5 (family 0x1a), with ERMS: docs/measurements/zen5.md.  The
 * shifted loads of avx512vbmi below 32 KiB and 64-byte moves in the
 * entries up to 1 KiB; from 32 KiB rep movsb at any relative alignment,
 * and on beyond 3/4 of the LLC for equally aligned pointers, where
 * streaming stores only draw level; the others stream from there.  rep
 * stosb from the L2 size.  nocache copies never stream.
 */
static void
ua_zen5_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	static const char *const vec[] = {"avx512vbmi", "avx512", "avx2",
					  "sse2", NULL};
	const struct ua_strategy *v = ua_policy_pick(vec);
	const struct ua_strategy *erms = UA_PICK("erms");
	size_t llc = cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)1 << 20;
	size_t l2 = cpu->l2 ? cpu->l2 : (size_t)256 << 10;

	ua_policy_set(p, UA_T_SMALL, v);
	ua_policy_set(p, UA_T_MEDIUM, v);
	ua_policy_set(p, UA_T_LARGE, erms);
	ua_policy_set(p, UA_T_HUGE, erms);
	ua_policy_set(p, UA_T_CLEAR_SMALL, v);
	ua_policy_set(p, UA_T_CLEAR_LARGE, erms);
	ua_policy_set(p, UA_T_REP_MISALIGNED, v);
	ua_policy_set(p, UA_T_LARGE_MISALIGNED, erms);
	ua_policy_set(p, UA_T_HUGE_MISALIGNED, UA_PICK("nt"));
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, (size_t)32 << 10);
	ua_policy_set_num(p, UA_T_LARGE_MIN, (size_t)32 << 10);
	ua_policy_set_num(p, UA_T_HUGE_MIN, llc * 3 / 4);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN, l2);
	ua_policy_set_num(p, UA_T_NOCACHE_MIN, SIZE_MAX);
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK, 63);
	ua_policy_set_num(p, UA_T_INLINE_WIDE, 1);
}

/* The family's measured deviation from the floor, if any */
enum ua_deviation { UA_FLOOR, UA_ZEN3, UA_ZEN5 };

static enum ua_deviation
ua_deviation(const struct ua_cpu *cpu)
{
	int amd = !strcmp(cpu->vendor, "AuthenticAMD");
	int erms = (cpu->features & UA_F(ERMS)) != 0;
	int fsrm = (cpu->features & UA_F(FSRM)) != 0;

	if (amd && erms && fsrm && cpu->family == 0x19 &&
	    !(cpu->features & UA_F(AVX512)))
		return UA_ZEN3;
	if (amd && erms && cpu->family == 0x1a)
		return UA_ZEN5;
	return UA_FLOOR;
}

void
ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	struct ua_glibc_floor f;

	ua_glibc_floor(cpu, &f);
	ua_x86_floor_policy(p, &f);
	switch (ua_deviation(cpu)) {
	case UA_ZEN3:
		ua_zen3_policy(p, cpu);
		break;
	case UA_ZEN5:
		ua_zen5_policy(p, cpu);
		break;
	default:
		break;
	}
}

size_t
ua_arch_default_policy_basis(char *buf, size_t size, const struct ua_cpu *cpu)
{
	static const char *const doc[] = {
	    [UA_ZEN3] = "; departs from them as docs/measurements/zen3.md says",
	    [UA_ZEN5] = "; departs from them as docs/measurements/zen5.md says",
	};
	struct ua_glibc_floor f;
	enum ua_deviation d = ua_deviation(cpu);
	size_t at;

	ua_glibc_floor(cpu, &f);
	at = ua_x86_floor_text(buf, size, 0, &f);
	return d == UA_FLOOR ? at : ua_put_str(buf, size, at, doc[d]);
}
