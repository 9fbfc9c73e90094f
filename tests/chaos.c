/* SPDX-License-Identifier: MIT */
/*
 * Description: worker threads copy from, to and clear user memory (and read
 * strings) while another thread mprotects, unmaps and remaps and truncates
 * it under them, for UA_CHAOS_SECONDS (default 6): nothing crashes, every
 * count is within bounds and agrees with the fault that cut it short, the
 * copied prefix holds data that was there, the rest of the destination is
 * zeroed, and nothing outside the user destination changes.
 *
 * uaccess-test: timeout=120
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#include "test.h"

#define NWORKERS 3
#define READ_PAGES 32 /* shared source: bytes are 0 or pat(offset) */
#define SLICE_PAGES 8 /* each worker's destination */
#define MAX_N (3 * 4096 + 100)
#define MARGIN 64

static size_t pg;
static int fd;                /* memfd behind all of it */
static char *area;            /* PROT_NONE guard, read pages, slices, guard */
static char *rd;              /* the shared source */
static char *slice[NWORKERS]; /* the workers' destinations */
static size_t npages;         /* read pages + slices */
static atomic_int stop;

enum op { OP_FROM, OP_NOCACHE, OP_TO, OP_CLEAR, OP_STRNLEN, OP_STRNCPY, OP_N };
static const char *const op_names[] = {"from",  "nocache", "to",
				       "clear", "strnlen", "strncpy"};
static atomic_ulong calls[OP_N], shortened[OP_N];
enum mut {
	M_NONE,
	M_RDONLY,
	M_RESTORE,
	M_UNMAP,
	M_TRUNCATE,
	M_ZAP,
	M_REFILL,
	M_N
};
static const char *const mut_names[] = {"prot_none",  "read_only", "restore",
					"unmap+mmap", "ftruncate", "punch_hole",
					"refill"};
static unsigned char *patbuf; /* pat() of the read pages */
static atomic_ulong mutations[M_N];

static inline unsigned char
pat(size_t off)
{
	uint64_t x = (uint64_t)off * 0x9e3779b97f4a7c15ull;

	return (unsigned char)(1 + (x >> 40) % 0xfe);
}

static inline uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Re-map pages [first, first + count) of the memfd read-write, in place */
static void
remap(size_t first, size_t count)
{
	void *at = area + (1 + first) * pg;

	CHECK(mmap(at, count * pg, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_FIXED, fd, (off_t)(first * pg)) == at,
	      "mmap: %s", strerror(errno));
}

/*
 * A call was cut short after `done` bytes: the fault that did it was in
 * the user range and not past the page of byte `done`.  (It may lie below
 * `done`: a routine that rewrites bytes it already copied, such as an
 * overlapping last vector, can find that page gone since; the bytes below
 * its cursor were copied all the same.)
 */
static void
check_fault(const char *what, const char *u, size_t n, size_t done)
{
	const struct ua_fault *f = ua_last_fault();
	uintptr_t a = (uintptr_t)f->addr, at = (uintptr_t)u + done;

	CHECK(f->signo == SIGSEGV || f->signo == SIGBUS, "%s: signo %d", what,
	      f->signo);
	CHECK(a >= (uintptr_t)u && a < (at & ~(uintptr_t)(pg - 1)) + pg,
	      "%s n=%zu: %zu done, but the fault was at +%td", what, n, done,
	      (const char *)f->addr - u);
}

struct worker {
	pthread_t t;
	int id;
	unsigned char *buf, *src;
};

static void
do_read(enum op op, uint64_t *seed, unsigned char *buf)
{
	size_t off = rnd(seed) % (READ_PAGES * pg), n = 1 + rnd(seed) % MAX_N;
	const char *u = rd + off;
	size_t left, done, i;

	if (off + n > READ_PAGES * pg)
		n = READ_PAGES * pg - off;
	if (op == OP_STRNLEN || op == OP_STRNCPY) {
		long r;

		if (op == OP_STRNLEN) {
			r = ua_strnlen_user(u, (long)n);
			CHECK(r >= 0 && r <= (long)n + 1, "strnlen: %ld of %zu",
			      r, n);
			if (!r)
				atomic_fetch_add(&shortened[op], 1);
			return;
		}
		r = ua_strncpy_from_user((char *)buf, u, (long)n);
		CHECK(r == -EFAULT || (r >= 0 && r <= (long)n),
		      "strncpy: %ld of %zu", r, n);
		if (r < 0) {
			atomic_fetch_add(&shortened[op], 1);
			return;
		}
		for (i = 0; i < (size_t)r; i++)
			CHECK(buf[i] == pat(off + i), "strncpy: byte %zu", i);
		if (r < (long)n)
			CHECK(buf[r] == 0, "strncpy: no NUL at %ld", r);
		return;
	}
	memset(buf, 0xee, n + MARGIN);
	left = op == OP_FROM ? ua_copy_from_user(buf, u, n)
			     : ua_copy_from_user_nocache(buf, u, n);
	CHECK(left <= n, "%s: left %zu of %zu", op_names[op], left, n);
	done = n - left;
	for (i = 0; i < done; i++)
		CHECK(buf[i] == 0 || buf[i] == pat(off + i),
		      "%s n=%zu: byte %zu = %#x was never there", op_names[op],
		      n, i, buf[i]);
	for (; i < n; i++)
		CHECK(buf[i] == 0, "%s n=%zu: tail byte %zu not zeroed",
		      op_names[op], n, i);
	for (i = 0; i < MARGIN; i++)
		CHECK(buf[n + i] == 0xee, "%s: wrote past dst", op_names[op]);
	if (left) {
		atomic_fetch_add(&shortened[op], 1);
		check_fault(op_names[op], u, n, done);
	}
}

/*
 * Writes go to the worker's own slice, with the margins around the
 * destination read before and after: they may only have been zeroed (by
 * a truncation) or stay as they were.
 */
static void
do_write(struct worker *w, enum op op, uint64_t *seed)
{
	char *base = slice[w->id];
	size_t span = SLICE_PAGES * pg;
	size_t off = MARGIN + rnd(seed) % (span - 2 * MARGIN);
	size_t n = 1 + rnd(seed) % MAX_N, left, done, i;
	unsigned char before[2][MARGIN], after[2][MARGIN];
	size_t bl[2], al[2];
	char *u = base + off;

	if (off + n > span - MARGIN)
		n = span - MARGIN - off;
	bl[0] = ua_copy_from_user(before[0], u - MARGIN, MARGIN);
	bl[1] = ua_copy_from_user(before[1], u + n, MARGIN);
	for (i = 0; i < n; i++)
		w->src[i] = (unsigned char)(pat(off + i) ^ 0x55);
	left =
	    op == OP_TO ? ua_copy_to_user(u, w->src, n) : ua_clear_user(u, n);
	CHECK(left <= n, "%s: left %zu of %zu", op_names[op], left, n);
	done = n - left;
	if (left) {
		atomic_fetch_add(&shortened[op], 1);
		check_fault(op_names[op], u, n, done);
	}
	al[0] = ua_copy_from_user(after[0], u - MARGIN, MARGIN);
	al[1] = ua_copy_from_user(after[1], u + n, MARGIN);
	for (i = 0; i < 2; i++) {
		size_t j, m = MARGIN - (bl[i] > al[i] ? bl[i] : al[i]);

		for (j = 0; j < m; j++)
			CHECK(after[i][j] == before[i][j] || after[i][j] == 0,
			      "%s n=%zu: byte %s the destination changed from "
			      "%#x to %#x",
			      op_names[op], n, i ? "after" : "before",
			      before[i][j], after[i][j]);
	}
}

static void *
worker(void *arg)
{
	struct worker *w = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(w->id + 1);

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		enum op op = (enum op)(rnd(&seed) % OP_N);

		atomic_fetch_add(&calls[op], 1);
		if (op == OP_TO || op == OP_CLEAR)
			do_write(w, op, &seed);
		else
			do_read(op, &seed, w->buf);
	}
	return NULL;
}

/*
 * Break a few pages and mend them later.  The read pages keep their
 * invariant (0 or pat) because nothing but truncation changes them, and
 * truncation brings pages back as zeros.  Unmapped pages are remapped with
 * MAP_FIXED_NOREPLACE so that a stranger's mapping landing in the hole is
 * detected rather than overwritten.
 */
static void
mutate(uint64_t *seed)
{
	size_t first = rnd(seed) % npages, count = 1 + rnd(seed) % 3;
	unsigned r = (unsigned)(rnd(seed) % (M_N + 3));
	enum mut m = r < M_N ? (enum mut)r : M_RESTORE; /* mend more often */
	char *at;

	if (first + count > npages)
		count = npages - first;
	at = area + (1 + first) * pg;
	atomic_fetch_add(&mutations[m], 1);
	switch (m) {
	case M_NONE:
		CHECK(!mprotect(at, count * pg, PROT_NONE), "mprotect");
		break;
	case M_RDONLY:
		CHECK(!mprotect(at, count * pg, PROT_READ), "mprotect");
		break;
	case M_RESTORE:
		remap(first, count);
		break;
	case M_UNMAP:
		CHECK(!munmap(at, count * pg), "munmap");
		usleep(50);
		CHECK(mmap(at, count * pg, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_FIXED_NOREPLACE, fd,
			   (off_t)(first * pg)) == at,
		      "something was mapped into our hole: %s",
		      strerror(errno));
		break;
	case M_TRUNCATE:
		/* Everything from `first` on raises SIGBUS for a while */
		CHECK(!ftruncate(fd, (off_t)(first * pg)), "ftruncate");
		usleep(20);
		CHECK(!ftruncate(fd, (off_t)(npages * pg)), "ftruncate");
		break;
	case M_ZAP:
		/* The read pages' data comes back from the file; zero a page
		 * of it with a hole punched in the memfd */
		CHECK(!fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				 (off_t)(first * pg), (off_t)(count * pg)),
		      "fallocate: %s", strerror(errno));
		break;
	case M_REFILL:
		/* Bring the data back where it was zeroed; through the
		 * library, as the pages may be broken right now */
		if (first < READ_PAGES) {
			if (first + count > READ_PAGES)
				count = READ_PAGES - first;
			ua_copy_to_user(at, patbuf + first * pg, count * pg);
		}
		break;
	default:
		break;
	}
}

/*
 * Linux unmaps and maps a page atomically: a read sees the file's data or
 * faults.  qemu-user does not (a read may see zeros in between), and then
 * every margin check here could fail without the library doing anything.
 * qemu shows a zero within a few thousand reads.  Both sides of the probe
 * stop after a second: valgrind runs one thread at a time and does not
 * share the time fairly, and its remapping thread once held the reader
 * off for 290 s (a CI run timed out on it).
 */
static char *probe_page;
static int probe_fd;
static atomic_int probe_stop;
static double probe_end;

static void *
probe_remapper(void *arg)
{
	(void)arg;
	while (!atomic_load(&probe_stop) && t_now() < probe_end) {
		munmap(probe_page, pg);
		if (mmap(probe_page, pg, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED_NOREPLACE, probe_fd,
			 0) != probe_page)
			break;
	}
	return NULL;
}

static int
remap_is_atomic(void)
{
	pthread_t t;
	uint8_t v;
	long i, zeros = 0;

	probe_fd = memfd_create("uaccess-chaos-probe", 0);
	CHECK(probe_fd >= 0 && !ftruncate(probe_fd, (off_t)pg), "probe memfd");
	probe_page =
	    mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, probe_fd, 0);
	CHECK(probe_page != MAP_FAILED, "mmap");
	memset(probe_page, 0x5a, pg);
	probe_end = t_now() + 1.0;
	CHECK(!pthread_create(&t, NULL, probe_remapper, NULL),
	      "pthread_create");
	for (i = 0; i < 200000 && !zeros && t_now() < probe_end; i++)
		if (ua_get_user_u8(&v, probe_page + 100) == 0 && v == 0)
			zeros++;
	atomic_store(&probe_stop, 1);
	pthread_join(t, NULL);
	munmap(probe_page, pg);
	close(probe_fd);
	return !zeros;
}

int
main(void)
{
	static struct worker w[NWORKERS];
	double seconds = 6, t0, t;
	const char *env = getenv("UA_CHAOS_SECONDS");
	unsigned long total = 0, total_short = 0, total_mut = 0;
	uint64_t seed = 42;
	size_t i;

	if (env)
		seconds = atof(env);
	pg = t_page();
	npages = READ_PAGES + NWORKERS * SLICE_PAGES;
	CHECK_EQ(ua_init(), 0);
	if (!remap_is_atomic()) {
		printf("a page being unmapped and mapped again reads as zeros "
		       "here (qemu-user?): the invariants cannot hold\n");
		return T_SKIP;
	}
	fd = memfd_create("uaccess-chaos", 0);
	CHECK(fd >= 0, "memfd_create");
	CHECK(!ftruncate(fd, (off_t)(npages * pg)), "ftruncate");
	area = mmap(NULL, (npages + 2) * pg, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(area != MAP_FAILED, "mmap");
	remap(0, npages);
	rd = area + pg;
	patbuf = malloc(READ_PAGES * pg);
	CHECK(patbuf != NULL, "malloc");
	for (i = 0; i < READ_PAGES * pg; i++)
		patbuf[i] = pat(i);
	memcpy(rd, patbuf, READ_PAGES * pg);
	for (i = 0; i < NWORKERS; i++) {
		slice[i] = rd + (READ_PAGES + i * SLICE_PAGES) * pg;
		w[i].id = (int)i;
		w[i].buf = malloc(MAX_N + MARGIN);
		w[i].src = malloc(MAX_N);
		CHECK(w[i].buf && w[i].src, "malloc");
	}
	for (i = 0; i < NWORKERS; i++)
		CHECK(!pthread_create(&w[i].t, NULL, worker, &w[i]),
		      "pthread_create");

	t0 = t_now();
	while ((t = t_now()) - t0 < seconds) {
		mutate(&seed);
		if (!(rnd(&seed) & 3))
			usleep(100);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < NWORKERS; i++)
		pthread_join(w[i].t, NULL);
	t = t_now() - t0;

	printf("chaos: %.1f s, %d workers\n  calls:", t, NWORKERS);
	for (i = 0; i < OP_N; i++) {
		printf(" %s %lu (%lu cut short)", op_names[i],
		       atomic_load(&calls[i]), atomic_load(&shortened[i]));
		total += atomic_load(&calls[i]);
		total_short += atomic_load(&shortened[i]);
	}
	printf("\n  mutations:");
	for (i = 0; i < M_N; i++) {
		printf(" %s %lu", mut_names[i], atomic_load(&mutations[i]));
		total_mut += atomic_load(&mutations[i]);
	}
	printf("\n  total: %lu calls (%.0f/s), %lu cut short by a fault, %lu "
	       "mutations\n",
	       total, (double)total / t, total_short, total_mut);
	CHECK(total_short > 0, "no call was ever cut short");
	t_done("chaos");
	return T_PASS;
}
