/* SPDX-License-Identifier: MIT */
/*
 * Description: a signal handler that interrupts init on the initialising
 * thread calls the library: nothing waits for itself.  ua_memcpy copies
 * (the byte routine, the table being filled), ua_init() returns at once,
 * and a user copy or get_user is refused (the range opens only once the
 * handlers are in) instead of running without them; another thread that
 * calls meanwhile waits for init and then copies.  (Only a thread that
 * waits for its own init is spared: a handler on a thread that waits for
 * another's init waits too.)  Init is held at a known
 * point: it reads the profile from a FIFO, which a helper thread fills
 * only once the handler has run.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "test.h"

static char fifo[256];
static pthread_t main_thread;
static atomic_int handled;
static unsigned char usrc[4096], udst[4096], big_src[100000], big_dst[100000];
static size_t handler_left, handler_strategy_ok;
static int handler_init, handler_get;
static uint64_t handler_v = 1;

static void
on_usr1(int signo)
{
	size_t i;

	(void)signo;
	memset(big_dst, 0, sizeof(big_dst));
	CHECK(ua_memcpy(big_dst, big_src, sizeof(big_dst)) == big_dst,
	      "ua_memcpy's result");
	for (i = 0; i < sizeof(big_dst); i++)
		CHECK(big_dst[i] == big_src[i], "ua_memcpy during init: %zu",
		      i);
	handler_init = ua_init();
	memset(udst, 0x77, sizeof(udst));
	handler_left = ua_copy_from_user(udst, usrc, sizeof(udst));
	handler_get = ua_get_user(handler_v, (uint64_t *)usrc);
	handler_strategy_ok = ua_copy_strategy(100) != NULL;
	atomic_store(&handled, 1);
}

/* Calls while init is held: waits, then copies */
static void *
waiter(void *arg)
{
	unsigned char buf[64];

	(void)arg;
	CHECK_EQ(ua_copy_from_user(buf, usrc, sizeof(buf)), 0);
	CHECK(!memcmp(buf, usrc, sizeof(buf)), "the waiter's copy");
	return NULL;
}

/*
 * Opens the FIFO once init does, has init interrupted, starts the waiter
 * (now that init runs on the main thread), then lets init go on
 */
static void *
helper(void *arg)
{
	int fd = open(fifo, O_WRONLY);
	static const char profile[] = "cpu=nothing 0 0\n";
	pthread_t *w = arg;

	CHECK(fd >= 0, "open %s: %s", fifo, strerror(errno));
	/* Init has the FIFO open: it waits in read() until the write */
	CHECK(pthread_kill(main_thread, SIGUSR1) == 0, "pthread_kill");
	while (!atomic_load(&handled))
		sched_yield();
	CHECK(pthread_create(w, NULL, waiter, NULL) == 0, "pthread_create");
	CHECK(write(fd, profile, sizeof(profile) - 1) ==
		  (ssize_t)(sizeof(profile) - 1),
	      "write");
	close(fd);
	return NULL;
}

int
main(void)
{
	struct sigaction sa;
	pthread_t h, w;
	const char *tmp = getenv("TMPDIR");
	size_t i;

	for (i = 0; i < sizeof(usrc); i++)
		usrc[i] = (unsigned char)(i * 7 + 1);
	for (i = 0; i < sizeof(big_src); i++)
		big_src[i] = (unsigned char)(i * 13 + 5);
	snprintf(fifo, sizeof(fifo), "%s/uaccess-reentry-%d",
		 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	unlink(fifo);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s: %s", fifo, strerror(errno));
	CHECK(setenv("UACCESS_PROFILE", fifo, 1) == 0, "setenv");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	main_thread = pthread_self();
	CHECK(pthread_create(&h, NULL, helper, &w) == 0, "pthread_create");

	/* The first call of the process: init, held at the profile */
	CHECK_EQ(ua_init(), 0);
	pthread_join(h, NULL);
	pthread_join(w, NULL);
	unlink(fifo);

	CHECK(atomic_load(&handled), "the handler ran");
	CHECK_EQ(handler_init, 0);
	CHECK(handler_left == sizeof(udst),
	      "a user copy during init: %zu left, want all refused",
	      handler_left);
	for (i = 0; i < sizeof(udst); i++)
		CHECK(udst[i] == 0, "a refused copy_from_user zero-fills");
	CHECK_EQ(handler_get, -EFAULT);
	CHECK_EQ(handler_v, 0);
	CHECK(handler_strategy_ok, "ua_copy_strategy during init");

	/* After init, all of it works */
	CHECK_EQ(ua_copy_from_user(udst, usrc, sizeof(udst)), 0);
	CHECK(!memcmp(udst, usrc, sizeof(udst)), "copy after init");
	CHECK_EQ(ua_get_user(handler_v, (uint64_t *)usrc), 0);
	t_done("init_reentry");
	return T_PASS;
}
