/* SPDX-License-Identifier: MIT */
/*
 * The end of the user address space: the lowest address above every page
 * the kernel lets this process map.  src/task_size.c finds it by probing;
 * an architecture that knows it (src/<arch>/task_size.c) replaces that.
 */
#ifndef UA_TASK_SIZE_H
#define UA_TASK_SIZE_H

#include <stdint.h>

uintptr_t ua_task_size(void);

#endif /* UA_TASK_SIZE_H */
