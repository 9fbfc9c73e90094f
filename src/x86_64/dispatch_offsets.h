/* SPDX-License-Identifier: MIT */
/*
 * Numbers entry.S shares with the C: offsets into struct ua_dispatch and
 * struct ua_thread (internal.h) and struct ua_misaligned (dispatch.h),
 * which strategies.c checks at compile time, and where the kind sits in
 * the user side's r9 (arch.h).
 */
#ifndef UA_X86_64_DISPATCH_OFFSETS_H
#define UA_X86_64_DISPATCH_OFFSETS_H

#define UA_DISPATCH_MEDIUM_MIN 0
#define UA_DISPATCH_LARGE_MIN 8
#define UA_DISPATCH_HUGE_MIN 16
#define UA_DISPATCH_COPY 24 /* copy[4]: 8 bytes apart */
#define UA_DISPATCH_NOCACHE_MIN 80
#define UA_DISPATCH_NOCACHE 88
#define UA_DISPATCH_MEMCPY 96 /* memcpy[4]: 8 bytes apart */
#define UA_DISPATCH_MEMCPY_NOCACHE 128

#define UA_MISALIGNED_MASK 0
#define UA_MISALIGNED_COPY 8    /* copy[4] */
#define UA_MISALIGNED_MEMCPY 40 /* memcpy[4] */

#define UA_SELF_RANGE_LO 16
#define UA_SELF_RANGE_HI 24

#define UA_KIND_SHIFT 60

#endif
