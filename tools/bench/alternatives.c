/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench alternatives: what programs do today to read memory that
 * may be unmapped, beside the library's reads, in one process: 8-byte
 * reads (a pointer, as an unwinder reads), 64 B and 4 KiB, on good memory
 * and on an unmapped page, and a walk of a 64-frame frame-pointer chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "bench.h"
#include "uaccess.h"

/* ------------------------------------------------------------------ */
/* The ways to read: 0, or -EFAULT with nothing read */

typedef int (*read_fn)(void *dst, const void *src, size_t n);

static int
read_ua(void *dst, const void *src, size_t n)
{
	if (n == sizeof(uint64_t))
		return ua_get_user(*(uint64_t *)dst, (const uint64_t *)src);
	return ua_copy_from_user(dst, src, n) ? -EFAULT : 0;
}

/* Whole words, in one inline user-access block: the library's loads at the
 * cost of a load and a table entry */
static int
read_ua_block(void *dst, const void *src, size_t n)
{
	const uintptr_t *p = src;
	uintptr_t *d = dst;
	size_t i;

	if (!ua_user_access_begin(p, n))
		return -EFAULT;
	for (i = 0; i < n / sizeof(*p); i++)
		ua_unsafe_get_user(d[i], &p[i], fault);
	ua_user_access_end();
	return 0;
fault:
	ua_user_access_end();
	return -EFAULT;
}

static pid_t self_pid;

static int
read_pvr(void *dst, const void *src, size_t n)
{
	struct iovec l = {dst, n}, r = {(void *)src, n};

	return process_vm_readv(self_pid, &l, 1, &r, 1, 0) == (ssize_t)n
		   ? 0
		   : -EFAULT;
}

static int proc_mem_fd = -1;

static int
read_proc_mem(void *dst, const void *src, size_t n)
{
	return pread64(proc_mem_fd, dst, n, (off64_t)(uintptr_t)src) ==
		       (ssize_t)n
		   ? 0
		   : -EFAULT;
}

static int pipe_fd[2] = {-1, -1};

/* The kernel reads src for write(); EFAULT says it could not */
static int
read_pipe(void *dst, const void *src, size_t n)
{
	if (write(pipe_fd[1], src, n) != (ssize_t)n)
		return -EFAULT;
	return read(pipe_fd[0], dst, n) == (ssize_t)n ? 0 : -EFAULT;
}

static uintptr_t page_mask;

/* Racy: the page may be unmapped between the check and the copy, and a
 * mapped PROT_NONE page passes both checks */
static int
read_mincore(void *dst, const void *src, size_t n)
{
	uintptr_t lo = (uintptr_t)src & page_mask;
	size_t len = (uintptr_t)src + n - lo;
	unsigned char vec[4];

	if (mincore((void *)lo, len, vec))
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

static int
read_msync(void *dst, const void *src, size_t n)
{
	uintptr_t lo = (uintptr_t)src & page_mask;

	if (msync((void *)lo, (uintptr_t)src + n - lo, MS_ASYNC))
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

/* sigsetjmp(env, 1) around the copy, the program's SIGSEGV handler leaves
 * with siglongjmp (Rust's bulletproof, HotSpot's fallback SafeFetch) */
static __thread sigjmp_buf *volatile jmp_armed;

static int
read_sigsetjmp(void *dst, const void *src, size_t n)
{
	sigjmp_buf env;

	if (sigsetjmp(env, 1)) {
		jmp_armed = NULL;
		return -EFAULT;
	}
	jmp_armed = &env;
	memcpy(dst, src, n);
	jmp_armed = NULL;
	return 0;
}

/*
 * HotSpot's SafeFetchN: a load in a static stub; the program's handler
 * moves a fault at that load to a continuation that returns the caller's
 * error value.  A word equal to the error value is fetched again with
 * another one, as HotSpot's os::is_readable_pointer does.
 */
uintptr_t alt_safefetch(const uintptr_t *p, uintptr_t err);
extern const char alt_safefetch_load[], alt_safefetch_cont[];
/* Labels the C code names are global symbols (hidden): a GOT reference to a
 * local label goes through its section, and the aarch64 linker gave both
 * labels one GOT slot */
#define SF_SYMBOLS                                                             \
	".globl alt_safefetch, alt_safefetch_load, alt_safefetch_cont\n"       \
	".hidden alt_safefetch, alt_safefetch_load, alt_safefetch_cont\n"
#if defined(__x86_64__)
__asm__(SF_SYMBOLS ".text\n.p2align 4\n.type alt_safefetch, @function\n"
		   "alt_safefetch:\n"
		   "alt_safefetch_load: movq (%rdi), %rax\n ret\n"
		   "alt_safefetch_cont: movq %rsi, %rax\n ret\n"
		   ".size alt_safefetch, .-alt_safefetch\n");
#define CTX_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__i386__)
__asm__(SF_SYMBOLS ".text\n.p2align 4\n.type alt_safefetch, @function\n"
		   "alt_safefetch: movl 4(%esp), %ecx\n"
		   "alt_safefetch_load: movl (%ecx), %eax\n ret\n"
		   "alt_safefetch_cont: movl 8(%esp), %eax\n ret\n"
		   ".size alt_safefetch, .-alt_safefetch\n");
#define CTX_PC(uc) ((uc)->uc_mcontext.gregs[REG_EIP])
#elif defined(__aarch64__)
__asm__(SF_SYMBOLS ".text\n.p2align 4\n.type alt_safefetch, %function\n"
		   "alt_safefetch:\n"
		   "alt_safefetch_load: ldr x0, [x0]\n ret\n"
		   "alt_safefetch_cont: mov x0, x1\n ret\n"
		   ".size alt_safefetch, .-alt_safefetch\n");
#define CTX_PC(uc) ((uc)->uc_mcontext.pc)
#else
#error "alternatives.c: no SafeFetch stub for this architecture"
#endif

#define SF_ERR ((uintptr_t)0x5afef37c4e1e5a5aull)

static int
read_safefetch(void *dst, const void *src, size_t n)
{
	const uintptr_t *p = src;
	uintptr_t w;
	size_t i;

	/* the reads here are whole words at word-aligned addresses */
	for (i = 0; i < n / sizeof(w); i++) {
		w = alt_safefetch(p + i, SF_ERR);
		if (w == SF_ERR && alt_safefetch(p + i, ~SF_ERR) == ~SF_ERR)
			return -EFAULT;
		memcpy((char *)dst + i * sizeof(w), &w, sizeof(w));
	}
	return 0;
}

static struct sigaction old_segv;

static void
on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	/* the bench owns its handlers (ua_keep_signals): the library's
	 * faults first, as a program that owns its handlers does */
	if (ua_handle_fault(sig, si, ctx))
		return;
	if ((uintptr_t)CTX_PC(uc) == (uintptr_t)alt_safefetch_load) {
		CTX_PC(uc) = (uintptr_t)alt_safefetch_cont;
		return;
	}
	if (jmp_armed)
		siglongjmp(*jmp_armed, 1);
	/* not ours: as it would have gone without this subcommand */
	sigaction(SIGSEGV, &old_segv, NULL);
}

static const struct way {
	const char *name;
	read_fn fn;
	int racy;
} ways[] = {
    {"uaccess: ua_get_user / ua_copy_from_user", read_ua, 0},
    {"uaccess: inline block, ua_unsafe_get_user", read_ua_block, 0},
    {"process_vm_readv on the own pid", read_pvr, 0},
    {"pread of /proc/self/mem", read_proc_mem, 0},
    {"write() to a pipe, read back", read_pipe, 0},
    {"mincore, then a load (racy)", read_mincore, 1},
    {"msync(MS_ASYNC), then a load (racy)", read_msync, 1},
    {"sigsetjmp(env, 1) / siglongjmp", read_sigsetjmp, 0},
    {"static load stub + PC-checking handler", read_safefetch, 0},
};
#define NWAYS (int)(sizeof(ways) / sizeof(ways[0]))

/* ------------------------------------------------------------------ */
/* The cases */

#define FRAMES 64

struct frame {
	struct frame *next;
	uintptr_t ret;
};

enum { C_8, C_64, C_4K, C_BAD, C_WALK, NCASES };

static const struct {
	const char *col;
	size_t n;
} cases[NCASES] = {
    [C_8] = {"8 B", 8},
    [C_64] = {"64 B", 64},
    [C_4K] = {"4 KiB", 4096},
    [C_BAD] = {"8 B unmapped", 8},
    [C_WALK] = {"64-frame walk", 0},
};

static struct {
	unsigned char *good, *bad;
	struct frame *chain;
	unsigned char out[4096];
} ctx;

/* One run of case c with way w: 0 as expected, else -1 */
static int
run_case(read_fn fn, int c)
{
	if (c == C_WALK) {
		struct frame f = {ctx.chain, 0}, *fp;
		int k = 0;

		for (fp = ctx.chain; fp; fp = f.next, k++)
			if (fn(&f, fp, sizeof(f)))
				return -1;
		return k == FRAMES ? 0 : -1;
	}
	if (c == C_BAD)
		return fn(ctx.out, ctx.bad, cases[c].n) == -EFAULT ? 0 : -1;
	return fn(ctx.out, ctx.good, cases[c].n);
}

/* run_case, where a way whose check lets a bad read through crashes:
 * caught, and reported as a wrong result */
static int
checked_run(int k, int c)
{
	sigjmp_buf env;
	int r;

	if (sigsetjmp(env, 1)) {
		jmp_armed = NULL;
		return -1;
	}
	if (ways[k].fn != read_sigsetjmp) /* it arms its own */
		jmp_armed = &env;
	r = run_case(ways[k].fn, c);
	jmp_armed = NULL;
	return r;
}

/* Wall time of reps runs, for choosing reps: where the thread's CPU time
 * leaves out the cost of a signal or a system call (under qemu-user), the
 * samples must still end */
static double
wall_ns(read_fn fn, int c, unsigned reps, int *bad)
{
	struct timespec a, b;
	unsigned r;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (r = 0; r < reps; r++)
		*bad |= run_case(fn, c);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) * 1e9 +
	       (double)(b.tv_nsec - a.tv_nsec);
}

/* ns per run, over reps runs */
static double
time_case(read_fn fn, int c, unsigned reps, int *bad)
{
	uint64_t t0 = cpu_ns();
	unsigned r;

	for (r = 0; r < reps; r++)
		*bad |= run_case(fn, c);
	return (double)cpu_since(t0) / reps;
}

/* The frames, one per page of a region, in a shuffled order */
static struct frame *
chain_new(unsigned char *region, size_t pg)
{
	int order[FRAMES], i;
	uint64_t s = 0x9e3779b97f4a7c15u;

	for (i = 0; i < FRAMES; i++)
		order[i] = i;
	for (i = FRAMES - 1; i > 0; i--) {
		int j, t;

		s = s * 6364136223846793005u + 1442695040888963407u;
		j = (int)((s >> 33) % (uint64_t)(i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < FRAMES; i++) {
		struct frame *f =
		    (struct frame *)(region + (size_t)order[i] * pg + 48);

		f->next = i + 1 < FRAMES
			      ? (struct frame *)(region +
						 (size_t)order[i + 1] * pg + 48)
			      : NULL;
		f->ret = 0x400000 + (uintptr_t)i * 16;
	}
	return (struct frame *)(region + (size_t)order[0] * pg + 48);
}

int
cmd_alternatives(void)
{
	int trials = bench_trials(5, 11), t, k, c, bad = 0;
	double v[NWAYS][NCASES][MEASURE_MAX_TRIALS];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned reps[NCASES];
	struct sigaction sa;
	unsigned char *map;
	struct table *tb;
	int usable[NWAYS];
	char why[NWAYS][64];

	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	page_mask = ~(uintptr_t)(pg - 1);
	self_pid = getpid();
	proc_mem_fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	if (proc_mem_fd < 0 || pipe2(pipe_fd, O_CLOEXEC)) {
		unavailable("alternatives", "reads of memory that may be bad",
			    "cannot open /proc/self/mem or a pipe");
		return -1;
	}
	/* good pages, then one unmapped; the chain in its own region */
	map = mmap(NULL, (FRAMES + 3) * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die("alternatives: mmap: %s", strerror(errno));
	ctx.good = map + 64;
	memset(map, 0x5a, 2 * pg);
	ctx.bad = map + 2 * pg + 8;
	munmap(ctx.bad - 8, pg);
	ctx.chain = chain_new(map + 3 * pg, pg);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);

	/* Every way must give the right answer in every case: one that does
	 * not here (under an emulator, /proc/self/mem and process_vm_readv
	 * see the emulator's addresses) is not timed.  The library must. */
	for (k = 0; k < NWAYS; k++) {
		usable[k] = 1;
		for (c = 0; c < NCASES; c++)
			if (checked_run(k, c)) {
				if (k < 2)
					die("alternatives: %s: wrong result "
					    "(%s)",
					    ways[k].name, cases[c].col);
				usable[k] = 0;
				snprintf(why[k], sizeof(why[k]),
					 "no: wrong result here (%s)",
					 cases[c].col);
				break;
			}
	}
	/* Samples of about harness_sample_ns for the slowest way */
	for (c = 0; c < NCASES; c++) {
		reps[c] = 1;
		for (k = 0; k < NWAYS; k++)
			while (usable[k] &&
			       wall_ns(ways[k].fn, c, reps[c], &bad) <
				   (double)harness_sample_ns / 4 &&
			       reps[c] < (1u << 20))
				reps[c] *= 2;
	}
	for (t = 0; t < trials; t++) {
		progress("alternatives: trial %d/%d", t + 1, trials);
		for (c = 0; c < NCASES; c++)
			for (k = 0; k < NWAYS; k++) {
				int w = (k + t) % NWAYS;

				v[w][c][t] = usable[w]
						 ? time_case(ways[w].fn, c,
							     reps[c], &bad)
						 : NAN;
			}
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	if (bad)
		die("alternatives: a timed read gave a wrong result");

	tb = table_new("alternatives", "ways",
		       "reading memory that may be unmapped: what programs "
		       "do today, beside the library (ns per read)");
	table_key(tb, "way");
	for (c = 0; c < NCASES; c++)
		table_col(tb, cases[c].col, "ns", c == C_WALK ? 0 : 1);
	table_col(tb, "8 B vs uaccess", "x", 1);
	table_role(tb, ROLE_HIDDEN);
	table_col(tb, "walk vs uaccess", "x", 1);
	table_col(tb, "safe", "", 0);
	table_plot(tb, "alternatives", PLOT_BARS, 0, PLOT_LOGY, "ns",
		   "uaccess-bench alternatives: ns per read (log scale)");
	for (k = 0; k < NWAYS; k++) {
		table_row(tb);
		table_str(tb, "%s", ways[k].name);
		for (c = 0; c < NCASES; c++)
			table_num_s(tb, median(v[k][c], trials),
				    spread(v[k][c], trials));
		/* how many times the library's time: above 1, slower */
		table_num_s(tb, median_ratio(v[k][C_8], v[0][C_8], trials),
			    ratio_spread(v[k][C_8], v[0][C_8], trials));
		table_num_s(tb,
			    median_ratio(v[k][C_WALK], v[0][C_WALK], trials),
			    ratio_spread(v[k][C_WALK], v[0][C_WALK], trials));
		table_str(tb, "%s",
			  !usable[k]     ? why[k]
			  : ways[k].racy ? "no: racy"
					 : "yes");
	}
	table_note(tb, "Who reads this way: process_vm_readv: crash readers, "
		       "CPython's remote debugging; /proc/self/mem: "
		       "debuggers, profilers; a pipe: libunwind's "
		       "validate_mem, gperftools; mincore/msync: libunwind, "
		       "Julia's profiler; sigsetjmp: Rust's bulletproof, "
		       "HotSpot's fallback SafeFetch; a load stub: HotSpot's "
		       "SafeFetchN, async-profiler's SafeAccess.");
	table_note(tb, "x vs uaccess: this way's time over the library's "
		       "calls (the first row), the median of per-trial "
		       "ratios; above 1 the library is that many times "
		       "faster.  The inline block reads whole words, as a "
		       "load stub does.");
	table_note(tb, "Racy: mincore and msync check the page, then a "
		       "plain load reads it; another thread can unmap it in "
		       "between (the load then crashes), and a mapped "
		       "PROT_NONE page passes the check and crashes the "
		       "load.  The others are safe.");
	table_note(tb, "8 B unmapped: the bad case.  The library and "
		       "sigsetjmp pay one signal (SIGSEGV and the return from "
		       "its handler); the load stub two (a word equal to its "
		       "error value is fetched again with another, as "
		       "HotSpot does); the system calls an error return.");
	table_note(tb, "64-frame walk: a frame-pointer chain of 64 frames, "
		       "one per page in shuffled order, one 16-byte read per "
		       "frame (ns per walk).");
	table_end(tb);
	munmap(map, 2 * pg);
	munmap(map + 3 * pg, FRAMES * pg);
	close(proc_mem_fd);
	close(pipe_fd[0]);
	close(pipe_fd[1]);
	proc_mem_fd = pipe_fd[0] = pipe_fd[1] = -1;
	return 0;
}
