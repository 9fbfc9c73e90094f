/* SPDX-License-Identifier: MIT */
/*
 * The CPU on an architecture without its own detection (cpu_detect.h):
 * no vendor and no feature bits, the cache sizes the C library knows.
 */
#include <unistd.h>

#include "cpu_detect.h"

/* glibc's names: another C library (musl) knows no cache sizes */
#ifndef _SC_LEVEL1_DCACHE_SIZE
#define _SC_LEVEL1_DCACHE_SIZE (-1)
#define _SC_LEVEL2_CACHE_SIZE (-1)
#define _SC_LEVEL3_CACHE_SIZE (-1)
#endif

static size_t
ua_cache(int name)
{
	long v = sysconf(name);

	return v > 0 ? (size_t)v : 0;
}

void
ua_arch_cpu_detect(struct ua_cpu *ret)
{
	ret->l1d = ua_cache(_SC_LEVEL1_DCACHE_SIZE);
	ret->l2 = ua_cache(_SC_LEVEL2_CACHE_SIZE);
	ret->l3 = ua_cache(_SC_LEVEL3_CACHE_SIZE);
}

const char *
ua_arch_feature_name(unsigned bit)
{
	(void)bit;
	return NULL;
}
