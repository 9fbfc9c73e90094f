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

enum { I_UA, I_CFU, I_GLIBC, I_TUNED, I_PVR, I_COUNT };

struct sizes_acc {
	double worst_best, worst_cfu, pvr64;
	size_t worst_best_at, worst_cfu_at;
	double mid[16]; /* ua/memcpy at 2..32 KiB, for the geometric mean */
	int nmid;
};

static void
row(struct table *t, struct sizes_acc *acc, enum level l, size_t n)
{
	const struct contender *cs[I_COUNT];
	struct req r = {.op = REQ_SWEEP, .size = n, .ws = level_ws(l)};
	double v[I_COUNT][MEASURE_MAX_TRIALS], bestg[MEASURE_MAX_TRIALS];
	double gbs[I_COUNT], vs_glibc, vs_best, cfu_ua, vs_pvr;
	int nc = 0, i, k, trials, tuned = 0;
	char buf[24];

	r.cold = l == LVL_DRAM;
	cs[nc++] = &c_ua_memcpy;
	cs[nc++] = &c_ua_from_user;
	cs[nc++] = &c_glibc;
	if (glibc_tuned()) {
		cs[nc++] = glibc_tuned();
		tuned = 1;
	}
	cs[nc++] = &c_pvr;
	progress("sizes: %s %s", level_name(l), fmt_size(n, buf));
	trials = bench_trials(7, 11);
	measure_samples(cs, nc, &r, trials, v);
	if (!tuned) {
		memcpy(v[I_PVR], v[I_TUNED], sizeof(v[I_PVR]));
		for (k = 0; k < trials; k++)
			v[I_TUNED][k] = NAN;
	}
	/* Ratios per trial, the contenders having run back to back */
	for (k = 0; k < trials; k++)
		bestg[k] = tuned && v[I_TUNED][k] < v[I_GLIBC][k]
			       ? v[I_TUNED][k]
			       : v[I_GLIBC][k];
	vs_glibc = median_ratio(v[I_GLIBC], v[I_UA], trials);
	vs_best = median_ratio(bestg, v[I_UA], trials);
	cfu_ua = median_ratio(v[I_UA], v[I_CFU], trials);
	vs_pvr = median_ratio(v[I_PVR], v[I_CFU], trials);
	for (i = 0; i < I_COUNT; i++)
		gbs[i] = (double)n / median(v[i], trials);

	table_row(t);
	table_str(t, "%s", level_name(l));
	table_str(t, "%s", fmt_size(n, buf));
	for (i = 0; i < I_COUNT; i++)
		table_num(t, gbs[i]);
	table_num(t, vs_glibc);
	table_num(t, vs_best);
	table_num(t, cfu_ua);
	table_num(t, vs_pvr);

	if (n >= 16 && n <= ((size_t)64 << 20) &&
	    !(vs_best >= acc->worst_best)) {
		acc->worst_best = vs_best;
		acc->worst_best_at = n;
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
	table_col(t, "copy_from_user", "GB/s", 2);
	table_col(t, "memcpy", "GB/s", 2);
	table_col(t, "memcpy(tuned)", "GB/s", 2);
	table_col(t, "process_vm_readv", "GB/s", 2);
	table_col(t, "ua/memcpy", "x", 2);
	table_col(t, "ua/best-glibc", "x", 2);
	table_col(t, "cfu/ua", "x", 2);
	table_col(t, "cfu-vs-pvr", "x", 1);
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
	table_note(t, "cfu-vs-pvr: how many times faster copy_from_user is "
		      "than process_vm_readv on this process.");
	table_note(t, "Ratios: the median of the ratios of each trial, whose "
		      "contenders ran back to back; GB/s: each contender's "
		      "median.");
}

static void
random_small(void)
{
	const struct contender *cs[3] = {&c_ua_memcpy, &c_glibc, NULL};
	struct req r = {.op = REQ_RANDOM, .ws = level_ws(LVL_L2), .seed = 42};
	double v[3][MEASURE_MAX_TRIALS], vs[3];
	struct table *t;
	int nc = 2, i, trials = bench_trials(7, 11);

	if (glibc_tuned())
		cs[nc++] = glibc_tuned();
	progress("sizes: random small copies");
	measure_samples(cs, nc, &r, trials, v);
	for (i = 0; i < nc; i++)
		vs[i] = median_ratio(v[1], v[i], trials);
	t = table_new("sizes", "random",
		      "random small copies: 50% 1-32 B, 35% 33-128 B, 12% "
		      "129-512 B, 3% to 4 KiB; random alignments");
	table_key(t, "contender");
	table_col(t, "time/copy", "ns", 2);
	table_col(t, "vs memcpy", "x", 2);
	for (i = 0; i < nc; i++) {
		table_row(t);
		table_str(t, "%s", cs[i]->name);
		table_num(t, median(v[i], trials));
		table_num(t, vs[i]);
	}
	table_note(t,
		   "4096 copies at random offsets in a %zu KiB working set "
		   "per buffer; vs memcpy > 1: faster than glibc (median of "
		   "the per-trial ratios).",
		   level_ws(LVL_L2) >> 10);
	table_end(t);
	bar("sizes", "random small copies: ua_memcpy / memcpy", vs[0], 1.0, 0,
	    "glibc as shipped");
	if (nc == 3)
		bar("sizes", "random small copies: ua_memcpy / memcpy(tuned)",
		    median_ratio(v[2], v[0], trials), 1.0, 0,
		    "glibc with its tunable");
}

int
cmd_sizes(void)
{
	struct sizes_acc acc = {
	    .worst_best = NAN, .worst_cfu = NAN, .pvr64 = NAN};
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
		table_plot(t, "sizes", 1, 1, "GB/s",
			   "uaccess-bench sizes: copy throughput by size "
			   "(cache level follows size)");
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
			table_plot(t, file, 1, 1, "GB/s", title);
			table_end(t);
		}
	}
	random_small();

	snprintf(detail, sizeof(detail), "worst at %s",
		 fmt_size(acc.worst_best_at, a));
	bar("sizes", "ua_memcpy / best glibc, every size 16 B..64 MiB (min)",
	    acc.worst_best, 0.95, 0, detail);
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
