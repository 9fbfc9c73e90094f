/* SPDX-License-Identifier: MIT */
/* Usercopy fault injection (inject.c): UACCESS_FAIL and ua_fail_usercopy(). */
#ifndef UA_INJECT_H
#define UA_INJECT_H

#include <stdatomic.h>

#include "internal.h"

/*
 * The gate of the calls that run no dispatch routine (get_user, put_user,
 * the strings, user_access_begin): 1 when the library is initialised and
 * fault injection is off (init.h: ua_user_gate); fault injection closes it.
 */
extern atomic_int ua_gate;
/*
 * Behind a closed gate, after init: 1 when this call of n bytes at p is to
 * fail, with the byte of the fault in *ret_cut (0: the whole call fails,
 * and it is recorded for ua_last_fault()).  Injection off: opens the gate
 * if the library is ready, and returns 0.
 */
int ua_fail_gate(const volatile void *p, size_t n, size_t *ret_cut, int ready);
/* Record an injected fault at addr for ua_last_fault() */
void ua_fail_record(uintptr_t addr);
/* At init, once: UACCESS_FAIL */
void ua_fail_init(void);

#endif /* UA_INJECT_H */
