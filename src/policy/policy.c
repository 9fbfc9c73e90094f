/* SPDX-License-Identifier: MIT */
/* The policy to put in force (policy.h). */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "default_policy.h"
#include "page.h"
#include "policy.h"
#include "profile.h"

void
ua_policy_defaults(struct ua_policy *p)
{
	memset(p, 0, sizeof(*p));
	ua_page_init();
	ua_arch_default_policy(p, ua_cpu());
}

void
ua_policy_load(struct ua_policy *p)
{
	struct ua_ignored *ign = ua_ignored_record();
	const char *t;

	memset(ign, 0, sizeof(*ign));
	ua_strategy_read_disable(ign);
	ua_policy_defaults(p);
	ua_profile_read(p, ign);
	t = getenv("UACCESS_TUNABLES");
	if (t)
		ua_policy_parse(p, t, strlen(t), ':', UA_FROM_ENV, ign);
}
