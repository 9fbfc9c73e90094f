/* SPDX-License-Identifier: MIT */
/*
 * libuaccess-preload.so: a program's memcpy on ua_memcpy, without
 * rebuilding it, as mimalloc and jemalloc do for malloc:
 *
 *	LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libuaccess-preload.so program
 *
 * memcpy, mempcpy and __memcpy_chk (and __mempcpy, __mempcpy_chk) go to
 * ua_memcpy.  Overlapping calls, undefined for memcpy, go to memmove and
 * are counted.  UACCESS_PRELOAD_STATS=1 prints the counts at exit.
 *
 * The library's objects are linked in, hidden (preload.map): one file to
 * preload, and a direct call into the engine.  The first copy initialises
 * the library, whenever it comes (a constructor of another object, even
 * a copy made by the library's own initialisation: ua_init's re-entry
 * runs the byte routine), so nothing here needs ua_init.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <uaccess.h>

#define PUBLIC __attribute__((visibility("default")))

extern void __chk_fail(void) __attribute__((noreturn));

/* ---- Counts, for UACCESS_PRELOAD_STATS=1 ---- */

enum entry { E_MEMCPY, E_MEMPCPY, E_MEMCPY_CHK, E_OVERLAP, E_COUNT };
static const char *const entry_names[E_COUNT] = {
    "memcpy", "mempcpy", "__memcpy_chk", "overlapping (to memmove)"};

/* Sizes: 0-16, 17-64, ... , above 1 MiB */
#define NBUCKETS 9
static const char *const bucket_names[NBUCKETS] = {
    "0-16",   "17-64",   "65-256", "257-1K", "1K-4K",
    "4K-16K", "16K-64K", "64K-1M", ">1M"};
static const size_t bucket_max[NBUCKETS - 1] = {16,   64,    256,   1024,
						4096, 16384, 65536, 1048576};

static struct {
	_Atomic unsigned long calls[E_COUNT], bytes[E_COUNT];
	_Atomic unsigned long sizes[NBUCKETS];
} stats;

/*
 * Counting costs atomic adds on every call: only when asked.  Until the
 * constructor has read the environment (copies made by constructors that
 * ran before ours), count: the counts are then complete if they are
 * wanted, and nobody sees them otherwise.
 */
enum { STATS_UNKNOWN, STATS_OFF, STATS_ON };
static _Atomic int stats_state = STATS_UNKNOWN;

static inline int
counting(void)
{
	return atomic_load_explicit(&stats_state, memory_order_relaxed) !=
	       STATS_OFF;
}

static void
count(enum entry e, size_t n)
{
	int b = 0;

	atomic_fetch_add_explicit(&stats.calls[e], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&stats.bytes[e], n, memory_order_relaxed);
	if (e == E_OVERLAP) /* already counted by its entry */
		return;
	while (b < NBUCKETS - 1 && n > bucket_max[b])
		b++;
	atomic_fetch_add_explicit(&stats.sizes[b], 1, memory_order_relaxed);
}

static inline int
overlaps(const void *dst, const void *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	return n && (d - s < n || s - d < n);
}

static inline void *
copy(enum entry e, void *dst, const void *src, size_t n)
{
	if (__builtin_expect(counting(), 0))
		count(e, n);
	if (__builtin_expect(overlaps(dst, src, n), 0)) {
		if (counting())
			count(E_OVERLAP, n);
		return memmove(dst, src, n);
	}
	return ua_memcpy(dst, src, n);
}

/* ---- The entries (string.h's restrict qualifiers are not repeated: the
 * overlap test compares the pointers) ---- */

PUBLIC void *
memcpy(void *dst, const void *src, size_t n)
{
	return copy(E_MEMCPY, dst, src, n);
}

PUBLIC void *
mempcpy(void *dst, const void *src, size_t n)
{
	return (char *)copy(E_MEMPCPY, dst, src, n) + n;
}

PUBLIC void *
__mempcpy(void *dst, const void *src, size_t n)
{
	return (char *)copy(E_MEMPCPY, dst, src, n) + n;
}

/* _FORTIFY_SOURCE: dstlen is what the compiler knows of dst's object */
PUBLIC void *
__memcpy_chk(void *dst, const void *src, size_t n, size_t dstlen)
{
	if (__builtin_expect(n > dstlen, 0))
		__chk_fail();
	return copy(E_MEMCPY_CHK, dst, src, n);
}

PUBLIC void *
__mempcpy_chk(void *dst, const void *src, size_t n, size_t dstlen)
{
	if (__builtin_expect(n > dstlen, 0))
		__chk_fail();
	return (char *)copy(E_MEMPCPY, dst, src, n) + n;
}

/* ---- Reading the environment, printing at exit ---- */

static int
env_on(char **envp)
{
	static const char key[] = "UACCESS_PRELOAD_STATS=";
	size_t k = sizeof(key) - 1;

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, key, k))
			return (*envp)[k] && strcmp(*envp + k, "0");
	return 0;
}

static int stats_fd = -1;

/* glibc passes init functions argc, argv and envp: no getenv this early */
static void __attribute__((constructor))
preload_init(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	atomic_store(&stats_state, env_on(envp) ? STATS_ON : STATS_OFF);
	/* Programs that check their output at exit close stderr (xz does):
	 * keep the one they started with */
	if (atomic_load(&stats_state) == STATS_ON)
		stats_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 10);
}

/* Output without malloc or stdio: a buffer, decimal numbers, write(2) */
struct out {
	char buf[1024];
	size_t len;
};

static void
put(struct out *o, const char *s)
{
	while (*s && o->len < sizeof(o->buf))
		o->buf[o->len++] = *s++;
}

static void
put_num(struct out *o, unsigned long v)
{
	char tmp[24];
	int i = (int)sizeof(tmp) - 1;

	tmp[i] = 0;
	do
		tmp[--i] = (char)('0' + v % 10);
	while ((v /= 10) && i > 0);
	put(o, tmp + i);
}

static void
flush(struct out *o)
{
	size_t off = 0;

	while (off < o->len) {
		ssize_t k = write(stats_fd >= 0 ? stats_fd : STDERR_FILENO,
				  o->buf + off, o->len - off);

		if (k <= 0)
			break;
		off += (size_t)k;
	}
	o->len = 0;
}

/* A report line's head, "uaccess-preload: pid N" and what */
static void
put_head(struct out *o, const char *what)
{
	put(o, "uaccess-preload: pid ");
	put_num(o, (unsigned long)getpid());
	put(o, what);
}

/* Item i of a list: " " before the first, sep before the others; name */
static void
put_item(struct out *o, int i, const char *sep, const char *name)
{
	put(o, i ? sep : " ");
	put(o, name);
}

static void __attribute__((destructor)) preload_report(void)
{
	struct out o = {.len = 0};
	int e, b;

	if (atomic_load(&stats_state) != STATS_ON)
		return;
	put_head(&o, ":");
	for (e = 0; e < E_COUNT; e++) {
		put_item(&o, e, "; ", entry_names[e]);
		put(&o, " calls=");
		put_num(&o, atomic_load(&stats.calls[e]));
		put(&o, " bytes=");
		put_num(&o, atomic_load(&stats.bytes[e]));
	}
	put(&o, "\n");
	put_head(&o, ": sizes");
	for (b = 0; b < NBUCKETS; b++) {
		put_item(&o, b, ", ", bucket_names[b]);
		put(&o, " ");
		put_num(&o, atomic_load(&stats.sizes[b]));
	}
	put(&o, "\n");
	flush(&o);
}
