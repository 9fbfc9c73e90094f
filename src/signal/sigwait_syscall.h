/* SPDX-License-Identifier: MIT */
/*
 * The system call of a sigwait for SIGSEGV/SIGBUS (interpose.c), one
 * routine per architecture: <arch>/sigwait_syscall.S.
 */
#ifndef UA_SIGWAIT_SYSCALL_H
#define UA_SIGWAIT_SYSCALL_H

#include <signal.h>
#include <stdatomic.h>

/* The kernel's timespec: long on every port (i386 takes the 32-bit call) */
struct ua_kts {
	long tv_sec, tv_nsec;
};

/*
 * rt_sigtimedwait for set, or 0 without it when *woken is set.  A wake-up's
 * handler (sigchain.c: ua_sig_woken_up) sets the waiter's woken word, and
 * sends it back to the check when it interrupted it from ua_sigwait_check
 * through ua_sigwait_sys (the system call not yet entered): a wake-up that
 * comes after the waiter cleared woken is never lost.  Returns the signal
 * number, 0 when woken, or -errno.
 */
long ua_sigwait_syscall(const sigset_t *set, siginfo_t *info,
			const struct ua_kts *timeout, const atomic_int *woken);
extern const char ua_sigwait_check[], ua_sigwait_sys[];

#endif /* UA_SIGWAIT_SYSCALL_H */
