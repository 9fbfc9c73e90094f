/* SPDX-License-Identifier: MIT */
/*
 * Description: with SIGSEGV/SIGBUS kept unblocked in the kernel (issue
 * 19), signals are otherwise unchanged.  The sigwait pattern: every thread
 * blocks every signal, workers' copies fault and return exact counts, the
 * sigwait thread receives every signal sent to the process, SIGSEGV and
 * SIGBUS sent with kill or sigqueue included (with their siginfo).  A
 * SIGSEGV sent to a thread that blocks it (pthread_kill, raise) stays
 * pending there (sigpending shows it, sigwaitinfo takes it) and reaches the
 * handler once unblocked.  ua_keep_signals() refuses once masks changed.
 * Where a thread's TLS does not survive a handler's return (qemu-i386,
 * t_threads_keep_tls), main waits for the signals itself, without workers.
 *
 * uaccess-test: interposition
 * uaccess-test: static
 */
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>

#include "signal_util.h"

static const int sent[] = {SIGUSR1, SIGTERM, SIGSEGV, SIGBUS, SIGHUP};
#define NSENT (int)(sizeof(sent) / sizeof(sent[0]))

static struct {
	int signo, code, value, pid;
} got[NSENT];
static atomic_int ngot;

/* Wait for the i-th signal sent */
static void
take(int i)
{
	sigset_t all;
	siginfo_t si;
	int s;

	sigfillset(&all);
	s = sigwaitinfo(&all, &si);
	CHECK(s > 0, "sigwaitinfo: %s", strerror(errno));
	got[i].signo = s;
	got[i].code = si.si_code;
	got[i].value = si.si_value.sival_int;
	got[i].pid = si.si_pid;
	atomic_store(&ngot, i + 1);
}

static void *
waiter(void *p)
{
	int i;

	(void)p;
	for (i = 0; i < NSENT; i++)
		take(i);
	return NULL;
}

static atomic_int stop;

static void *
worker(void *p)
{
	struct sig_mem m;
	unsigned salt = 1;

	(void)p;
	sig_mem_new(&m);
	while (!atomic_load(&stop))
		CHECK_EQ(sig_exercise_mem(&m, "sigwait worker", salt++), 0);
	sig_mem_free(&m);
	return NULL;
}

static void
wait_for(int n)
{
	struct timespec ts = {0, 1000000};
	int i;

	for (i = 0; i < 20000 && atomic_load(&ngot) < n; i++)
		nanosleep(&ts, NULL);
	CHECK(atomic_load(&ngot) >= n, "sigwait thread got %d of %d signals",
	      atomic_load(&ngot), n);
}

/*
 * threads 0 (where threads cannot be tested, t_threads_keep_tls): main
 * takes each signal itself once sent
 */
static void
test_sigwait_pattern(int threads)
{
	pthread_t w, k[2];
	union sigval v;
	sigset_t all;
	int i;

	/* Blocked in main, inherited by every thread it creates */
	sigfillset(&all);
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, &all, NULL), 0);
	if (threads) {
		CHECK_EQ(pthread_create(&w, NULL, waiter, NULL), 0);
		for (i = 0; i < 2; i++)
			CHECK_EQ(pthread_create(&k[i], NULL, worker, NULL), 0);
	}
	CHECK_EQ(sig_exercise("sigwait main", 1), 0);

	for (i = 0; i < NSENT; i++) {
		memset(&v, 0, sizeof(v));
		v.sival_int = 100 + i;
		if (i % 2)
			CHECK_EQ(kill(getpid(), sent[i]), 0);
		else
			CHECK_EQ(sigqueue(getpid(), sent[i], v), 0);
		if (!threads)
			take(i);
		wait_for(i + 1);
		CHECK_EQ(got[i].signo, sent[i]);
		CHECK_EQ(got[i].code, i % 2 ? SI_USER : SI_QUEUE);
		CHECK_EQ(got[i].pid, getpid());
		if (!(i % 2))
			CHECK_EQ(got[i].value, 100 + i);
	}
	if (!threads)
		return;
	atomic_store(&stop, 1);
	for (i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(k[i], NULL), 0);
	CHECK_EQ(pthread_join(w, NULL), 0);
}

static volatile sig_atomic_t handled, handled_code;

static void
on_segv(int signo, siginfo_t *info, void *uc)
{
	(void)signo;
	(void)uc;
	handled++;
	handled_code = info->si_code;
}

/*
 * The kernel delivers a signal raised to oneself before the system call
 * returns; valgrind, at its next scheduling point: wait a little for it
 */
static void
wait_handled(int n)
{
	struct timespec ts = {0, 1000000};
	int i;

	for (i = 0; i < 2000 && handled < n; i++)
		nanosleep(&ts, NULL);
	CHECK_EQ(handled, n);
}

/* Sent to a thread that blocks it: pending, as asked */
static void
test_pending(void)
{
	struct sigaction sa;
	sigset_t set, pend;
	siginfo_t si;
	struct timespec zero = {0, 0};

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	CHECK(!sigaction(SIGSEGV, &sa, NULL), "sigaction");
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);

	/* Still blocked from the sigwait test */
	CHECK_EQ(pthread_kill(pthread_self(), SIGSEGV), 0);
	CHECK_EQ(handled, 0);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(sigismember(&pend, SIGSEGV) == 1, "SIGSEGV not pending");
	/* The library's faults still work meanwhile */
	CHECK_EQ(sig_exercise("SIGSEGV pending", 2), 0);
	CHECK_EQ(handled, 0);
	/* sigtimedwait takes it */
	CHECK_EQ(sigtimedwait(&set, &si, &zero), SIGSEGV);
	CHECK_EQ(si.si_code, SI_TKILL);
	CHECK_EQ(sigpending(&pend), 0);
	CHECK(!sigismember(&pend, SIGSEGV), "SIGSEGV still pending");

	/* raise, then unblock: the handler runs once, with SI_TKILL */
	CHECK_EQ(raise(SIGSEGV), 0);
	CHECK_EQ(handled, 0);
	CHECK_EQ(pthread_sigmask(SIG_UNBLOCK, &set, NULL), 0);
	wait_handled(1);
	CHECK_EQ(handled_code, SI_TKILL);
	/* Unblocked: sent signals are delivered at once */
	CHECK_EQ(kill(getpid(), SIGSEGV), 0);
	wait_handled(2);
	CHECK_EQ(handled_code, SI_USER);
}

int
main(void)
{
	int threads;

	grow_stack();
	sig_mem_new(&sig_mem0);
	threads = t_threads_keep_tls();
	CHECK_EQ(ua_init(), 0);
	test_sigwait_pattern(threads);
	test_pending();
	/* Masks were rewritten: too late to opt out */
	CHECK_EQ(ua_keep_signals(), -EBUSY);
	printf("signal_sent: %lu calls\n", atomic_load(&sig_calls));
	t_done("signal_sent");
	return T_PASS;
}
