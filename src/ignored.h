/* SPDX-License-Identifier: MIT */
/* What init ignored, and why (ignored.c): printed by uaccess-tune --show. */
#ifndef UA_IGNORED_H
#define UA_IGNORED_H

#include <stddef.h>

/*
 * What init ignored, and why: a setting that does not take, a profile that
 * is not read.  Init keeps running with the rest (as glibc does with
 * GLIBC_TUNABLES); uaccess-tune --show prints the record.  Fixed size, no
 * allocation: beyond UA_IGNORED_MAX items only the count grows.
 */
enum ua_ignored_reason {
	UA_IGN_SYNTAX,      /* not name=value */
	UA_IGN_NAME,        /* no tunable of that name */
	UA_IGN_VALUE,       /* not a size (a flag: 0 or 1), no such strategy */
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
/* What init ignored (filled with the policy: after ua_policy()) */
const struct ua_ignored *ua_ignored(void);
/* The same record, for init to fill (dispatch.c) */
struct ua_ignored *ua_ignored_record(void);
/* Record an item of len bytes (ign NULL: nothing) */
void ua_ignored_note(struct ua_ignored *ign, enum ua_ignored_origin origin,
		     enum ua_ignored_reason reason, int tunable, unsigned line,
		     int err, const char *text, size_t len);

#endif /* UA_IGNORED_H */
