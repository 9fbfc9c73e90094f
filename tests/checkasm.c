/* SPDX-License-Identifier: MIT */
/* Description: every copy and clear routine against a C reference: alignments,
 * lengths, guard pages, faults */
/*
 * In the manner of dav1d's checkasm: each strategy of the table, one at a
 * time, called directly and through the public API with strategy=NAME
 * forced; strategies this CPU cannot run are reported as skipped.
 *
 * uaccess-test: internal
 * uaccess-test: timeout=900
 * uaccess-test: sources=checkasm_call.S
 */
#include <stdint.h>

#include "arch.h"
#include "checkasm_call.h"
#include "dispatch.h"
#include "range.h"
#include "routine.h"
#include "test.h"

#define CANARY 0xa5
#define MAXLEN 1100
#define REGION (8 * 4096)

static size_t pg;

/* [PROT_NONE][len bytes][PROT_NONE] */
struct guarded {
	unsigned char *map, *lo, *hi; /* hi: one past the usable bytes */
};

static struct guarded
guarded_new(size_t len)
{
	struct guarded g;

	len = (len + pg - 1) & ~(pg - 1);
	g.map = mmap(NULL, len + 2 * pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(g.map != MAP_FAILED, "mmap");
	CHECK(!mprotect(g.map, pg, PROT_NONE), "mprotect");
	CHECK(!mprotect(g.map + pg + len, pg, PROT_NONE), "mprotect");
	g.lo = g.map + pg;
	g.hi = g.lo + len;
	return g;
}

/* A source pattern that never holds the canary and differs at every offset */
static void
fill_src(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)(i * 131 + (i >> 8) * 7 + 1);

		p[i] = c == CANARY ? 0x3c : c;
	}
}

/* The reference: a plain byte loop */
static void
ref_copy(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = s[i];
}

static size_t
first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return n;
}

static size_t
first_not(const unsigned char *p, unsigned char c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return i;
	return n;
}

static struct guarded gs, gd;
static unsigned char *expect;

enum how {
	DIRECT,
	DIRECT_PLAIN,
	API_FROM,
	API_TO,
	API_MEMCPY,
	API_NOCACHE,
	API_MEMCPY_NOCACHE,
	NHOW
};
static const char *const how_names[] = {
    "direct", "direct memcpy entry",    "copy_from_user", "copy_to_user",
    "memcpy", "copy_from_user_nocache", "memcpy_nocache"};
static ua_memcpy_fn plain_fn; /* for DIRECT_PLAIN */

static size_t
do_copy(enum how how, ua_copy_fn fn, void *d, const void *s, size_t n)
{
	switch (how) {
	case DIRECT:
		return ua_user_copy(fn, d, s, n, UA_SIDE_SRC, (uintptr_t)s);
	case DIRECT_PLAIN:
		return plain_fn(d, s, n) == d ? 0 : 1;
	case API_FROM:
		return ua_copy_from_user(d, s, n);
	case API_TO:
		return ua_copy_to_user(d, s, n);
	case API_MEMCPY:
		return ua_memcpy(d, s, n) == d ? 0 : 1;
	case API_NOCACHE:
		return ua_copy_from_user_nocache(d, s, n);
	case API_MEMCPY_NOCACHE:
		return ua_memcpy_nocache(d, s, n) == d ? 0 : 1;
	default:
		return 1;
	}
}

/*
 * One copy of n bytes from s to d, both inside guarded buffers, checked
 * byte for byte and around: everything else in dst's buffer must still be
 * the canary.  The buffer is restored afterwards.
 */
static void
check_copy(const char *name, enum how how, ua_copy_fn fn, unsigned char *d,
	   const unsigned char *s, size_t n)
{
	size_t r, at, before = (size_t)(d - gd.lo),
		      after = (size_t)(gd.hi - d) - n;
	size_t span_lo = before < 64 ? before : 64,
	       span_hi = after < 64 ? after : 64;

	r = do_copy(how, fn, d, s, n);
	ref_copy(expect, s, n);
	at = memcmp(d, expect, n) ? first_diff(d, expect, n) : n;
	CHECK(r == 0 && at == n,
	      "%s %s: dst%%64=%zu src%%64=%zu n=%zu: returned %zu, byte %zu "
	      "wrong",
	      name, how_names[how], (size_t)((uintptr_t)d % 64),
	      (size_t)((uintptr_t)s % 64), n, r, at);
	at = first_not(d - span_lo, CANARY, span_lo);
	CHECK(at == span_lo,
	      "%s %s: n=%zu dst%%64=%zu: wrote %zu bytes before dst", name,
	      how_names[how], n, (size_t)((uintptr_t)d % 64), span_lo - at);
	at = first_not(d + n, CANARY, span_hi);
	CHECK(at == span_hi, "%s %s: n=%zu dst%%64=%zu: wrote byte dst+n+%zu",
	      name, how_names[how], n, (size_t)((uintptr_t)d % 64), at);
	memset(d, CANARY, n);
}

static void
check_clear(const char *name, int api, ua_clear_fn fn, unsigned char *d,
	    size_t n)
{
	size_t r, at, before = (size_t)(d - gd.lo),
		      after = (size_t)(gd.hi - d) - n;
	size_t span_lo = before < 64 ? before : 64,
	       span_hi = after < 64 ? after : 64;

	r = api ? ua_clear_user(d, n) : ua_user_clear(fn, d, n);
	at = first_not(d, 0, n);
	CHECK(r == 0 && at == n,
	      "%s clear%s: dst%%64=%zu n=%zu: returned %zu, byte %zu not 0",
	      name, api ? "_user" : "", (size_t)((uintptr_t)d % 64), n, r, at);
	at = first_not(d - span_lo, CANARY, span_lo);
	CHECK(at == span_lo, "%s clear: n=%zu: wrote before dst", name, n);
	at = first_not(d + n, CANARY, span_hi);
	CHECK(at == span_hi, "%s clear: n=%zu: wrote byte dst+n+%zu", name, n,
	      at);
	memset(d, CANARY, n);
}

static const size_t few_aligns[] = {0, 1, 7, 8, 15, 16, 31, 32, 33, 48, 63};
#define NFEW (sizeof(few_aligns) / sizeof(few_aligns[0]))

/*
 * Every pair of those alignments (dst, src) and lengths from..MAXLEN by
 * step, from the start of both buffers or (at_end) ending against the guard
 * page after them
 */
static void
sweep_few(const char *name, enum how how, ua_copy_fn fn, size_t from,
	  size_t step, int at_end)
{
	size_t i, j, n;

	for (i = 0; i < NFEW; i++)
		for (j = 0; j < NFEW; j++)
			for (n = from; n <= MAXLEN; n += step)
				if (at_end)
					check_copy(name, how, fn,
						   gd.hi - n - few_aligns[i],
						   gs.hi - n - few_aligns[j],
						   n);
				else
					check_copy(name, how, fn,
						   gd.lo + few_aligns[i],
						   gs.lo + few_aligns[j], n);
}

/* Every (dst, src) alignment pair in 0..63 and every length 0..MAXLEN */
static void
sweep_direct(const struct ua_strategy *s)
{
	size_t da, sa, n, i;

	for (da = 0; da < 64; da++)
		for (sa = 0; sa < 64; sa++)
			for (n = 0; n <= MAXLEN; n++)
				check_copy(s->name, DIRECT, s->copy, gd.lo + da,
					   gs.lo + sa, n);
	/* The memcpy entry: same code, returns dst, no exception table */
	plain_fn = s->plain;
	if (plain_fn)
		for (da = 0; da < 64; da += 3)
			for (sa = 0; sa < 64; sa += 5)
				for (n = 0; n <= MAXLEN; n++)
					check_copy(s->name, DIRECT_PLAIN, NULL,
						   gd.lo + da, gs.lo + sa, n);
	/* The same, ending against the guard page after both buffers */
	sweep_few(s->name, DIRECT, s->copy, 0, 1, 1);
	if (!s->clear)
		return;
	for (da = 0; da < 64; da++)
		for (n = 0; n <= MAXLEN; n++)
			check_clear(s->name, 0, s->clear, gd.lo + da, n);
	for (i = 0; i < NFEW; i++)
		for (n = 0; n <= MAXLEN; n++)
			check_clear(s->name, 0, s->clear,
				    gd.hi - n - few_aligns[i], n);
}

/* Larger sizes: the loops, many rounds, odd remainders */
static void
sweep_large(const char *name, enum how how, ua_copy_fn fn)
{
	static const size_t sizes[] = {2047, 2048, 2049, 4095, 4096,
				       4097, 8191, 8192, 8193, 12345};
	size_t i, j, k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < NFEW; j++)
			for (k = 0; k < NFEW; k++) {
				check_copy(name, how, fn, gd.lo + few_aligns[j],
					   gs.lo + few_aligns[k], sizes[i]);
				check_copy(name, how, fn,
					   gd.hi - sizes[i] - few_aligns[j],
					   gs.hi - sizes[i] - few_aligns[k],
					   sizes[i]);
			}
}

/*
 * strategy=NAME, as UACCESS_TUNABLES says it; a strategy of the test's own
 * (CHECKASM_STRATEGIES), which the parser does not know, put in place
 * directly
 */
static void
force(const struct ua_strategy *s)
{
	struct ua_policy p = *ua_policy();
	char item[64];

	if (ua_strategy_find(s->name) == s) {
		snprintf(item, sizeof(item), "strategy=%s", s->name);
		CHECK(ua_policy_parse(&p, item, strlen(item), ':', UA_FROM_ENV,
				      NULL) == 1,
		      "%s not accepted", item);
	} else {
		p.t[UA_T_STRATEGY].strategy = s;
		p.t[UA_T_STRATEGY].source = UA_FROM_ENV;
	}
	ua_dispatch_apply(&p);
	CHECK(!strcmp(ua_copy_strategy(1), s->name) &&
		  !strcmp(ua_copy_strategy(SIZE_MAX), s->name),
	      "forced %s, in force %s", s->name, ua_copy_strategy(1));
}

/* Through the public API, with the strategy forced */
static void
sweep_api(const struct ua_strategy *s)
{
	size_t i, n;
	int how;

	force(s);
	for (how = API_FROM; how < NHOW; how++) {
		sweep_few(s->name, (enum how)how, NULL, 0, 1, 0);
		sweep_large(s->name, (enum how)how, NULL);
	}
	for (i = 0; i < NFEW; i++)
		for (n = 0; n <= MAXLEN; n++)
			check_clear(s->name, 1, NULL, gd.lo + few_aligns[i], n);
}

#if defined(__x86_64__)
/*
 * The strategy's alias_backward says what its memcpy does, for
 * uaccess-tune: with dst 64 bytes past src in one buffer (4 KiB aliasing
 * as alias_forward_min means it) and alias_forward_min at max, a loop
 * that runs backward copies as memmove does, and one that runs forward
 * reads bytes it has already overwritten (the pattern repeats every 256
 * bytes, not every 64).  No contract of memcpy: a check of the flag.
 */
static void
check_alias_backward(const struct ua_strategy *s)
{
	static unsigned char buf[8192] __attribute__((aligned(4096)));
	static unsigned char want[sizeof(buf)];
	size_t i, n = 4096, was = ua_alias_forward_min;
	int backward;

	if (!s->plain)
		return;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + i / 256);
	memcpy(want, buf, sizeof(buf));
	memmove(want + 64, want, n);
	ua_alias_forward_min = SIZE_MAX;
	s->plain(buf + 64, buf, n);
	ua_alias_forward_min = was;
	backward = !memcmp(buf, want, sizeof(buf));
	CHECK(backward == !!s->alias_backward,
	      "%s memcpy with dst 64 bytes past src: runs %s, but its "
	      "alias_backward is %d",
	      s->name, backward ? "backward" : "forward", s->alias_backward);
}
#endif

/*
 * When dst is a little ahead of src modulo 4 KiB, a memcpy entry's bulk
 * loop runs backward, or forward from alias_forward_min, and a user copy's
 * loads run a round ahead of its stores: every distance mod 4096, lengths
 * across the loop's start, the rounds ahead and pages.
 */
static void
sweep_alias(const struct ua_strategy *s)
{
	static const size_t sizes[] = {255, 256,  257,  300,  511,  512, 513,
				       600, 1100, 1300, 2049, 4097, 5000};
	static const size_t src_off[] = {0, 17, 63};
	static const size_t fwd_min[] = {SIZE_MAX, 0};
	size_t delta, i, j, k, was = ua_alias_forward_min;

	plain_fn = s->plain;
	for (delta = 0; delta < 4096; delta++)
		for (i = 0; i < sizeof(src_off) / sizeof(src_off[0]); i++)
			for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
				unsigned char *d = gd.lo + src_off[i] + delta;
				const unsigned char *from = gs.lo + src_off[i];

				check_copy(s->name, DIRECT, s->copy, d, from,
					   sizes[j]);
				/* the memcpy loop backward and forward */
				for (k = 0; s->plain && k < 2; k++) {
					ua_alias_forward_min = fwd_min[k];
					check_copy(s->name, DIRECT_PLAIN, NULL,
						   d, from, sizes[j]);
				}
			}
	ua_alias_forward_min = was;
#if defined(__x86_64__)
	check_alias_backward(s);
#endif
}

/* Every CPU of the arch runs these: a vector (or plain) one, a string one */
#if defined(__x86_64__)
#define S_BASE "sse2"
#define S_STRING "erms"
#elif defined(__i386__)
#define S_BASE "movsl"
#define S_STRING "movsl"
#elif defined(__aarch64__)
#define S_BASE "ldp"
#define S_STRING "ldp"
#endif

/* What ua_dispatch_apply must have made of p: the entry's inline limit */
static size_t
inline_want(const struct ua_policy *p)
{
	const struct ua_strategy *s = p->t[UA_T_STRATEGY].strategy;
	size_t want;

	if (!s)
		s = p->t[UA_T_SMALL].strategy;
	want = p->t[UA_T_INLINE_WIDE].num && s->memcpy_inline_wide
		   ? p->t[UA_T_INLINE_LOOP].num && s->memcpy_inline_loop
			 ? s->memcpy_inline_loop
			 : s->memcpy_inline_wide
		   : s->memcpy_inline;
	if (want >= ua_dispatch.medium_min)
		want = ua_dispatch.medium_min ? ua_dispatch.medium_min - 1 : 0;
#ifdef UA_INLINE_LOOP_MIN
	if (want == ua_dispatch.medium_min - 1 && want < UA_INLINE_LOOP_MIN &&
	    want > s->memcpy_inline_wide && s->memcpy_inline_wide)
		want = s->memcpy_inline_wide;
#endif
#ifdef UA_INLINE_NARROW
	/* 64-byte moves cut to 512 by medium_min: 513, a limit the entry
	 * tells from its 32-byte moves' (dispatch.c, ua_inline_limit) */
	if (want == UA_INLINE_NARROW && p->t[UA_T_INLINE_WIDE].num &&
	    s->memcpy_inline_wide)
		want++;
#endif
	return want;
}

/*
 * ua_memcpy and ua_memcpy_nocache may copy small sizes in the entry itself
 * (x86-64), up to the small class's memcpy_inline (or memcpy_inline_wide,
 * with inline_wide) below medium_min: every alignment pair and every
 * length across that limit, under the default policy, sse2 and the best
 * vector strategy in the small class with narrow and with wide moves, the
 * medium class starting inside the inline range (and at 513 with the
 * wide moves: their limit is 513, the sizes below keep them), and a
 * string strategy forced.  The nocache entries' limit is the same below
 * nocache_min: it starts inside the inline range in pass 6.
 */
/*
 * The sizes the entry sweeps: every one up to 4 KiB (each move of the
 * small path, and the loop's rounds), and around the inline limit on
 * both sides; a limit of 8 KiB (a policy with the loop) would make every
 * size to 16 KiB a sweep of hours
 */
static size_t
entry_next_size(size_t n, size_t want, size_t maxlen)
{
	n++;
	if (n > 4096 + 8 && want > 4096 && n + 264 < want)
		n = want - 264;
	return n <= maxlen && (want <= 4096 || n <= want + 264) ? n : SIZE_MAX;
}

/* What the entries' first compare reads for a limit (range.h) */
static size_t
first_want(size_t max)
{
#ifdef UA_INLINE_FIRST_WIDE
	if (max > UA_INLINE_NARROW)
		return UA_INLINE_FIRST_WIDE;
	return max < UA_INLINE_FIRST_WIDE - 1 ? max : UA_INLINE_FIRST_WIDE - 1;
#else
	return max;
#endif
}

/*
 * A copy may read the two words of a limit from two different limits (one
 * of them stored, the other not yet: ua_inline_limit_store): the first of
 * one of the limits the passes set (seen, nseen), the max of another,
 * into the memcpy and the user entries, each size across both and every
 * move of the small path must still copy right (a max above 512 with the
 * first of 32-byte moves: to the table above 512)
 */
static void
sweep_mixed_limits(const size_t *seen, size_t nseen)
{
	struct ua_inline_limit keep = ua_memcpy_inline,
			       keep_user = ua_user_inline;
	size_t i, j, n, da, sa, top;

	for (i = 0; i < nseen; i++)
		for (j = 0; j < nseen; j++) {
			if (i == j)
				continue;
			ua_memcpy_inline.first = first_want(seen[i]);
			ua_memcpy_inline.max = seen[j];
			ua_user_inline = ua_memcpy_inline;
			top = seen[i] > seen[j] ? seen[i] : seen[j];
			top = (top > 4096 ? 4096 : top) + 264;
			for (da = 0; da < 64; da += 13)
				for (sa = 0; sa < 64; sa += 11)
					for (n = 0; n <= top; n++) {
						check_copy("mixed limits",
							   API_MEMCPY, NULL,
							   gd.lo + da,
							   gs.lo + sa, n);
						check_copy("mixed limits",
							   API_FROM, NULL,
							   gd.hi - n - da,
							   gs.hi - n - sa, n);
					}
		}
	ua_memcpy_inline = keep;
	ua_user_inline = keep_user;
}

static void
sweep_memcpy_entry(const struct ua_policy *def)
{
	const struct ua_strategy *all, *vec = NULL;
	size_t da, sa, n, i, count, pass, want, want_nc, maxlen;
	size_t seen[9], nseen = 0;
	char cfg[128];

	all = ua_strategies(&count);
	for (i = 0; i < count; i++)
		if (all[i].plain && ua_strategy_supported(&all[i]))
			vec = &all[i];
	for (pass = 0; pass < 9; pass++) {
		struct ua_policy p = *def;

		cfg[0] = 0;
		if (pass == 1)
			snprintf(cfg, sizeof(cfg), "small=" S_BASE);
		else if (pass == 2 && vec)
			snprintf(cfg, sizeof(cfg),
				 "small=%s:medium=" S_STRING ":medium_min=40",
				 vec->name);
		else if (pass == 3)
			snprintf(cfg, sizeof(cfg), "strategy=" S_STRING);
		else if ((pass == 4 || pass == 5) && vec)
			snprintf(cfg, sizeof(cfg),
				 "small=%s:medium_min=64K:inline_wide=%d",
				 vec->name, pass == 5);
		else if (pass == 6 && vec)
			snprintf(cfg, sizeof(cfg),
				 "small=%s:medium_min=64K:inline_wide=1:"
				 "nocache=%s:nocache_min=300",
				 vec->name, vec->name);
		else if (pass == 7 && vec)
			snprintf(cfg, sizeof(cfg),
				 "small=%s:medium_min=2100:inline_wide=1:"
				 "inline_loop=1",
				 vec->name);
		else if (pass == 8 && vec)
			snprintf(cfg, sizeof(cfg),
				 "small=%s:medium_min=513:inline_wide=1",
				 vec->name);
		else if (pass > 3)
			continue;
		if (cfg[0]) {
			CHECK(ua_policy_parse(&p, cfg, strlen(cfg), ':',
					      UA_FROM_ENV, NULL) >= 1,
			      "%s not accepted", cfg);
			ua_dispatch_apply(&p);
		}
		want = inline_want(&p);
		CHECK(ua_memcpy_inline.max == want,
		      "%s: inline up to %zu, want %zu (medium from %zu)",
		      cfg[0] ? cfg : "default", ua_memcpy_inline.max, want,
		      ua_dispatch.medium_min);
		CHECK(ua_memcpy_inline.first == first_want(want),
		      "%s: inline limit %zu with first %zu, want %zu",
		      cfg[0] ? cfg : "default", want, ua_memcpy_inline.first,
		      first_want(want));
		CHECK(pass != 3 || want == 0, "erms forced: inline up to %zu",
		      want);
		CHECK(pass != 8 || !vec->memcpy_inline_wide ||
			  ua_memcpy_inline.max == 513,
		      "%s: inline up to %zu, want 513 (the 64-byte moves)", cfg,
		      ua_memcpy_inline.max);
		want_nc =
		    want < ua_dispatch.nocache_min
			? want
			: ua_dispatch.nocache_min - !!ua_dispatch.nocache_min;
		CHECK(ua_nocache_inline.max == want_nc &&
			  ua_nocache_inline.first == first_want(want_nc),
		      "%s: nocache inline up to %zu (first %zu), want %zu "
		      "(nocache from %zu)",
		      cfg[0] ? cfg : "default", ua_nocache_inline.max,
		      ua_nocache_inline.first, want_nc,
		      ua_dispatch.nocache_min);
		CHECK(ua_user_inline.max == ua_memcpy_inline.max &&
			  ua_user_inline.first == ua_memcpy_inline.first,
		      "%s: the user entries' limit %zu (first %zu), the "
		      "memcpy entries' %zu",
		      cfg[0] ? cfg : "default", ua_user_inline.max,
		      ua_user_inline.first, ua_memcpy_inline.max);
		for (i = 0; i < nseen && seen[i] != want; i++)
			;
		if (i == nseen)
			seen[nseen++] = want;
		CHECK(pass != 6 || !vec || want_nc == 299,
		      "nocache_min=300: nocache inline up to %zu", want_nc);
		/* Across the limit, and every move of the small path (the
		 * loop's pass, whose sizes run to 4 KiB: every fifth pair) */
		maxlen = 2 * (want > 64 ? want : 64) + 8;
		for (da = 0; da < 64; da += pass == 7 ? 5 : 1)
			for (sa = 0; sa < 64; sa += pass == 7 ? 5 : 1)
				for (n = 0; n != SIZE_MAX;
				     n = entry_next_size(n, want, maxlen)) {
					check_copy("entry", API_MEMCPY, NULL,
						   gd.lo + da, gs.lo + sa, n);
					check_copy("entry", API_MEMCPY_NOCACHE,
						   NULL, gd.hi - n - da,
						   gs.hi - n - sa, n);
				}
		/* The user entries' inline moves: a few pairs */
		for (da = 0; da < 64; da += 9)
			for (sa = 0; sa < 64; sa += 7)
				for (n = 0; n != SIZE_MAX;
				     n = entry_next_size(n, want, maxlen)) {
					check_copy("entry", API_FROM, NULL,
						   gd.lo + da, gs.lo + sa, n);
					check_copy("entry", API_TO, NULL,
						   gd.hi - n - da,
						   gs.hi - n - sa, n);
					check_copy("entry", API_NOCACHE, NULL,
						   gd.lo + da, gs.hi - n - sa,
						   n);
				}
		ua_dispatch_apply(def);
	}
	sweep_mixed_limits(seen, nseen);
}

/* ---- Faults: the bad page starts k bytes into the user side ---- */

enum fault_op {
	F_FROM,
	F_TO,
	F_CLEAR,
	F_NOCACHE,
	F_DIRECT_FROM,
	F_DIRECT_TO,
	NF
};
static const char *const fault_op_names[] = {
    "copy_from_user",         "copy_to_user", "clear_user",
    "copy_from_user_nocache", "direct from",  "direct to"};

static const size_t fault_sizes[] = {
    1,   2,   3,   5,   8,    9,    16,   17,   31,   33,   63,  64,
    65,  100, 127, 129, 200,  255,  257,  300,  511,  513,  600, 640,
    641, 700, 768, 769, 1000, 1024, 1025, 1100, 5000, 20000};

static void
check_fault(const struct ua_strategy *s, struct t_layout *l, enum t_bad kind,
	    enum fault_op op, size_t n, size_t k, unsigned char *trusted)
{
	unsigned char *user = (unsigned char *)l->bad - k;
	size_t r, at;

	if (op == F_FROM || op == F_NOCACHE || op == F_DIRECT_FROM) {
		memset(user, 0x5a, k);
		memset(trusted - 64, CANARY, n + 128);
		if (op == F_FROM)
			r = ua_copy_from_user(trusted, user, n);
		else if (op == F_NOCACHE)
			r = ua_copy_from_user_nocache(trusted, user, n);
		else {
			r = ua_user_copy(s->copy, trusted, user, n, UA_SIDE_SRC,
					 (uintptr_t)user);
			/*
			 * The raw routine leaves the bytes past its count as
			 * they were (checked where the count is as expected,
			 * below), and does not zero-fill: do it like the API
			 */
			if (r == n - k)
				CHECK(first_not(trusted + k, CANARY, r) == r,
				      "%s %s %s: n=%zu k=%zu: byte %zu past "
				      "the count written",
				      s->name, fault_op_names[op],
				      t_bad_names[kind], n, k,
				      k + first_not(trusted + k, CANARY, r));
			memset(trusted + (n - r), 0, r);
		}
		CHECK(r == n - k, "%s %s %s: n=%zu, bad at %zu: returned %zu",
		      s->name, fault_op_names[op], t_bad_names[kind], n, k, r);
		at = first_not(trusted, 0x5a, k);
		CHECK(at == k, "%s %s %s: n=%zu k=%zu: byte %zu not copied",
		      s->name, fault_op_names[op], t_bad_names[kind], n, k, at);
		at = first_not(trusted + k, 0, n - k);
		CHECK(at == n - k, "%s %s %s: n=%zu k=%zu: byte %zu not zeroed",
		      s->name, fault_op_names[op], t_bad_names[kind], n, k,
		      k + at);
		CHECK(first_not(trusted - 64, CANARY, 64) == 64 &&
			  first_not(trusted + n, CANARY, 64) == 64,
		      "%s %s: wrote outside dst", s->name, fault_op_names[op]);
		return;
	}
	/* to_user and clear_user: the user side is written */
	memset(user - 64, 0x11, k + 64);
	memset(trusted, 0x5a, n);
	if (op == F_TO)
		r = ua_copy_to_user(user, trusted, n);
	else if (op == F_CLEAR)
		r = ua_clear_user(user, n);
	else
		r = ua_user_copy(s->copy, user, trusted, n, UA_SIDE_DST,
				 (uintptr_t)user);
	CHECK(r == n - k, "%s %s %s: n=%zu, bad at %zu: returned %zu", s->name,
	      fault_op_names[op], t_bad_names[kind], n, k, r);
	at = first_not(user, op == F_CLEAR ? 0 : 0x5a, k);
	CHECK(at == k, "%s %s %s: n=%zu k=%zu: byte %zu not written", s->name,
	      fault_op_names[op], t_bad_names[kind], n, k, at);
	CHECK(first_not(user - 64, 0x11, 64) == 64, "%s %s: wrote before udst",
	      s->name, fault_op_names[op]);
	if (kind == T_BAD_RDONLY)
		CHECK(first_not((unsigned char *)l->bad, 0x5a, pg) == pg,
		      "%s %s: wrote the read-only page", s->name,
		      fault_op_names[op]);
}

static void
sweep_faults(const struct ua_strategy *s)
{
	unsigned char *trusted;
	int kind, op;
	size_t i;

	force(s);
	trusted = gd.lo + 64;
	for (kind = 0; kind < T_BAD_KINDS; kind++) {
		struct t_layout l;

		if (!t_bad_testable((enum t_bad)kind))
			continue;
		l = t_layout_new(6, (enum t_bad)kind);

		for (op = 0; op < NF; op++) {
			if ((op == F_FROM || op == F_NOCACHE ||
			     op == F_DIRECT_FROM) &&
			    !t_bad_blocks_read((enum t_bad)kind))
				continue;
			if (op == F_CLEAR && !s->clear)
				continue;
			for (i = 0;
			     i < sizeof(fault_sizes) / sizeof(fault_sizes[0]);
			     i++) {
				size_t n = fault_sizes[i], k;
				/* head, body and tail of every size */
				size_t ks[] = {0,      1,      3,       8,
					       15,     17,     33,      63,
					       64,     65,     100,     200,
					       n / 3,  n / 2,  n - 200, n - 100,
					       n - 65, n - 64, n - 63,  n - 33,
					       n - 17, n - 9,  n - 5,   n - 1};
				size_t j;

				for (j = 0; j < sizeof(ks) / sizeof(ks[0]);
				     j++) {
					k = ks[j];
					if (k >= n)
						continue;
					check_fault(s, &l, (enum t_bad)kind,
						    (enum fault_op)op, n, k,
						    trusted + (k * 7) % 64);
				}
			}
		}
		t_layout_free(&l);
	}
	memset(gd.lo, CANARY, REGION);
}

/*
 * Faults where dst is 1 to 256 bytes ahead of src modulo 4 KiB (and
 * beyond, at 257 and 300), where a user copy loads a round ahead of what
 * it stores: the user side faults at every 29th byte of copies whose loop
 * runs many rounds, the trusted side placed at that distance.
 */
static void
sweep_fault_alias(const struct ua_strategy *s)
{
	static const size_t sizes[] = {600, 1100, 5000};
	static const size_t dist[] = {1,   17,  31,  32,  63,  64, 100,
				      128, 200, 255, 256, 257, 300};
	static const enum fault_op ops[] = {F_FROM, F_TO, F_DIRECT_FROM,
					    F_DIRECT_TO};
	struct t_layout l = t_layout_new(6, T_BAD_NONE);
	unsigned char *base = gd.lo + 64;
	size_t i, j, o, k;

	force(s);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < sizeof(dist) / sizeof(dist[0]); j++)
			for (o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
				for (k = 0; k < sizes[i]; k += 29) {
					uintptr_t user = (uintptr_t)l.bad - k;
					int from = ops[o] == F_FROM ||
						   ops[o] == F_DIRECT_FROM;
					/* dst - src = dist mod 4096 */
					uintptr_t at = from ? user + dist[j]
							    : user - dist[j];

					check_fault(
					    s, &l, T_BAD_NONE, ops[o], sizes[i],
					    k,
					    base + ((at - (uintptr_t)base) &
						    4095));
				}
	t_layout_free(&l);
	memset(gd.lo, CANARY, REGION);
}

/*
 * Faults in the page-safe paths of the bulk copies, which pick their moves
 * by where the destination starts and ends in its page: the trusted
 * buffer too starts just before or ends just after a page boundary, and
 * the bad page starts anywhere in the first 64 or the last 320 bytes.
 */
static void
sweep_fault_pages(const struct ua_strategy *s)
{
	static const size_t sizes[] = {600, 1100, 5000};
	static const size_t edges[] = {1, 2, 5, 9, 17, 33, 63, 64, 100, 127};
	struct t_layout l = t_layout_new(6, T_BAD_NONE);
	size_t i, j, k, end;
	int op;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (j = 0; j < sizeof(edges) / sizeof(edges[0]); j++)
			for (end = 0; end < 2; end++) {
				size_t n = sizes[i];
				unsigned char *trusted =
				    end ? gd.lo + 2 * pg + edges[j] - n
					: gd.lo + pg - edges[j];

				for (k = 0; k < n; k++) {
					if (k == 64 && n > 384)
						k = n - 320;
					for (op = F_DIRECT_FROM;
					     op <= F_DIRECT_TO; op++)
						check_fault(s, &l, T_BAD_NONE,
							    (enum fault_op)op,
							    n, k, trusted);
				}
			}
	t_layout_free(&l);
	memset(gd.lo, CANARY, REGION);
}

/*
 * The top of the default range: the x86-64 entries check only where a copy
 * starts (masked_user_access) and rely on the page the kernel never maps
 * above it.  With the last user page mapped, copies that start below the
 * top and run into it (or start at or beyond it) must return exactly the
 * bytes past it, the rest copied (from_user: zero-filled).  Skipped when
 * that page cannot be had (a 5-level machine, or something there).
 */
#if defined(__x86_64__)
static int
sweep_top(const struct ua_strategy *s)
{
	static const size_t sizes[] = {1,   8,   31,   33,   64,   65,   200,
				       513, 600, 1000, 1100, 5000, 20000};
	static const size_t below[] = {0, 1, 7, 33, 64, 100, 513, 4096, 8192};
	/* Past the top: by so much, or (from 1 << 32 up) at that address */
	static const uintptr_t beyond[] = {0,
					   1,
					   4096,
					   4097,
					   (uintptr_t)1 << 50,
					   (uintptr_t)1 << 63,
					   UINTPTR_MAX - 64};
	static unsigned char buf[20000 + 64];
	uintptr_t top = ua_user_top;
	unsigned char *last;
	size_t i, j, r, want, at;

	last = mmap((void *)(top - 2 * pg), 2 * pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (last == MAP_FAILED || last != (void *)(top - 2 * pg)) {
		if (last != MAP_FAILED)
			munmap(last, 2 * pg);
		return 0;
	}
	force(s);
	fill_src(last, 2 * pg);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];

		for (j = 0; j < sizeof(below) / sizeof(below[0]); j++) {
			const unsigned char *u =
			    (unsigned char *)top - below[j];

			want = n > below[j] ? n - below[j] : 0;
			memset(buf, CANARY, sizeof(buf));
			r = ua_copy_from_user(buf, u, n);
			at = first_diff(buf, u, n - want);
			CHECK(r == want && at == n - want &&
				  first_not(buf + n - want, 0, want) == want &&
				  buf[n] == CANARY,
			      "%s from_user top-%zu n=%zu: %zu left, want %zu, "
			      "byte %zu",
			      s->name, below[j], n, r, want, at);
			r = ua_copy_from_user_nocache(buf, u, n);
			CHECK(r == want,
			      "%s from_user_nocache top-%zu n=%zu: "
			      "%zu left, want %zu",
			      s->name, below[j], n, r, want);
			r = ua_copy_to_user((void *)u, gs.lo, n);
			at = first_diff(u, gs.lo, n - want);
			CHECK(r == want && at == n - want,
			      "%s to_user top-%zu n=%zu: %zu left, want %zu, "
			      "byte %zu",
			      s->name, below[j], n, r, want, at);
			fill_src(last, 2 * pg);
		}
		for (j = 0; j < sizeof(beyond) / sizeof(beyond[0]); j++) {
			const void *u =
			    (const void *)(beyond[j] >> 32 ? beyond[j]
							   : top + beyond[j]);

			memset(buf, CANARY, sizeof(buf));
			r = ua_copy_from_user(buf, u, n);
			CHECK(r == n && first_not(buf, 0, n) == n,
			      "%s from_user top+%#lx n=%zu: %zu left", s->name,
			      (unsigned long)beyond[j], n, r);
			r = ua_copy_to_user((void *)u, gs.lo, n);
			CHECK(r == n, "%s to_user top+%#lx n=%zu: %zu left",
			      s->name, (unsigned long)beyond[j], n, r);
		}
	}
	/* n beyond the top is refused whole, wherever it starts */
	last[0] = CANARY;
	CHECK(ua_copy_to_user(last, gs.lo, top + 1) == top + 1 &&
		  last[0] == CANARY,
	      "%s: n above the top", s->name);
	munmap(last, 2 * pg);
	return 1;
}
#else
/* The portable entries check the whole range: nothing to add here */
static int
sweep_top(const struct ua_strategy *s)
{
	(void)s;
	return 0;
}
#endif

/* ---- The checked call: the registers a routine must keep ---- */

static const char *const reg_names[] = {CHECKASM_REG_NAMES};

/*
 * fn(a[0], ..., a[5]) with canaries in the registers it must keep
 * (checkasm_call.S), each checked: all of them, but the user side after a
 * fault (`fault`: the handler hands it to ua_copy_fault in those
 * registers); the result returned
 */
static uintptr_t
checked_call(const char *what, uintptr_t fn, const uintptr_t a[6], int fault)
{
	struct checkasm_call c = {0};
	uintptr_t changed;
	size_t i;

	c.fn = fn;
	memcpy(c.arg, a, sizeof(c.arg));
	checkasm_checked_call(&c);
	changed = c.changed & ~(uintptr_t)(fault ? CHECKASM_USER : 0);
	for (i = 0; i < sizeof(reg_names) / sizeof(reg_names[0]); i++)
		CHECK(!(changed >> i & 1), "%s: %s not kept", what,
		      reg_names[i]);
	CHECK(!changed, "%s: changed %#lx", what, (unsigned long)changed);
	return c.ret;
}

/*
 * A copy or clear routine (clear: src NULL) on n bytes with [u, u + n) as
 * its user side; `bad` bytes of it expected not done
 */
static void
checked_routine(const char *name, uintptr_t fn, unsigned char *d,
		const unsigned char *src, size_t n, const unsigned char *u,
		enum ua_kind kind, size_t bad)
{
	const uintptr_t a[6] = {(uintptr_t)d, (uintptr_t)src, n,
				UA_USER_ARGS(u, u + n, kind)};
	char what[128];
	uintptr_t r;

	snprintf(what, sizeof(what), "%s %s n=%zu%s", name,
		 !src                 ? "clear"
		 : kind == UA_KIND_TO ? "to the user side"
				      : "from the user side",
		 n, bad ? ", faulting" : "");
	r = checked_call(what, fn, a, bad != 0);
	CHECK(r == bad, "%s: returned %zu, expected %zu", what, (size_t)r, bad);
}

/*
 * Every routine of a strategy (copy both ways, clear, the memcpy entry)
 * through the checked call, on good memory and into a bad page (the
 * fixup path)
 */
static void
sweep_regs(const char *name, ua_copy_fn copy, ua_clear_fn clear,
	   ua_memcpy_fn plain)
{
	static const size_t sizes[] = {0,   1,    7,    31,    64,   200,
				       513, 1100, 4097, 12345, 30000};
	struct t_layout l = t_layout_new(8, T_BAD_NONE);
	unsigned char *d = gd.lo + 3;
	const unsigned char *s = gs.lo + 5;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], bad = n - n / 2;
		unsigned char *u = (unsigned char *)l.bad - n / 2;
		const uintptr_t a[6] = {(uintptr_t)d, (uintptr_t)s, n};

		checked_routine(name, (uintptr_t)copy, d, s, n, s, UA_KIND_RAW,
				0);
		CHECK(!memcmp(d, s, n), "%s: n=%zu copied wrong", name, n);
		checked_routine(name, (uintptr_t)copy, d, s, n, d, UA_KIND_TO,
				0);
		if (plain)
			CHECK(checked_call(name, (uintptr_t)plain, a, 0) ==
				  (uintptr_t)d,
			      "%s memcpy entry n=%zu: not dst", name, n);
		if (clear)
			checked_routine(name, (uintptr_t)clear, d, NULL, n, d,
					UA_KIND_CLEAR, 0);
		if (!n)
			continue;
		checked_routine(name, (uintptr_t)copy, d, u, n, u, UA_KIND_RAW,
				bad);
		checked_routine(name, (uintptr_t)copy, u, s, n, u, UA_KIND_TO,
				bad);
		if (clear)
			checked_routine(name, (uintptr_t)clear, u, NULL, n, u,
					UA_KIND_CLEAR, bad);
	}
	t_layout_free(&l);
	memset(gd.lo, CANARY, REGION);
}

/* get_user and put_user, each size, on good memory and on a bad page */
static void
sweep_regs_getput(void)
{
	typedef int (*get_fn)(uint64_t *, const void *);
	typedef int (*put_fn)(uint64_t, void *);
	static const get_fn gets[] = {ua_arch_get_1, ua_arch_get_2,
				      ua_arch_get_4, ua_arch_get_8};
	static const put_fn puts[] = {ua_arch_put_1, ua_arch_put_2,
				      ua_arch_put_4, ua_arch_put_8};
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	unsigned char *where[2] = {gd.lo, (unsigned char *)l.bad};
	uint64_t v;
	size_t i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 2; j++) {
			const int want = j ? -EFAULT : 0;
#if defined(__i386__)
			/* cdecl: the u64 value in two words */
			const uintptr_t put[6] = {0x5a5a5a5a, 0x5a5a5a5a,
						  (uintptr_t)where[j]};
#else
			const uintptr_t put[6] = {(uintptr_t)0x5a5a5a5a5a5a5a5a,
						  (uintptr_t)where[j]};
#endif
			const uintptr_t get[6] = {(uintptr_t)&v,
						  (uintptr_t)where[j]};

			CHECK((int)checked_call("put_user", (uintptr_t)puts[i],
						put, j) == want,
			      "put_user of %d bytes", 1 << i);
			CHECK((int)checked_call("get_user", (uintptr_t)gets[i],
						get, j) == want,
			      "get_user of %d bytes", 1 << i);
		}
	t_layout_free(&l);
	memset(gd.lo, CANARY, REGION);
}

/* ---- The default policy: class edges, and the seed 000 alignment guard ----
 */

static void
sweep_edges(const struct ua_policy *def)
{
	static const int edges[] = {UA_T_MEDIUM_MIN,     UA_T_LARGE_MIN,
				    UA_T_HUGE_MIN,       UA_T_CLEAR_LARGE_MIN,
				    UA_T_CLEAR_HUGE_MIN, UA_T_NOCACHE_MIN};
	static const size_t pairs[][2] = {
	    {0, 0}, {1, 0}, {0, 33}, {17, 5}, {63, 63}};
	struct guarded bs, bd;
	size_t e, i, p, big = 0;
	int how;

	for (e = 0; e < sizeof(edges) / sizeof(edges[0]); e++)
		if (def->t[edges[e]].num < ((size_t)64 << 20) &&
		    def->t[edges[e]].num + 64 > big)
			big = def->t[edges[e]].num + 64;
	bs = guarded_new(big);
	bd = guarded_new(big);
	fill_src(bs.lo, (size_t)(bs.hi - bs.lo));
	for (e = 0; e < sizeof(edges) / sizeof(edges[0]); e++) {
		size_t edge = def->t[edges[e]].num;

		if (edge == 0 || edge >= ((size_t)64 << 20))
			continue;
		for (i = 0; i < 3; i++) {
			size_t n = edge - 1 + i;

			for (p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
				unsigned char *d = bd.hi - n - pairs[p][0];
				const unsigned char *s = bs.lo + pairs[p][1];

				for (how = API_FROM; how < NHOW; how++) {
					size_t r, at;

					memset(d, CANARY, n);
					r = do_copy((enum how)how, NULL, d, s,
						    n);
					at = first_diff(d, s, n);
					CHECK(
					    r == 0 && at == n,
					    "%s at edge %s=%zu: n=%zu byte %zu",
					    how_names[how],
					    ua_tunables[edges[e]].name, edge, n,
					    at);
				}
				memset(d, CANARY, n);
				CHECK(ua_clear_user(d, n) == 0 &&
					  first_not(d, 0, n) == n,
				      "clear at edge %zu", n);
			}
		}
	}
	munmap(bs.map, (size_t)(bs.hi - bs.lo) + 2 * pg);
	munmap(bd.map, (size_t)(bd.hi - bd.lo) + 2 * pg);
}

/*
 * The three clear classes: each size reaches its class's routine and
 * clears exactly, a fault in any class returns what was not cleared, a
 * huge start below the large one empties the large class, and an unset
 * clear_huge is clear_large.  The routines: the first three usable
 * strategies with a clear routine (fewer on a CPU with fewer; the classes
 * are told apart by routine only where they differ).
 */
static void
sweep_clear_classes(const struct ua_policy *def)
{
	static const size_t sizes[] = {1,    99,   100,  101, 999,
				       1000, 1001, 3000, 5000};
	const struct ua_strategy *all, *c[3] = {NULL, NULL, NULL};
	struct t_layout l = t_layout_new(2, T_BAD_NONE);
	struct ua_policy p;
	size_t n, i, k = 0;
	int round;

	all = ua_strategies(&n);
	for (i = 0; i < n && k < 3; i++)
		if (all[i].clear && ua_strategy_usable(&all[i]))
			c[k++] = &all[i];
	CHECK(k > 0, "no strategy clears");
	for (i = k; i < 3; i++)
		c[i] = c[k - 1];
	for (round = 0; round < 3; round++) {
		/* 0: three classes; 1: clear_huge_min below clear_large_min;
		 * 2: clear_huge unset */
		ua_clear_fn want[3] = {c[0]->clear, c[1]->clear, c[2]->clear};
		size_t large_min = round == 1 ? 1000 : 100;
		size_t huge_min = round == 1 ? 100 : 1000;

		p = *def;
		p.t[UA_T_STRATEGY].strategy = NULL;
		p.t[UA_T_CLEAR_SMALL].strategy = c[0];
		p.t[UA_T_CLEAR_LARGE].strategy = c[1];
		p.t[UA_T_CLEAR_HUGE].strategy = round == 2 ? NULL : c[2];
		p.t[UA_T_CLEAR_LARGE_MIN].num = large_min;
		p.t[UA_T_CLEAR_HUGE_MIN].num = huge_min;
		if (round == 2)
			want[2] = want[1];
		ua_dispatch_apply(&p);
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t m = sizes[i];
			int cls = m < 100 ? 0 : m < 1000 && round != 1 ? 1 : 2;
			unsigned char *d = gd.hi - m, *at;
			size_t bad;

			CHECK(ua_clear_routine(m) == want[cls],
			      "clear classes, round %d: %zu bytes not in "
			      "class %d",
			      round, m, cls);
			memset(d - 1, CANARY, m + 1);
			CHECK(ua_clear_user(d, m) == 0 &&
				  first_not(d, 0, m) == m &&
				  gd.hi[-(ptrdiff_t)m - 1] == CANARY,
			      "clear classes, round %d: clear of %zu", round,
			      m);
			/* The last bytes (7 at most) in the bad page */
			bad = m < 7 ? m : 7;
			at = (unsigned char *)l.bad - (m - bad);
			memset(at, CANARY, m - bad);
			CHECK(ua_clear_user(at, m) == bad &&
				  first_not(at, 0, m - bad) == m - bad,
			      "clear classes, round %d: fault in a clear of "
			      "%zu",
			      round, m);
		}
	}
	memset(gd.lo, CANARY, REGION);
	t_layout_free(&l);
	ua_dispatch_apply(def);
}

static void
check_class_names(const struct ua_policy *def)
{
	const struct ua_setting *t = def->t;

	CHECK(!strcmp(ua_copy_strategy(0), t[UA_T_SMALL].strategy->name),
	      "small");
	if (t[UA_T_LARGE_MIN].num > t[UA_T_MEDIUM_MIN].num)
		CHECK(!strcmp(ua_copy_strategy(t[UA_T_MEDIUM_MIN].num),
			      t[UA_T_MEDIUM].strategy->name),
		      "medium");
	if (t[UA_T_HUGE_MIN].num > t[UA_T_LARGE_MIN].num)
		CHECK(!strcmp(ua_copy_strategy(t[UA_T_LARGE_MIN].num),
			      t[UA_T_LARGE].strategy->name),
		      "large");
	CHECK(!strcmp(ua_copy_strategy(SIZE_MAX), t[UA_T_HUGE].strategy->name),
	      "huge");
}

/* A string strategy as medium, the others not; on every CPU of the arch */
#if defined(__x86_64__)
#define GUARD_STRING "erms"
#define GUARD_CFG                                                              \
	"small=sse2:medium=erms:large=movsq:huge=movsq:rep_misaligned="        \
	"unrolled"
#define MISALIGNED_CFG                                                         \
	"small=sse2:small_misaligned=unrolled:medium=unrolled:"                \
	"medium_misaligned=sse2:large=erms:large_misaligned=movsq:huge=sse2:"  \
	"huge_misaligned=erms"
#elif defined(__i386__)
#define GUARD_STRING "movsl"
#define GUARD_CFG                                                              \
	"small=intel:medium=movsl:large=movsl:huge=movsl:rep_misaligned=intel"
#define MISALIGNED_CFG                                                         \
	"small=movsl:small_misaligned=intel:medium=intel:"                     \
	"medium_misaligned=movsl:large=movsl:large_misaligned=intel:"          \
	"huge=intel:huge_misaligned=movsl"
#endif

/* rep_align_mask: a string strategy must hand misaligned copies over */
static void
sweep_guard(const struct ua_policy *def)
{
#ifdef GUARD_CFG
	static const char cfg[] =
	    "medium_min=64:large_min=128:huge_min=1G:" GUARD_CFG
	    ":rep_align_mask=63";
	static const char mis[] = "medium_min=100:large_min=1000:huge_min=5000:"
				  "rep_align_mask=63:" MISALIGNED_CFG;
	struct ua_policy p = *def;

	CHECK(ua_policy_parse(&p, cfg, strlen(cfg), ':', UA_FROM_ENV, NULL) ==
		  9,
	      "guard policy not accepted");
	ua_dispatch_apply(&p);
	CHECK(!strcmp(ua_copy_strategy(100), GUARD_STRING),
	      "medium=" GUARD_STRING " not in force");
	sweep_few("guard", API_FROM, NULL, 60, 7, 0);
	sweep_few("guard", API_MEMCPY, NULL, 60, 7, 0);
	sweep_large("guard", API_TO, NULL);
	ua_dispatch_apply(def);

	/*
	 * The misaligned tables of the other classes: strategies with and
	 * without a memcpy entry, told apart by (src ^ dst) & 63 in the
	 * entries (x86-64) or in the guard (the portable ones)
	 */
	p = *def;
	CHECK(ua_policy_parse(&p, mis, strlen(mis), ':', UA_FROM_ENV, NULL) >=
		  8,
	      "misaligned policy not accepted");
	ua_dispatch_apply(&p);
	sweep_few("misaligned", API_FROM, NULL, 60, 7, 0);
	sweep_few("misaligned", API_MEMCPY, NULL, 60, 7, 1);
	sweep_large("misaligned", API_TO, NULL);
	sweep_large("misaligned", API_MEMCPY, NULL);
#else
	(void)def;
	printf("alignment guard: no string strategies on this architecture\n");
#endif
}

/*
 * The strategies checked: the library's table.  A test that includes this
 * file may define CHECKASM_STRATEGIES as a function like ua_strategies()
 * that gives its own (checkasm_avx512emu.c); the checks of the default
 * policy, which are about the library's table, are then left out.
 */
#ifdef CHECKASM_STRATEGIES
#define CHECKASM_POLICY 0
#else
#define CHECKASM_STRATEGIES ua_strategies
#define CHECKASM_POLICY 1
#endif

int
main(int argc, char **argv)
{
	const struct ua_strategy *all;
	struct ua_policy def;
	size_t count, i, tested = 0, skipped = 0;
	int top;
	const char *only = argc > 1 ? argv[1] : NULL;

	pg = t_page();
	CHECK(ua_init() == 0, "ua_init");
	def = *ua_policy();
	gs = guarded_new(REGION);
	gd = guarded_new(REGION);
	expect = malloc(REGION);
	CHECK(expect != NULL, "malloc");
	fill_src(gs.lo, REGION);
	memset(gd.lo, CANARY, REGION);

	all = CHECKASM_STRATEGIES(&count);
	for (i = 0; i < count; i++) {
		const struct ua_strategy *s = &all[i];

		if (only && strcmp(only, s->name))
			continue;
		if (!ua_strategy_supported(s)) {
			printf("%-9s SKIPPED: this CPU cannot run it\n",
			       s->name);
			skipped++;
			continue;
		}
		sweep_regs(s->name, s->copy, s->clear, s->plain);
		sweep_direct(s);
		sweep_large(s->name, DIRECT, s->copy);
		if (s->plain)
			sweep_large(s->name, DIRECT_PLAIN, NULL);
		sweep_alias(s);
		sweep_api(s);
		sweep_faults(s);
		sweep_fault_alias(s);
		sweep_fault_pages(s);
		top = sweep_top(s);
		ua_dispatch_apply(&def);
		printf("%-9s ok: copy%s%s, direct and forced through the API, "
		       "faults%s\n",
		       s->name, s->clear ? ", clear" : "",
		       s->plain ? ", memcpy entry" : "",
		       top ? ", the top of the range" : "");
		tested++;
	}
	if (!only) {
		sweep_regs("byte routines", ua_arch_copy_bytes,
			   ua_arch_clear_bytes, NULL);
		sweep_regs_getput();
		printf("checked calls: the byte routines, get_user and "
		       "put_user keep their registers\n");
	}
	if (!only && CHECKASM_POLICY) {
		check_class_names(&def);
		sweep_edges(&def);
		sweep_clear_classes(&def);
		sweep_guard(&def);
		ua_dispatch_apply(&def);
		sweep_memcpy_entry(&def);
		printf("default policy: class edges, the clear classes and the "
		       "alignment guard ok\n");
	}
	printf("%zu strategies tested, %zu skipped\n", tested, skipped);
	t_done("checkasm");
	return tested ? T_PASS : T_SKIP;
}
