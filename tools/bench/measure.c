/* SPDX-License-Identifier: MIT */
/*
 * Who is measured: the library's entries, glibc, process_vm_readv; and a
 * child process that runs glibc's memcpy under GLIBC_TUNABLES, answering
 * the same requests (timed there by the same harness) so that the two glibc
 * configurations are measured side by side.
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

static double child_sample(const struct contender *c, const struct req *r);

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
/* A request on the pipe: which contender of child_runs, and the request */
struct child_req {
	uint32_t fn; /* enum child_fn */
	struct req r;
};
static const uint32_t child_fns[CHILD_COUNT] = {
    CHILD_GLIBC, CHILD_UA_MEMCPY, CHILD_UA_FROM_USER, CHILD_UA_TO_USER};
#define CHILD(fn, n)                                                           \
	[fn] = {.name = n,                                                     \
		.kind = CK_REMOTE,                                             \
		.remote = child_sample,                                        \
		.data = &child_fns[fn]}
static const struct contender child_contenders[CHILD_COUNT] = {
    CHILD(CHILD_GLIBC, "memcpy(tuned)"),
    CHILD(CHILD_UA_MEMCPY, "ua_memcpy[tuned child]"),
    CHILD(CHILD_UA_FROM_USER, "copy_from_user[tuned child]"),
    CHILD(CHILD_UA_TO_USER, "copy_to_user[tuned child]"),
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
child_sample(const struct contender *c, const struct req *r)
{
	struct child_req q = {.fn = *(const uint32_t *)c->data, .r = *r};
	double ns;

	if (child_in < 0 || full_io(child_in, &q, sizeof(q), 1) ||
	    full_io(child_out, &ns, sizeof(ns), 0))
		die("the glibc child (%s) stopped answering", child_setting);
	return ns;
}

void
glibc_child_stop(void)
{
	struct child_req q = {.r.op = REQ_QUIT};

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
