/* SPDX-License-Identifier: MIT */
/*
 * Shared by the tests: checks, and memory layouts with a bad region at a
 * known place.  No framework: a failed check prints and exits 1.
 */
#ifndef UA_TEST_H
#define UA_TEST_H

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uaccess.h>

#define T_PASS 0
#define T_FAIL 1
#define T_SKIP 77

static unsigned long t_checks;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		t_checks++;                                                    \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, \
				__LINE__, #cond);                              \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			exit(T_FAIL);                                          \
		}                                                              \
	} while (0)

#define CHECK_EQ(a, b)                                                         \
	CHECK((long long)(a) == (long long)(b), "%s = %lld, expected %lld",    \
	      #a, (long long)(a), (long long)(b))

static inline void
t_done(const char *name)
{
	printf("%s: %lu checks passed\n", name, t_checks);
}

static inline size_t
t_page(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* The kinds of bad memory a copy can run into */
enum t_bad {
	T_BAD_NONE,     /* PROT_NONE */
	T_BAD_UNMAPPED, /* a hole in the address space */
	T_BAD_RDONLY,   /* readable, not writable */
	T_BAD_SIGBUS,   /* a shared file mapping past the end of the file */
	T_BAD_KINDS
};

static const char *const t_bad_names[] = {"prot_none", "unmapped", "read_only",
					  "sigbus"};

/* Does this kind stop a read?  (read-only memory stops only writes) */
static inline int
t_bad_blocks_read(enum t_bad kind)
{
	return kind != T_BAD_RDONLY;
}

/*
 * `good` pages of 0x5a bytes, then one bad page of the given kind, then a
 * PROT_NONE guard page (for T_BAD_UNMAPPED, whatever the kernel has there).
 */
struct t_layout {
	char *base; /* start of the whole mapping */
	size_t len; /* length of the whole mapping */
	char *bad;  /* first byte of the bad page */
	int fd;     /* memfd for T_BAD_SIGBUS, or -1 */
};

/*
 * Where to put a layout with a hole: low in the address space, below the
 * big gap between the heap and the mappings.  The kernel fills the highest
 * gap that fits, so a one-page hole among the mappings is soon filled by
 * someone's one-page mmap (ASan's allocator does it within seconds) and a
 * copy that should fault reads it; one down here stays a hole.  A hint
 * only: if the kernel (or valgrind, or qemu) puts it elsewhere, so be it.
 */
static inline void *
t_low_hint(size_t len)
{
	static uintptr_t next;
	uintptr_t at;

	if (!next)
		next = sizeof(void *) == 8 ? (uintptr_t)0x200000000000ull
					   : (uintptr_t)0x20000000u;
	at = next;
	next += len + 16 * t_page();
	return (void *)at;
}

static inline struct t_layout
t_layout_new(size_t good_pages, enum t_bad kind)
{
	size_t pg = t_page(), len = (good_pages + 2) * pg;
	struct t_layout l = {0};
	char *p;

	l.fd = -1;
	l.len = len;
	if (kind == T_BAD_SIGBUS) {
		l.fd = memfd_create("uaccess-test", 0);
		CHECK(l.fd >= 0, "memfd_create: %s", strerror(errno));
		CHECK(ftruncate(l.fd, (off_t)len) == 0, "ftruncate");
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, l.fd,
			 0);
		CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));
		memset(p, 0x5a, good_pages * pg);
		/* Truncate: the pages past the end now raise SIGBUS */
		CHECK(ftruncate(l.fd, (off_t)(good_pages * pg)) == 0,
		      "ftruncate");
	} else {
		p = mmap(kind == T_BAD_UNMAPPED ? t_low_hint(len) : NULL, len,
			 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));
		memset(p, 0x5a, len);
		if (kind == T_BAD_NONE)
			CHECK(!mprotect(p + good_pages * pg, pg, PROT_NONE),
			      "mprotect");
		else if (kind == T_BAD_UNMAPPED)
			CHECK(!munmap(p + good_pages * pg, pg), "munmap");
		else if (kind == T_BAD_RDONLY)
			CHECK(!mprotect(p + good_pages * pg, pg, PROT_READ),
			      "mprotect");
		if (kind != T_BAD_UNMAPPED)
			CHECK(
			    !mprotect(p + (good_pages + 1) * pg, pg, PROT_NONE),
			    "mprotect");
	}
	l.base = p;
	l.bad = p + good_pages * pg;
	return l;
}

static inline void
t_layout_free(struct t_layout *l)
{
	munmap(l->base, l->len);
	if (l->fd >= 0)
		close(l->fd);
}

/*
 * Does this system report a SIGBUS past the end of a file at the byte that
 * faulted?  Linux does; qemu-i386 (Debian 12's qemu-user 7.2) reports an
 * address one page higher, so that no handler can know which bytes are
 * good.  A raw load, no library involved, decides it once per process.
 */
static sigjmp_buf t_sigbus_jb;
static void *volatile t_sigbus_addr;
/* si_addr less the faulting byte's address, once t_sigbus_addr_exact ran */
static long t_sigbus_skew;

static void
t_sigbus_probe_handler(int signo, siginfo_t *info, void *uc)
{
	(void)signo;
	(void)uc;
	t_sigbus_addr = info->si_addr;
	siglongjmp(t_sigbus_jb, 1);
}

static inline int
t_sigbus_addr_exact(void)
{
	static int known, exact;
	struct sigaction sa, old;
	struct t_layout l;
	volatile char *at;

	if (known)
		return exact;
	l = t_layout_new(1, T_BAD_SIGBUS);
	at = l.bad + 100;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = t_sigbus_probe_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(SIGBUS, &sa, &old), "sigaction");
	t_sigbus_addr = NULL;
	if (!sigsetjmp(t_sigbus_jb, 1))
		(void)*at;
	CHECK(!sigaction(SIGBUS, &old, NULL), "sigaction");
	CHECK(t_sigbus_addr != NULL, "no SIGBUS past the end of a memfd");
	t_sigbus_skew = (long)((const char *)t_sigbus_addr - (const char *)at);
	exact = !t_sigbus_skew;
	if (!exact)
		printf("SIGBUS cases skipped: this system reports a load at %p "
		       "past the end of a file with si_addr %p (qemu-i386 "
		       "misreports it by a page); no handler can tell which "
		       "bytes are good\n",
		       (void *)at, t_sigbus_addr);
	t_layout_free(&l);
	known = 1;
	return exact;
}

/* Can a test count on faults of this kind being reported truthfully? */
static inline int
t_bad_testable(enum t_bad kind)
{
	return kind != T_BAD_SIGBUS || t_sigbus_addr_exact();
}

/*
 * Does a thread keep its own thread-local storage when a signal handler
 * returns?  Linux keeps each thread's TLS descriptor apart; qemu-i386
 * (Debian 12's qemu-user 7.2) keeps one GDT for all threads, in which the
 * newest thread's creation wrote its TLS entry, and sigreturn reloads %gs
 * from it: every other thread that returns from a handler goes on with the
 * newest thread's TLS (errno, pthread_self, the library's records of its
 * mask), and pthread_join of that thread fails with EDEADLK.  Decided once
 * per process, in a fork child (the probe spoils the TLS of the thread that
 * runs it); call it from main before any thread is created.
 */
static void
t_tls_probe_handler(int signo)
{
	(void)signo;
}

static void *
t_tls_probe_thread(void *p)
{
	return p;
}

static inline int
t_threads_keep_tls(void)
{
	static int known, keep;
	pid_t pid;
	int status;

	if (known)
		return keep;
	pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		/* pthread_self is declared const: called through a pointer,
		 * it reads the thread pointer again */
		pthread_t (*volatile self)(void) = pthread_self;
		pthread_t me = self();
		struct sigaction sa;
		pthread_t t;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = t_tls_probe_handler;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, NULL) ||
		    pthread_create(&t, NULL, t_tls_probe_thread, NULL) ||
		    pthread_join(t, NULL))
			_exit(2);
		raise(SIGUSR1);
		_exit(pthread_equal(self(), me) ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid: %s", strerror(errno));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) <= 1,
	      "the TLS probe: child status %#x", status);
	keep = WEXITSTATUS(status) == 0;
	if (!keep)
		printf(
		    "threaded cases skipped: here a thread that returns from "
		    "a signal handler goes on with the TLS of the thread "
		    "created last (qemu-i386 reloads %%gs from one GDT all "
		    "threads share)\n");
	known = 1;
	return keep;
}

/*
 * In a fork child: run this program again with `args` (args[0] first) and
 * `env` (NULL: ours), the way ctest runs the tests: under the emulator
 * named in UA_TEST_EMULATOR ("qemu-aarch64 -L /usr/aarch64-linux-gnu")
 * when there is one, even where the kernel could run it (qemu-i386 chosen
 * on a kernel that runs 32-bit programs), so that the child sees the CPU
 * its parent saw; else directly.  Exits 126 if it cannot.
 */
extern char **environ;

static inline void
t_exec_self(const char *const *args, const char *const *env)
{
	char self[4096], emu[512], *argv[32], *save = NULL, *w;
	const char *e = getenv("UA_TEST_EMULATOR");
	ssize_t n;
	int k = 0, i;

	if (!env)
		env = (const char *const *)environ;
	if (!e || !*e) {
		execve("/proc/self/exe", (char *const *)args,
		       (char *const *)env);
		_exit(126);
	}
	if (strlen(e) >= sizeof(emu))
		_exit(126);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		_exit(126);
	self[n] = '\0';
	strcpy(emu, e);
	for (w = strtok_r(emu, " ", &save); w && k < 16;
	     w = strtok_r(NULL, " ", &save))
		argv[k++] = w;
	argv[k++] = self;
	for (i = 1; args[i] && k < 31; i++)
		argv[k++] = (char *)args[i];
	argv[k] = NULL;
	execve(argv[0], argv, (char *const *)env);
	_exit(126);
}

/* Fill with a pattern that differs at every offset and between buffers */
static inline void
t_fill(void *p, size_t n, unsigned seed)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		c[i] = (unsigned char)(i * 131 + seed * 29 + (i >> 8) + 1);
}

/* Is every byte of p[0..n) c? */
static inline int
t_all(const void *p, size_t n, unsigned char c)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != c)
			return 0;
	return 1;
}

/* Seconds on the monotonic clock */
static inline double
t_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The sizes a test copies: each in [1, max] once, in the order added */
struct t_sizes {
	size_t max, n;
	size_t v[512];
};

static inline void
t_sizes_add(struct t_sizes *s, size_t n)
{
	size_t i;

	if (n < 1 || n > s->max)
		return;
	for (i = 0; i < s->n; i++)
		if (s->v[i] == n)
			return;
	CHECK(s->n < sizeof(s->v) / sizeof(s->v[0]), "too many sizes");
	s->v[s->n++] = n;
}

/* The name of the strategy forced with UACCESS_TUNABLES=strategy=NAME */
static inline const char *
t_forced_strategy(void)
{
	const char *t = getenv("UACCESS_TUNABLES"), *s;

	if (!t || !(s = strstr(t, "strategy=")))
		return NULL;
	return s + strlen("strategy=");
}

/*
 * For per-strategy tests: skip unless the forced strategy is the one in
 * force for every size (it is not when this CPU cannot run it).
 */
static inline void
t_require_forced_strategy(void)
{
	const char *want = t_forced_strategy();
	static const size_t sizes[] = {1, 64, 4096, 1 << 20};
	size_t i, n;

	if (!want)
		return;
	n = strcspn(want, ":");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const char *have = ua_copy_strategy(sizes[i]);

		if (strlen(have) != n || strncmp(have, want, n)) {
			printf("strategy %.*s not usable here (%s in force)\n",
			       (int)n, want, have);
			exit(T_SKIP);
		}
	}
}

#endif /* UA_TEST_H */
