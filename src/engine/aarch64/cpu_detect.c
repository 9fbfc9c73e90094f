/* SPDX-License-Identifier: MIT */
/* aarch64: the CPU as the kernel describes it (cpu_detect.h). */
#include <sys/auxv.h>
#include <unistd.h>

#include "cpu_detect.h"
#include "cpu_features.h"

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

static const char *const ua_a64_feature_names[UA_A64_NFEATURES] = {
    [UA_A64_ASIMD] = "asimd",
};

const char *
ua_arch_feature_name(unsigned bit)
{
	return bit < UA_A64_NFEATURES ? ua_a64_feature_names[bit] : NULL;
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
