/* SPDX-License-Identifier: MIT */
/*
 * argv (seed 004): building an exec argument block, the kernel's
 * copy_strings(), for a compiler-like command line and a large
 * environment: page mappings and time with the mapping cache (the seed),
 * without it (before the seed), and with no mapping at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define NARGS 300
#define NENV 64
#define MAX_BLOCK ((size_t)1 << 20)

static char *args[NARGS + 1], *envs[NENV + 1];
static size_t strings_bytes;

/* cc -O2 ... -c src/dirNN/fileNNN.c -o build/...: 300 arguments */
static void
make_strings(void)
{
	static const char *const flags[] = {"-O2",
					    "-g",
					    "-Wall",
					    "-Wextra",
					    "-fPIC",
					    "-std=gnu11",
					    "-pipe",
					    "-fno-strict-aliasing",
					    "-fstack-protector-strong",
					    "-D_FORTIFY_SOURCE=2"};
	int i = 0, k;

	args[i++] = xasprintf("/usr/bin/cc");
	for (k = 0; k < 10; k++)
		args[i++] = xasprintf("%s", flags[k]);
	for (k = 0; i < NARGS - 6; k++) {
		if (k % 3 == 0)
			args[i++] = xasprintf(
			    "-I/usr/src/project/include/subsystem%02d/api", k);
		else if (k % 3 == 1)
			args[i++] = xasprintf("-DCONFIG_FEATURE_%03d=1", k);
		else
			args[i++] =
			    xasprintf("-isystem/opt/toolchain/sysroot/usr/"
				      "include/lib%02d",
				      k);
	}
	args[i++] = xasprintf("-MD");
	args[i++] = xasprintf("-MF");
	args[i++] = xasprintf("build/obj/dir07/file042.o.d");
	args[i++] = xasprintf("-c");
	args[i++] = xasprintf("src/dir07/file042.c");
	args[i++] = xasprintf("-obuild/obj/dir07/file042.o");
	args[i] = NULL;

	i = 0;
	envs[i++] = xasprintf(
	    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
	    "/bin:/opt/toolchain/bin:/home/builder/.local/bin:/home/builder/"
	    "go/bin:/home/builder/.cargo/bin:/usr/lib/ccache:/snap/bin");
	envs[i] = xasprintf("LS_COLORS=");
	for (k = 0; k < 60; k++) {
		char *old = envs[i];

		envs[i] = xasprintf("%s*.ext%02d=01;%02d:", old, k, 31 + k % 7);
		free(old);
	}
	i++;
	envs[i++] = xasprintf("HOME=/home/builder");
	envs[i++] = xasprintf("USER=builder");
	envs[i++] = xasprintf("SHELL=/bin/bash");
	envs[i++] = xasprintf("LANG=C.UTF-8");
	envs[i++] = xasprintf("TERM=xterm-256color");
	envs[i++] = xasprintf("PWD=/home/builder/src/project/build");
	for (k = 0; i < NENV; k++)
		envs[i++] = xasprintf("BUILD_VAR_%02d=value-of-build-"
				      "variable-%02d",
				      k, k);
	envs[i] = NULL;
	/* Their bytes, each with its NUL */
	for (i = 0; args[i]; i++)
		strings_bytes += strlen(args[i]) + 1;
	for (i = 0; envs[i]; i++)
		strings_bytes += strlen(envs[i]) + 1;
}

static void
free_strings(void)
{
	int i;

	for (i = 0; args[i]; i++)
		free(args[i]);
	for (i = 0; envs[i]; i++)
		free(envs[i]);
	strings_bytes = 0;
}

static const struct {
	const char *name;
	unsigned flags;
} configs[] = {
    {"windowed, mapping cache (seed 004)", UA_ARGBLOCK_WINDOWED},
    {"windowed, no mapping cache (before)",
     UA_ARGBLOCK_WINDOWED | UA_ARGBLOCK_NO_MAP_CACHE},
    {"direct (nothing to map)", 0},
};
#define NCONF 3

/* One build, as execve does: environment first, then the arguments */
static int
build(unsigned flags, double *ret_ns, unsigned long *ret_maps, size_t *ret_size)
{
	struct ua_argblock *bp;
	uint64_t t0, t;
	int r;

	r = ua_argblock_new(&bp, MAX_BLOCK, flags);
	if (r < 0)
		return r;
	t0 = cpu_ns();
	r = ua_copy_strings(bp, NENV, (const char *const *)envs);
	if (!r)
		r = ua_copy_strings(bp, NARGS, (const char *const *)args);
	t = cpu_since(t0);
	*ret_ns = (double)t;
	*ret_maps = ua_argblock_maps(bp);
	*ret_size = ua_argblock_size(bp);
	ua_argblock_free(bp);
	return r;
}

int
cmd_argv(void)
{
	int trials = bench_trials(5, 11), builds = opt.quick ? 20 : 100;
	double v[NCONF][64], ns[NCONF];
	unsigned long maps[NCONF] = {0};
	size_t size[NCONF] = {0};
	struct table *t;
	int c, k, b, r;

	make_strings();
	for (k = 0; k < trials; k++) {
		progress("argv: trial %d/%d", k + 1, trials);
		for (c = 0; c < NCONF; c++) {
			int i = (c + k) % NCONF;
			double sum = 0, x;

			for (b = 0; b < builds; b++) {
				r = build(configs[i].flags, &x, &maps[i],
					  &size[i]);
				if (r < 0) {
					free_strings();
					unavailable("argv", configs[i].name,
						    strerror(-r));
					return -1;
				}
				sum += x;
			}
			v[i][k] = sum / builds;
		}
	}
	for (c = 0; c < NCONF; c++)
		ns[c] = median(v[c], trials);

	t = table_new("argv", "copy_strings",
		      "building an exec argument block: 300 arguments and a "
		      "64-variable environment (seed 004)");
	table_key(t, "block");
	table_col(t, "bytes", "", 0);
	table_role(t, ROLE_HIDDEN);
	table_col(t, "maps", "", 0);
	table_col(t, "time/build", "us", 1);
	table_plot(t, "argv-maps", PLOT_BARS, 0, PLOT_LOGY, "",
		   "uaccess-bench argv: page mappings to build one argument "
		   "block (seed 004; log scale)");
	table_plot(t, "argv-time", PLOT_BARS, 0, 0, "us",
		   "uaccess-bench argv: time to build one argument block "
		   "(seed 004)");
	table_col(t, "maps vs cached", "x", 1);
	table_col(t, "time vs cached", "x", 2);
	for (c = 0; c < NCONF; c++) {
		table_row(t);
		table_str(t, "%s", configs[c].name);
		table_num(t, (double)size[c]);
		table_num(t, (double)maps[c]);
		table_num(t, ns[c] / 1e3);
		table_num(t, maps[0] ? (double)maps[c] / (double)maps[0] : 0);
		table_num(t, ns[c] / ns[0]);
	}
	table_note(t,
		   "%d strings, %zu bytes; ua_copy_strings() on the "
		   "environment then the arguments, strings read as user "
		   "memory.  maps: pages mapped (the seed's kmap count).",
		   NARGS + NENV, strings_bytes);
	table_note(t, "The seed, 2002: keeping the last kmap across strings "
		      "cut copy_strings' kmaps by 30x.");
	table_end(t);
	free_strings();
	return 0;
}
