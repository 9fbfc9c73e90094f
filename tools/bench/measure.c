/* SPDX-License-Identifier: MIT */
/*
 * Who is measured and how: contenders called through function pointers,
 * pre-faulted buffers, warm-up, interleaved trials and medians; and a child
 * process that runs glibc's memcpy under GLIBC_TUNABLES, answering the same
 * requests so the two glibc configurations are measured side by side.
 */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* ------------------------------------------------------------------ */
/* Contenders */

static pid_t self_pid;

static size_t
pvr_copy(void *dst, const void *src, size_t n)
{
	struct iovec local = {dst, n}, remote = {(void *)src, n};
	ssize_t got = process_vm_readv(self_pid, &local, 1, &remote, 1, 0);

	return got < 0 ? n : n - (size_t)got;
}

#define MEMCPY_LIKE(n, f)                                                      \
	{                                                                      \
		.name = n, .kind = CK_MEMCPY, .memcpy_fn = f                   \
	}
#define USER_LIKE(n, f)                                                        \
	{                                                                      \
		.name = n, .kind = CK_USER, .user_fn = f                       \
	}
const struct contender c_ua_memcpy = MEMCPY_LIKE("ua_memcpy", ua_memcpy);
const struct contender c_ua_memcpy_nocache =
    MEMCPY_LIKE("ua_memcpy_nocache", ua_memcpy_nocache);
const struct contender c_ua_from_user =
    USER_LIKE("copy_from_user", ua_copy_from_user);
const struct contender c_ua_to_user =
    USER_LIKE("copy_to_user", ua_copy_to_user);
const struct contender c_ua_nocache =
    USER_LIKE("copy_from_user_nocache", ua_copy_from_user_nocache);
const struct contender c_glibc = MEMCPY_LIKE("memcpy", memcpy);
const struct contender c_pvr = USER_LIKE("process_vm_readv", pvr_copy);

const struct ua_strategy *
nocache_strategy(void)
{
	const struct ua_strategy *s;
	size_t i, n;

	s = ua_strategies(&n);
	for (i = 0; i < n; i++)
		if (s[i].nontemporal && ua_strategy_usable(&s[i]))
			return &s[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Buffers: one arena shared by every local contender */

static char *arena_src, *arena_dst;
static size_t arena_len;
static uint64_t sweep_cursor; /* cold sweeps go on where they stopped */

static void
arena_ensure(size_t len)
{
	len = (len + 8192 + 4095) & ~(size_t)4095;
	if (len <= arena_len)
		return;
	arena_release();
	arena_src = bench_alloc(len);
	arena_dst = bench_alloc(len);
	arena_len = len;
}

void
arena_release(void)
{
	bench_free(arena_src, arena_len);
	bench_free(arena_dst, arena_len);
	arena_src = arena_dst = NULL;
	arena_len = 0;
}

/* ------------------------------------------------------------------ */
/* The timed loops, one per calling convention */

#define DISPATCH(c, CALL)                                                      \
	do {                                                                   \
		switch ((c)->kind) {                                           \
		case CK_MEMCPY: {                                              \
			void *(*volatile fn_)(void *, const void *, size_t) =  \
			    (c)->memcpy_fn;                                    \
			LOOP(fn_(D, S, N));                                    \
			break;                                                 \
		}                                                              \
		case CK_USER: {                                                \
			size_t (*volatile fn_)(void *, const void *, size_t) = \
			    (c)->user_fn;                                      \
			LOOP(fn_(D, S, N));                                    \
			break;                                                 \
		}                                                              \
		case CK_FORCED_SRC:                                            \
		case CK_FORCED_DST: {                                          \
			volatile ua_copy_fn fn_ = (c)->strategy;               \
			int dst_ = (c)->kind == CK_FORCED_DST;                 \
			LOOP(ua_user_copy(                                     \
			    fn_, D, S, N, dst_ ? UA_SIDE_DST : UA_SIDE_SRC,    \
			    dst_ ? (uintptr_t)(D) : (uintptr_t)(S)));          \
			break;                                                 \
		}                                                              \
		default:                                                       \
			break;                                                 \
		}                                                              \
	} while (0)

/* size bytes at consecutive 64-byte-rounded offsets within ws */
static uint64_t
run_sweep(const struct contender *c, const struct req *r, uint64_t calls,
	  uint64_t *cursor)
{
	size_t n = r->size, stride = (n + 63) & ~(size_t)63;
	size_t ws = r->ws > n ? r->ws : n;
	size_t slots = (ws - n) / stride + 1;
	char *s0 = arena_src + r->src_align, *d0 = arena_dst + r->dst_align;
	size_t src_stride = r->fixed_src ? 0 : stride;
	uint64_t slot = *cursor % slots, i, t0;

	t0 = r->wall ? now_ns() : cpu_ns();
#define LOOP(CALL)                                                             \
	for (i = 0; i < calls; i++) {                                          \
		CALL;                                                          \
		if (++slot == slots)                                           \
			slot = 0;                                              \
	}
#define D (d0 + slot * stride)
#define S (s0 + slot * src_stride)
#define N n
	DISPATCH(c, CALL);
#undef D
#undef S
#undef N
#undef LOOP
	*cursor = slot;
	return r->wall ? now_ns() - t0 : cpu_since(t0);
}

/* Random small copies: mostly <= 128 bytes, random alignments */
#define RANDOM_COUNT 4096
struct rcopy {
	uint32_t size, soff, doff;
};
static struct rcopy rlist[RANDOM_COUNT];
static uint64_t rlist_seed, rlist_ws;

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
rlist_fill(uint64_t seed, size_t ws)
{
	uint64_t s = seed | 1;
	int i;

	if (rlist_seed == seed && rlist_ws == ws)
		return;
	for (i = 0; i < RANDOM_COUNT; i++) {
		unsigned p = (unsigned)(xorshift(&s) % 100);
		uint32_t size;

		if (p < 50)
			size = 1 + (uint32_t)(xorshift(&s) % 32);
		else if (p < 85)
			size = 33 + (uint32_t)(xorshift(&s) % 96);
		else if (p < 97)
			size = 129 + (uint32_t)(xorshift(&s) % 384);
		else
			size = 513 + (uint32_t)(xorshift(&s) % 3584);
		if (size > ws)
			size = (uint32_t)ws;
		rlist[i].size = size;
		rlist[i].soff = (uint32_t)(xorshift(&s) % (ws - size + 1));
		rlist[i].doff = (uint32_t)(xorshift(&s) % (ws - size + 1));
	}
	rlist_seed = seed;
	rlist_ws = ws;
}

static uint64_t
run_random(const struct contender *c, const struct req *r, uint64_t passes)
{
	uint64_t p, t0;
	int i;

	rlist_fill(r->seed, r->ws);
	t0 = r->wall ? now_ns() : cpu_ns();
#define LOOP(CALL)                                                             \
	for (p = 0; p < passes; p++)                                           \
		for (i = 0; i < RANDOM_COUNT; i++) {                           \
			CALL;                                                  \
		}
#define D (arena_dst + rlist[i].doff)
#define S (arena_src + rlist[i].soff)
#define N rlist[i].size
	DISPATCH(c, CALL);
#undef D
#undef S
#undef N
#undef LOOP
	return r->wall ? now_ns() - t0 : cpu_since(t0);
}

/* ws bytes in size-byte chunks into one destination window: read() */
static uint64_t
run_chunks(const struct contender *c, const struct req *r, uint64_t passes,
	   size_t limit)
{
	char *d0 = arena_dst + r->dst_align;
	size_t n = r->size, off, end = limit - limit % n;
	uint64_t p, t0;

	t0 = r->wall ? now_ns() : cpu_ns();
#define LOOP(CALL)                                                             \
	for (p = 0; p < passes; p++)                                           \
		for (off = 0; off < end; off += n) {                           \
			CALL;                                                  \
		}
#define D d0
#define S (arena_src + r->src_align + off)
#define N n
	DISPATCH(c, CALL);
#undef D
#undef S
#undef N
#undef LOOP
	return r->wall ? now_ns() - t0 : cpu_since(t0);
}

static double child_sample(const struct req *r, uint32_t fn);

double
sample(const struct contender *c, const struct req *r)
{
	size_t ws = r->ws > r->size ? r->ws : r->size;
	uint64_t reps = r->reps ? r->reps : 1, t, warm, cursor = 0;

	if (c->kind == CK_CHILD)
		return child_sample(r, c->child_fn);
	arena_ensure(ws);
	switch (r->op) {
	case REQ_SWEEP:
		if (r->cold) {
			/* beyond the caches: keep walking fresh memory */
			run_sweep(c, r, 1, &sweep_cursor);
			t = run_sweep(c, r, reps, &sweep_cursor);
		} else {
			warm = (ws - r->size) / ((r->size + 63) & ~63ul) + 1;
			run_sweep(c, r, warm > reps ? warm : reps, &cursor);
			cursor = 0;
			t = run_sweep(c, r, reps, &cursor);
		}
		return (double)t / (double)reps;
	case REQ_RANDOM:
		run_random(c, r, 1);
		t = run_random(c, r, reps);
		return (double)t / (double)(reps * RANDOM_COUNT);
	case REQ_CHUNKS:
		run_chunks(c, r, 1, r->size * 64 < ws ? r->size * 64 : ws);
		t = run_chunks(c, r, reps, ws);
		return (double)t / (double)reps;
	default:
		return 0;
	}
}

uint64_t
bench_sample_ns(void)
{
	return opt.quick ? 500000 : 1000000;
}

void
calibrate(const struct contender *c, struct req *r)
{
	uint64_t target = bench_sample_ns();
	double ns;

	r->reps = 1;
	for (;;) {
		ns = sample(c, r) * (double)r->reps;
		if (r->op == REQ_RANDOM)
			ns *= RANDOM_COUNT;
		if (ns >= (double)target / 8 || r->reps >= (1u << 30))
			break;
		r->reps *= 8;
	}
	r->reps = (uint64_t)((double)r->reps * (double)target / ns);
	if (r->reps < 1)
		r->reps = 1;
}

void
measure_samples(const struct contender *const *cs, int n, const struct req *r,
		int trials, double (*ret_v)[MEASURE_MAX_TRIALS])
{
	struct req rs[MEASURE_MAX_CONTENDERS];
	int t, i;

	if (n > MEASURE_MAX_CONTENDERS)
		n = MEASURE_MAX_CONTENDERS;
	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	/* Each contender does about the same time per sample, not the same
	 * number of calls: a syscall must not take 100 times longer. */
	for (i = 0; i < n; i++) {
		rs[i] = *r;
		if (!r->reps)
			calibrate(cs[i], &rs[i]);
	}
	/*
	 * A new order every trial (a fixed shuffle): a contender that
	 * disturbs the caches, the TLB or the predictors (a system call, the
	 * glibc child) must not always run right before the same one.
	 */
	for (t = 0; t < trials; t++) {
		int order[MEASURE_MAX_CONTENDERS];
		uint64_t seed = 0x9e3779b97f4a7c15u * (uint64_t)(t + 1);

		for (i = 0; i < n; i++)
			order[i] = i;
		for (i = n - 1; i > 0; i--) {
			int j = (int)(xorshift(&seed) % (uint64_t)(i + 1));
			int tmp = order[i];

			order[i] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i < n; i++)
			ret_v[order[i]][t] =
			    sample(cs[order[i]], &rs[order[i]]);
	}
}

void
measure(const struct contender *const *cs, int n, const struct req *r,
	int trials, double *ret_ns)
{
	double v[MEASURE_MAX_CONTENDERS][MEASURE_MAX_TRIALS];
	int i;

	if (n > MEASURE_MAX_CONTENDERS)
		n = MEASURE_MAX_CONTENDERS;
	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	measure_samples(cs, n, r, trials, v);
	for (i = 0; i < n; i++)
		ret_ns[i] = median(v[i], trials);
}

/* The per-trial ratios num/den into q; how many */
static int
trial_ratios(const double *num, const double *den, int trials,
	     double q[static MEASURE_MAX_TRIALS])
{
	int t;

	if (trials > MEASURE_MAX_TRIALS)
		trials = MEASURE_MAX_TRIALS;
	for (t = 0; t < trials; t++)
		q[t] = num[t] / den[t];
	return trials;
}

double
median_ratio(const double *num, const double *den, int trials)
{
	double q[MEASURE_MAX_TRIALS];

	return median(q, trial_ratios(num, den, trials, q));
}

double
ratio_spread(const double *num, const double *den, int trials)
{
	double q[MEASURE_MAX_TRIALS];

	return spread(q, trial_ratios(num, den, trials, q));
}

int
bench_trials(int quick_default, int full_default)
{
	if (opt.trials)
		return opt.trials;
	return opt.quick ? quick_default : full_default;
}

/* ------------------------------------------------------------------ */
/* glibc under GLIBC_TUNABLES, in a child answering requests on a pipe */

static pid_t child_pid;
static int child_in = -1, child_out = -1, child_failed;
static char child_setting[160];
static size_t glibc_rep_threshold;
static const struct contender child_contenders[CHILD_COUNT] = {
    [CHILD_GLIBC] = {.name = "memcpy(tuned)",
		     .kind = CK_CHILD,
		     .child_fn = CHILD_GLIBC},
    [CHILD_UA_MEMCPY] = {.name = "ua_memcpy[tuned child]",
			 .kind = CK_CHILD,
			 .child_fn = CHILD_UA_MEMCPY},
    [CHILD_UA_FROM_USER] = {.name = "copy_from_user[tuned child]",
			    .kind = CK_CHILD,
			    .child_fn = CHILD_UA_FROM_USER},
    [CHILD_UA_TO_USER] = {.name = "copy_to_user[tuned child]",
			  .kind = CK_CHILD,
			  .child_fn = CHILD_UA_TO_USER},
};
/* What the child runs for each: the same contenders as the parent's */
static const struct contender *const child_runs[CHILD_COUNT] = {
    [CHILD_GLIBC] = &c_glibc,
    [CHILD_UA_MEMCPY] = &c_ua_memcpy,
    [CHILD_UA_FROM_USER] = &c_ua_from_user,
    [CHILD_UA_TO_USER] = &c_ua_to_user,
};

static int
full_io(int fd, void *buf, size_t n, int wr)
{
	char *p = buf;

	while (n) {
		ssize_t k = wr ? write(fd, p, n) : read(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int
find_interp(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_INTERP) {
			*(const char **)data =
			    (const char *)(info->dlpi_addr +
					   info->dlpi_phdr[i].p_vaddr);
			return 1;
		}
	return 1; /* only the executable, listed first */
}

/*
 * glibc's own non-temporal threshold, as its dynamic loader reports it;
 * else glibc's formula (3/4 of the shared cache).  ret_how says which.
 * Its rep_movsb threshold too (glibc_rep_threshold), else glibc's
 * formula: 2048 bytes per 16 bytes of the widest vector it uses.
 */
static size_t
glibc_nt_threshold(const char **ret_how)
{
	const char *interp = NULL;
	char cmd[512], line[256];
	size_t v = 0;
	FILE *f;

	glibc_rep_threshold = 2048 * (machine.avx512f && machine.avx512vl ? 4
				      : machine.avx2                      ? 2
									  : 1);

	dl_iterate_phdr(find_interp, &interp);
	if (interp && !strchr(interp, '\'')) {
		snprintf(cmd, sizeof(cmd), "'%s' --list-tunables 2>/dev/null",
			 interp);
		f = popen(cmd, "r");
		while (f && fgets(line, sizeof(line), f)) {
			const char *key =
			    "glibc.cpu.x86_non_temporal_threshold:";

			const char *rep = "glibc.cpu.x86_rep_movsb_threshold:";

			if (!strncmp(line, key, strlen(key)))
				v = strtoull(line + strlen(key), NULL, 0);
			if (!strncmp(line, rep, strlen(rep)))
				glibc_rep_threshold =
				    strtoull(line + strlen(rep), NULL, 0);
		}
		if (f)
			pclose(f);
	}
	if (v) {
		*ret_how = "reported by ld.so --list-tunables";
		return v;
	}
	*ret_how = "3/4 of the LLC: ld.so did not report it";
	return machine.llc / 4 * 3;
}

static int
child_start(void)
{
	int to_child[2], from_child[2];
	char cpu[16], env_buf[256], *args[4];
	const char *how, *old = getenv("GLIBC_TUNABLES");
	size_t nt = glibc_nt_threshold(&how);
	extern char **environ;
	char **envp;
	int n, i;

	snprintf(child_setting, sizeof(child_setting),
		 "GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=%#zx (%s)",
		 nt, how);
	snprintf(env_buf, sizeof(env_buf),
		 "GLIBC_TUNABLES=%s%sglibc.cpu.x86_rep_movsb_threshold=%#zx",
		 old ? old : "", old ? ":" : "", nt);
	for (n = 0; environ[n]; n++)
		;
	envp = calloc((size_t)n + 2, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	for (i = n = 0; environ[i]; i++)
		if (strncmp(environ[i], "GLIBC_TUNABLES=", 15))
			envp[n++] = environ[i];
	envp[n++] = env_buf;
	snprintf(cpu, sizeof(cpu), "%d", machine.cpu);
	args[0] = "uaccess-bench";
	args[1] = GLIBC_CHILD_ARG;
	args[2] = cpu;
	args[3] = NULL;
	if (pipe2(to_child, O_CLOEXEC) || pipe2(from_child, O_CLOEXEC)) {
		free(envp);
		return -errno;
	}
	fflush(NULL);
	child_pid = fork();
	if (child_pid == 0) {
		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		execve("/proc/self/exe", args, envp);
		_exit(127);
	}
	free(envp);
	close(to_child[0]);
	close(from_child[1]);
	if (child_pid < 0) {
		close(to_child[1]);
		close(from_child[0]);
		return -errno;
	}
	child_in = to_child[1];
	child_out = from_child[0];
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* The tunable is x86's */
#if defined(__x86_64__) || defined(__i386__)
#define HAVE_REP_MOVSB_TUNABLE 1
#else
#define HAVE_REP_MOVSB_TUNABLE 0
#endif

const struct contender *
tuned_child(enum child_fn fn)
{
	int r;

	if (!HAVE_REP_MOVSB_TUNABLE || !opt.glibc_tuned || child_failed)
		return NULL;
	if (child_pid > 0)
		return &child_contenders[fn];
	r = child_start();
	if (r < 0) {
		child_failed = 1;
		say("glibc with GLIBC_TUNABLES: cannot start the child: %s",
		    strerror(-r));
		return NULL;
	}
	return &child_contenders[fn];
}

const struct contender *
glibc_tuned(void)
{
	return tuned_child(CHILD_GLIBC);
}

size_t
glibc_rep_movsb_threshold(void)
{
	return glibc_tuned() ? glibc_rep_threshold : 0;
}

const char *
glibc_tuned_setting(void)
{
	return child_setting;
}

static double
child_sample(const struct req *r, uint32_t fn)
{
	struct req q = *r;
	double ns;

	q.child_fn = fn;
	if (child_in < 0 || full_io(child_in, &q, sizeof(q), 1) ||
	    full_io(child_out, &ns, sizeof(ns), 0))
		die("the glibc child (%s) stopped answering", child_setting);
	return ns;
}

void
glibc_child_stop(void)
{
	struct req q = {.op = REQ_QUIT};

	if (child_pid <= 0)
		return;
	full_io(child_in, &q, sizeof(q), 1);
	close(child_in);
	close(child_out);
	waitpid(child_pid, NULL, 0);
	child_pid = 0;
	child_in = child_out = -1;
}

/*
 * In the child: answer requests until told to quit, with glibc memcpy or
 * with the library, so that each ratio against tuned glibc is taken in
 * one process as the parent's are against glibc as shipped.
 */
int
glibc_child_main(int argc, char **argv)
{
	struct req r;

	if (argc > 2)
		pin_cpu(atoi(argv[2]));
	clock_calibrate();
	self_pid = getpid();
	if (ua_init() < 0)
		return 1;
	while (!full_io(0, &r, sizeof(r), 0) && r.op != REQ_QUIT) {
		double ns = r.child_fn < CHILD_COUNT
				? sample(child_runs[r.child_fn], &r)
				: NAN;

		if (full_io(1, &ns, sizeof(ns), 1))
			break;
	}
	return 0;
}

void
measure_init(void)
{
	self_pid = getpid();
	clock_calibrate();
}
