/* SPDX-License-Identifier: MIT */
/*
 * Offsets into struct ua_dispatch (internal.h) for memcpy.S; strategies.c
 * checks them against the C layout at compile time.
 */
#ifndef UA_X86_64_DISPATCH_OFFSETS_H
#define UA_X86_64_DISPATCH_OFFSETS_H

#define UA_DISPATCH_MEDIUM_MIN 0
#define UA_DISPATCH_LARGE_MIN 8
#define UA_DISPATCH_HUGE_MIN 16
#define UA_DISPATCH_NOCACHE_MIN 80
#define UA_DISPATCH_MEMCPY 96 /* memcpy[4]: 8 bytes apart */
#define UA_DISPATCH_MEMCPY_NOCACHE 128

#endif
