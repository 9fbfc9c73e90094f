/* SPDX-License-Identifier: MIT */
/*
 * The bulk copies' slow way (refused.c): where the entries (entry.c, or
 * src/api/<arch>/entry.S) go when access_ok does not hold, which is also the
 * first call of a process: init, look again, then run, cut at the end of
 * the default range, or refuse (range.h).
 */
#ifndef UA_REFUSED_H
#define UA_REFUSED_H

#include <stddef.h>

size_t ua_from_user_refused(void *dst, const void *usrc, size_t n);
size_t ua_from_user_nocache_refused(void *dst, const void *usrc, size_t n);
size_t ua_to_user_refused(void *udst, const void *src, size_t n);

#endif /* UA_REFUSED_H */
