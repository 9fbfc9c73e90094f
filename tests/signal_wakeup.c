/* SPDX-License-Identifier: MIT */
/*
 * Description: a SIGSEGV/SIGBUS sent to the process while every thread
 * blocks it is held by the library, which wakes the threads waiting for it
 * in sigwait with a signal of its own (issue 32).  A wake-up that reached
 * a waiter after it last looked for a held signal and before its
 * rt_sigtimedwait began was lost: the waiter slept with the signal held
 * (signal_sent under qemu-aarch64: "sigwait thread got 3 of 4 signals").
 * Checked here, each part on its own:
 * - ua_sigwait_syscall: with the woken word set it returns 0 and makes no
 *   system call (a pending signal stays pending); without it, the pending
 *   signal, or -EAGAIN after a zero timeout;
 * - the wake-up's handler sets the woken word, sends a pc from
 *   ua_sigwait_check through ua_sigwait_sys back to the check, and leaves
 *   every other pc alone;
 * - a kill() taken by this thread while it is a registered waiter wakes
 *   it: the woken word is set, and the signal is held for it;
 * - rounds of kill() and sigwaitinfo() between two threads, the waiter's
 *   way back into the wait varied in length, lose no signal
 *   (UA_WAKEUP_ROUNDS of them, default 2000: tests/valgrind.sh says why
 *   it runs none);
 * - the owner lock blocks every signal, the C library's own SIGCANCEL
 *   too, so that a waiter cancelled asynchronously in its system call
 *   cannot stop inside it (nor inside a held signal's slot, which blocks
 *   the same way);
 * - a thread cancelled in sigwaitinfo ends there, as in the C library,
 *   and gives its waiter slot back (more threads than slots).
 *
 * uaccess-test: internal
 * uaccess-test: interposition
 * uaccess-test: timeout=120
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>

#include "arch.h"
#include "sigchain.h"
#include "signal_util.h"
#include "sigwait_syscall.h"

static void
test_syscall(void)
{
	struct ua_kts zero = {0, 0};
	sigset_t usr1, pend;
	atomic_int woken;
	siginfo_t si;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &usr1, NULL), 0);
	atomic_store(&woken, 0);
	CHECK_EQ(ua_sigwait_syscall(&usr1, &si, &zero, &woken), -EAGAIN);

	CHECK_EQ(raise(SIGUSR1), 0);
	atomic_store(&woken, 1);
	CHECK_EQ(ua_sigwait_syscall(&usr1, &si, NULL, &woken), 0);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(sigismember(&pend, SIGUSR1) == 1,
	      "woken, yet the system call took SIGUSR1");
	atomic_store(&woken, 0);
	CHECK_EQ(ua_sigwait_syscall(&usr1, &si, NULL, &woken), SIGUSR1);
	CHECK_EQ(si.si_signo, SIGUSR1);
	CHECK_EQ(si.si_code, SI_TKILL);
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &usr1, NULL), 0);
}

/* The handler's rule, on a context with the pc set to each address */
static void
test_rewind(void)
{
	uintptr_t check = (uintptr_t)ua_sigwait_check;
	uintptr_t sys = (uintptr_t)ua_sigwait_sys;
	atomic_int *woken = ua_sig_woken();
	const uintptr_t outside[] = {check - 1, sys + 1,
				     (uintptr_t)ua_sigwait_syscall};
	ucontext_t uc;
	uintptr_t pc;
	size_t i;

	CHECK(check < sys && sys - check < 64,
	      "ua_sigwait_check %p, ua_sigwait_sys %p", (void *)check,
	      (void *)sys);
	CHECK_EQ(getcontext(&uc), 0);
	for (pc = check; pc <= sys; pc++) {
		atomic_store(woken, 0);
		ua_ctx_set_pc(&uc, pc);
		ua_sig_woken_up(&uc);
		CHECK_EQ(ua_ctx_pc(&uc), check);
		CHECK_EQ(atomic_load(woken), 1);
	}
	for (i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		if (outside[i] >= check && outside[i] <= sys)
			continue; /* the entry, when it starts at the check */
		atomic_store(woken, 0);
		ua_ctx_set_pc(&uc, outside[i]);
		ua_sig_woken_up(&uc);
		CHECK_EQ(ua_ctx_pc(&uc), outside[i]);
		CHECK_EQ(atomic_load(woken), 1);
	}
	atomic_store(woken, 0);
}

/*
 * This thread, the only one, blocks SIGBUS and waits for it: the kill()
 * is delivered to it, held, and its wake-up comes back to it, where the
 * next system call would otherwise have slept
 */
static void
test_held_wakes(void)
{
	struct timespec ts = {0, 1000000}, zero = {0, 0};
	atomic_int *woken = ua_sig_woken();
	sigset_t bus;
	siginfo_t si;
	int slot, i;

	sigemptyset(&bus);
	sigaddset(&bus, SIGBUS);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &bus, NULL), 0);
	slot = ua_sig_waiter_add(UA_SIG_BUS);
	CHECK(slot >= 0, "no waiter slot");
	atomic_store(woken, 0);
	CHECK_EQ(kill(getpid(), SIGBUS), 0);
	/* valgrind delivers it at its next scheduling point */
	for (i = 0; i < 2000 && !atomic_load(woken); i++)
		nanosleep(&ts, NULL);
	CHECK_EQ(atomic_load(woken), 1);
	CHECK_EQ(ua_sig_pending(UA_SIG_BUS), UA_SIG_BUS);
	ua_sig_waiter_del(slot);
	CHECK_EQ(sigtimedwait(&bus, &si, &zero), SIGBUS);
	CHECK_EQ(si.si_code, SI_USER);
	CHECK_EQ(si.si_pid, getpid());
	CHECK_EQ(ua_sig_pending(UA_SIG_BUS), 0);
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &bus, NULL), 0);
}

static int rounds = 2000;
static atomic_int taken;

static void *
waiter(void *p)
{
	unsigned seed = 1;
	sigset_t bus;
	siginfo_t si;
	int i;

	(void)p;
	sigemptyset(&bus);
	sigaddset(&bus, SIGBUS);
	for (i = 0; i < rounds; i++) {
		volatile unsigned spin;

		CHECK_EQ(sigwaitinfo(&bus, &si), SIGBUS);
		CHECK_EQ(si.si_code, SI_USER);
		atomic_store(&taken, i + 1);
		/* Back into the wait sooner or later than the next kill() */
		seed = seed * 1103515245u + 12345u;
		for (spin = (seed >> 16) % 8192; spin; spin--)
			;
	}
	return NULL;
}

/* Signal s in a kernel mask of _NSIG bits */
#define KSET_WORDS (_NSIG / 8 / sizeof(unsigned long))
static int
kset_has(const unsigned long *set, int s)
{
	const unsigned w = 8 * sizeof(unsigned long);

	return set[(unsigned)(s - 1) / w] >> (unsigned)(s - 1) % w & 1;
}

/*
 * A waiter runs its system call in asynchronous cancel mode, so the
 * handler's shared steps (the owner lock, a held process signal's slot
 * and wake-ups) block every signal, libc's own SIGCANCEL among them,
 * which its sigfillset leaves out (glibc: 32 and 33)
 */
static void
test_block_all(void)
{
	unsigned long held[KSET_WORDS], can[KSET_WORDS];
	sigset_t saved, before, after;
	int s;

	CHECK_EQ(ua_sys_sigmask(SIG_BLOCK, NULL, &before), 0);
	/* What a mask can hold here: all but SIGKILL and SIGSTOP, and under
	 * qemu-user not the top real-time signals, which it keeps */
	memset(can, 0xff, sizeof(can));
	CHECK_EQ(
	    syscall(SYS_rt_sigprocmask, SIG_SETMASK, can, NULL, sizeof(can)),
	    0);
	CHECK_EQ(
	    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &before, can, sizeof(can)),
	    0);
	ua_sig_lock(&saved);
	CHECK_EQ(
	    syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, held, sizeof(held)),
	    0);
	ua_sig_unlock(&saved);
	for (s = 1; s < SIGRTMIN; s++)
		CHECK(s == SIGKILL || s == SIGSTOP || kset_has(can, s),
		      "signal %d cannot be blocked here", s);
	for (s = 1; s < _NSIG; s++)
		CHECK(!kset_has(can, s) || kset_has(held, s),
		      "signal %d is not blocked under the owner lock", s);
	CHECK_EQ(ua_sys_sigmask(SIG_BLOCK, NULL, &after), 0);
	for (s = 1; s < _NSIG; s++)
		if (sigismember(&before, s) >= 0)
			CHECK_EQ(sigismember(&after, s),
				 sigismember(&before, s));
}

static void
test_rounds(void)
{
	struct timespec ts = {0, 100000};
	pthread_t w;
	sigset_t all;
	int i, j;

	sigfillset(&all);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &all, NULL), 0);
	CHECK_EQ(pthread_create(&w, NULL, waiter, NULL), 0);
	for (i = 0; i < rounds; i++) {
		CHECK_EQ(kill(getpid(), SIGBUS), 0);
		for (j = 0; j < 200000 && atomic_load(&taken) <= i; j++)
			if (j > 1000)
				nanosleep(&ts, NULL);
		CHECK(atomic_load(&taken) > i,
		      "round %d: the waiter never took the SIGBUS sent", i);
	}
	CHECK_EQ(pthread_join(w, NULL), 0);
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &all, NULL), 0);
}

/* In the wait: asleep in the kernel, after it took a waiter slot */
static void
wait_asleep(pid_t tid)
{
	struct timespec ts = {0, 1000000};
	char path[64], stat[256], *state;
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	for (i = 0; i < 10000; i++) {
		fd = open(path, O_RDONLY);
		CHECK(fd >= 0, "%s: %s", path, strerror(errno));
		n = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		CHECK(n > 0, "%s: %s", path, strerror(errno));
		stat[n] = 0;
		state = strrchr(stat, ')');
		if (state && state[1] == ' ' && state[2] == 'S')
			return;
		nanosleep(&ts, NULL);
	}
	CHECK(0, "thread %d never slept in sigwaitinfo", (int)tid);
}

#define CANCELLED 40 /* more than the library's waiter slots */

static atomic_int cancel_tid;

static void *
cancelled(void *p)
{
	sigset_t bus;
	siginfo_t si;

	(void)p;
	sigemptyset(&bus);
	sigaddset(&bus, SIGBUS);
	atomic_store(&cancel_tid, (int)syscall(SYS_gettid));
	sigwaitinfo(&bus, &si);
	CHECK(0, "sigwaitinfo returned, not cancelled");
	return NULL;
}

static void
test_cancel(void)
{
	int slots[CANCELLED], i, n;
	sigset_t all;
	pthread_t t;
	void *r;

	sigfillset(&all);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &all, NULL), 0);
	for (i = 0; i < CANCELLED; i++) {
		atomic_store(&cancel_tid, 0);
		CHECK_EQ(pthread_create(&t, NULL, cancelled, NULL), 0);
		while (!atomic_load(&cancel_tid))
			sched_yield();
		wait_asleep(atomic_load(&cancel_tid));
		CHECK_EQ(pthread_cancel(t), 0);
		CHECK_EQ(pthread_join(t, &r), 0);
		CHECK(r == PTHREAD_CANCELED, "thread %d not cancelled", i);
	}
	/* Every slot free again */
	for (n = 0; n < CANCELLED && (slots[n] = ua_sig_waiter_add(1)) >= 0;
	     n++)
		;
	CHECK(n >= 32, "%d waiter slots free after the cancels", n);
	while (n--)
		ua_sig_waiter_del(slots[n]);
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &all, NULL), 0);
}

int
main(void)
{
	const char *env = getenv("UA_WAKEUP_ROUNDS");

	if (env)
		rounds = atoi(env);
	grow_stack();
	CHECK_EQ(ua_init(), 0);
	test_syscall();
	test_rewind();
	test_held_wakes();
	test_block_all();
	/* A thread's TLS lost on a handler's return loses its woken word */
	if (t_threads_keep_tls()) {
		test_rounds();
		test_cancel();
	}
	t_done("signal_wakeup");
	return T_PASS;
}
