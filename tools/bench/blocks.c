/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench blocks: reading a 4 KiB array of uint64_t (in L1) through
 * an inline user-access block, beside plain loads and beside ua_get_user,
 * a call per value.  The kernel's reason for unsafe_get_user: a value at
 * the cost of a load.
 */
#include <math.h>

#include "bench.h"

#define BLOCK_N 512 /* 4 KiB of uint64_t */

typedef uint64_t (*pass_fn)(const uint64_t *a);

/* The plain loop as the inline one is: one scalar load per value */
#if defined(__clang__)
#define SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#define NO_VECTORIZE
#else
#define SCALAR_LOOP
#define NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#endif

static NO_VECTORIZE __attribute__((noinline)) uint64_t
pass_plain(const uint64_t *a)
{
	uint64_t sum = 0;
	int i;

	SCALAR_LOOP
	for (i = 0; i < BLOCK_N; i++)
		sum += a[i];
	return sum;
}

/* What the compiler makes of plain loads when it may vectorise */
static __attribute__((noinline)) uint64_t
pass_plain_vector(const uint64_t *a)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < BLOCK_N; i++)
		sum += a[i];
	return sum;
}

static __attribute__((noinline)) uint64_t
pass_block(const uint64_t *a)
{
	uint64_t sum = 0, v;
	int i;

	if (!ua_user_access_begin(a, BLOCK_N * sizeof(*a)))
		return 0;
	for (i = 0; i < BLOCK_N; i++) {
		ua_unsafe_get_user(v, &a[i], fault);
		sum += v;
	}
	ua_user_access_end();
	return sum;
fault:
	ua_user_access_end();
	return 0;
}

static __attribute__((noinline)) uint64_t
pass_get_user(const uint64_t *a)
{
	uint64_t sum = 0, v;
	int i;

	for (i = 0; i < BLOCK_N; i++) {
		if (ua_get_user(v, &a[i]))
			return 0;
		sum += v;
	}
	return sum;
}

static const struct {
	const char *name;
	pass_fn fn;
} passes[] = {
    {"plain loads (scalar)", pass_plain},
    {"ua_unsafe_get_user, one block", pass_block},
    {"ua_get_user, a call per value", pass_get_user},
    {"plain loads (vectorised by the compiler)", pass_plain_vector},
};
#define NPASSES (int)(sizeof(passes) / sizeof(passes[0]))

/* ns per pass of 4 KiB */
static double
time_pass(pass_fn volatile fn, const uint64_t *a, unsigned reps, uint64_t *sink)
{
	uint64_t t0 = cpu_ns();
	unsigned r;

	for (r = 0; r < reps; r++)
		*sink += fn(a);
	return (double)cpu_since(t0) / reps;
}

int
cmd_blocks(void)
{
	int trials = bench_trials(9, 21), t, k;
	double v[NPASSES][MEASURE_MAX_TRIALS], ns[NPASSES];
	uint64_t *a = buffer_alloc(BLOCK_N * sizeof(uint64_t)), sink = 0,
		 want = 0;
	unsigned reps = 64;
	struct table *tb;
	int i;

	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	for (i = 0; i < BLOCK_N; i++)
		want += a[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
	for (k = 0; k < NPASSES; k++)
		if (passes[k].fn(a) != want)
			die("blocks: %s read wrong values", passes[k].name);
	/* Samples of about harness_sample_ns for the slowest */
	while (time_pass(pass_get_user, a, reps, &sink) * reps <
		   (double)harness_sample_ns &&
	       reps < (1u << 24))
		reps *= 2;
	for (t = 0; t < trials; t++) {
		progress("blocks: trial %d/%d", t + 1, trials);
		for (k = 0; k < NPASSES; k++) {
			int c = (k + t) % NPASSES;

			v[c][t] = time_pass(passes[c].fn, a, reps, &sink);
		}
	}
	for (k = 0; k < NPASSES; k++)
		ns[k] = median(v[k], trials);

	tb = table_new("blocks", "loads",
		       "a 4 KiB array of uint64_t (L1), summed: inline "
		       "user-access block vs plain loads vs ua_get_user");
	table_key(tb, "loop");
	table_col(tb, "ns/4 KiB", "ns", 0);
	table_col(tb, "ns/value", "ns", 3);
	table_col(tb, "speed vs block", "x", 2);
	for (k = 0; k < NPASSES; k++) {
		table_row(tb);
		table_str(tb, "%s", passes[k].name);
		table_num(tb, ns[k]);
		table_num(tb, ns[k] / BLOCK_N);
		table_num(tb, 1 / median_ratio(v[k], v[1], trials));
	}
	table_note(tb, "speed vs block: median over trials of (block time / "
		       "this loop's time), the loops run back to back");
	table_note(tb, "bars: block >= 0.9x plain scalar loads, "
		       ">= 5x ua_get_user");
	table_end(tb);
	buffer_free(a, BLOCK_N * sizeof(uint64_t));
	if (sink == 1)
		say("(sink)");
	return 0;
}
