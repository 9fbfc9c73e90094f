/* SPDX-License-Identifier: MIT */
/* Sizes, the machine, cache levels and progress, for uaccess-bench. */
#include <errno.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
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

void
machine_detect(void)
{
	const struct ua_cpu *c = ua_cpu();

	machine.cpu_model = c->name[0] ? c->name : "unknown CPU";
	machine.l1d = c->l1d ? c->l1d : (size_t)32 << 10;
	machine.l2 = c->l2 ? c->l2 : (size_t)256 << 10;
	machine.llc = c->l3 ? c->l3 : machine.l2 * 4;
	machine.llc_reported = machine.llc;
	snprintf(machine.glibc, sizeof(machine.glibc), "%s",
		 gnu_get_libc_version());
}

/* Reading ws bytes, one load per cache line: GB/s, the best of 7 passes */
static double
read_gbs(size_t ws)
{
	const volatile uint64_t *p = buffer_alloc(ws);
	uint64_t best = UINT64_MAX;
	size_t i;
	int k;

	for (k = 0; k < 7; k++) {
		uint64_t t0 = now_ns(), t;

		for (i = 0; i < ws / 8; i += 8)
			(void)p[i]; /* volatile: every load is made */
		t = now_ns() - t0;
		if (t < best)
			best = t;
	}
	buffer_free((void *)p, ws);
	return (double)ws / (double)(best ? best : 1);
}

/*
 * What the LLC holds for one core, measured: a VM may report its host's
 * whole L3 (508 MiB on a 2-core Zen 5 guest, where one core's reads
 * drop below 3/4 of their LLC speed from 16-32 MiB on, and to memory
 * speed beyond), and the LLC rows would then measure memory.  Reads
 * at twice the L2 (in the LLC) set the speed, then the working set
 * doubles until one reads below 3/4 of it; the LLC is taken as twice the
 * last that held, so that a level's source and destination (a quarter of
 * it each) fit in what held.  No drop up to the reported size (or 256
 * MiB, or an eighth of free memory): the reported size stands.
 */
void
machine_probe_llc(void)
{
	size_t ws, held = 0, top = machine.llc_reported;
	size_t cap = (size_t)256 << 20;
	double ref = 0;
	struct sysinfo si;

	if (!sysinfo(&si) && si.freeram / 8 * si.mem_unit < cap)
		cap = si.freeram / 8 * si.mem_unit;
	if (top > cap)
		top = cap;
	for (ws = 2 * machine.l2; ws <= top; ws *= 2) {
		double gbs = read_gbs(ws);

		if (held && gbs < ref * 0.75) {
			machine.llc = 2 * held;
			return;
		}
		if (!held)
			ref = gbs;
		held = ws;
	}
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
	size_t ws, cap = (size_t)256 << 20;
	struct sysinfo si;

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
		if (!sysinfo(&si) && si.freeram / 8 * si.mem_unit < cap)
			cap = si.freeram / 8 * si.mem_unit;
		return ws < cap ? ws : cap;
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
