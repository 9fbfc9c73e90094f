/* SPDX-License-Identifier: MIT */
/*
 * apps: real programs from Debian with and without libuaccess-preload.so,
 * timed as whole processes over interleaved repeats.  Compression (zstd,
 * xz, gzip), a database (sqlite3) and two interpreters (python3, perl) on
 * generated input; every run's output must be byte-identical to the run
 * without the preload.  The programs, their inputs and how they run are
 * programs.c's, which the test tests/preload/apps_check.c shares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "programs.h"

static void
cleanup(void)
{
	if (programs_cleanup())
		say("apps: could not remove %s", programs_dir());
}

/* The object to preload: --preload, else the build tree's when this is
 * the build tree's uaccess-bench, else the installed one; and its kind.
 * 0, -ENOEXEC if it is not an ELF object, or -errno */
static int
find_preload(void)
{
	if (opt.preload)
		return preload_set(opt.preload);
	return preload_set(!strcmp(bench_self_path(), UA_BENCH_BUILD_PATH)
			       ? UA_PRELOAD_BUILD_PATH
			       : UA_PRELOAD_INSTALL_PATH);
}

int
cmd_apps(void)
{
	size_t corpus = opt.quick ? (size_t)4 << 20 : (size_t)16 << 20;
	int trials = bench_trials(5, 9), i, k, r, any = 0;
	struct table *t;
	char prog[4096], a[24], st[64], why[256] = "";

	if (SANITIZED) {
		unavailable("apps", "programs with libuaccess-preload.so",
			    sanitized_why);
		return -1;
	}
	r = find_preload();
	if (r < 0) {
		unavailable("apps", "programs with libuaccess-preload.so",
			    preload_error(r));
		return -1;
	}
	/* Nothing to time unless a selected program can load the preload */
	for (i = 0; i < napps; i++)
		if (app_selected(&apps[i], opt.apps) &&
		    !find_program(apps[i].program, prog, sizeof(prog)) &&
		    !preload_fits(prog, why, sizeof(why)))
			break;
	if (i == napps) {
		unavailable("apps", "programs with libuaccess-preload.so",
			    why[0] ? why : "none of the programs is installed");
		return -1;
	}
	r = programs_setup(corpus);
	if (r < 0) {
		unavailable("apps", "programs with libuaccess-preload.so",
			    "cannot prepare the inputs");
		cleanup();
		return -1;
	}
	t = table_new("apps", "programs",
		      "real programs with and without libuaccess-preload.so "
		      "(memcpy on ua_memcpy)");
	table_key(t, "program");
	table_col(t, "workload", "", 0);
	table_col(t, "without", "s", 3);
	table_col(t, "with", "s", 3);
	table_col(t, "without/with", "x", 3);
	table_role(t, ROLE_LIB);
	table_col(t, "wall without/with", "x", 3);
	table_role(t, ROLE_HIDDEN);
	table_plot(t, "apps", PLOT_BARS, 0, PLOT_UNITY, "x",
		   "uaccess-bench apps: CPU time without the preload over "
		   "with it (above 1: faster with ua_memcpy)");
	table_col(t, "copies", "", 0);
	table_col(t, "copied", "MB", 1);
	table_col(t, "bytes/copy", "", 0);
	table_col(t, "output", "", 0);
	for (i = 0; i < napps; i++) {
		const struct app *ap = &apps[i];
		double cw[MEASURE_MAX_TRIALS], cu[MEASURE_MAX_TRIALS];
		double ww[MEASURE_MAX_TRIALS], wu[MEASURE_MAX_TRIALS];
		double calls = NAN, bytes = NAN, ovl = NAN;
		const char *verdict = "identical";
		struct run x;

		if (!app_selected(ap, opt.apps))
			continue;
		table_row(t);
		table_str(t, "%s", ap->name);
		if (find_program(ap->program, prog, sizeof(prog))) {
			table_str(t, "not installed (Debian: %s)", ap->package);
			for (k = 0; k < 8; k++)
				table_num(t, NAN);
			continue;
		}
		if (preload_fits(prog, why, sizeof(why))) {
			table_str(t, "not run: %s", why);
			for (k = 0; k < 8; k++)
				table_num(t, NAN);
			continue;
		}
		table_str(t, "%s", ap->what);
		/* The reference output, the warm-up and the counts */
		if (run_app(ap, prog, WITHOUT, "out.ref", NULL, &x) ||
		    x.status) {
			verdict = "fails without the preload";
			goto row;
		}
		if (run_app(ap, prog, WITH_STATS, "out.with", "err.with", &x) ||
		    x.status) {
			verdict = status_text(x.status, st, sizeof(st));
			goto row;
		}
		read_stats("err.with", &calls, &bytes, &ovl);
		for (k = 0; k < trials && !strcmp(verdict, "identical"); k++) {
			int m;

			progress("apps: %s, trial %d/%d", ap->name, k + 1,
				 trials);
			/* interleaved, each order half the time */
			for (m = 0; m < 2; m++) {
				int with = (m + k) % 2;
				struct run y;

				if (run_app(ap, prog, with ? WITH : WITHOUT,
					    with ? "out.with" : "out.without",
					    NULL, &y) ||
				    y.status) {
					verdict = with
						      ? "fails with the preload"
						      : "fails without it";
					break;
				}
				if (same_files("out.ref",
					       with ? "out.with"
						    : "out.without") != 1) {
					verdict = with ? "DIFFERS with the "
							 "preload"
						       : "not reproducible";
					break;
				}
				(with ? cu : cw)[k] = y.cpu_s;
				(with ? wu : ww)[k] = y.wall_s;
			}
		}
	row:
		if (strcmp(verdict, "identical")) {
			for (k = 0; k < 4; k++)
				table_num(t, NAN);
		} else {
			any = 1;
			table_num_s(t, median(cw, trials), spread(cw, trials));
			table_num_s(t, median(cu, trials), spread(cu, trials));
			table_num_s(t, median_ratio(cw, cu, trials),
				    ratio_spread(cw, cu, trials));
			table_num_s(t, median_ratio(ww, wu, trials),
				    ratio_spread(ww, wu, trials));
		}
		table_num(t, calls);
		table_num(t, bytes / 1e6);
		table_num(t, calls > 0 ? bytes / calls : NAN);
		table_str(t, "%s", verdict);
		if (ovl > 0)
			table_note(t,
				   "%s: %.0f overlapping memcpy calls went "
				   "to memmove.",
				   ap->name, ovl);
	}
	table_note(t,
		   "Input: %s of generated text (the same bytes on every "
		   "machine); each program %d times each way, interleaved.  "
		   "without/with > 1: faster with the preload; median of the "
		   "per-pair ratios of CPU time (user + system, from wait4), "
		   "wall time beside it.",
		   fmt_size(corpus, a), trials);
	table_note(t, "copies, copied: memcpy, mempcpy and __memcpy_chk "
		      "calls that reached the preload (UACCESS_PRELOAD_STATS=1)"
		      "; copies inside glibc itself and those the compiler "
		      "inlined never do.");
	table_note(t, "Preloaded: %s.", preload_path());
	table_end(t);
	cleanup();
	return any ? 0 : -1;
}
