/* SPDX-License-Identifier: MIT */
/*
 * Description: fork() while another thread runs the library's one-time
 * initialisation: the child, which lacks that thread, must not wait for it
 * forever on its first call (fork waits for the initialisation to end).
 * A race, tried at spread-out moments; a child that hangs dies of SIGALRM.
 */
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>

#include "test.h"

#define TRIES 200

static void *
first_call(void *arg)
{
	(void)arg;
	ua_init();
	return NULL;
}

/* In a fresh process: a thread starts init, this one forks meanwhile */
static int
one_try(int i)
{
	struct timespec ts = {0, (i % 40) * 5000L};
	pthread_t t;
	pid_t pid;
	int status;

	if (pthread_create(&t, NULL, first_call, NULL))
		return 2;
	nanosleep(&ts, NULL);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		char buf[8];

		alarm(10);
		_exit(ua_copy_from_user(buf, "abcdefg", 8) == 0 ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 2;
	pthread_join(t, NULL);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		return 3;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 4;
}

int
main(void)
{
	int i;

	for (i = 0; i < TRIES; i++) {
		pid_t pid = fork();
		int status;

		CHECK(pid >= 0, "fork");
		if (pid == 0)
			_exit(one_try(i));
		CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
		CHECK(WIFEXITED(status), "try %d: status %#x", i, status);
		CHECK(WEXITSTATUS(status) != 3,
		      "try %d: the child hung on its first call", i);
		CHECK_EQ(WEXITSTATUS(status), 0);
	}
	t_done("fork_during_init");
	return T_PASS;
}
