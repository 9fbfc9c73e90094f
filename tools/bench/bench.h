/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench: what the subcommands share.  Timing and statistics
 * (util.c), contenders and the glibc child (measure.c), tables, bars and
 * charts (report.c).  One file per subcommand.
 */
#ifndef UA_BENCH_H
#define UA_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "commit.h" /* UA_BENCH_COMMIT, written by commit.cmake */
#include "cpu.h"
#include "dispatch.h"
#include "policy.h"
#include "profile.h"
#include "routine.h"

/* ------------------------------------------------------------------ */
/* Options */

enum bench_format { FMT_TEXT, FMT_CSV, FMT_JSON };

struct bench_opts {
	int quick;
	enum bench_format format;
	const char *plot_dir; /* NULL: no charts */
	size_t align_size;    /* bytes; 0: the default */
	int trials;           /* 0: the default */
	double seconds;       /* smallwrite time per way; 0: the default */
	int cpu;              /* -1: stay on the CPU we started on */
	int no_pin;
	int glibc_tuned;     /* also measure glibc with its tunable */
	int progress;        /* stderr is a terminal */
	const char *preload; /* apps: the object to preload; NULL: found */
	const char *apps;    /* apps: comma-separated names; NULL: all */
	int check;           /* apps: compare outputs only, no timing */
	const char *compare; /* a saved --json run to compare with */
	const char *with;    /* --compare: a second saved run, no run */
};
extern struct bench_opts opt;

/* Trials per measurement: --trials, else quick/full defaults */
int bench_trials(int quick_default, int full_default);
/* Target duration of one timed sample, in ns */
uint64_t bench_sample_ns(void);

/* ------------------------------------------------------------------ */
/* util.c: time, statistics, memory, the machine */

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
 * Wall time (now_ns) only where several threads take part (netio).
 */
uint64_t cpu_ns(void);
static inline uint64_t
cpu_since(uint64_t t0)
{
	extern uint64_t clock_cost;
	uint64_t t = cpu_ns() - t0;

	return t > clock_cost ? t - clock_cost : 0;
}
void clock_calibrate(void);

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
double geomean(const double *v, int n);

/* Page-aligned, pre-faulted anonymous memory; exits on failure */
void *bench_alloc(size_t n);
void bench_free(void *p, size_t n);

int parse_size(const char *s, size_t *ret);
const char *fmt_size(size_t n, char buf[static 24]);

struct bench_machine {
	char cpu_model[96];
	char vendor[16];
	int family, model, stepping;
	int erms, fsrm, avx2, avx512f, avx512bw, avx512vl, sse2;
	size_t l1d, l2, llc;
	int cpu; /* pinned to, or -1 */
	char glibc[16];
};
extern struct bench_machine machine;
void machine_detect(void);
int pin_cpu(int cpu); /* 0 or -errno */

/* Cache levels: an explicit axis.  Working set per buffer (src or dst). */
enum level { LVL_L1, LVL_L2, LVL_LLC, LVL_DRAM, LVL_COUNT };
size_t level_ws(enum level l);
const char *level_name(enum level l);
enum level level_for(size_t n); /* smallest level whose working set holds n */

/* Progress on stderr when it is a terminal */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);

/* Fatal error: message on stderr, exit 1 */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ------------------------------------------------------------------ */
/* measure.c: who is measured, how */

enum contender_kind {
	CK_MEMCPY,     /* void *fn(void *dst, const void *src, size_t n) */
	CK_USER,       /* size_t fn(void *dst, const void *src, size_t n) */
	CK_FORCED_SRC, /* a strategy, through the wrapper, user side = src */
	CK_FORCED_DST, /* a strategy, through the wrapper, user side = dst */
	CK_CHILD,      /* glibc memcpy in the child run with GLIBC_TUNABLES */
};

/* What the glibc child runs (CK_CHILD) */
enum child_fn {
	CHILD_GLIBC,
	CHILD_UA_MEMCPY,
	CHILD_UA_FROM_USER,
	CHILD_UA_TO_USER,
	CHILD_COUNT
};

struct contender {
	const char *name;
	enum contender_kind kind;
	void *(*memcpy_fn)(void *, const void *, size_t);
	size_t (*user_fn)(void *, const void *, size_t);
	ua_copy_fn strategy;
	enum child_fn child_fn;
};

enum req_op {
	REQ_SWEEP,  /* size bytes at consecutive offsets within ws */
	REQ_RANDOM, /* a fixed list of small copies at random offsets */
	REQ_CHUNKS, /* ws bytes in size-byte chunks into one dst window */
	REQ_QUIT,
};

struct req {
	uint32_t op;
	uint32_t src_align, dst_align;
	uint32_t cold; /* no warm-up pass: the working set is beyond caches */
	uint32_t fixed_src; /* REQ_SWEEP: the source stays put, dst walks */
	uint32_t wall;      /* time with the wall clock: samples of a few us */
	uint32_t child_fn;  /* in the glibc child: which enum child_fn */
	uint64_t size, ws, reps, seed;
};

/* ns per call (REQ_CHUNKS: per pass over ws) */
double sample(const struct contender *c, const struct req *r);
/* Choose r->reps so one sample of c takes about bench_sample_ns() */
void calibrate(const struct contender *c, struct req *r);
/*
 * Interleaved trials: each trial runs every contender once, in rotating
 * order; ret_ns[i] is contender i's median.  r->reps == 0: calibrate
 * each contender to bench_sample_ns() first.
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
void arena_release(void);
void measure_init(void);

/* The contenders everyone uses */
extern const struct contender c_ua_memcpy, c_ua_from_user, c_ua_to_user,
    c_glibc, c_pvr, c_ua_nocache, c_ua_memcpy_nocache;
/* glibc with GLIBC_TUNABLES: NULL if the child could not start (says why) */
const struct contender *glibc_tuned(void);
/* A contender run in that child (the library there, to take every ratio
 * against tuned glibc in one process); NULL as glibc_tuned() */
const struct contender *tuned_child(enum child_fn fn);
/* Below this size glibc runs the same code with or without the tunable
 * (its default x86_rep_movsb_threshold); 0 without the child */
size_t glibc_rep_movsb_threshold(void);
const char *glibc_tuned_setting(void); /* "GLIBC_TUNABLES=..." */
void glibc_child_stop(void);
int glibc_child_main(int argc, char **argv);
#define GLIBC_CHILD_ARG "--internal-glibc-child"

/* The usable non-temporal strategy, or NULL */
const struct ua_strategy *nocache_strategy(void);

/* ------------------------------------------------------------------ */
/* report.c: tables, bars, charts */

struct table;
struct table *table_new(const char *sub, const char *name, const char *title);
/* Columns in order.  unit: "GB/s", "x" (a ratio), "" ...; prec: decimals */
void table_key(struct table *t, const char *name);
void table_col(struct table *t, const char *name, const char *unit, int prec);
void table_row(struct table *t);
void table_str(struct table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void table_num(struct table *t, double v); /* NAN: not available */
/* A figure and its trial spread (spread(); NAN: unknown), which the JSON
 * output keeps for --compare */
void table_num_s(struct table *t, double v, double rel_spread);
void table_note(struct table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * Charts (--plot).  A column's role says how it is drawn: the library's
 * own results and the baselines bold and far apart in colour, forced
 * strategies thin and pale; ROLE_HIDDEN columns are not drawn.
 */
enum plot_role { ROLE_PLAIN, ROLE_MUTED, ROLE_BASE, ROLE_LIB, ROLE_HIDDEN };
void table_role(struct table *t, enum plot_role role); /* the last column */
enum plot_kind {
	PLOT_LINES, /* every column with the unit against numeric column x */
	PLOT_BARS,  /* the same as clustered bars, x a key column's labels */
};
#define PLOT_LOGX 1   /* x is bytes, on a log scale */
#define PLOT_CACHES 2 /* the cache sizes marked on x */
#define PLOT_UNITY 4  /* ratios: a line at 1, y not from 0 */
#define PLOT_HEX 8    /* x in hex (offsets) */
#define PLOT_LOGY 16
/* Up to three charts per table, each a file name without extension */
void table_plot(struct table *t, const char *file, enum plot_kind kind,
		int x_col, int flags, const char *unit, const char *title);
/* n side-by-side heat maps of side x side values (row y, column x) */
void plot_heatmaps(const char *sub, const char *file, const char *title, int n,
		   const char *const *names, const double *const *grids,
		   int side, const char *xlabel, const char *ylabel,
		   const char *cblabel);
void table_end(struct table *t);

/* A line of text for the reader (text output only) */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A subcommand that cannot run here */
void unavailable(const char *sub, const char *what, const char *why);

/* A speed goal: value >= target passes; flags change that */
#define BAR_LOWER 1 /* value <= target passes */
#define BAR_COUNT 2 /* value is a count, not a ratio */
void bar(const char *sub, const char *name, double value, double target,
	 int flags, const char *detail);
void bars_print(const char *sub); /* NULL: every bar so far */

/* compare.c: --compare BASE.json */
struct table;
int compare_load(void);             /* the base (and --with); exits 2 if bad */
void compare_keep(struct table *t); /* a table of this run, kept */
void compare_print(void);           /* the comparison, after the run */
/* The subcommands the base ran, and whether it was quick */
int compare_base_ran(const char *sub);
int compare_base_quick(void);
void report_begin(void);
void report_finish(void);

/* ------------------------------------------------------------------ */
/* Subcommands */

int cmd_align(void);
int cmd_smallwrite(void);
int cmd_netio(void);
int cmd_strategies(void);
int cmd_argv(void);
int cmd_sizes(void);
int cmd_faults(void);
int cmd_apps(void);
/* apps: --apps list valid (0) or not (-1); every name; --check */
int apps_validate(const char *list);
const char *apps_names(void);
int apps_check(void);
int cmd_blocks(void);

#endif /* UA_BENCH_H */
