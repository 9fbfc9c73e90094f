/* SPDX-License-Identifier: MIT */
/*
 * Description: faulting copies in fork children: a child of an initialised
 * multi-threaded parent whose other threads are copying, and a child forked
 * from a signal handler that interrupted a user copy (it inherits the
 * interrupted state and must still get exact results); the parent's
 * interrupted copy is exact too.
 *
 * uaccess-test: internal
 */
#include <pthread.h>
#include <sys/wait.h>

#include "internal.h"
#include "signal_util.h"

#define BIG (1024 * 1024)

static struct t_layout big; /* BIG good bytes, then PROT_NONE */
static unsigned char *bigdst;
static volatile sig_atomic_t forked_in_copy;
static volatile sig_atomic_t in_copy; /* the main thread is in a user copy */
static volatile pid_t child_in_copy;
static atomic_int stop;

static int
child_status(pid_t pid)
{
	int status;

	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	return status;
}

static void
on_usr1(int signo)
{
	(void)signo;
	if (forked_in_copy || !in_copy)
		return;
	forked_in_copy = 1;
	child_in_copy = fork();
	if (child_in_copy == 0)
		_exit(sig_exercise("child forked inside a copy", 5) ? 1 : 0);
}

static void *
busy(void *arg)
{
	struct sig_mem *m = arg;

	while (!atomic_load(&stop))
		if (sig_exercise_mem(m, "parent's other thread", 9))
			break;
	return NULL;
}

static void *
pester(void *arg)
{
	pthread_t *main_thread = arg;

	while (!atomic_load(&stop) && !forked_in_copy) {
		pthread_kill(*main_thread, SIGUSR1);
		usleep(50);
	}
	return NULL;
}

int
main(void)
{
	struct sig_mem other;
	pthread_t t, p, self = pthread_self();
	struct sigaction sa;
	int i, status;
	size_t left;

	sig_mem_new(&sig_mem0);
	sig_mem_new(&other);
	CHECK_EQ(ua_init(), 0);

	/* Children of a parent with a thread busy faulting */
	CHECK(!pthread_create(&t, NULL, busy, &other), "pthread_create");
	for (i = 0; i < 20; i++) {
		pid_t pid = fork();

		CHECK(pid >= 0, "fork");
		if (pid == 0)
			_exit(sig_exercise("child", (unsigned)i) ? 1 : 0);
		status = child_status(pid);
		CHECK(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child %d: status %#x", i, status);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	CHECK_EQ(atomic_load(&sig_failures), 0);

	/* A child forked from a handler that interrupted a copy */
	big = t_layout_new(BIG / t_page(), T_BAD_NONE);
	bigdst = malloc(BIG + 4096);
	CHECK(bigdst != NULL, "malloc");
	t_fill(big.bad - BIG, BIG, 3);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(SIGUSR1, &sa, NULL), "sigaction");
	atomic_store(&stop, 0);
	CHECK(!pthread_create(&p, NULL, pester, &self), "pthread_create");
	for (i = 0; i < 20000 && !forked_in_copy; i++) {
		size_t extra = 1 + (size_t)i % 4000;

		in_copy = 1;
		left = ua_copy_from_user(bigdst, big.bad - BIG, BIG + extra);
		in_copy = 0;
		CHECK(left == extra, "interrupted copy: left %zu, expected %zu",
		      left, extra);
		CHECK(!memcmp(bigdst, big.bad - BIG, BIG),
		      "interrupted copy: data");
	}
	atomic_store(&stop, 1);
	pthread_join(p, NULL);
	if (!forked_in_copy) {
		printf("no signal landed inside a copy in %d tries\n", i);
		return T_SKIP;
	}
	CHECK(child_in_copy > 0, "fork in handler failed");
	status = child_status(child_in_copy);
	CHECK(WIFEXITED(status) && !WEXITSTATUS(status),
	      "child forked inside a copy: status %#x", status);
	printf("signal_fork: %lu calls; forked inside a copy after %d copies\n",
	       atomic_load(&sig_calls), i);
	t_done("signal_fork");
	return T_PASS;
}
