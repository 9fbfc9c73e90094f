/* SPDX-License-Identifier: MIT */
/*
 * uaccess-tune: measure where this machine's copy strategies cross over and
 * write the profile the library reads at init; --show prints every value in
 * force and where it came from.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cpu.h"
#include "dispatch.h"
#include "page.h"
#include "policy.h"
#include "profile.h"
#include "routine.h"

static const char *const source_names[] = {"default", "profile", "environment"};

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: uaccess-tune [OPTION]...\n"
		"Measure this machine's copy crossovers (under 30 s) and write "
		"the\n"
		"profile that libuaccess reads at init.\n"
		"\n"
		"  -o, --output FILE  write the profile to FILE (default: the "
		"first\n"
		"                     path below that the library would read)\n"
		"  -n, --dry-run      measure and print the profile, write "
		"nothing\n"
		"  -s, --show         print every value in force and where it "
		"came from\n"
		"  -v, --verbose      print the measurements\n"
		"  -h, --help         print this help\n"
		"  -V, --version      print the version\n"
		"\n"
		"The library reads $UACCESS_PROFILE if set, else\n"
		"$XDG_CONFIG_HOME/uaccess/profile (~/.config/uaccess/profile), "
		"else\n"
		"%s.  UACCESS_TUNABLES=name=value:... overrides it;\n"
		"UACCESS_DISABLE=name,... turns strategies off.\n",
		UA_SYSCONF_PROFILE);
}

/* ---- --show ---- */

static void
print_value(FILE *f, int t, const struct ua_setting *s)
{
	if (t < UA_T_FIRST_NUMBER)
		fprintf(f, "%s", s->strategy ? s->strategy->name : "");
	else if (s->num == SIZE_MAX)
		fprintf(f, "max");
	else if (s->num && !(s->num & ((1u << 20) - 1)))
		fprintf(f, "%zuM", s->num >> 20);
	else if (s->num && !(s->num & 1023))
		fprintf(f, "%zuK", s->num >> 10);
	else
		fprintf(f, "%zu", s->num);
}

static int
show(void)
{
	const struct ua_policy *p = ua_policy();
	const struct ua_cpu *cpu = ua_cpu();
	const struct ua_strategy *all;
	const char *prof = ua_profile_in_use();
	const char *env;
	char id[64];
	size_t n, i;
	unsigned b;

	ua_cpu_id(id, sizeof(id), cpu);
	printf("cpu: %s stepping %u\nfeatures:", id, cpu->stepping);
	for (b = 0; b < 64; b++)
		if (ua_arch_feature_name(b) && (cpu->features >> b & 1))
			printf(" %s", ua_arch_feature_name(b));
	printf("\ncaches: L1d %zu KiB, L2 %zu KiB, L3 %zu KiB\n",
	       cpu->l1d >> 10, cpu->l2 >> 10, cpu->l3 >> 10);
	printf("profile: %s\n", prof ? prof : "none");
	env = getenv("UACCESS_TUNABLES");
	printf("UACCESS_TUNABLES: %s\n", env ? env : "(unset)");
	env = getenv("UACCESS_DISABLE");
	printf("UACCESS_DISABLE: %s\n", env ? env : "(unset)");
	printf("strategies:");
	all = ua_strategies(&n);
	for (i = 0; i < n; i++)
		printf(" %s%s", all[i].name,
		       ua_strategy_usable(&all[i])      ? ""
		       : ua_strategy_supported(&all[i]) ? "(disabled)"
							: "(unsupported)");
	printf("\n\n");
	for (i = 0; i < UA_NTUNABLES; i++) {
		const struct ua_setting *s = &p->t[i];

		/* Unset: no forced strategy; a class's own when misaligned */
		if (i < UA_T_FIRST_NUMBER && !s->strategy)
			continue;
		printf("%s=", ua_tunables[i].name);
		print_value(stdout, (int)i, s);
		printf("\t(%s)\t# %s\n", source_names[s->source],
		       ua_tunables[i].doc);
	}
	printf("\nin force: copy of 1 B: %s, 4 KiB: %s, 64 KiB: %s, 1 MiB: %s, "
	       "64 MiB: %s\n",
	       ua_copy_strategy(1), ua_copy_strategy(4096),
	       ua_copy_strategy(65536), ua_copy_strategy(1 << 20),
	       ua_copy_strategy(64 << 20));
	return 0;
}

/* ---- Measuring ---- */

static int verbose;
static unsigned char *bsrc, *bdst;
static size_t bsize, l2, llc;

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define TRIALS 11
#define MAXCAND 16

/* Where measure() finds the data: by size, or the source streamed */
static int stream_src;

/*
 * ns per call of each candidate on the same buffers, trials interleaved,
 * median.  clear: call the clear routines.  Beyond half the L2, or with
 * stream_src, the copies walk a window as large as a share of the LLC (or
 * beyond it); with stream_src only the source walks, into one destination
 * (seed 000: a file read in pieces into one buffer).
 */
static void
measure(const struct ua_strategy **c, int nc, int clear, size_t n, size_t doff,
	size_t soff, double *ret)
{
	double t[MAXCAND][TRIALS];
	long reps = (long)(150000.0 / (20.0 + (double)n / 16.0)), r;
	size_t window = 0, dstep = stream_src ? 0 : 1;
	int i, k;

	if (reps < 1)
		reps = 1;
	if (n >= l2 / 2 || stream_src)
		window = 2 * n <= llc / 4 ? llc / 4 : bsize - 8192;
	if (window > bsize - 8192)
		window = bsize - 8192;
	for (i = 0; i < nc; i++) /* warm up */
		clear ? c[i]->clear(bdst + doff, NULL, n, UA_NO_USER)
		      : c[i]->copy(bdst + doff, bsrc + soff, n, UA_NO_USER);
	for (k = 0; k < TRIALS; k++)
		for (i = 0; i < nc; i++) {
			double t0 = now_ns();
			size_t off = 0;

			/* Beyond the L2, walk a window as large as a share of
			 * the LLC (or beyond it): data comes from where it
			 * would. */
			for (r = 0; r < reps; r++) {
				if (clear)
					c[i]->clear(bdst + doff + off, NULL, n,
						    UA_NO_USER);
				else
					c[i]->copy(bdst + doff + off * dstep,
						   bsrc + soff + off, n,
						   UA_NO_USER);
				if (window) {
					off += n;
					if (off + n > window)
						off = 0;
				}
			}
			t[i][k] = (now_ns() - t0) / (double)reps;
		}
	for (i = 0; i < nc; i++) {
		qsort(t[i], TRIALS, sizeof(double), cmp_double);
		ret[i] = t[i][TRIALS / 2];
	}
	if (verbose) {
		printf("  %s %9zu:", clear ? "clear" : "copy ", n);
		for (i = 0; i < nc; i++)
			printf(" %s %.1f GB/s", c[i]->name, (double)n / ret[i]);
		printf("\n");
	}
}

static int
argmin(const double *v, int n)
{
	int i, best = 0;

	for (i = 1; i < n; i++)
		if (v[i] < v[best])
			best = i;
	return best;
}

#define DOFF 512 /* (dst - src) mod 4096: away from 4 KiB aliasing */
#define NGRID 24

/* Between two grid sizes, try the geometric midpoint once */
static size_t
refine(const struct ua_strategy **c, size_t lo, size_t hi, int old, int new)
{
	const struct ua_strategy *pair[2] = {c[old], c[new]};
	size_t mid =
	    ((size_t)1 << ((__builtin_ctzl(lo) + __builtin_ctzl(hi)) / 2));
	double t[2];

	if (mid <= lo || mid >= hi)
		return hi;
	measure(pair, 2, 0, mid, DOFF, 0, t);
	return t[1] < t[0] ? mid : hi;
}

struct result {
	const struct ua_strategy *s[UA_NTUNABLES];
	size_t num[UA_NTUNABLES];
	int set[UA_NTUNABLES];
};

static void
result_strategy(struct result *r, int t, const struct ua_strategy *s)
{
	r->s[t] = s;
	r->set[t] = 1;
}

static void
result_num(struct result *r, int t, size_t v)
{
	r->num[t] = v;
	r->set[t] = 1;
}

/*
 * A switch of strategy must pay for itself: about 5% on three grid sizes.
 * String instructions carry a small handicap: they are the ones with
 * pathological alignments.
 */
#define SWITCH_COST 0.15
#define STRING_BIAS 1.03

/*
 * Split the grid into at most three runs (medium, large, huge), one
 * strategy each, minimising the sum of log times plus SWITCH_COST per
 * switch: a small dynamic programme.
 */
static void
tune_copy(struct result *res, size_t llc)
{
	const struct ua_strategy *all, *c[MAXCAND];
	static const size_t smalls[] = {8,   24,  40,  64,  100,
					160, 250, 600, 1000};
	static double best[NGRID + 1][3][MAXCAND];
	static int from[NGRID + 1][3][MAXCAND];
	double tsum[MAXCAND] = {0}, t[MAXCAND], lg[NGRID][MAXCAND];
	size_t count, i, top = bsize / 2, nstart[3];
	int nc = 0, k, j, small, seg, m = 0, chosen[NGRID], bestk = 0,
	    bestseg = 0;
	int runs[3], starts[3], nr = 0, r;
	size_t gn[NGRID];

	all = ua_strategies(&count);
	for (i = 0; i < count && nc < MAXCAND; i++)
		if (ua_strategy_usable(&all[i]))
			c[nc++] = &all[i];
	/* Small sizes: time per byte summed over typical sizes, cached only */
	for (i = 0; i < sizeof(smalls) / sizeof(smalls[0]); i++) {
		measure(c, nc, 0, smalls[i], DOFF + (i * 13) % 64, (i * 7) % 64,
			t);
		for (k = 0; k < nc; k++)
			tsum[k] +=
			    c[k]->nontemporal ? 1e9 : t[k] / (double)smalls[i];
	}
	small = argmin(tsum, nc);
	result_strategy(res, UA_T_SMALL, c[small]);

	/* The grid: 1 KiB to twice the last-level cache */
	for (i = 1024; i <= top && m < NGRID; i *= 2) {
		gn[m] = i;
		measure(c, nc, 0, i, DOFF, 0, t);
		for (k = 0; k < nc; k++) {
			double v = t[k] * (c[k]->string ? STRING_BIAS : 1.0);

			/* Streaming stores only where the data outgrows the LLC
			 */
			if (c[k]->nontemporal && i < llc / 2)
				v = 1e18;
			lg[m][k] = log(v);
		}
		m++;
		if (i >= 2 * llc)
			break;
	}
	/* best[i][s][k]: grid points 0..i-1 covered by s+1 runs, the last k */
	for (seg = 0; seg < 3; seg++)
		for (k = 0; k < nc; k++)
			best[0][seg][k] = seg == 0 ? 0 : 1e30;
	for (i = 1; i <= (size_t)m; i++)
		for (seg = 0; seg < 3; seg++)
			for (k = 0; k < nc; k++) {
				double v = best[i - 1][seg][k];
				int f = k;

				if (seg > 0 && i > 1)
					for (j = 0; j < nc; j++)
						if (j != k &&
						    best[i - 1][seg - 1][j] +
							    SWITCH_COST <
							v) {
							v = best[i - 1][seg - 1]
								[j] +
							    SWITCH_COST;
							f = j;
						}
				best[i][seg][k] = v + lg[i - 1][k];
				from[i][seg][k] = f;
			}
	for (seg = 0; seg < 3; seg++)
		for (k = 0; k < nc; k++)
			if (best[m][seg][k] < best[m][bestseg][bestk]) {
				bestseg = seg;
				bestk = k;
			}
	for (i = (size_t)m, seg = bestseg, k = bestk; i > 0; i--) {
		int f = from[i][seg][k];

		chosen[i - 1] = k;
		if (f != k)
			seg--;
		k = f;
	}
	/* A run of one grid size is noise until shown otherwise: merge it */
	for (i = 0; i < (size_t)m; i++) {
		int left = i > 0 ? chosen[i - 1] : -1,
		    right = i + 1 < (size_t)m ? chosen[i + 1] : -1;

		if (chosen[i] == left || chosen[i] == right ||
		    (left < 0 && right < 0))
			continue;
		if (left < 0 || (right >= 0 && lg[i][right] < lg[i][left]))
			chosen[i] = right;
		else
			chosen[i] = left;
	}
	for (i = 0; i < (size_t)m; i++)
		if (i == 0 || chosen[i] != chosen[i - 1]) {
			runs[nr] = chosen[i];
			starts[nr] = (int)i;
			nr++;
		}
	/* Where each run starts: refined between its grid neighbours */
	for (r = 0; r < nr; r++)
		nstart[r] = r == 0 ? 0
				   : refine(c, gn[starts[r] - 1], gn[starts[r]],
					    runs[r - 1], runs[r]);
	/* The last run is huge, the one before large, the one before medium;
	 * a first run that is the small strategy continues the small class. */
	if (nr == 3 && runs[0] == small) {
		runs[0] = runs[1];
		nstart[0] = nstart[1];
	}
	if (nr == 2 && runs[0] != small) {
		runs[2] = runs[1];
		nstart[2] = nstart[1];
		runs[1] = runs[0];
		nstart[1] = 1024;
		nr = 3;
	}
	r = nr - 1;
	result_strategy(res, UA_T_HUGE, c[runs[r]]);
	result_num(res, UA_T_HUGE_MIN, nstart[r] ? nstart[r] : 1024);
	r = nr >= 2 ? nr - 2 : nr - 1;
	result_strategy(res, UA_T_LARGE, c[runs[r]]);
	result_num(res, UA_T_LARGE_MIN,
		   nr >= 2 ? (nstart[r] ? nstart[r] : 1024)
			   : res->num[UA_T_HUGE_MIN]);
	if (nr == 3 && runs[0] != runs[1]) {
		result_strategy(res, UA_T_MEDIUM, c[runs[0]]);
		result_num(res, UA_T_MEDIUM_MIN, 1024);
	} else {
		result_strategy(res, UA_T_MEDIUM, res->s[UA_T_LARGE]);
		result_num(res, UA_T_MEDIUM_MIN, res->num[UA_T_LARGE_MIN]);
	}
	/* Nothing differs from the small class below huge: no medium or large
	 */
	if (res->s[UA_T_LARGE] == c[small] && res->s[UA_T_MEDIUM] == c[small])
		res->num[UA_T_MEDIUM_MIN] = res->num[UA_T_LARGE_MIN] =
		    res->num[UA_T_HUGE_MIN];
	if (verbose)
		for (r = 0; r < nr; r++)
			printf("  run %d: %s from %zu\n", r, c[runs[r]]->name,
			       nstart[r]);
}

/* The sizes a class's misaligned copies are measured at: two inside it */
static void
class_sizes(const struct result *res, int t, size_t ret[2])
{
	size_t lo = 1024, hi = (size_t)1 << 30;

	if (t >= UA_T_MEDIUM)
		lo = res->num[UA_T_MEDIUM_MIN + (t - UA_T_MEDIUM)];
	if (t < UA_T_HUGE)
		hi = res->num[UA_T_MEDIUM_MIN + (t - UA_T_SMALL)];
	if (lo < 1024)
		lo = 1024;
	if (hi > bsize / 4)
		hi = bsize / 4;
	ret[0] = lo * 2 <= hi ? lo * 2 : lo;
	ret[1] = hi / 2 >= ret[0] ? hi / 2 : ret[0];
	if (ret[1] > (size_t)1 << 20 && ret[0] < (size_t)1 << 20)
		ret[1] = (size_t)1 << 20;
}

/*
 * Seed 000, per class: the strategy for copies whose source and destination
 * are not equally aligned.  Every cached strategy is timed at two sizes of
 * the class, at two relative misalignments, with the data where the size
 * puts it and with the source streamed from beyond the L2 (a file read in
 * pieces); the sum of log times decides.  A class whose own strategy is
 * within 5% keeps it.  rep_align_mask is 63 if any class switches, else 0.
 */
static void
tune_misaligned(struct result *res)
{
	const struct ua_strategy *all, *c[MAXCAND];
	static const size_t rel[] = {1, 33};
	size_t count, i, sizes[2];
	int nc = 0, t, k, any = 0;

	all = ua_strategies(&count);
	for (i = 0; i < count && nc < MAXCAND; i++)
		if (ua_strategy_usable(&all[i]) && !all[i].nontemporal)
			c[nc++] = &all[i];
	for (t = UA_T_SMALL; t <= UA_T_HUGE; t++) {
		double score[MAXCAND] = {0}, tt[MAXCAND];
		int own = -1, best;

		if (t > UA_T_SMALL &&
		    res->num[UA_T_MEDIUM_MIN + (t - UA_T_MEDIUM)] >=
			(t == UA_T_HUGE
			     ? SIZE_MAX
			     : res->num[UA_T_MEDIUM_MIN + (t - UA_T_SMALL)]))
			continue; /* an empty class */
		if (res->s[t]->nontemporal)
			continue;
		class_sizes(res, t, sizes);
		for (i = 0; i < 8; i++) {
			size_t n = sizes[i & 1];

			stream_src = (i >> 2) & 1;
			if (stream_src && n >= l2 / 2)
				continue; /* already beyond the L2 */
			measure(c, nc, 0, n, DOFF + rel[(i >> 1) & 1], 0, tt);
			for (k = 0; k < nc; k++)
				score[k] += log(tt[k]);
		}
		stream_src = 0;
		for (k = 0; k < nc; k++)
			if (c[k] == res->s[t])
				own = k;
		best = argmin(score, nc);
		if (verbose)
			printf("  misaligned %s class (%zu, %zu): best %s, "
			       "%s %.2fx slower\n",
			       ua_tunables[t].name, sizes[0], sizes[1],
			       c[best]->name, res->s[t]->name,
			       own < 0 ? 0
				       : exp((score[own] - score[best]) / 6));
		if (own >= 0 && score[own] - score[best] < 6 * log(1.05))
			continue;
		result_strategy(res, UA_T_SMALL_MISALIGNED + (t - UA_T_SMALL),
				c[best]);
		any = 1;
	}
	result_num(res, UA_T_REP_ALIGN_MASK, any ? 63 : 0);
	result_strategy(res, UA_T_REP_MISALIGNED,
			res->s[UA_T_SMALL]->string ? ua_strategy_find("sse2")
						   : res->s[UA_T_SMALL]);
}

/*
 * 64-byte moves in the entries (x86-64 with AVX-512): ua_memcpy itself
 * timed with inline_wide 0 and 1 over the sizes it changes.
 */
static void
tune_inline_wide(struct result *res)
{
	static const size_t sizes[] = {80, 128, 200, 256, 400, 512, 700, 1000};
	struct ua_policy p, before = *ua_policy();
	double t[2][TRIALS], score[2] = {0, 0};
	size_t i;
	int w, k;

	if (!res->s[UA_T_SMALL]->memcpy_inline_wide)
		return;
	ua_policy_defaults(&p);
	p.t[UA_T_SMALL].strategy = res->s[UA_T_SMALL];
	p.t[UA_T_MEDIUM_MIN].num = res->num[UA_T_MEDIUM_MIN];
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		long reps = (long)(400000.0 / (20.0 + (double)n / 16.0)), r;

		for (k = 0; k < TRIALS; k++)
			for (w = 0; w < 2; w++) {
				void *(*volatile fn)(void *, const void *,
						     size_t) = ua_memcpy;
				double t0;

				p.t[UA_T_INLINE_WIDE].num = (size_t)w;
				ua_dispatch_apply(&p);
				fn(bdst + DOFF, bsrc, n);
				t0 = now_ns();
				for (r = 0; r < reps; r++)
					fn(bdst + DOFF + (r & 7) * 8,
					   bsrc + (r & 3) * 16, n);
				t[w][k] = now_ns() - t0;
			}
		for (w = 0; w < 2; w++) {
			qsort(t[w], TRIALS, sizeof(double), cmp_double);
			score[w] += log(t[w][TRIALS / 2]);
		}
	}
	ua_dispatch_apply(&before);
	if (verbose)
		printf(
		    "  inline: 64-byte moves %.2fx the time of 32-byte ones\n",
		    exp((score[1] - score[0]) / 8));
	result_num(res, UA_T_INLINE_WIDE, score[1] < score[0] - 8 * log(1.02));
}

static void
tune_clear(struct result *res, size_t llc)
{
	const struct ua_strategy *c[2];
	size_t n, prev = 0;
	int wins_from = -1;

	c[0] = res->s[UA_T_SMALL];
	c[1] = ua_strategy_find("erms");
	result_strategy(res, UA_T_CLEAR_SMALL, c[0]);
	if (!c[1] || !ua_strategy_usable(c[1]) || c[1] == c[0]) {
		result_strategy(res, UA_T_CLEAR_LARGE, c[0]);
		result_num(res, UA_T_CLEAR_LARGE_MIN, SIZE_MAX);
		return;
	}
	/* From where rep stosb keeps winning */
	for (n = 1024; n <= bsize / 2 && n <= 2 * llc; n *= 2) {
		double t[2];

		measure(c, 2, 1, n, DOFF, 0, t);
		if (t[1] < t[0] * 0.97) {
			if (wins_from < 0)
				wins_from = (int)__builtin_ctzl(n);
		} else if (t[1] > t[0] * 1.03) {
			wins_from = -1;
		}
		prev = n;
	}
	(void)prev;
	result_strategy(res, UA_T_CLEAR_LARGE, c[1]);
	result_num(res, UA_T_CLEAR_LARGE_MIN,
		   wins_from < 0 ? SIZE_MAX : (size_t)1 << wins_from);
}

/*
 * Seed 001: where non-temporal stores start to pay.  The pattern that
 * matters is a stream of n-byte copies into a destination nobody reads
 * soon (larger than the LLC), from a small hot source.
 */
static void
tune_nocache(struct result *res, size_t llc)
{
	const struct ua_strategy *nt = NULL, *all;
	size_t count, i, n, span = llc * 2 < bsize / 2 ? llc * 2 : bsize / 2;
	size_t from = 0;

	all = ua_strategies(&count);
	for (i = 0; i < count; i++)
		if (all[i].nontemporal && ua_strategy_usable(&all[i]))
			nt = &all[i];
	if (!nt)
		return;
	result_strategy(res, UA_T_NOCACHE, nt);
	for (n = 256; n <= 256 * 1024; n *= 2) {
		const struct ua_strategy *c[2] = {res->s[UA_T_SMALL], nt};
		double t[2][TRIALS], m[2];
		int k, j;

		/* The cached strategy that would serve n */
		if (n >= res->num[UA_T_HUGE_MIN])
			c[0] = res->s[UA_T_HUGE];
		else if (n >= res->num[UA_T_LARGE_MIN])
			c[0] = res->s[UA_T_LARGE];
		else if (n >= res->num[UA_T_MEDIUM_MIN])
			c[0] = res->s[UA_T_MEDIUM];
		if (c[0]->nontemporal)
			c[0] = res->s[UA_T_SMALL];
		for (k = 0; k < TRIALS; k++)
			for (j = 0; j < 2; j++) {
				double t0 = now_ns();
				size_t off;

				for (off = 0; off + n <= span; off += n)
					c[j]->copy(bdst + off, bsrc, n,
						   UA_NO_USER);
				t[j][k] = now_ns() - t0;
			}
		for (j = 0; j < 2; j++) {
			qsort(t[j], TRIALS, sizeof(double), cmp_double);
			m[j] = t[j][TRIALS / 2];
		}
		if (verbose)
			printf("  stream %6zu B chunks: %s %.1f GB/s, %s %.1f "
			       "GB/s\n",
			       n, c[0]->name, (double)span / m[0], nt->name,
			       (double)span / m[1]);
		if (m[1] <= m[0]) {
			if (!from)
				from = n;
		} else {
			from = 0;
		}
	}
	/* Never where streaming does not win up to the largest piece */
	result_num(res, UA_T_NOCACHE_MIN, from ? from : SIZE_MAX);
}

static int
write_profile(const char *path, const char *text)
{
	char tmp[4096], dir[4096], *slash;
	FILE *f;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir) ||
	    snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* mkdir -p the directory */
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		char *p;

		*slash = 0;
		for (p = dir + 1; *p; p++)
			if (*p == '/') {
				*p = 0;
				mkdir(dir, 0755);
				*p = '/';
			}
		mkdir(dir, 0755);
	}
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		int e = -errno;

		unlink(tmp);
		return e;
	}
	return 0;
}

static void
default_path(char *buf, size_t size)
{
	const char *env = getenv("UACCESS_PROFILE");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		snprintf(buf, size, "%s", env);
	else if (xdg && *xdg == '/')
		snprintf(buf, size, "%s/uaccess/profile", xdg);
	else if (home && *home == '/')
		snprintf(buf, size, "%s/.config/uaccess/profile", home);
	else
		snprintf(buf, size, "%s", UA_SYSCONF_PROFILE);
}

static int
tune(const char *out, int dry_run)
{
	const struct ua_cpu *cpu = ua_cpu();
	struct result res;
	char text[4096], id[64], path[4096];
	double t0 = now_ns();
	size_t len = 0;
	int t, r;

	memset(&res, 0, sizeof(res));
	llc = cpu->l3 ? cpu->l3 : cpu->l2 ? cpu->l2 : (size_t)8 << 20;
	l2 = cpu->l2 ? cpu->l2 : (size_t)256 << 10;
	/* Twice the LLC of each buffer, at most 128 MiB */
	bsize = llc * 4 < ((size_t)128 << 20) ? llc * 4 : (size_t)128 << 20;
	if (bsize < ((size_t)16 << 20))
		bsize = (size_t)16 << 20;
	bsrc = mmap(NULL, bsize + 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	bdst = mmap(NULL, bsize + 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (bsrc == MAP_FAILED || bdst == MAP_FAILED) {
		fprintf(stderr, "uaccess-tune: cannot map %zu MiB: %s\n",
			bsize >> 20, strerror(errno));
		return 1;
	}
	memset(bsrc, 0x5a, bsize + 8192);
	memset(bdst, 0xa5, bsize + 8192);

	tune_copy(&res, llc);
	tune_misaligned(&res);
	tune_inline_wide(&res);
	tune_clear(&res, llc);
	result_num(&res, UA_T_NOCACHE_MIN, ua_page_size);
	tune_nocache(&res, llc);

	ua_cpu_id(id, sizeof(id), cpu);
	len +=
	    (size_t)snprintf(text + len, sizeof(text) - len,
			     "# uaccess profile, written by uaccess-tune %s\n"
			     "# Lines are name=value, as in UACCESS_TUNABLES.\n"
			     "cpu=%s\n",
			     UA_VERSION, id);
	for (t = 0; t < UA_NTUNABLES; t++) {
		FILE *mem;
		char val[64] = "";

		if (!res.set[t])
			continue;
		mem = fmemopen(val, sizeof(val), "w");
		if (mem) {
			struct ua_setting s = {.strategy = res.s[t],
					       .num = res.num[t]};

			print_value(mem, t, &s);
			fclose(mem);
		}
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%s=%s\n", ua_tunables[t].name, val);
	}
	if (verbose || dry_run)
		fputs(text, stdout);
	if (verbose)
		printf("measured in %.1f s\n", (now_ns() - t0) / 1e9);
	if (dry_run)
		return 0;
	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else
		default_path(path, sizeof(path));
	r = write_profile(path, text);
	if (r < 0) {
		fprintf(stderr, "uaccess-tune: cannot write %s: %s\n", path,
			strerror(-r));
		return 1;
	}
	printf("profile written to %s\n", path);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"show", no_argument, NULL, 's'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {0},
	};
	const char *out = NULL;
	int c, do_show = 0, dry_run = 0;

	while ((c = getopt_long(argc, argv, "o:nsvhV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'n':
			dry_run = 1;
			break;
		case 's':
			do_show = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("uaccess-tune %s\n", UA_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "uaccess-tune: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	if (ua_init() < 0) {
		fprintf(stderr, "uaccess-tune: ua_init failed\n");
		return 1;
	}
	if (do_show)
		return show();
	return tune(out, dry_run);
}
