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

void
ua_strategy_read_disable(struct ua_ignored *ign)
{
	ua_parse_disable(getenv("UACCESS_DISABLE"), ign);
}
