/* SPDX-License-Identifier: MIT */
/*
 * The tunables (tunables.h): their names, the parser shared by
 * UACCESS_TUNABLES, the profile and uaccess-tune, and the setters of the
 * default policies.  Runs while the dispatch table fills itself, perhaps in
 * a signal handler: no malloc, no stdio.
 */
#include <errno.h>
#include <string.h>

#include "tunables.h"

const struct ua_tunable_info ua_tunables[UA_NTUNABLES] = {
    [UA_T_STRATEGY] =
	{"strategy",
	 "force one strategy for every size, clear and nocache copy"},
    [UA_T_SMALL] = {"small", "copies below medium_min"},
    [UA_T_MEDIUM] = {"medium", "copies from medium_min to below large_min"},
    [UA_T_LARGE] = {"large", "copies from large_min to below huge_min"},
    [UA_T_HUGE] = {"huge", "copies at and above huge_min"},
    [UA_T_CLEAR_SMALL] = {"clear_small", "clears below clear_large_min"},
    [UA_T_CLEAR_LARGE] = {"clear_large", "clears at and above clear_large_min"},
    [UA_T_NOCACHE] = {"nocache", "nocache copies at and above nocache_min"},
    [UA_T_REP_MISALIGNED] =
	{"rep_misaligned",
	 "replaces a string strategy when (src ^ dst) & rep_align_mask"},
    [UA_T_SMALL_MISALIGNED] =
	{"small_misaligned", "small copies when (src ^ dst) & rep_align_mask"},
    [UA_T_MEDIUM_MISALIGNED] =
	{"medium_misaligned",
	 "medium copies when (src ^ dst) & rep_align_mask"},
    [UA_T_LARGE_MISALIGNED] =
	{"large_misaligned", "large copies when (src ^ dst) & rep_align_mask"},
    [UA_T_HUGE_MISALIGNED] = {"huge_misaligned",
			      "huge copies when (src ^ dst) & rep_align_mask"},
    [UA_T_MEDIUM_MIN] = {"medium_min", "bytes: where the medium class starts"},
    [UA_T_LARGE_MIN] = {"large_min", "bytes: where the large class starts"},
    [UA_T_HUGE_MIN] = {"huge_min", "bytes: where the huge class starts"},
    [UA_T_CLEAR_LARGE_MIN] = {"clear_large_min",
			      "bytes: where clear_large takes over"},
    [UA_T_NOCACHE_MIN] = {"nocache_min",
			  "bytes: smallest nocache copy that streams"},
    [UA_T_REP_ALIGN_MASK] =
	{"rep_align_mask",
	 "(src ^ dst) & mask nonzero: the *_misaligned strategies"},
    [UA_T_INLINE_WIDE] = {"inline_wide",
			  "1: the entries copy small sizes with the widest "
			  "vectors"},
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

static int
ua_apply_one(struct ua_policy *p, const char *name, size_t nlen,
	     const char *val, size_t vlen, enum ua_source src)
{
	int i;

	for (i = 0; i < UA_NTUNABLES; i++) {
		const char *tn = ua_tunables[i].name;

		if (strlen(tn) != nlen || memcmp(tn, name, nlen))
			continue;
		if (i < UA_T_FIRST_NUMBER) {
			const struct ua_strategy *s = NULL, *all;
			size_t n, k;

			all = ua_strategies(&n);
			for (k = 0; k < n; k++)
				if (strlen(all[k].name) == vlen &&
				    !memcmp(all[k].name, val, vlen))
					s = &all[k];
			if (!s || !ua_strategy_usable(s))
				return 0;
			if (i == UA_T_CLEAR_SMALL || i == UA_T_CLEAR_LARGE)
				if (!s->clear)
					return 0;
			p->t[i].strategy = s;
		} else {
			size_t v;

			if (ua_parse_size(val, vlen, &v) < 0)
				return 0;
			p->t[i].num = v;
		}
		p->t[i].source = src;
		return 1;
	}
	return 0;
}

static int
ua_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int
ua_policy_parse(struct ua_policy *p, const char *text, size_t len, char sep,
		enum ua_source src)
{
	size_t i = 0;
	int applied = 0;

	while (i < len) {
		size_t start = i, end, eq, cut;

		while (i < len && text[i] != sep && text[i] != '\n')
			i++;
		end = i++;
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
		if (eq == start || eq >= end)
			continue;
		cut = eq;
		while (cut > start && ua_is_space(text[cut - 1]))
			cut--;
		eq++;
		while (eq < end && ua_is_space(text[eq]))
			eq++;
		applied += ua_apply_one(p, text + start, cut - start, text + eq,
					end - eq, src);
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
