/* SPDX-License-Identifier: MIT */
/* Time, statistics, memory and the machine, for uaccess-bench. */
#include <errno.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "bench.h"

struct bench_machine machine = {.cpu = -1};

uint64_t clock_cost;

uint64_t
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
clock_calibrate(void)
{
	double v[63];
	int i;

	for (i = 0; i < 63; i++) {
		uint64_t t0 = cpu_ns();

		v[i] = (double)(cpu_ns() - t0);
	}
	clock_cost = (uint64_t)median(v, 63);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
median(const double *v, int n)
{
	double s[64];

	if (n <= 0)
		return NAN;
	if (n > 64)
		n = 64;
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The p-quantile of v (0 <= p <= 1), linear between order statistics */
static double
quantile(const double *v, int n, double p)
{
	double s[64], pos;
	int i;

	if (n > 64)
		n = 64;
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	pos = p * (n - 1);
	i = (int)pos;
	return i + 1 < n ? s[i] + (pos - i) * (s[i + 1] - s[i]) : s[i];
}

double
spread(const double *v, int n)
{
	double q1, q2, q3;

	if (n < 3)
		return NAN;
	q1 = quantile(v, n, 0.25);
	q2 = quantile(v, n, 0.5);
	q3 = quantile(v, n, 0.75);
	return q2 > 0 ? (q3 - q1) / q2 : NAN;
}

int
beyond_spread(double a, double sa, double b, double sb)
{
	if (isnan(a) || isnan(b) || isnan(sa) || isnan(sb) || a <= 0 || b <= 0)
		return -1;
	/* [a(1 - sa/2), a(1 + sa/2)] and the same for b do not meet */
	return a * (1 - sa / 2) > b * (1 + sb / 2) ||
	       b * (1 - sb / 2) > a * (1 + sa / 2);
}

double
geomean(const double *v, int n)
{
	double sum = 0;
	int i, used = 0;

	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			continue;
		sum += log(v[i]);
		used++;
	}
	return used ? exp(sum / used) : NAN;
}

void *
bench_alloc(size_t n)
{
	void *p;

	if (!n)
		n = 1;
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		die("cannot allocate %zu bytes: %s", n, strerror(errno));
	memset(p, 0x5a, n); /* pre-fault: no page fault is ever timed */
	return p;
}

void
bench_free(void *p, size_t n)
{
	if (p)
		munmap(p, n ? n : 1);
}

int
parse_size(const char *s, size_t *ret)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	}
	if (shift && (*end == 'i' || *end == 'I'))
		end++;
	if (shift && (*end == 'b' || *end == 'B'))
		end++;
	if (*end)
		return -EINVAL;
	if (v > (SIZE_MAX >> shift))
		return -ERANGE;
	*ret = (size_t)v << shift;
	return 0;
}

const char *
fmt_size(size_t n, char buf[static 24])
{
	if (n >= (1u << 30) && !(n & ((1u << 30) - 1)))
		snprintf(buf, 24, "%zuG", n >> 30);
	else if (n >= (1u << 20) && !(n & ((1u << 20) - 1)))
		snprintf(buf, 24, "%zuM", n >> 20);
	else if (n >= 1024 && !(n & 1023))
		snprintf(buf, 24, "%zuK", n >> 10);
	else
		snprintf(buf, 24, "%zu", n);
	return buf;
}

static size_t
sysfs_cache(int level, int data)
{
	char path[96], type[32];
	size_t best = 0;
	int i;

	for (i = 0; i < 8; i++) {
		FILE *f;
		int lv = 0;
		size_t kb = 0;
		char unit = 0;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (fscanf(f, "%d", &lv) != 1)
			lv = 0;
		fclose(f);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%31s", type) != 1)
			strcpy(type, "?");
		if (f)
			fclose(f);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "r");
		if (f && fscanf(f, "%zu%c", &kb, &unit) >= 1) {
			if (unit == 'M')
				kb *= 1024;
		}
		if (f)
			fclose(f);
		if (!strcmp(type, "Instruction"))
			continue;
		if (data && strcmp(type, "Data"))
			continue;
		if (lv == level && kb * 1024 > best)
			best = kb * 1024;
	}
	return best;
}

static void
read_model_name(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	strcpy(machine.cpu_model, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = 0;
		snprintf(machine.cpu_model, sizeof(machine.cpu_model), "%s",
			 colon);
		break;
	}
	fclose(f);
}

static void
read_cpuid(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d, max;

	if (!__get_cpuid(0, &max, &b, &c, &d))
		return;
	memcpy(machine.vendor, &b, 4);
	memcpy(machine.vendor + 4, &d, 4);
	memcpy(machine.vendor + 8, &c, 4);
	machine.vendor[12] = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	machine.family = (int)((a >> 8) & 0xf);
	machine.model = (int)((a >> 4) & 0xf);
	machine.stepping = (int)(a & 0xf);
	if (machine.family == 0xf)
		machine.family += (int)((a >> 20) & 0xff);
	if (machine.family >= 6)
		machine.model |= (int)((a >> 12) & 0xf0);
	machine.sse2 = !!(d & (1u << 26));
	if (max >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		machine.erms = !!(b & (1u << 9));
		machine.avx2 = !!(b & (1u << 5));
		machine.avx512f = !!(b & (1u << 16));
		machine.avx512bw = !!(b & (1u << 30));
		machine.avx512vl = !!(b & (1u << 31));
		machine.fsrm = !!(d & (1u << 4));
	}
#endif
}

void
machine_detect(void)
{
	long v;

	read_model_name();
	read_cpuid();
	machine.l1d = sysfs_cache(1, 1);
	machine.l2 = sysfs_cache(2, 0);
	machine.llc = sysfs_cache(3, 0);
	if (!machine.l1d && (v = sysconf(_SC_LEVEL1_DCACHE_SIZE)) > 0)
		machine.l1d = (size_t)v;
	if (!machine.l2 && (v = sysconf(_SC_LEVEL2_CACHE_SIZE)) > 0)
		machine.l2 = (size_t)v;
	if (!machine.llc && (v = sysconf(_SC_LEVEL3_CACHE_SIZE)) > 0)
		machine.llc = (size_t)v;
	if (!machine.l1d)
		machine.l1d = 32 << 10;
	if (!machine.l2)
		machine.l2 = 256 << 10;
	if (!machine.llc)
		machine.llc = machine.l2 * 4;
	snprintf(machine.glibc, sizeof(machine.glibc), "%s",
		 gnu_get_libc_version());
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
 * least 64 MiB, at most a quarter of free memory and 256 MiB.
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

void
die(const char *fmt, ...)
{
	va_list ap;

	progress_done();
	fputs("uaccess-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}
