/* SPDX-License-Identifier: MIT */
/*
 * aarch64: which variant of the atomic routines runs (user_atomic.S).  The
 * exclusive loops run on every CPU, so they are in force until init has
 * looked: the LSE atomics when the kernel reports HWCAP_ATOMICS, unless
 * UACCESS_DISABLE names lse (the tests run both variants so).
 */
#include <sys/auxv.h>

#include "usable.h"
#include "user_atomic.h"

#ifndef HWCAP_ATOMICS
#define HWCAP_ATOMICS (1 << 8)
#endif

/* 1: the LSE atomics (read by user_atomic.S) */
unsigned char ua_atomic_lse __attribute__((visibility("hidden")));

void
ua_arch_atomic_init(void)
{
	ua_atomic_lse =
	    (getauxval(AT_HWCAP) & HWCAP_ATOMICS) && !ua_disable_listed("lse");
}
