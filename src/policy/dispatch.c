/* SPDX-License-Identifier: MIT */
/*
 * The dispatch table (dispatch.h): filled once from the policy, on first
 * use; a call costs a couple of compares and an indirect call.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "arch.h"
#include "dispatch.h"
#include "once.h"
#include "policy.h"
#include "range.h"
#include "routine.h"

static struct ua_once ua_dispatch_once;

/*
 * Before the table is filled it points at these: the first call fills it
 * and goes on with the real table, so that ua_memcpy needs no init test of
 * its own.  Re-entered from a signal handler while the table is being
 * filled: the byte routines.
 */
#define UA_ROUTINE_PARAMS                                                      \
	void *dst, const void *src, size_t n, uintptr_t a3, uintptr_t a4,      \
	    uintptr_t a5
#define UA_ROUTINE_ARGS dst, src, n, a3, a4, a5

static size_t
ua_copy_first(UA_ROUTINE_PARAMS)
{
	ua_copy_fn fn;

	ua_dispatch_ready();
	fn = ua_copy_routine(dst, src, n);
	if (fn == ua_copy_first)
		fn = ua_arch_copy_bytes;
	return fn(UA_ROUTINE_ARGS);
}

static size_t
ua_nocache_first(UA_ROUTINE_PARAMS)
{
	ua_copy_fn fn;

	ua_dispatch_ready();
	fn = ua_nocache_routine(dst, src, n);
	if (fn == ua_nocache_first || fn == ua_copy_first)
		fn = ua_arch_copy_bytes;
	return fn(UA_ROUTINE_ARGS);
}

static size_t
ua_clear_first(UA_ROUTINE_PARAMS)
{
	ua_clear_fn fn;

	ua_dispatch_ready();
	fn = ua_clear_routine(n);
	if (fn == ua_clear_first)
		fn = ua_arch_clear_bytes;
	return fn(UA_ROUTINE_ARGS);
}

static void *
ua_memcpy_first(void *dst, const void *src, size_t n)
{
	ua_memcpy_fn fn;

	ua_dispatch_ready();
	fn = ua_memcpy_routine(dst, src, n);
	if (fn == ua_memcpy_first)
		return ua_memcpy_with(ua_arch_copy_bytes, dst, src, n);
	return fn(dst, src, n);
}

static void *
ua_memcpy_nocache_first(void *dst, const void *src, size_t n)
{
	ua_dispatch_ready();
	if (ua_dispatch.memcpy_nocache == ua_memcpy_nocache_first)
		return ua_memcpy_with(ua_arch_copy_bytes, dst, src, n);
	if (n >= ua_dispatch.nocache_min)
		return ua_dispatch.memcpy_nocache(dst, src, n);
	return ua_memcpy_routine(dst, src, n)(dst, src, n);
}

struct ua_dispatch ua_dispatch = {
    .medium_min = SIZE_MAX,
    .large_min = SIZE_MAX,
    .huge_min = SIZE_MAX,
    .copy = {ua_copy_first, ua_copy_first, ua_copy_first, ua_copy_first},
    .clear_large_min = SIZE_MAX,
    .clear_huge_min = SIZE_MAX,
    .clear_small = ua_clear_first,
    .clear_large = ua_clear_first,
    .clear_huge = ua_clear_first,
    .nocache_min = SIZE_MAX,
    .nocache = ua_nocache_first,
    .memcpy = {ua_memcpy_first, ua_memcpy_first, ua_memcpy_first,
	       ua_memcpy_first},
    .memcpy_nocache = ua_memcpy_nocache_first,
};

/* Before the table is filled every size goes through it, which fills it */
struct ua_inline_limit ua_memcpy_inline, ua_nocache_inline;
size_t ua_alias_forward_min = SIZE_MAX;

struct ua_misaligned ua_misaligned = {
    .copy = {ua_copy_first, ua_copy_first, ua_copy_first, ua_copy_first},
    .memcpy = {ua_memcpy_first, ua_memcpy_first, ua_memcpy_first,
	       ua_memcpy_first},
};

/* What the tables were made from: the strategies, the routines behind the
 * size guards */
static struct {
	const struct ua_strategy *copy_s[UA_NCLASSES];
	ua_copy_fn huge, huge_misaligned, nocache;
} ua_engine;

static struct ua_policy ua_policy_now;

/*
 * ua_memcpy for a class whose strategy has no memcpy entry: its copy
 * routine in the table (ua_dispatch) or in the misaligned one
 */
#define UA_VIA(table, c)                                                       \
	static void *ua_via_##table##_##c(void *dst, const void *src,          \
					  size_t n)                            \
	{                                                                      \
		return ua_memcpy_with(table.copy[c], dst, src, n);             \
	}
#define UA_VIA_ALL(table)                                                      \
	UA_VIA(table, 0)                                                       \
	UA_VIA(table, 1)                                                       \
	UA_VIA(table, 2)                                                       \
	UA_VIA(table, 3)                                                       \
	static const ua_memcpy_fn ua_via_##table[UA_NCLASSES] = {              \
	    ua_via_##table##_0, ua_via_##table##_1, ua_via_##table##_2,        \
	    ua_via_##table##_3};
UA_VIA_ALL(ua_dispatch)
UA_VIA_ALL(ua_misaligned)

static void *
ua_via_nocache(void *dst, const void *src, size_t n)
{
	return ua_memcpy_with(ua_dispatch.nocache, dst, src, n);
}

/*
 * A user copy above INT_MAX is refused without touching either buffer: a
 * negative length cast to size_t (the kernel's check_copy_size()).  Every
 * such size is in the huge class (ua_guard_sizes) and in the nocache
 * routine's range, whose routines check first: the sizes below never see
 * the test.  ua_memcpy, with no user side, copies them.
 */
static inline int
ua_too_big(UA_ROUTINE_PARAMS)
{
	struct ua_user u;

	(void)dst;
	(void)src;
	return n > INT_MAX && ua_args_user(a3, a4, a5, &u);
}

/* ua_NAME_guard: the engine's routine NAME behind that test */
#define UA_GUARD(name)                                                         \
	static size_t ua_##name##_guard(UA_ROUTINE_PARAMS)                     \
	{                                                                      \
		if (ua_too_big(UA_ROUTINE_ARGS))                               \
			return n;                                              \
		return ua_engine.name(UA_ROUTINE_ARGS);                        \
	}

UA_GUARD(huge)
UA_GUARD(huge_misaligned)
UA_GUARD(nocache)

/* The size class of n under thresholds d (ua_size_class's rule) */
static int
ua_class_in(const struct ua_dispatch *d, size_t n)
{
	if (n < d->medium_min)
		return UA_SMALL;
	if (n < d->large_min)
		return UA_MEDIUM;
	return n < d->huge_min ? UA_LARGE : UA_HUGE;
}

/*
 * Make every size above INT_MAX a huge one, and guard the huge routines of
 * both tables
 */
static void
ua_guard_sizes(struct ua_dispatch *d, struct ua_misaligned *m)
{
	const size_t big = (size_t)INT_MAX + 1;
	int c = ua_class_in(d, big);

	if (c < UA_HUGE) {
		d->huge_min = big;
		d->large_min = d->large_min > big ? big : d->large_min;
		d->medium_min = d->medium_min > big ? big : d->medium_min;
		d->copy[UA_HUGE] = d->copy[c];
		d->memcpy[UA_HUGE] = d->memcpy[c];
		m->copy[UA_HUGE] = m->copy[c];
		m->memcpy[UA_HUGE] = m->memcpy[c];
		ua_engine.copy_s[UA_HUGE] = ua_engine.copy_s[c];
	}
	ua_engine.huge = d->copy[UA_HUGE];
	d->copy[UA_HUGE] = ua_huge_guard;
	ua_engine.huge_misaligned = m->copy[UA_HUGE];
	m->copy[UA_HUGE] = ua_huge_misaligned_guard;
	ua_engine.nocache = d->nocache;
	d->nocache = ua_nocache_guard;
}

/* The strategy of class c for (src ^ dst) & rep_align_mask != 0 */
static const struct ua_strategy *
ua_misaligned_strategy(const struct ua_policy *p, int c)
{
	const struct ua_strategy *s = p->t[UA_T_SMALL + c].strategy;
	const struct ua_strategy *alt = p->t[UA_T_REP_MISALIGNED].strategy;

	if (p->t[UA_T_SMALL_MISALIGNED + c].strategy)
		return p->t[UA_T_SMALL_MISALIGNED + c].strategy;
	if (s->string && alt && !alt->string)
		return alt;
	return s;
}

/* The tables for p, in d and m */
static void
ua_dispatch_build(const struct ua_policy *p, struct ua_dispatch *d,
		  struct ua_misaligned *m)
{
	const struct ua_strategy *force = p->t[UA_T_STRATEGY].strategy;
	int c;

	memset(d, 0, sizeof(*d));
	memset(m, 0, sizeof(*m));
	d->medium_min = p->t[UA_T_MEDIUM_MIN].num;
	d->large_min = p->t[UA_T_LARGE_MIN].num;
	d->huge_min = p->t[UA_T_HUGE_MIN].num;
	/* Classes are ordered: a start above the next class's empties it */
	d->large_min = d->large_min > d->huge_min ? d->huge_min : d->large_min;
	d->medium_min =
	    d->medium_min > d->large_min ? d->large_min : d->medium_min;
	m->mask = force ? 0 : p->t[UA_T_REP_ALIGN_MASK].num;
	for (c = 0; c < UA_NCLASSES; c++) {
		const struct ua_strategy *s =
		    force ? force : p->t[UA_T_SMALL + c].strategy;
		const struct ua_strategy *mis =
		    m->mask ? ua_misaligned_strategy(p, c) : s;

		ua_engine.copy_s[c] = s;
		d->copy[c] = s->copy;
		d->memcpy[c] = s->plain ? s->plain : ua_via_ua_dispatch[c];
		m->copy[c] = mis->copy;
		m->memcpy[c] =
		    mis->plain ? mis->plain : ua_via_ua_misaligned[c];
	}
	d->clear_huge_min = p->t[UA_T_CLEAR_HUGE_MIN].num;
	d->clear_large_min = p->t[UA_T_CLEAR_LARGE_MIN].num;
	d->clear_large_min = d->clear_large_min > d->clear_huge_min
				 ? d->clear_huge_min
				 : d->clear_large_min;
	d->clear_small = p->t[UA_T_CLEAR_SMALL].strategy->clear;
	d->clear_large = p->t[UA_T_CLEAR_LARGE].strategy->clear;
	/* Unset: the huge clears are large ones */
	d->clear_huge = p->t[UA_T_CLEAR_HUGE].strategy
			    ? p->t[UA_T_CLEAR_HUGE].strategy->clear
			    : d->clear_large;
	d->nocache_min = p->t[UA_T_NOCACHE_MIN].num;
	d->nocache = p->t[UA_T_NOCACHE].strategy->copy;
	if (force) {
		if (force->clear)
			d->clear_small = d->clear_large = d->clear_huge =
			    force->clear;
		d->nocache_min = 0;
		d->nocache = force->copy;
	}
	d->memcpy_nocache = ua_via_nocache;
	if (force && force->plain)
		d->memcpy_nocache = force->plain;
	ua_guard_sizes(d, m);
}

/*
 * The entries' limit for copies up to max bytes.  x86-64's entries tell
 * their 64-byte moves (inline_wide) by a limit above UA_INLINE_NARROW
 * (arch.h), the 32-byte ones' own: a wide limit cut to exactly that by
 * medium_min keeps one byte more, the 513-byte copies going by the
 * entry's first band, so that the sizes below keep the 64-byte moves.
 */
static size_t
ua_inline_limit(size_t max, int wide)
{
#ifdef UA_INLINE_NARROW
	if (wide && max == UA_INLINE_NARROW)
		return max + 1;
#else
	(void)wide;
#endif
	return max;
}

/* Put the tables in force; wrapped: every size through the main table */
static void
ua_dispatch_set(const struct ua_policy *p, const struct ua_dispatch *d,
		const struct ua_misaligned *m, int wrapped)
{
	const struct ua_strategy *small = ua_engine.copy_s[UA_SMALL];
	/* The entry's own moves: the small class's, narrow, wide or looped */
	int wide = p->t[UA_T_INLINE_WIDE].num && small->memcpy_inline_wide;
	int loop =
	    wide && p->t[UA_T_INLINE_LOOP].num && small->memcpy_inline_loop;
	size_t max = loop   ? small->memcpy_inline_loop
		     : wide ? small->memcpy_inline_wide
			    : small->memcpy_inline;

	if (max >= d->medium_min)
		max = d->medium_min ? d->medium_min - 1 : 0;
#ifdef UA_INLINE_LOOP_MIN
	/* The loop from a limit of UA_INLINE_LOOP_MIN: below, the bands */
	if (loop && max < UA_INLINE_LOOP_MIN && max > small->memcpy_inline_wide)
		max = small->memcpy_inline_wide;
#endif
	ua_policy_now = *p;
	ua_dispatch = *d;
	ua_misaligned = *m;
	ua_inline_limit_store(&ua_memcpy_inline,
			      wrapped ? 0 : ua_inline_limit(max, wide));
	if (max >= d->nocache_min)
		max = d->nocache_min ? d->nocache_min - 1 : 0;
	ua_inline_limit_store(&ua_nocache_inline,
			      wrapped ? 0 : ua_inline_limit(max, wide));
	ua_range_entry_limits(ua_memcpy_inline.max, ua_nocache_inline.max);
	ua_alias_forward_min = p->t[UA_T_ALIAS_FORWARD_MIN].num;
}

void
ua_dispatch_apply(const struct ua_policy *p)
{
	struct ua_misaligned m;
	struct ua_dispatch d;

	ua_dispatch_build(p, &d, &m);
	ua_dispatch_set(p, &d, &m, 0);
}

void
ua_dispatch_apply_wrapped(const struct ua_policy *p,
			  const struct ua_dispatch_user *wrap,
			  struct ua_dispatch_user *ret_real)
{
	struct ua_misaligned m;
	struct ua_dispatch d;
	int c;

	ua_dispatch_build(p, &d, &m);
	m.mask = 0;
	for (c = 0; c < UA_NCLASSES; c++) {
		ret_real->copy[c] = d.copy[c];
		d.copy[c] = wrap->copy[c];
	}
	ret_real->nocache = d.nocache;
	d.nocache = wrap->nocache;
	ret_real->clear_small = d.clear_small;
	d.clear_small = wrap->clear_small;
	ret_real->clear_large = d.clear_large;
	d.clear_large = wrap->clear_large;
	ret_real->clear_huge = d.clear_huge;
	d.clear_huge = wrap->clear_huge;
	ua_dispatch_set(p, &d, &m, 1);
}

void
ua_dispatch_ready(void)
{
	struct ua_policy p;
	int saved_errno;

	if (ua_once_enter(&ua_dispatch_once) != UA_ONCE_RUN)
		return;
	/* reading the profile fails with ENOENT where there is none: no
	 * call changes errno, the first ua_memcpy of a program neither */
	saved_errno = errno;
	ua_policy_load(&p);
	ua_dispatch_apply(&p);
	errno = saved_errno;
	ua_once_end(&ua_dispatch_once);
}

const struct ua_policy *
ua_policy(void)
{
	ua_dispatch_ready();
	return &ua_policy_now;
}

/* The strategy whose routine is ua_arch_copy_bytes, if one is */
static const char *
ua_bytes_name(void)
{
	const struct ua_strategy *all;
	size_t n, i;

	all = ua_strategies(&n);
	for (i = 0; i < n; i++)
		if (all[i].copy == ua_arch_copy_bytes)
			return all[i].name;
	return "bytes";
}

UA_EXPORT const char *
ua_copy_strategy(size_t n)
{
	ua_dispatch_ready();
	if (!ua_engine.copy_s[0])
		return ua_bytes_name();
	return ua_engine.copy_s[ua_size_class(n)]->name;
}
