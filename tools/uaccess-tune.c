/* SPDX-License-Identifier: MIT */
/*
 * uaccess-tune: measure where this machine's copy strategies cross over and
 * write the profile the library reads at init; --show prints every value in
 * force, where it came from, and every setting that was ignored and why.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "default_policy.h"
#include "harness.h"
#include "page.h"
#include "policy.h"
#include "profile.h"
#include "routine.h"

static void
usage(FILE *f)
{
	fprintf(
	    f,
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
	    "  -s, --show         print every value in force, where it came "
	    "from,\n"
	    "                     and every setting ignored and why\n"
	    "  -v, --verbose      print the measurements\n"
	    "  -h, --help         print this help\n"
	    "  -V, --version      print the version\n"
	    "\n"
	    "The library reads $UACCESS_PROFILE if set, else\n"
	    "$XDG_CONFIG_HOME/uaccess/profile (~/.config/uaccess/profile), "
	    "else\n"
	    "%s.  UACCESS_TUNABLES=name=value:... overrides it;\n"
	    "UACCESS_DISABLE=name,... turns strategies off.\n",
	    ua_profile_system);
}

/* ---- --show ---- */

/* Every strategy of this build, space-separated */
static const char *
strategy_names(void)
{
	static char buf[256];
	const struct ua_strategy *all;
	size_t n, i, at = 0;

	all = ua_strategies(&n);
	for (i = 0; i < n; i++) {
		if (i)
			at = ua_put_str(buf, sizeof(buf), at, " ");
		at = ua_put_str(buf, sizeof(buf), at, all[i].name);
	}
	return buf;
}

/* The value of an item "name=value" as written, and its strategy if any */
static const char *
item_value(const struct ua_ignored_item *it, const struct ua_strategy **ret)
{
	const char *eq = strchr(it->text, '=');
	const char *v = eq ? eq + 1 : it->text;

	while (*v == ' ' || *v == '\t')
		v++;
	*ret = it->cut ? NULL : ua_strategy_find(v);
	return v;
}

/* Why init ignored it, in words */
static void
print_reason(const struct ua_ignored_item *it)
{
	const struct ua_strategy *s;
	const char *v = item_value(it, &s);
	char missing[128];
	unsigned b;

	switch (it->reason) {
	case UA_IGN_SYNTAX:
		printf("not name=value");
		break;
	case UA_IGN_NAME:
		printf("no tunable of that name (uaccess(7) lists them)");
		break;
	case UA_IGN_VALUE:
		if (!*v)
			printf("no value");
		else if (it->tunable >= UA_T_FIRST_FLAG)
			printf("bad value: 0 or 1");
		else if (it->tunable >= UA_T_FIRST_NUMBER)
			printf("bad value: not a size (decimal or 0x hex, "
			       "with an optional K, M or G; or max)");
		else
			printf("bad value: no strategy \"%s\" (strategies: %s)",
			       v, strategy_names());
		break;
	case UA_IGN_UNSUPPORTED:
		missing[0] = 0;
		for (b = 0; s && b < 64; b++)
			if ((s->needs & ~ua_cpu()->features) >> b & 1 &&
			    ua_arch_feature_name(b))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 " %s", ua_arch_feature_name(b));
		printf("strategy \"%s\" is not usable on this CPU (it needs%s)",
		       v, missing[0] ? missing : " what this CPU lacks");
		break;
	case UA_IGN_DISABLED:
		printf("strategy \"%s\" is turned off by UACCESS_DISABLE", v);
		break;
	case UA_IGN_NO_CLEAR:
		printf("strategy \"%s\" has no clearing routine", v);
		break;
	case UA_IGN_NO_STRATEGY:
		printf("no strategy of that name (strategies: %s)",
		       strategy_names());
		break;
	case UA_IGN_BASELINE:
		printf("the strategy every CPU runs cannot be turned off");
		break;
	default:
		printf("ignored");
		break;
	}
}

/* One item: where it was written, what it says, why it did not take */
static void
print_ignored(const struct ua_ignored *ign, const struct ua_ignored_item *it)
{
	const char *env = getenv("UACCESS_PROFILE");
	const char *profile = ign->profile ? ign->profile : "";
	char id[64];

	printf("  ");
	switch (it->reason) {
	case UA_IGN_OTHER_CPU:
		ua_cpu_id(id, sizeof(id), ua_cpu());
		printf("profile %s: measured on another CPU, \"%s%s\" (this "
		       "one is \"%s\"): none of it is used\n",
		       profile, it->text, it->cut ? "..." : "", id);
		return;
	case UA_IGN_NO_CPU:
		printf("profile %s: no cpu= line names the CPU it was measured "
		       "on: none of it is used\n",
		       profile);
		return;
	case UA_IGN_UNREADABLE:
		printf("profile %s%s%s: cannot be read: %s\n", it->text,
		       it->cut ? "..." : "",
		       env && !strcmp(env, it->text) ? " (UACCESS_PROFILE)"
						     : "",
		       it->err == EINVAL ? "not a regular file"
					 : strerror(it->err));
		return;
	case UA_IGN_TOO_LONG:
		printf("profile %s: longer than the %d bytes read: line %u and "
		       "those after it are not used\n",
		       profile, UA_PROFILE_MAX, it->line);
		return;
	}
	if (it->origin == UA_IN_PROFILE)
		printf("profile %s line %u: ", profile, it->line);
	else
		printf("%s: ", it->origin == UA_IN_DISABLE
				   ? "UACCESS_DISABLE"
				   : "UACCESS_TUNABLES");
	printf("\"%s%s\": ", it->text, it->cut ? "..." : "");
	print_reason(it);
	printf("\n");
}

static int
show(void)
{
	const struct ua_ignored *ign = ua_ignored();
	const struct ua_cpu *cpu = ua_cpu();
	const struct ua_strategy *all;
	const char *prof = ua_profile_in_use();
	const char *env;
	struct policy_item it;
	char id[64], f[256], basis[256];
	size_t n, i;
	int c, unread = 0;

	ua_cpu_id(id, sizeof(id), cpu);
	ua_cpu_features(f, sizeof(f), cpu);
	printf("cpu: %s stepping %u (%s)\nfeatures: %s\n", id, cpu->stepping,
	       cpu->name[0] ? cpu->name : "no model name", f);
	printf("caches: L1d %zu KiB, L2 %zu KiB, L3 %zu KiB\n", cpu->l1d >> 10,
	       cpu->l2 >> 10, cpu->l3 >> 10);
	ua_arch_default_policy_basis(basis, sizeof(basis), cpu);
	printf("default policy: %s\n", basis);
	for (i = 0; i < ign->count && i < UA_IGNORED_MAX; i++)
		unread += ign->item[i].reason == UA_IGN_UNREADABLE;
	if (prof)
		printf("profile: %s\n", prof);
	else if (ign->profile)
		printf("profile: none (%s is ignored: see below)\n",
		       ign->profile);
	else
		printf("profile: none%s\n",
		       unread ? " (one cannot be read: see below)" : "");
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
	printf("\n");
	if (!ign->count)
		printf("ignored: nothing\n");
	else
		printf("ignored: %u\n", ign->count);
	for (i = 0; i < ign->count && i < UA_IGNORED_MAX; i++)
		print_ignored(ign, &ign->item[i]);
	if (ign->count > UA_IGNORED_MAX)
		printf("  and %u more\n", ign->count - UA_IGNORED_MAX);
	printf("\n");
	for (c = 0; policy_next(&c, &it);)
		printf("%s=%s\t(%s)\t# %s\n", it.name, it.value, it.from,
		       it.doc);
	printf("\nin force: copy of 1 B: %s, 4 KiB: %s, 64 KiB: %s, 1 MiB: %s, "
	       "64 MiB: %s\n",
	       ua_copy_strategy(1), ua_copy_strategy(4096),
	       ua_copy_strategy(65536), ua_copy_strategy(1 << 20),
	       ua_copy_strategy(64 << 20));
	return 0;
}

/* ---- Measuring ---- */

static int verbose;
static size_t bsize, l2, llc;

#define TRIALS 11
#define MAXCAND 16

/* Where time_candidates finds the data: by size, or the source streamed */
static int stream_src;

/* Each contender's trial spread (harness.h) in the last timed() */
static double tspread[MAXCAND];

/* measure(), keeping each contender's trial spread in tspread */
static void
timed(const struct contender *const *pc, int n, const struct req *r,
      double *ret_ns)
{
	static double v[MEASURE_MAX_CONTENDERS][MEASURE_MAX_TRIALS];
	int i;

	measure_samples(pc, n, r, TRIALS, v);
	for (i = 0; i < n; i++) {
		ret_ns[i] = median(v[i], TRIALS);
		tspread[i] = spread(v[i], TRIALS);
	}
}

/*
 * Calls in a sample of about budget ns, a call of n bytes taken as 20 ns
 * and a ns per 16 bytes; at least one
 */
static uint64_t
reps_for(size_t n, double budget)
{
	double r = budget / (20.0 + (double)n / 16.0);

	return r < 1 ? 1 : (uint64_t)r;
}

/*
 * ns per call of each candidate on the same buffers, trials interleaved
 * (harness.h), median, of what as says.  Below half the L2 every
 * call copies the same bytes.  Beyond it, or with stream_src, the calls
 * walk on through a window (a share of the LLC, or beyond it when the size
 * is), each sample the next reps * n bytes of it, so that data comes from
 * where a stream of such copies would find it; with stream_src only the
 * source walks, into one destination (a file read in pieces into one
 * buffer).
 */
enum timed_as {
	AS_COPY,  /* the copy routines */
	AS_CLEAR, /* the clear routines */
	/*
	 * ua_memcpy with the strategy as the small class (the built-in
	 * policy otherwise, its small class reaching SMALL_MAX): its entry
	 * copies small sizes itself with that strategy's moves, where it has
	 * them, and a strategy without (a string one) sends every size to
	 * its routine.  Timing the routines alone, movsq won the small class
	 * on Zen 4 in three runs of three, and the entries' copies were lost
	 * with it.
	 */
	AS_SMALL
};
/* The largest of the small sizes timed */
#define SMALL_MAX 1000

static void apply_policy(const struct contender *c);

static void
time_candidates(const struct ua_strategy **c, int nc, enum timed_as as,
		size_t n, size_t doff, size_t soff, double *ret)
{
	static const char *const label[] = {"copy ", "clear", "small"};
	static struct ua_policy p[MAXCAND];
	struct ua_policy before = *ua_policy();
	struct contender cs[MAXCAND];
	const struct contender *pc[MAXCAND] = {0};
	struct req r = {.op = REQ_SWEEP,
			.size = n,
			.ws = n,
			.src_align = (uint32_t)soff,
			.dst_align = (uint32_t)doff,
			.fixed_dst = (uint32_t)stream_src,
			.reps = reps_for(n, 150000.0)};
	int i;

	if (n >= l2 / 2 || stream_src) {
		r.ws = 2 * n <= llc / 4 && llc / 4 < bsize ? llc / 4 : bsize;
		/*
		 * While the copy's two buffers fit in the LLC, one sample's
		 * worth of the window, which stays there; beyond, all of it,
		 * walked on, so that no sample finds what the last one left
		 * (a window of one sample had copies of 16-32 MiB take turns
		 * at a data set the cache half held)
		 */
		if (2 * n <= llc && r.ws / n > r.reps)
			r.ws = n * r.reps;
		r.cold = 1; /* no warm-up pass: the walk goes on */
	}
	for (i = 0; i < nc; i++) {
		cs[i] = (struct contender){
		    .name = c[i]->name,
		    .kind = as == AS_CLEAR ? CK_CLEAR : CK_STRATEGY,
		    .strategy = as == AS_CLEAR ? c[i]->clear : c[i]->copy};
		if (as == AS_SMALL) {
			ua_policy_defaults(&p[i]);
			p[i].t[UA_T_SMALL].strategy = c[i];
			if (p[i].t[UA_T_MEDIUM_MIN].num <= SMALL_MAX)
				p[i].t[UA_T_MEDIUM_MIN].num = SMALL_MAX + 1;
			if (p[i].t[UA_T_LARGE_MIN].num <= SMALL_MAX)
				p[i].t[UA_T_LARGE_MIN].num = SMALL_MAX + 1;
			cs[i] = (struct contender){.name = c[i]->name,
						   .kind = CK_MEMCPY,
						   .memcpy_fn = ua_memcpy,
						   .before = apply_policy,
						   .data = &p[i]};
		}
		pc[i] = &cs[i];
	}
	timed(pc, nc, &r, ret);
	if (as == AS_SMALL)
		ua_dispatch_apply(&before);
	if (verbose) {
		printf("  %s %9zu:", label[as], n);
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
	time_candidates(pair, 2, AS_COPY, mid, DOFF, 0, t);
	return t[1] < t[0] ? mid : hi;
}

struct result {
	const struct ua_strategy *s[UA_NTUNABLES];
	size_t num[UA_NTUNABLES];
	int set[UA_NTUNABLES];
};

/*
 * The built-in policy for this CPU (default_policy.h: glibc's choices and
 * the measured deviations), which a profile departs from only where a
 * strategy measures faster by more than the trial spreads of both (their
 * middle halves do not meet), and by DEPART at least: on a shared host
 * the timings of two strategies within a few percent swap from run to
 * run, and so did the profiles (rep movsb, movsq and streaming stores for
 * the same class, huge_min from 2 to 32 MiB, in six runs on Zen 5)
 */
static struct result prior;
#define DEPART 1.05

/* The factor to beat: spreads s_new and s_old (NAN unknown) */
static double
depart(double s_new, double s_old)
{
	double m = 1 + (s_new + s_old) / 2;

	return m > DEPART ? m : DEPART;
}

/* The index of s in c[0..nc), -1 if it is not there */
static int
index_of(const struct ua_strategy *const *c, int nc,
	 const struct ua_strategy *s)
{
	int k;

	for (k = 0; k < nc; k++)
		if (c[k] == s)
			return k;
	return -1;
}

static void
prior_load(void)
{
	struct ua_policy p;
	int t;

	ua_policy_defaults(&p);
	for (t = 0; t < UA_NTUNABLES; t++) {
		prior.s[t] = p.t[t].strategy;
		prior.num[t] = p.t[t].num;
	}
}

static int class_at(const struct result *res, size_t n);
static const struct ua_strategy *misaligned_at(const struct result *res,
					       size_t n);

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
 * String instructions carry a small handicap where the built-in policy
 * does not run them: they are the ones with pathological alignments.
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
	static const size_t smalls[] = {8,   24,  40,  64,       100,
					160, 250, 600, SMALL_MAX};
	static double best[NGRID + 1][3][MAXCAND];
	static int from[NGRID + 1][3][MAXCAND];
	double tsum[MAXCAND] = {0}, ssum[MAXCAND] = {0}, t[MAXCAND],
	       lg[NGRID][MAXCAND];
	size_t count, i, top = bsize / 2, nstart[3];
	int nc = 0, k, j, small, seg, m = 0, chosen[NGRID], bestk = 0,
	    bestseg = 0, ref;
	int runs[3], starts[3], nr = 0, r;
	size_t gn[NGRID];

	all = ua_strategies(&count);
	for (i = 0; i < count && nc < MAXCAND; i++)
		if (ua_strategy_usable(&all[i]))
			c[nc++] = &all[i];
	/* Small sizes: time per byte summed over typical sizes, cached only */
	for (i = 0; i < sizeof(smalls) / sizeof(smalls[0]); i++) {
		time_candidates(c, nc, AS_SMALL, smalls[i],
				DOFF + (i * 13) % 64, (i * 7) % 64, t);
		for (k = 0; k < nc; k++) {
			tsum[k] +=
			    c[k]->nontemporal ? 1e9 : t[k] / (double)smalls[i];
			ssum[k] += tspread[k];
		}
	}
	/* Another than the built-in one by more than the mean spreads */
	ref = index_of(c, nc, prior.s[UA_T_SMALL]);
	for (k = 0; k < nc; k++)
		if (k != ref)
			tsum[k] *= depart(ssum[k] / (double)i,
					  ssum[ref < 0 ? k : ref] / (double)i);
	small = argmin(tsum, nc);
	result_strategy(res, UA_T_SMALL, c[small]);

	/* The grid: 1 KiB to twice the last-level cache */
	for (i = 1024; i <= top && m < NGRID; i *= 2) {
		gn[m] = i;
		time_candidates(c, nc, AS_COPY, i, DOFF, 0, t);
		ref =
		    index_of(c, nc, prior.s[UA_T_SMALL + class_at(&prior, i)]);
		for (k = 0; k < nc; k++) {
			double v = t[k];

			if (k != ref)
				v *= depart(tspread[k],
					    tspread[ref < 0 ? k : ref]) *
				     (c[k]->string ? STRING_BIAS : 1.0);

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
	/*
	 * The grid starts at 1 KiB: a class found there that is the built-in
	 * policy's class at 1 KiB, which starts lower, starts where that does
	 */
	if (res->num[UA_T_MEDIUM_MIN] == 1024 &&
	    prior.num[UA_T_MEDIUM_MIN] < 1024 &&
	    res->s[UA_T_MEDIUM] ==
		prior.s[UA_T_SMALL + class_at(&prior, 1024)]) {
		size_t lo = prior.num[UA_T_MEDIUM_MIN];

		if (res->num[UA_T_LARGE_MIN] == 1024)
			res->num[UA_T_LARGE_MIN] = lo;
		res->num[UA_T_MEDIUM_MIN] = lo;
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
 * pieces); the sum of log times decides.  The built-in policy's choice for
 * those sizes (or, where it has none for both, the class's own strategy)
 * stays unless another is faster beyond the trial spreads (depart()).
 * rep_align_mask is 63, with every
 * class's choice written out, if any class runs another strategy for
 * misaligned copies than for aligned ones, else 0.
 */
static void
tune_misaligned(struct result *res)
{
	const struct ua_strategy *all, *c[MAXCAND], *chosen[UA_NCLASSES] = {0};
	static const size_t rel[] = {1, 33};
	size_t count, i, sizes[2];
	int nc = 0, t, k, any = 0;

	all = ua_strategies(&count);
	for (i = 0; i < count && nc < MAXCAND; i++)
		if (ua_strategy_usable(&all[i]) && !all[i].nontemporal)
			c[nc++] = &all[i];
	for (t = UA_T_SMALL; t <= UA_T_HUGE; t++) {
		const struct ua_strategy *was;
		double score[MAXCAND] = {0}, sp[MAXCAND] = {0}, tt[MAXCAND];
		int ref = -1, best, terms = 0;

		if (t > UA_T_SMALL &&
		    res->num[UA_T_MEDIUM_MIN + (t - UA_T_MEDIUM)] >=
			(t == UA_T_HUGE
			     ? SIZE_MAX
			     : res->num[UA_T_MEDIUM_MIN + (t - UA_T_SMALL)]))
			continue; /* an empty class */
		if (res->s[t]->nontemporal)
			continue;
		class_sizes(res, t, sizes);
		/* A class that ends below 1 KiB, the entries copy: not timed */
		if (t < UA_T_HUGE &&
		    sizes[0] >= res->num[UA_T_MEDIUM_MIN + (t - UA_T_SMALL)])
			continue;
		for (i = 0; i < 8; i++) {
			size_t n = sizes[i & 1];

			stream_src = (i >> 2) & 1;
			if (stream_src && n >= l2 / 2)
				continue; /* already beyond the L2 */
			time_candidates(c, nc, AS_COPY, n,
					DOFF + rel[(i >> 1) & 1], 0, tt);
			for (k = 0; k < nc; k++) {
				score[k] += log(tt[k]);
				sp[k] += tspread[k];
			}
			terms++;
		}
		stream_src = 0;
		was = misaligned_at(&prior, sizes[0]);
		if (was != misaligned_at(&prior, sizes[1]))
			was = res->s[t];
		for (k = 0; k < nc; k++)
			if (c[k] == was)
				ref = k;
		best = argmin(score, nc);
		if (verbose)
			printf("  misaligned %s class (%zu, %zu): best %s, "
			       "%s %.2fx slower\n",
			       ua_tunables[t].name, sizes[0], sizes[1],
			       c[best]->name, was->name,
			       ref < 0
				   ? 0
				   : exp((score[ref] - score[best]) / terms));
		chosen[t - UA_T_SMALL] =
		    ref >= 0 && score[ref] - score[best] <
				    terms * log(depart(sp[best] / terms,
						       sp[ref] / terms))
			? c[ref]
			: c[best];
		if (chosen[t - UA_T_SMALL] != res->s[t])
			any = 1;
	}
	result_num(res, UA_T_REP_ALIGN_MASK, any ? 63 : 0);
	result_strategy(res, UA_T_REP_MISALIGNED,
			res->s[UA_T_SMALL]->string ? ua_strategy_find("sse2")
						   : res->s[UA_T_SMALL]);
	for (t = UA_T_SMALL; any && t <= UA_T_HUGE; t++)
		if (chosen[t - UA_T_SMALL])
			result_strategy(
			    res, UA_T_SMALL_MISALIGNED + (t - UA_T_SMALL),
			    chosen[t - UA_T_SMALL]);
}

/* The size class of n under the thresholds in res */
static int
class_at(const struct result *res, size_t n)
{
	if (n < res->num[UA_T_MEDIUM_MIN])
		return UA_SMALL;
	if (n < res->num[UA_T_LARGE_MIN])
		return UA_MEDIUM;
	return n < res->num[UA_T_HUGE_MIN] ? UA_LARGE : UA_HUGE;
}

/* What the policy in res runs for a misaligned copy of n bytes */
static const struct ua_strategy *
misaligned_at(const struct result *res, size_t n)
{
	int c = class_at(res, n);
	const struct ua_strategy *s = res->s[UA_T_SMALL + c],
				 *alt = res->s[UA_T_REP_MISALIGNED];

	if (!res->num[UA_T_REP_ALIGN_MASK])
		return s;
	if (res->s[UA_T_SMALL_MISALIGNED + c])
		return res->s[UA_T_SMALL_MISALIGNED + c];
	return s->string && alt && !alt->string ? alt : s;
}

/*
 * A class boundary at from, at or above where the huge class starts, with
 * every size running what it ran: the classes as runs of one strategy
 * (empty classes dropped, neighbours that run the same merged), the last
 * run split at from; the runs below from fill the classes from small up,
 * the one from from is the huge class, and the classes between (if any)
 * are left empty just below it.  0 if that takes more than four classes.
 */
static int
classes_split_at(struct result *res, size_t from)
{
	const struct ua_strategy *s[UA_HUGE + 2];
	const struct ua_strategy *at = res->s[UA_T_SMALL + class_at(res, from)];
	/* The strategy of the last run (the one split at from) */
	const struct ua_strategy *last = NULL;
	size_t start[UA_HUGE + 2];
	int c, n = 0;

	for (c = UA_SMALL; c <= UA_HUGE; c++) {
		size_t lo =
		    c == UA_SMALL ? 0 : res->num[UA_T_MEDIUM_MIN + c - 1];
		size_t hi =
		    c == UA_HUGE ? SIZE_MAX : res->num[UA_T_MEDIUM_MIN + c];

		if (lo >= hi || lo >= from)
			continue;
		if (n && last == res->s[UA_T_SMALL + c])
			continue;
		start[n] = lo;
		s[n++] = last = res->s[UA_T_SMALL + c];
	}
	if (n == 0 || n > UA_HUGE)
		return 0;
	for (c = UA_SMALL; c < UA_HUGE; c++) {
		result_strategy(res, UA_T_SMALL + c, c < n ? s[c] : last);
		if (c > UA_SMALL)
			result_num(res, UA_T_MEDIUM_MIN + c - 1,
				   c < n ? start[c] : from);
	}
	result_strategy(res, UA_T_HUGE, at);
	result_num(res, UA_T_HUGE_MIN, from);
	return 1;
}

/*
 * Streaming stores for the copies whose pointers are not equally aligned:
 * where the data lies beyond the cache, a misaligned rep movsb or vector
 * loop can run well below what streaming stores reach while the aligned
 * pairs are level with them (AMD Zen 5).  From the size whose two
 * buffers outgrow the LLC (where a copy's data cannot be in it: within the
 * L3, streaming loses to rep movsb, docs/measurements/zen5.md), the
 * misaligned strategy in force is timed against the streaming one, the
 * source 1 and 33 bytes off the destination's alignment; from the smallest
 * size where streaming wins beyond the trial spreads (depart()) there and
 * at every size above (where the built-in policy streams: does not lose
 * beyond them), the huge
 * class starts, its misaligned copies stream, and every other copy keeps
 * the strategy it had.
 */
static void
tune_misaligned_stream(struct result *res)
{
	const struct ua_strategy *all, *nt = NULL, *c[2];
	struct result old;
	size_t count, i, n, from = 0;
	double t[2], score, bar;
	int k;

	all = ua_strategies(&count);
	for (i = 0; i < count; i++)
		if (ua_strategy_usable(&all[i]) && all[i].nontemporal)
			nt = &all[i];
	if (!nt || res->s[UA_T_HUGE]->nontemporal)
		return;
	for (n = 2 * l2; n <= bsize / 4; n *= 2) {
		if (2 * n <= llc)
			continue;
		c[0] = misaligned_at(res, n);
		c[1] = nt;
		time_candidates(c, 2, AS_COPY, n, DOFF + 1, 0, t);
		score = log(t[0] / t[1]);
		bar = log(depart(tspread[1], tspread[0]));
		time_candidates(c, 2, AS_COPY, n, DOFF + 33, 0, t);
		score += log(t[0] / t[1]);
		bar += log(depart(tspread[1], tspread[0]));
		if (misaligned_at(&prior, n) == nt)
			bar = -bar;
		if (verbose)
			printf("  misaligned %zu: %s %.2fx the speed of %s\n",
			       n, nt->name, exp(score / 2), c[0]->name);
		if (score > bar) {
			if (!from)
				from = n;
		} else {
			from = 0;
		}
	}
	if (!from)
		return;
	old = *res;
	if (from >= res->num[UA_T_HUGE_MIN]) {
		if (!classes_split_at(res, from)) {
			if (verbose)
				printf("  misaligned: no class left to stream "
				       "from %zu\n",
				       from);
			return;
		}
	} else {
		result_strategy(res, UA_T_HUGE,
				old.s[UA_T_SMALL + class_at(&old, from)]);
		if (res->num[UA_T_LARGE_MIN] > from)
			result_num(res, UA_T_LARGE_MIN, from);
		if (res->num[UA_T_MEDIUM_MIN] > from)
			result_num(res, UA_T_MEDIUM_MIN, from);
	}
	result_num(res, UA_T_HUGE_MIN, from);
	/* Below it, every misaligned copy runs what it ran before */
	for (k = UA_SMALL; k < UA_HUGE; k++) {
		size_t start =
		    k == UA_SMALL ? 0 : res->num[UA_T_MEDIUM_MIN + k - 1];

		result_strategy(res, UA_T_SMALL_MISALIGNED + k,
				misaligned_at(&old, start));
	}
	result_strategy(res, UA_T_HUGE_MISALIGNED, nt);
	result_num(res, UA_T_REP_ALIGN_MASK, 63);
}

/* The policy a contender of tune_inline_wide runs ua_memcpy under */
static void
apply_policy(const struct contender *c)
{
	ua_dispatch_apply(c->data);
}

/*
 * Of two settings timed over terms cases (score: the sum of the log
 * times, sp: of the trial spreads), the one to keep: 1 where the second
 * wins, the built-in one (was) unless the other wins beyond the mean
 * spreads and by 2% at least
 */
static int
second_wins(const double score[2], const double sp[2], int terms, int was)
{
	double m = 1 + (sp[0] + sp[1]) / (2.0 * terms);

	if (!(m > 1.02))
		m = 1.02;
	return was ? score[0] >= score[1] - terms * log(m)
		   : score[1] < score[0] - terms * log(m);
}

/*
 * 64-byte moves in the entries (x86-64 with AVX-512): ua_memcpy itself
 * timed with inline_wide 0 and 1 over the sizes it changes, at a few
 * alignments of source and destination.  The built-in setting stays unless
 * the other wins beyond the trial spreads and by 2% at least.
 */
static void
tune_inline_wide(struct result *res)
{
	static const size_t sizes[] = {80, 128, 200, 256, 400, 512, 700, 1000};
	struct ua_policy p[2], before = *ua_policy();
	struct contender cs[2];
	const struct contender *pc[2] = {&cs[0], &cs[1]};
	double score[2] = {0, 0}, sp[2] = {0, 0}, t[2];
	size_t i;
	int w, k, terms = 0, was = prior.num[UA_T_INLINE_WIDE] != 0;

	if (!res->s[UA_T_SMALL]->memcpy_inline_wide)
		return;
	for (w = 0; w < 2; w++) {
		ua_policy_defaults(&p[w]);
		p[w].t[UA_T_SMALL].strategy = res->s[UA_T_SMALL];
		p[w].t[UA_T_MEDIUM_MIN].num = res->num[UA_T_MEDIUM_MIN];
		p[w].t[UA_T_INLINE_WIDE].num = (size_t)w;
		cs[w] = (struct contender){.name = w ? "wide" : "narrow",
					   .kind = CK_MEMCPY,
					   .memcpy_fn = ua_memcpy,
					   .before = apply_policy,
					   .data = &p[w]};
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (k = 0; k < 4; k++) {
			struct req r = {.op = REQ_SWEEP,
					.size = sizes[i],
					.ws = sizes[i],
					.dst_align = DOFF + 8 * (uint32_t)k,
					.src_align = 16 * (uint32_t)k,
					.reps = reps_for(sizes[i], 400000.0)};

			timed(pc, 2, &r, t);
			for (w = 0; w < 2; w++) {
				score[w] += log(t[w]);
				sp[w] += tspread[w];
			}
			terms++;
		}
	ua_dispatch_apply(&before);
	if (verbose)
		printf(
		    "  inline: 64-byte moves %.2fx the time of 32-byte ones\n",
		    exp((score[1] - score[0]) / terms));
	result_num(res, UA_T_INLINE_WIDE,
		   (size_t)second_wins(score, sp, terms, was));
}

/*
 * ua_memcpy where dst is a little ahead of src modulo 4 KiB
 * (alias_forward_min): backward at every size (max, glibc's) against
 * forward at every size (0), timed as ua_memcpy copies 1 and 8 KiB under
 * the classes found, at two such distances: in L1, walking memory with
 * both buffers, and walking a source in memory into one destination (a
 * read() into a buffer).  Where none of the routines those copies run
 * has a backward loop (rep movsb, avx512vbmi: alias_backward 0), the
 * setting changes nothing there and is not timed: the built-in one
 * stays.  Else it stays unless the other wins beyond the trial spreads
 * and by 2% at least.
 */
static void
tune_alias_forward(struct result *res)
{
	static const size_t sizes[] = {1024, 8192};
	static const uint32_t ahead[] = {32, 160};
	static const char *const how[] = {"L1", "both walking memory",
					  "src walking memory"};
	const size_t val[2] = {SIZE_MAX, 0};
	struct ua_policy p[2], before = *ua_policy();
	struct contender cs[2];
	const struct contender *pc[2] = {&cs[0], &cs[1]};
	double score[2] = {0, 0}, sp[2] = {0, 0}, t[2];
	int w, k, c, terms = 12;
	int was = prior.num[UA_T_ALIAS_FORWARD_MIN] == val[1];

	for (k = 0; k < 2; k++)
		if (misaligned_at(res, sizes[k])->alias_backward ||
		    res->s[UA_T_SMALL + class_at(res, sizes[k])]
			->alias_backward)
			break;
	if (k == 2) {
		if (verbose)
			printf("  alias: 1 and 8 KiB run %s and %s, which have "
			       "no backward loop: not timed\n",
			       misaligned_at(res, sizes[0])->name,
			       misaligned_at(res, sizes[1])->name);
		result_num(res, UA_T_ALIAS_FORWARD_MIN,
			   prior.num[UA_T_ALIAS_FORWARD_MIN]);
		return;
	}
	for (w = 0; w < 2; w++) {
		ua_policy_defaults(&p[w]);
		for (k = 0; k < UA_NTUNABLES; k++)
			if (res->set[k]) {
				p[w].t[k].strategy = res->s[k];
				p[w].t[k].num = res->num[k];
			}
		p[w].t[UA_T_ALIAS_FORWARD_MIN].num = val[w];
		cs[w] = (struct contender){.name = w ? "forward" : "backward",
					   .kind = CK_MEMCPY,
					   .memcpy_fn = ua_memcpy,
					   .before = apply_policy,
					   .data = &p[w]};
	}
	/* Each size at each distance, in each of the three places */
	for (c = 0; c < terms; c++) {
		size_t n = sizes[c & 1];
		int place = c >> 2;
		struct req r = {.op = REQ_SWEEP,
				.size = n,
				.ws = place ? bsize : n,
				.dst_align = ahead[(c >> 1) & 1],
				.fixed_dst = (uint32_t)(place == 2),
				.cold = (uint32_t)(place != 0),
				.reps = reps_for(n, 400000.0)};

		timed(pc, 2, &r, t);
		if (verbose)
			printf("  alias: %zu, dst %u ahead, %s: forward %.2fx "
			       "the time of backward\n",
			       n, r.dst_align, how[place], t[1] / t[0]);
		for (w = 0; w < 2; w++) {
			score[w] += log(t[w]);
			sp[w] += tspread[w];
		}
	}
	ua_dispatch_apply(&before);
	result_num(res, UA_T_ALIAS_FORWARD_MIN,
		   val[second_wins(score, sp, terms, was)]);
}

static void
tune_clear(struct result *res, size_t llc)
{
	const struct ua_strategy *c[2];
	size_t n;
	int wins_from = -1;

	c[0] = res->s[UA_T_SMALL];
	c[1] = ua_strategy_find("erms");
	result_strategy(res, UA_T_CLEAR_SMALL, c[0]);
	if (!c[1] || !ua_strategy_usable(c[1]) || c[1] == c[0]) {
		result_strategy(res, UA_T_CLEAR_LARGE, c[0]);
		result_num(res, UA_T_CLEAR_LARGE_MIN, SIZE_MAX);
		return;
	}
	/*
	 * From where rep stosb keeps winning beyond the trial spreads
	 * (depart()), or not losing beyond them where the built-in policy
	 * runs it
	 */
	for (n = 1024; n <= bsize / 2 && n <= 2 * llc; n *= 2) {
		int was = prior.s[UA_T_CLEAR_LARGE] == c[1] &&
			  n >= prior.num[UA_T_CLEAR_LARGE_MIN];
		double t[2], m;

		time_candidates(c, 2, AS_CLEAR, n, DOFF, 0, t);
		m = depart(tspread[1], tspread[0]);
		if (was ? t[1] < t[0] * m : t[1] * m < t[0]) {
			if (wins_from < 0)
				wins_from = (int)__builtin_ctzl(n);
		} else {
			wins_from = -1;
		}
	}
	result_strategy(res, UA_T_CLEAR_LARGE, c[1]);
	result_num(res, UA_T_CLEAR_LARGE_MIN,
		   wins_from < 0 ? SIZE_MAX : (size_t)1 << wins_from);
}

/*
 * Seed 001: where non-temporal stores start to pay.  The pattern that
 * matters is a stream of n-byte copies into a destination nobody reads
 * soon, from a small hot source.  Streaming must win into a destination
 * the size of the LLC as well as into one twice that: into the first a
 * cached copy still finds part of its lines in the LLC (the bench's 32 MiB
 * does so on a core with 32 MiB), and a user's stream may be either.  As
 * everywhere, a departure from the built-in policy must win beyond the
 * trial spreads (depart()).
 */
static void
tune_nocache(struct result *res, size_t llc)
{
	const struct ua_strategy *nt = nocache_strategy();
	size_t n, spans[2], from = 0;
	int k;

	if (!nt)
		return;
	for (k = 0; k < 2; k++)
		spans[k] = llc << k < bsize / 2 ? llc << k : bsize / 2;
	result_strategy(res, UA_T_NOCACHE, nt);
	/* From a page (seed 001: small writes must not stream, whatever a
	 * long stream of them measures) */
	for (n = ua_page_size; n <= 256 * 1024; n *= 2) {
		const struct ua_strategy *c[2] = {res->s[UA_T_SMALL], nt};
		struct contender cs[2];
		const struct contender *pc[2] = {&cs[0], &cs[1]};
		int was = n >= prior.num[UA_T_NOCACHE_MIN], wins = 1, j;

		/* The cached strategy that would serve n */
		if (n >= res->num[UA_T_HUGE_MIN])
			c[0] = res->s[UA_T_HUGE];
		else if (n >= res->num[UA_T_LARGE_MIN])
			c[0] = res->s[UA_T_LARGE];
		else if (n >= res->num[UA_T_MEDIUM_MIN])
			c[0] = res->s[UA_T_MEDIUM];
		if (c[0]->nontemporal)
			c[0] = res->s[UA_T_SMALL];
		for (j = 0; j < 2; j++)
			cs[j] = (struct contender){.name = c[j]->name,
						   .kind = CK_STRATEGY,
						   .strategy = c[j]->copy};
		for (k = 0; k < 2 && (k == 0 || spans[1] > spans[0]); k++) {
			/* As the bench's streaming table: samples of the
			 * harness's length, walking on where they stopped */
			struct req r = {.op = REQ_SWEEP,
					.size = n,
					.ws = spans[k],
					.cold = 1,
					.fixed_src = 1};
			double m[2], d;

			timed(pc, 2, &r, m);
			d = depart(tspread[1], tspread[0]);
			if (verbose)
				printf("  stream %6zu B chunks into %3zu MiB: "
				       "%s %.1f GB/s, %s %.1f GB/s\n",
				       n, spans[k] >> 20, c[0]->name,
				       (double)n / m[0], nt->name,
				       (double)n / m[1]);
			/* streaming faster by d, or not slower by d where
			 * the built-in policy streams */
			if (was ? m[1] >= m[0] * d : m[1] * d >= m[0])
				wins = 0;
		}
		if (!wins)
			from = 0;
		else if (!from)
			from = n;
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

static int
tune(const char *out, int dry_run)
{
	const struct ua_cpu *cpu = ua_cpu();
	struct result res;
	char text[4096], id[64], path[4096], val[64];
	uint64_t t0 = now_ns();
	size_t len = 0;
	int t, r;

	memset(&res, 0, sizeof(res));
	l2 = cpu->l2 ? cpu->l2 : (size_t)256 << 10;
	llc = cpu->l3   ? llc_measured(l2, cpu->l3)
	      : cpu->l2 ? cpu->l2
			: (size_t)8 << 20;
	if (verbose && cpu->l3 && llc != cpu->l3)
		printf("  llc: %zu KiB as one core's reads find it (%zu KiB "
		       "reported)\n",
		       llc >> 10, cpu->l3 >> 10);
	/* Twice the LLC of each buffer, at most 128 MiB */
	bsize = llc * 4 < ((size_t)128 << 20) ? llc * 4 : (size_t)128 << 20;
	if (bsize < ((size_t)16 << 20))
		bsize = (size_t)16 << 20;
	arena_reserve(bsize);

	prior_load();
	tune_copy(&res, llc);
	tune_misaligned(&res);
	tune_misaligned_stream(&res);
	tune_inline_wide(&res);
	tune_alias_forward(&res);
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
		struct ua_setting s = {.strategy = res.s[t], .num = res.num[t]};

		if (!res.set[t])
			continue;
		ua_setting_format(val, sizeof(val), t, &s);
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%s=%s\n", ua_tunables[t].name, val);
	}
	if (verbose || dry_run)
		fputs(text, stdout);
	if (verbose)
		printf("measured in %.1f s\n", (double)(now_ns() - t0) / 1e9);
	if (dry_run)
		return 0;
	r = out ? (snprintf(path, sizeof(path), "%s", out) < (int)sizeof(path)
		       ? 0
		       : -ENAMETOOLONG)
		: ua_profile_path(0, path, sizeof(path));
	if (r == -ENOENT) {
		fprintf(stderr, "uaccess-tune: UACCESS_PROFILE is set but "
				"empty: the library reads no profile; name a "
				"file with --output\n");
		return 1;
	}
	if (r == 0)
		r = write_profile(path, text);
	if (r < 0) {
		fprintf(stderr, "uaccess-tune: cannot write %s: %s\n",
			out ? out : path, strerror(-r));
		return 1;
	}
	printf("profile written to %s\n", path);
	return 0;
}

/*
 * Before measuring: --output names a file in a directory that can be
 * written (the profile is written at the end)
 */
static int
output_dir_ok(const char *out)
{
	const char *slash = strrchr(out, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (!*out || (slash && !slash[1])) {
		fprintf(stderr,
			"uaccess-tune: --output: '%s' is not a file "
			"name\n",
			out);
		return 0;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == out)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - out), out);
	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode))
			errno = ENOTDIR;
		else if (!access(dir, W_OK | X_OK))
			return 1;
	}
	fprintf(stderr, "uaccess-tune: --output: cannot write into '%s': %s\n",
		dir, strerror(errno));
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
	if (do_show && (out || dry_run)) {
		fprintf(stderr, "uaccess-tune: --show measures and writes "
				"nothing: not with --output or --dry-run\n");
		usage(stderr);
		return 2;
	}
	if (dry_run && out) {
		fprintf(stderr, "uaccess-tune: --dry-run writes nothing: not "
				"with --output\n");
		usage(stderr);
		return 2;
	}
	if (out && !output_dir_ok(out))
		return 2;
	if (ua_init() < 0) {
		fprintf(stderr, "uaccess-tune: ua_init failed\n");
		return 1;
	}
	if (do_show)
		return show();
	/* What the measurement runs under: the user should know */
	(void)ua_policy(); /* the policy, and the record of what it ignored */
	if (ua_ignored()->count)
		fprintf(stderr,
			"uaccess-tune: %u setting(s) of UACCESS_DISABLE, "
			"UACCESS_TUNABLES or the profile ignored; "
			"uaccess-tune --show names them\n",
			ua_ignored()->count);
	clock_calibrate();
	return tune(out, dry_run);
}
