/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench atomics: each atomic operation on user memory against the
 * plain __atomic builtin it stands for, on one word in L1, uncontended:
 * a loop of calls beside the same loop of inline builtins.  The bar:
 * within 10% for the read-modify-write ops.  Then the inline
 * forms of a block (ua_unsafe_try_cmpxchg_user and the others).
 */
#include "bench.h"

#define ATOM_N 1024 /* operations per pass */

#define SC __ATOMIC_SEQ_CST

/* A pass: ATOM_N times op on the word w (a qual T *), its values v summed */
#define PASS(fname, T, qual, op)                                               \
	static __attribute__((noinline)) uint64_t fname(uint64_t *word)        \
	{                                                                      \
		qual T *w = (qual T *)word;                                    \
		uint64_t sum = 0;                                              \
		T v = 0;                                                       \
		int i;                                                         \
		for (i = 0; i < ATOM_N; i++) {                                 \
			op;                                                    \
			sum += v;                                              \
		}                                                              \
		return sum;                                                    \
	}
/* One pair of passes per op: ours through the library, the builtin's */
#define PASSES(name, T, ours, builtin)                                         \
	PASS(ours_##name, T, volatile, ours)                                   \
	PASS(plain_##name, T, , builtin)

/* cmpxchg: v the value expected, which the swap then increments */
PASSES(cmpxchg_u32, uint32_t,
       (v = (uint32_t)*w, ua_cmpxchg_user_u32(w, &v, v + 1)),
       (v = *w, __atomic_compare_exchange_n(w, &v, v + 1, 0, SC, SC)))
PASSES(cmpxchg_u64, uint64_t, (v = *w, ua_cmpxchg_user_u64(w, &v, v + 1)),
       (v = *w, __atomic_compare_exchange_n(w, &v, v + 1, 0, SC, SC)))
PASSES(xchg_u32, uint32_t, ua_xchg_user_u32(w, (uint32_t)i, &v),
       v = __atomic_exchange_n(w, (uint32_t)i, SC))
PASSES(xchg_u64, uint64_t, ua_xchg_user_u64(w, (uint64_t)i, &v),
       v = __atomic_exchange_n(w, (uint64_t)i, SC))
PASSES(futex_add, uint32_t,
       ua_futex_atomic_op_user(UA_FUTEX_OP_ADD, 3, (int *)&v,
			       (volatile uint32_t *)w),
       v = __atomic_fetch_add(w, 3, SC))
PASSES(futex_or, uint32_t,
       ua_futex_atomic_op_user(UA_FUTEX_OP_OR, (uint32_t)i, (int *)&v,
			       (volatile uint32_t *)w),
       v = __atomic_fetch_or(w, (uint32_t)i, SC))
PASSES(futex_andn, uint32_t,
       ua_futex_atomic_op_user(UA_FUTEX_OP_ANDN, (uint32_t)i, (int *)&v,
			       (volatile uint32_t *)w),
       v = __atomic_fetch_and(w, ~(uint32_t)i, SC))
PASSES(futex_xor, uint32_t,
       ua_futex_atomic_op_user(UA_FUTEX_OP_XOR, (uint32_t)i, (int *)&v,
			       (volatile uint32_t *)w),
       v = __atomic_fetch_xor(w, (uint32_t)i, SC))
PASSES(load_acquire_u32, uint32_t, ua_load_acquire_user_u32(w, &v),
       v = __atomic_load_n(w, __ATOMIC_ACQUIRE))
PASSES(load_acquire_u64, uint64_t, ua_load_acquire_user_u64(w, &v),
       v = __atomic_load_n(w, __ATOMIC_ACQUIRE))
PASSES(store_release_u32, uint32_t,
       (ua_store_release_user_u32(w, (uint32_t)i), v = (uint32_t)i),
       (__atomic_store_n(w, (uint32_t)i, __ATOMIC_RELEASE), v = (uint32_t)i))
PASSES(store_release_u64, uint64_t,
       (ua_store_release_user_u64(w, (uint64_t)i), v = (uint64_t)i),
       (__atomic_store_n(w, (uint64_t)i, __ATOMIC_RELEASE), v = (uint64_t)i))

/*
 * The inline forms (ua_unsafe_*_user): one block per pass, opened once
 * (its check and barrier spread over ATOM_N ops), against the builtin's
 * pass of the op they stand for
 */
#define INLINE_PASS(name, T, ours)                                             \
	static __attribute__((noinline)) uint64_t inl_##name(uint64_t *word)   \
	{                                                                      \
		T *w = (T *)word;                                              \
		uint64_t sum = 0;                                              \
		T v = 0;                                                       \
		int i;                                                         \
		if (!ua_user_access_begin(w, sizeof(*w)))                      \
			return 0;                                              \
		for (i = 0; i < ATOM_N; i++) {                                 \
			ours;                                                  \
			sum += v;                                              \
		}                                                              \
		ua_user_access_end();                                          \
		return sum;                                                    \
	fault:                                                                 \
		ua_user_access_end();                                          \
		return 0;                                                      \
	}

INLINE_PASS(cmpxchg_u32, uint32_t,
	    (v = *w, (void)ua_unsafe_try_cmpxchg_user(w, &v, v + 1, fault)))
INLINE_PASS(cmpxchg_u64, uint64_t,
	    (v = *w, (void)ua_unsafe_try_cmpxchg_user(w, &v, v + 1, fault)))
INLINE_PASS(xchg_u32, uint32_t, ua_unsafe_xchg_user(w, (uint32_t)i, &v, fault))
INLINE_PASS(xchg_u64, uint64_t, ua_unsafe_xchg_user(w, (uint64_t)i, &v, fault))
INLINE_PASS(load_acquire_u32, uint32_t,
	    ua_unsafe_load_acquire_user(v, w, fault))
INLINE_PASS(load_acquire_u64, uint64_t,
	    ua_unsafe_load_acquire_user(v, w, fault))
INLINE_PASS(store_release_u32, uint32_t,
	    ua_unsafe_store_release_user((uint32_t)i, w, fault);
	    v = (uint32_t)i)
INLINE_PASS(store_release_u64, uint64_t,
	    ua_unsafe_store_release_user((uint64_t)i, w, fault);
	    v = (uint64_t)i)

/* clang-format off */
#define OP(name, rmw) {#name, ours_##name, plain_##name, rmw}
#define OPI(name, rmw) {#name " inline", inl_##name, plain_##name, rmw}
static const struct {
	const char *name;
	pass_fn ours, plain;
	int rmw; /* a read-modify-write: the 10% bar applies */
} ops[] = {
    OP(cmpxchg_u32, 1),      OP(cmpxchg_u64, 1),
    OP(xchg_u32, 1),         OP(xchg_u64, 1),
    OP(futex_add, 1),        OP(futex_or, 1),
    OP(futex_andn, 1),       OP(futex_xor, 1),
    OP(load_acquire_u32, 0), OP(load_acquire_u64, 0),
    OP(store_release_u32, 0), OP(store_release_u64, 0),
    OPI(cmpxchg_u32, 1),      OPI(cmpxchg_u64, 1),
    OPI(xchg_u32, 1),         OPI(xchg_u64, 1),
    OPI(load_acquire_u32, 0), OPI(load_acquire_u64, 0),
    OPI(store_release_u32, 0), OPI(store_release_u64, 0),
};
/* clang-format on */
#define NOPS (int)(sizeof(ops) / sizeof(ops[0]))

int
cmd_atomics(void)
{
	int trials = bench_trials(9, 21), t, k;
	double ours[MEASURE_MAX_TRIALS], plain[MEASURE_MAX_TRIALS];
	uint64_t *word = buffer_alloc(4096), sink = 0;
	struct table *tb;
	unsigned reps;

	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	if (ops[0].ours(word) != ops[0].plain(word) - ATOM_N * ATOM_N)
		die("atomics: cmpxchg passes disagree");
	/* Samples of about harness_sample_ns for the slowest */
	reps = pass_reps(ops[0].ours, word, 16, &sink);

	tb = table_new("atomics", "ops",
		       "one word in L1, uncontended: each atomic op on user "
		       "memory vs the __atomic builtin it stands for");
	table_key(tb, "op");
	table_col(tb, "ns/op", "ns", 2);
	table_col(tb, "builtin ns/op", "ns", 2);
	table_col(tb, "time vs builtin", "x", 2);
	for (k = 0; k < NOPS; k++) {
		progress("atomics: %s", ops[k].name);
		for (t = 0; t < trials; t++) {
			/* back to back, the order alternating */
			if (t & 1) {
				plain[t] =
				    time_pass(ops[k].plain, word, reps, &sink);
				ours[t] =
				    time_pass(ops[k].ours, word, reps, &sink);
			} else {
				ours[t] =
				    time_pass(ops[k].ours, word, reps, &sink);
				plain[t] =
				    time_pass(ops[k].plain, word, reps, &sink);
			}
		}
		table_row(tb);
		table_str(tb, "%s%s", ops[k].name,
			  ops[k].rmw ? "" : " (plain)");
		table_num(tb, median(ours, trials) / ATOM_N);
		table_num(tb, median(plain, trials) / ATOM_N);
		table_num(tb, median_ratio(ours, plain, trials));
	}
	table_note(tb, "time vs builtin: median over trials of (our time / "
		       "the builtin's), the loops run back to back");
	table_note(tb, "inline: ua_unsafe_try_cmpxchg_user, _xchg_, "
		       "_load_acquire_, _store_release_ in one block per pass "
		       "of 1024 ops (ua_user_access_begin once)");
	table_note(tb, "bar: <= 1.10x for the read-modify-write "
		       "ops; (plain): a load or store, which x86 and aarch64 "
		       "builtins inline as one instruction, where a call "
		       "costs more than the access");
	table_end(tb);
	buffer_free(word, 4096);
	if (sink == 1)
		say("(sink)");
	return 0;
}
