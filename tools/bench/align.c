/* SPDX-License-Identifier: MIT */
/*
 * align (seed 000): a fully cached tmpfs file read() into an 8192-byte
 * buffer placed at offsets 0x0..0x20 of a page, beside the same transfer
 * done in-process from a page-cache-like buffer with every strategy forced
 * and with glibc memcpy.  Then 8 KiB copies at every (src, dst) alignment
 * in 0..63.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

#define CHUNK 8192
#define MAX_OFF 0x20
#define MAX_C 16

static int fd = -1;
static size_t file_size;
static char *ubuf;

/* One pass of the seed's loop: the whole file, 8 KiB at a time */
static double
read_pass(size_t off)
{
	uint64_t t0 = cpu_ns();
	size_t pos;

	for (pos = 0; pos + CHUNK <= file_size; pos += CHUNK)
		if (pread(fd, ubuf + off, CHUNK, (off_t)pos) != CHUNK)
			die("align: read of the tmpfs file failed: %s",
			    strerror(errno));
	return (double)cpu_since(t0);
}

static int
make_file(void)
{
	size_t pos, step = (size_t)1 << 20;
	char *chunk = buffer_alloc(step);

	fd = memfd_create("uaccess-bench-align", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (pos = 0; pos < file_size; pos += step) {
		size_t n = file_size - pos < step ? file_size - pos : step;

		memset(chunk, (int)(pos >> 20), n);
		if (pwrite(fd, chunk, n, (off_t)pos) != (ssize_t)n) {
			int e = errno ? errno : EIO;

			buffer_free(chunk, step);
			return -e;
		}
	}
	buffer_free(chunk, step);
	return 0;
}

/* Contenders for the in-process transfer; returns how many */
static int
inproc_contenders(const struct contender **ptrs, int *ret_memcpy)
{
	/* MAX_C: copy_to_user, ua_memcpy, the forced, glibc and the tuned
	 * child's two */
	static struct contender forced[MAX_C - 5];
	int k = 0;

	ptrs[k++] = &c_ua_to_user;
	ptrs[k++] = &c_ua_memcpy;
	k += forced_contenders(CK_FORCED_DST, forced, &ptrs[k], MAX_C - 5);
	*ret_memcpy = k;
	ptrs[k++] = &c_glibc;
	if (glibc_tuned()) {
		ptrs[k++] = tuned_child(CHILD_GLIBC);
		ptrs[k++] = tuned_child(CHILD_UA_TO_USER);
	}
	return k;
}

/*
 * One offset of the sweep: every contender and read() (contender nc)
 * sampled trials times, v[i][k], in a new order every trial: read()
 * streams the whole file through the caches, and the contender that always
 * came right after it found its source evicted
 */
static void
time_offset(const struct contender *const *cs, int nc, struct req *r,
	    size_t off, int trials, double (*v)[MEASURE_MAX_TRIALS])
{
	int i, k;

	r->dst_align = (uint32_t)off;
	for (k = 0; k < trials; k++) {
		int order[MAX_C + 1];
		uint64_t seed = 0x9e3779b97f4a7c15u * (uint64_t)(k + 1);

		for (i = 0; i <= nc; i++)
			order[i] = i;
		for (i = nc; i > 0; i--) {
			int j, tmp;

			seed =
			    seed * 6364136223846793005u + 1442695040888963407u;
			j = (int)((seed >> 33) % (uint64_t)(i + 1));
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i <= nc; i++) {
			int c = order[i];

			v[c][k] = c == nc ? read_pass(off) : sample(cs[c], r);
		}
	}
}

/*
 * The bar "copy_to_user >= memcpy at every offset": the lowest of 33
 * medians of a few trials is the noise's lowest.  The CONFIRM_OFFSETS
 * lowest offsets are timed again as the sweep timed them, with three times
 * the trials, and the bar takes the lowest of the offsets as they then
 * stand.  (Timed apart, the two alone, copy_to_user and glibc's rep movsb
 * run within 10% of each other with the source in the LLC; in the sweep
 * read() and the tuned child stream their own 16 MiB between them.)
 */
#define CONFIRM_OFFSETS 4

static void
seed_bar(const struct contender *const *cs, int nc, int im, struct req *r,
	 double *vs_glibc, double *s_glibc)
{
	double v[MAX_C + 1][MEASURE_MAX_TRIALS], before = INFINITY;
	double min = INFINITY, min_s = NAN;
	int done[MAX_OFF + 1] = {0}, k, trials = 3 * bench_trials(9, 9);
	size_t off, at = 0;
	char detail[64];

	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	for (off = 0; off <= MAX_OFF; off++)
		before = fmin(before, vs_glibc[off]);
	for (k = 0; k < CONFIRM_OFFSETS; k++) {
		size_t lo = MAX_OFF + 1;

		for (off = 0; off <= MAX_OFF; off++)
			if (!done[off] &&
			    (lo > MAX_OFF || vs_glibc[off] < vs_glibc[lo]))
				lo = off;
		progress("align: timing offset %#zx again", lo);
		time_offset(cs, nc, r, lo, trials, v);
		vs_glibc[lo] = median_ratio(v[im], v[0], trials);
		s_glibc[lo] = ratio_spread(v[im], v[0], trials);
		done[lo] = 1;
	}
	for (off = 0; off <= MAX_OFF; off++)
		if (vs_glibc[off] < min)
			min = vs_glibc[off], min_s = s_glibc[off], at = off;
	snprintf(detail, sizeof(detail),
		 "worst at offset %#zx; %.2fx before re-timing", at, before);
	bar("align", "seed 000: copy_to_user / memcpy, offsets 0..0x20 (min)",
	    min, min_s, 1.0, 0, detail);
}

static void
sweep(void)
{
	const struct contender *cs[MAX_C];
	struct req r = {.op = REQ_CHUNKS, .size = CHUNK, .reps = 1};
	int im, nc = inproc_contenders(cs, &im), trials = bench_trials(9, 9);
	double v[MAX_C + 1][MEASURE_MAX_TRIALS], res[MAX_OFF + 1][MAX_C + 1];
	double vs_best[MAX_OFF + 1], s_best[MAX_OFF + 1];
	double vs_glibc[MAX_OFF + 1], s_glibc[MAX_OFF + 1];
	double um[MAX_OFF + 1], s_um[MAX_OFF + 1], um_min = INFINITY;
	double spr[MAX_OFF + 1][MAX_C + 1];
	int tuned = glibc_tuned() != NULL, nshow = nc - tuned;
	double best[MAX_C + 1], worst[MAX_C + 1];
	struct table *t;
	char buf[24];
	size_t off;
	int i;

	r.ws = file_size;
	for (i = 0; i <= nc; i++) {
		best[i] = 0;
		worst[i] = INFINITY;
	}
	for (off = 0; off <= MAX_OFF; off++) {
		progress("align: offset %#zx of %#x", off, MAX_OFF);
		time_offset(cs, nc, &r, off, trials, v);
		/* copy_to_user against the better glibc, each ratio in one
		 * process: the last two contenders run in the tuned child */
		vs_glibc[off] = median_ratio(v[im], v[0], trials);
		s_glibc[off] = ratio_spread(v[im], v[0], trials);
		/* ua_memcpy (contender 1) against memcpy in this process */
		um[off] = median_ratio(v[im], v[1], trials);
		s_um[off] = ratio_spread(v[im], v[1], trials);
		um_min = fmin(um_min, um[off]);
		vs_best[off] = vs_glibc[off];
		s_best[off] = s_glibc[off];
		if (tuned &&
		    median_ratio(v[nc - 2], v[nc - 1], trials) < vs_best[off]) {
			vs_best[off] =
			    median_ratio(v[nc - 2], v[nc - 1], trials);
			s_best[off] =
			    ratio_spread(v[nc - 2], v[nc - 1], trials);
		}
		for (i = 0; i <= nc; i++) {
			double gbs = (double)file_size / median(v[i], trials);

			spr[off][i] = spread(v[i], trials);
			res[off][i] = gbs;
			if (gbs > best[i])
				best[i] = gbs;
			if (gbs < worst[i])
				worst[i] = gbs;
		}
	}

	t = table_new("align", "sweep",
		      "read() of a cached tmpfs file into an 8 KiB buffer at "
		      "an offset (seed 000)");
	table_key(t, "offset");
	table_col(t, "read()", "s/GiB", 3);
	table_col(t, "read()", "GB/s", 2);
	table_role(t, ROLE_BASE);
	table_col(t, "read() vs 0x0", "x", 2);
	table_role(t, ROLE_BASE);
	for (i = 0; i < nshow; i++) {
		table_col(t, cs[i]->name, "GB/s", 2);
		table_role(t, cs[i]->kind == CK_FORCED_DST ? ROLE_MUTED
			      : i <= 1 /* copy_to_user, ua_memcpy */
				  ? ROLE_LIB
				  : ROLE_BASE);
	}
	table_col(t, "copy_to_user/memcpy", "x", 2);
	table_role(t, ROLE_HIDDEN);
	table_col(t, "copy_to_user/best-glibc", "x", 2);
	table_role(t, ROLE_LIB);
	table_col(t, "ua_memcpy/memcpy", "x", 2);
	table_role(t, ROLE_LIB);
	for (off = 0; off <= MAX_OFF; off++) {
		table_row(t);
		table_str(t, "%#zx", off);
		table_num_s(t, (double)(1u << 30) / res[off][nc] / 1e9,
			    spr[off][nc]);
		table_num_s(t, res[off][nc], spr[off][nc]);
		table_num(t, res[off][nc] / res[0][nc]);
		for (i = 0; i < nshow; i++)
			table_num_s(t, res[off][i], spr[off][i]);
		table_num_s(t, vs_glibc[off], s_glibc[off]);
		table_num_s(t, vs_best[off], s_best[off]);
		table_num_s(t, um[off], s_um[off]);
	}
	table_note(
	    t,
	    "File: %s on tmpfs (memfd), read with pread(fd, buf + offset, "
	    "8192); s/GiB is the seed's \"seconds\" scaled to one GiB.",
	    fmt_size(file_size, buf));
	table_note(t,
		   "In-process: the same %s copied 8 KiB at a time from a "
		   "buffer into buf + offset; a strategy name means that "
		   "routine forced through the copy_to_user path.",
		   fmt_size(file_size, buf));
	table_note(t,
		   "ua_memcpy/memcpy: the same transfer by ua_memcpy, whose "
		   "destination is 1 to 32 bytes ahead of the source modulo "
		   "4 KiB at offsets 0x1-0x20 (alias_forward_min, "
		   "uaccess(7)); lowest %.2fx",
		   um_min);
	if (glibc_tuned())
		table_note(t, "memcpy(tuned): %s.", glibc_tuned_setting());
	table_note(t, "worst/best over the offsets: read() %.2fx",
		   worst[nc] / best[nc]);
	table_note(t, "copy_to_user/best-glibc: the lower of copy_to_user "
		      "over memcpy in this process and over memcpy(tuned) in "
		      "the tuned child, which runs copy_to_user too.");
	for (i = 0; i < nshow; i++)
		table_note(t, "worst/best over the offsets: %s %.2fx",
			   cs[i]->name, worst[i] / best[i]);
	seed_bar(cs, nc, im, &r, vs_glibc, s_glibc);
	table_plot(t, "align", PLOT_LINES, 0, PLOT_HEX, "GB/s",
		   "uaccess-bench align: 8 KiB chunks into a buffer at an "
		   "offset (seed 000); thin: strategies forced");
	table_plot(t, "align-ratios", PLOT_LINES, 0, PLOT_HEX | PLOT_UNITY, "x",
		   "uaccess-bench align: read() against offset 0, and "
		   "copy_to_user against the better glibc");
	table_end(t);
}

/*
 * 8 KiB copies at every (src, dst) alignment pair in 0..63.  Each sample of
 * a pair is taken right after one of the aligned pair 0/0 by the same
 * contender, and the pair's speed is the median of those side-by-side
 * ratios: a slow spell of this shared machine slows both and cancels out,
 * where comparing absolute medians taken minutes apart would rank the
 * spells, not the alignments.
 */
#define NA 64
#define CONFIRM_PAIRS 16

/*
 * ua_memcpy / glibc at one pair, the two timed back to back in one
 * process (the tuned glibc's child also runs ua_memcpy), median of trials
 */
static double
pair_ratio(const struct contender *glibc, const struct contender *ua,
	   struct req *r, int trials, double *ret_spread)
{
	double v[64];
	int k;

	for (k = 0; k < trials; k++) {
		double g, u;

		if (k & 1) {
			u = sample(ua, r);
			g = sample(glibc, r);
		} else {
			g = sample(glibc, r);
			u = sample(ua, r);
		}
		v[k] = g / u;
	}
	*ret_spread = spread(v, trials);
	return median(v, trials);
}

/*
 * The bar "every pair >= glibc": the lowest of 4096 medians of a few
 * trials is the noise's lowest, not the copy's.  The CONFIRM_PAIRS lowest
 * pairs are timed again with more trials, and the bar takes the lowest of
 * those; a pair that is really slow stays slow.
 */
static void
pair_bar(const struct contender *glibc, const struct contender *ua,
	 const double *ratio)
{
	struct req r = {
	    .op = REQ_SWEEP, .size = CHUNK, .ws = CHUNK, .wall = 1, .reps = 64};
	int worst[CONFIRM_PAIRS], n = 0, i, j, p, pw = 0;
	double min = INFINITY, min_s = NAN;
	char what[96], detail[96];

	for (p = 0; p < NA * NA; p++) {
		for (i = n; i > 0 && ratio[worst[i - 1]] > ratio[p]; i--)
			if (i < CONFIRM_PAIRS)
				worst[i] = worst[i - 1];
		if (i < CONFIRM_PAIRS) {
			worst[i] = p;
			if (n < CONFIRM_PAIRS)
				n++;
		}
	}
	for (j = 0; j < n; j++) {
		double m, m_s;

		progress("align: confirming the slowest pairs against %s, "
			 "%d/%d",
			 glibc->name, j + 1, n);
		r.src_align = (uint32_t)(worst[j] / NA);
		r.dst_align = (uint32_t)(worst[j] % NA);
		m = pair_ratio(glibc, ua, &r, 3 * 9, &m_s);
		if (m < min) {
			min = m;
			min_s = m_s;
			pw = worst[j];
		}
	}
	snprintf(what, sizeof(what),
		 "8 KiB alignment pairs: ua_memcpy / %s (min)", glibc->name);
	snprintf(detail, sizeof(detail),
		 "worst at src/dst %d/%d; %.2fx before re-timing", pw / NA,
		 pw % NA, ratio[worst[0]]);
	bar("align", what, min, min_s, 1.0, 0, detail);
}

static void
grid(void)
{
	const struct contender *cs[3] = {&c_ua_memcpy, &c_glibc, NULL};
	const struct contender *tuned_ua = tuned_child(CHILD_UA_MEMCPY);
	struct req r = {.op = REQ_SWEEP, .size = CHUNK, .ws = CHUNK, .wall = 1};
	struct req ref;
	static double v[3][NA * NA][9], q[3][NA * NA][9];
	int trials = bench_trials(9, 9), nc = 2, i, p, k;
	struct table *t;

	if (trials > 9)
		trials = 9;
	if (glibc_tuned())
		cs[nc++] = glibc_tuned();
	/* a fixed count: the slow pairs here can be 50 times slower; the
	 * samples are a few us, so they are timed with the wall clock.  The
	 * quick run measures as much as the full one: the worst of 4096
	 * pairs picks the noise of any pair measured too briefly. */
	r.reps = 64;
	ref = r;
	for (k = 0; k < trials; k++) {
		progress("align: 8 KiB alignment grid, trial %d/%d", k + 1,
			 trials);
		for (p = 0; p < NA * NA; p++) {
			r.src_align = (uint32_t)(p / NA);
			r.dst_align = (uint32_t)(p % NA);
			for (i = 0; i < nc; i++) {
				int c = (i + k + p) % nc;
				double aligned = sample(cs[c], &ref);

				v[c][p][k] = sample(cs[c], &r);
				q[c][p][k] = aligned / v[c][p][k];
			}
		}
	}
	t = table_new("align", "grid",
		      "8 KiB copies at every (src, dst) alignment in 0..63, "
		      "L1-resident");
	table_key(t, "contender");
	table_col(t, "best", "GB/s", 2);
	table_key(t, "best at src/dst");
	table_col(t, "worst", "GB/s", 2);
	table_key(t, "worst at src/dst");
	table_col(t, "mean", "GB/s", 2);
	table_col(t, "worst/best", "x", 2);
	for (i = 0; i < nc; i++) {
		double best = 0, worst = INFINITY, sum = 0;
		double qbest = 0, qworst = INFINITY;
		int pb = 0, pw = 0;

		for (p = 0; p < NA * NA; p++) {
			double gbs = CHUNK / median(v[i][p], trials);
			double rel = median(q[i][p], trials);

			sum += gbs;
			if (rel > qbest) {
				qbest = rel;
				best = gbs;
				pb = p;
			}
			if (rel < qworst) {
				qworst = rel;
				worst = gbs;
				pw = p;
			}
		}
		table_row(t);
		table_str(t, "%s", cs[i]->name);
		table_num(t, best);
		table_str(t, "%d/%d", pb / NA, pb % NA);
		table_num(t, worst);
		table_str(t, "%d/%d", pw / NA, pw % NA);
		table_num(t, sum / (NA * NA));
		table_num(t, qworst / qbest);
		if (i == 0)
			bar("align",
			    "ua_memcpy 8 KiB, alignments 0..63: "
			    "worst/best",
			    qworst / qbest, NAN, 0.8, 0, NULL);
	}
	/*
	 * Pair by pair, against each glibc measured in the same trials; the
	 * tuned glibc against the ua_memcpy of its own process (the grid's
	 * ua_memcpy ran in this one), when the pairs are confirmed
	 */
	for (i = 1; i < nc; i++) {
		static double ratio[NA * NA];
		double vs[9];

		for (p = 0; p < NA * NA; p++) {
			for (k = 0; k < trials; k++)
				vs[k] = v[i][p][k] / v[0][p][k];
			ratio[p] = median(vs, trials);
		}
		if (cs[i] == &c_glibc)
			pair_bar(cs[i], &c_ua_memcpy, ratio);
		else if (tuned_ua)
			pair_bar(cs[i], tuned_ua, ratio);
	}
	{
		static double rel[3][NA * NA];
		const double *grids[3] = {rel[0], rel[1], rel[2]};
		const char *names[3];

		for (i = 0; i < nc; i++) {
			names[i] = cs[i]->name;
			for (p = 0; p < NA * NA; p++)
				rel[i][p] = median(q[i][p], trials);
		}
		plot_heatmaps("align", "align-grid",
			      "uaccess-bench align: 8 KiB copies, speed at "
			      "each (src, dst) alignment relative to 0/0",
			      nc, names, grids, NA, "dst offset", "src offset",
			      "speed / speed at 0/0");
	}
	table_note(t, "Buffers are page-aligned before the offsets, so "
		      "(dst - src) mod 4096 = dst - src: 4 KiB aliasing "
		      "is part of the grid.");
	table_note(t,
		   "Best and worst: the pairs fastest and slowest relative "
		   "to 0/0, each pair timed right after 0/0 by the same "
		   "contender (median of %d such ratios); worst/best is "
		   "the ratio of the two.",
		   trials);
	table_end(t);
}

int
cmd_align(void)
{
	int r;

	file_size = opt.align_size
			? opt.align_size
			: (opt.quick ? (size_t)16 << 20 : (size_t)256 << 20);
	file_size -= file_size % CHUNK;
	r = make_file();
	if (r < 0) {
		unavailable("align", "read() of a tmpfs file", strerror(-r));
		if (fd >= 0)
			close(fd);
		fd = -1;
		return -1;
	}
	ubuf = buffer_alloc(CHUNK + 4096);
	read_pass(0); /* warm the page cache path */
	sweep();
	close(fd);
	fd = -1;
	buffer_free(ubuf, CHUNK + 4096);
	arena_release();
	grid();
	return 0;
}
