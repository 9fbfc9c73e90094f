/* SPDX-License-Identifier: MIT */
/* The CPU this process runs on, detected once (cpu_detect.h has how). */
#ifndef UA_CPU_H
#define UA_CPU_H

#include "cpu_detect.h"

/*
 * Detected once: the architecture's hook (ua_arch_cpu_detect), then the
 * cache sizes it left unknown from sysfs (cpu0's cache/index*), with open
 * and read only.
 */
const struct ua_cpu *ua_cpu(void);
/* "vendor family model", as the profile's cpu= line names it; returns length */
size_t ua_cpu_id(char *buf, size_t size, const struct ua_cpu *cpu);
/* Its features by name, space-separated ("erms fsrm avx2"); returns length */
size_t ua_cpu_features(char *buf, size_t size, const struct ua_cpu *cpu);
/*
 * Text without stdio (init may run in a signal handler): append s, or v in
 * decimal, at buf[at], cut to fit size with the NUL; return the new length
 */
size_t ua_put_str(char *buf, size_t size, size_t at, const char *s);
size_t ua_put_num(char *buf, size_t size, size_t at, size_t v);

/* The last-level cache the default policies size by: the L3, else the L2,
 * else 1 MiB where neither is known */
static inline size_t
ua_cpu_llc(const struct ua_cpu *cpu)
{
	return cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)1 << 20;
}

#endif /* UA_CPU_H */
