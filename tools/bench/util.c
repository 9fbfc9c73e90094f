/* SPDX-License-Identifier: MIT */
/* Sizes, strings, the machine, cache levels and progress, for uaccess-bench. */
#include <errno.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

struct bench_machine machine = {.cpu = -1};

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
