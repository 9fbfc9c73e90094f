/* SPDX-License-Identifier: MIT */
/*
 * faults: what a faulting copy costs against the bare signal round trip it
 * cannot avoid, and how many signals each faulting call took (one, always).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bench.h"

#define COPY_LEN 256
#define GOOD_LEN 64 /* readable bytes before the bad page */

enum bad_kind { BAD_PROT_NONE, BAD_UNMAPPED, BAD_SIGBUS, BAD_KINDS };
static const char *const bad_names[] = {"PROT_NONE", "unmapped", "SIGBUS"};

/* Three pages: good, bad (of a kind), PROT_NONE guard */
struct layout {
	char *base;
	size_t len;
	int fd;
};

static int
layout_make(struct layout *lo, enum bad_kind kind)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	lo->len = 3 * pg;
	lo->fd = -1;
	if (kind == BAD_SIGBUS) {
		/* a shared mapping of a one-page file: the second page is
		 * past its end */
		lo->fd = memfd_create("uaccess-bench-sigbus", MFD_CLOEXEC);
		if (lo->fd < 0 || ftruncate(lo->fd, (off_t)pg))
			return -errno;
		lo->base = mmap(NULL, lo->len, PROT_READ | PROT_WRITE,
				MAP_SHARED, lo->fd, 0);
	} else {
		lo->base = mmap(NULL, lo->len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (lo->base == MAP_FAILED)
		return -errno;
	memset(lo->base, 0x5a, pg);
	if (kind == BAD_PROT_NONE)
		mprotect(lo->base + pg, pg, PROT_NONE);
	else if (kind == BAD_UNMAPPED)
		munmap(lo->base + pg, pg);
	mprotect(lo->base + 2 * pg, pg, PROT_NONE);
	return 0;
}

static void
layout_free(struct layout *lo)
{
	munmap(lo->base, lo->len);
	if (lo->fd >= 0)
		close(lo->fd);
}

static const char *
bad_src(const struct layout *lo)
{
	return lo->base + (size_t)sysconf(_SC_PAGESIZE) - GOOD_LEN;
}

/* ------------------------------------------------------------------ */
/* Our own handlers: count signals, or take the bare round trip */

static volatile sig_atomic_t signals;
static struct sigaction saved_segv, saved_bus;

static void
counting_handler(int signo, siginfo_t *info, void *uc)
{
	static const char msg[] = "uaccess-bench: a fault the library did "
				  "not claim\n";

	signals++;
	if (!ua_handle_fault(signo, info, uc)) {
		ssize_t r = write(2, msg, sizeof(msg) - 1);

		(void)r; /* exiting either way */
		_exit(1);
	}
}

/* A load whose fault the handler skips: the least a fault can cost */
#if defined(__x86_64__)
#define PROBE_LOAD "	movb (%rdi), %al\n"
#define PROBE_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__i386__)
#define PROBE_ENTRY "	movl 4(%esp), %eax\n"
#define PROBE_LOAD "	movb (%eax), %al\n"
#define PROBE_PC(uc) ((uc)->uc_mcontext.gregs[REG_EIP])
#endif /* elsewhere siglongjmp is the reference */
#ifndef PROBE_ENTRY
#define PROBE_ENTRY ""
#endif

#ifdef PROBE_LOAD
#define HAVE_PROBE 1
__asm__(".text\n"
	".type bench_probe, %function\n"
	"bench_probe:\n" PROBE_ENTRY "bench_probe_insn:\n" PROBE_LOAD
	"bench_probe_resume:\n"
	"	ret\n"
	".size bench_probe, . - bench_probe\n");
void bench_probe(const void *p);
extern const char bench_probe_insn[], bench_probe_resume[];

static void
skip_handler(int signo, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)signo;
	(void)info;
	signals++;
	if ((uintptr_t)PROBE_PC(uc) == (uintptr_t)bench_probe_insn)
		PROBE_PC(uc) =
		    (__typeof__(PROBE_PC(uc)))(uintptr_t)bench_probe_resume;
	else
		_exit(1);
}
#else
#define HAVE_PROBE 0
#endif

static sigjmp_buf jump_env;
static void *volatile reported_addr;

/* The bare round trip; where the kernel said the fault was, for
 * reported_exactly() */
static void
jump_handler(int signo, siginfo_t *info, void *uc)
{
	(void)signo;
	(void)uc;
	signals++;
	reported_addr = info->si_addr;
	siglongjmp(jump_env, 1);
}

static __attribute__((noinline)) void
fault_and_jump(const char *bad)
{
	if (!sigsetjmp(jump_env, 0))
		*(volatile const char *)bad;
}

/*
 * Is a fault of this kind reported at the byte that faulted?  Linux does;
 * qemu-i386 reports SIGBUS past the end of a file a page too high, and
 * then no handler can tell how much of a copy was good: such a kind is
 * not measured.
 */
static void
install(void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &saved_segv);
	sigaction(SIGBUS, &sa, &saved_bus);
}

static void
uninstall(void)
{
	sigaction(SIGSEGV, &saved_segv, NULL);
	sigaction(SIGBUS, &saved_bus, NULL);
}

static int
reported_exactly(const char *bad)
{
	install(jump_handler, SA_NODEFER);
	reported_addr = NULL;
	fault_and_jump(bad);
	uninstall();
	return reported_addr == bad;
}

/* ------------------------------------------------------------------ */
/* The cases */

enum fcase {
	FC_CLEAN, /* copy_from_user, nothing bad */
	FC_FAULT, /* copy_from_user into a bad page (3 kinds) */
	FC_SKIP = FC_FAULT + BAD_KINDS,
	FC_LONGJMP,
	FC_PVR,
	FC_COUNT
};

static struct layout layouts[BAD_KINDS];
static int reported[BAD_KINDS]; /* reported_exactly() */
static char dst[COPY_LEN];
static size_t last_left;

static double
run_case(int fc, unsigned calls)
{
	size_t (*volatile cfu)(void *, const void *, size_t) =
	    ua_copy_from_user;
	const char *src = bad_src(&layouts[BAD_PROT_NONE]);
	uint64_t t0, t;
	unsigned i;

	if (fc >= FC_FAULT && fc < FC_SKIP) {
		if (!reported[fc - FC_FAULT])
			return NAN;
		src = bad_src(&layouts[fc - FC_FAULT]);
	}
	switch (fc) {
	case FC_CLEAN:
		t0 = cpu_ns();
		for (i = 0; i < calls; i++)
			last_left = cfu(dst, src - COPY_LEN, COPY_LEN);
		t = cpu_since(t0);
		break;
	case FC_SKIP:
#if HAVE_PROBE
		install(skip_handler, 0);
		t0 = cpu_ns();
		for (i = 0; i < calls; i++)
			bench_probe(src + GOOD_LEN);
		t = cpu_since(t0);
		uninstall();
#else
		return NAN;
#endif
		break;
	case FC_LONGJMP:
		install(jump_handler, SA_NODEFER);
		t0 = cpu_ns();
		for (i = 0; i < calls; i++)
			fault_and_jump(src + GOOD_LEN);
		t = cpu_since(t0);
		uninstall();
		break;
	case FC_PVR: {
		struct iovec local = {dst, COPY_LEN};
		struct iovec remote = {(void *)src, COPY_LEN};
		pid_t pid = getpid();

		t0 = cpu_ns();
		for (i = 0; i < calls; i++) {
			ssize_t k =
			    process_vm_readv(pid, &local, 1, &remote, 1, 0);
			last_left = k < 0 ? COPY_LEN : COPY_LEN - (size_t)k;
		}
		t = cpu_since(t0);
		break;
	}
	default:
		t0 = cpu_ns();
		for (i = 0; i < calls; i++)
			last_left = cfu(dst, src, COPY_LEN);
		t = cpu_since(t0);
		break;
	}
	return (double)t / calls;
}

/* Signals taken per call, and whether each call returned exactly */
static double
count_signals(ua_copy_fn strategy, enum bad_kind kind, unsigned calls,
	      int *ret_exact)
{
	const char *src = bad_src(&layouts[kind]);
	unsigned i;

	*ret_exact = 1;
	if (!reported[kind])
		return NAN;
	signals = 0;
	install(counting_handler, 0);
	for (i = 0; i < calls; i++) {
		size_t left;

		if (strategy)
			left = ua_user_copy(strategy, dst, src, COPY_LEN,
					    UA_SIDE_SRC, (uintptr_t)src);
		else
			left = ua_copy_from_user(dst, src, COPY_LEN);
		if (left != COPY_LEN - GOOD_LEN)
			*ret_exact = 0;
	}
	uninstall();
	return (double)signals / calls;
}

static const char *const case_names[FC_COUNT] = {
    "copy_from_user 256 B, no fault",
    "copy_from_user 256 B, fault: PROT_NONE",
    "copy_from_user 256 B, fault: unmapped",
    "copy_from_user 256 B, fault: SIGBUS (past EOF)",
    "raw SIGSEGV round trip (handler skips the load)",
    "SIGSEGV + siglongjmp",
    "process_vm_readv 256 B, hits the bad page",
};

int
cmd_faults(void)
{
	unsigned calls = opt.quick ? 1000 : 5000;
	int trials = bench_trials(5, 9), t, k, exact, all_exact = 1;
	double v[FC_COUNT][64], ns[FC_COUNT], sig[BAD_KINDS], worst = 0;
	const struct ua_strategy *s;
	size_t ns_count, i;
	struct table *tb;

	for (k = 0; k < BAD_KINDS; k++) {
		int r = layout_make(&layouts[k], (enum bad_kind)k);

		if (r < 0)
			die("faults: cannot build the %s layout: %s",
			    bad_names[k], strerror(-r));
		reported[k] = reported_exactly(bad_src(&layouts[k]) + GOOD_LEN);
	}
	for (k = 0; k < FC_COUNT; k++)
		run_case(k, calls / 10); /* warm-up */
	for (t = 0; t < trials; t++) {
		progress("faults: trial %d/%d", t + 1, trials);
		for (k = 0; k < FC_COUNT; k++) {
			int c = (k + t) % FC_COUNT;

			v[c][t] = run_case(c, calls);
		}
	}
	for (k = 0; k < FC_COUNT; k++)
		ns[k] = median(v[k], trials);
	for (k = 0; k < BAD_KINDS; k++) {
		sig[k] =
		    count_signals(NULL, (enum bad_kind)k, calls / 10, &exact);
		all_exact &= exact;
		if (!reported[k])
			continue;
		if (sig[k] > worst)
			worst = sig[k];
	}

	tb = table_new("faults", "cost",
		       "a faulting copy against a raw signal round trip "
		       "(256 B from 64 bytes before a bad page)");
	table_key(tb, "case");
	table_col(tb, "time/call", "ns", 0);
	table_plot(tb, "faults", PLOT_BARS, 0, 0, "ns",
		   "uaccess-bench faults: a faulting copy against a raw "
		   "signal round trip");
	table_col(tb, "vs raw signal", "x", 2);
	table_col(tb, "signals/call", "", 2);
	for (k = 0; k < FC_COUNT; k++) {
		table_row(tb);
		table_str(tb, "%s", case_names[k]);
		table_num(tb, ns[k]);
		table_num(tb, ns[k] / ns[HAVE_PROBE ? FC_SKIP : FC_LONGJMP]);
		if (k >= FC_FAULT && k < FC_SKIP)
			table_num(tb, sig[k - FC_FAULT]);
		else if (k == FC_SKIP || k == FC_LONGJMP)
			table_num(tb, 1);
		else
			table_num(tb, 0);
	}
	if (HAVE_PROBE)
		table_note(tb,
			   "vs raw signal: time / the bare round trip "
			   "(kernel signal delivery + sigreturn), the floor "
			   "for any fault-catching copy.");
	else
		table_note(tb, "vs raw signal: time / SIGSEGV + siglongjmp "
			       "(no skip probe for this architecture).");
	for (k = 0; k < BAD_KINDS; k++)
		if (!reported[k])
			table_note(tb,
				   "%s: not measured, this system reports "
				   "such a fault at another address than the "
				   "byte that faulted (qemu-i386 does for "
				   "SIGBUS).",
				   bad_names[k]);
	table_note(tb,
		   "Every faulting copy_from_user returned exactly %d "
		   "bytes not copied: %s.",
		   COPY_LEN - GOOD_LEN, all_exact ? "yes" : "NO");
	table_end(tb);

	s = ua_strategies(&ns_count);
	tb = table_new("faults", "strategies",
		       "signals per faulting call, each strategy "
		       "forced (copy_from_user path)");
	table_key(tb, "strategy");
	for (k = 0; k < BAD_KINDS; k++)
		table_col(tb, bad_names[k], "", 2);
	table_col(tb, "exact", "", 0);
	for (i = 0; i < ns_count; i++) {
		int ok = 1;

		table_row(tb);
		table_str(tb, "%s", s[i].name);
		if (!ua_strategy_usable(&s[i])) {
			for (k = 0; k < BAD_KINDS; k++)
				table_num(tb, NAN);
			table_str(tb, "not usable here");
			continue;
		}
		for (k = 0; k < BAD_KINDS; k++) {
			double x = count_signals(s[i].copy, (enum bad_kind)k,
						 calls / 10, &exact);

			ok &= exact;
			table_num(tb, x);
			if (x > worst) /* NAN (not measured) never is */
				worst = x;
		}
		table_str(tb, "%s", ok ? "yes" : "NO");
		all_exact &= ok;
	}
	table_end(tb);
	for (k = 0; k < BAD_KINDS; k++)
		layout_free(&layouts[k]);
	bar("faults", "signals per faulting call (worst case)", worst, NAN, 1.0,
	    BAR_LOWER | BAR_COUNT,
	    all_exact ? "every count exact" : "SOME COUNTS WRONG");
	return all_exact ? 0 : -1;
}
