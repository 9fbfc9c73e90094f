/* SPDX-License-Identifier: MIT */
/* x86 (i386 and x86-64): what cpuid says about this CPU (cpu_detect.h). */
#include <cpuid.h>
#include <string.h>

#include "cpu_detect.h"
#include "x86/cpu_features.h"

static const char *const ua_x86_feature_names[UA_X86_NFEATURES] = {
    [UA_X86_ERMS] = "erms", [UA_X86_FSRM] = "fsrm",
    [UA_X86_AVX2] = "avx2", [UA_X86_AVX512] = "avx512",
    [UA_X86_SSE2] = "sse2", [UA_X86_AVX512VBMI] = "avx512vbmi",
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
		if (level == 1)
			c->l1d = size;
		else if (level == 2)
			c->l2 = size;
		else if (level == 3)
			c->l3 = size;
	}
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
	unsigned a, b, c, d, max, maxext, fam, model;
	uint64_t f = 0;

	/* An i386 or i486 without the cpuid instruction: __get_cpuid says 0 */
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
	if (d & (1u << 26))
		f |= UA_F(SSE2);
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
		if ((b7 & (1u << 16)) && (b7 & (1u << 30)) &&
		    (b7 & (1u << 31)) && (xcr0 & 0xe6) == 0xe6)
			f |= UA_F(AVX512);
		if ((f & UA_F(AVX512)) && (c7 & (1u << 1)))
			f |= UA_F(AVX512VBMI);
	}
	ret->features = f;
	__cpuid(0x80000000, maxext, b, c, d);
	if (maxext >= 0x80000004)
		ua_x86_name(ret);
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
