/* SPDX-License-Identifier: MIT */
/*
 * The strategy table, for the dispatcher and for the project's own tools and
 * tests (uaccess-bench, uaccess-tune, checkasm), which link the library's
 * objects directly.  Not installed.
 */
#ifndef UA_DISPATCH_H
#define UA_DISPATCH_H

#include "internal.h"

struct ua_strategy {
	const char *name;  /* "erms", "movsq", "unrolled", "sse2", ... */
	ua_copy_fn copy;   /* every strategy copies any n, with the fault contract */
	ua_clear_fn clear; /* NULL: this strategy has no clear routine */
	int nontemporal;   /* streaming stores: the nocache copies */
};

/* Every strategy built for this architecture, usable here or not */
const struct ua_strategy *ua_strategies(size_t *ret_count);
const struct ua_strategy *ua_strategy_find(const char *name);
/* The CPU has what it needs and UACCESS_DISABLE does not turn it off */
int ua_strategy_usable(const struct ua_strategy *s);

#endif /* UA_DISPATCH_H */
