/* SPDX-License-Identifier: MIT */
/*
 * x86-64: the default policy per CPU (default_policy.h): glibc's choices
 * for the CPU (x86/glibc_floor.h), departed from only where a measurement
 * in docs/measurements/ shows a win on that family.
 */
#include <string.h>

#include "cpu.h"
#include "default_policy.h"
#include "page.h"
#include "tunables.h"
#include "x86/cpu_features.h"
#include "x86/glibc_floor.h"

/*
 * AMD Zen 3 (ua_amd_zen3, below), with ERMS and FSRM:
 * docs/measurements/zen3.md.  Where glibc (2.42 to 2.44) never runs rep
 * movsb on AMD, aligned rep movsb from the LLC beats the AVX2 loop and is
 * level with it from half the L2; it loses when src is not 32-byte
 * aligned to dst and is many times slower when (dst - src) mod 4096 is
 * 1..31 (the figures are in zen3.md):
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
 * AMD Zen 4 (ua_amd_zen4: AVX-512 double-pumped on 256-bit data
 * paths): docs/measurements/zen4.md.  The entries keep glibc's 64-byte
 * moves up to 512 B; from 513 B the 32-byte loop (avx2) at every size
 * and relative alignment: level with the 64-byte loop aligned in L1 and
 * L2, 1.5x it at 1 KiB with dst 1 byte past src (zmm loads split a line
 * every time), 1.1-1.2x from memory; the 16-byte loop leads there only
 * when both buffers are cold and loses 0.83x into a hot destination.
 * Streaming stores from half the LLC, where a copy of a buffer the
 * caches held runs 1.9x the cached one (0.81x at a quarter).  ua_memcpy
 * runs forward when dst is 1-256 bytes ahead of src modulo 4 KiB
 * (alias_forward_min 0), as the user copies do: 1-8 KiB copies walking
 * both buffers through the LLC ran 1.1-1.5x faster forward than
 * backward, through memory 2.0-2.5x, and 8 KiB pieces of a source in
 * memory copied into one buffer 2.3-2.4x (0.86-1.0x glibc's rep movsb
 * against 0.42-0.48x); in L1 0.92-1.10x; only a source walked a page at
 * a time through the LLC into one buffer lost, 0.82-0.94x below 4 KiB.
 */
static void
ua_zen4_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	ua_policy_set(p, UA_T_LARGE, UA_PICK("avx2", "avx512", "sse2"));
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, 513);
	ua_policy_set_num(p, UA_T_LARGE_MIN, 513);
	ua_policy_set_num(p, UA_T_HUGE_MIN, ua_cpu_llc(cpu) / 2);
	ua_policy_set_num(p, UA_T_ALIAS_FORWARD_MIN, 0);
}

/*
 * AMD Zen 5 with its 512-bit datapath (ua_amd_zen5_full_width), with
 * ERMS: docs/measurements/zen5.md.  The shifted loads of avx512vbmi
 * below 32 KiB and 64-byte moves in the entries up to 1 KiB; from 32 KiB
 * rep movsb at any relative alignment, and on beyond 3/4 of the LLC for
 * equally aligned pointers, where streaming stores only draw level; the
 * others stream from there.  rep stosb from the L2 size; from glibc's
 * memset streaming threshold (2.44; 3/4 of the L3 the guest reports), the
 * vector clear: clearing 512 MiB-1 GiB, whether the memory was just
 * cleared or not touched for a while, it ran 1.2-1.3x rep stosb, which ran
 * 1.08-1.17x streaming stores.  nocache copies never stream.
 */
static void
ua_zen5_policy(struct ua_policy *p, const struct ua_cpu *cpu)
{
	static const char *const vec[] = {"avx512vbmi", "avx512", "avx2",
					  "sse2", NULL};
	const struct ua_strategy *v = ua_policy_pick(vec);
	const struct ua_strategy *erms = UA_PICK("erms");
	size_t llc = ua_cpu_llc(cpu);
	size_t l2 = cpu->l2 ? cpu->l2 : (size_t)256 << 10;

	ua_policy_set(p, UA_T_SMALL, v);
	ua_policy_set(p, UA_T_MEDIUM, v);
	ua_policy_set(p, UA_T_LARGE, erms);
	ua_policy_set(p, UA_T_HUGE, erms);
	ua_policy_set(p, UA_T_CLEAR_SMALL, v);
	ua_policy_set(p, UA_T_CLEAR_LARGE, erms);
	ua_policy_set(p, UA_T_CLEAR_HUGE, v);
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

/*
 * Intel Emerald Rapids guests (family 6, model 0xcf, or 0xa7 as one guest
 * reports it; AVX-512 with AVX-VNNI): docs/measurements/intel-emr.md.
 * The entries' four-vector loop from 513 B up to 8 KiB, where glibc's
 * floor ran them by band and rep movsb from 2112 B (sections 1 and 2);
 * rep movsb from 16 KiB, slower than the zmm loop below in L1 and level in
 * L2 (section 2); streaming stores from 32 MiB, ahead of rep movsb into a
 * destination beyond the caches from 1 MiB, level with it in the L3 from
 * there, and behind it below 32 MiB when the copy is read afterwards
 * (section 3, "hot+read").
 */
static void
ua_intel_emr_policy(struct ua_policy *p)
{
	ua_policy_set_num(p, UA_T_INLINE_LOOP, 1);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, (size_t)8 << 10);
	ua_policy_set_num(p, UA_T_LARGE_MIN, (size_t)16 << 10);
	ua_policy_set_num(p, UA_T_HUGE_MIN, (size_t)32 << 20);
}

/* The family's measured deviation from the floor, if any */
enum ua_deviation { UA_FLOOR, UA_ZEN3, UA_ZEN4, UA_ZEN5, UA_INTEL_EMR };

static int
ua_model_in(unsigned model, unsigned lo, unsigned hi)
{
	return model >= lo && model <= hi;
}

/*
 * The AMD cores measured, told apart by model as Linux does
 * (arch/x86/kernel/cpu/amd.c, bsp_init_amd): family 0x19 is Zen 3 at
 * models 0x00-0x0f and 0x20-0x5f, Zen 4 at 0x10-0x1f and 0x60-0xaf (and
 * only Zen 4 has AVX-512, which a guest may hide); family 0x1a is Zen 5
 * at 0x00-0x2f, 0x40-0x4f and 0x60-0x7f, Zen 6 at 0x50-0x5f, 0x80-0xaf
 * and 0xc0-0xef.  The Zen 5 rule was measured on the core that runs
 * 512-bit work on a 512-bit datapath (64-byte stores one a cycle: the
 * entries' 64-byte moves, the avx512vbmi loop), which the EPYC 9005
 * (0x00-0x1f) and the Ryzen 9000 desktop and Fire Range (0x40-0x4f), on
 * the EPYC's compute die, share.  The APUs, Strix Point (0x20-0x2f,
 * 512-bit work in two 256-bit halves, as on Zen 4), Krackan Point
 * (0x60-0x6f) and Strix Halo (0x70-0x7f), and Zen 6, another core, were
 * not measured here: they take the floor (docs/measurements/zen5.md,
 * "Which CPUs").
 */
static int
ua_amd_zen3(const struct ua_cpu *cpu)
{
	return cpu->family == 0x19 && (ua_model_in(cpu->model, 0x00, 0x0f) ||
				       ua_model_in(cpu->model, 0x20, 0x5f));
}

static int
ua_amd_zen4(const struct ua_cpu *cpu)
{
	return cpu->family == 0x19 && (ua_model_in(cpu->model, 0x10, 0x1f) ||
				       ua_model_in(cpu->model, 0x60, 0xaf) ||
				       (cpu->features & UA_F(AVX512)));
}

static int
ua_amd_zen5_full_width(const struct ua_cpu *cpu)
{
	return cpu->family == 0x1a && (ua_model_in(cpu->model, 0x00, 0x1f) ||
				       ua_model_in(cpu->model, 0x40, 0x4f));
}

static enum ua_deviation
ua_deviation(const struct ua_cpu *cpu)
{
	int amd = !strcmp(cpu->vendor, "AuthenticAMD");
	int erms = (cpu->features & UA_F(ERMS)) != 0;
	int fsrm = (cpu->features & UA_F(FSRM)) != 0;

	if (amd && ua_amd_zen4(cpu))
		return UA_ZEN4;
	if (amd && erms && fsrm && ua_amd_zen3(cpu))
		return UA_ZEN3;
	if (amd && erms && ua_amd_zen5_full_width(cpu))
		return UA_ZEN5;
	if (!strcmp(cpu->vendor, "GenuineIntel") && cpu->family == 6 &&
	    (cpu->model == 0xcf || cpu->model == 0xa7) && erms && fsrm &&
	    (cpu->features & UA_F(AVX512)) && (cpu->features & UA_F(AVX_VNNI)))
		return UA_INTEL_EMR;
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
	case UA_ZEN4:
		ua_zen4_policy(p, cpu);
		break;
	case UA_ZEN5:
		ua_zen5_policy(p, cpu);
		break;
	case UA_INTEL_EMR:
		ua_intel_emr_policy(p);
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
	    [UA_ZEN4] = "; departs from them as docs/measurements/zen4.md says",
	    [UA_ZEN5] = "; departs from them as docs/measurements/zen5.md says",
	    [UA_INTEL_EMR] = "; departs from them as "
			     "docs/measurements/intel-emr.md says",
	};
	struct ua_glibc_floor f;
	enum ua_deviation d = ua_deviation(cpu);
	size_t at;

	ua_glibc_floor(cpu, &f);
	at = ua_x86_floor_text(buf, size, 0, &f);
	return d == UA_FLOOR ? at : ua_put_str(buf, size, at, doc[d]);
}
