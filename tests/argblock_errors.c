/* SPDX-License-Identifier: MIT */
/*
 * Description: every -EFAULT/-E2BIG/-ENOMEM path of copy_strings() and
 * ua_argblock_new() leaves no fd and no mapping behind.
 */
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>

#include "argblock.h"

static size_t pg;

/*
 * Build a block of max bytes with flags, copy argc strings of argv (user
 * memory) into it, and check the result, the bytes kept (want, n) and that
 * the failed call left no mapping and no fd; then free it and check that
 * nothing at all is left.
 */
static void
t_call(unsigned flags, size_t max, int argc, const char *const *argv,
       int want_ret, const char *want, size_t n)
{
	struct t_leaks before = t_leaks_now(), mid;
	struct ua_argblock *bp = NULL;
	char *got = malloc(n + 1);
	int r;

	CHECK(got, "out of memory");
	CHECK_EQ(ua_argblock_new(&bp, max, flags), 0);
	mid = t_leaks_now();
	r = ua_copy_strings(bp, argc, argv);
	CHECK(r == want_ret, "%s: ua_copy_strings = %d, expected %d",
	      t_backend_names[flags ? 1 + (flags >> 1) : 0], r, want_ret);
	CHECK_NO_LEAK(mid);
	CHECK_EQ(ua_argblock_size(bp), n);
	CHECK_EQ(ua_argblock_read(bp, got, n + 1), n);
	CHECK(!memcmp(got, want, n), "bytes kept differ");
	ua_argblock_free(bp);
	CHECK_NO_LEAK(before);
	free(got);
}

/*
 * t_layout_new(), but a hole is made far below where mmap(NULL) looks for
 * room: otherwise the block's own one-page mappings may land in it.
 */
#if UINTPTR_MAX > 0xffffffffu
#define T_FAR_FIRST ((uintptr_t)1 << 32)
#define T_FAR_END ((uintptr_t)1 << 40)
#define T_HUGE_BLOCK ((size_t)1 << 40)
#else
#define T_FAR_FIRST ((uintptr_t)1 << 24)
#define T_FAR_END ((uintptr_t)1 << 30)
#define T_HUGE_BLOCK ((size_t)LONG_MAX)
#endif
static struct t_layout
t_layout_far(size_t good_pages, enum t_bad kind)
{
	struct t_layout l = {0};
	uintptr_t hint;

	if (kind != T_BAD_UNMAPPED)
		return t_layout_new(good_pages, kind);
	l.fd = -1;
	l.len = (good_pages + 2) * pg;
	for (hint = T_FAR_FIRST; hint < T_FAR_END; hint <<= 1) {
		l.base = mmap((void *)hint, l.len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			      -1, 0);
		if (l.base != MAP_FAILED && l.base == (void *)hint)
			break;
		if (l.base != MAP_FAILED)
			munmap(l.base, l.len);
		l.base = NULL;
	}
	CHECK(l.base, "no room for a far layout");
	memset(l.base, 0x5a, l.len);
	l.bad = l.base + good_pages * pg;
	CHECK(!munmap(l.bad, pg), "munmap");
	CHECK(!mprotect(l.bad + pg, pg, PROT_NONE), "mprotect");
	return l;
}

/* Two pages: the first PROT_NONE, the second good */
static char *
t_bad_then_good(void)
{
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));
	CHECK(!mprotect(p, pg, PROT_NONE), "mprotect");
	return p;
}

static void
test_bad_argv(unsigned flags)
{
	char *p = t_bad_then_good();
	const char **v = (const char **)(p + pg) - 1;
	int kind;

	/* Whole array unreadable, NULL, below the user range, non-canonical */
	t_call(flags, 4096, 1, (const char *const *)p, -EFAULT, "", 0);
	t_call(flags, 4096, 2, NULL, -EFAULT, "", 0);
	t_call(flags, 4096, 1, (const char *const *)8, -EFAULT, "", 0);
	t_call(flags, 4096, 1, (const char *const *)0x8000000000000000ull,
	       -EFAULT, "", 0);
	/* On each kind of bad page (read-only: the pointers read are bad) */
	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		struct t_layout l = t_layout_far(1, (enum t_bad)kind);

		t_call(flags, 4096, 1, (const char *const *)l.bad, -EFAULT, "",
		       0);
		t_layout_free(&l);
	}

	/*
	 * argv[0] on the bad page, argv[1] and argv[2] readable: the last
	 * strings are copied first, then argv[0] fails.
	 */
	v[1] = "second";
	v[2] = "third";
	t_call(flags, 4096, 3, v, -EFAULT, "second\0third", 13);
	CHECK(!munmap(p, 2 * pg), "munmap");
}

static void
test_bad_string(unsigned flags)
{
	const char *v[3] = {"ok", NULL, NULL};
	int kind;

	/* The last pointer is read first */
	t_call(flags, 4096, 2, v, -EFAULT, "", 0);
	v[1] = (const char *)0xffff800000000000ull;
	t_call(flags, 4096, 2, v, -EFAULT, "", 0);
	v[0] = (const char *)4;
	v[1] = "ok";
	t_call(flags, 4096, 2, v, -EFAULT, "ok", 3);

	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		struct t_layout l = t_layout_far(2, (enum t_bad)kind);
		char *s = l.bad - 100;

		v[0] = "before";
		v[2] = "after";
		if (!t_bad_blocks_read((enum t_bad)kind)) {
			/* Strings in read-only memory are fine */
			char want[7 + 50 + 6];

			CHECK(!mprotect(l.bad, pg, PROT_READ | PROT_WRITE),
			      "rw");
			l.bad[49] = '\0';
			CHECK(!mprotect(l.bad, pg, PROT_READ), "ro");
			v[1] = l.bad;
			memcpy(want, "before", 7);
			memcpy(want + 7, l.bad, 50);
			memcpy(want + 57, "after", 6);
			t_call(flags, 4096, 3, v, 0, want, sizeof(want));
			t_layout_free(&l);
			continue;
		}
		/* The pointer itself on the bad page */
		v[1] = l.bad;
		t_call(flags, 4096, 3, v, -EFAULT, "after", 6);

		/* No NUL before the hole: -EFAULT, the top pointer unmoved */
		v[1] = s;
		t_call(flags, 4096, 3, v, -EFAULT, "after", 6);
		/* ... unless the block ends first: that is -E2BIG */
		t_call(flags, 100 + 6, 3, v, -E2BIG, "after", 6);
		t_call(flags, 101 + 6, 3, v, -EFAULT, "after", 6);

		/* Ending exactly at the hole: fine */
		l.bad[-1] = '\0';
		{
			char want[7 + 100 + 6];

			memcpy(want, "before", 7);
			memcpy(want + 7, s, 100);
			memcpy(want + 107, "after", 6);
			t_call(flags, 4096, 3, v, 0, want, sizeof(want));
			/* Exactly the room it needs, then one byte less */
			t_call(flags, sizeof(want), 3, v, 0, want,
			       sizeof(want));
			t_call(flags, sizeof(want) - 1, 3, v, -E2BIG, want + 7,
			       106);
		}

		/* A string spanning pages of the block, running into the hole
		 */
		l.bad[-1] = 0x5a;
		v[1] = l.bad - pg - 500;
		t_call(flags, 8 * pg, 3, v, -EFAULT, "after", 6);
		t_layout_free(&l);
	}
}

/* VmSize in bytes, read without allocating */
static size_t
t_vmsize(void)
{
	char buf[4096], *s;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	CHECK(fd >= 0, "open /proc/self/status");
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	CHECK(r > 0, "read /proc/self/status");
	buf[r] = '\0';
	s = strstr(buf, "VmSize:");
	CHECK(s, "no VmSize");
	return strtoull(s + 7, NULL, 10) * 1024;
}

static void
t_setrlimit(int res, rlim_t cur)
{
	struct rlimit rl;

	CHECK(!getrlimit(res, &rl), "getrlimit");
	rl.rlim_cur = cur;
	CHECK(!setrlimit(res, &rl), "setrlimit(%d, %llu): %s", res,
	      (unsigned long long)cur, strerror(errno));
}

/*
 * Does RLIMIT_AS take?  qemu-user accepts setrlimit(RLIMIT_AS) and ignores
 * it (it would limit the emulator itself): getrlimit then disagrees.
 */
static int
t_as_limit_works(void)
{
	static int works = -1;
	struct rlimit rl, now;

	if (works >= 0)
		return works;
	CHECK(!getrlimit(RLIMIT_AS, &rl), "getrlimit");
	t_setrlimit(RLIMIT_AS, t_vmsize() + ((rlim_t)1 << 30));
	CHECK(!getrlimit(RLIMIT_AS, &now), "getrlimit");
	t_setrlimit(RLIMIT_AS, rl.rlim_cur);
	works = now.rlim_cur != rl.rlim_cur;
	if (!works)
		printf("RLIMIT_AS does not take here (an emulator?): "
		       "address-space exhaustion not tested\n");
	return works;
}

/*
 * -ENOMEM from alloc_page (the memfd cannot grow past RLIMIT_FSIZE) in the
 * middle of a string, with the cache holding the page below mapped; and from
 * kmap (no address space left).
 */
static void
test_enomem_copy(unsigned flags)
{
	char s[9000];
	const char *v[] = {"low", s, "top"};
	struct t_leaks before, mid;
	struct ua_argblock *bp;
	struct rlimit fsize;
	void (*old)(int);
	int r;

	memset(s, 's', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	before = t_leaks_now();

	/*
	 * "top" takes page 3 (the memfd's first), s pages 1 (second) to 3:
	 * page 2 would be the third.
	 */
	CHECK(!getrlimit(RLIMIT_FSIZE, &fsize), "getrlimit");
	CHECK_EQ(ua_argblock_new(&bp, 4 * pg, flags), 0);
	mid = t_leaks_now();
	old = signal(SIGXFSZ, SIG_IGN);
	t_setrlimit(RLIMIT_FSIZE, 2 * pg);
	r = ua_copy_strings(bp, 3, v);
	t_setrlimit(RLIMIT_FSIZE, fsize.rlim_cur);
	signal(SIGXFSZ, old);
	CHECK_EQ(r, flags & UA_ARGBLOCK_WINDOWED ? -ENOMEM : 0);
	CHECK_NO_LEAK(mid);
	if (flags & UA_ARGBLOCK_WINDOWED) {
		char got[4];

		/* "top" kept; s and "low" not; the block still usable */
		CHECK_EQ(ua_argblock_maps(bp), 2); /* page 1 was mapped */
		CHECK_EQ(ua_argblock_size(bp), 4);
		CHECK_EQ(ua_argblock_read(bp, got, 4), 4);
		CHECK(!memcmp(got, "top", 4), "top");
		CHECK_EQ(ua_copy_strings(bp, 2, v), 0);
		CHECK_EQ(ua_argblock_size(bp), 4 + 4 + sizeof(s));
	}
	ua_argblock_free(bp);
	CHECK_NO_LEAK(before);

	/* No address space: kmap fails; the direct backend needs none */
	if (!t_as_limit_works())
		return;
	CHECK_EQ(ua_argblock_new(&bp, 4 * pg, flags), 0);
	mid = t_leaks_now();
	CHECK(!getrlimit(RLIMIT_AS, &fsize), "getrlimit");
	t_setrlimit(RLIMIT_AS, t_vmsize());
	r = ua_copy_strings(bp, 3, v);
	t_setrlimit(RLIMIT_AS, fsize.rlim_cur);
	CHECK_EQ(r, flags & UA_ARGBLOCK_WINDOWED ? -ENOMEM : 0);
	CHECK_EQ(ua_argblock_size(bp), flags ? 0 : 8 + sizeof(s));
	CHECK_NO_LEAK(mid);
	ua_argblock_free(bp);
	CHECK_NO_LEAK(before);
}

/* ua_argblock_new: out of memory, out of fds; *ret untouched */
static void
test_enomem_new(unsigned flags)
{
	struct ua_argblock *bp = (struct ua_argblock *)&bp, *keep = bp;
	struct t_leaks before = t_leaks_now();
	struct rlimit as, nofile;
	int r1, r2, r3, lowest;

	if (t_as_limit_works()) {
		CHECK(!getrlimit(RLIMIT_AS, &as), "getrlimit");
		t_setrlimit(RLIMIT_AS, t_vmsize() + (1 << 20));
		r1 = ua_argblock_new(&bp, (size_t)1 << 24,
				     flags); /* the block */
		r2 = ua_argblock_new(&bp, T_HUGE_BLOCK,
				     flags); /* its page table */
		t_setrlimit(RLIMIT_AS, as.rlim_cur);
		CHECK_EQ(r1, flags ? 0 : -ENOMEM);
		CHECK_EQ(r2, -ENOMEM);
		if (!r1) {
			CHECK(bp != keep, "*ret not set");
			ua_argblock_free(bp);
			bp = keep;
		}
		CHECK(bp == keep, "*ret changed by a failed ua_argblock_new");
		CHECK_NO_LEAK(before);
	}

	/* Allow only the fds open now: the lowest free one is the limit */
	CHECK(!getrlimit(RLIMIT_NOFILE, &nofile), "getrlimit");
	lowest = dup(0);
	CHECK(lowest >= 0, "dup");
	close(lowest);
	t_setrlimit(RLIMIT_NOFILE, (rlim_t)lowest);
	r3 = ua_argblock_new(&bp, 4096, flags);
	t_setrlimit(RLIMIT_NOFILE, nofile.rlim_cur);
	CHECK_EQ(r3, flags ? -EMFILE : 0);
	if (!r3)
		ua_argblock_free(bp);
	else
		CHECK(bp == keep, "*ret changed by a failed ua_argblock_new");
	CHECK_NO_LEAK(before);
}

int
main(void)
{
	int b;

	pg = t_page();
	ua_init();
	t_leaks_now(); /* let stdio and opendir set up their memory first */
	for (b = 0; b < T_NBACKENDS; b++) {
		test_bad_argv(t_backends[b]);
		test_bad_string(t_backends[b]);
		test_enomem_copy(t_backends[b]);
		test_enomem_new(t_backends[b]);
	}
	t_done("argblock_errors");
	return T_PASS;
}
