/* SPDX-License-Identifier: MIT */
/* x86 (i386 and x86-64): what cpuid says about this CPU (cpu_detect.h). */
#include <cpuid.h>
#include <string.h>

#include "cpu_detect.h"
#include "x86/cpu_features.h"

static const char *const ua_x86_feature_names[UA_X86_NFEATURES] = {
    [UA_X86_ERMS] = "erms",         [UA_X86_FSRM] = "fsrm",
    [UA_X86_AVX2] = "avx2",         [UA_X86_AVX512] = "avx512",
    [UA_X86_SSE2] = "sse2",         [UA_X86_AVX512VBMI] = "avx512vbmi",
    [UA_X86_AVX512F] = "avx512f",   [UA_X86_AVX512ER] = "avx512er",
    [UA_X86_AVX_VNNI] = "avx_vnni", [UA_X86_RTM] = "rtm",
};

const char *
ua_arch_feature_name(unsigned bit)
{
	return bit < UA_X86_NFEATURES ? ua_x86_feature_names[bit] : NULL;
}

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
		if (level == 1) {
			c->l1d = size;
		} else if (level == 2) {
			c->l2 = size;
			c->l2_threads = (a >> 14) & 0x3ff;
		} else if (level == 3) {
			c->l3 = size;
			c->l3_threads = (a >> 14) & 0x3ff;
			c->l3_noninclusive = leaf == 4 && !(d & 2);
		}
	}
}

/* n, the most IDs leaf 4 says share a cache, cut to the processors that
 * leaf 0xb says a level holds */
static unsigned
ua_x86_count_mask(unsigned n, unsigned shipped)
{
	unsigned bits = 32 - (unsigned)__builtin_clz(n);

	return (shipped - 1) & (bits >= 32 ? ~0u : (1u << bits) - 1);
}

/*
 * Logical processors sharing the L2 and the L3, as glibc's
 * get_common_cache_info (sysdeps/x86/dl-cacheinfo.h, 2.42 to 2.44) counts
 * them for its per-thread share of the cache: leaf 4's maximum of IDs, cut
 * by leaf 0xb's processors per core (L2) and per package (L3); none
 * without HTT.  Intel and Zhaoxin only, as there.
 */
static void
ua_x86_threads(unsigned max, unsigned ebx1, unsigned edx1, int zhaoxin6,
	       struct ua_cpu *c)
{
	unsigned i, a, b, cx, d;

	if (!(edx1 & (1u << 28))) { /* HTT: one logical processor */
		/* glibc reads inclusiveness in the same loop, skipped */
		c->l2_threads = c->l3_threads = c->l3_noninclusive = 0;
		return;
	}
	if (max < 4) {
		c->l2_threads = c->l3_threads = (ebx1 >> 16) & 0xff;
		return;
	}
	for (i = 0; max >= 11 && !zhaoxin6 && i < 8; i++) {
		unsigned type, shipped;

		__cpuid_count(11, i, a, b, cx, d);
		shipped = b & 0xff;
		type = cx & 0xff00;
		if (!shipped || !type)
			break;
		if (type == 0x100 && c->l2_threads && c->l3)
			c->l2_threads =
			    ua_x86_count_mask(c->l2_threads, shipped);
		else if (type == 0x200 && c->l3 && c->l3_threads)
			c->l3_threads =
			    ua_x86_count_mask(c->l3_threads, shipped);
		else if (type == 0x200 && !c->l3 && c->l2_threads)
			c->l2_threads =
			    ua_x86_count_mask(c->l2_threads, shipped);
	}
	c->l2_threads += c->l2_threads > 0;
	c->l3_threads += c->l3_threads > 0;
}

/* The brand string of leaves 0x80000002-4, without its padding */
static void
ua_x86_name(struct ua_cpu *c)
{
	unsigned r[12], i;
	char raw[49];
	size_t at = 0, end = 0;

	for (i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2],
			r[4 * i + 3]);
	memcpy(raw, r, 48);
	raw[48] = 0;
	for (i = 0; raw[i] == ' '; i++)
		;
	for (; raw[i]; i++) {
		c->name[at++] = raw[i];
		if (raw[i] != ' ')
			end = at;
	}
	c->name[end] = 0;
}

/* Vendor, family, model, features and cache sizes; all zero without cpuid */
void
ua_arch_cpu_detect(struct ua_cpu *ret)
{
	unsigned a, b, c, d, max, maxext, fam, model, ebx1, edx1;
	uint64_t f = 0;
	int intel, zhaoxin, legacy_l3 = 0;

	/* An i386 or i486 without the cpuid instruction: __get_cpuid says 0 */
	if (!__get_cpuid(0, &max, &b, &c, &d))
		return;
	memcpy(ret->vendor, &b, 4);
	memcpy(ret->vendor + 4, &d, 4);
	memcpy(ret->vendor + 8, &c, 4);
	ret->vendor[12] = 0;
	intel = !strcmp(ret->vendor, "GenuineIntel");
	zhaoxin = !strcmp(ret->vendor, "CentaurHauls") ||
		  !strcmp(ret->vendor, "  Shanghai  ");
	__cpuid(1, a, ebx1, c, edx1);
	d = edx1;
	fam = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	ret->family = fam;
	ret->model = model;
	ret->stepping = a & 0xf;
	if (d & (1u << 26))
		f |= UA_F(SSE2);
	if (max >= 7) {
		unsigned osxsave = (c >> 27) & 1, b7, c7, d7, max7;
		uint64_t xcr0 = osxsave ? ua_xgetbv0() : 0;

		__cpuid_count(7, 0, max7, b7, c7, d7);
		if (b7 & (1u << 9))
			f |= UA_F(ERMS);
		if (d7 & (1u << 4))
			f |= UA_F(FSRM);
		/* xmm and ymm state */
		if ((b7 & (1u << 5)) && (xcr0 & 6) == 6)
			f |= UA_F(AVX2);
		/* F (16), BW (30), VL (31); opmask, zmm hi256, hi16 zmm */
		if ((b7 & (1u << 16)) && (b7 & (1u << 30)) &&
		    (b7 & (1u << 31)) && (xcr0 & 0xe6) == 0xe6)
			f |= UA_F(AVX512);
		if ((f & UA_F(AVX512)) && (c7 & (1u << 1)))
			f |= UA_F(AVX512VBMI);
		if ((b7 & (1u << 16)) && (xcr0 & 0xe6) == 0xe6)
			f |= UA_F(AVX512F);
		if ((f & UA_F(AVX512F)) && (b7 & (1u << 27)))
			f |= UA_F(AVX512ER);
		/* RTM, not always aborting (7.0 edx 11) */
		if ((b7 & (1u << 11)) && !(d7 & (1u << 11)))
			f |= UA_F(RTM);
		if (max7 >= 1 && (xcr0 & 6) == 6) {
			__cpuid_count(7, 1, a, b7, c7, d7);
			if (a & (1u << 4))
				f |= UA_F(AVX_VNNI);
		}
	}
	ret->features = f;
	__cpuid(0x80000000, maxext, b, c, d);
	if (maxext >= 0x80000004)
		ua_x86_name(ret);
	if (max >= 4 && (intel || zhaoxin))
		ua_x86_caches(4, ret);
	else if (maxext >= 0x8000001d)
		ua_x86_caches(0x8000001d, ret);
	if (!ret->l1d && maxext >= 0x80000005) {
		__cpuid(0x80000005, a, b, c, d);
		ret->l1d = (size_t)(c >> 24) << 10;
	}
	if (!ret->l2 && maxext >= 0x80000006) {
		__cpuid(0x80000006, a, b, c, d);
		/* an associativity of 0: no such cache */
		ret->l2 = c & 0xf000 ? (size_t)(c >> 16) << 10 : 0;
		ret->l3 = d & 0xf000 ? (size_t)(d >> 18) << 19 : 0;
		legacy_l3 = ret->l3 != 0;
	}
	if (intel || zhaoxin)
		ua_x86_threads(max, ebx1, edx1, zhaoxin && fam == 6, ret);
	else
		ret->l2_threads = ret->l3_threads = 0;
	/*
	 * AMD with its L3 from 0x80000006 (before family 0x15, or a
	 * hypervisor that leaves 0x8000001D empty): glibc 2.44's handle_amd
	 * takes a logical processor's share of it, the package's count from
	 * 0x80000008 (or leaf 1 with HTT)
	 */
	if (legacy_l3 && !strcmp(ret->vendor, "AuthenticAMD")) {
		c = 0;
		if (maxext >= 0x80000008) {
			__cpuid(0x80000008, a, b, c, d);
			c = (c & 0xff) + 1;
		} else if (edx1 & (1u << 28)) {
			c = (ebx1 >> 16) & 0xff;
		}
		ret->l3_threads = c;
	}
}
