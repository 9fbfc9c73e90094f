/* SPDX-License-Identifier: MIT */
/*
 * smallwrite (seed 001): unixbench fstime's w_test, 2000 writes of 256
 * bytes then a rewind, repeated for a fixed time.  Through the kernel
 * (write() to tmpfs) and in-process with the cached copy, the nocache copy
 * with its threshold, and the non-temporal routine without one (the
 * seed's regression).  Then the large streaming writes nocache exists for,
 * and the cache pollution it avoids.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"

#define BLOCK 256
#define BLOCKS 2000
#define FILE_BYTES (BLOCK * BLOCKS)

enum way { W_WRITE, W_CACHED, W_NOCACHE, W_NT, W_MEMCPY, W_COUNT };
static const char *const way_names[W_COUNT] = {
    "write() to tmpfs",
    "copy_from_user (cached)",
    "copy_from_user_nocache (threshold)",
    "non-temporal, no threshold",
    "memcpy",
};

static int fd = -1;
static char *file_buf, *src_buf;
static ua_copy_fn nt_copy;

/* One w_test pass: 2000 writes of 256 bytes, then lseek(fd, 0, 0) */
static void
pass(enum way w)
{
	size_t (*volatile cfu)(void *, const void *, size_t) =
	    ua_copy_from_user;
	size_t (*volatile nocache)(void *, const void *, size_t) =
	    ua_copy_from_user_nocache;
	void *(*volatile mc)(void *, const void *, size_t) = memcpy;
	volatile ua_copy_fn nt = nt_copy;
	int i;

	switch (w) {
	case W_WRITE:
		for (i = 0; i < BLOCKS; i++)
			if (write(fd, src_buf, BLOCK) != BLOCK)
				die("smallwrite: write failed: %s",
				    strerror(errno));
		if (lseek(fd, 0, SEEK_SET) != 0)
			die("smallwrite: lseek failed: %s", strerror(errno));
		break;
	case W_CACHED:
		for (i = 0; i < BLOCKS; i++)
			cfu(file_buf + i * BLOCK, src_buf, BLOCK);
		break;
	case W_NOCACHE:
		for (i = 0; i < BLOCKS; i++)
			nocache(file_buf + i * BLOCK, src_buf, BLOCK);
		break;
	case W_NT:
		for (i = 0; i < BLOCKS; i++)
			ua_user_copy(nt, file_buf + i * BLOCK, src_buf, BLOCK,
				     UA_SIDE_SRC, (uintptr_t)src_buf);
		break;
	case W_MEMCPY:
		for (i = 0; i < BLOCKS; i++)
			mc(file_buf + i * BLOCK, src_buf, BLOCK);
		break;
	default:
		break;
	}
}

/* KB/s (1 KB = 1024 bytes, as fstime counts) over a slice of time */
static double
slice(enum way w, uint64_t ns)
{
	uint64_t t0 = now_ns(), c0 = cpu_ns(), passes = 0;

	do {
		pass(w);
		passes++;
	} while (now_ns() - t0 < ns);
	return (double)passes * FILE_BYTES / 1024.0 /
	       ((double)cpu_since(c0) / 1e9);
}

static void
fstime(void)
{
	double seconds = opt.seconds ? opt.seconds : opt.quick ? 2 : 10;
	int slices = opt.quick ? 10 : 20, s, i, nw = 0, cached;
	uint64_t slice_ns = (uint64_t)(seconds / slices * 1e9);
	enum way ways[W_COUNT];
	double v[W_COUNT][64], kbs[W_COUNT], vs_cached[W_COUNT];
	double s_cached[W_COUNT];
	struct table *t;

	ways[nw++] = W_WRITE;
	cached = nw;
	ways[nw++] = W_CACHED;
	ways[nw++] = W_NOCACHE;
	if (nt_copy)
		ways[nw++] = W_NT;
	ways[nw++] = W_MEMCPY;
	for (i = 0; i < nw; i++)
		slice(ways[i], slice_ns / 10); /* warm-up */
	for (s = 0; s < slices; s++) {
		progress("smallwrite: slice %d/%d (%.1f s per way)", s + 1,
			 slices, seconds);
		for (i = 0; i < nw; i++) {
			int k = (i + s) % nw;

			v[k][s] = slice(ways[k], slice_ns);
		}
	}
	for (i = 0; i < W_COUNT; i++)
		kbs[i] = vs_cached[i] = s_cached[i] = NAN;
	/* A ratio from each round of slices, run back to back, then their
	 * median: a slow spell of the machine slows one round, not a way */
	for (i = 0; i < nw; i++) {
		kbs[ways[i]] = median(v[i], slices);
		vs_cached[ways[i]] = median_ratio(v[i], v[cached], slices);
		s_cached[ways[i]] = ratio_spread(v[i], v[cached], slices);
	}

	t = table_new("smallwrite", "fstime",
		      "unixbench fstime w_test: 2000 writes of 256 bytes, "
		      "then rewind (seed 001)");
	table_key(t, "way");
	table_col(t, "throughput", "KB/s", 0);
	table_col(t, "vs cached", "x", 2);
	table_plot(t, "smallwrite-fstime", PLOT_BARS, 0, PLOT_UNITY, "x",
		   "uaccess-bench smallwrite: 256-byte writes against the "
		   "cached copy; nocache with its threshold and without (seed "
		   "001)");
	for (i = 0; i < W_COUNT; i++) {
		table_row(t);
		table_str(t, "%s", way_names[i]);
		table_num(t, kbs[i]);
		table_num_s(t, vs_cached[i], s_cached[i]);
	}
	table_note(t,
		   "%.1f s per way in %d interleaved rounds of slices; "
		   "throughput: the median slice; vs cached: the median of "
		   "the rounds' ratios.  KB = 1024 bytes, as fstime counts.",
		   seconds, slices);
	table_note(t, "The seed, 2009: nocache without a threshold 294,000 "
		      "KB/s against 370,000 before it (0.79x); the fix was "
		      "the threshold (nocache only from PAGE_SIZE).");
	if (!nt_copy)
		table_note(t, "non-temporal, no threshold: unavailable: this "
			      "build has no non-temporal strategy in its "
			      "table (the engine branch).");
	table_end(t);
	bar("smallwrite", "fstime 256 B: nocache / cached",
	    vs_cached[W_NOCACHE], s_cached[W_NOCACHE], 0.95, 0,
	    "the seed's regression must not exist here");
}

/* 64 KiB chunks streamed into a 32 MiB destination nobody reads soon */
#define STREAM_CHUNK ((size_t)64 << 10)
#define STREAM_DST ((size_t)32 << 20)

static void
streaming(void)
{
	struct contender nt = {.name = "non-temporal (forced)",
			       .kind = CK_FORCED_SRC,
			       .strategy = nt_copy};
	const struct contender *cs[4] = {&c_ua_from_user, &c_ua_nocache,
					 &c_glibc, &nt};
	struct req r = {.op = REQ_SWEEP,
			.size = STREAM_CHUNK,
			.ws = STREAM_DST,
			.cold = 1,
			.fixed_src = 1};
	const struct contender *duel[2] = {&c_ua_from_user, &c_ua_nocache};
	int nc = nt_copy ? 4 : 3, trials = bench_trials(15, 21), i;
	int again =
	    2 * trials > MEASURE_MAX_TRIALS ? MEASURE_MAX_TRIALS : 2 * trials;
	double v[4][MEASURE_MAX_TRIALS];
	struct table *t;
	char detail[48];

	progress("smallwrite: streaming 64 KiB chunks");
	measure_samples(cs, nc, &r, trials, v);
	t = table_new("smallwrite", "streaming",
		      "64 KiB chunks streamed into a 32 MiB destination");
	table_key(t, "copy");
	table_col(t, "throughput", "GB/s", 2);
	table_col(t, "vs cached", "x", 2);
	table_plot(t, "smallwrite-streaming", PLOT_BARS, 0, 0, "GB/s",
		   "uaccess-bench smallwrite: 64 KiB chunks streamed into 32 "
		   "MiB");
	for (i = 0; i < nc; i++) {
		table_row(t);
		table_str(t, "%s", cs[i]->name);
		table_num(t, STREAM_CHUNK / median(v[i], trials));
		table_num(t, median_ratio(v[0], v[i], trials));
	}
	table_note(t, "vs cached: the median of the per-trial ratios.  "
		      "Where streaming does not pay (nocache_min max), "
		      "nocache is the cached copy and reads 1.00x.");
	table_end(t);
	/*
	 * Streaming stores only where they beat the cached copy.  The bar
	 * times the two again, alone, with twice the trials: beside them the
	 * forced streaming copy evicts whatever runs after it, and a few
	 * fixed orders left two runs of the very same code at 0.93-0.95x.
	 */
	snprintf(detail, sizeof(detail), "%.2fx in the table",
		 median_ratio(v[0], v[1], trials));
	progress("smallwrite: nocache and cached again");
	measure_samples(duel, 2, &r, again, v);
	bar("smallwrite", "streaming 64 KiB into 32 MiB: nocache / cached",
	    median_ratio(v[0], v[1], again), ratio_spread(v[0], v[1], again),
	    0.95, 0, detail);
}

/* Read time of a hot working set after streaming writes with each copy */
static double
read_set(const uint64_t *p, size_t n)
{
	volatile uint64_t sink;
	uint64_t sum = 0, t0 = now_ns();
	size_t i;

	for (i = 0; i < n / 8; i += 8) /* one load per cache line */
		sum += p[i];
	sink = sum;
	(void)sink;
	return (double)(now_ns() - t0);
}

static void
stream_with(int way, char *dst)
{
	size_t off;

	for (off = 0; off < STREAM_DST; off += STREAM_CHUNK) {
		if (way == 1)
			ua_copy_from_user(dst + off, src_buf, STREAM_CHUNK);
		else if (way == 2)
			ua_copy_from_user_nocache(dst + off, src_buf,
						  STREAM_CHUNK);
		else if (way == 3)
			ua_user_copy(nt_copy, dst + off, src_buf, STREAM_CHUNK,
				     UA_SIDE_SRC, (uintptr_t)src_buf);
	}
}

static void
pollution(void)
{
	static const char *const names[] = {
	    "no streaming (reference)", "after copy_from_user (cached)",
	    "after copy_from_user_nocache", "after non-temporal (forced)"};
	size_t hots[2] = {machine.l2 / 2, machine.llc / 4};
	int nway = nt_copy ? 4 : 3, trials = bench_trials(5, 9), h, k, w;
	char *dst = buffer_alloc(STREAM_DST), a[24];
	double v[4][64], res[2][4];
	struct table *t;

	for (h = 0; h < 2; h++) {
		uint64_t *hot = buffer_alloc(hots[h]);

		for (k = 0; k < trials; k++) {
			progress("smallwrite: cache pollution, trial %d/%d",
				 k + 1, trials);
			for (w = 0; w < nway; w++) {
				int c = (w + k) % nway;

				read_set(hot, hots[h]);
				read_set(hot, hots[h]);
				stream_with(c, dst);
				v[c][k] = read_set(hot, hots[h]);
			}
		}
		for (w = 0; w < nway; w++)
			res[h][w] = median(v[w], trials);
		buffer_free(hot, hots[h]);
	}
	buffer_free(dst, STREAM_DST);

	t = table_new("smallwrite", "pollution",
		      "reading a hot working set after streaming 32 MiB of "
		      "writes");
	table_key(t, "hot set");
	table_key(t, "before the read");
	table_col(t, "read time", "us", 1);
	table_col(t, "read", "GB/s", 2);
	table_role(t, ROLE_HIDDEN);
	table_col(t, "vs after cached", "x", 2);
	table_plot(t, "smallwrite-pollution", PLOT_BARS, 0, PLOT_UNITY, "x",
		   "uaccess-bench smallwrite: reading a hot set after 32 MiB "
		   "of streaming writes, against after cached copies");
	for (h = 0; h < 2; h++)
		for (w = 0; w < nway; w++) {
			table_row(t);
			table_str(t, "%s", fmt_size(hots[h], a));
			table_str(t, "%s", names[w]);
			table_num(t, res[h][w] / 1e3);
			table_num(t, (double)hots[h] / res[h][w]);
			table_num(t, res[h][1] / res[h][w]);
		}
	table_note(t, "One load per cache line.  vs after cached > 1: the "
		      "streaming copy left more of the hot set in the caches "
		      "than the cached copy did.");
	table_end(t);
}

int
cmd_smallwrite(void)
{
	const struct ua_strategy *s = nocache_strategy();

	nt_copy = s ? s->copy : NULL;
	fd = memfd_create("uaccess-bench-fstime", MFD_CLOEXEC);
	if (fd < 0) {
		unavailable("smallwrite", "write() to tmpfs", strerror(errno));
		return -1;
	}
	file_buf = buffer_alloc(FILE_BYTES);
	src_buf = buffer_alloc(STREAM_CHUNK);
	fstime();
	close(fd);
	fd = -1;
	streaming();
	arena_release();
	pollution();
	buffer_free(file_buf, FILE_BYTES);
	buffer_free(src_buf, STREAM_CHUNK);
	return 0;
}
