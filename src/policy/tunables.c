/* SPDX-License-Identifier: MIT */
/*
 * The tunables (tunables.h): their names, the parser shared by
 * UACCESS_TUNABLES, the profile and uaccess-tune, and the setters of the
 * default policies.  Runs while the dispatch table fills itself, perhaps in
 * a signal handler: no malloc, no stdio.
 */
#include <errno.h>
#include <string.h>

#include "cpu.h"
#include "tunables.h"

const struct ua_tunable_info ua_tunables[UA_NTUNABLES] = {
#define UA_TUNABLE(id, name, kind, doc) [UA_T_##id] = {#name, doc},
#include "tunables.def"
#undef UA_TUNABLE
};

int
ua_parse_size(const char *s, size_t len, size_t *ret)
{
	size_t v = 0, base = 10, i = 0, shift = 0;

	if (len == 3 && !memcmp(s, "max", 3)) {
		*ret = SIZE_MAX;
		return 0;
	}
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (v > (SIZE_MAX - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	if (i < len) {
		switch (s[i]) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		default:
			return -EINVAL;
		}
		if (i + 1 != len || i == 0 || (base == 16 && i == 2))
			return -EINVAL;
		if (v > (SIZE_MAX >> shift))
			return -EINVAL;
		v <<= shift;
	}
	*ret = v;
	return 0;
}

/* s can serve tunable t: -1; else why not (enum ua_ignored_reason) */
static int
ua_strategy_refused(int t, const struct ua_strategy *s)
{
	if (!s)
		return UA_IGN_VALUE;
	if (!ua_strategy_supported(s))
		return UA_IGN_UNSUPPORTED;
	if (!ua_strategy_usable(s))
		return UA_IGN_DISABLED;
	if ((t == UA_T_CLEAR_SMALL || t == UA_T_CLEAR_LARGE ||
	     t == UA_T_CLEAR_HUGE) &&
	    !s->clear)
		return UA_IGN_NO_CLEAR;
	return -1;
}

/* Tunable t set to val: -1, or why it is not (enum ua_ignored_reason) */
static int
ua_apply_one(struct ua_policy *p, int t, const char *val, size_t vlen,
	     enum ua_source src)
{
	if (t < UA_T_FIRST_NUMBER) {
		const struct ua_strategy *s = NULL, *all;
		size_t n, k;
		int why;

		all = ua_strategies(&n);
		for (k = 0; k < n; k++)
			if (strlen(all[k].name) == vlen &&
			    !memcmp(all[k].name, val, vlen))
				s = &all[k];
		why = ua_strategy_refused(t, s);
		if (why >= 0)
			return why;
		p->t[t].strategy = s;
	} else {
		size_t v;

		if (ua_parse_size(val, vlen, &v) < 0 ||
		    (t >= UA_T_FIRST_FLAG && v > 1))
			return UA_IGN_VALUE;
		p->t[t].num = v;
	}
	p->t[t].source = src;
	return -1;
}

/* The tunable named name[0, len), or -1 */
static int
ua_tunable_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < UA_NTUNABLES; i++)
		if (strlen(ua_tunables[i].name) == len &&
		    !memcmp(ua_tunables[i].name, name, len))
			return i;
	return -1;
}

size_t
ua_format_size(char *buf, size_t size, size_t v)
{
	static const char suffix[] = "GMK";
	unsigned i;

	if (v == SIZE_MAX)
		return ua_put_str(buf, size, 0, "max");
	for (i = 0; i < 3; i++) {
		unsigned shift = 30 - 10 * i;

		if (v && !(v & (((size_t)1 << shift) - 1))) {
			char unit[2] = {suffix[i], 0};

			return ua_put_str(buf, size,
					  ua_put_num(buf, size, 0, v >> shift),
					  unit);
		}
	}
	return ua_put_num(buf, size, 0, v);
}

size_t
ua_setting_format(char *buf, size_t size, int t, const struct ua_setting *s)
{
	if (t >= UA_T_FIRST_NUMBER)
		return ua_format_size(buf, size, s->num);
	return ua_put_str(buf, size, 0, s->strategy ? s->strategy->name : "");
}

const char *
ua_source_name(enum ua_source src)
{
	static const char *const names[] = {
	    [UA_FROM_DEFAULT] = "default",
	    [UA_FROM_PROFILE] = "profile",
	    [UA_FROM_ENV] = "environment",
	};

	return (unsigned)src < 3 ? names[src] : "?";
}

static int
ua_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

size_t
ua_item_next(const char *text, size_t len, size_t i, char sep,
	     struct ua_item *ret)
{
	size_t start = i, end, eq, cut;

	while (i < len && text[i] != sep && text[i] != '\n')
		i++;
	end = i;
	/* A comment runs to the end of the item */
	for (cut = start; cut < end && text[cut] != '#'; cut++)
		;
	end = cut;
	while (start < end && ua_is_space(text[start]))
		start++;
	while (end > start && ua_is_space(text[end - 1]))
		end--;
	for (eq = start; eq < end && text[eq] != '='; eq++)
		;
	cut = eq;
	while (cut > start && ua_is_space(text[cut - 1]))
		cut--;
	ret->at = start;
	ret->len = end - start;
	ret->name_len = eq == end ? 0 : cut - start;
	if (eq < end)
		eq++;
	while (eq < end && ua_is_space(text[eq]))
		eq++;
	ret->value = eq;
	ret->value_len = end - eq;
	return i + 1;
}

int
ua_policy_parse(struct ua_policy *p, const char *text, size_t len, char sep,
		enum ua_source src, struct ua_ignored *ign)
{
	enum ua_ignored_origin origin =
	    src == UA_FROM_PROFILE ? UA_IN_PROFILE : UA_IN_TUNABLES;
	size_t i = 0;
	unsigned item = 0;
	int applied = 0;

	while (i < len) {
		struct ua_item it;
		int t, why;

		i = ua_item_next(text, len, i, sep, &it);
		item++;
		if (!it.len)
			continue;
		if (!it.name_len) {
			ua_ignored_note(ign, origin, UA_IGN_SYNTAX, -1,
					sep == '\n' ? item : 0, 0, text + it.at,
					it.len);
			continue;
		}
		/* The profile's cpu= line says where it was measured */
		if (src == UA_FROM_PROFILE && ua_item_is(text, &it, "cpu"))
			continue;
		t = ua_tunable_find(text + it.at, it.name_len);
		why = t < 0 ? UA_IGN_NAME
			    : ua_apply_one(p, t, text + it.value, it.value_len,
					   src);
		if (why < 0)
			applied++;
		else
			ua_ignored_note(
			    ign, origin, (enum ua_ignored_reason)why, t,
			    sep == '\n' ? item : 0, 0, text + it.at, it.len);
	}
	return applied;
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
