/* SPDX-License-Identifier: MIT */
/*
 * sizes: throughput from 1 B to 256 MiB, with the cache level as an axis,
 * for ua_memcpy, ua_copy_from_user, glibc memcpy (as shipped and tuned)
 * and process_vm_readv; then random small copies.
 */
#include <math.h>
#include <string.h>

#include "bench.h"

#define MAX_SIZE ((size_t)256 << 20)

/* Parent: the library, glibc as shipped, process_vm_readv.  Child (glibc
 * under GLIBC_TUNABLES): tuned glibc and the library again. */
enum { I_UA, I_CFU, I_GLIBC, I_PVR, I_TUNED, I_UA_CHILD, I_CFU_CHILD, I_COUNT };

struct sizes_acc {
	double worst_best, worst_cfu, pvr64;
	size_t worst_best_at, worst_cfu_at;
	double worst_key; /* ua/best glibc at 256 B, 512 B and 1 KiB */
	size_t worst_key_at;
	double mid[16]; /* ua/memcpy at 2..32 KiB, for the geometric mean */
	int nmid;
	/* sizes below glibc's rep_movsb threshold where the two glibc
	 * configurations disagree beyond the trial spread */
	int checked, disagree;
	char disagree_at[160];
};

/* The consistency check's spreads are at least this: a few percent between
 * two processes is no flaw worth a warning */
#define CHECK_MIN_SPREAD 0.04

static void
row(struct table *t, struct sizes_acc *acc, enum level l, size_t n)
{
	const struct contender *cs[I_COUNT];
	struct req r = {.op = REQ_SWEEP, .size = n, .ws = level_ws(l)};
	double v[I_COUNT][MEASURE_MAX_TRIALS];
	double vs_glibc, vs_tuned, vs_best, cfu_best, cfu_ua, vs_pvr;
	double s_glibc, s_tuned, s_best, s_cfu_best;
	int nc = 0, i, trials, tuned;
	char buf[24];

	r.cold = l == LVL_DRAM;
	cs[nc++] = &c_ua_memcpy;
	cs[nc++] = &c_ua_from_user;
	cs[nc++] = &c_glibc;
	cs[nc++] = &c_pvr;
	tuned = glibc_tuned() != NULL;
	if (tuned) {
		cs[nc++] = tuned_child(CHILD_GLIBC);
		cs[nc++] = tuned_child(CHILD_UA_MEMCPY);
		cs[nc++] = tuned_child(CHILD_UA_FROM_USER);
	}
	progress("sizes: %s %s", level_name(l), fmt_size(n, buf));
	trials = bench_trials(7, 11);
	measure_samples(cs, nc, &r, trials, v);
	for (i = nc; i < I_COUNT; i++)
		for (int k = 0; k < trials; k++)
			v[i][k] = NAN;

	/* Ratios per trial, the contenders having run back to back in one
	 * process: glibc as shipped against the library in this process,
	 * tuned glibc against the library in the child. */
	vs_glibc = median_ratio(v[I_GLIBC], v[I_UA], trials);
	s_glibc = ratio_spread(v[I_GLIBC], v[I_UA], trials);
	vs_tuned = median_ratio(v[I_TUNED], v[I_UA_CHILD], trials);
	s_tuned = ratio_spread(v[I_TUNED], v[I_UA_CHILD], trials);
	vs_best = vs_glibc, s_best = s_glibc;
	if (vs_tuned < vs_best)
		vs_best = vs_tuned, s_best = s_tuned;
	cfu_best = median_ratio(v[I_GLIBC], v[I_CFU], trials);
	s_cfu_best = ratio_spread(v[I_GLIBC], v[I_CFU], trials);
	if (tuned &&
	    median_ratio(v[I_TUNED], v[I_CFU_CHILD], trials) < cfu_best) {
		cfu_best = median_ratio(v[I_TUNED], v[I_CFU_CHILD], trials);
		s_cfu_best = ratio_spread(v[I_TUNED], v[I_CFU_CHILD], trials);
	}
	cfu_ua = median_ratio(v[I_UA], v[I_CFU], trials);
	vs_pvr = median_ratio(v[I_PVR], v[I_CFU], trials);

	table_row(t);
	table_str(t, "%s", level_name(l));
	table_str(t, "%s", fmt_size(n, buf));
	for (i = 0; i < 5; i++) {
		static const int order[] = {I_UA, I_CFU, I_GLIBC, I_TUNED,
					    I_PVR};
		int c = order[i];

		table_num_s(t, (double)n / median(v[c], trials),
			    spread(v[c], trials));
	}
	table_num_s(t, vs_glibc, s_glibc);
	table_num_s(t, vs_tuned, s_tuned);
	table_num_s(t, vs_best, s_best);
	table_num_s(t, cfu_best, s_cfu_best);
	table_num_s(t, cfu_ua, ratio_spread(v[I_UA], v[I_CFU], trials));
	table_num_s(t, vs_pvr, ratio_spread(v[I_PVR], v[I_CFU], trials));

	/* Where the tunable cannot change an instruction of glibc's, the two
	 * in-process ratios must agree: else the processes differ, and a
	 * "gain" of tuned glibc is that difference. */
	if (tuned && n < glibc_rep_movsb_threshold()) {
		acc->checked++;
		if (beyond_spread(vs_glibc, fmax(s_glibc, CHECK_MIN_SPREAD),
				  vs_tuned,
				  fmax(s_tuned, CHECK_MIN_SPREAD)) == 1) {
			size_t len = strlen(acc->disagree_at);

			if (len + 32 < sizeof(acc->disagree_at))
				snprintf(acc->disagree_at + len,
					 sizeof(acc->disagree_at) - len,
					 "%s%s (%.2fx vs %.2fx)",
					 len ? ", " : "", buf, vs_glibc,
					 vs_tuned);
			acc->disagree++;
		}
	}
	if (n >= 16 && n <= ((size_t)64 << 20) &&
	    !(vs_best >= acc->worst_best)) {
		acc->worst_best = vs_best;
		acc->worst_best_at = n;
	}
	if ((n == 256 || n == 512 || n == 1024) &&
	    !(vs_best >= acc->worst_key)) {
		acc->worst_key = vs_best;
		acc->worst_key_at = n;
	}
	if (n >= 256 && !(cfu_ua >= acc->worst_cfu)) {
		acc->worst_cfu = cfu_ua;
		acc->worst_cfu_at = n;
	}
	if (n == 64 && isnan(acc->pvr64))
		acc->pvr64 = vs_pvr;
	if (n >= 2048 && n <= 32768 && acc->nmid < 16)
		acc->mid[acc->nmid++] = vs_glibc;
}

static struct table *
new_table(const char *name, const char *title)
{
	struct table *t = table_new("sizes", name, title);

	table_key(t, "level");
	table_key(t, "size");
	table_col(t, "ua_memcpy", "GB/s", 2);
	table_role(t, ROLE_LIB);
	table_col(t, "copy_from_user", "GB/s", 2);
	table_role(t, ROLE_LIB);
	table_col(t, "memcpy", "GB/s", 2);
	table_role(t, ROLE_BASE);
	table_col(t, "memcpy(tuned)", "GB/s", 2);
	table_role(t, ROLE_BASE);
	table_col(t, "process_vm_readv", "GB/s", 2);
	table_role(t, ROLE_BASE);
	table_col(t, "ua/memcpy", "x", 2);
	table_col(t, "ua/memcpy(tuned)", "x", 2);
	table_col(t, "ua/best-glibc", "x", 2);
	table_role(t, ROLE_LIB);
	table_col(t, "cfu/best-glibc", "x", 2);
	table_role(t, ROLE_LIB);
	table_col(t, "cfu/ua", "x", 2);
	table_role(t, ROLE_HIDDEN);
	table_col(t, "cfu-vs-pvr", "x", 1);
	table_role(t, ROLE_HIDDEN);
	return t;
}

static void
level_note(struct table *t)
{
	char a[24], b[24], c[24], d[24];

	table_note(t,
		   "GB/s = bytes copied / time.  Working set per buffer (src "
		   "and dst each): L1 %s, L2 %s, LLC %s, DRAM %s.",
		   fmt_size(level_ws(LVL_L1), a), fmt_size(level_ws(LVL_L2), b),
		   fmt_size(level_ws(LVL_LLC), c),
		   fmt_size(level_ws(LVL_DRAM), d));
	table_note(t,
		   "memcpy(tuned): glibc memcpy in a re-executed child with "
		   "%s.",
		   glibc_tuned() ? glibc_tuned_setting() : "(not measured)");
	if (glibc_tuned())
		table_note(t,
			   "ua/memcpy is taken in this process, "
			   "ua/memcpy(tuned) in the child, which measures the "
			   "library too; ua/best-glibc is the lower of the "
			   "two, cfu/best-glibc the same for copy_from_user.");
	table_note(t, "cfu-vs-pvr: how many times faster copy_from_user is "
		      "than process_vm_readv on this process.");
	table_note(t, "Ratios: the median of the ratios of each trial, whose "
		      "contenders ran back to back; GB/s: each contender's "
		      "median.");
}

static void
random_small(void)
{
	enum { R_UA, R_GLIBC, R_TUNED, R_UA_CHILD, R_COUNT };
	const struct contender *cs[R_COUNT] = {&c_ua_memcpy, &c_glibc};
	struct req r = {.op = REQ_RANDOM, .ws = level_ws(LVL_L2), .seed = 42};
	double v[R_COUNT][MEASURE_MAX_TRIALS], vs[R_COUNT];
	struct table *t;
	int nc = 2, i, trials = bench_trials(7, 11);

	if (glibc_tuned()) {
		cs[nc++] = tuned_child(CHILD_GLIBC);
		cs[nc++] = tuned_child(CHILD_UA_MEMCPY);
	}
	progress("sizes: random small copies");
	measure_samples(cs, nc, &r, trials, v);
	t = table_new("sizes", "random",
		      "random small copies: 50% 1-32 B, 35% 33-128 B, 12% "
		      "129-512 B, 3% to 4 KiB; random alignments");
	table_key(t, "contender");
	table_col(t, "time/copy", "ns", 2);
	table_col(t, "ua_memcpy vs it", "x", 2);
	table_plot(t, "sizes-random", PLOT_BARS, 0, 0, "ns",
		   "uaccess-bench sizes: random small copies, time per copy "
		   "(lower is faster)");
	for (i = 0; i < nc; i++) {
		/* each against the library in its own process */
		int ua = i < R_TUNED ? R_UA : R_UA_CHILD;

		vs[i] = median_ratio(v[i], v[ua], trials);
		table_row(t);
		table_str(t, "%s", cs[i]->name);
		table_num_s(t, median(v[i], trials), spread(v[i], trials));
		table_num_s(t, vs[i], ratio_spread(v[i], v[ua], trials));
	}
	table_note(t,
		   "4096 copies at random offsets in a %zu KiB working set "
		   "per buffer; ua_memcpy vs it > 1: ua_memcpy is faster "
		   "(median of the per-trial ratios, taken in one process: "
		   "memcpy(tuned) against the library in the tuned child).",
		   level_ws(LVL_L2) >> 10);
	table_end(t);
	bar("sizes", "random small copies: ua_memcpy / memcpy", vs[R_GLIBC],
	    1.05, 0, "glibc as shipped");
	if (nc == R_COUNT)
		bar("sizes", "random small copies: ua_memcpy / memcpy(tuned)",
		    vs[R_TUNED], 1.05, 0, "in the tuned child");
}

int
cmd_sizes(void)
{
	struct sizes_acc acc = {.worst_best = NAN,
				.worst_cfu = NAN,
				.pvr64 = NAN,
				.worst_key = NAN};
	struct table *t;
	char detail[160], a[24];
	size_t n;
	enum level l;

	if (opt.quick) {
		t = new_table("curve", "throughput by size, each size in the "
				       "smallest cache level that holds it");
		for (n = 1; n <= MAX_SIZE; n *= 2)
			row(t, &acc, level_for(n), n);
		level_note(t);
		table_plot(t, "sizes", PLOT_LINES, 1, PLOT_LOGX | PLOT_CACHES,
			   "GB/s",
			   "uaccess-bench sizes: copy throughput by size "
			   "(cache level follows size)");
		table_plot(t, "sizes-ratios", PLOT_LINES, 1,
			   PLOT_LOGX | PLOT_CACHES | PLOT_UNITY, "x",
			   "uaccess-bench sizes: the library over glibc "
			   "(above 1: the library is faster)");
		table_end(t);
	} else {
		for (l = LVL_L1; l < LVL_COUNT; l++) {
			char name[16], file[32], title[128];

			snprintf(name, sizeof(name), "%s", level_name(l));
			snprintf(title, sizeof(title),
				 "throughput by size, working set in %s",
				 level_name(l));
			t = new_table(name, title);
			for (n = 1; n <= MAX_SIZE; n *= 2) {
				if (l != LVL_DRAM && n > level_ws(l))
					break;
				row(t, &acc, l, n);
			}
			level_note(t);
			snprintf(file, sizeof(file), "sizes-%s", level_name(l));
			snprintf(
			    title, sizeof(title),
			    "uaccess-bench sizes: copy throughput, working "
			    "set in %s",
			    level_name(l));
			table_plot(t, file, PLOT_LINES, 1,
				   PLOT_LOGX | PLOT_CACHES, "GB/s", title);
			snprintf(file, sizeof(file), "sizes-%s-ratios",
				 level_name(l));
			table_plot(t, file, PLOT_LINES, 1,
				   PLOT_LOGX | PLOT_CACHES | PLOT_UNITY, "x",
				   "uaccess-bench sizes: the library over "
				   "glibc (above 1: the library is faster)");
			table_end(t);
		}
	}
	random_small();

	if (acc.checked) {
		if (acc.disagree)
			say("warning: sizes: below glibc's rep_movsb threshold "
			    "(%s), where its tunable changes no instruction, "
			    "glibc as shipped and tuned glibc disagree beyond "
			    "the trial spread (at least %.0f%%) at %d of %d "
			    "sizes: %s.  The two "
			    "processes differ; read ua/best-glibc there with "
			    "care.",
			    fmt_size(glibc_rep_movsb_threshold(), a),
			    CHECK_MIN_SPREAD * 100, acc.disagree, acc.checked,
			    acc.disagree_at);
		snprintf(detail, sizeof(detail), "of %d sizes below %zu B",
			 acc.checked, glibc_rep_movsb_threshold());
		bar("sizes", "glibc as shipped and tuned disagree (sizes)",
		    acc.disagree, 0, BAR_LOWER | BAR_COUNT, detail);
	}

	snprintf(detail, sizeof(detail), "worst at %s",
		 fmt_size(acc.worst_best_at, a));
	bar("sizes", "ua_memcpy / best glibc, every size 16 B..64 MiB (min)",
	    acc.worst_best, 0.95, 0, detail);
	snprintf(detail, sizeof(detail), "worst at %s",
		 fmt_size(acc.worst_key_at, a));
	bar("sizes", "ua_memcpy / best glibc at 256 B, 512 B, 1 KiB (min)",
	    acc.worst_key, 1.0, 0, detail);
	bar("sizes", "ua_memcpy / memcpy, geometric mean 2..32 KiB",
	    geomean(acc.mid, acc.nmid), 1.3, 0, "glibc as shipped");
	snprintf(detail, sizeof(detail), "worst at %s",
		 fmt_size(acc.worst_cfu_at, a));
	bar("sizes", "copy_from_user / ua_memcpy, 256 B and up (min)",
	    acc.worst_cfu, 0.95, 0, detail);
	bar("sizes", "64 B copy_from_user vs process_vm_readv", acc.pvr64, 100,
	    0, "times faster");
	return 0;
}
