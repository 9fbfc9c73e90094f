/* SPDX-License-Identifier: MIT */
/*
 * A sampling profiler's stack walk.
 *
 * SIGPROF interrupts the program every millisecond of CPU time; the handler
 * walks the interrupted thread's frame-pointer chain (each frame record is
 * {the caller's frame pointer, the return address}) and records the return
 * addresses.  A chain may point anywhere: code built without frame
 * pointers leaves garbage in the register, a JIT or a corrupted stack
 * leaves a record that points into unmapped memory.  Profilers guard each
 * read with a system call today (process_vm_readv, a pipe, mincore); here
 * each record is read with ua_copy_from_user(), a plain copy that returns
 * a short count instead of crashing: no system call per frame.
 *
 * To show the bad case on every run, victim() points its own frame record
 * at an unmapped page while it spins, as a corrupted stack would, and puts
 * it back before it returns.  Samples taken there end at that record.
 *
 * Build on its own (frame pointers make the chains deep; without them the
 * walk still ends safely, only sooner):
 *   cc -O2 -fno-omit-frame-pointer -o unwind unwind.c \
 *      $(pkg-config --cflags --libs uaccess)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <uaccess.h>

#define MAX_DEPTH 64

struct frame_record {
	uintptr_t next; /* the caller's frame pointer */
	uintptr_t ret;  /* the return address into the caller */
};

#if defined(__x86_64__)
#define CTX_FP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RBP])
#define CTX_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__i386__)
#define CTX_FP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_EBP])
#define CTX_PC(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_EIP])
#elif defined(__aarch64__)
#define CTX_FP(uc) ((uintptr_t)(uc)->uc_mcontext.regs[29])
#define CTX_PC(uc) ((uintptr_t)(uc)->uc_mcontext.pc)
#else
#error "unwind.c: which registers hold the frame pointer and the pc?"
#endif

/* What the handler recorded (only it writes them) */
static volatile sig_atomic_t samples, cut_at_bad_frame, deepest, last_depth;
static uintptr_t last_stack[MAX_DEPTH];
static void *unmapped;

static void
on_sigprof(int signo, siginfo_t *info, void *ucontext)
{
	ucontext_t *uc = ucontext;
	uintptr_t fp = CTX_FP(uc), stack[MAX_DEPTH];
	int depth = 0;

	(void)signo;
	(void)info;
	stack[depth++] = CTX_PC(uc);
	while (fp && depth < MAX_DEPTH) {
		struct frame_record r;

		/* One copy per frame; a bad record is a short count */
		if (ua_copy_from_user(&r, (const void *)fp, sizeof(r))) {
			if (ua_last_fault()->addr == unmapped)
				cut_at_bad_frame++;
			break;
		}
		stack[depth++] = r.ret;
		/* Garbage ends the walk, a loop ends at MAX_DEPTH: any value
		 * is safe to read from, so no bounds are needed for safety */
		if (r.next == fp || r.next % sizeof(uintptr_t))
			break;
		fp = r.next;
	}
	memcpy(last_stack, stack, sizeof(uintptr_t) * (size_t)depth);
	last_depth = depth;
	if (depth > deepest)
		deepest = depth;
	samples++;
}

/* Spins with its own record's link pointing at an unmapped page */
static __attribute__((noinline)) unsigned
victim(unsigned n)
{
	volatile uintptr_t *record = __builtin_frame_address(0);
	uintptr_t saved = record[0];
	unsigned i, x = n;

	record[0] = (uintptr_t)unmapped;
	for (i = 0; i < 200000; i++)
		x = x * 1103515245u + 12345u;
	record[0] = saved;
	return x;
}

/* A few real frames above victim() and work() */
static __attribute__((noinline)) unsigned
work(unsigned n, unsigned depth)
{
	unsigned i, x = n;

	if (depth)
		return work(n + 1, depth - 1) ^ depth;
	for (i = 0; i < 200000; i++)
		x = x * 69069u + 1u;
	return x ^ victim(x);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(void)
{
	struct itimerval it = {{0, 1000}, {0, 1000}}, off = {{0, 0}, {0, 0}};
	struct sigaction sa;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned sink = 0, n = 0;
	double start;

	/* An address that is certainly unmapped: a page mapped, then let go */
	unmapped =
	    mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || munmap(unmapped, page))
		return 1;
	if (ua_init() < 0)
		return 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) || setitimer(ITIMER_PROF, &it, NULL))
		return 1;
	/* Until enough samples, some of them in victim(); at most 30 s */
	start = now();
	while ((samples < 100 || cut_at_bad_frame < 5) && now() - start < 30)
		sink += work(n++, 8);
	setitimer(ITIMER_PROF, &off, NULL);

	printf("%d samples, the deepest %d frames, %d walks ended at a frame "
	       "record pointing into unmapped memory (sink %u)\n",
	       (int)samples, (int)deepest, (int)cut_at_bad_frame, sink & 1);
	if (samples < 100 || cut_at_bad_frame < 5) {
		printf("too few samples in 30 s\n");
		return 1;
	}
	printf("the last sample's pc and return addresses:");
	for (n = 0; n < MAX_DEPTH && n < (unsigned)last_depth; n++)
		printf(" %#lx", (unsigned long)last_stack[n]);
	printf("\nevery walk ended safely: no crash, no system call per "
	       "frame\n");
	return 0;
}
