/* SPDX-License-Identifier: MIT */
/*
 * The tunables: the settings a policy is made of, their names (used by
 * UACCESS_TUNABLES, the profile and uaccess-tune --show), and how a
 * policy is written: the parser of "name=value" items, and the setters the
 * default policies use (default_policy.h).  policy.c puts them together;
 * dispatch.c makes a policy the one in force.
 */
#ifndef UA_TUNABLES_H
#define UA_TUNABLES_H

#include <string.h>

#include "ignored.h"
#include "usable.h"

/* The tunables (tunables.def), in its order: ua_tunables[] in tunables.c */
enum ua_tunable {
#define UA_TUNABLE(id, name, kind, doc) UA_T_##id,
#include "tunables.def"
#undef UA_TUNABLE
	UA_NTUNABLES,
	UA_T_FIRST_NUMBER = UA_T_MEDIUM_MIN,
	UA_T_FIRST_FLAG = UA_T_INLINE_WIDE,
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

/*
 * An item of a profile (a line) or of UACCESS_TUNABLES (sep ':'), without
 * its comment and the spaces around it and its parts: text[at..at + len),
 * its name the first name_len bytes (0: no '=', or nothing before it), its
 * value text[value..value + value_len)
 */
struct ua_item {
	size_t at, len, name_len, value, value_len;
};
/* The item from text[i]; returns where the next one starts */
size_t ua_item_next(const char *text, size_t len, size_t i, char sep,
		    struct ua_item *ret);
/* Whether the item's name is name */
static inline int
ua_item_is(const char *text, const struct ua_item *it, const char *name)
{
	size_t n = strlen(name);

	return it->name_len == n && !memcmp(text + it->at, name, n);
}

/*
 * Apply "name=value" items separated by sep (':' for UACCESS_TUNABLES, '\n'
 * for the profile; '#' starts a comment) to p, marking them src.  Unknown
 * names, bad values and strategies that are not usable are skipped.
 * Returns how many items were applied.  No allocation, no stdio.
 */
int ua_policy_parse(struct ua_policy *p, const char *text, size_t len, char sep,
		    enum ua_source src, struct ua_ignored *ign);
/* Size parsing shared with the tools: 0 ok, -EINVAL */
int ua_parse_size(const char *s, size_t len, size_t *ret);

/* For the default policies: set a value, marked as a default */
void ua_policy_set(struct ua_policy *p, int t, const struct ua_strategy *s);
void ua_policy_set_num(struct ua_policy *p, int t, size_t v);
/* The first usable strategy of a NULL-terminated list of names, else the
 * architecture's first strategy (which runs everywhere) */
const struct ua_strategy *ua_policy_pick(const char *const *names);
#define UA_PICK(...) ua_policy_pick((const char *const[]){__VA_ARGS__, NULL})

/* v as ua_parse_size reads it back: "max", else with the largest K, M or G
 * suffix that is exact ("64K", "3M"); returns the length */
size_t ua_format_size(char *buf, size_t size, size_t v);
/* A setting of tunable t as UACCESS_TUNABLES writes it: the strategy's
 * name ("" unset), or the size; returns the length */
size_t ua_setting_format(char *buf, size_t size, int t,
			 const struct ua_setting *s);
/* "default", "profile", "environment" */
const char *ua_source_name(enum ua_source src);

#endif /* UA_TUNABLES_H */
