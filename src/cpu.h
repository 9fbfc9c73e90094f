/* SPDX-License-Identifier: MIT */
/* The CPU this process runs on, detected once (cpu_detect.h has how). */
#ifndef UA_CPU_H
#define UA_CPU_H

#include "cpu_detect.h"

const struct ua_cpu *ua_cpu(void);
/* "vendor family model", as the profile's cpu= line names it; returns length */
size_t ua_cpu_id(char *buf, size_t size, const struct ua_cpu *cpu);

#endif /* UA_CPU_H */
