/* SPDX-License-Identifier: MIT */
/*
 * uaccess-bench: the seeds' experiments, redone on this machine, beside
 * today's alternatives.  Subcommands live in tools/bench/.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/programs.h"

struct bench_opts opt = {.cpu = -1, .glibc_tuned = 1};

static const struct subcommand {
	const char *name;
	int (*run)(void);
	const char *help;
} subcommands[] = {
    {"strategies", cmd_strategies,
     "this CPU, every strategy per size class, what the dispatcher "
     "picked (seed 002)"},
    {"sizes", cmd_sizes,
     "1 B to 256 MiB across cache levels: ua_memcpy, copy_from_user, "
     "glibc memcpy (twice), process_vm_readv"},
    {"align", cmd_align,
     "read() of a cached tmpfs file into an 8 KiB buffer at offsets "
     "0x0..0x20 (seed 000)"},
    {"smallwrite", cmd_smallwrite,
     "unixbench fstime 256-byte writes; nocache with and without its "
     "threshold (seed 001)"},
    {"netio", cmd_netio,
     "loopback TCP send/recv at buffer offsets, beside an in-process "
     "channel (seed 002)"},
    {"argv", cmd_argv,
     "building an exec argument block: page mappings and time (seed 004)"},
    {"faults", cmd_faults,
     "a faulting copy against a raw signal round trip; signals per call"},
    {"blocks", cmd_blocks,
     "inline user-access blocks: loads vs plain and ua_get_user"},
    {"atomics", cmd_atomics,
     "atomic ops on user memory (cmpxchg, xchg, futex ops) vs __atomic"},
    {"alternatives", cmd_alternatives,
     "reading memory that may be unmapped: process_vm_readv, "
     "/proc/self/mem, a pipe, mincore, sigsetjmp, a SafeFetch stub, "
     "and the library"},
    /* last: its options are checked against run[NSUB - 1] */
    {"apps", cmd_apps,
     "real programs (zstd, xz, gzip, sqlite3, python3, perl) with and "
     "without libuaccess-preload.so"},
};
#define NSUB (int)(sizeof(subcommands) / sizeof(subcommands[0]))

static void
usage(FILE *f)
{
	int i;

	fprintf(f, "Usage: uaccess-bench [OPTION]... [SUBCOMMAND]...\n"
		   "\n"
		   "Redo the seeds' experiments on this machine and put the "
		   "library beside\n"
		   "today's alternatives.  Every figure is shown next to its "
		   "baseline as a ratio\n"
		   "measured in the same run.  Without a subcommand, runs them "
		   "all in quick form\n"
		   "(about two minutes); 'all' runs them all in full.\n"
		   "\n"
		   "Subcommands:\n");
	for (i = 0; i < NSUB; i++)
		fprintf(f, "  %-11s %s\n", subcommands[i].name,
			subcommands[i].help);
	fprintf(f,
		"  %-11s every subcommand above\n"
		"\n"
		"Options:\n"
		"  -q, --quick         shorter runs (the default without a "
		"subcommand)\n"
		"      --csv           CSV: one header line, one row per "
		"measurement\n"
		"      --json          one JSON document\n"
		"      --plot DIR      write charts (PNG, or SVG) with gnuplot "
		"into DIR\n"
		"      --compare BASE.json  after the run, every figure it "
		"shares with a saved\n"
		"                      --json run as new/old, * beyond the "
		"trial spreads;\n"
		"                      without a subcommand, runs what BASE "
		"ran\n"
		"      --with NEW.json compare two saved runs, no run\n"
		"      --size BYTES    align: size of the cached file "
		"(default 256M, 16M quick)\n"
		"      --trials N      trials per measurement, 1..64 (median "
		"reported)\n"
		"      --time SECONDS  smallwrite: time per way (default 10, 2 "
		"quick)\n"
		"      --cpu N         pin to CPU N (default: the one we start "
		"on)\n"
		"      --no-pin        do not pin\n"
		"      --no-glibc-tuned  skip glibc under GLIBC_TUNABLES (a "
		"re-executed child)\n"
		"      --glibc DIR     run under the glibc in DIR (its loader "
		"and libc.so.6,\n"
		"                      e.g. a later release's unpacked) "
		"instead of the system's\n"
		"      --processes N   processes per glibc configuration "
		"whose median ratio\n"
		"                      the sizes bars take, 1..8 (default "
		"3)\n"
		"      --apps LIST     apps: only these programs, "
		"comma-separated\n"
		"      --preload PATH  apps: the object to preload (default: "
		"the one built or\n"
		"                      installed with this uaccess-bench)\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n"
		"\n"
		"Sizes take K, M, G suffixes (powers of 1024).  Progress goes "
		"to stderr when\n"
		"it is a terminal.  Exit status: 0 measured (a missed speed "
		"bar is a result,\n"
		"not an error), 1 a measurement failed, 2 bad usage.\n",
		"all");
}

void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("uaccess-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'uaccess-bench --help'.\n", stderr);
	exit(2);
}

static long
parse_long(const char *opt_name, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_error("%s: invalid value '%s' (expected an integer "
			    "%ld..%ld)",
			    opt_name, s, lo, hi);
	return v;
}

static double
parse_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.05 && v <= 3600))
		usage_error("--time: invalid value '%s' (expected seconds, "
			    "0.05..3600)",
			    s);
	return v;
}

enum {
	OPT_CSV = 256,
	OPT_JSON,
	OPT_PLOT,
	OPT_SIZE,
	OPT_TRIALS,
	OPT_PROCESSES,
	OPT_TIME,
	OPT_CPU,
	OPT_NO_PIN,
	OPT_NO_GLIBC_TUNED,
	OPT_APPS,
	OPT_PRELOAD,
	OPT_COMPARE,
	OPT_WITH,
	OPT_GLIBC,
};

static const struct option long_options[] = {
    {"quick", no_argument, NULL, 'q'},
    {"csv", no_argument, NULL, OPT_CSV},
    {"json", no_argument, NULL, OPT_JSON},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"size", required_argument, NULL, OPT_SIZE},
    {"trials", required_argument, NULL, OPT_TRIALS},
    {"processes", required_argument, NULL, OPT_PROCESSES},
    {"time", required_argument, NULL, OPT_TIME},
    {"cpu", required_argument, NULL, OPT_CPU},
    {"no-pin", no_argument, NULL, OPT_NO_PIN},
    {"no-glibc-tuned", no_argument, NULL, OPT_NO_GLIBC_TUNED},
    {"apps", required_argument, NULL, OPT_APPS},
    {"preload", required_argument, NULL, OPT_PRELOAD},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"with", required_argument, NULL, OPT_WITH},
    {"glibc", required_argument, NULL, OPT_GLIBC},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* Speed probes further apart than this fraction: the host's speed changed */
#define SPEED_CHANGE 0.10
/* Samples per speed probe, the fastest taken */
#define PROBE_SAMPLES 5

/*
 * The host's speed: glibc's memcpy of 8 KiB in L1, the fastest of five
 * samples, in GB/s.  A shared machine has slow spells that last minutes
 * and do not slow every copy alike, so that ratios move with them (on a
 * Zen 5 guest, the 8 KiB grid's worst/best read 0.63-0.70x in them and
 * 0.84x outside): each subcommand is probed before and after it runs.
 */
static double
speed_probe(void)
{
	const struct contender *cs[] = {&c_glibc};
	struct req r = {.op = REQ_SWEEP, .size = 8192, .ws = 8192};
	double v[1][MEASURE_MAX_TRIALS], best = INFINITY;
	int i;

	measure_samples(cs, 1, &r, PROBE_SAMPLES, v);
	for (i = 0; i < PROBE_SAMPLES; i++)
		best = fmin(best, v[0][i]);
	return 8192 / best;
}

static void
print_header(double probe)
{
	const struct ua_cpu *cpu = ua_cpu();
	char a[24], b[24], c[24];

	if (opt.format != FMT_TEXT)
		return;
	printf("uaccess-bench %s (%s run)\n", UA_VERSION,
	       opt.quick ? "quick" : "full");
	printf("CPU: %s", machine.cpu_model);
	if (cpu->vendor[0])
		printf(" (%s family %u model %u)", cpu->vendor, cpu->family,
		       cpu->model);
	printf("\ncaches: L1d %s, L2 %s, LLC %s", fmt_size(machine.l1d, a),
	       fmt_size(machine.l2, b), fmt_size(machine.llc_reported, c));
	if (machine.llc != machine.llc_reported)
		printf(" reported, %s as one core's reads find it",
		       fmt_size(machine.llc, c));
	printf("; glibc %s", machine.glibc);
	if (bench_glibc_loader()) /* --glibc */
		printf(" (under %s)", bench_glibc_loader());
	printf("; ");
	if (machine.cpu >= 0)
		printf("pinned to CPU %d\n", machine.cpu);
	else
		printf("not pinned\n");
	printf("Figures: medians of interleaved trials after warm-up, timed "
	       "in this thread's\nCPU time (netio: wall time); ratios "
	       "compare contenders measured side by side\nin this run.  "
	       "Speed probe (glibc memcpy, 8 KiB in L1): %.0f GB/s.\n",
	       probe);
}

int
main(int argc, char **argv)
{
	int run[NSUB] = {0}, any = 0, fmt_set = 0, c, i, rc = 0, nrun = 0;
	double probe, before, slowest[NSUB], fastest;
	struct sysinfo si;

	if (argc > 1 && !strcmp(argv[1], GLIBC_CHILD_ARG))
		return glibc_child_main(argc, argv);

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qhV", long_options, NULL)) !=
	       -1) {
		switch (c) {
		case 'q':
			opt.quick = 1;
			break;
		case OPT_CSV:
		case OPT_JSON:
			if (fmt_set &&
			    opt.format != (c == OPT_CSV ? FMT_CSV : FMT_JSON))
				usage_error("--csv and --json are exclusive");
			opt.format = c == OPT_CSV ? FMT_CSV : FMT_JSON;
			fmt_set = 1;
			break;
		case OPT_PLOT:
			if (!*optarg)
				usage_error("--plot: empty directory name");
			/* made now: an unusable one fails before measuring */
			if ((mkdir(optarg, 0777) && errno != EEXIST) ||
			    access(optarg, W_OK | X_OK))
				usage_error("--plot: cannot write into '%s': "
					    "%s",
					    optarg, strerror(errno));
			opt.plot_dir = optarg;
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &opt.align_size) ||
			    opt.align_size < 8192)
				usage_error(
				    "--size: invalid size '%s' (expected "
				    "at least 8K, e.g. 256M)",
				    optarg);
			if (!sysinfo(&si) &&
			    opt.align_size / si.mem_unit > si.totalram / 2)
				usage_error("--size: '%s' is more than half of "
					    "this machine's memory",
					    optarg);
			break;
		case OPT_TRIALS:
			opt.trials = (int)parse_long("--trials", optarg, 1, 64);
			break;
		case OPT_PROCESSES:
			opt.processes = (int)parse_long("--processes", optarg,
							1, BENCH_MAX_PROCESSES);
			break;
		case OPT_TIME:
			opt.seconds = parse_seconds(optarg);
			break;
		case OPT_CPU:
			opt.cpu = (int)parse_long("--cpu", optarg, 0, 65535);
			break;
		case OPT_NO_PIN:
			opt.no_pin = 1;
			break;
		case OPT_NO_GLIBC_TUNED:
			opt.glibc_tuned = 0;
			break;
		case OPT_APPS:
			if (apps_validate(optarg))
				usage_error("--apps: invalid list '%s' "
					    "(expected names among %s)",
					    optarg, apps_names());
			opt.apps = optarg;
			break;
		case OPT_PRELOAD:
			if (!*optarg)
				usage_error("--preload: empty path");
			if (access(optarg, R_OK))
				usage_error("--preload: cannot read '%s': %s",
					    optarg, strerror(errno));
			opt.preload = optarg;
			break;
		case OPT_COMPARE:
			if (!*optarg)
				usage_error("--compare: empty file name");
			opt.compare = optarg;
			break;
		case OPT_WITH:
			if (!*optarg)
				usage_error("--with: empty file name");
			opt.with = optarg;
			break;
		case OPT_GLIBC:
			if (!*optarg)
				usage_error("--glibc: empty directory name");
			opt.glibc = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("uaccess-bench %s\n", UA_VERSION);
			return 0;
		case ':':
			usage_error("option '%s' needs a value",
				    argv[optind - 1]);
		default:
			/* A long option: optopt is its value (a known one
			 * given "=VALUE"), or 0 */
			if (!strncmp(argv[optind - 1], "--", 2)) {
				const char *a = argv[optind - 1],
					   *eq = strchr(a, '=');

				if (optopt && eq)
					usage_error("option '%.*s' takes no "
						    "value",
						    (int)(eq - a), a);
				usage_error("unknown option '%s'", a);
			}
			usage_error("unknown option '-%c'", optopt);
		}
	}
	for (; optind < argc; optind++) {
		const char *name = argv[optind];

		if (!strcmp(name, "all")) {
			for (i = 0; i < NSUB; i++)
				run[i] = 1;
			any = 1;
			continue;
		}
		for (i = 0; i < NSUB; i++)
			if (!strcmp(name, subcommands[i].name))
				break;
		if (i == NSUB)
			usage_error("unknown subcommand '%s'", name);
		run[i] = 1;
		any = 1;
	}
	if (opt.with && !opt.compare)
		usage_error("--with goes with --compare BASE.json");
	if (opt.with && any)
		usage_error("--compare with --with compares two saved runs: "
			    "no subcommand");
	if (opt.glibc)
		bench_use_glibc(opt.glibc, argv); /* runs again under it */
	if (opt.compare)
		compare_load(); /* exits 2 if a file is not a saved run */
	if (!any && opt.compare && !opt.with) {
		/* what the base ran, as it ran it */
		opt.quick = compare_base_quick();
		for (i = 0; i < NSUB; i++)
			any |= run[i] = compare_base_ran(subcommands[i].name);
		if (!any)
			usage_error("--compare: %s holds no subcommand's "
				    "tables",
				    opt.compare);
	}
	if (!any) {
		opt.quick = 1;
		for (i = 0; i < NSUB; i++)
			run[i] = 1;
	}
	if (opt.cpu >= 0 && opt.no_pin)
		usage_error("--cpu and --no-pin are exclusive");
	if ((opt.apps || opt.preload) && !run[NSUB - 1])
		usage_error("--apps and --preload are options of the apps "
			    "subcommand");
	opt.progress = isatty(2);
	die_hook = progress_done; /* a fatal error clears the progress line */

	machine_detect();
	if (opt.with) {
		report_begin();
		compare_print();
		report_finish();
		return 0;
	}
	if (!opt.no_pin) {
		int r = pin_cpu(opt.cpu);

		if (r < 0 && opt.cpu >= 0)
			usage_error("--cpu %d: cannot pin: %s", opt.cpu,
				    strerror(-r));
	}
	machine.llc = llc_measured(machine.l2, machine.llc_reported);
	harness_sample_ns = opt.quick ? 500000 : 1000000;
	measure_init();
	/* The fault cases install their own handlers (a counting one that
	 * calls ua_handle_fault, bare round trips): in the kernel, not
	 * chained behind the library's */
	ua_keep_signals();
	if (ua_init() < 0)
		die("ua_init failed");

	report_begin();
	probe = fastest = speed_probe();
	print_header(probe);
	for (i = 0; i < NSUB; i++) {
		if (!run[i])
			continue;
		nrun++;
		before = probe;
		if (subcommands[i].run() < 0)
			rc = 1;
		arena_release();
		probe = speed_probe();
		slowest[i] = fmin(before, probe);
		fastest = fmax(fastest, probe);
		if (fabs(probe / before - 1) > SPEED_CHANGE)
			say("warning: %s: the host's speed changed while it "
			    "ran (the speed probe read %.0f GB/s before, "
			    "%.0f after): its figures mix two states of the "
			    "machine; run it again.",
			    subcommands[i].name, before, probe);
		bars_print(subcommands[i].name);
	}
	glibc_child_stop();
	for (i = 0; i < NSUB && nrun > 1; i++)
		if (run[i] && slowest[i] < (1 - SPEED_CHANGE) * fastest)
			say("warning: %s ran while the host was slow (the "
			    "speed probe read %.0f GB/s there, %.0f at best "
			    "in this run): read its figures with care.",
			    subcommands[i].name, slowest[i], fastest);
	if (opt.format == FMT_TEXT && nrun > 1)
		bars_print(NULL);
	if (opt.compare)
		compare_print();
	report_finish();
	return rc;
}
