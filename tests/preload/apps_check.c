/* SPDX-License-Identifier: MIT */
/*
 * Description: real programs (uaccess-bench apps's, tools/bench/programs.c)
 * run once without and once with libuaccess-preload.so: byte-identical
 * outputs, and copies that went through the preload.  Nothing timed.
 * Usage: apps_check PRELOAD [NAME[,NAME]...]; exit 0 identical, 1 a
 * difference or a failure, 2 bad usage, 77 none of them could run.
 */
#include <stdio.h>
#include <stdlib.h>

#include "programs.h"

static int
check(const struct app *a, const char *prog)
{
	struct run w, u;
	char st[64];
	double calls, bytes, ovl;

	if (run_app(a, prog, WITHOUT, "out.without", "err.without", &w) ||
	    run_app(a, prog, WITH_STATS, "out.with", "err.with", &u)) {
		printf("FAIL: %s: cannot run %s\n", a->name, prog);
		return 1;
	}
	if (w.status || u.status) {
		printf("FAIL: %s: without the preload %s, with it %s\n",
		       a->name, status_text(w.status, st, 32),
		       status_text(u.status, st + 32, 32));
		return 1;
	}
	if (same_files("out.without", "out.with") != 1) {
		printf("FAIL: %s: the output differs with the preload\n",
		       a->name);
		return 1;
	}
	read_stats("err.with", &calls, &bytes, &ovl);
	if (!(calls > 0)) {
		printf("FAIL: %s: the preload reported no copies: was it "
		       "loaded?\n",
		       a->name);
		return 1;
	}
	printf("ok: %s %s: identical output; %.0f copies, %.0f bytes, %.0f "
	       "overlapping through the preload\n",
	       a->name, a->what, calls, bytes, ovl);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *list = argc > 2 ? argv[2] : NULL;
	char prog[4096], why[256];
	int i, ran = 0, bad = 0, r;

	if (argc < 2 || argc > 3 || (list && apps_validate(list))) {
		fprintf(stderr,
			"usage: apps_check PRELOAD [NAME[,NAME]...]\n"
			"(names among %s)\n",
			apps_names());
		return 2;
	}
	if (SANITIZED) {
		printf("SKIP: %s\n", sanitized_why);
		return 77;
	}
	r = preload_set(argv[1]);
	if (r < 0) {
		printf("SKIP: %s: %s\n", argv[1], preload_error(r));
		return 77;
	}
	for (i = 0; i < napps; i++) {
		const struct app *a = &apps[i];

		if (!app_selected(a, list))
			continue;
		if (find_program(a->program, prog, sizeof(prog))) {
			printf("SKIP: %s: %s is not installed (Debian "
			       "package %s)\n",
			       a->name, a->program, a->package);
			continue;
		}
		if (preload_fits(prog, why, sizeof(why))) {
			printf("SKIP: %s: the preload cannot load: %s\n",
			       a->name, why);
			continue;
		}
		if (!programs_ready() && programs_setup((size_t)1 << 20) < 0) {
			fprintf(stderr, "apps: cannot prepare the inputs\n");
			programs_cleanup();
			return 1;
		}
		ran++;
		bad += check(a, prog);
	}
	if (programs_cleanup())
		printf("note: could not remove %s\n", programs_dir());
	if (bad)
		return 1;
	return ran ? 0 : 77;
}
