/* SPDX-License-Identifier: MIT */
/* x86 (i386 and x86-64): the bits of struct ua_cpu.features. */
#ifndef UA_X86_FEATURES_H
#define UA_X86_FEATURES_H

#include <stdint.h>

enum {
	UA_X86_ERMS,
	UA_X86_FSRM,
	UA_X86_AVX2,       /* with the OS saving ymm state */
	UA_X86_AVX512,     /* F, BW and VL, with the OS saving zmm state */
	UA_X86_SSE2,       /* always there on x86-64 */
	UA_X86_AVX512VBMI, /* AVX512 and VBMI (vpermt2b) */
	/* Only for the glibc floor (glibc_floor.h): */
	UA_X86_AVX512F,  /* F with the OS saving zmm state (Xeon Phi: no BW) */
	UA_X86_AVX512ER, /* Xeon Phi's, with AVX512F */
	UA_X86_AVX_VNNI, /* the VEX one (cpuid 7.1 eax 4), with ymm state */
	UA_X86_RTM,      /* TSX, unless it always aborts */
	UA_X86_NFEATURES
};
#define UA_F(x) ((uint64_t)1 << UA_X86_##x)

#endif /* UA_X86_FEATURES_H */
