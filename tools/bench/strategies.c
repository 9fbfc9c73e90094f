/* SPDX-License-Identifier: MIT */
/*
 * strategies (seed 002): this CPU as the library sees it, the policy in
 * force and where each value came from, and every strategy's throughput
 * per size, forced one at a time, beside what the dispatcher picked.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static void
machine_table(void)
{
	const struct ua_cpu *cpu = ua_cpu();
	const struct ua_strategy *s;
	const char *env, *prof = ua_profile_in_use();
	char id[64], buf[200], a[24], b[24], c[24];
	size_t n, i;
	struct table *t;

	t = table_new("strategies", "cpu", "this CPU, as the library sees it");
	table_key(t, "item");
	table_col(t, "value", "", 0);
	table_row(t);
	table_str(t, "model");
	table_str(t, "%.46s", machine.cpu_model);
	ua_cpu_id(id, sizeof(id), cpu);
	table_row(t);
	table_str(t, "vendor family model");
	table_str(t, "%s stepping %u", id, cpu->stepping);
	table_row(t);
	table_str(t, "features");
	table_str(t, "%.46s",
		  ua_cpu_features(buf, sizeof(buf), cpu) ? buf : "(none)");
	table_row(t);
	table_str(t, "caches");
	table_str(t, "L1d %s, L2 %s, L3 %s", fmt_size(cpu->l1d, a),
		  fmt_size(cpu->l2, b), fmt_size(cpu->l3, c));
	table_row(t);
	table_str(t, "profile");
	table_str(t, "%.46s", prof ? prof : "none");
	env = getenv("UACCESS_TUNABLES");
	table_row(t);
	table_str(t, "UACCESS_TUNABLES");
	table_str(t, "%.46s", env ? env : "(unset)");
	env = getenv("UACCESS_DISABLE");
	table_row(t);
	table_str(t, "UACCESS_DISABLE");
	table_str(t, "%.46s", env ? env : "(unset)");
	s = ua_strategies(&n);
	for (i = 0; i < n; i++) {
		table_row(t);
		table_str(t, "strategy %s", s[i].name);
		table_str(t, "%s%s",
			  ua_strategy_usable(&s[i])      ? "usable"
			  : ua_strategy_supported(&s[i]) ? "disabled"
							 : "unsupported here",
			  s[i].nontemporal ? ", non-temporal" : "");
	}
	table_end(t);
}

static void
policy_table(void)
{
	struct policy_item it;
	struct table *t;
	int c;

	t = table_new("strategies", "policy",
		      "the policy in force: a strategy per size class and "
		      "the thresholds");
	table_key(t, "tunable");
	table_col(t, "value", "", 0);
	table_col(t, "from", "", 0);
	table_col(t, "meaning", "", 0);
	for (c = 0; policy_next(&c, &it);) {
		table_row(t);
		table_str(t, "%s", it.name);
		table_str(t, "%s", it.value);
		table_str(t, "%s", it.from);
		table_str(t, "%.47s", it.doc);
	}
	table_note(t, "Override with UACCESS_TUNABLES=name=value:...; "
		      "uaccess-tune measures this machine and writes a "
		      "profile.");
	table_end(t);
}

static const char *
size_class(size_t n)
{
	const struct ua_policy *p = ua_policy();

	if (n >= p->t[UA_T_HUGE_MIN].num)
		return "huge";
	if (n >= p->t[UA_T_LARGE_MIN].num)
		return "large";
	if (n >= p->t[UA_T_MEDIUM_MIN].num)
		return "medium";
	return "small";
}

#define MAX_S 12

static void
throughput(uint32_t dst_align)
{
	static const size_t sizes[] = {16,      64,      256,      1024,
				       4096,    16384,   65536,    262144,
				       1 << 20, 4 << 20, 16 << 20, 64 << 20};
	static struct contender forced[MAX_S];
	const struct contender *cs[MAX_S + 2];
	int nc = forced_contenders(CK_FORCED_SRC, forced, cs, MAX_S), j;
	struct table *t;
	char title[160], a[24];
	double worst = NAN, worst_s = NAN;
	size_t worst_at = 0, k;

	cs[nc] = &c_ua_from_user;
	cs[nc + 1] = &c_glibc;

	snprintf(title, sizeof(title),
		 "every strategy forced (copy_from_user path), %s",
		 dst_align ? "destination 1 byte past the source, modulo 4 KiB"
			   : "source and destination 64-byte aligned");
	t = table_new("strategies", dst_align ? "misaligned" : "aligned",
		      title);
	table_key(t, "size");
	table_key(t, "level");
	table_key(t, "class");
	for (j = 0; j < nc; j++) {
		table_col(t, cs[j]->name, "GB/s", 2);
		table_role(t, ROLE_MUTED);
	}
	table_col(t, "dispatcher", "GB/s", 2);
	table_role(t, ROLE_LIB);
	table_col(t, "memcpy", "GB/s", 2);
	table_role(t, ROLE_BASE);
	table_plot(t,
		   dst_align ? "strategies-misaligned" : "strategies-aligned",
		   PLOT_LINES, 0, PLOT_LOGX | PLOT_CACHES, "GB/s", title);
	table_col(t, "picked", "", 0);
	table_col(t, "best", "", 0);
	table_col(t, "picked/best", "x", 2);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		enum level l = level_for(sizes[k]);
		struct req r = {.op = REQ_SWEEP,
				.size = sizes[k],
				.ws = level_ws(l),
				.cold = l == LVL_DRAM,
				.dst_align = dst_align};
		double ns[MAX_S + 2], v[MAX_S + 2][MEASURE_MAX_TRIALS], vs,
		    vs_s;
		double w[2][MEASURE_MAX_TRIALS];
		const struct contender *duel[2];
		int best = 0, trials = bench_trials(7, 11);

		progress("strategies: %s, %s", fmt_size(sizes[k], a),
			 dst_align ? "misaligned" : "aligned");
		measure_samples(cs, nc + 2, &r, trials, v);
		for (j = 0; j < nc + 2; j++)
			ns[j] = median(v[j], trials);
		for (j = 1; j < nc; j++)
			if (ns[j] < ns[best])
				best = j;
		/*
		 * The dispatcher against the best, trial by trial, timed
		 * again: the fastest of eight noisy medians is faster than
		 * its routine (from the LLC the dispatcher read 0.83x the
		 * erms it runs), so the samples that chose it do not judge it
		 */
		vs = vs_s = NAN;
		if (nc) {
			int again = 2 * trials > MEASURE_MAX_TRIALS
					? MEASURE_MAX_TRIALS
					: 2 * trials;

			duel[0] = cs[best];
			duel[1] = &c_ua_from_user;
			measure_samples(duel, 2, &r, again, w);
			vs = median_ratio(w[0], w[1], again);
			vs_s = ratio_spread(w[0], w[1], again);
		}
		if (!(vs >= worst)) {
			worst = vs;
			worst_s = vs_s;
			worst_at = sizes[k];
		}
		table_row(t);
		table_str(t, "%s", fmt_size(sizes[k], a));
		table_str(t, "%s", level_name(l));
		table_str(t, "%s", size_class(sizes[k]));
		for (j = 0; j < nc + 2; j++)
			table_num(t, (double)sizes[k] / ns[j]);
		table_str(t, "%s", ua_copy_strategy(sizes[k]));
		table_str(t, "%s", nc ? cs[best]->name : "");
		table_num_s(t, vs, vs_s);
	}
	table_note(t, "picked: ua_copy_strategy(n) for the size class (an "
		      "alignment rule may still replace a string strategy); "
		      "dispatcher: ua_copy_from_user as shipped.");
	table_note(t, "picked/best: the dispatcher's speed over the best "
		      "forced strategy's at that size: the two timed again, "
		      "side by side, apart from the trials that chose the "
		      "best (median of the per-trial ratios).");
	if (dst_align)
		table_note(t, "Both buffers are page-aligned mappings, so "
			      "(dst - src) mod 4096 = 1: the misalignment and "
			      "the shortest forward distance of 4 KiB "
			      "aliasing together; the strategies can rank "
			      "otherwise at a longer distance.");
	table_end(t);
	snprintf(title, sizeof(title), "worst at %s", fmt_size(worst_at, a));
	bar("strategies",
	    dst_align ? "dispatcher / best forced strategy, misaligned (min)"
		      : "dispatcher / best forced strategy, aligned (min)",
	    worst, worst_s, 0.95, 0, title);
}

int
cmd_strategies(void)
{
	machine_table();
	policy_table();
	throughput(0);
	throughput(1);
	return 0;
}
