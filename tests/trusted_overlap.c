/* SPDX-License-Identifier: MIT */
/*
 * Description: a fault on the trusted side whose address lies inside the
 * copy's user range (copy_from_user into a read-only page of its own
 * source, copy_to_user from an unreadable page of its own destination)
 * reaches the program's handler with that address and is not swallowed:
 * it used to be taken for a user-side fault again and again, some 130,000
 * signals, until the stack overflowed.
 *
 * uaccess-test: per-strategy
 */
#include <sys/wait.h>

#include "test.h"

static char *volatile trusted;

static void
handler(int signo, siginfo_t *info, void *uc)
{
	(void)uc;
	_exit(signo == SIGSEGV && (char *)info->si_addr >= trusted &&
		      (char *)info->si_addr < trusted + t_page()
		  ? 3
		  : 4);
}

/* In a child: the copy must not return; its fault reaches handler */
static void
child(int to_user, size_t pages, size_t at)
{
	size_t pg = t_page(), n = pages * pg;
	char *u = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sigaction sa;

	if (u == MAP_FAILED)
		_exit(5);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	trusted = u + at * pg;
	if (mprotect(trusted, (pages - at) * pg,
		     to_user ? PROT_NONE : PROT_READ))
		_exit(5);
	if (to_user)
		ua_copy_to_user(u, trusted, n - at * pg);
	else
		ua_copy_from_user(trusted, u, n - at * pg);
	_exit(6); /* swallowed */
}

int
main(void)
{
	/* pages mapped, the first trusted page: inside the user range */
	static const size_t cases[][2] = {{4, 1}, {8, 2}, {64, 16}};
	size_t i;
	int to_user;

	t_require_forced_strategy();
	for (to_user = 0; to_user < 2; to_user++)
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			pid_t pid = fork();
			int status;

			CHECK(pid >= 0, "fork");
			if (pid == 0)
				child(to_user, cases[i][0], cases[i][1]);
			CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3,
			      "%s, %zu pages, trusted from page %zu: status "
			      "%#x (exit 3: the program's handler saw the "
			      "trusted fault; 4: another; 6: swallowed; "
			      "killed: never reached it)",
			      to_user ? "copy_to_user" : "copy_from_user",
			      cases[i][0], cases[i][1], status);
		}
	t_done("trusted_overlap");
	return T_PASS;
}
