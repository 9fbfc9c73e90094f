/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench: what the subcommands share.  Timing, statistics and the
 * timed loops are the tools' harness (../harness.h); here the machine and
 * cache levels (util.c), the contenders and the glibc child (measure.c),
 * tables, bars and charts (report.c).  One file per subcommand.
 */
#ifndef UA_BENCH_H
#define UA_BENCH_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "commit.h" /* UA_BENCH_COMMIT, written by commit.cmake */
#include "cpu.h"
#include "dispatch.h"
#include "harness.h"
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
	int processes;       /* per glibc configuration; 0: the default */
	int progress;        /* stderr is a terminal */
	const char *preload; /* apps: the object to preload; NULL: found */
	const char *apps;    /* apps: comma-separated names; NULL: all */
	const char *compare; /* a saved --json run to compare with */
	const char *with;    /* --compare: a second saved run, no run */
	const char *glibc;   /* --glibc: another glibc's directory; NULL */
};
extern struct bench_opts opt;

/* Bad usage: "uaccess-bench: message", a pointer to --help, exit 2 */
void usage_error(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/* Trials per measurement: --trials, else quick/full defaults */
int bench_trials(int quick_default, int full_default);

/* ------------------------------------------------------------------ */
/* util.c: sizes, strings, the machine, cache levels, progress */

/*
 * --glibc DIR: run this program again under DIR's glibc (its loader, with
 * DIR as the library path), unless this process already runs under it;
 * bad usage (exit 2) when DIR has no loader or libc.so.6 for this
 * architecture.  Returns only in the process that runs under it.
 */
void bench_use_glibc(const char *dir, char **argv);
/* Run this program with args and envp under the glibc this process runs
 * under (execve: returns only on failure) */
void bench_exec_self(char *const args[], char *const envp[]);
/* This program's path (not the loader's that --glibc runs it under) */
const char *bench_self_path(void);
/* The loader of --glibc's glibc when this process runs under it; NULL */
const char *bench_glibc_loader(void);

/* A size as the library reads one (ua_parse_size): 0 or -EINVAL */
int parse_size(const char *s, size_t *ret);
const char *fmt_size(size_t n, char buf[static 24]);

/* A string formatted into new memory (free() it); dies out of memory */
char *xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The library's ua_cpu(), and what the bench adds */
struct bench_machine {
	const char *cpu_model; /* ua_cpu()->name, or "unknown CPU" */
	/* ua_cpu()'s cache sizes, or a guess where it knows none; llc is
	 * what one core's reads find there (llc_measured), at most
	 * llc_reported, the CPU's own figure */
	size_t l1d, l2, llc, llc_reported;
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

/* Progress on stderr when it is a terminal (die() clears it) */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);

/* ------------------------------------------------------------------ */
/* measure.c: the contenders, the glibc child */

/* What the glibc child runs */
enum child_fn {
	CHILD_GLIBC,
	CHILD_UA_MEMCPY,
	CHILD_UA_FROM_USER,
	CHILD_UA_TO_USER,
	CHILD_COUNT
};

/* The clock's cost measured, the process known to process_vm_readv */
void measure_init(void);
/* The contenders everyone uses */
extern const struct contender c_ua_memcpy, c_ua_from_user, c_ua_to_user,
    c_glibc, c_pvr, c_ua_nocache, c_ua_memcpy_nocache;
/* A contender per usable strategy, that strategy forced (kind CK_FORCED_SRC
 * or CK_FORCED_DST), at most max: kept in forced[], pointed to from ret[];
 * how many */
int forced_contenders(enum contender_kind kind, struct contender *forced,
		      const struct contender **ret, int max);
/* glibc with GLIBC_TUNABLES: NULL if the child could not start (says why) */
const struct contender *glibc_tuned(void);
/* A contender run in that child (the library there, to take every ratio
 * against tuned glibc in one process); NULL as glibc_tuned() */
const struct contender *tuned_child(enum child_fn fn);

/*
 * Where glibc and the library run at the same speed, which of them is a
 * few percent ahead depends on the process (where its code and buffers
 * landed), not only on the copy: the ratios that bars take are measured
 * in several processes per glibc configuration, and their median taken.
 * Process 0 of glibc as shipped is this one, process 0 of tuned glibc the
 * tuned child; the others are children started on first use.
 */
enum glibc_config { GLIBC_SHIPPED, GLIBC_TUNED, GLIBC_CONFIGS };
#define BENCH_PROCESSES 3     /* the default of --processes */
#define BENCH_MAX_PROCESSES 8 /* its largest */
int bench_processes(void);    /* --processes, else BENCH_PROCESSES */
/* fn run in process p of configuration g; NULL if there is no such process
 * (tuned glibc not measured, p beyond bench_processes(), or it could not
 * start: says why) */
const struct contender *glibc_process(enum glibc_config g, int p,
				      enum child_fn fn);
/*
 * Per-trial ratios pooled over the processes that timed a figure: their
 * spread() is the trial spread of a median over processes, trial noise
 * and the differences between processes both in it
 */
#define RATIO_POOL_MAX (BENCH_MAX_PROCESSES * MEASURE_MAX_TRIALS)
struct ratio_pool {
	double q[RATIO_POOL_MAX];
	int n;
};
_Static_assert(RATIO_POOL_MAX <= STATS_MAX,
	       "spread() must take every ratio of a pool");
/* Add the trials ratios num[t] / den[t] */
void pool_add(struct ratio_pool *pool, const double *num, const double *den,
	      int trials);
double pool_spread(const struct ratio_pool *pool); /* NAN below 3 */
/*
 * base's time over lib's (above 1: lib is faster), the median of trials
 * paired ratios, in processes first..bench_processes() - 1 of g, into
 * each[] (BENCH_MAX_PROCESSES long; NAN for a process that is not there;
 * the caller filled each[0..first)); the median of those not NAN.  Each
 * process's paired ratios go into pool, unless it is NULL.
 */
double across_processes(enum glibc_config g, int first, enum child_fn base,
			enum child_fn lib, const struct req *r, int trials,
			double *each, struct ratio_pool *pool);
/* Below this size glibc runs the same code with or without the tunable
 * (its default x86_rep_movsb_threshold); 0 without the child */
size_t glibc_rep_movsb_threshold(void);
const char *glibc_tuned_setting(void); /* "GLIBC_TUNABLES=..." */
void glibc_child_stop(void);
int glibc_child_main(int argc, char **argv);
#define GLIBC_CHILD_ARG "--internal-glibc-child"

/*
 * Passes: a loop of the subcommand's own over the 64-bit words at a
 * (blocks, atomics), timed as a whole, its result summed into *sink so
 * that it is not optimised out
 */
typedef uint64_t (*pass_fn)(uint64_t *a);
/* ns per pass, over reps passes back to back */
double time_pass(pass_fn volatile fn, uint64_t *a, unsigned reps,
		 uint64_t *sink);
/* reps doubled from reps until reps passes of fn take harness_sample_ns */
unsigned pass_reps(pass_fn fn, uint64_t *a, unsigned reps, uint64_t *sink);

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

/*
 * A speed goal: value >= target passes; flags change that.  spread is
 * value's trial spread (spread(); NAN where it has none): a value that
 * misses the target by less than half of it, the target inside the middle
 * half of the trials, is level with it (the verdict LEVEL)
 */
#define BAR_LOWER 1 /* value <= target passes */
#define BAR_COUNT 2 /* value is a count, not a ratio */
void bar(const char *sub, const char *name, double value, double spread,
	 double target, int flags, const char *detail);
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
int cmd_apps(void); /* apps_validate(), apps_names(): programs.h */
int cmd_blocks(void);
int cmd_atomics(void);
int cmd_alternatives(void);

#endif /* UA_BENCH_H */
