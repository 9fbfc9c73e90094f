/* SPDX-License-Identifier: MIT */
/*
 * The tools' measuring harness, shared by uaccess-bench and uaccess-tune:
 * clocks, statistics, pre-faulted buffers, and contenders timed on the same
 * requests in interleaved trials.  The library's engine (dispatch.h) is
 * reached through the static library, not the shared object's exports.
 */
#ifndef UA_HARNESS_H
#define UA_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cpu.h"
#include "dispatch.h"
#include "routine.h"

/* ---- Clocks ---- */

static inline uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The measuring thread's CPU time, less the cost of reading it: the time
 * the scheduler gives other processes on a shared machine is not counted.
 * Wall time (now_ns) only where several threads take part.
 */
uint64_t cpu_ns(void);
static inline uint64_t
cpu_since(uint64_t t0)
{
	extern uint64_t clock_cost;
	uint64_t t = cpu_ns() - t0;

	return t > clock_cost ? t - clock_cost : 0;
}
/* Measure clock_cost: once, before the first sample */
void clock_calibrate(void);

/* ---- Statistics ---- */

/* median() and spread() take at most this many figures (the rest are
 * ignored): every trial of every process the bench runs (bench.h) */
#define STATS_MAX 512
double median(const double *v, int n);
/*
 * The trial spread: interquartile range over the median, a relative width
 * (0.04: the middle half of the trials lie within 4% of each other); NAN
 * below 3 trials.
 */
double spread(const double *v, int n);
/*
 * Two figures differ by more than their trial spreads: the intervals of
 * their middle halves, median -+ spread/2, do not meet.  1 they differ, 0
 * they agree, -1 a spread is unknown.
 */
int beyond_spread(double a, double spread_a, double b, double spread_b);
/*
 * A figure against its goal: "PASS" when value reaches target (at least
 * it, or with lower at most it); "LEVEL" when it misses by less than half
 * its trial spread, the target inside the middle half of the trials;
 * "MISS" beyond that or with no spread (NAN); "N/A" without a value
 */
const char *verdict(double value, double spread, double target, int lower);
double geomean(const double *v, int n);

/* ---- Memory, errors ---- */

/* Page-aligned, pre-faulted anonymous memory; exits on failure */
void *buffer_alloc(size_t n);
void buffer_free(void *p, size_t n);
/* The most one measurement buffer takes: 256 MiB, less if an eighth of
 * free memory is less */
size_t buffer_cap(void);
/*
 * The last-level cache as one core's reads find it: at most reported,
 * less where reads slow down below it (a VM reporting its host's L3)
 */
size_t llc_measured(size_t l2, size_t reported);

/* Fatal error: "PROGRAM: message" on stderr, exit 1 */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Called by die() first (NULL: nothing), to tidy the terminal */
extern void (*die_hook)(void);

/* ---- Contenders and requests ---- */

enum contender_kind {
	CK_MEMCPY,     /* void *fn(void *dst, const void *src, size_t n) */
	CK_USER,       /* size_t fn(void *dst, const void *src, size_t n) */
	CK_FORCED_SRC, /* a strategy, through the wrapper, user side = src */
	CK_FORCED_DST, /* a strategy, through the wrapper, user side = dst */
	CK_STRATEGY,   /* a strategy's copy routine, no user side */
	CK_CLEAR,      /* a strategy's clear routine, no user side */
	CK_REMOTE,     /* timed elsewhere (another process): remote() */
};

struct req;
struct contender {
	const char *name;
	enum contender_kind kind;
	void *(*memcpy_fn)(void *, const void *, size_t);
	size_t (*user_fn)(void *, const void *, size_t);
	/* CK_FORCED_*, CK_STRATEGY: the copy routine; CK_CLEAR: the clear */
	ua_copy_fn strategy;
	/* CK_REMOTE: ns per call (per pass for REQ_CHUNKS) */
	double (*remote)(const struct contender *c, const struct req *r);
	/* Run before each of its samples (NULL: none) */
	void (*before)(const struct contender *c);
	/* For remote() and before() */
	const void *data;
};

enum req_op {
	REQ_SWEEP, /* size bytes at consecutive offsets within ws */
	/*
	 * A fixed list of copies at random offsets within ws: sizes from
	 * size_lo to size, uniform; size 0: mostly small (harness.c)
	 */
	REQ_RANDOM,
	REQ_CHUNKS, /* ws bytes in size-byte chunks into one dst window */
	REQ_QUIT,   /* a remote contender's server: stop */
};

struct req {
	uint32_t op;
	uint32_t src_align, dst_align;
	/*
	 * REQ_SWEEP: no warm-up pass; each sample goes on where the last one
	 * stopped, so a working set beyond the caches comes from memory, and
	 * one within them from the level that holds it
	 */
	uint32_t cold;
	uint32_t fixed_src; /* REQ_SWEEP: the source stays put, dst walks */
	uint32_t fixed_dst; /* REQ_SWEEP: the destination stays, src walks */
	uint32_t wall;      /* time with the wall clock: samples of a few us */
	uint64_t size, ws, reps, seed;
	uint64_t size_lo; /* REQ_RANDOM: the smallest size */
};

/* Target duration of one calibrated sample, in ns (default 1 ms) */
extern uint64_t harness_sample_ns;

/* ns per call (REQ_CHUNKS: per pass over ws) */
double sample(const struct contender *c, const struct req *r);
/* Choose r->reps so one sample of c takes about harness_sample_ns */
void calibrate(const struct contender *c, struct req *r);
/*
 * Interleaved trials: each trial runs every contender once, in rotating
 * order; ret_ns[i] is contender i's median.  r->reps == 0: calibrate
 * each contender to harness_sample_ns first.
 */
void measure(const struct contender *const *cs, int n, const struct req *r,
	     int trials, double *ret_ns);
/*
 * The same trials, every sample kept: ret_v[i][t] is contender i's time
 * in trial t.  A ratio of two contenders is best taken per trial (they ran
 * back to back) and then the median: median_ratio(num, den, trials).
 */
#define MEASURE_MAX_CONTENDERS 16
#define MEASURE_MAX_TRIALS 64
void measure_samples(const struct contender *const *cs, int n,
		     const struct req *r, int trials,
		     double (*ret_v)[MEASURE_MAX_TRIALS]);
double median_ratio(const double *num, const double *den, int trials);
/* spread() of the same per-trial ratios */
double ratio_spread(const double *num, const double *den, int trials);
/* The buffers every local contender shares: at least len bytes each */
void arena_reserve(size_t len);
void arena_release(void);

/* The usable non-temporal strategy, or NULL */
const struct ua_strategy *nocache_strategy(void);

/*
 * The policy in force, a tunable at a time, as every tool prints it: the
 * next tunable from *cursor (0 at first) into *ret, 0 past the last.
 * Unset strategy tunables (no forced strategy; a misaligned class that
 * runs its class's own) are not listed.
 */
struct policy_item {
	const char *name, *from, *doc;
	char value[24];
};
int policy_next(int *cursor, struct policy_item *ret);

#endif /* UA_HARNESS_H */
