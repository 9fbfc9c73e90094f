/* SPDX-License-Identifier: MIT */
/*
 * Description: signal handlers that interrupt a user copy in progress and
 * make faulting user copies of their own (each call's user side lives in
 * the registers of its own routine, saved and restored by the kernel), and a
 * handler whose ua_memcpy is itself interrupted by one that copies: every
 * count and every byte stays exact at every level.
 *
 * A thread sends SIGUSR1 and SIGUSR2 to the main thread as fast as it can.
 * The main thread loops over faulting copies (from_user, to_user, clear);
 * SIGUSR1's handler runs a long ua_memcpy and a faulting copy, SIGUSR2's
 * (not blocked in SIGUSR1's) runs a faulting copy.  Each level checks its
 * own results.  Runs until enough interruptions were seen inside user
 * copies (UA_SIGNAL_SECONDS caps the time, default 10).
 * Regression test for two races of the per-thread record refused.c once kept:
 * a handler's copy landing between the stores that filled it, and one
 * landing inside a handler's ua_memcpy.
 *
 * uaccess-test: internal
 * uaccess-test: timeout=120
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#include "internal.h"
#include "test.h"

#define OUTER_GOOD (64 * 4096)
#define PLAIN_LEN (256 * 1024)

static struct t_layout outer_l;    /* PROT_NONE after OUTER_GOOD */
static struct t_layout h1_l, h2_l; /* handler layouts: read-only, unmapped */
static unsigned char *outer_dst, *outer_src, *want;
static unsigned char *plain_src, *plain_dst;
static volatile sig_atomic_t failed;
static volatile sig_atomic_t in_plain;
static volatile sig_atomic_t in_outer; /* the main thread is in a user copy */
static atomic_ulong n_sig1, n_sig2, n_in_copy1, n_in_copy2, n_in_plain;
static atomic_int stop;
static pthread_t main_thread;
static size_t pg;

/* The first wrong count a handler saw, printed by main */
static struct {
	const char *what;
	size_t left, want;
	void *addr, *bad;
	int signo, code, mapped;
} first_bad;

static void
fail(const char *msg)
{
	ssize_t r = write(2, msg, strlen(msg));

	(void)r;
	failed = 1;
}

static void
fail_count(const char *what, size_t left, size_t want, const struct t_layout *l)
{
	if (!failed) {
		first_bad.what = what;
		first_bad.left = left;
		first_bad.want = want;
		first_bad.addr = ua_last_fault()->addr;
		first_bad.signo = ua_last_fault()->signo;
		first_bad.code = ua_last_fault()->code;
		/* A hole that is mapped now: someone's mmap filled it (the
		 * page size is known before the handlers run) */
		first_bad.bad = l->bad;
		first_bad.mapped = msync(l->bad, pg, MS_ASYNC) == 0;
	}
	fail(what);
}

/*
 * A faulting copy of its own: from_user of 300 bytes starting `before`
 * bytes ahead of an unmapped page, or to_user into a read-only page.
 */
static void
handler_copy(struct t_layout *l, int to_user, unsigned salt)
{
	unsigned char buf[300], src[300];
	size_t before = 1 + salt % 200, n = sizeof(buf), left, i;
	char *u = l->bad - before;

	if (to_user) {
		for (i = 0; i < n; i++)
			src[i] = (unsigned char)(i + salt);
		left = ua_copy_to_user(u, src, n);
		if (left != n - before)
			fail_count("handler to_user: wrong count\n", left,
				   n - before, l);
		for (i = 0; i < before; i++)
			if ((unsigned char)u[i] != src[i])
				fail("handler to_user: wrong data\n");
		return;
	}
	memset(buf, 0xee, sizeof(buf));
	left = ua_copy_from_user(buf, u, n);
	if (left != n - before)
		fail_count("handler from_user: wrong count\n", left, n - before,
			   l);
	for (i = 0; i < n; i++)
		if (buf[i] != (i < before ? (unsigned char)u[i] : 0))
			fail("handler from_user: wrong data\n");
}

static void
on_sig1(int signo)
{
	unsigned long c = atomic_fetch_add(&n_sig1, 1);

	(void)signo;
	if (in_outer)
		atomic_fetch_add(&n_in_copy1, 1);
	in_plain = 1;
	ua_memcpy(plain_dst, plain_src, PLAIN_LEN);
	in_plain = 0;
	if (memcmp(plain_dst, plain_src, PLAIN_LEN))
		fail("ua_memcpy in a handler: wrong data\n");
	memset(plain_dst, 0, PLAIN_LEN);
	handler_copy(&h1_l, 1, (unsigned)c);
}

static void
on_sig2(int signo)
{
	unsigned long c = atomic_fetch_add(&n_sig2, 1);

	(void)signo;
	if (in_outer)
		atomic_fetch_add(&n_in_copy2, 1);
	/* Interrupted SIGUSR1's ua_memcpy, itself inside a user copy */
	if (in_plain)
		atomic_fetch_add(&n_in_plain, 1);
	handler_copy(&h2_l, (int)(c & 1), (unsigned)c * 7);
}

/*
 * When the storm stops by itself: the main thread checks its time between
 * calls, and a storm faster than its handlers can leave it no call to
 * finish (each handler's faulting copy costs a signal; a run of the i386
 * suite once timed out so), so the storm ends at the deadline too.
 */
static double storm_deadline;

static void *
storm(void *arg)
{
	unsigned long i = 0;

	(void)arg;
	while (!atomic_load(&stop) && t_now() < storm_deadline) {
		pthread_kill(main_thread, (i++ & 1) ? SIGUSR2 : SIGUSR1);
		if (!(i & 7))
			sched_yield();
	}
	return NULL;
}

/* One faulting call of the main thread, checked exactly */
static void
outer_call(unsigned long iter)
{
	size_t extra = 1 + iter % 3000, start = (iter * 4099) % 4096;
	size_t good = OUTER_GOOD - start, n = good + extra, left, i;
	char *u = outer_l.bad - good;
	int what = (int)(iter % 3);

	if (what == 0) {
		memset(outer_dst, 0xee, n);
		in_outer = 1;
		left = ua_copy_from_user(outer_dst, u, n);
		in_outer = 0;
		CHECK(left == extra, "from_user: left %zu, expected %zu", left,
		      extra);
		CHECK(!memcmp(outer_dst, outer_src + start, good),
		      "from_user: data");
		for (i = good; i < n; i++)
			CHECK(outer_dst[i] == 0, "from_user: tail at %zu", i);
		return;
	}
	memset(u, 0x11, good);
	in_outer = 1;
	if (what == 1)
		left = ua_copy_to_user(u, want, n);
	else
		left = ua_clear_user(u, n);
	in_outer = 0;
	CHECK(left == extra, "%s: left %zu, expected %zu",
	      what == 1 ? "to_user" : "clear_user", left, extra);
	if (what == 1)
		CHECK(!memcmp(u, want, good), "to_user: data");
	else
		for (i = 0; i < good; i++)
			CHECK(u[i] == 0, "clear_user: data at %zu", i);
	/* Restore the source pattern for the next from_user */
	memcpy(u, outer_src + start, good);
}

/*
 * Map the stack the nested handlers will use now: valgrind cannot grow the
 * main thread's stack while it delivers a signal.
 */
static __attribute__((noinline)) void
touch_stack(void)
{
	char pad[256 * 1024];

	memset(pad, 0, sizeof(pad));
	__asm__ volatile("" : : "r"(pad) : "memory");
}

int
main(void)
{
	struct sigaction sa;
	pthread_t t;
	unsigned long iter = 0;
	double t0, limit = 10;
	const char *env = getenv("UA_SIGNAL_SECONDS");

	if (env)
		limit = atof(env);
	touch_stack();
	pg = t_page();
	CHECK_EQ(ua_init(), 0);
	outer_l = t_layout_new(OUTER_GOOD / pg, T_BAD_NONE);
	h1_l = t_layout_new(1, T_BAD_RDONLY);
	h2_l = t_layout_new(1, T_BAD_UNMAPPED);
	outer_dst = malloc(OUTER_GOOD + 4096);
	outer_src = malloc(OUTER_GOOD);
	want = malloc(OUTER_GOOD + 4096);
	plain_src = malloc(PLAIN_LEN);
	plain_dst = malloc(PLAIN_LEN);
	CHECK(outer_dst && outer_src && want && plain_src && plain_dst,
	      "malloc");
	t_fill(outer_src, OUTER_GOOD, 1);
	t_fill(want, OUTER_GOOD + 4096, 2);
	t_fill(plain_src, PLAIN_LEN, 3);
	memcpy(outer_l.bad - OUTER_GOOD, outer_src, OUTER_GOOD);
	/* from_user's source window starts `start` bytes into the pattern */

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(SIGUSR1, &sa, NULL), "sigaction");
	sa.sa_handler = on_sig2;
	sigaddset(&sa.sa_mask, SIGUSR1); /* SIGUSR1 may not interrupt SIGUSR2 */
	CHECK(!sigaction(SIGUSR2, &sa, NULL), "sigaction");

	main_thread = pthread_self();
	t0 = t_now();
	storm_deadline = t0 + limit;
	CHECK(!pthread_create(&t, NULL, storm, NULL), "pthread_create");
	while (!failed) {
		outer_call(iter++);
		if (!(iter & 63) &&
		    (t_now() - t0 > limit || (atomic_load(&n_in_copy1) > 100 &&
					      atomic_load(&n_in_copy2) > 5000 &&
					      atomic_load(&n_in_plain) > 2000)))
			break;
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	CHECK(!failed || !first_bad.what,
	      "%s: left %zu, expected %zu; last fault %p, signal %d code %d; "
	      "the copy's bad page %p (%s) mapped %d",
	      first_bad.what, first_bad.left, first_bad.want, first_bad.addr,
	      first_bad.signo, first_bad.code, first_bad.bad,
	      first_bad.bad == h2_l.bad ? "a hole" : "read-only",
	      first_bad.mapped);
	CHECK(!failed, "a handler's copy went wrong");
	printf("%lu calls in %.1f s; SIGUSR1 %lu (%lu inside a user copy), "
	       "SIGUSR2 %lu (%lu inside a user copy, %lu inside SIGUSR1's "
	       "ua_memcpy)\n",
	       iter, t_now() - t0, atomic_load(&n_sig1),
	       atomic_load(&n_in_copy1), atomic_load(&n_sig2),
	       atomic_load(&n_in_copy2), atomic_load(&n_in_plain));
	/* The test means nothing if no signal landed inside a copy */
	CHECK(atomic_load(&n_in_copy1) > 0 && atomic_load(&n_in_copy2) > 0,
	      "no signal interrupted a user copy");
	t_done("signal_nested");
	return T_PASS;
}
