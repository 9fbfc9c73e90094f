/* SPDX-License-Identifier: MIT */
/*
 * Description: the atomic operations on user memory: values on good
 * memory, -EFAULT with nothing changed on every kind of bad memory (the
 * writing ops on read-only memory too, a cmpxchg whose compare fails
 * included), -EINVAL when misaligned, -EFAULT outside the user range,
 * -ENOSYS for an unknown futex op, no update lost by threads hammering
 * one word (with the inline forms of a block too: ua_unsafe_try_cmpxchg_user,
 * ua_unsafe_xchg_user; their faults are in tests/blocks), and
 * release/acquire message passing.  On aarch64 it runs once
 * per variant (UA_TEST_ATOMICS=lse or llsc says which must be in force).
 * uaccess-test: internal
 */
#include <sched.h>
#include <stdint.h>

#include "test.h"

#if defined(__aarch64__)
extern unsigned char ua_atomic_lse;
#endif

#define U64A 0x0123456789abcdefull
#define U64B 0xfedcba9876543210ull

static unsigned t_iters;

/* A word of each size at p: 32 bits, then 64 bits 8 bytes on */
static void
t_good(char *page)
{
	volatile uint32_t *w = (volatile uint32_t *)(void *)page;
	volatile uint64_t *d = (volatile uint64_t *)(void *)(page + 8);
	uint32_t o32;
	uint64_t o64;
	int oval;

	*w = 5;
	o32 = 5;
	CHECK_EQ(ua_cmpxchg_user_u32(w, &o32, 7), 0);
	CHECK_EQ(o32, 5);
	CHECK_EQ(*w, 7);
	o32 = 5; /* compare fails: *o32 the value found, nothing written */
	CHECK_EQ(ua_cmpxchg_user_u32(w, &o32, 9), 0);
	CHECK_EQ(o32, 7);
	CHECK_EQ(*w, 7);

	*d = U64A;
	o64 = U64A;
	CHECK_EQ(ua_cmpxchg_user_u64(d, &o64, U64B), 0);
	CHECK(o64 == U64A && *d == U64B, "cmpxchg u64");
	o64 = U64A;
	CHECK_EQ(ua_cmpxchg_user_u64(d, &o64, 1), 0);
	CHECK(o64 == U64B && *d == U64B, "cmpxchg u64, compare fails");

	CHECK_EQ(ua_xchg_user_u32(w, 0xdeadbeef, &o32), 0);
	CHECK_EQ(o32, 7);
	CHECK_EQ(*w, 0xdeadbeef);
	CHECK_EQ(ua_xchg_user_u64(d, U64A, &o64), 0);
	CHECK(o64 == U64B && *d == U64A, "xchg u64");

	CHECK_EQ(ua_load_acquire_user_u32(w, &o32), 0);
	CHECK_EQ(o32, 0xdeadbeef);
	CHECK_EQ(ua_load_acquire_user_u64(d, &o64), 0);
	CHECK(o64 == U64A, "load_acquire u64");
	CHECK_EQ(ua_store_release_user_u32(w, 0x12345678), 0);
	CHECK_EQ(*w, 0x12345678);
	CHECK_EQ(ua_store_release_user_u64(d, U64B), 0);
	CHECK(*d == U64B, "store_release u64");

	/* The futex ops: oval the old value, as an int */
	*w = 0xf0f0f0f0;
	CHECK_EQ(ua_futex_atomic_op_user(UA_FUTEX_OP_SET, 3, &oval, w), 0);
	CHECK_EQ((uint32_t)oval, 0xf0f0f0f0);
	CHECK_EQ(*w, 3);
	CHECK_EQ(ua_futex_atomic_op_user(UA_FUTEX_OP_ADD, 0xfffffffe, &oval, w),
		 0);
	CHECK_EQ(oval, 3);
	CHECK_EQ(*w, 1); /* wraps */
	CHECK_EQ(ua_futex_atomic_op_user(UA_FUTEX_OP_OR, 0x80000006, &oval, w),
		 0);
	CHECK_EQ(oval, 1);
	CHECK_EQ(*w, 0x80000007);
	CHECK_EQ(ua_futex_atomic_op_user(UA_FUTEX_OP_ANDN, 0x3, &oval, w), 0);
	CHECK_EQ((uint32_t)oval, 0x80000007);
	CHECK_EQ(*w, 0x80000004);
	CHECK_EQ(ua_futex_atomic_op_user(UA_FUTEX_OP_XOR, 0x80000005, &oval, w),
		 0);
	CHECK_EQ((uint32_t)oval, 0x80000004);
	CHECK_EQ(*w, 1);
	/* Unknown op: -ENOSYS, nothing changed */
	oval = -7;
	CHECK_EQ(ua_futex_atomic_op_user(5, 1, &oval, w), -ENOSYS);
	CHECK_EQ(ua_futex_atomic_op_user(-1, 1, &oval, w), -ENOSYS);
	CHECK_EQ(oval, -7);
	CHECK_EQ(*w, 1);

	/* Misaligned: -EINVAL before anything */
	o32 = 1;
	CHECK_EQ(ua_cmpxchg_user_u32((volatile uint32_t *)(void *)(page + 2),
				     &o32, 2),
		 -EINVAL);
	CHECK_EQ(o32, 1);
	CHECK_EQ(ua_cmpxchg_user_u64((volatile uint64_t *)(void *)(page + 4),
				     &o64, 2),
		 -EINVAL);
	CHECK_EQ(
	    ua_xchg_user_u32((volatile uint32_t *)(void *)(page + 1), 2, &o32),
	    -EINVAL);
	CHECK_EQ(
	    ua_xchg_user_u64((volatile uint64_t *)(void *)(page + 12), 2, &o64),
	    -EINVAL);
	CHECK_EQ(
	    ua_futex_atomic_op_user(UA_FUTEX_OP_ADD, 1, &oval,
				    (volatile uint32_t *)(void *)(page + 3)),
	    -EINVAL);
	CHECK_EQ(ua_futex_atomic_op_user(
		     99, 1, &oval, (volatile uint32_t *)(void *)(page + 3)),
		 -EINVAL);
	CHECK_EQ(ua_load_acquire_user_u32(
		     (const volatile uint32_t *)(void *)(page + 2), &o32),
		 -EINVAL);
	CHECK_EQ(ua_load_acquire_user_u64(
		     (const volatile uint64_t *)(void *)(page + 4), &o64),
		 -EINVAL);
	CHECK_EQ(ua_store_release_user_u32(
		     (volatile uint32_t *)(void *)(page + 2), 5),
		 -EINVAL);
	CHECK_EQ(ua_store_release_user_u64(
		     (volatile uint64_t *)(void *)(page + 4), 5),
		 -EINVAL);
	CHECK_EQ(*w, 1);
	CHECK(*d == U64B, "misaligned calls wrote");
}

/*
 * Every op at a bad word: -EFAULT, the trusted results untouched; \ro the
 * word is readable (read-only memory): the loads work, and the word is
 * unchanged (it holds 0x5a bytes, as t_layout_new left it)
 */
static void
t_bad(char *at, int ro, int signo, const char *what)
{
	volatile uint32_t *w = (volatile uint32_t *)(void *)at;
	volatile uint64_t *d = (volatile uint64_t *)(void *)(at + 8);
	const uint32_t w0 = 0x5a5a5a5a;
	const uint64_t d0 = 0x5a5a5a5a5a5a5a5aull;
	uint32_t o32;
	uint64_t o64;
	int oval, op;

#define BAD(call)                                                              \
	do {                                                                   \
		int r_ = (call);                                               \
		CHECK(r_ == -EFAULT, "%s: %s = %d", what, #call, r_);          \
		if (signo)                                                     \
			CHECK(ua_last_fault()->signo == signo,                 \
			      "%s: %s: signal %d", what, #call,                \
			      ua_last_fault()->signo);                         \
	} while (0)

	/* compare succeeds, then fails (read-only: still -EFAULT) */
	o32 = w0;
	BAD(ua_cmpxchg_user_u32(w, &o32, 1));
	CHECK_EQ(o32, w0);
	o32 = 1;
	BAD(ua_cmpxchg_user_u32(w, &o32, 2));
	CHECK_EQ(o32, 1);
	o64 = d0;
	BAD(ua_cmpxchg_user_u64(d, &o64, 1));
	CHECK(o64 == d0, "%s: cmpxchg u64 *old", what);
	o64 = 1;
	BAD(ua_cmpxchg_user_u64(d, &o64, 2));
	CHECK(o64 == 1, "%s: cmpxchg u64 *old", what);
	o32 = 3;
	BAD(ua_xchg_user_u32(w, 1, &o32));
	CHECK_EQ(o32, 3);
	o64 = 3;
	BAD(ua_xchg_user_u64(d, 1, &o64));
	CHECK(o64 == 3, "%s: xchg u64 *oldp", what);
	for (op = UA_FUTEX_OP_SET; op <= UA_FUTEX_OP_XOR; op++) {
		oval = -3;
		BAD(ua_futex_atomic_op_user(op, 0x10, &oval, w));
		CHECK_EQ(oval, -3);
	}
	BAD(ua_store_release_user_u32(w, 1));
	BAD(ua_store_release_user_u64(d, 1));
	o32 = 3;
	o64 = 3;
	if (ro) {
		CHECK_EQ(ua_load_acquire_user_u32(w, &o32), 0);
		CHECK_EQ(o32, w0);
		CHECK_EQ(ua_load_acquire_user_u64(d, &o64), 0);
		CHECK(o64 == d0, "%s: load_acquire u64", what);
		CHECK(*w == w0 && *d == d0, "%s: read-only word changed", what);
	} else {
		BAD(ua_load_acquire_user_u32(w, &o32));
		CHECK_EQ(o32, 3);
		BAD(ua_load_acquire_user_u64(d, &o64));
		CHECK(o64 == 3, "%s: load_acquire u64 *val", what);
	}
#undef BAD
}

/* ---- Threads on one word ---- */

#define T_THREADS 4

struct t_shared {
	volatile uint32_t w;
	uint32_t pad;
	volatile uint64_t d;
	volatile uint32_t flag;
	uint32_t data;
};

static struct t_shared *t_sh;
static pthread_barrier_t t_go;

struct t_arg {
	int id;
	uint64_t got; /* sum of the old values xchg returned */
	int bad;      /* an op saw what no correct order allows */
};

/* The inline forms in a block: one increment of each word by
 * try_cmpxchg loops (w by 1, d by 1 << 32); 0, or 1 on a fault */
static int
t_inline_inc(struct t_shared *sh)
{
	uint32_t o32;
	uint64_t o64;

	if (!ua_user_access_begin(sh, sizeof(*sh)))
		return 1;
	ua_unsafe_load_acquire_user(o32, &sh->w, fault);
	while (!ua_unsafe_try_cmpxchg_user(&sh->w, &o32, o32 + 1, fault))
		;
	ua_unsafe_load_acquire_user(o64, &sh->d, fault);
	while (!ua_unsafe_try_cmpxchg_user(&sh->d, &o64, o64 + (1ull << 32),
					   fault))
		;
	ua_user_access_end();
	return 0;
fault:
	ua_user_access_end();
	return 1;
}

/* ua_unsafe_xchg_user of v into both words, the old values out */
static int
t_inline_xchg(struct t_shared *sh, uint32_t v, uint32_t *o32, uint64_t *o64)
{
	ua_scoped_user_rw_access(sh, fault)
	{
		ua_unsafe_xchg_user(&sh->w, v, o32, fault);
		ua_unsafe_xchg_user(&sh->d, v, o64, fault);
	}
	return 0;
fault:
	return 1;
}

/* Each thread's bit through the futex ops: the bit as each op found it */
static const struct {
	int op, was_set;
} bit_ops[] = {{UA_FUTEX_OP_OR, 0},
	       {UA_FUTEX_OP_XOR, 1},
	       {UA_FUTEX_OP_XOR, 0},
	       {UA_FUTEX_OP_ANDN, 1}};

static void *
t_hammer(void *p)
{
	struct t_arg *a = p;
	uint32_t bit = 1u << a->id, o32, n;
	uint64_t o64, e;
	unsigned i;
	size_t k;
	int oval, r;

	pthread_barrier_wait(&t_go);
	/* increments with cmpxchg loops and with futex ADD */
	for (i = 0; i < t_iters; i++) {
		o32 = t_sh->w;
		do
			n = o32 + 1;
		while (!(r = ua_cmpxchg_user_u32(&t_sh->w, &o32, n)) &&
		       o32 != n - 1);
		a->bad += !!r;
		o64 = t_sh->d;
		do
			e = o64;
		while (!(r = ua_cmpxchg_user_u64(&t_sh->d, &o64,
						 e + (1ull << 32))) &&
		       o64 != e);
		a->bad += !!r;
		if (ua_futex_atomic_op_user(UA_FUTEX_OP_ADD, 1, &oval,
					    &t_sh->w))
			a->bad++;
		a->bad += t_inline_inc(t_sh);
	}
	/* the main thread reads the count between these two */
	pthread_barrier_wait(&t_go);
	pthread_barrier_wait(&t_go);
	/* each thread its own bit: OR finds it clear, ANDN and XOR set */
	for (i = 0; i < t_iters; i++)
		for (k = 0; k < sizeof(bit_ops) / sizeof(bit_ops[0]); k++)
			if (ua_futex_atomic_op_user(bit_ops[k].op, bit, &oval,
						    &t_sh->w) ||
			    !!((uint32_t)oval & bit) != bit_ops[k].was_set)
				a->bad++;
	/* and zeroes the words between these two */
	pthread_barrier_wait(&t_go);
	pthread_barrier_wait(&t_go);
	/* xchg: every value put comes out once, by an xchg or at the end */
	for (i = 0; i < t_iters; i++) {
		uint32_t v = (uint32_t)a->id << 24 | (i + 1);

		if (i & 1 ? t_inline_xchg(t_sh, v, &o32, &o64)
			  : ua_xchg_user_u32(&t_sh->w, v, &o32) ||
				ua_xchg_user_u64(&t_sh->d, v, &o64))
			a->bad++;
		a->got += o32;
		a->got += o64 << 32;
	}
	return NULL;
}

static void
t_threads(void)
{
	pthread_t th[T_THREADS];
	struct t_arg args[T_THREADS];
	uint64_t put = 0, got = 0;
	unsigned i;
	int t;

	t_sh->w = 0;
	t_sh->d = 0;
	CHECK(!pthread_barrier_init(&t_go, NULL, T_THREADS + 1), "barrier");
	for (t = 0; t < T_THREADS; t++) {
		args[t].id = t;
		args[t].got = 0;
		args[t].bad = 0;
		CHECK(!pthread_create(&th[t], NULL, t_hammer, &args[t]),
		      "pthread_create");
	}
	pthread_barrier_wait(&t_go);
	pthread_barrier_wait(&t_go);
	/* the threads wait while the count is read (the bit pass that
	 * follows would change it) */
	CHECK_EQ(t_sh->w, 3u * T_THREADS * t_iters);
	CHECK(t_sh->d == ((uint64_t)2 * T_THREADS * t_iters) << 32,
	      "cmpxchg u64: %llu", (unsigned long long)(t_sh->d >> 32));
	/* The bit pass starts from the count, its own bits all clear */
	pthread_barrier_wait(&t_go);
	/* it ends so too; the xchg pass starts from zero */
	pthread_barrier_wait(&t_go);
	CHECK_EQ(t_sh->w, 3u * T_THREADS * t_iters);
	t_sh->w = 0;
	t_sh->d = 0;
	pthread_barrier_wait(&t_go);
	for (t = 0; t < T_THREADS; t++) {
		CHECK(!pthread_join(th[t], NULL), "pthread_join");
		CHECK(!args[t].bad, "thread %d: %d bad results", t,
		      args[t].bad);
		got += args[t].got;
		for (i = 0; i < t_iters; i++)
			put +=
			    ((uint64_t)t << 24 | (i + 1)) * (1 + (1ull << 32));
	}
	got += t_sh->w;
	got += t_sh->d << 32;
	CHECK(got == put, "xchg lost an update: %llx != %llx",
	      (unsigned long long)got, (unsigned long long)put);
	pthread_barrier_destroy(&t_go);
}

/* Release/acquire: data written before the flag is seen after it */
static int t_producer_bad;

static void *
t_producer(void *p)
{
	unsigned i;

	(void)p;
	for (i = 1; i <= t_iters / 4; i++) {
		uint32_t f;

		while (!ua_load_acquire_user_u32(&t_sh->flag, &f) && f != 0)
			sched_yield();
		t_sh->data = i;
		if (ua_store_release_user_u32(&t_sh->flag, 1))
			t_producer_bad = 1;
	}
	return NULL;
}

static void
t_message_passing(void)
{
	pthread_t th;
	unsigned i;
	int r;

	t_sh->flag = 0;
	CHECK(!pthread_create(&th, NULL, t_producer, NULL), "pthread_create");
	for (i = 1; i <= t_iters / 4; i++) {
		uint32_t f;

		while (!(r = ua_load_acquire_user_u32(&t_sh->flag, &f)) &&
		       f != 1)
			sched_yield();
		CHECK_EQ(r, 0);
		CHECK_EQ(t_sh->data, i);
		CHECK_EQ(ua_store_release_user_u32(&t_sh->flag, 0), 0);
	}
	CHECK(!pthread_join(th, NULL), "pthread_join");
	CHECK(!t_producer_bad, "store_release failed");
}

int
main(void)
{
	const char *want = getenv("UA_TEST_ATOMICS");
	struct t_layout l[T_BAD_KINDS];
	uintptr_t top;
	uint32_t o32 = 1;
	int k;

	t_iters = getenv("UA_TEST_EMULATOR") ? 2000 : 20000;
	CHECK_EQ(ua_init(), 0);
#if defined(__aarch64__)
	printf("aarch64 atomics: %s\n", ua_atomic_lse ? "lse" : "llsc");
	if (want && !strcmp(want, "lse") && !ua_atomic_lse)
		return T_SKIP; /* no LSE here: the llsc run covers the CPU */
	if (want && !strcmp(want, "llsc"))
		CHECK(!ua_atomic_lse, "UACCESS_DISABLE=lse: LSE in force");
#else
	(void)want;
#endif
	for (k = 0; k < T_BAD_KINDS; k++) {
		l[k] = t_layout_new(1, (enum t_bad)k);
		t_good(l[k].bad - t_page() + 64);
	}
	for (k = 0; k < T_BAD_KINDS; k++)
		t_bad(l[k].bad + 64, k == T_BAD_RDONLY,
		      k == T_BAD_SIGBUS ? SIGBUS : SIGSEGV, t_bad_names[k]);

	/* Outside the user range: the first page, the top, a thread's range */
	CHECK_EQ(
	    ua_cmpxchg_user_u32((volatile uint32_t *)(uintptr_t)64, &o32, 2),
	    -EFAULT);
	CHECK_EQ(o32, 1);
	top = UINTPTR_MAX & ~(uintptr_t)7;
	CHECK_EQ(ua_store_release_user_u64((volatile uint64_t *)top, 1),
		 -EFAULT);
	CHECK_EQ(ua_futex_atomic_op_user(99, 1, NULL,
					 (volatile uint32_t *)(top - 4)),
		 -EFAULT);
	CHECK_EQ(ua_set_user_range(l[0].base, 64), 0);
	CHECK_EQ(ua_xchg_user_u32((volatile uint32_t *)(void *)(l[0].base + 64),
				  1, &o32),
		 -EFAULT);
	CHECK_EQ(ua_xchg_user_u32((volatile uint32_t *)(void *)(l[0].base + 60),
				  1, &o32),
		 0);
	CHECK_EQ(ua_set_user_range(NULL, 0), 0);

	t_sh = (struct t_shared *)(void *)(l[T_BAD_NONE].bad - 256);
	t_threads();
	t_message_passing();
	for (k = 0; k < T_BAD_KINDS; k++)
		t_layout_free(&l[k]);
	t_done("atomic");
	return T_PASS;
}
