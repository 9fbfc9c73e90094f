/* SPDX-License-Identifier: MIT */
/*
 * Description: faulting copies in threads that block SIGSEGV and SIGBUS
 * return the exact count (issue 19): blocked with pthread_sigmask,
 * sigprocmask, sighold or sigset(SIG_HOLD), with sigfillset sets, before
 * ua_init and after; in threads created before ua_init, by libc's
 * pthread_create reached directly (never seen by the library), and in
 * threads inheriting a full mask; under a sigsuspend mask and inside a
 * handler whose sa_mask is full, and under the mask of _FORTIFY_SOURCE's
 * ppoll (__ppoll_chk); blocked with sigblock and sigsetmask, the BSD
 * calls; with the mask blocked by a raw system
 * call before ua_init.  Reading the mask back gives what was asked.
 * Where a thread's TLS does not survive a handler's return (qemu-i386,
 * t_threads_keep_tls), no thread is created: every way of blocking is
 * tried in main instead.
 *
 * uaccess-test: interposition
 * uaccess-test: static
 */
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "signal_util.h"

/* sighold, sigset, sigblock and sigsetmask are obsolete, and still used */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* _FORTIFY_SOURCE's ppoll, which a fortified program calls instead */
extern int __ppoll_chk(struct pollfd *fds, nfds_t nfds,
		       const struct timespec *timeout, const sigset_t *mask,
		       size_t fdslen);

enum how {
	H_PTHREAD,
	H_PROCMASK,
	H_SIGHOLD,
	H_SIGSET,
	H_SIGBLOCK,
	H_SIGSETMASK
};

static void
block_all(enum how how)
{
	sigset_t all;

	sigfillset(&all);
	switch (how) {
	case H_PTHREAD:
		CHECK_EQ(pthread_sigmask(SIG_BLOCK, &all, NULL), 0);
		break;
	case H_PROCMASK:
		CHECK_EQ(sigprocmask(SIG_SETMASK, &all, NULL), 0);
		break;
	case H_SIGHOLD:
		CHECK_EQ(sighold(SIGSEGV), 0);
		CHECK_EQ(sighold(SIGBUS), 0);
		break;
	case H_SIGSET:
		CHECK(sigset(SIGSEGV, SIG_HOLD) != SIG_ERR, "sigset");
		CHECK(sigset(SIGBUS, SIG_HOLD) != SIG_ERR, "sigset");
		break;
	case H_SIGBLOCK: /* BSD masks: signal s is bit s - 1 */
		CHECK(sigblock(1 << (SIGSEGV - 1) | 1 << (SIGBUS - 1)) >= 0,
		      "sigblock");
		break;
	case H_SIGSETMASK:
		CHECK(sigsetmask(-1) >= 0, "sigsetmask");
		CHECK(sigsetmask(-1) & 1 << (SIGSEGV - 1),
		      "sigsetmask: SIGSEGV does not read as blocked");
		break;
	}
}

/* The program reads back what it asked for */
static void
check_reads_blocked(const char *where)
{
	sigset_t cur;

	CHECK_EQ(pthread_sigmask(SIG_BLOCK, NULL, &cur), 0);
	CHECK(sigismember(&cur, SIGSEGV) == 1 && sigismember(&cur, SIGBUS) == 1,
	      "%s: SIGSEGV/SIGBUS do not read as blocked", where);
	CHECK_EQ(sigprocmask(SIG_BLOCK, NULL, &cur), 0);
	CHECK(sigismember(&cur, SIGSEGV) == 1, "%s: sigprocmask", where);
}

/* ... while the kernel has them unblocked */
static void
check_kernel_unblocked(const char *where)
{
	sigset_t cur;

	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &cur, _NSIG / 8);
	CHECK(!sigismember(&cur, SIGSEGV) && !sigismember(&cur, SIGBUS),
	      "%s: the kernel blocks SIGSEGV/SIGBUS", where);
}

static void
exercise(struct sig_mem *m, const char *where, unsigned salt)
{
	CHECK_EQ(sig_exercise_mem(m, where, salt), 0);
	check_reads_blocked(where);
	check_kernel_unblocked(where);
}

struct job {
	enum how how;
	const char *where;
	pthread_barrier_t *ready, *go; /* for threads created before init */
};

static void *
worker(void *p)
{
	struct job *j = p;
	struct sig_mem m;

	sig_mem_new(&m);
	block_all(j->how);
	if (j->ready) {
		pthread_barrier_wait(j->ready);
		pthread_barrier_wait(j->go);
	}
	exercise(&m, j->where, 7);
	sig_mem_free(&m);
	return NULL;
}

/* A thread inheriting its creator's full mask */
static void *
inheritor(void *p)
{
	struct sig_mem m;

	(void)p;
	sig_mem_new(&m);
	exercise(&m, "inherited full mask", 9);
	sig_mem_free(&m);
	return NULL;
}

static void
run_thread(enum how how, const char *where)
{
	struct job j = {how, where, NULL, NULL};
	pthread_t t;

	CHECK_EQ(pthread_create(&t, NULL, worker, &j), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
}

/* Where threads cannot be tested: in this thread, unblocked after */
static void
run_here(enum how how, const char *where)
{
	sigset_t none;

	block_all(how);
	exercise(&sig_mem0, where, 11);
	sigemptyset(&none);
	CHECK_EQ(pthread_sigmask(SIG_SETMASK, &none, NULL), 0);
}

/* libc's own pthread_create, not the one the library interposes */
static void
run_thread_unseen(enum how how, const char *where)
{
	int (*libc_create)(pthread_t *, const pthread_attr_t *,
			   void *(*)(void *), void *);
	struct job j = {how, where, NULL, NULL};
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	pthread_t t;

	CHECK(libc != NULL, "dlopen libc.so.6: %s", dlerror());
	*(void **)&libc_create = dlsym(libc, "pthread_create");
	CHECK(libc_create != NULL, "dlsym pthread_create");
	CHECK_EQ(libc_create(&t, NULL, worker, &j), 0);
	CHECK_EQ(pthread_join(t, NULL), 0);
	dlclose(libc);
}

static volatile sig_atomic_t usr1_runs, usr1_failures;

static void
on_usr1(int signo)
{
	(void)signo;
	usr1_runs++;
	usr1_failures +=
	    (sig_atomic_t)sig_exercise("SIGUSR1 handler", (unsigned)usr1_runs);
}

/* sigsuspend (or _FORTIFY_SOURCE's ppoll) with every signal blocked but
 * SIGUSR1, whose handler copies */
static void
test_sigsuspend(int fortified_ppoll)
{
	struct sigaction sa, old;
	sigset_t wait_mask, all, saved;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigfillset(&sa.sa_mask); /* a full sa_mask too */
	CHECK(!sigaction(SIGUSR1, &sa, NULL), "sigaction");
	/* The program reads its own sa_mask back */
	CHECK(!sigaction(SIGUSR1, NULL, &old), "sigaction");
	CHECK(sigismember(&old.sa_mask, SIGSEGV) == 1 &&
		  sigismember(&old.sa_mask, SIGBUS) == 1,
	      "sa_mask not read back as set");
	sigfillset(&all);
	CHECK_EQ(pthread_sigmask(SIG_SETMASK, &all, &saved), 0);
	sigfillset(&wait_mask);
	sigdelset(&wait_mask, SIGUSR1);
	usr1_runs = 0;
	raise(SIGUSR1); /* pending until sigsuspend */
	if (fortified_ppoll) {
		struct timespec zero = {0, 0};

		CHECK_EQ(__ppoll_chk(NULL, 0, &zero, &wait_mask, 0), -1);
	} else {
		CHECK_EQ(sigsuspend(&wait_mask), -1);
	}
	CHECK_EQ(usr1_runs, 1);
	CHECK_EQ(usr1_failures, 0);
	/* A handler with a full sa_mask, run outside sigsuspend */
	CHECK_EQ(pthread_sigmask(SIG_SETMASK, &saved, NULL), 0);
	raise(SIGUSR1);
	CHECK_EQ(usr1_runs, 2);
	CHECK_EQ(usr1_failures, 0);
	signal(SIGUSR1, SIG_DFL);
}

/* Blocked before ua_init by a raw system call (which bypasses the
 * library): ua_init unblocks them in its thread */
static void
test_raw_before_init(void)
{
	pid_t pid = sig_fork(20);
	int status;

	if (pid == 0) {
		sigset_t all;

		sigfillset(&all);
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, _NSIG / 8);
		CHECK_EQ(ua_init(), 0);
		exercise(&sig_mem0, "raw block before init", 3);
		_exit(atomic_load(&sig_failures) ? 1 : 0);
	}
	status = wait_child(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "raw block before init: child status %#x", status);
}

int
main(void)
{
	pthread_barrier_t ready, go;
	struct job early = {H_PTHREAD, "thread created before init", &ready,
			    &go};
	sigset_t all, none;
	pthread_t t;
	int threads;

	grow_stack();
	sig_mem_new(&sig_mem0);
	threads = t_threads_keep_tls();
	test_raw_before_init();

	/* A thread that blocks everything before the library initialises,
	 * and copies after */
	if (threads) {
		pthread_barrier_init(&ready, NULL, 2);
		pthread_barrier_init(&go, NULL, 2);
		CHECK_EQ(pthread_create(&t, NULL, worker, &early), 0);
		pthread_barrier_wait(&ready);
	}

	/* This thread too: blocked before its first call */
	block_all(H_PTHREAD);
	CHECK_EQ(ua_init(), 0);
	if (threads) {
		pthread_barrier_wait(&go);
		CHECK_EQ(pthread_join(t, NULL), 0);
	}
	exercise(&sig_mem0, "main, blocked before init", 1);

	/* A thread created with this full mask inherits it */
	if (threads) {
		CHECK_EQ(pthread_create(&t, NULL, inheritor, NULL), 0);
		CHECK_EQ(pthread_join(t, NULL), 0);
	}

	sigemptyset(&none);
	CHECK_EQ(pthread_sigmask(SIG_SETMASK, &none, &all), 0);
	CHECK(sigismember(&all, SIGSEGV) == 1, "old set: SIGSEGV not blocked");
	CHECK_EQ(pthread_sigmask(SIG_BLOCK, NULL, &all), 0);
	CHECK(!sigismember(&all, SIGSEGV) && !sigismember(&all, SIGBUS),
	      "unblocked, yet reads blocked");

	/* Blocked after init, every way */
	if (threads) {
		run_thread(H_PTHREAD, "pthread_sigmask after init");
		run_thread(H_PROCMASK, "sigprocmask after init");
		run_thread(H_SIGHOLD, "sighold after init");
		run_thread(H_SIGSET, "sigset(SIG_HOLD) after init");
		run_thread(H_SIGBLOCK, "sigblock after init");
		run_thread(H_SIGSETMASK, "sigsetmask after init");
		run_thread_unseen(H_PTHREAD,
				  "thread the library never saw created");
		run_thread_unseen(H_PROCMASK, "unseen thread, sigprocmask");
	} else {
		run_here(H_PTHREAD, "pthread_sigmask after init, main");
		run_here(H_PROCMASK, "sigprocmask after init, main");
		run_here(H_SIGHOLD, "sighold after init, main");
		run_here(H_SIGSET, "sigset(SIG_HOLD) after init, main");
		run_here(H_SIGBLOCK, "sigblock after init, main");
		run_here(H_SIGSETMASK, "sigsetmask after init, main");
	}

	test_sigsuspend(0);
	test_sigsuspend(1);
	CHECK_EQ(atomic_load(&sig_failures), 0);
	printf("signal_mask: %lu calls\n", atomic_load(&sig_calls));
	t_done("signal_mask");
	return T_PASS;
}
