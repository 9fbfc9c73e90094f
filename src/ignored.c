/* SPDX-License-Identifier: MIT */
/*
 * What init ignored, and why: the settings of UACCESS_TUNABLES,
 * UACCESS_DISABLE and the profile that did not take.  Filled during init
 * (no malloc, no stdio), printed by uaccess-tune --show.
 */
#include <string.h>

#include "ignored.h"

static struct ua_ignored ua_ignored_at_init;

struct ua_ignored *
ua_ignored_record(void)
{
	return &ua_ignored_at_init;
}

const struct ua_ignored *
ua_ignored(void)
{
	return &ua_ignored_at_init;
}

void
ua_ignored_note(struct ua_ignored *ign, enum ua_ignored_origin origin,
		enum ua_ignored_reason reason, int tunable, unsigned line,
		int err, const char *text, size_t len)
{
	struct ua_ignored_item *it;

	if (!ign)
		return;
	if (ign->count++ >= UA_IGNORED_MAX)
		return;
	it = &ign->item[ign->count - 1];
	it->origin = (unsigned char)origin;
	it->reason = (unsigned char)reason;
	it->tunable = (signed char)tunable;
	it->line = line;
	it->err = err;
	it->cut = len >= sizeof(it->text);
	if (it->cut)
		len = sizeof(it->text) - 1;
	memcpy(it->text, text, len);
	it->text[len] = 0;
}
