/* SPDX-License-Identifier: MIT */
/*
 * Description: the very first call of a process may be a faulting bulk copy
 * (no ua_init, no other call before it): the initial dispatch table must
 * install the handlers before the routine touches memory.  Whatever the
 * first call is (a faulting copy, ua_memcpy, ua_clear_user of 0 bytes,
 * ua_copy_strategy, ua_fail_usercopy), it leaves errno as it was, though
 * reading the profile fails where there is none.  Each case runs in a
 * fresh exec'd process, so it truly is the first call.
 */
#include <sys/wait.h>

#include "test.h"

static int
first(const char *which)
{
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	char buf[64], src[64] = {1};
	size_t r = 14;

	errno = 4242;
	if (!strcmp(which, "from"))
		r = ua_copy_from_user(buf, l.bad - 6, 20);
	else if (!strcmp(which, "to"))
		r = ua_copy_to_user(l.bad - 6, buf, 20);
	else if (!strcmp(which, "clear"))
		r = ua_clear_user(l.bad - 6, 20);
	else if (!strcmp(which, "nocache"))
		r = ua_copy_from_user_nocache(buf, l.bad - 6, 20);
	else if (!strcmp(which, "strnlen"))
		r = (size_t)(ua_strnlen_user(l.bad - 6, 20) == 0 ? 14 : 0);
	else if (!strcmp(which, "clear0"))
		r += ua_clear_user(buf, 0);
	else if (!strcmp(which, "memcpy"))
		r += ua_memcpy(buf, src, 8) == buf && buf[0] == 1 ? 0 : 1;
	else if (!strcmp(which, "memcpy_nocache"))
		r += ua_memcpy_nocache(buf, src, 8) == buf ? 0 : 1;
	else if (!strcmp(which, "strategy"))
		r += ua_copy_strategy(8) != NULL ? 0 : 1;
	else if (!strcmp(which, "fail"))
		r += (size_t)-ua_fail_usercopy("probability=1:times=1");
	if (errno != 4242) {
		fprintf(stderr, "first call %s: errno %d, was 4242\n", which,
			errno);
		return 1;
	}
	return r == 14 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	static const char *const kinds[] = {
	    "from",   "to",     "clear",          "nocache",  "strnlen",
	    "clear0", "memcpy", "memcpy_nocache", "strategy", "fail"};
	size_t i;

	if (argc == 2)
		return first(argv[1]);
	/* A profile that cannot be read, whatever this machine has */
	CHECK(!setenv("UACCESS_PROFILE", "/nonexistent/uaccess-profile", 1),
	      "setenv");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		pid_t pid = fork();
		int status;

		CHECK(pid >= 0, "fork");
		if (pid == 0) {
			const char *args[] = {argv[0], kinds[i], NULL};

			t_exec_self(args, NULL);
		}
		CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 126) {
			printf("the kernel cannot exec this program, and no "
			       "emulator is named (UA_TEST_EMULATOR): no "
			       "fresh process\n");
			return T_SKIP;
		}
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "first call %s: status %#x", kinds[i], status);
	}
	t_done("first_call");
	return T_PASS;
}
