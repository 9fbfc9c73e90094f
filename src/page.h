/* SPDX-License-Identifier: MIT */
/* The system's pages: their size, and whether one can be mapped somewhere. */
#ifndef UA_PAGE_H
#define UA_PAGE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The page size, once ua_page_init() has run (init runs it first: the
 * handler, the range and the policy read it; 4096 before)
 */
extern size_t ua_page_size;
/* Read it from the system; idempotent, async-signal-safe */
void ua_page_init(void);

/* Can a page be mapped at hint?  (It can if one is there already.) */
int ua_can_map_at(uintptr_t hint);

#endif /* UA_PAGE_H */
