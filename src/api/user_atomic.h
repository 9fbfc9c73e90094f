/* SPDX-License-Identifier: MIT */
/*
 * Atomic operations on user memory: the routines of src/<arch>/
 * user_atomic.S, which atomic.c runs once the pointer is checked (aligned,
 * inside the user range).  Each is sequentially consistent, as the
 * __atomic builtins with __ATOMIC_SEQ_CST, and returns 0, or -EFAULT with
 * nothing written, neither the user word nor the trusted result.  A
 * routine that writes the user word checks write access whatever it
 * finds there: a cmpxchg whose compare fails on a read-only word faults,
 * as x86's lock cmpxchg does.
 */
#ifndef UA_USER_ATOMIC_H
#define UA_USER_ATOMIC_H

#include "internal.h"

/* *uptr == *old: *uptr = new_; *old = what *uptr held */
int ua_arch_cmpxchg_4(volatile uint32_t *uptr, uint32_t *old, uint32_t new_);
int ua_arch_cmpxchg_8(volatile uint64_t *uptr, uint64_t *old, uint64_t new_);
/* *oldp = *uptr, *uptr = val */
int ua_arch_xchg_4(volatile uint32_t *uptr, uint32_t val, uint32_t *oldp);
int ua_arch_xchg_8(volatile uint64_t *uptr, uint64_t val, uint64_t *oldp);
/* The futex ops but SET (xchg): *oldp = *uptr, *uptr = *uptr op oparg */
int ua_arch_futex_add(volatile uint32_t *uptr, uint32_t oparg, uint32_t *oldp);
int ua_arch_futex_or(volatile uint32_t *uptr, uint32_t oparg, uint32_t *oldp);
int ua_arch_futex_andn(volatile uint32_t *uptr, uint32_t oparg, uint32_t *oldp);
int ua_arch_futex_xor(volatile uint32_t *uptr, uint32_t oparg, uint32_t *oldp);
int ua_arch_load_acquire_4(const volatile uint32_t *uptr, uint32_t *val);
int ua_arch_load_acquire_8(const volatile uint64_t *uptr, uint64_t *val);
int ua_arch_store_release_4(volatile uint32_t *uptr, uint32_t val);
int ua_arch_store_release_8(volatile uint64_t *uptr, uint64_t val);

/*
 * At init: pick the routines' variant where a port has several (aarch64:
 * LSE atomics when HWCAP_ATOMICS says so and UACCESS_DISABLE does not
 * name lse, else exclusive load/store loops)
 */
void ua_arch_atomic_init(void);

#endif /* UA_USER_ATOMIC_H */
