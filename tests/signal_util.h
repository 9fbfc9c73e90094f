/* SPDX-License-Identifier: MIT */
/*
 * For the signal_* tests: faulting copies of every kind whose results are
 * checked exactly with nothing but async-signal-safe code (no stdio, no
 * allocation), so that they can run inside signal handlers, on small
 * stacks and in fork children.
 */
#ifndef UA_SIGNAL_UTIL_H
#define UA_SIGNAL_UTIL_H

#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "test.h"

/* One good page then one bad page of each kind */
struct sig_mem {
	struct t_layout l[T_BAD_KINDS];
	int testable[T_BAD_KINDS]; /* t_bad_testable(), decided up front */
};

static struct sig_mem sig_mem0; /* the main thread's */
static atomic_ulong sig_failures, sig_calls;

static inline void
sig_say(const char *a, const char *b)
{
	ssize_t r;

	r = write(2, a, strlen(a));
	r = write(2, b, strlen(b));
	r = write(2, "\n", 1);
	(void)r;
}

static inline void
sig_fail(const char *where, const char *what)
{
	atomic_fetch_add(&sig_failures, 1);
	sig_say(where, what);
}

/* In a child that is meant to die of a signal */
static inline void
sig_no_core_dump(void)
{
	struct rlimit no_core = {0, 0};

	setrlimit(RLIMIT_CORE, &no_core);
}

/*
 * Valgrind cannot grow the main thread's stack while it delivers a signal
 * (tests/valgrind.sh): the stack the handlers use is touched up front.
 */
static inline void
grow_stack(void)
{
	volatile char stack[256 * 1024];
	size_t i;

	for (i = 0; i < sizeof(stack); i += 1024)
		stack[i] = 0;
}

/*
 * fork, as a test's child: with secs, the child dies of a hang after secs
 * (a hang is a failure, not a timeout) and without a core dump
 */
static inline pid_t
sig_fork(unsigned secs)
{
	pid_t pid = fork();

	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0 && secs) {
		sig_no_core_dump();
		alarm(secs);
	}
	return pid;
}

static inline int
wait_child(pid_t pid)
{
	int status;

	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	return status;
}

/*
 * Install a SIGSEGV handler before ua_init() or after it (the library
 * then records it and chains to it): 0, or -1 if either failed
 */
static inline int
sig_install_around_init(void (*fn)(int, siginfo_t *, void *), int flags,
			const sigset_t *mask, int before)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	if (mask)
		sa.sa_mask = *mask;
	if (!before && ua_init())
		return -1;
	if (sigaction(SIGSEGV, &sa, NULL))
		return -1;
	return before && ua_init() ? -1 : 0;
}

static inline void
sig_mem_new(struct sig_mem *m)
{
	int kind;

	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		m->l[kind] = t_layout_new(1, (enum t_bad)kind);
		m->testable[kind] = t_bad_testable((enum t_bad)kind);
	}
}

static inline void
sig_mem_free(struct sig_mem *m)
{
	int kind;

	for (kind = 0; kind < T_BAD_KINDS; kind++)
		t_layout_free(&m->l[kind]);
}

/*
 * In m (one user per sig_mem at a time):
 * copy_from_user, copy_from_user_nocache, copy_to_user and clear_user of
 * 200 bytes starting `before` bytes ahead of every kind of bad page.
 * Returns the number of failed checks (also counted in sig_failures).
 */
static inline unsigned long
sig_exercise_mem(struct sig_mem *m, const char *where, unsigned salt)
{
	unsigned long f0 = atomic_load(&sig_failures);
	unsigned char buf[200], src[200];
	size_t n = sizeof(buf), before = 1 + salt % 150, i;
	int kind;

	for (i = 0; i < n; i++)
		src[i] = (unsigned char)(i * 7 + salt + 1);
	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		char *u = m->l[kind].bad - before;
		size_t k = t_bad_blocks_read((enum t_bad)kind) ? before : n;
		size_t left;
		int nocache;

		if (!m->testable[kind])
			continue;

		for (nocache = 0; nocache < 2; nocache++) {
			memset(buf, 0xee, n);
			left = nocache ? ua_copy_from_user_nocache(buf, u, n)
				       : ua_copy_from_user(buf, u, n);
			atomic_fetch_add(&sig_calls, 1);
			if (left != n - k)
				sig_fail(where, ": from_user: wrong count");
			for (i = 0; i < n; i++)
				if (buf[i] !=
				    (i < k ? (unsigned char)u[i] : 0)) {
					sig_fail(where,
						 ": from_user: wrong data");
					break;
				}
		}
		left = ua_copy_to_user(u, src, n);
		atomic_fetch_add(&sig_calls, 1);
		if (left != n - before)
			sig_fail(where, ": to_user: wrong count");
		if (memcmp(u, src, before))
			sig_fail(where, ": to_user: wrong data");
		left = ua_clear_user(u, n);
		atomic_fetch_add(&sig_calls, 1);
		if (left != n - before)
			sig_fail(where, ": clear_user: wrong count");
		for (i = 0; i < before; i++)
			if (u[i]) {
				sig_fail(where, ": clear_user: wrong data");
				break;
			}
		memset(u, 0x5a, before);
	}
	return atomic_load(&sig_failures) - f0;
}

static inline unsigned long
sig_exercise(const char *where, unsigned salt)
{
	return sig_exercise_mem(&sig_mem0, where, salt);
}

#endif /* UA_SIGNAL_UTIL_H */
