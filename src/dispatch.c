/* SPDX-License-Identifier: MIT */
/*
 * Which routine serves a copy of n bytes.  The table is filled once at init
 * from the CPU's defaults, the profile and the environment; a call costs a
 * couple of compares and an indirect call.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "dispatch.h"

#ifndef UA_SYSCONF_PROFILE
#define UA_SYSCONF_PROFILE "/etc/uaccess/profile"
#endif

/*
 * Before init the table points at these: the first call initialises and
 * goes on with the real table, so that ua_memcpy needs no init test of its
 * own.  Re-entered from a signal handler during init: the byte routines.
 */
#define UA_ROUTINE_PARAMS                                                      \
	void *dst, const void *src, size_t n, uintptr_t a3, uintptr_t a4,      \
	    uintptr_t a5
#define UA_ROUTINE_ARGS dst, src, n, a3, a4, a5

static size_t
ua_copy_first(UA_ROUTINE_PARAMS)
{
	ua_copy_fn fn;

	ua_lazy_init();
	fn = ua_copy_routine(n);
	if (fn == ua_copy_first)
		fn = ua_arch_copy_bytes;
	return fn(UA_ROUTINE_ARGS);
}

static size_t
ua_nocache_first(UA_ROUTINE_PARAMS)
{
	ua_copy_fn fn;

	ua_lazy_init();
	fn = ua_nocache_routine(n);
	if (fn == ua_nocache_first || fn == ua_copy_first)
		fn = ua_arch_copy_bytes;
	return fn(UA_ROUTINE_ARGS);
}

static size_t
ua_clear_first(UA_ROUTINE_PARAMS)
{
	ua_clear_fn fn;

	ua_lazy_init();
	fn = ua_clear_routine(n);
	if (fn == ua_clear_first)
		fn = ua_arch_clear_bytes;
	return fn(UA_ROUTINE_ARGS);
}

static void *
ua_memcpy_first(void *dst, const void *src, size_t n)
{
	ua_memcpy_fn fn;

	ua_lazy_init();
	fn = ua_memcpy_routine(n);
	if (fn == ua_memcpy_first)
		return ua_memcpy_with(ua_arch_copy_bytes, dst, src, n);
	return fn(dst, src, n);
}

static void *
ua_memcpy_nocache_first(void *dst, const void *src, size_t n)
{
	ua_lazy_init();
	if (ua_dispatch.memcpy_nocache == ua_memcpy_nocache_first)
		return ua_memcpy_with(ua_arch_copy_bytes, dst, src, n);
	return ua_memcpy_nocache(dst, src, n);
}

struct ua_dispatch ua_dispatch = {
    .medium_min = SIZE_MAX,
    .large_min = SIZE_MAX,
    .huge_min = SIZE_MAX,
    .copy = {ua_copy_first, ua_copy_first, ua_copy_first, ua_copy_first},
    .clear_large_min = SIZE_MAX,
    .clear_small = ua_clear_first,
    .clear_large = ua_clear_first,
    .nocache_min = SIZE_MAX,
    .nocache = ua_nocache_first,
    .memcpy = {ua_memcpy_first, ua_memcpy_first, ua_memcpy_first,
	       ua_memcpy_first},
    .memcpy_nocache = ua_memcpy_nocache_first,
};

/* Before init every size goes through the table, which initialises */
size_t ua_memcpy_inline_max;
unsigned char ua_memcpy_inline_wide;
uintptr_t ua_user_top;

struct ua_misaligned ua_misaligned = {
    .copy = {ua_copy_first, ua_copy_first, ua_copy_first, ua_copy_first},
    .memcpy = {ua_memcpy_first, ua_memcpy_first, ua_memcpy_first,
	       ua_memcpy_first},
};

/*
 * What the tables were made from: names, the alignment guard, and the
 * routines behind the size guards
 */
static struct {
	uintptr_t mask;
	ua_copy_fn aligned[UA_NCLASSES], misaligned[UA_NCLASSES];
	const struct ua_strategy *copy_s[UA_NCLASSES];
	ua_copy_fn huge, huge_misaligned, nocache;
} ua_engine;

static struct ua_policy ua_policy_now;
static uint64_t
    ua_disabled; /* bit i: strategy i turned off by UACCESS_DISABLE */

/* ---- Strategies ---- */

const struct ua_strategy *
ua_strategies(size_t *ret_count)
{
	return ua_arch_strategies(ret_count);
}

const struct ua_strategy *
ua_strategy_find(const char *name)
{
	const struct ua_strategy *all;
	size_t n, i;

	all = ua_strategies(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(all[i].name, name))
			return &all[i];
	return NULL;
}

int
ua_strategy_supported(const struct ua_strategy *s)
{
	const struct ua_cpu *cpu = ua_cpu();

	return (s->needs & cpu->features) == s->needs;
}

int
ua_strategy_usable(const struct ua_strategy *s)
{
	const struct ua_strategy *all;
	size_t n, i;

	if (!ua_strategy_supported(s))
		return 0;
	all = ua_strategies(&n);
	i = (size_t)(s - all);
	return !(i < 64 && (ua_disabled >> i & 1));
}

/* UACCESS_DISABLE=name,name,...  (unknown names are ignored) */
static void
ua_parse_disable(const char *text, struct ua_ignored *ign)
{
	const struct ua_strategy *all;
	size_t n, i;

	all = ua_strategies(&n);
	if (text)
		text += strspn(text, ",: ");
	while (text && *text) {
		size_t len = strcspn(text, ",: ");

		for (i = 0; i < n && i < 64; i++)
			if (strlen(all[i].name) == len &&
			    !memcmp(all[i].name, text, len))
				break;
		/* The first strategy is the one every CPU runs: it cannot go */
		if (i == 0 || i == n || i == 64)
			ua_ignored_note(ign, UA_IN_DISABLE,
					i ? UA_IGN_NO_STRATEGY
					  : UA_IGN_BASELINE,
					-1, 0, 0, text, len);
		else
			ua_disabled |= (uint64_t)1 << i;
		text += len;
		text += strspn(text, ",: ");
	}
}

/* ---- The table ---- */

#ifndef UA_ARCH_ENTRIES
/*
 * The portable entries (copy.c) choose by relative alignment here; the
 * assembly ones (UA_ARCH_ENTRIES) between two tables, without a call.
 */
#define UA_GUARD(c)                                                            \
	static size_t ua_guard_##c(UA_ROUTINE_PARAMS)                          \
	{                                                                      \
		if (((uintptr_t)dst ^ (uintptr_t)src) & ua_engine.mask)        \
			return ua_engine.misaligned[c](UA_ROUTINE_ARGS);       \
		return ua_engine.aligned[c](UA_ROUTINE_ARGS);                  \
	}
UA_GUARD(0)
UA_GUARD(1)
UA_GUARD(2)
UA_GUARD(3)
static const ua_copy_fn ua_guards[UA_NCLASSES] = {ua_guard_0, ua_guard_1,
						  ua_guard_2, ua_guard_3};
#endif

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
 * such size is in the huge class (ua_dispatch_apply) and in the nocache
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

static size_t
ua_huge_guard(UA_ROUTINE_PARAMS)
{
	if (ua_too_big(UA_ROUTINE_ARGS))
		return n;
	return ua_engine.huge(UA_ROUTINE_ARGS);
}

static size_t
ua_huge_misaligned_guard(UA_ROUTINE_PARAMS)
{
	if (ua_too_big(UA_ROUTINE_ARGS))
		return n;
	return ua_engine.huge_misaligned(UA_ROUTINE_ARGS);
}

static size_t
ua_nocache_guard(UA_ROUTINE_PARAMS)
{
	if (ua_too_big(UA_ROUTINE_ARGS))
		return n;
	return ua_engine.nocache(UA_ROUTINE_ARGS);
}

/* The size class of n under thresholds d (internal.h: ua_size_class) */
static int
ua_class_in(const struct ua_dispatch *d, size_t n)
{
	if (n < d->medium_min)
		return 0;
	if (n < d->large_min)
		return 1;
	return n < d->huge_min ? 2 : 3;
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

void
ua_dispatch_apply(const struct ua_policy *p)
{
	const struct ua_strategy *force = p->t[UA_T_STRATEGY].strategy;
	const struct ua_strategy *small;
	struct ua_misaligned m;
	struct ua_dispatch d;
	int c;

	memset(&d, 0, sizeof(d));
	memset(&m, 0, sizeof(m));
	d.medium_min = p->t[UA_T_MEDIUM_MIN].num;
	d.large_min = p->t[UA_T_LARGE_MIN].num;
	d.huge_min = p->t[UA_T_HUGE_MIN].num;
	/* Classes are ordered: a start above the next class's empties it */
	d.large_min = d.large_min > d.huge_min ? d.huge_min : d.large_min;
	d.medium_min = d.medium_min > d.large_min ? d.large_min : d.medium_min;
	m.mask = force ? 0 : p->t[UA_T_REP_ALIGN_MASK].num;
	for (c = 0; c < UA_NCLASSES; c++) {
		const struct ua_strategy *s =
		    force ? force : p->t[UA_T_SMALL + c].strategy;
		const struct ua_strategy *mis =
		    m.mask ? ua_misaligned_strategy(p, c) : s;

		ua_engine.copy_s[c] = s;
		d.copy[c] = s->copy;
		d.memcpy[c] = s->plain ? s->plain : ua_via_ua_dispatch[c];
		m.copy[c] = mis->copy;
		m.memcpy[c] = mis->plain ? mis->plain : ua_via_ua_misaligned[c];
#ifndef UA_ARCH_ENTRIES
		if (mis != s) {
			ua_engine.aligned[c] = s->copy;
			ua_engine.misaligned[c] = mis->copy;
			d.copy[c] = ua_guards[c];
			d.memcpy[c] = ua_via_ua_dispatch[c];
		}
#endif
	}
	ua_engine.mask = m.mask;
	d.clear_large_min = p->t[UA_T_CLEAR_LARGE_MIN].num;
	d.clear_small = p->t[UA_T_CLEAR_SMALL].strategy->clear;
	d.clear_large = p->t[UA_T_CLEAR_LARGE].strategy->clear;
	d.nocache_min = p->t[UA_T_NOCACHE_MIN].num;
	d.nocache = p->t[UA_T_NOCACHE].strategy->copy;
	if (force) {
		if (force->clear)
			d.clear_small = d.clear_large = force->clear;
		d.nocache_min = 0;
		d.nocache = force->copy;
	}
	d.memcpy_nocache = ua_via_nocache;
	if (force && force->plain)
		d.memcpy_nocache = force->plain;
	ua_guard_sizes(&d, &m);
	/* Fault injection reroutes one table (fail.c): every copy takes it */
	if (ua_fail_active())
		m.mask = 0;
	ua_fail_route(&d);
	ua_policy_now = *p;
	ua_dispatch = d;
	ua_misaligned = m;
	/* The entry's own moves: the small class's, narrow or wide */
	small = ua_engine.copy_s[UA_SMALL];
	ua_memcpy_inline_wide =
	    p->t[UA_T_INLINE_WIDE].num && small->memcpy_inline_wide;
	ua_memcpy_inline_max = ua_memcpy_inline_wide ? small->memcpy_inline_wide
						     : small->memcpy_inline;
	if (ua_memcpy_inline_max >= d.medium_min)
		ua_memcpy_inline_max = d.medium_min ? d.medium_min - 1 : 0;
	/* Fault injection: every size through the table (fail.c) */
	if (ua_fail_active())
		ua_memcpy_inline_max = 0;
}

void
ua_policy_defaults(struct ua_policy *p)
{
	memset(p, 0, sizeof(*p));
	ua_arch_default_policy(p, ua_cpu());
}

/* ---- The profile ---- */

static char ua_profile_path_buf[PATH_MAX];
static int ua_profile_used;

const char *
ua_profile_in_use(void)
{
	return ua_profile_used ? ua_profile_path_buf : NULL;
}

static int
ua_path_join(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + lb + 1 > size) {
		/* What fits, to name it */
		la = la < size ? la : size - 1;
		memcpy(buf, a, la);
		buf[la] = 0;
		return -ENAMETOOLONG;
	}
	memcpy(buf, a, la);
	memcpy(buf + la, b, lb + 1);
	return 0;
}

const char ua_profile_system[] = UA_SYSCONF_PROFILE;

int
ua_profile_path(unsigned i, char *buf, size_t size)
{
	const char *env = secure_getenv("UACCESS_PROFILE");
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");

	if (env)
		return i == 0 && *env ? ua_path_join(buf, size, env, "")
				      : -ENOENT;
	if (i == 0 && xdg && *xdg == '/')
		return ua_path_join(buf, size, xdg, "/uaccess/profile");
	if (i == 0 && home && *home == '/')
		return ua_path_join(buf, size, home,
				    "/.config/uaccess/profile");
	if (i == 0 || i == 1)
		return ua_path_join(buf, size, ua_profile_system, "");
	return -ENOENT;
}

/*
 * Read a whole small file: its length, or -errno; -EFBIG when it holds more
 * than size bytes (buf then holds the first size).
 */
static ssize_t
ua_read_file(const char *path, char *buf, size_t size)
{
	size_t got = 0;
	ssize_t r = 0;
	char more;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	while (got < size) {
		r = read(fd, buf + got, size - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (r > 0)
		r = read(fd, &more, 1) > 0 ? -EFBIG : 0;
	if (r < 0 && r != -EFBIG)
		r = -errno;
	close(fd);
	return r < 0 ? r : (ssize_t)got;
}

/*
 * The profile's "cpu=" line must name this CPU, or the profile was measured
 * elsewhere and is ignored.  Returns 1 if it does; 0 with the name it gives
 * in *ret_at, *ret_len if it does not; -1 without a cpu= line.
 */
static int
ua_profile_matches(const char *text, size_t len, size_t *ret_at,
		   size_t *ret_len)
{
	const struct ua_cpu *cpu = ua_cpu();
	char want[64];
	size_t i = 0, wl;

	wl = ua_cpu_id(want, sizeof(want), cpu);
	while (i < len) {
		size_t end = i;

		while (end < len && text[end] != '\n')
			end++;
		if (end - i >= 4 && !memcmp(text + i, "cpu=", 4)) {
			size_t l = end - i - 4;

			while (l && (text[i + 4 + l - 1] == ' ' ||
				     text[i + 4 + l - 1] == '\r'))
				l--;
			*ret_at = i + 4;
			*ret_len = l;
			return l == wl && !memcmp(text + i + 4, want, wl);
		}
		i = end + 1;
	}
	return -1;
}

/*
 * The first profile that can be read (ua_profile_path); what is in the way
 * of one is noted, but for a default place where there is no file.
 */
static void
ua_read_profile(struct ua_policy *p, struct ua_ignored *ign)
{
	static char buf[UA_PROFILE_MAX];
	const char *env = secure_getenv("UACCESS_PROFILE");
	ssize_t len = -ENOENT;
	size_t at, l;
	unsigned i;
	int r;

	for (i = 0; len < 0 && len != -EFBIG; i++) {
		r = ua_profile_path(i, ua_profile_path_buf,
				    sizeof(ua_profile_path_buf));
		if (r == -ENOENT)
			return;
		len = r < 0
			  ? r
			  : ua_read_file(ua_profile_path_buf, buf, sizeof(buf));
		/* No file at a default place is no news */
		if (len < 0 && len != -EFBIG && (env || len != -ENOENT))
			ua_ignored_note(ign, UA_IN_PROFILE, UA_IGN_UNREADABLE,
					-1, 0, (int)-len, ua_profile_path_buf,
					strlen(ua_profile_path_buf));
	}
	ign->profile = ua_profile_path_buf;
	if (len == -EFBIG) {
		/* The lines that fit; the one cut short goes with the rest */
		unsigned line = 1;

		for (len = sizeof(buf); len > 0 && buf[len - 1] != '\n'; len--)
			;
		for (at = 0; at < (size_t)len; at++)
			line += buf[at] == '\n';
		ua_ignored_note(ign, UA_IN_PROFILE, UA_IGN_TOO_LONG, -1, line,
				0, buf + len, sizeof(buf) - (size_t)len);
	}
	r = ua_profile_matches(buf, (size_t)len, &at, &l);
	if (r <= 0) {
		ua_ignored_note(ign, UA_IN_PROFILE,
				r ? UA_IGN_NO_CPU : UA_IGN_OTHER_CPU, -1, 0, 0,
				buf + (r ? 0 : at), r ? 0 : l);
		return;
	}
	ua_profile_used = 1;
	ua_policy_parse(p, buf, (size_t)len, '\n', UA_FROM_PROFILE, ign);
}

void
ua_dispatch_init(void)
{
	struct ua_ignored *ign = ua_ignored_record();
	struct ua_policy p;
	const char *t;

	memset(ign, 0, sizeof(*ign));
	ua_parse_disable(getenv("UACCESS_DISABLE"), ign);
	ua_fail_init();
	ua_policy_defaults(&p);
	ua_read_profile(&p, ign);
	t = getenv("UACCESS_TUNABLES");
	if (t)
		ua_policy_parse(&p, t, strlen(t), ':', UA_FROM_ENV, ign);
	ua_dispatch_apply(&p);
}

/*
 * The entries' copies with no range check but the top's (entry.S) must not
 * run before the fault handlers are in: until then the top is 0 and they
 * refuse, and the refusal path (copy.c) comes here once init is done.
 */
void
ua_entries_ready(void)
{
	if (atomic_load_explicit(&ua_ready, memory_order_acquire) == 2)
		ua_user_top = ua_default_hi;
}

const struct ua_policy *
ua_policy(void)
{
	ua_lazy_init();
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
	ua_lazy_init();
	if (!ua_engine.copy_s[0])
		return ua_bytes_name();
	return ua_engine.copy_s[ua_size_class(n)]->name;
}

void
ua_policy_set(struct ua_policy *p, int t, const struct ua_strategy *s)
{
	p->t[t].strategy = s;
	p->t[t].source = UA_FROM_DEFAULT;
}

void
ua_policy_set_num(struct ua_policy *p, int t, size_t v)
{
	p->t[t].num = v;
	p->t[t].source = UA_FROM_DEFAULT;
}

const struct ua_strategy *
ua_policy_pick(const char *const *names)
{
	size_t n;

	for (; *names; names++) {
		const struct ua_strategy *s = ua_strategy_find(*names);

		if (s && ua_strategy_usable(s))
			return s;
	}
	return &ua_strategies(&n)[0];
}
