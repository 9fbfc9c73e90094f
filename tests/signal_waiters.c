/* SPDX-License-Identifier: MIT */
/*
 * Description: 64 threads wait in sigwait, sigwaitinfo and sigtimedwait
 * for a SIGSEGV sent to the process while every thread blocks it, more
 * than the library's 32 slots for waiters it wakes when it holds one
 * (issue 32): each of 64 kill()s ends one wait, as in the kernel.  Before,
 * a 33rd waiter was never woken and the held signal stayed held.  Then the
 * same with SIGUSR1, which the library does not hold.
 *
 * uaccess-test: keep
 * uaccess-test: timeout=120
 */
#include <sched.h>
#include <time.h>

#include "signal_util.h"

#define WAITERS 64

static atomic_int ready, received, wrong;
static int waited_signo;

static void *
waiter(void *arg)
{
	long i = (long)arg;
	struct timespec long_wait = {3600, 0};
	siginfo_t si;
	sigset_t set;
	int signo = -1;

	sigemptyset(&set);
	sigaddset(&set, waited_signo);
	atomic_fetch_add(&ready, 1);
	switch (i % 3) {
	case 0:
		if (sigwait(&set, &signo))
			signo = -1;
		break;
	case 1:
		/* EINTR: woken for a signal another waiter took (the kernel
		 * does this too) */
		do
			signo = sigwaitinfo(&set, &si);
		while (signo < 0 && errno == EINTR);
		break;
	default:
		do
			signo = sigtimedwait(&set, &si, &long_wait);
		while (signo < 0 && errno == EINTR);
		break;
	}
	if (signo != waited_signo)
		atomic_fetch_add(&wrong, 1);
	atomic_fetch_add(&received, 1);
	return NULL;
}

static void
wait_for(atomic_int *counter, int n)
{
	struct timespec ms = {0, 1000000};

	while (atomic_load(counter) < n)
		nanosleep(&ms, NULL);
}

static void
run(int signo)
{
	pthread_t t[WAITERS];
	long i;

	waited_signo = signo;
	atomic_store(&ready, 0);
	atomic_store(&received, 0);
	for (i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, waiter, (void *)i), 0);
	wait_for(&ready, WAITERS);
	for (i = 0; i < WAITERS; i++) {
		CHECK_EQ(kill(getpid(), signo), 0);
		wait_for(&received, (int)i + 1);
	}
	for (i = 0; i < WAITERS; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	CHECK_EQ(atomic_load(&wrong), 0);
	CHECK_EQ(atomic_load(&received), WAITERS);
}

int
main(void)
{
	const char *keep;
	sigset_t set;

	if (!t_threads_keep_tls())
		return T_SKIP;
	CHECK_EQ(ua_init(), 0);
	/* Blocked in every thread: a sent signal waits for a sigwait */
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	sigaddset(&set, SIGUSR1);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &set, NULL), 0);
	/* A hang is the failure: SIGALRM kills */
	alarm(100);
	/* qemu-user never wakes a sigwait for a SIGSEGV sent while every
	 * thread blocks it (a program without the library hangs the same
	 * way): under keep, where the library leaves it to the emulator */
	keep = getenv("UACCESS_SIGNALS");
	if (getenv("UA_TEST_EMULATOR") && keep && !strcmp(keep, "keep"))
		printf("SIGSEGV waits skipped: the emulator does not wake "
		       "them\n");
	else
		run(SIGSEGV);
	run(SIGUSR1);
	/* The library's own faults are still its own */
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &set, NULL), 0);
	sig_mem_new(&sig_mem0);
	CHECK_EQ(sig_exercise("after the waits", 1), 0);
	t_done("signal_waiters");
	return T_PASS;
}
