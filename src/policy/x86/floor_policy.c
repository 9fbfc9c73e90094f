/* SPDX-License-Identifier: MIT */
/* x86: glibc's choices as the library's tunables (glibc_floor.h). */
#include <stdint.h>

#include "cpu.h"
#include "page.h"
#include "x86/glibc_floor.h"

void
ua_x86_floor_policy(struct ua_policy *p, const struct ua_glibc_floor *f)
{
	/* The strategy of glibc's width, the next narrower where this build
	 * or CPU has none (i386: sse2, or movsl without SSE2) */
	static const char *const widths[] = {"avx512", "avx2", "sse2", NULL};
	const struct ua_strategy *v =
	    ua_policy_pick(f->vec_size == 64   ? widths
			   : f->vec_size == 32 ? widths + 1
					       : widths + 2);
	const struct ua_strategy *erms = UA_PICK("erms");
	/* rep movsb where glibc's memmove runs it: none on AMD, where its
	 * start is the stop */
	int rep =
	    f->erms && f->rep_movsb_threshold < f->rep_movsb_stop_threshold;
	/* rep stosb where memset runs it, below its streaming */
	int stos = f->erms &&
		   f->rep_stosb_threshold < f->memset_non_temporal_threshold;
	/* Streaming clears where memset streams (i386's nt copies only) */
	const struct ua_strategy *nt = UA_PICK("nt");
	int stream_clears =
	    f->memset_non_temporal_threshold != SIZE_MAX && nt && nt->clear;
	size_t large_min =
	    rep ? f->rep_movsb_threshold : f->non_temporal_threshold;

	ua_policy_set(p, UA_T_SMALL, v);
	ua_policy_set(p, UA_T_MEDIUM, v);
	ua_policy_set(p, UA_T_LARGE, rep ? erms : v);
	ua_policy_set(p, UA_T_HUGE, nt);
	ua_policy_set(p, UA_T_CLEAR_SMALL, v);
	ua_policy_set(p, UA_T_CLEAR_LARGE, stos ? erms : v);
	ua_policy_set(p, UA_T_CLEAR_HUGE, stream_clears ? nt : NULL);
	/* Not glibc's: the kernel's copy_from_user_nocache streams from a
	 * page (seed 001: small writes must not stream) */
	ua_policy_set(p, UA_T_NOCACHE, nt);
	ua_policy_set(p, UA_T_REP_MISALIGNED, v);
	ua_policy_set_num(p, UA_T_MEDIUM_MIN, large_min);
	ua_policy_set_num(p, UA_T_LARGE_MIN, large_min);
	ua_policy_set_num(p, UA_T_HUGE_MIN, f->non_temporal_threshold);
	ua_policy_set_num(p, UA_T_CLEAR_LARGE_MIN,
			  stos ? f->rep_stosb_threshold : SIZE_MAX);
	ua_policy_set_num(p, UA_T_CLEAR_HUGE_MIN,
			  stream_clears ? f->memset_non_temporal_threshold
					: SIZE_MAX);
	ua_policy_set_num(p, UA_T_NOCACHE_MIN, ua_page_size);
	/*
	 * glibc leaves rep movsb where src is dst + 0..63 (mod 4 GiB) on
	 * Intel with FSRM; the nearest rule of the dispatch, the relative
	 * alignment, takes the vectors for those and for every pair not
	 * equally aligned to 64 bytes
	 */
	ua_policy_set_num(p, UA_T_REP_ALIGN_MASK,
			  f->avoid_short_distance_rep_movsb ? 63 : 0);
	/* glibc copies the small sizes with its widest vectors too */
	ua_policy_set_num(p, UA_T_INLINE_WIDE,
			  f->vec_size == 64 && v->memcpy_inline_wide);
	/* glibc's loop runs backward when dst is a little ahead of src
	 * modulo 4 KiB (memmove-vec-unaligned-erms.S), at every size */
	ua_policy_set_num(p, UA_T_ALIAS_FORWARD_MIN, SIZE_MAX);
}

/* " name size" at buf[at], the size as ua_format_size writes it */
static size_t
ua_put_size(char *buf, size_t size, size_t at, const char *name, size_t v)
{
	char num[32];

	ua_format_size(num, sizeof(num), v);
	at = ua_put_str(buf, size, at, name);
	return ua_put_str(buf, size, at, num);
}

size_t
ua_x86_floor_text(char *buf, size_t size, size_t at,
		  const struct ua_glibc_floor *f)
{
	at = ua_put_str(buf, size, at, "glibc 2.44's choices: ");
	at = ua_put_num(buf, size, at, f->vec_size);
	at = ua_put_str(buf, size, at, "-byte vectors");
	if (f->erms && f->rep_movsb_threshold < f->rep_movsb_stop_threshold) {
		at = ua_put_size(buf, size, at, ", rep movsb from ",
				 f->rep_movsb_threshold);
		at = ua_put_size(buf, size, at, " to ",
				 f->rep_movsb_stop_threshold);
		if (f->avoid_short_distance_rep_movsb)
			at = ua_put_str(buf, size, at,
					" (not at short distances)");
	} else {
		at = ua_put_str(buf, size, at, ", no rep movsb");
	}
	at = ua_put_size(buf, size, at, ", streaming from ",
			 f->non_temporal_threshold);
	if (f->erms &&
	    f->rep_stosb_threshold < f->memset_non_temporal_threshold)
		at = ua_put_size(buf, size, at, ", rep stosb from ",
				 f->rep_stosb_threshold);
	else
		at = ua_put_str(buf, size, at, ", no rep stosb");
	if (f->memset_non_temporal_threshold == SIZE_MAX)
		return at;
	return ua_put_size(buf, size, at, ", clears streaming from ",
			   f->memset_non_temporal_threshold);
}
