/* SPDX-License-Identifier: MIT */
/* Which strategies this process may use (usable.h). */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "usable.h"

/* bit i: strategy i turned off by UACCESS_DISABLE */
static uint64_t ua_disabled;

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

/*
 * Names UACCESS_DISABLE knows beside the strategies: variants of other
 * routines, which their code reads with ua_disable_listed (lse: the
 * aarch64 LSE atomics, src/api/aarch64/atomic_pick.c)
 */
static const char *const ua_disable_others[] = {"lse"};

static int
ua_disable_other(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(ua_disable_others) / sizeof(*ua_disable_others);
	     i++)
		if (strlen(ua_disable_others[i]) == len &&
		    !memcmp(ua_disable_others[i], text, len))
			return 1;
	return 0;
}

int
ua_disable_listed(const char *name)
{
	const char *text = getenv("UACCESS_DISABLE");
	size_t n = strlen(name);

	if (text)
		text += strspn(text, ",: ");
	while (text && *text) {
		size_t len = strcspn(text, ",: ");

		if (len == n && !memcmp(text, name, n))
			return 1;
		text += len;
		text += strspn(text, ",: ");
	}
	return 0;
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
		/* The first strategy is the one every CPU runs: it cannot go;
		 * another variant's name is read where it applies */
		if ((i == n || i == 64) && ua_disable_other(text, len))
			(void)0;
		else if (i == 0 || i == n || i == 64)
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

void
ua_strategy_read_disable(struct ua_ignored *ign)
{
	ua_parse_disable(getenv("UACCESS_DISABLE"), ign);
}
