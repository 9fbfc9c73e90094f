/* SPDX-License-Identifier: MIT */
/*
 * Description: inline user-access blocks.  Every kind of fault (PROT_NONE,
 * unmapped, SIGBUS past the end of a file, read-only for stores) in a
 * block lands on the block's label, with nothing done past the faulting
 * access: in the program, in a shared library, in a dlopen'ed plugin (and
 * after its dlclose its table is gone and faults elsewhere are still
 * right).  Built also as a static binary (BLOCKS_STATIC), without asm goto
 * outputs (UA_ASM_GOTO_OUTPUT=0) and without inline accesses
 * (UA_NO_INLINE_ACCESS): those run the program's blocks only.  The
 * same for the kernel's later shapes: scoped blocks, the masked pointer,
 * ua_unsafe_copy_from_user, ua_get_user_inline/ua_put_user_inline, an
 * array as ua_user_access_begin's argument, and the inline atomics
 * (ua_unsafe_try_cmpxchg_user, _xchg_, _load_acquire_, _store_release_).
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "ops.h"
#include "test.h"

static const struct block_ops blocks_ops_program = BLOCK_OPS("program");

/*
 * A refused address (the first page), read from memory so that the
 * compiler cannot fold it into the block: gcc 12 at -O3 takes an access
 * through a constant address below 4 KiB for one past a zero-size object
 * (-Warray-bounds), and the blocks run such accesses on purpose.
 */
static volatile uintptr_t refused_addr = 8;

#if !defined(BLOCKS_PROGRAM_ONLY)
extern const struct block_ops blocks_ops_lib;
#endif

#define SENTINEL 0xa5

/* The bytes of element i of a layout's good page, as t_layout fills it */
static int
is_pattern(const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i] != 0x5a)
			return 0;
	return 1;
}

static void
check_last_fault(const struct t_layout *l, enum t_bad kind, const char *what)
{
	const struct ua_fault *f = ua_last_fault();
	/* where this system reports a SIGBUS (qemu-i386: a page high) */
	char *bad = l->bad + (kind == T_BAD_SIGBUS ? t_sigbus_skew : 0);
	char *a = f->addr;

	CHECK(a >= bad && a < bad + t_page(),
	      "%s: fault at %p, bad page %p (base %p, %s)", what, (void *)a,
	      (void *)l->bad, (void *)l->base, t_bad_names[kind]);
	CHECK_EQ(f->signo, kind == T_BAD_SIGBUS ? SIGBUS : SIGSEGV);
}

/*
 * The block's size is checked, not only its start: with this thread's
 * range one page from base, a block of the page is opened (its last four
 * elements, idx[0..4), are accessed) and one of a byte more is refused,
 * as is one whose end wraps around the address space.
 */
#define CHECK_SIZE_REFUSED(ops, fn, base, pg, idx, buf)                        \
	do {                                                                   \
		CHECK_EQ(ua_set_user_range((base), (pg)), 0);                  \
		CHECK_EQ((ops)->fn((base), (pg), (idx), 4, (buf)), 4);         \
		CHECK_EQ((ops)->fn((base), (pg) + 1, (idx), 4, (buf)), -1);    \
		CHECK_EQ(ua_set_user_range(NULL, 0), 0);                       \
		CHECK_EQ((ops)->fn((base), SIZE_MAX - (pg), (idx), 1, (buf)),  \
			 -1);                                                  \
	} while (0)

/*
 * Reads of size `sz`: four elements before the bad page, four in it, in
 * order (the fault is the fifth access); then good, bad, good (the third
 * access must not happen).
 */
#define CHECK_GETS(ops, fn, T, l, kind)                                        \
	do {                                                                   \
		size_t pg = t_page(), per = pg / sizeof(T);                    \
		const T *base = (const T *)(void *)(l)->base;                  \
		long idx[8], hop[3] = {0, (long)per, 1}, i;                    \
		T out[8];                                                      \
                                                                               \
		for (i = 0; i < 8; i++)                                        \
			idx[i] = (long)per - 4 + i;                            \
		memset(out, SENTINEL, sizeof(out));                            \
		CHECK_EQ((ops)->fn(base, 2 * pg, idx, 8, out), 4);             \
		CHECK(is_pattern(out, 4 * sizeof(T)), "%s %s: data",           \
		      (ops)->where, #fn);                                      \
		for (i = 4 * sizeof(T); i < (long)sizeof(out); i++)            \
			CHECK(((unsigned char *)out)[i] == SENTINEL,           \
			      "%s %s: out[%ld] written past the fault",        \
			      (ops)->where, #fn, i);                           \
		check_last_fault(l, kind, #fn);                                \
		memset(out, SENTINEL, sizeof(out));                            \
		CHECK_EQ((ops)->fn(base, 2 * pg, hop, 3, out), 1);             \
		CHECK(is_pattern(out, sizeof(T)), "%s %s: hop data",           \
		      (ops)->where, #fn);                                      \
		for (i = sizeof(T); i < (long)(3 * sizeof(T)); i++)            \
			CHECK(((unsigned char *)out)[i] == SENTINEL,           \
			      "%s %s: hop went on past the fault",             \
			      (ops)->where, #fn);                              \
		CHECK_EQ((ops)->fn(base, per * sizeof(T), idx, 4, out), 4);    \
		CHECK_EQ((ops)->fn((const T *)refused_addr, 8, idx, 1, out),   \
			 -1);                                                  \
		CHECK_SIZE_REFUSED(ops, fn, base, pg, idx, out);               \
	} while (0)

/* Stores: the same orders; the third of good, bad, good writes nothing */
#define CHECK_PUTS(ops, fn, T, l, kind)                                        \
	do {                                                                   \
		size_t pg = t_page(), per = pg / sizeof(T);                    \
		T *base = (T *)(void *)(l)->base;                              \
		long idx[8], hop[3] = {2, (long)per, 3}, i;                    \
		T in[8];                                                       \
                                                                               \
		for (i = 0; i < 8; i++)                                        \
			idx[i] = (long)per - 4 + i;                            \
		memset(in, 0x11, sizeof(in));                                  \
		CHECK_EQ((ops)->fn(base, 2 * pg, idx, 8, in), 4);              \
		for (i = 0; i < 4; i++)                                        \
			CHECK(base[per - 4 + i] == in[i], "%s %s: stored",     \
			      (ops)->where, #fn);                              \
		check_last_fault(l, kind, #fn);                                \
		CHECK_EQ((ops)->fn(base, 2 * pg, hop, 3, in), 1);              \
		CHECK(base[2] == in[0], "%s %s: hop stored", (ops)->where,     \
		      #fn);                                                    \
		CHECK(is_pattern(&base[3], sizeof(T)),                         \
		      "%s %s: hop stored past the fault", (ops)->where, #fn);  \
		CHECK_EQ((ops)->fn((T *)refused_addr, 8, idx, 1, in), -1);     \
		CHECK_SIZE_REFUSED(ops, fn, base, pg, idx, in);                \
		memset((l)->base, 0x5a, pg);                                   \
	} while (0)

static void
check_copy(const struct block_ops *ops, struct t_layout *l)
{
	size_t pg = t_page();
	char src[64];
	long i;

	t_fill(src, sizeof(src), 3);
	/* 8-byte stores from bad - 13: the second straddles into the page */
	CHECK_EQ(ops->copy(l->base, 2 * pg, pg - 13, src, 33), 1);
	CHECK(!memcmp(l->base + pg - 13, src, 8), "%s copy: first store",
	      ops->where);
	for (i = 0; i < 5; i++) {
		char c = l->base[pg - 5 + i];

		/* aarch64 may store the part of a straddling store below the
		 * bad page; x86 stores nothing of it */
		CHECK(c == 0x5a || c == src[8 + i], "%s copy: byte %ld",
		      ops->where, i);
	}
	CHECK(is_pattern(l->base, pg - 13), "%s copy: below", ops->where);
	/* Every size, every tail, in good memory */
	for (i = 0; i <= 40; i++) {
		memset(l->base, 0x5a, 128);
		CHECK_EQ(ops->copy(l->base, pg, 7, src, (size_t)i), 0);
		CHECK(!memcmp(l->base + 7, src, (size_t)i), "%s copy %ld",
		      ops->where, i);
		CHECK(is_pattern(l->base, 7) &&
			  is_pattern(l->base + 7 + i, 128 - 7 - (size_t)i),
		      "%s copy %ld: around", ops->where, i);
	}
	CHECK_EQ(ops->copy((char *)refused_addr, 8, 0, src, 8), -1);
	memset(l->base, 0x5a, pg);
}

/* The masked pointer: no length, a refused pointer faults at its first access
 */
static void
check_masked(const struct block_ops *ops, struct t_layout *l, enum t_bad kind)
{
	size_t pg = t_page(), per = pg / 8;
	const uint64_t *base = (const uint64_t *)(void *)l->base;
	long idx[8], hop[3] = {0, (long)per, 1}, i;
	uint64_t out[8];

	if (!t_bad_blocks_read(kind))
		return;
	CHECK(ua_can_do_masked_user_access(), "default range: masked");
	for (i = 0; i < 8; i++)
		idx[i] = (long)per - 4 + i;
	memset(out, SENTINEL, sizeof(out));
	CHECK_EQ(ops->masked_get8(base, 0, idx, 8, out), 4);
	CHECK(is_pattern(out, 32), "%s masked: data", ops->where);
	CHECK(((unsigned char *)out)[32] == SENTINEL, "%s masked: past",
	      ops->where);
	check_last_fault(l, kind, "masked_get8");
	CHECK_EQ(ops->masked_get8(base, 0, hop, 3, out), 1);
	idx[0] = 0;
	/* refused pointers: the first page, the very top */
	CHECK_EQ(
	    ops->masked_get8((const uint64_t *)refused_addr, 0, idx, 1, out),
	    0);
	CHECK_EQ(ops->masked_get8((const uint64_t *)(UINTPTR_MAX - 7), 0, idx,
				  1, out),
		 0);
	CHECK_EQ(
	    ops->masked_get8((const uint64_t *)(uintptr_t)(UINTPTR_MAX / 2 + 1),
			     0, idx, 1, out),
	    0);
}

/* ua_unsafe_copy_from_user: a straddling load faults whole */
static void
check_copy_from(const struct block_ops *ops, struct t_layout *l,
		enum t_bad kind)
{
	size_t pg = t_page();
	char dst[64], src[64];
	long i;

	if (t_bad_blocks_read(kind)) {
		memset(dst, SENTINEL, sizeof(dst));
		CHECK_EQ(ops->copy_from(l->base, 2 * pg, pg - 13, dst, 33), 1);
		CHECK(is_pattern(dst, 8), "%s copy_from: first load",
		      ops->where);
		check_last_fault(l, kind, "copy_from");
	}
	t_fill(src, sizeof(src), 5);
	for (i = 0; i <= 40; i++) {
		memcpy(l->base + 3, src, sizeof(src));
		memset(dst, SENTINEL, sizeof(dst));
		CHECK_EQ(ops->copy_from(l->base, pg, 3, dst, (size_t)i), 0);
		CHECK(!memcmp(dst, src, (size_t)i), "%s copy_from %ld",
		      ops->where, i);
		CHECK(((unsigned char *)dst)[i] == SENTINEL,
		      "%s copy_from %ld: past", ops->where, i);
	}
	CHECK_EQ(ops->copy_from((const char *)refused_addr, 8, 0, dst, 8), -1);
	memset(l->base, 0x5a, pg);
}

/* ua_get_user_inline / ua_put_user_inline, and an array's block */
static void
check_inline(const struct block_ops *ops, struct t_layout *l, enum t_bad kind)
{
	size_t pg = t_page();
	uint16_t v16 = 0;
	uint64_t one = 1;

	CHECK_EQ(ops->get_inline((const uint16_t *)(void *)(l->base + 2), &v16),
		 0);
	CHECK_EQ(v16, 0x5a5a);
	CHECK_EQ(ops->put_inline((uint64_t *)(void *)(l->base + 8),
				 0x1122334455667788ull),
		 0);
	CHECK_EQ(*(uint64_t *)(void *)(l->base + 8), 0x1122334455667788ull);
	if (t_bad_blocks_read(kind)) {
		CHECK_EQ(
		    ops->get_inline((const uint16_t *)(void *)l->bad, &v16),
		    -EFAULT);
		check_last_fault(l, kind, "get_inline");
	}
	CHECK_EQ(ops->put_inline((uint64_t *)(void *)(l->bad - 4), 1), -EFAULT);
	/* x86-64 stores nothing of a straddling store; i386 (two halves)
	 * and aarch64 may store its part below the bad page */
	CHECK(is_pattern(l->base + pg - 4, 4) ||
		  !memcmp(l->base + pg - 4, &one, 4),
	      "%s put_inline: straddle", ops->where);
	CHECK_EQ(ops->get_inline((const uint16_t *)refused_addr, &v16),
		 -EFAULT);
	CHECK_EQ(ops->put_inline((uint64_t *)refused_addr, 1), -EFAULT);
	CHECK_EQ(ops->array(), 7);
	memset(l->base, 0x5a, pg);
}

/*
 * The inline atomics, each size: values on good memory; at a bad word
 * every op reaches the label (on read-only memory the loads work, and a
 * cmpxchg whose compare fails faults too), the word and *io unchanged;
 * a refused word is refused.
 */
#define CHECK_ATOMICS(ops, fn, T, l, kind)                                     \
	do {                                                                   \
		T *g = (T *)(void *)((l)->base + 64);                          \
		T *b = (T *)(void *)((l)->bad + 64);                           \
		const T pat = (T)0x5a5a5a5a5a5a5a5aull;                        \
		const T big = (T)0x0123456789abcdefull;                        \
		/* opaque: gcc's -Warray-bounds takes a constant address       \
		 * inlined into the block for an array of none */              \
		volatile uintptr_t refused = 64;                               \
		T io;                                                          \
		int ok = -1, op;                                               \
                                                                               \
		*g = 5;                                                        \
		io = 5;                                                        \
		CHECK_EQ((ops)->fn(g, BLOCK_CAS, &io, big, &ok), 0);           \
		CHECK(ok == 1 && io == 5 && *g == big, "%s %s: cas",           \
		      (ops)->where, #fn);                                      \
		io = 5;                                                        \
		CHECK_EQ((ops)->fn(g, BLOCK_CAS, &io, 9, &ok), 0);             \
		CHECK(ok == 0 && io == big && *g == big,                       \
		      "%s %s: cas, compare fails", (ops)->where, #fn);         \
		CHECK_EQ((ops)->fn(g, BLOCK_XCHG, &io, ~big, &ok), 0);         \
		CHECK(io == big && *g == (T)~big, "%s %s: xchg", (ops)->where, \
		      #fn);                                                    \
		CHECK_EQ((ops)->fn(g, BLOCK_LOAD, &io, 0, &ok), 0);            \
		CHECK(io == (T)~big, "%s %s: load", (ops)->where, #fn);        \
		CHECK_EQ((ops)->fn(g, BLOCK_STORE, &io, 77, &ok), 0);          \
		CHECK(*g == 77, "%s %s: store", (ops)->where, #fn);            \
		for (op = BLOCK_CAS; op <= BLOCK_STORE + 1; op++) {            \
			/* BLOCK_STORE + 1: a cas whose compare fails */       \
			int o = op > BLOCK_STORE ? BLOCK_CAS : op;             \
			int r;                                                 \
                                                                               \
			io = op > BLOCK_STORE ? 3 : pat;                       \
			ok = -1;                                               \
			r = (ops)->fn(b, o, &io, 1, &ok);                      \
			if (o == BLOCK_LOAD && kind == T_BAD_RDONLY) {         \
				CHECK(r == 0 && io == pat,                     \
				      "%s %s: read-only load", (ops)->where,   \
				      #fn);                                    \
				continue;                                      \
			}                                                      \
			CHECK(r == 1, "%s %s op %d at %s: %d", (ops)->where,   \
			      #fn, op, t_bad_names[kind], r);                  \
			CHECK(ok == -1 && io == (op > BLOCK_STORE ? 3 : pat),  \
			      "%s %s op %d: results written", (ops)->where,    \
			      #fn, op);                                        \
			check_last_fault(l, kind, #fn);                        \
		}                                                              \
		if (kind == T_BAD_RDONLY)                                      \
			CHECK(*b == pat, "%s %s: read-only word written",      \
			      (ops)->where, #fn);                              \
		CHECK_EQ((ops)->fn((T *)refused, BLOCK_XCHG, &io, 1, &ok),     \
			 -1);                                                  \
	} while (0)

/* A value that straddles into the bad page faults as a whole */
static void
check_straddle(const struct block_ops *ops, struct t_layout *l, enum t_bad kind)
{
	size_t pg = t_page();
	const uint64_t *u = (const uint64_t *)(void *)(l->bad - 4);
	long idx = 0;
	uint64_t v = 7;

	if (t_bad_blocks_read(kind)) {
		CHECK_EQ(ops->get8(u, 8, &idx, 1, &v), 0);
		CHECK_EQ(v, 7);
	}
	CHECK_EQ(ops->put8((uint64_t *)(void *)(l->bad - 4), 8, &idx, 1, &v),
		 0);
	memset(l->base, 0x5a, pg);
}

static void
check_ops(const struct block_ops *ops)
{
	int kind;

	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		struct t_layout l = t_layout_new(1, (enum t_bad)kind);

		if (t_bad_blocks_read((enum t_bad)kind)) {
			CHECK_GETS(ops, get1, uint8_t, &l, kind);
			CHECK_GETS(ops, get2, uint16_t, &l, kind);
			CHECK_GETS(ops, get4, uint32_t, &l, kind);
			CHECK_GETS(ops, get8, uint64_t, &l, kind);
		}
		CHECK_PUTS(ops, put1, uint8_t, &l, kind);
		CHECK_PUTS(ops, put2, uint16_t, &l, kind);
		CHECK_PUTS(ops, put4, uint32_t, &l, kind);
		CHECK_PUTS(ops, put8, uint64_t, &l, kind);
		if (t_bad_blocks_read((enum t_bad)kind))
			CHECK_GETS(ops, scoped_get4, uint32_t, &l, kind);
		CHECK_PUTS(ops, scoped_put4, uint32_t, &l, kind);
		check_copy(ops, &l);
		check_straddle(ops, &l, (enum t_bad)kind);
		check_masked(ops, &l, (enum t_bad)kind);
		check_copy_from(ops, &l, (enum t_bad)kind);
		check_inline(ops, &l, (enum t_bad)kind);
		CHECK_ATOMICS(ops, atomic4, uint32_t, &l, (enum t_bad)kind);
		CHECK_ATOMICS(ops, atomic8, uint64_t, &l, (enum t_bad)kind);
		t_layout_free(&l);
	}
	printf("%s: every fault landed on its label\n", ops->where);
}

#if !defined(BLOCKS_PROGRAM_ONLY)
/*
 * The plugin's table must go with it: replaying a fault taken in the
 * plugin after its dlclose must not be ours (and must not read its
 * unmapped table).  The fault is recorded by a handler of our own.
 */
static ucontext_t saved_uc;
static siginfo_t saved_info;
static int saved_ours;

static void
recording_handler(int signo, siginfo_t *info, void *uc)
{
	saved_uc = *(ucontext_t *)uc;
	saved_info = *info;
	saved_ours = ua_handle_fault(signo, info, uc);
	if (!saved_ours)
		abort();
}

static void
check_plugin(void)
{
	struct sigaction sa, old;
	const struct block_ops *ops;
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	long idx = (long)(t_page() / 8);
	uint64_t v;
	ucontext_t uc;
	void *h;
	int round;

	for (round = 0; round < 2; round++) {
		h = dlopen(BLOCKS_PLUGIN, RTLD_NOW | RTLD_LOCAL);
		CHECK(h, "dlopen %s: %s", BLOCKS_PLUGIN, dlerror());
		ops = dlsym(h, "blocks_ops_plugin");
		CHECK(ops, "dlsym: %s", dlerror());
		check_ops(ops);

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = recording_handler;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		CHECK(!sigaction(SIGSEGV, &sa, &old), "sigaction");
		CHECK_EQ(ops->get8((const uint64_t *)(void *)l.base,
				   2 * t_page(), &idx, 1, &v),
			 0);
		CHECK(!sigaction(SIGSEGV, &old, NULL), "sigaction");
		CHECK_EQ(saved_ours, 1);
		uc = saved_uc;
		CHECK_EQ(ua_handle_fault(SIGSEGV, &saved_info, &uc), 1);

		CHECK(!dlclose(h), "dlclose: %s", dlerror());
		CHECK(!dlopen(BLOCKS_PLUGIN, RTLD_NOW | RTLD_NOLOAD),
		      "the plugin stayed loaded");
		uc = saved_uc;
		CHECK_EQ(ua_handle_fault(SIGSEGV, &saved_info, &uc), 0);
		/* Faults elsewhere are still handled */
		check_ops(&blocks_ops_program);
		check_ops(&blocks_ops_lib);
	}
	t_layout_free(&l);
	printf("plugin: table gone after dlclose, twice\n");
}
#endif

int
main(void)
{
	/* check_plugin() displaces the library's handler for one fault, to
	 * record it: with the interposition on it would be chained to */
	CHECK_EQ(ua_keep_signals(), 0);
	t_sigbus_addr_exact(); /* t_sigbus_skew, measured before any block */
	check_ops(&blocks_ops_program);
#if !defined(BLOCKS_PROGRAM_ONLY)
	check_ops(&blocks_ops_lib);
	check_plugin();
#endif
	t_done("blocks");
	return T_PASS;
}
