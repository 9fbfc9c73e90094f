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

#endif /* UA_CPU_H */
