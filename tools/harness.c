/* SPDX-License-Identifier: MIT */
/*
 * The tools' measuring harness (harness.h): clocks, statistics, buffers,
 * and the timed loops, one per calling convention, run on one arena.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>

#include "harness.h"

uint64_t harness_sample_ns = 1000000;
void (*die_hook)(void);

/* ---- Clocks ---- */

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

/* ---- Statistics ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
median(const double *v, int n)
{
	double s[STATS_MAX];

	if (n <= 0)
		return NAN;
	if (n > STATS_MAX)
		n = STATS_MAX;
	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The p-quantile of v (0 <= p <= 1), linear between order statistics */
static double
quantile(const double *v, int n, double p)
{
	double s[STATS_MAX], pos;
	int i;

	if (n > STATS_MAX)
		n = STATS_MAX;
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

const char *
verdict(double value, double spread, double target, int lower)
{
	if (isnan(value))
		return "N/A";
	if (lower ? value <= target : value >= target)
		return "PASS";
	if (!isnan(spread) && (lower ? value * (1 - spread / 2) <= target
				     : value * (1 + spread / 2) >= target))
		return "LEVEL";
	return "MISS";
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

/* ---- Memory, errors ---- */

void *
buffer_alloc(size_t n)
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
buffer_free(void *p, size_t n)
{
	if (p)
		munmap(p, n ? n : 1);
}

/* The most one measurement buffer takes (harness.h) */
size_t
buffer_cap(void)
{
	size_t cap = (size_t)256 << 20;
	struct sysinfo si;

	if (!sysinfo(&si) && si.freeram / 8 * si.mem_unit < cap)
		cap = si.freeram / 8 * si.mem_unit;
	return cap;
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
 * speed beyond), and "in the LLC" would then mean memory.  Reads at twice
 * the L2 (in the LLC) set the speed, then the working set doubles until
 * one reads below 3/4 of it; the LLC is taken as twice the last that
 * held, so that a source and a destination of a quarter of it each fit
 * in what held.  No drop up to the reported size (or 256 MiB, or an
 * eighth of free memory): the reported size stands.
 */
size_t
llc_measured(size_t l2, size_t reported)
{
	size_t ws, held = 0, top = buffer_cap();
	double ref = 0;

	if (top > reported)
		top = reported;

	for (ws = 2 * l2; ws <= top; ws *= 2) {
		double gbs = read_gbs(ws);

		if (held && gbs < ref * 0.75)
			return 2 * held;
		if (!held)
			ref = gbs;
		held = ws;
	}
	return reported;
}

void
die(const char *fmt, ...)
{
	va_list ap;

	if (die_hook)
		die_hook();
	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- Contenders ---- */

const struct ua_strategy *
nocache_strategy(void)
{
	const struct ua_strategy *s;
	size_t i, n;

	s = ua_strategies(&n);
	for (i = 0; i < n; i++)
		if (s[i].nontemporal && ua_strategy_usable(&s[i]))
			return &s[i];
	return NULL;
}

/* Buffers: one arena shared by every local contender */

static char *arena_src, *arena_dst;
static size_t arena_len;
static uint64_t sweep_cursor; /* cold sweeps go on where they stopped */

void
arena_reserve(size_t len)
{
	len = (len + 8192 + 4095) & ~(size_t)4095;
	if (len <= arena_len)
		return;
	arena_release();
	arena_src = buffer_alloc(len);
	arena_dst = buffer_alloc(len);
	arena_len = len;
}

void
arena_release(void)
{
	buffer_free(arena_src, arena_len);
	buffer_free(arena_dst, arena_len);
	arena_src = arena_dst = NULL;
	arena_len = 0;
}

/* ---- The timed loops, one per calling convention ---- */

/* Read the request's clock; the time since t0 on it */
static uint64_t
clock_read(const struct req *r)
{
	return r->wall ? now_ns() : cpu_ns();
}

static uint64_t
clock_since(const struct req *r, uint64_t t0)
{
	return r->wall ? now_ns() - t0 : cpu_since(t0);
}

typedef void *(*volatile memcpy_like)(void *, const void *, size_t);

/*
 * Run LOOP(call) with c's calling convention, the call copying N bytes from
 * S to D (expressions of the loop's variables).  memcpy and the user copies
 * share one loop: their arguments and result travel in the same registers
 * (the result is not used), and a loop of its own per convention made the
 * loop's code, not the entry called, decide small copies, glibc's memcpy
 * as much as the user copies (docs/measurements/zen5.md: "Small sizes move
 * with the process").
 */
#define DISPATCH(c, LOOP, D, S, N)                                             \
	do {                                                                   \
		switch ((c)->kind) {                                           \
		case CK_MEMCPY:                                                \
		case CK_USER: {                                                \
			memcpy_like fn_ =                                      \
			    (c)->kind == CK_MEMCPY                             \
				? (c)->memcpy_fn                               \
				: (memcpy_like)(void (*)(void))(c)->user_fn;   \
			LOOP(fn_(D, S, N));                                    \
			break;                                                 \
		}                                                              \
		case CK_FORCED_SRC:                                            \
		case CK_FORCED_DST: {                                          \
			volatile ua_copy_fn fn_ = (c)->strategy;               \
			int dst_ = (c)->kind == CK_FORCED_DST;                 \
			LOOP(ua_user_copy(                                     \
			    fn_, D, S, N, dst_ ? UA_SIDE_DST : UA_SIDE_SRC,    \
			    dst_ ? (uintptr_t)(D) : (uintptr_t)(S)));          \
			break;                                                 \
		}                                                              \
		case CK_STRATEGY: {                                            \
			volatile ua_copy_fn fn_ = (c)->strategy;               \
			LOOP(fn_(D, S, N, UA_NO_USER));                        \
			break;                                                 \
		}                                                              \
		case CK_CLEAR: {                                               \
			volatile ua_clear_fn fn_ = (c)->strategy;              \
			LOOP(fn_(D, NULL, N, UA_NO_USER));                     \
			break;                                                 \
		}                                                              \
		default:                                                       \
			break;                                                 \
		}                                                              \
	} while (0)

/* size bytes at consecutive 64-byte-rounded offsets within ws */
static uint64_t
run_sweep(const struct contender *c, const struct req *r, uint64_t calls,
	  uint64_t *cursor)
{
	size_t n = r->size, stride = (n + 63) & ~(size_t)63;
	size_t ws = r->ws > n ? r->ws : n;
	size_t slots = (ws - n) / stride + 1;
	char *s0 = arena_src + r->src_align, *d0 = arena_dst + r->dst_align;
	size_t src_stride = r->fixed_src ? 0 : stride;
	size_t dst_stride = r->fixed_dst ? 0 : stride;
	uint64_t slot = *cursor % slots, i, t0;

	t0 = clock_read(r);
#define SWEEP(CALL)                                                            \
	for (i = 0; i < calls; i++) {                                          \
		CALL;                                                          \
		if (++slot == slots)                                           \
			slot = 0;                                              \
	}
	DISPATCH(c, SWEEP, d0 + slot * dst_stride, s0 + slot * src_stride, n);
	*cursor = slot;
	return clock_since(r, t0);
}

/*
 * Random copies at random alignments: sizes uniform in [lo, hi], or
 * with hi 0 the mix of small copies, mostly <= 128 bytes
 */
#define RANDOM_COUNT 4096
struct rcopy {
	uint32_t size, soff, doff;
};
static struct rcopy rlist[RANDOM_COUNT];
static uint64_t rlist_seed, rlist_ws, rlist_lo, rlist_hi;

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
rlist_fill(uint64_t seed, size_t ws, uint64_t lo, uint64_t hi)
{
	uint64_t s = seed | 1;
	int i;

	if (rlist_seed == seed && rlist_ws == ws && rlist_lo == lo &&
	    rlist_hi == hi)
		return;
	for (i = 0; i < RANDOM_COUNT; i++) {
		unsigned p = (unsigned)(xorshift(&s) % 100);
		uint32_t size;

		if (hi)
			size = (uint32_t)(lo + xorshift(&s) % (hi - lo + 1));
		else if (p < 50)
			size = 1 + (uint32_t)(xorshift(&s) % 32);
		else if (p < 85)
			size = 33 + (uint32_t)(xorshift(&s) % 96);
		else if (p < 97)
			size = 129 + (uint32_t)(xorshift(&s) % 384);
		else
			size = 513 + (uint32_t)(xorshift(&s) % 3584);
		if (size > ws)
			size = (uint32_t)ws;
		rlist[i].size = size;
		rlist[i].soff = (uint32_t)(xorshift(&s) % (ws - size + 1));
		rlist[i].doff = (uint32_t)(xorshift(&s) % (ws - size + 1));
	}
	rlist_seed = seed;
	rlist_ws = ws;
	rlist_lo = lo;
	rlist_hi = hi;
}

static uint64_t
run_random(const struct contender *c, const struct req *r, uint64_t passes)
{
	uint64_t p, t0;
	int i;

	rlist_fill(r->seed, r->ws, r->size_lo, r->size);
	t0 = clock_read(r);
#define RANDOM(CALL)                                                           \
	for (p = 0; p < passes; p++)                                           \
		for (i = 0; i < RANDOM_COUNT; i++) {                           \
			CALL;                                                  \
		}
	DISPATCH(c, RANDOM, arena_dst + rlist[i].doff,
		 arena_src + rlist[i].soff, rlist[i].size);
	return clock_since(r, t0);
}

/* ws bytes in size-byte chunks into one destination window: read() */
static uint64_t
run_chunks(const struct contender *c, const struct req *r, uint64_t passes,
	   size_t limit)
{
	char *d0 = arena_dst + r->dst_align;
	size_t n = r->size, off, end = limit - limit % n;
	uint64_t p, t0;

	t0 = clock_read(r);
#define CHUNKS(CALL)                                                           \
	for (p = 0; p < passes; p++)                                           \
		for (off = 0; off < end; off += n) {                           \
			CALL;                                                  \
		}
	DISPATCH(c, CHUNKS, d0, arena_src + r->src_align + off, n);
	return clock_since(r, t0);
}

double
sample(const struct contender *c, const struct req *r)
{
	size_t ws = r->ws > r->size ? r->ws : r->size;
	uint64_t reps = r->reps ? r->reps : 1, t, warm, cursor = 0;

	if (c->kind == CK_REMOTE)
		return c->remote(c, r);
	if (c->before)
		c->before(c);
	arena_reserve(ws);
	switch (r->op) {
	case REQ_SWEEP:
		if (r->cold) {
			/* beyond the caches: keep walking fresh memory */
			run_sweep(c, r, 1, &sweep_cursor);
			t = run_sweep(c, r, reps, &sweep_cursor);
		} else {
			warm = (ws - r->size) / ((r->size + 63) & ~63ul) + 1;
			run_sweep(c, r, warm > reps ? warm : reps, &cursor);
			cursor = 0;
			t = run_sweep(c, r, reps, &cursor);
		}
		return (double)t / (double)reps;
	case REQ_RANDOM:
		run_random(c, r, 1);
		t = run_random(c, r, reps);
		return (double)t / (double)(reps * RANDOM_COUNT);
	case REQ_CHUNKS:
		run_chunks(c, r, 1, r->size * 64 < ws ? r->size * 64 : ws);
		t = run_chunks(c, r, reps, ws);
		return (double)t / (double)reps;
	default:
		return 0;
	}
}

void
calibrate(const struct contender *c, struct req *r)
{
	uint64_t target = harness_sample_ns;
	double ns;

	r->reps = 1;
	for (;;) {
		ns = sample(c, r) * (double)r->reps;
		if (r->op == REQ_RANDOM)
			ns *= RANDOM_COUNT;
		if (ns >= (double)target / 8 || r->reps >= (1u << 30))
			break;
		r->reps *= 8;
	}
	r->reps = (uint64_t)((double)r->reps * (double)target / ns);
	if (r->reps < 1)
		r->reps = 1;
}

void
measure_samples(const struct contender *const *cs, int n, const struct req *r,
		int trials, double (*ret_v)[MEASURE_MAX_TRIALS])
{
	struct req rs[MEASURE_MAX_CONTENDERS];
	int t, i;

	if (n > MEASURE_MAX_CONTENDERS)
		n = MEASURE_MAX_CONTENDERS;
	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	/* Each contender does about the same time per sample, not the same
	 * number of calls: a syscall must not take 100 times longer. */
	for (i = 0; i < n; i++) {
		rs[i] = *r;
		if (!r->reps)
			calibrate(cs[i], &rs[i]);
	}
	/*
	 * A new order every trial (a fixed shuffle): a contender that
	 * disturbs the caches, the TLB or the predictors (a system call, the
	 * glibc child) must not always run right before the same one.
	 */
	for (t = 0; t < trials; t++) {
		int order[MEASURE_MAX_CONTENDERS];
		uint64_t seed = 0x9e3779b97f4a7c15u * (uint64_t)(t + 1);

		for (i = 0; i < n; i++)
			order[i] = i;
		for (i = n - 1; i > 0; i--) {
			int j = (int)(xorshift(&seed) % (uint64_t)(i + 1));
			int tmp = order[i];

			order[i] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i < n; i++)
			ret_v[order[i]][t] =
			    sample(cs[order[i]], &rs[order[i]]);
	}
}

void
measure(const struct contender *const *cs, int n, const struct req *r,
	int trials, double *ret_ns)
{
	double v[MEASURE_MAX_CONTENDERS][MEASURE_MAX_TRIALS];
	int i;

	if (n > MEASURE_MAX_CONTENDERS)
		n = MEASURE_MAX_CONTENDERS;
	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	measure_samples(cs, n, r, trials, v);
	for (i = 0; i < n; i++)
		ret_ns[i] = median(v[i], trials);
}

/* The per-trial ratios num/den into q; how many */
static int
trial_ratios(const double *num, const double *den, int trials,
	     double q[static MEASURE_MAX_TRIALS])
{
	int t;

	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	for (t = 0; t < trials; t++)
		q[t] = num[t] / den[t];
	return trials;
}

double
median_ratio(const double *num, const double *den, int trials)
{
	double q[MEASURE_MAX_TRIALS];

	return median(q, trial_ratios(num, den, trials, q));
}

double
ratio_spread(const double *num, const double *den, int trials)
{
	double q[MEASURE_MAX_TRIALS];

	return spread(q, trial_ratios(num, den, trials, q));
}

int
policy_next(int *cursor, struct policy_item *ret)
{
	const struct ua_policy *p = ua_policy();

	while (*cursor < UA_NTUNABLES) {
		int t = (*cursor)++;
		const struct ua_setting *s = &p->t[t];

		if (t < UA_T_FIRST_NUMBER && !s->strategy)
			continue;
		ret->name = ua_tunables[t].name;
		ret->from = ua_source_name(s->source);
		ret->doc = ua_tunables[t].doc;
		ua_setting_format(ret->value, sizeof(ret->value), t, s);
		return 1;
	}
	return 0;
}
