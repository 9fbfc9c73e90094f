/* SPDX-License-Identifier: MIT */
/*
 * The strategies: one routine of each kind (copy, clear, memcpy) per way of
 * copying, in assembly (src/engine/<arch>/copy_*.S).  The list is
 * src/engine/<arch>/strategies.c, written once with UA_STRATEGY_TABLE below;
 * the build reads the names from it for the tests that run once per strategy.
 * usable.h has the lookups.
 */
#ifndef UA_STRATEGIES_H
#define UA_STRATEGIES_H

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
	/* The same with the entry's loop as well, which the policy's
	 * inline_loop turns on with inline_wide (0: this strategy has none) */
	size_t memcpy_inline_loop;
	/* Streaming stores: the nocache copies */
	int nontemporal;
	/* A string instruction (rep movs): rep_misaligned applies */
	int string;
	/* Its plain copy's loop runs backward when dst is a little ahead of
	 * src modulo 4 KiB, forward from the policy's alias_forward_min
	 * (x86-64's vec_template.S, ALIAS_WINDOW); 0: always forward */
	int alias_backward;
	/* ua_cpu.features bits it needs (arch-defined) */
	uint64_t needs;
};

/* Every strategy built for this architecture, the first one running on
 * every CPU of it (src/engine/<arch>/strategies.c) */
const struct ua_strategy *ua_arch_strategies(size_t *ret_count);

/*
 * The list, LIST(STRATEGY): one STRATEGY(name, ROUTINES, fields...) line
 * per strategy, ROUTINES saying which routines it has beside
 * ua_copy_NAME: COPY (none), COPY_CLEAR (ua_clear_NAME) or
 * COPY_CLEAR_MEMCPY (ua_clear_NAME and ua_memcpy_NAME, the plain copy);
 * the fields are the rest of its struct ua_strategy.  Declares the
 * routines and defines ua_arch_strategies().
 */
#define UA_STRATEGY_TABLE(LIST)                                                \
	LIST(UA_STRATEGY_DECL)                                                 \
	static const struct ua_strategy ua_strategy_table[] = {                \
	    LIST(UA_STRATEGY_ENTRY)};                                          \
	const struct ua_strategy *ua_arch_strategies(size_t *ret_count)        \
	{                                                                      \
		*ret_count =                                                   \
		    sizeof(ua_strategy_table) / sizeof(ua_strategy_table[0]);  \
		return ua_strategy_table;                                      \
	}

#define UA_STRATEGY_DECL(id, routines, ...) UA_DECL_##routines(id)
#define UA_STRATEGY_ENTRY(id, routines, ...)                                   \
	{.name = #id, UA_FIELDS_##routines(id), __VA_ARGS__},

#define UA_DECL_COPY(id)                                                       \
	size_t ua_copy_##id(void *dst, const void *src, size_t n,              \
			    uintptr_t a3, uintptr_t a4, uintptr_t a5);
#define UA_DECL_COPY_CLEAR(id)                                                 \
	UA_DECL_COPY(id)                                                       \
	size_t ua_clear_##id(void *dst, const void *src, size_t n,             \
			     uintptr_t a3, uintptr_t a4, uintptr_t a5);
#define UA_DECL_COPY_CLEAR_MEMCPY(id)                                          \
	UA_DECL_COPY_CLEAR(id)                                                 \
	void *ua_memcpy_##id(void *dst, const void *src, size_t n);
#define UA_FIELDS_COPY(id) .copy = ua_copy_##id
#define UA_FIELDS_COPY_CLEAR(id) UA_FIELDS_COPY(id), .clear = ua_clear_##id
#define UA_FIELDS_COPY_CLEAR_MEMCPY(id)                                        \
	UA_FIELDS_COPY_CLEAR(id), .plain = ua_memcpy_##id

#endif /* UA_STRATEGIES_H */
