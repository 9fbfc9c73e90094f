/* SPDX-License-Identifier: MIT */
/*
 * The copy engine: which routine serves a copy of n bytes.
 *
 * Portable part (src/dispatch.c, src/tune.c, src/cpu.c): size classes, the
 * policy (a strategy per class and the thresholds between classes),
 * UACCESS_DISABLE, UACCESS_TUNABLES, the profile written by uaccess-tune,
 * ua_copy_strategy().
 *
 * Per-architecture part (src/<arch>/): one .S file per strategy, and a C file
 * (src/<arch>/strategies.c) with the strategy table, CPU detection and the
 * default policy, behind the ua_arch_* hooks at the end of this header.  A
 * port provides exactly those hooks and lists its strategy names in
 * UA_ARCH_STRATEGIES (src/<arch>/sources.cmake).
 *
 * Also used, not installed, by the project's tools and internal tests
 * (uaccess-tune, uaccess-bench, checkasm), which link the library's objects.
 */
#ifndef UA_DISPATCH_H
#define UA_DISPATCH_H

#include "internal.h"

struct ua_strategy {
	/* "erms", "movsq", "unrolled", "sse2", ... */
	const char *name;
	/* Every strategy copies any n, with the fault contract */
	ua_copy_fn copy;
	/* NULL: this strategy has no clear routine */
	ua_clear_fn clear;
	/* The same copy for ua_memcpy: returns dst, no exception table;
	 * NULL: ua_memcpy runs copy */
	ua_memcpy_fn plain;
	/* ua_memcpy's entry may copy up to this many bytes itself in this
	 * strategy's stead, with the same moves as its small path (0: never;
	 * the architecture's memcpy entry defines what it can do) */
	size_t memcpy_inline;
	/* The same with the entry's widest moves (x86-64: zmm), which the
	 * policy's inline_wide turns on (0: this strategy has none) */
	size_t memcpy_inline_wide;
	/* Streaming stores: the nocache copies */
	int nontemporal;
	/* A string instruction (rep movs): rep_misaligned applies */
	int string;
	/* ua_cpu.features bits it needs (arch-defined) */
	uint64_t needs;
};

/* Every strategy built for this architecture, usable here or not */
const struct ua_strategy *ua_strategies(size_t *ret_count);
const struct ua_strategy *ua_strategy_find(const char *name);
/* The CPU has what it needs and UACCESS_DISABLE does not turn it off */
int ua_strategy_usable(const struct ua_strategy *s);
/* The CPU has what it needs (UACCESS_DISABLE not considered) */
int ua_strategy_supported(const struct ua_strategy *s);

/* ---- The CPU, as detected once at init (src/cpu.c) ---- */

struct ua_cpu {
	/* "GenuineIntel", "AuthenticAMD", "" if unknown */
	char vendor[16];
	unsigned family, model, stepping;
	/* Arch-defined bits, see ua_arch_feature_name() */
	uint64_t features;
	/* Data cache sizes in bytes, 0 if unknown; l3: the whole last-level
	 * cache this core shares */
	size_t l1d, l2, l3;
	/* The model name the CPU reports (x86: the brand string), "" if none */
	char name[49];
};

/*
 * Detected once: the architecture's hook (ua_arch_cpu_detect), then the
 * cache sizes it left unknown from sysfs (cpu0's cache/index*), with open
 * and read only.
 */
const struct ua_cpu *ua_cpu(void);
/* "vendor family model", as the profile's cpu= line names it; returns length */
size_t ua_cpu_id(char *buf, size_t size, const struct ua_cpu *cpu);
/* Its features by name, space-separated ("erms fsrm avx2"); returns length */
size_t ua_cpu_features(char *buf, size_t size, const struct ua_cpu *cpu);
/*
 * Text without stdio (init may run in a signal handler): append s, or v in
 * decimal, at buf[at], cut to fit size with the NUL; return the new length
 */
size_t ua_put_str(char *buf, size_t size, size_t at, const char *s);
size_t ua_put_num(char *buf, size_t size, size_t at, size_t v);

/* ---- Size classes and the policy ---- */

/*
 * A copy of n bytes belongs to class SMALL below medium_min, MEDIUM below
 * large_min, LARGE below huge_min, HUGE from there up.  Each class has a
 * strategy.  Small sizes (0-256 B) are handled inside every strategy by
 * overlapping loads, so SMALL/MEDIUM split only where the best bulk loop
 * changes.
 */
/* As ua_size_class() (internal.h) numbers them */
enum ua_class { UA_SMALL, UA_MEDIUM, UA_LARGE, UA_HUGE, UA_NCLASSES };

/*
 * The tunables: the names used by UACCESS_TUNABLES, the profile and
 * uaccess-tune --show (table ua_tunables[] in tune.c, same order).
 */
enum ua_tunable {
	/* Strategies (value: a strategy name) */
	UA_T_STRATEGY,       /* force one for every copy, clear, nocache copy */
	UA_T_SMALL,          /* copies below medium_min */
	UA_T_MEDIUM,         /* copies below large_min */
	UA_T_LARGE,          /* copies below huge_min */
	UA_T_HUGE,           /* copies at and above huge_min */
	UA_T_CLEAR_SMALL,    /* clears below clear_large_min */
	UA_T_CLEAR_LARGE,    /* clears from there up */
	UA_T_NOCACHE,        /* nocache copies at and above nocache_min */
	UA_T_REP_MISALIGNED, /* replaces a string strategy when
			      * (src ^ dst) & rep_align_mask */
	UA_T_SMALL_MISALIGNED,  /* the same classes when (src ^ dst) & */
	UA_T_MEDIUM_MISALIGNED, /* rep_align_mask (unset: the class's own, */
	UA_T_LARGE_MISALIGNED,  /* or rep_misaligned for a string one) */
	UA_T_HUGE_MISALIGNED,
	/* Numbers (value: decimal or 0x hex, optional K/M/G suffix, or max) */
	UA_T_MEDIUM_MIN,
	UA_T_LARGE_MIN,
	UA_T_HUGE_MIN,
	UA_T_CLEAR_LARGE_MIN,
	UA_T_NOCACHE_MIN,    /* seed 001: one page by default */
	UA_T_REP_ALIGN_MASK, /* seed 000: 0 = string instructions at any
			      * relative alignment; the misaligned classes */
	UA_T_INLINE_WIDE,    /* 1: the entries' small path with the widest
			      * vectors (memcpy_inline_wide) */
	UA_NTUNABLES,
	UA_T_FIRST_NUMBER = UA_T_MEDIUM_MIN,
};

enum ua_source { UA_FROM_DEFAULT, UA_FROM_PROFILE, UA_FROM_ENV };

struct ua_setting {
	const struct ua_strategy *strategy; /* strategy tunables; NULL: unset */
	size_t num;                         /* number tunables */
	enum ua_source source;
};

struct ua_policy {
	struct ua_setting t[UA_NTUNABLES];
};

struct ua_tunable_info {
	const char *name;
	const char *doc; /* one line, for --show and uaccess(7) */
};
extern const struct ua_tunable_info ua_tunables[UA_NTUNABLES];

/* The policy in force (after ua_lazy_init()) */
const struct ua_policy *ua_policy(void);
/* Which source the profile came from: the path read, or NULL if none */
const char *ua_profile_in_use(void);
/*
 * Where the profile is looked for, in order (i = 0, 1): UACCESS_PROFILE
 * alone when it is set (set but empty: nowhere); else the user's,
 * $XDG_CONFIG_HOME/uaccess/profile or ~/.config/uaccess/profile, then the
 * system's.  0 with the path in buf; -ENOENT: no i-th place;
 * -ENAMETOOLONG.  The library reads the first it can; uaccess-tune writes
 * the first.
 */
int ua_profile_path(unsigned i, char *buf, size_t size);
/* The system's profile: SYSCONFDIR/uaccess/profile */
extern const char ua_profile_system[];
/* What init reads of a profile at most, in bytes */
#define UA_PROFILE_MAX 16384

/*
 * What init ignored, and why: a setting that does not take, a profile that
 * is not read.  Init keeps running with the rest (as glibc does with
 * GLIBC_TUNABLES); uaccess-tune --show prints the record.  Fixed size, no
 * allocation: beyond UA_IGNORED_MAX items only the count grows.
 */
enum ua_ignored_reason {
	UA_IGN_SYNTAX,      /* not name=value */
	UA_IGN_NAME,        /* no tunable of that name */
	UA_IGN_VALUE,       /* not a size, or no strategy of that name */
	UA_IGN_UNSUPPORTED, /* a strategy this CPU cannot run */
	UA_IGN_DISABLED,    /* a strategy UACCESS_DISABLE turned off */
	UA_IGN_NO_CLEAR,    /* clear_*: a strategy without a clear routine */
	UA_IGN_NO_STRATEGY, /* UACCESS_DISABLE: no strategy of that name */
	UA_IGN_BASELINE,    /* UACCESS_DISABLE: the one every CPU runs stays */
	UA_IGN_OTHER_CPU,   /* the profile's cpu= line names another CPU */
	UA_IGN_NO_CPU,      /* the profile has no cpu= line */
	UA_IGN_UNREADABLE,  /* a profile that cannot be read (err) */
	UA_IGN_TOO_LONG,    /* the profile's lines beyond what init reads */
};
/* Where an ignored item was written */
enum ua_ignored_origin { UA_IN_TUNABLES, UA_IN_DISABLE, UA_IN_PROFILE };

#define UA_IGNORED_MAX 16
#define UA_IGNORED_TEXT 96
struct ua_ignored_item {
	unsigned char origin; /* enum ua_ignored_origin */
	unsigned char reason; /* enum ua_ignored_reason */
	unsigned char cut;    /* text is the start of a longer item */
	signed char tunable;  /* enum ua_tunable named, -1 if none */
	unsigned line;        /* UA_IN_PROFILE: its line (1...), else 0 */
	int err;              /* UA_IGN_UNREADABLE: the errno */
	/* The item as written; UA_IGN_OTHER_CPU: the CPU the profile names;
	 * UA_IGN_UNREADABLE: the file */
	char text[UA_IGNORED_TEXT];
};
struct ua_ignored {
	unsigned count; /* may exceed UA_IGNORED_MAX: items not kept */
	/* The profile read, whose UA_IN_PROFILE items these are; NULL: none */
	const char *profile;
	struct ua_ignored_item item[UA_IGNORED_MAX];
};
/* What init ignored (after ua_lazy_init()) */
const struct ua_ignored *ua_ignored(void);
/* The same record, for init to fill (dispatch.c) */
struct ua_ignored *ua_ignored_record(void);
/* Record an item of len bytes (ign NULL: nothing) */
void ua_ignored_note(struct ua_ignored *ign, enum ua_ignored_origin origin,
		     enum ua_ignored_reason reason, int tunable, unsigned line,
		     int err, const char *text, size_t len);

/*
 * Apply "name=value" items separated by sep (':' for UACCESS_TUNABLES, '\n'
 * for the profile; '#' starts a comment) to p, marking them src.  Unknown
 * names, bad values and strategies that are not usable are skipped, and
 * noted in ign (NULL: not noted).  The profile's own cpu= line is not a
 * tunable and is passed over.  Returns how many items were applied.  No
 * allocation, no stdio.
 */
int ua_policy_parse(struct ua_policy *p, const char *text, size_t len, char sep,
		    enum ua_source src, struct ua_ignored *ign);
/* Fill p with this CPU's defaults (usable strategies only) */
void ua_policy_defaults(struct ua_policy *p);
/* For the arch default policies: set a value, marked as a default */
void ua_policy_set(struct ua_policy *p, int t, const struct ua_strategy *s);
void ua_policy_set_num(struct ua_policy *p, int t, size_t v);
/* The first usable strategy of a NULL-terminated list of names, else the
 * architecture's first strategy (which runs everywhere) */
const struct ua_strategy *ua_policy_pick(const char *const *names);
#define UA_PICK(...) ua_policy_pick((const char *const[]){__VA_ARGS__, NULL})
/* Make p the policy in force: fills the dispatch table (tools, tests) */
void ua_dispatch_apply(const struct ua_policy *p);
/* Size parsing shared with the tools: 0 ok, -EINVAL */
int ua_parse_size(const char *s, size_t len, size_t *ret);
/* v as ua_parse_size reads it back: "max", else with the largest K, M or G
 * suffix that is exact ("64K", "3M"); returns the length */
size_t ua_format_size(char *buf, size_t size, size_t v);
/* A setting of tunable t as UACCESS_TUNABLES writes it: the strategy's
 * name ("" unset), or the size; returns the length */
size_t ua_setting_format(char *buf, size_t size, int t,
			 const struct ua_setting *s);
/* "default", "profile", "environment" */
const char *ua_source_name(enum ua_source src);

/*
 * An architecture whose entries are written in assembly (x86-64:
 * src/<arch>/entry.S) may copy small sizes in the entry itself, without
 * the indirect jump: up to ua_memcpy_inline_max bytes, which
 * ua_dispatch_apply() sets to the small class's memcpy_inline (below
 * medium_min; 0 before init).
 */
extern size_t ua_memcpy_inline_max;
/* 1: the small class's memcpy_inline_wide is in force (inline_wide) */
extern unsigned char ua_memcpy_inline_wide;
/*
 * The copies per size class when (src ^ dst) & mask, for entries written in
 * assembly (x86-64): the policy per size class and relative alignment.  The
 * portable entries (copy.c) get the same choice through the table's routines.
 */
struct ua_misaligned {
	size_t mask;
	ua_copy_fn copy[UA_NCLASSES];
	ua_memcpy_fn memcpy[UA_NCLASSES];
};
extern struct ua_misaligned ua_misaligned;
/*
 * The top of the default user range once init is done and the handlers are
 * in (0 before: ua_entries_ready): the assembly entries clamp a pointer to
 * it (masked_user_access)
 */
extern uintptr_t ua_user_top;

/* ---- Per-architecture hooks (src/<arch>/strategies.c) ---- */

/* The strategy table, the first entry being the one every CPU runs */
const struct ua_strategy *ua_arch_strategies(size_t *ret_count);
/* cpuid, hwcaps, cache sizes.  Async-signal-safe: no malloc, no stdio. */
void ua_arch_cpu_detect(struct ua_cpu *ret);
/* Name of feature bit i ("avx2"), NULL if the bit has no meaning */
const char *ua_arch_feature_name(unsigned bit);
/*
 * Fill every tunable of p (source UA_FROM_DEFAULT) with this CPU's default
 * policy.  Strategies must satisfy ua_strategy_usable(); UA_T_STRATEGY is
 * left NULL.
 */
void ua_arch_default_policy(struct ua_policy *p, const struct ua_cpu *cpu);

#endif /* UA_DISPATCH_H */
