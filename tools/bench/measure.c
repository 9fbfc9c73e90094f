/* SPDX-License-Identifier: MIT */
/*
 * Who is measured: the library's entries, glibc, process_vm_readv; and
 * child processes that run glibc's memcpy and the library, under
 * GLIBC_TUNABLES (the tuned child) or as shipped, answering the same
 * requests (timed there by the same harness), so that the two glibc
 * configurations are measured side by side, each in several processes.
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

int
forced_contenders(enum contender_kind kind, struct contender *forced,
		  const struct contender **ret, int max)
{
	const struct ua_strategy *s;
	size_t n, i;
	int k = 0;

	s = ua_strategies(&n);
	for (i = 0; i < n && k < max; i++) {
		if (!ua_strategy_usable(&s[i]))
			continue;
		forced[k] = (struct contender){
		    .name = s[i].name, .kind = kind, .strategy = s[i].copy};
		ret[k] = &forced[k];
		k++;
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* Passes */

double
time_pass(pass_fn volatile fn, uint64_t *a, unsigned reps, uint64_t *sink)
{
	uint64_t t0 = cpu_ns();
	unsigned r;

	for (r = 0; r < reps; r++)
		*sink += fn(a);
	return (double)cpu_since(t0) / reps;
}

unsigned
pass_reps(pass_fn fn, uint64_t *a, unsigned reps, uint64_t *sink)
{
	while (time_pass(fn, a, reps, sink) * reps <
		   (double)harness_sample_ns &&
	       reps < (1u << 24))
		reps *= 2;
	return reps;
}

static double child_sample(const struct contender *c, const struct req *r);

int
bench_trials(int quick_default, int full_default)
{
	if (opt.trials)
		return opt.trials;
	return opt.quick ? quick_default : full_default;
}

/* ------------------------------------------------------------------ */
/*
 * Processes: the same binary re-executed, answering requests on a pipe.
 * Process 0 of glibc as shipped is this one; its others, and every process
 * of glibc under GLIBC_TUNABLES (the first being "the tuned child"), are
 * children.  Each measures glibc and the library, so that a ratio is
 * always taken in one process.
 */

struct child {
	pid_t pid;
	int in, out, failed;
};
/* A request on the pipe: which contender of child_runs, and the request */
struct child_req {
	uint32_t fn; /* enum child_fn */
	struct req r;
};
/* Which process and contender a remote contender is */
struct remote_id {
	struct child *c;
	uint32_t fn;
};
static struct child children[GLIBC_CONFIGS][BENCH_MAX_PROCESSES];
static struct remote_id remote_ids[GLIBC_CONFIGS][BENCH_MAX_PROCESSES]
				  [CHILD_COUNT];
static struct contender remote_cs[GLIBC_CONFIGS][BENCH_MAX_PROCESSES]
				 [CHILD_COUNT];
static char remote_names[GLIBC_CONFIGS][BENCH_MAX_PROCESSES][CHILD_COUNT][48];
static char child_setting[160];
static size_t glibc_rep_threshold;
/* What a child runs for each: the same contenders as the parent's */
static const struct contender *const child_runs[CHILD_COUNT] = {
    [CHILD_GLIBC] = &c_glibc,
    [CHILD_UA_MEMCPY] = &c_ua_memcpy,
    [CHILD_UA_FROM_USER] = &c_ua_from_user,
    [CHILD_UA_TO_USER] = &c_ua_to_user,
};
/* The tuned child's contenders keep the names the tables have always had */
static const char *const tuned_names[CHILD_COUNT] = {
    "memcpy(tuned)", "ua_memcpy[tuned child]", "copy_from_user[tuned child]",
    "copy_to_user[tuned child]"};

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

/* ua_cpu() has the feature of that name (ua_arch_feature_name) */
static int
cpu_has(const char *name)
{
	const char *f;
	unsigned bit;

	for (bit = 0; bit < 64; bit++)
		if ((f = ua_arch_feature_name(bit)) && !strcmp(f, name))
			return (ua_cpu()->features >> bit & 1) != 0;
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

	glibc_rep_threshold = 2048 * (cpu_has("avx512") ? 4
				      : cpu_has("avx2") ? 2
							: 1);

	interp = bench_glibc_loader(); /* --glibc's, else the system's */
	if (!interp)
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
	return machine.llc_reported / 4 * 3;
}

/* Start c, a process of glibc as shipped or (tuned) under its tunable */
static int
child_start(struct child *c, int tuned)
{
	int to_child[2], from_child[2];
	char cpu[16], env_buf[256], *args[4];
	const char *how, *old = getenv("GLIBC_TUNABLES");
	extern char **environ;
	char **envp;
	int n, i;

	if (tuned) {
		size_t nt = glibc_nt_threshold(&how);

		snprintf(
		    child_setting, sizeof(child_setting),
		    "GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=%#zx "
		    "(%s)",
		    nt, how);
		snprintf(env_buf, sizeof(env_buf),
			 "GLIBC_TUNABLES=%s%sglibc.cpu.x86_rep_movsb_threshold="
			 "%#zx",
			 old ? old : "", old ? ":" : "", nt);
	}
	for (n = 0; environ[n]; n++)
		;
	envp = calloc((size_t)n + 2, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	for (i = n = 0; environ[i]; i++)
		if (!tuned || strncmp(environ[i], "GLIBC_TUNABLES=", 15))
			envp[n++] = environ[i];
	if (tuned)
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
	c->pid = fork();
	if (c->pid == 0) {
		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		bench_exec_self(args, envp);
		_exit(127);
	}
	free(envp);
	close(to_child[0]);
	close(from_child[1]);
	if (c->pid < 0) {
		close(to_child[1]);
		close(from_child[0]);
		return -errno;
	}
	c->in = to_child[1];
	c->out = from_child[0];
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
glibc_process(enum glibc_config g, int p, enum child_fn fn)
{
	struct child *c = &children[g][p];
	struct contender *rc = &remote_cs[g][p][fn];
	int r, k;

	if (g == GLIBC_SHIPPED && p == 0)
		return child_runs[fn];
	if (g == GLIBC_TUNED && (!HAVE_REP_MOVSB_TUNABLE || !opt.glibc_tuned))
		return NULL;
	if (p >= bench_processes() || c->failed)
		return NULL;
	if (c->pid <= 0) {
		r = child_start(c, g == GLIBC_TUNED);
		if (r < 0) {
			c->failed = 1;
			say("%s, process %d: cannot start it: %s",
			    g == GLIBC_TUNED ? "glibc with GLIBC_TUNABLES"
					     : "glibc as shipped",
			    p + 1, strerror(-r));
			return NULL;
		}
		for (k = 0; k < CHILD_COUNT; k++) {
			remote_ids[g][p][k] =
			    (struct remote_id){c, (uint32_t)k};
			if (g == GLIBC_TUNED && p == 0)
				snprintf(remote_names[g][p][k],
					 sizeof(remote_names[g][p][k]), "%s",
					 tuned_names[k]);
			else
				snprintf(
				    remote_names[g][p][k],
				    sizeof(remote_names[g][p][k]),
				    "%s%s[process %d]", child_runs[k]->name,
				    g == GLIBC_TUNED ? "(tuned)" : "", p + 1);
			remote_cs[g][p][k] =
			    (struct contender){.name = remote_names[g][p][k],
					       .kind = CK_REMOTE,
					       .remote = child_sample,
					       .data = &remote_ids[g][p][k]};
		}
	}
	return rc;
}

const struct contender *
tuned_child(enum child_fn fn)
{
	return glibc_process(GLIBC_TUNED, 0, fn);
}

/* base's time over lib's in process p of g; NAN without that process */
static double
process_ratio(enum glibc_config g, int p, enum child_fn base, enum child_fn lib,
	      const struct req *r, int trials, struct ratio_pool *pool)
{
	const struct contender *cs[2] = {glibc_process(g, p, base),
					 glibc_process(g, p, lib)};
	double v[2][MEASURE_MAX_TRIALS];

	if (!cs[0] || !cs[1])
		return NAN;
	measure_samples(cs, 2, r, trials, v);
	if (pool)
		pool_add(pool, v[0], v[1], trials);
	return median_ratio(v[0], v[1], trials);
}

void
pool_add(struct ratio_pool *pool, const double *num, const double *den,
	 int trials)
{
	int t;

	for (t = 0; t < trials && t < MEASURE_MAX_TRIALS; t++)
		if (pool->n < RATIO_POOL_MAX)
			pool->q[pool->n++] = num[t] / den[t];
}

double
pool_spread(const struct ratio_pool *pool)
{
	return spread(pool->q, pool->n);
}

/* The median of the n figures of each that are not NAN; NAN if none */
static double
median_of_processes(const double *each, int n)
{
	double got[BENCH_MAX_PROCESSES];
	int i, k = 0;

	for (i = 0; i < n && i < BENCH_MAX_PROCESSES; i++)
		if (!isnan(each[i]))
			got[k++] = each[i];
	return k ? median(got, k) : NAN;
}

double
across_processes(enum glibc_config g, int first, enum child_fn base,
		 enum child_fn lib, const struct req *r, int trials,
		 double *each, struct ratio_pool *pool)
{
	int p, n = bench_processes();

	for (p = first; p < n; p++)
		each[p] = process_ratio(g, p, base, lib, r, trials, pool);
	return median_of_processes(each, n);
}

int
bench_processes(void)
{
	return opt.processes ? opt.processes : BENCH_PROCESSES;
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
child_sample(const struct contender *c, const struct req *r)
{
	const struct remote_id *id = c->data;
	struct child_req q = {.fn = id->fn, .r = *r};
	double ns;

	if (id->c->in < 0 || full_io(id->c->in, &q, sizeof(q), 1) ||
	    full_io(id->c->out, &ns, sizeof(ns), 0))
		die("the child measuring %s stopped answering", c->name);
	return ns;
}

void
glibc_child_stop(void)
{
	struct child_req q = {.r.op = REQ_QUIT};
	int g, p;

	for (g = 0; g < GLIBC_CONFIGS; g++)
		for (p = 0; p < BENCH_MAX_PROCESSES; p++) {
			struct child *c = &children[g][p];

			if (c->pid <= 0)
				continue;
			full_io(c->in, &q, sizeof(q), 1);
			close(c->in);
			close(c->out);
			waitpid(c->pid, NULL, 0);
			c->pid = 0;
			c->in = c->out = -1;
		}
}

/*
 * In the child: answer requests until told to quit, with glibc memcpy or
 * with the library, so that each ratio against tuned glibc is taken in
 * one process as the parent's are against glibc as shipped.
 */
int
glibc_child_main(int argc, char **argv)
{
	struct child_req q;

	if (argc > 2)
		pin_cpu(atoi(argv[2]));
	measure_init();
	if (ua_init() < 0)
		return 1;
	while (!full_io(0, &q, sizeof(q), 0) && q.r.op != REQ_QUIT) {
		double ns =
		    q.fn < CHILD_COUNT ? sample(child_runs[q.fn], &q.r) : NAN;

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
