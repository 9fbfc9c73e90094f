/* SPDX-License-Identifier: MIT */
/*
 * The dispatch table: which routine serves a copy of n bytes.  Filled once
 * from the policy (policy.h), on first use: before that it holds routines
 * that fill it and go on, so that ua_memcpy needs no init test.  A call
 * costs a compare or three and an indirect call.
 *
 * Where the rest of the engine lives:
 *   strategies.h     the strategies (one list per arch:
 *                    src/engine/<arch>/strategies.c)
 *   src/engine/<arch>/copy_*.S, memcpy_*.S   their routines
 *   usable.h         which ones may run (the CPU, UACCESS_DISABLE)
 *   cpu.h, cpu_detect.h                      the CPU
 *   tunables.h       the settings of a policy, their names and parser
 *   default_policy.h the defaults per CPU (src/policy/<arch>/default_policy.c)
 *   profile.h        the profile uaccess-tune writes
 *   policy.h         the policy to put in force (defaults, profile, env)
 *   inject.h         fault injection, which wraps the table's routines
 * The entries that read the table: entry.c (src/api/x86_64/entry.S), refused.c.
 *
 * Also used, not installed, by the project's tools and internal tests
 * (uaccess-tune, uaccess-bench, checkasm), which link the library's objects.
 */
#ifndef UA_DISPATCH_H
#define UA_DISPATCH_H

#include "tunables.h"

/*
 * A copy of n bytes belongs to class SMALL below medium_min, MEDIUM below
 * large_min, LARGE below huge_min, HUGE from there up.  Each class has a
 * strategy.  Small sizes (0-256 B) are handled inside every strategy by
 * overlapping loads, so SMALL/MEDIUM split only where the best bulk loop
 * changes.  The tunables UA_T_SMALL.. are in the same order.
 */
enum ua_class { UA_SMALL, UA_MEDIUM, UA_LARGE, UA_HUGE, UA_NCLASSES };

struct ua_dispatch {
	size_t medium_min, large_min, huge_min;
	ua_copy_fn copy[UA_NCLASSES];
	size_t clear_large_min, clear_huge_min;
	ua_clear_fn clear_small, clear_large, clear_huge;
	size_t nocache_min;
	ua_copy_fn nocache;
	ua_memcpy_fn memcpy[UA_NCLASSES], memcpy_nocache;
};
extern struct ua_dispatch ua_dispatch;

/*
 * The copies per size class when (src ^ dst) & mask: the policy per size
 * class and relative alignment (the entries choose between the two tables)
 */
struct ua_misaligned {
	size_t mask;
	ua_copy_fn copy[UA_NCLASSES];
	ua_memcpy_fn memcpy[UA_NCLASSES];
};
extern struct ua_misaligned ua_misaligned;

/*
 * An architecture whose entries are written in assembly (x86-64:
 * src/api/<arch>/entry.S) may copy small sizes in the entry itself, without
 * the indirect jump: up to ua_memcpy_inline.max bytes, which
 * ua_dispatch_apply() sets to the small class's memcpy_inline, or its
 * memcpy_inline_wide under inline_wide (below medium_min; 0 before the
 * table is filled).  The nocache entries' limit, ua_nocache_inline, is the
 * same but below nocache_min, so that a nocache copy it serves is the
 * cached one and the entry compares n with nocache_min only above it.
 * Each is a struct ua_inline_limit (range.h).
 */
struct ua_inline_limit;
extern struct ua_inline_limit ua_memcpy_inline, ua_nocache_inline;

/*
 * The policy's alias_forward_min: from that size, a memcpy routine whose
 * loop would run backward when dst is 1 to 256 bytes ahead of src modulo
 * 4 KiB (x86-64's vector loops: src/engine/x86_64/vec_template.S) runs
 * forward there, as the user copies do
 */
extern size_t ua_alias_forward_min;

/* The size class of a copy of n bytes */
static inline int
ua_size_class(size_t n)
{
	if (ua_likely(n < ua_dispatch.medium_min))
		return UA_SMALL;
	if (n < ua_dispatch.large_min)
		return UA_MEDIUM;
	return n < ua_dispatch.huge_min ? UA_LARGE : UA_HUGE;
}

static inline int
ua_misaligned_pair(const void *dst, const void *src)
{
	return (((uintptr_t)dst ^ (uintptr_t)src) & ua_misaligned.mask) != 0;
}

static inline ua_copy_fn
ua_copy_routine(const void *dst, const void *src, size_t n)
{
	const ua_copy_fn *t = ua_misaligned_pair(dst, src) ? ua_misaligned.copy
							   : ua_dispatch.copy;

	return t[ua_size_class(n)];
}

/* A clear of n bytes: small below clear_large_min, large below
 * clear_huge_min, huge from there up */
static inline ua_clear_fn
ua_clear_routine(size_t n)
{
	if (ua_likely(n < ua_dispatch.clear_large_min))
		return ua_dispatch.clear_small;
	return n < ua_dispatch.clear_huge_min ? ua_dispatch.clear_large
					      : ua_dispatch.clear_huge;
}

static inline ua_copy_fn
ua_nocache_routine(const void *dst, const void *src, size_t n)
{
	if (n >= ua_dispatch.nocache_min)
		return ua_dispatch.nocache;
	return ua_copy_routine(dst, src, n);
}

static inline ua_memcpy_fn
ua_memcpy_routine(const void *dst, const void *src, size_t n)
{
	const ua_memcpy_fn *t = ua_misaligned_pair(dst, src)
				    ? ua_misaligned.memcpy
				    : ua_dispatch.memcpy;

	return t[ua_size_class(n)];
}

/* Fill the table from the policy, once (a no-op after) */
void ua_dispatch_ready(void);
/* Make p the policy in force: fills the tables (also tools, tests) */
void ua_dispatch_apply(const struct ua_policy *p);
/* The policy in force (the table filled first) */
const struct ua_policy *ua_policy(void);

/*
 * Fault injection (inject.c): p in force with each of the table's user
 * routines replaced by a wrapper (wrap), every size through the main table
 * and no size copied by the entries themselves; ret_real gets the routines
 * the wrappers stand for.
 */
struct ua_dispatch_user {
	ua_copy_fn copy[UA_NCLASSES], nocache;
	ua_clear_fn clear_small, clear_large, clear_huge;
};
void ua_dispatch_apply_wrapped(const struct ua_policy *p,
			       const struct ua_dispatch_user *wrap,
			       struct ua_dispatch_user *ret_real);

#endif /* UA_DISPATCH_H */
