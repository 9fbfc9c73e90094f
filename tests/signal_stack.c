/* SPDX-License-Identifier: MIT */
/*
 * Description: faulting copies with the fault handler on a sigaltstack (and
 * from a SIGUSR1 handler already on it), and on threads whose stacks are
 * PTHREAD_STACK_MIN with a guard page below; measures how much stack a
 * fault takes beyond the kernel's signal frame and keeps it small.
 */
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/wait.h>

#include "signal_util.h"

#define PAINT 0xa5
#define ALT_SIZE (256 * 1024)
/* Our handler's own stack, beyond what a trivial handler takes */
#if defined(__SANITIZE_ADDRESS__)
#define HANDLER_BUDGET 65536
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HANDLER_BUDGET 65536
#endif
#endif
#ifndef HANDLER_BUDGET
#define HANDLER_BUDGET 1024
#endif

static char *alt;
static volatile sig_atomic_t usr1_failures, usr1_runs;

/* Bytes used at the top of a painted stack */
static size_t
stack_used(const char *lo, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if ((unsigned char)lo[i] != PAINT)
			break;
	return size - i;
}

static void
on_alt_usr1(int signo)
{
	(void)signo;
	usr1_runs++;
	usr1_failures += (sig_atomic_t)sig_exercise("SIGUSR1 on the altstack",
						    (unsigned)usr1_runs);
}

static void
on_trivial(int signo)
{
	(void)signo;
}

static void
install(int signo, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(signo, &sa, NULL), "sigaction");
}

static void
test_altstack(void)
{
	stack_t ss = {.ss_size = ALT_SIZE};
	size_t frame, fault, nested;
	char buf[64];

	alt = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(alt != MAP_FAILED, "mmap");
	ss.ss_sp = alt;
	CHECK(!sigaltstack(&ss, NULL), "sigaltstack");

	/* The kernel's frame and a handler that does nothing */
	install(SIGUSR2, on_trivial);
	memset(alt, PAINT, ALT_SIZE);
	raise(SIGUSR2);
	frame = stack_used(alt, ALT_SIZE);
	CHECK(frame > 0, "SIGUSR2 did not run on the altstack");

	/* One fault: our handler runs on the altstack (SA_ONSTACK) */
	memset(alt, PAINT, ALT_SIZE);
	CHECK_EQ(ua_copy_from_user(buf, sig_mem0.l[T_BAD_NONE].bad - 10, 64),
		 54);
	fault = stack_used(alt, ALT_SIZE);
	CHECK(fault > 0, "the fault handler did not run on the altstack");
	CHECK(fault <= frame + HANDLER_BUDGET,
	      "fault handler used %zu bytes beyond a trivial handler's %zu",
	      fault - frame, frame);

	CHECK_EQ(sig_exercise("main on the altstack", 1), 0);

	/* A SIGUSR1 handler on the altstack faults: nested frames on it */
	install(SIGUSR1, on_alt_usr1);
	memset(alt, PAINT, ALT_SIZE);
	raise(SIGUSR1);
	nested = stack_used(alt, ALT_SIZE);
	CHECK_EQ(usr1_runs, 1);
	CHECK_EQ(usr1_failures, 0);
	printf("altstack: kernel frame + trivial handler %zu bytes, one fault "
	       "%zu (handler %zu), faults inside a SIGUSR1 handler %zu "
	       "(AT_MINSIGSTKSZ %lu)\n",
	       frame, fault, fault - frame, nested, getauxval(AT_MINSIGSTKSZ));

	ss.ss_flags = SS_DISABLE;
	CHECK(!sigaltstack(&ss, NULL), "sigaltstack off");
}

/* ---- Threads on small stacks ---- */

#define NTHREADS 4

struct small {
	pthread_t t;
	char *map, *lo; /* mapping (guard page first), usable stack */
	size_t size;
	struct sig_mem mem;
	unsigned long failures;
};

static void *
small_thread(void *arg)
{
	struct small *s = arg;
	unsigned i;

	for (i = 0; i < 200; i++)
		s->failures += sig_exercise_mem(&s->mem, "small stack", i);
	return NULL;
}

static void
test_small_stacks(void)
{
	static struct small th[NTHREADS];
	size_t pg = t_page(), min = (size_t)sysconf(_SC_THREAD_STACK_MIN);
	size_t most = 0;
	int i;

	if ((long)min <= 0)
		min = 16384;
	for (i = 0; i < NTHREADS; i++) {
		struct small *s = &th[i];
		pthread_attr_t attr;

		s->size = (min + pg - 1) / pg * pg;
		s->map = mmap(NULL, s->size + pg, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK(s->map != MAP_FAILED, "mmap");
		CHECK(!mprotect(s->map, pg, PROT_NONE), "guard page");
		s->lo = s->map + pg;
		memset(s->lo, PAINT, s->size);
		sig_mem_new(&s->mem);
		pthread_attr_init(&attr);
		CHECK(!pthread_attr_setstack(&attr, s->lo, s->size),
		      "setstack");
		CHECK(!pthread_create(&s->t, &attr, small_thread, s),
		      "pthread_create");
		pthread_attr_destroy(&attr);
	}
	for (i = 0; i < NTHREADS; i++) {
		struct small *s = &th[i];
		size_t used;

		pthread_join(s->t, NULL);
		CHECK_EQ(s->failures, 0);
		used = stack_used(s->lo, s->size);
		if (used > most)
			most = used;
		sig_mem_free(&s->mem);
		munmap(s->map, s->size + pg);
	}
	printf("small stacks: %d threads on %zu-byte stacks, at most %zu bytes "
	       "used (thread start, TLS, copies and fault frames)\n",
	       NTHREADS, th[0].size, most);
}

int
main(void)
{
	sig_mem_new(&sig_mem0);
	CHECK_EQ(ua_init(), 0);
	test_altstack();
	test_small_stacks();
	printf("signal_stack: %lu calls\n", atomic_load(&sig_calls));
	t_done("signal_stack");
	return T_PASS;
}
