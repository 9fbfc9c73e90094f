/* SPDX-License-Identifier: MIT */
/* Sizes, strings, the machine, cache levels and progress, for uaccess-bench. */
#include <errno.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

struct bench_machine machine = {.cpu = -1};

/* --glibc: the loader of this architecture in a glibc's directory */
static const char *const glibc_loader =
#if defined(__x86_64__)
    "ld-linux-x86-64.so.2";
#elif defined(__i386__)
    "ld-linux.so.2";
#elif defined(__aarch64__)
    "ld-linux-aarch64.so.1";
#else
    NULL;
#endif
/* What a process run under --glibc inherits: the directory, this
 * program's path */
#define GLIBC_DIR_ENV "UA_BENCH_GLIBC"
#define SELF_ENV "UA_BENCH_SELF"
#define PATH_LEN 4096

/* The --glibc directory this process runs under; NULL: the system's */
static const char *
glibc_dir(void)
{
	return getenv(SELF_ENV) ? getenv(GLIBC_DIR_ENV) : NULL;
}

/* dir's loader, in buf; NULL on an architecture without a known one */
static const char *
loader_in(const char *dir, char buf[static PATH_LEN])
{
	if (!glibc_loader)
		return NULL;
	snprintf(buf, PATH_LEN, "%s/%s", dir, glibc_loader);
	return buf;
}

const char *
bench_self_path(void)
{
	static char self[PATH_LEN];
	ssize_t n;

	if (glibc_dir())
		return getenv(SELF_ENV);
	if (!self[0]) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		self[n > 0 ? n : 0] = 0;
	}
	return self;
}

const char *
bench_glibc_loader(void)
{
	static char loader[PATH_LEN];
	const char *dir = glibc_dir();

	return dir ? loader_in(dir, loader) : NULL;
}

/* execve of the program at self with args[1..] under loader, dir the
 * library path */
static void
exec_under(const char *loader, const char *dir, const char *self,
	   char *const args[], char *const envp[])
{
	const char **v;
	size_t n = 0, i;

	while (args[n])
		n++;
	v = calloc(n + 5, sizeof(*v));
	if (!v)
		return;
	v[0] = loader;
	v[1] = "--library-path";
	v[2] = dir;
	v[3] = self;
	for (i = 1; i <= n; i++)
		v[3 + i] = args[i];
	execve(loader, (char *const *)v, envp);
	free(v);
}

void
bench_exec_self(char *const args[], char *const envp[])
{
	const char *loader = bench_glibc_loader();

	if (loader)
		exec_under(loader, glibc_dir(), bench_self_path(), args, envp);
	else
		execve("/proc/self/exe", args, envp);
}

void
bench_use_glibc(const char *dir, char **argv)
{
	const char *under = glibc_dir();
	char loader[PATH_LEN], path[PATH_LEN];
	extern char **environ;

	if (under && !strcmp(under, dir))
		return;
	if (!loader_in(dir, loader))
		usage_error("--glibc: not on this architecture");
	if (access(loader, X_OK))
		usage_error("--glibc: no %s to run in '%s': %s", glibc_loader,
			    dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/libc.so.6", dir);
	if (access(path, R_OK))
		usage_error("--glibc: no libc.so.6 in '%s': %s", dir,
			    strerror(errno));
	snprintf(path, sizeof(path), "%s", bench_self_path());
	if (!path[0])
		usage_error("--glibc: this program's path is unknown");
	if (setenv(GLIBC_DIR_ENV, dir, 1) || setenv(SELF_ENV, path, 1))
		die("out of memory");
	fflush(NULL);
	exec_under(loader, dir, path, argv, environ);
	fprintf(stderr, "uaccess-bench: --glibc: cannot run %s: %s\n", loader,
		strerror(errno));
	exit(2);
}

int
parse_size(const char *s, size_t *ret)
{
	return ua_parse_size(s, strlen(s), ret);
}

const char *
fmt_size(size_t n, char buf[static 24])
{
	ua_format_size(buf, 24, n);
	return buf;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void
machine_detect(void)
{
	const struct ua_cpu *c = ua_cpu();

	machine.cpu_model = c->name[0] ? c->name : "unknown CPU";
	machine.l1d = c->l1d ? c->l1d : (size_t)32 << 10;
	machine.l2 = c->l2 ? c->l2 : (size_t)256 << 10;
	machine.llc = c->l3 ? c->l3 : machine.l2 * 4;
	machine.llc_reported = machine.llc;
#ifdef __GLIBC__
	snprintf(machine.glibc, sizeof(machine.glibc), "%s",
		 gnu_get_libc_version());
#else
	snprintf(machine.glibc, sizeof(machine.glibc), "not glibc");
#endif
}

int
pin_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return -errno;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	machine.cpu = cpu;
	return 0;
}

/*
 * Working set per buffer: a quarter of the cache, so source and
 * destination together fill half of it.  DRAM: eight times the LLC, at
 * least 64 MiB, at most an eighth of free memory and 256 MiB.
 */
size_t
level_ws(enum level l)
{
	size_t ws;

	switch (l) {
	case LVL_L1:
		return machine.l1d / 4;
	case LVL_L2:
		return machine.l2 / 4;
	case LVL_LLC:
		return machine.llc / 4;
	default:
		ws = machine.llc * 8;
		if (ws < ((size_t)64 << 20))
			ws = (size_t)64 << 20;
		return ws < buffer_cap() ? ws : buffer_cap();
	}
}

const char *
level_name(enum level l)
{
	static const char *const names[] = {"L1", "L2", "LLC", "DRAM"};

	return l < LVL_COUNT ? names[l] : "?";
}

enum level
level_for(size_t n)
{
	enum level l;

	for (l = LVL_L1; l < LVL_DRAM; l++)
		if (n <= level_ws(l))
			return l;
	return LVL_DRAM;
}

static int progress_shown;

void
progress(const char *fmt, ...)
{
	va_list ap;

	if (!opt.progress)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = 1;
}

void
progress_done(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = 0;
}
