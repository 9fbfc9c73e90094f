/* SPDX-License-Identifier: MIT */
/*
 * What the CPU is, as the architecture finds out: src/engine/cpu_detect.c
 * knows only what the C library says (cache sizes); an architecture that
 * can tell more replaces it (src/engine/<arch>/cpu_detect.c,
 * src/engine/x86/cpu_detect.c). cpu.h has the result, detected once.
 */
#ifndef UA_CPU_DETECT_H
#define UA_CPU_DETECT_H

#include <stddef.h>
#include <stdint.h>

struct ua_cpu {
	/* "GenuineIntel", "AuthenticAMD", "" if unknown */
	char vendor[16];
	unsigned family, model, stepping;
	/* Arch-defined bits, see ua_arch_feature_name() */
	uint64_t features;
	/* Data cache sizes in bytes, 0 if unknown; l3: the whole last-level
	 * cache this core shares */
	size_t l1d, l2, l3;
	/* Logical processors sharing the L2 and the L3, as the CPU reports
	 * them (x86: cpuid leaves 4 and 0xb, counted as glibc does, which
	 * leaves 0 where leaf 4 says one; Intel and Zhaoxin only, but for
	 * an AMD L3 read from leaf 0x80000006: the package's processors,
	 * which glibc divides that L3 by), 0 if unknown */
	unsigned l2_threads, l3_threads;
	/* 1: the L3 does not hold what the L2 holds, so the two add up (x86:
	 * leaf 4, read as glibc reads it: with HTT); 0: inclusive or unknown */
	unsigned l3_noninclusive;
	/* The model name the CPU reports (x86: the brand string), "" if none */
	char name[49];
};

/* Fill ret (zeroed by the caller).  Async-signal-safe: no malloc, no stdio. */
void ua_arch_cpu_detect(struct ua_cpu *ret);
/* Name of feature bit i ("avx2"), NULL if the bit has no meaning */
const char *ua_arch_feature_name(unsigned bit);

#endif /* UA_CPU_DETECT_H */
