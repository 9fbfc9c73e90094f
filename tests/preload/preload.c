/* SPDX-License-Identifier: MIT */
/*
 * Description: libuaccess-preload.so, run as LD_PRELOAD with
 * UACCESS_PRELOAD_STATS=1 (set by ctest): memcpy, mempcpy, __mempcpy,
 * __memcpy_chk and __mempcpy_chk resolve to it and copy every size and
 * alignment exactly; a constructor that runs before the library is
 * initialised copies; overlapping calls behave as memmove and are counted
 * exactly; __memcpy_chk aborts on an overflow; threads copy at once; the
 * counts printed at exit are right, even when the program closed stderr.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int fails;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);   \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			fails++;                                               \
		}                                                              \
	} while (0)

typedef void *copy_fn(void *, const void *, size_t);
typedef void *chk_fn(void *, const void *, size_t, size_t);

/* Looked up by name: what the program's references resolve to */
static copy_fn *p_memcpy, *p_mempcpy, *p___mempcpy;
static chk_fn *p___memcpy_chk, *p___mempcpy_chk;

static void
resolve(void)
{
	p_memcpy = (copy_fn *)dlsym(RTLD_DEFAULT, "memcpy");
	p_mempcpy = (copy_fn *)dlsym(RTLD_DEFAULT, "mempcpy");
	p___mempcpy = (copy_fn *)dlsym(RTLD_DEFAULT, "__mempcpy");
	p___memcpy_chk = (chk_fn *)dlsym(RTLD_DEFAULT, "__memcpy_chk");
	p___mempcpy_chk = (chk_fn *)dlsym(RTLD_DEFAULT, "__mempcpy_chk");
}

/* A constructor that runs before any other of this program's, and copies */
static char ctor_dst[300];
static int ctor_ok;

static void __attribute__((constructor(101))) early(void)
{
	char src[300];
	int i;

	resolve();
	for (i = 0; i < 300; i++)
		src[i] = (char)(i * 7 + 1);
	if (p_memcpy && p_memcpy(ctor_dst, src, 300) == ctor_dst &&
	    !memcmp(ctor_dst, src, 300))
		ctor_ok = 1;
}

static int
from_preload(const char *name, void *fn)
{
	Dl_info info;

	if (!fn || !dladdr(fn, &info) || !info.dli_fname)
		return 0;
	if (!strstr(info.dli_fname, "libuaccess-preload")) {
		fprintf(stderr, "%s resolves to %s\n", name, info.dli_fname);
		return 0;
	}
	return 1;
}

static void
fill(unsigned char *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 131 + (i >> 8));
}

/* Every size to 600, then some large ones, at many alignments; the bytes
 * around the destination stay untouched */
static void
exact_copies(void)
{
	static const size_t big[] = {
	    4095, 4096, 4097, 65536 + 3, (1u << 20) + 17, (9u << 20) + 5};
	size_t cap = (10u << 20) + 256, n, i;
	unsigned char *src = malloc(cap), *dst = malloc(cap);
	unsigned a, b;

	if (!src || !dst)
		abort();
	fill(src, cap, 3);
	for (n = 0; n <= 600; n++)
		for (a = 0; a < 64; a += 5)
			for (b = 0; b < 64; b += 7) {
				memset(dst, 0xee, n + 128);
				if (p_memcpy(dst + 64 + b, src + a, n) !=
				    dst + 64 + b) {
					CHECK(0, "memcpy(%zu) returned wrong",
					      n);
					return;
				}
				if (memcmp(dst + 64 + b, src + a, n) ||
				    dst[63 + b] != 0xee ||
				    dst[64 + b + n] != 0xee) {
					CHECK(0, "memcpy n=%zu src+%u dst+%u",
					      n, a, b);
					return;
				}
			}
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		n = big[i];
		memset(dst, 0, cap);
		CHECK(p_mempcpy(dst + 1, src + 2, n) == dst + 1 + n,
		      "mempcpy(%zu) return value", n);
		CHECK(!memcmp(dst + 1, src + 2, n) && dst[0] == 0 &&
			  dst[1 + n] == 0,
		      "mempcpy(%zu) bytes", n);
		CHECK(p___mempcpy(dst, src, n) == dst + n,
		      "__mempcpy(%zu) return value", n);
		CHECK(p___memcpy_chk(dst + 3, src, n, n) == dst + 3 &&
			  !memcmp(dst + 3, src, n),
		      "__memcpy_chk(%zu)", n);
		CHECK(p___mempcpy_chk(dst, src + 5, n, n + 1) == dst + n &&
			  !memcmp(dst, src + 5, n),
		      "__mempcpy_chk(%zu)", n);
	}
	free(src);
	free(dst);
}

/* memcpy with overlapping buffers: the preload does what memmove does */

static void
overlapping(void)
{
	static const size_t sizes[] = {1, 2, 17, 100, 4096, 100000};
	unsigned char *buf = malloc(300000), *ref = malloc(300000);
	size_t i;
	int d;

	if (!buf || !ref)
		abort();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (d = -3; d <= 3; d++) {
			size_t n = sizes[i], off = 100000;

			if (d == 0)
				continue;
			fill(buf, 300000, (unsigned)i);
			memcpy(ref, buf, 300000);
			memmove(ref + off + d, ref + off, n);
			p_memcpy(buf + off + d, buf + off, n);
			CHECK(!memcmp(buf, ref, 300000),
			      "overlapping memcpy n=%zu d=%d", n, d);
		}
	/* the same pointer: an overlap too */
	p_memcpy(buf, buf, 64);
	CHECK(buf[0] == (unsigned char)5, "memcpy(p, p, 64) changed p");
	free(buf);
	free(ref);
}

static void *
thread_copies(void *arg)
{
	unsigned char src[5000], dst[5000];
	size_t n;
	int k;

	fill(src, sizeof(src), (unsigned)(uintptr_t)arg);
	for (k = 0; k < 20; k++)
		for (n = 0; n < sizeof(src); n += 97) {
			p_memcpy(dst, src, n);
			if (memcmp(dst, src, n))
				return (void *)1;
		}
	return NULL;
}

static void
threads(void)
{
	pthread_t th[4];
	void *r;
	int i;

	for (i = 0; i < 4; i++)
		CHECK(!pthread_create(&th[i], NULL, thread_copies,
				      (void *)(uintptr_t)i),
		      "pthread_create");
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], &r);
		CHECK(!r, "thread %d copied wrong", i);
	}
}

/* __memcpy_chk with n > dstlen: glibc's "buffer overflow detected" */
static void
chk_overflow(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		char a[16] = {0}, b[16];

		alarm(20);
		p___memcpy_chk(b, a, 16, 8);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "fork/waitpid");
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
	      "__memcpy_chk overflow: expected SIGABRT, got status %#x", st);
}

/* Run as "stats-child": a few overlapping copies, then close stderr
 * before exit, as xz does; the counts must still arrive */
#define CHILD_OVERLAPS 3
static int
stats_child(void)
{
	unsigned char buf[1000];
	int i;

	resolve();
	fill(buf, sizeof(buf), 9);
	for (i = 0; i < CHILD_OVERLAPS; i++)
		p_memcpy(buf + 1 + i, buf, 100 * (size_t)(i + 1));
	fclose(stderr);
	close(2);
	return 0;
}

static void
stats_at_exit(const char *self)
{
	char out[4096], want[128], *p;
	size_t got = 0;
	int fds[2], st = 0;
	ssize_t k;
	pid_t pid;

	CHECK(!pipe(fds), "pipe");
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execl("/proc/self/exe", self, "stats-child", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (got < sizeof(out) - 1 &&
	       (k = read(fds[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += (size_t)k;
	out[got] = 0;
	close(fds[0]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	      "stats child: status %#x", st);
	p = strstr(out, "uaccess-preload: pid ");
	CHECK(p != NULL, "no counts at exit; got '%s'", out);
	if (!p)
		return;
	snprintf(want, sizeof(want),
		 "overlapping (to memmove) calls=%d bytes=%d\n", CHILD_OVERLAPS,
		 100 * CHILD_OVERLAPS * (CHILD_OVERLAPS + 1) / 2);
	CHECK(strstr(out, want) != NULL, "expected '%s' in '%s'", want, out);
	CHECK(strstr(out, ": sizes 0-16 ") != NULL, "no size histogram: '%s'",
	      out);
}

int
main(int argc, char **argv)
{
	const char *stats = getenv("UACCESS_PRELOAD_STATS");

	if (argc > 1 && !strcmp(argv[1], "stats-child"))
		return stats_child();
	if (!getenv("LD_PRELOAD") && !getenv("UA_TEST_PRELOADED")) {
		fprintf(stderr, "SKIP: run without LD_PRELOAD (ctest sets "
				"it)\n");
		return 77;
	}
	resolve();
	CHECK(from_preload("memcpy", (void *)p_memcpy), "memcpy");
	CHECK(from_preload("mempcpy", (void *)p_mempcpy), "mempcpy");
	CHECK(from_preload("__mempcpy", (void *)p___mempcpy), "__mempcpy");
	CHECK(from_preload("__memcpy_chk", (void *)p___memcpy_chk),
	      "__memcpy_chk");
	CHECK(from_preload("__mempcpy_chk", (void *)p___mempcpy_chk),
	      "__mempcpy_chk");
	if (fails)
		return 1;
	CHECK(ctor_ok, "memcpy in an early constructor");
	exact_copies();
	overlapping();
	threads();
	chk_overflow();
	CHECK(stats && !strcmp(stats, "1"),
	      "ctest runs this with UACCESS_PRELOAD_STATS=1");
	/* Under qemu-user a guest cannot execve another guest program */
	if (!getenv("UA_TEST_EMULATOR"))
		stats_at_exit(argv[0]);
	if (fails)
		return 1;
	printf("ok\n");
	return 0;
}
