/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench blocks: reading a 4 KiB array of uint64_t (in L1) through
 * an inline user-access block, beside plain loads and beside ua_get_user,
 * a call per value.  The kernel's reason for unsafe_get_user: a value at
 * the cost of a load.  Then each way to open a block (the guard under
 * speculation): the begin with its barrier, the former begin that
 * wrote the masked pointer back, the masked pointer, the scoped block, and
 * a mask on every access, over one 4 KiB block and over 256 blocks of two
 * values each (where the opening counts).
 */
#include <math.h>

#include "bench.h"

#define BLOCK_N 512 /* 4 KiB of uint64_t */

/* The plain loop as the inline one is: one scalar load per value */
#if defined(__clang__)
#define SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#define NO_VECTORIZE
#else
#define SCALAR_LOOP
#define NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#endif

static NO_VECTORIZE __attribute__((noinline)) uint64_t
pass_plain(uint64_t *a)
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
pass_plain_vector(uint64_t *a)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < BLOCK_N; i++)
		sum += a[i];
	return sum;
}

static __attribute__((noinline)) uint64_t
pass_block(uint64_t *a)
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

/* One block over the array, opened by open */
#define BLOCK_PASS(name, open)                                                 \
	static __attribute__((noinline)) uint64_t name(uint64_t *a)            \
	{                                                                      \
		uint64_t sum = 0, v;                                           \
		int i;                                                         \
                                                                               \
		open;                                                          \
		for (i = 0; i < BLOCK_N; i++) {                                \
			ua_unsafe_get_user(v, &a[i], fault);                   \
			sum += v;                                              \
		}                                                              \
		return sum;                                                    \
	fault:                                                                 \
		return 0;                                                      \
	}
/* The former begin: the masked pointer written back, no barrier */
BLOCK_PASS(pass_writeback, {
	uintptr_t m = ua__user_access_begin(a, BLOCK_N * sizeof(*a));
	a = (uint64_t *)m;
	if (m == UINTPTR_MAX)
		return 0;
})
BLOCK_PASS(pass_masked, a = ua_masked_user_access_begin(a))

static __attribute__((noinline)) uint64_t
pass_scoped(uint64_t *a)
{
	uint64_t sum = 0, v;
	int i;

	ua_scoped_user_read_access_size(a, BLOCK_N * sizeof(*a), fault)
	{
		for (i = 0; i < BLOCK_N; i++) {
			ua_unsafe_get_user(v, &a[i], fault);
			sum += v;
		}
	}
	return sum;
fault:
	return 0;
}

/* The other guard: every access masks its own address (against a top) */
static inline const uint64_t *
mask_each(const uint64_t *p, uintptr_t top)
{
	uintptr_t bad = (uintptr_t)p > top;

	__asm__("" : "+r"(bad));
	return (const uint64_t *)((uintptr_t)p | (0 - bad));
}

static __attribute__((noinline)) uint64_t
pass_mask_each(uint64_t *a)
{
	uint64_t sum = 0, v;
	uintptr_t top = UINTPTR_MAX / 2 - 4095;
	int i;

	if (ua__user_access_begin(a, BLOCK_N * sizeof(*a)) == UINTPTR_MAX)
		return 0;
	for (i = 0; i < BLOCK_N; i++) {
		ua_unsafe_get_user(v, mask_each(&a[i], top), fault);
		sum += v;
	}
	return sum;
fault:
	return 0;
}

/* 256 blocks of two values: the opening of a block counts */
#define SMALL_PASS(name, open)                                                 \
	static __attribute__((noinline)) uint64_t name(uint64_t *a)            \
	{                                                                      \
		uint64_t sum = 0, v, w;                                        \
		int i;                                                         \
                                                                               \
		for (i = 0; i < BLOCK_N; i += 2) {                             \
			const uint64_t *p = &a[i];                             \
                                                                               \
			open;                                                  \
			ua_unsafe_get_user(v, &p[0], fault);                   \
			ua_unsafe_get_user(w, &p[1], fault);                   \
			sum += v + w;                                          \
		}                                                              \
		return sum;                                                    \
	fault:                                                                 \
		return 0;                                                      \
	}
SMALL_PASS(small_barrier, if (!ua_user_access_begin(p, 16)) return 0)
SMALL_PASS(small_writeback, {
	uintptr_t m = ua__user_access_begin(p, 16);
	p = (const uint64_t *)m;
	if (m == UINTPTR_MAX)
		return 0;
})
SMALL_PASS(small_masked, p = ua_masked_user_access_begin(p))

static __attribute__((noinline)) uint64_t
small_scoped(uint64_t *a)
{
	uint64_t sum = 0, v, w;
	int i;

	for (i = 0; i < BLOCK_N; i += 2) {
		const uint64_t *p = &a[i];

		ua_scoped_user_read_access_size(p, 16, fault)
		{
			ua_unsafe_get_user(v, &p[0], fault);
			ua_unsafe_get_user(w, &p[1], fault);
		}
		sum += v + w;
	}
	return sum;
fault:
	return 0;
}

static __attribute__((noinline)) uint64_t
small_inline(uint64_t *a)
{
	uint64_t sum = 0, v, w;
	int i;

	for (i = 0; i < BLOCK_N; i += 2) {
		if (ua_get_user_inline(v, &a[i]) ||
		    ua_get_user_inline(w, &a[i + 1]))
			return 0;
		sum += v + w;
	}
	return sum;
}

static __attribute__((noinline)) uint64_t
pass_get_user(uint64_t *a)
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
    {"block: former begin (pointer written back)", pass_writeback},
    {"block: ua_masked_user_access_begin", pass_masked},
    {"block: ua_scoped_user_read_access_size", pass_scoped},
    {"block: begin without barrier, each access masked", pass_mask_each},
    {"256 blocks of 2: ua_user_access_begin (barrier)", small_barrier},
    {"256 blocks of 2: former begin (written back)", small_writeback},
    {"256 blocks of 2: ua_masked_user_access_begin", small_masked},
    {"256 blocks of 2: scoped", small_scoped},
    {"512 x ua_get_user_inline", small_inline},
};
#define NPASSES (int)(sizeof(passes) / sizeof(passes[0]))

int
cmd_blocks(void)
{
	int trials = bench_trials(9, 21), t, k;
	double v[NPASSES][MEASURE_MAX_TRIALS], ns[NPASSES];
	uint64_t *a = buffer_alloc(BLOCK_N * sizeof(uint64_t)), sink = 0,
		 want = 0;
	unsigned reps;
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
	reps = pass_reps(pass_get_user, a, 64, &sink);
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
	table_note(tb, "ua_unsafe_get_user, one block: opened by "
		       "ua_user_access_begin, whose guard is a speculation "
		       "barrier");
	table_end(tb);
	buffer_free(a, BLOCK_N * sizeof(uint64_t));
	if (sink == 1)
		say("(sink)");
	return 0;
}
