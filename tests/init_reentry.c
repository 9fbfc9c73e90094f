/* SPDX-License-Identifier: MIT */
/*
 * Description: a signal handler that interrupts init on the initialising
 * thread calls the library: nothing waits for itself.  ua_memcpy copies
 * (the byte routine, the table being filled), ua_init() returns at once,
 * and a user copy or get_user is refused (the range opens only once the
 * handlers are in) instead of running without them; another thread that
 * calls meanwhile waits for init and then copies.  (Only a thread that
 * waits for its own init is spared: a handler on a thread that waits for
 * another's init waits too.)  Init is held at a known point: it opens
 * the profile, a regular file on which a child holds a write lease, and
 * the open waits until the child gives the lease back, which it does only
 * once the handler has run (the kernel tells it of the open with SIGIO).
 * Where no lease can be taken, the test is skipped.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test.h"

static char profile_path[256];
static int to_main[2], to_holder[2]; /* pipes from and to the holder */
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

/* In the holder: an open of the file breaks the lease */
static void
on_io(int signo)
{
	char c = 'b';

	(void)signo;
	if (write(to_main[1], &c, 1) != 1)
		_exit(3);
}

/*
 * A child that holds a write lease on the profile until told to give it
 * back: it says 'r' once it holds it (or 'e'), 'b' when an open breaks it
 */
static pid_t
lease_holder(void)
{
	pid_t pid = fork();

	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		struct sigaction sa;
		char c = 'e';
		int fd = open(profile_path, O_RDONLY);

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_io;
		sigaction(SIGIO, &sa, NULL);
		alarm(60);
		if (fd >= 0 && !fcntl(fd, F_SETLEASE, F_WRLCK))
			c = 'r';
		if (write(to_main[1], &c, 1) != 1 || c == 'e')
			_exit(1);
		/* SIGIO interrupts the read */
		while (read(to_holder[0], &c, 1) != 1)
			;
		fcntl(fd, F_SETLEASE, F_UNLCK);
		_exit(0);
	}
	return pid;
}

static char
from_holder(void)
{
	char c = 0;

	CHECK(read(to_main[0], &c, 1) == 1, "read from the holder");
	return c;
}

/*
 * Once init waits in the open, has it interrupted, starts the waiter (now
 * that init runs on the main thread), then lets init go on
 */
static void *
helper(void *arg)
{
	pthread_t *w = arg;
	char go = 'g';

	CHECK(from_holder() == 'b', "the lease was not broken");
	CHECK(pthread_kill(main_thread, SIGUSR1) == 0, "pthread_kill");
	while (!atomic_load(&handled))
		sched_yield();
	CHECK(pthread_create(w, NULL, waiter, NULL) == 0, "pthread_create");
	CHECK(write(to_holder[1], &go, 1) == 1, "write to the holder");
	return NULL;
}

int
main(void)
{
	static const char profile[] = "cpu=nothing 0 0\n";
	struct sigaction sa;
	pthread_t h, w;
	const char *tmp = getenv("TMPDIR");
	pid_t holder;
	size_t i;
	int fd, status;

	for (i = 0; i < sizeof(usrc); i++)
		usrc[i] = (unsigned char)(i * 7 + 1);
	for (i = 0; i < sizeof(big_src); i++)
		big_src[i] = (unsigned char)(i * 13 + 5);
	snprintf(profile_path, sizeof(profile_path), "%s/uaccess-reentry-%d",
		 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	fd = open(profile_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0, "open %s: %s", profile_path, strerror(errno));
	CHECK(write(fd, profile, sizeof(profile) - 1) ==
		  (ssize_t)(sizeof(profile) - 1),
	      "write");
	close(fd);
	CHECK(!pipe(to_main) && !pipe(to_holder), "pipe");
	holder = lease_holder();
	if (from_holder() != 'r') {
		unlink(profile_path);
		printf("init_reentry: skipped: no write lease on %s\n",
		       profile_path);
		return T_SKIP;
	}
	CHECK(setenv("UACCESS_PROFILE", profile_path, 1) == 0, "setenv");
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
	unlink(profile_path);
	CHECK(waitpid(holder, &status, 0) == holder, "waitpid");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the lease holder: status %#x", status);

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
