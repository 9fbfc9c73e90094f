/* SPDX-License-Identifier: MIT */
/*
 * x86 (i386 and x86-64): the floor of the default policy, what glibc 2.44
 * chooses for memcpy and memset on a CPU, computed from the same cpuid
 * facts as its sysdeps/x86/cpu-features.c (init_cpu_features: the
 * preferred bits),
 * sysdeps/x86/dl-cacheinfo.h (dl_init_cacheinfo: the thresholds) and
 * sysdeps/x86_64/multiarch/ifunc-memmove.h (the vector width).  Without
 * GLIBC_TUNABLES: Prefer_ERMS and Prefer_FSRM, which only the tunables
 * set, are never on, and memmove is never rep movsb alone.
 */
#ifndef UA_X86_GLIBC_FLOOR_H
#define UA_X86_GLIBC_FLOOR_H

#include <stddef.h>

#include "cpu_detect.h"
#include "tunables.h"

struct ua_glibc_floor {
	/* cpu-features.c's preferred bits */
	unsigned prefer_no_avx512 : 1, prefer_no_vzeroupper : 1,
	    avoid_short_distance_rep_movsb : 1, avx_fast_unaligned_load : 1;
	/* Bytes per move of the memmove ifunc-memmove.h picks: 64
	 * (avx512_*), 32 (evex_*, avx_*), 16 (sse2_*, ssse3) */
	unsigned vec_size;
	/* memmove uses rep movsb (its *_erms variant: ERMS) */
	unsigned erms : 1;
	/* dl-cacheinfo.h: non-temporal stores from non_temporal_threshold;
	 * rep movsb from rep_movsb_threshold to below rep_movsb_stop_threshold
	 * (none where they meet); memset's rep stosb from rep_stosb_threshold
	 * to below memset_non_temporal_threshold (none where they meet), its
	 * non-temporal stores from there (SIZE_MAX: never) */
	size_t non_temporal_threshold, rep_movsb_threshold,
	    rep_movsb_stop_threshold, rep_stosb_threshold,
	    memset_non_temporal_threshold;
};

/* glibc's choices for cpu; pure: cpu need not be this machine's */
void ua_glibc_floor(const struct ua_cpu *cpu, struct ua_glibc_floor *ret);

/*
 * Fill every tunable of p with f as the library's strategies (floor_policy.c):
 * the vectors of glibc's width for the small and medium classes and the
 * clears, rep movsb (erms) between glibc's two thresholds, at any relative
 * alignment but where glibc avoids short distances, streaming from the
 * non-temporal threshold, rep stosb from rep_stosb_threshold, streaming
 * clears from memset's non-temporal threshold.
 */
void ua_x86_floor_policy(struct ua_policy *p, const struct ua_glibc_floor *f);
/* f in words ("glibc 2.44's choices: 64-byte vectors, ..."), at buf[at];
 * returns the new length */
size_t ua_x86_floor_text(char *buf, size_t size, size_t at,
			 const struct ua_glibc_floor *f);

#endif /* UA_X86_GLIBC_FLOOR_H */
