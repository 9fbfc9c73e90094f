/* SPDX-License-Identifier: MIT */
/*
 * A small JSON reader for --compare: the documents --json writes, and any
 * valid JSON, into a tree.  Errors name the line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct parser {
	const char *p, *start;
	char *err;
	size_t errlen;
	int depth;
};

static int
fail(struct parser *ps, const char *what)
{
	const char *c;
	int line = 1;

	if (ps->err[0])
		return -1;
	for (c = ps->start; c < ps->p; c++)
		line += *c == '\n';
	snprintf(ps->err, ps->errlen, "line %d: %s", line, what);
	return -1;
}

static void
skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r')
		ps->p++;
}

static int parse_value(struct parser *ps, struct jval *v);

static int
push(struct jval *v, char *key, const struct jval *item)
{
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 8;
		struct jval *items =
		    realloc(v->items, (size_t)cap * sizeof(*items));

		if (!items)
			return -1;
		v->items = items;
		if (v->t == J_OBJ) {
			char **keys =
			    realloc(v->keys, (size_t)cap * sizeof(*keys));

			if (!keys)
				return -1;
			v->keys = keys;
		}
		v->cap = cap;
	}
	v->items[v->n] = *item;
	if (v->t == J_OBJ)
		v->keys[v->n] = key;
	v->n++;
	return 0;
}

static int
parse_string(struct parser *ps, char **ret)
{
	size_t cap = 32, len = 0;
	char *s = malloc(cap);

	if (!s)
		return fail(ps, "out of memory");
	ps->p++; /* the opening quote */
	for (;;) {
		unsigned char c = (unsigned char)*ps->p++;
		char out[4];
		int n = 1;

		if (!c || c < 0x20) {
			free(s);
			return fail(ps, "unterminated string");
		}
		if (c == '"')
			break;
		out[0] = (char)c;
		if (c == '\\') {
			c = (unsigned char)*ps->p++;
			switch (c) {
			case '"':
			case '\\':
			case '/':
				out[0] = (char)c;
				break;
			case 'b':
				out[0] = '\b';
				break;
			case 'f':
				out[0] = '\f';
				break;
			case 'n':
				out[0] = '\n';
				break;
			case 'r':
				out[0] = '\r';
				break;
			case 't':
				out[0] = '\t';
				break;
			case 'u': {
				char hex[5] = {0};
				unsigned long u;
				int k;

				/* four hex digits, none read past them */
				for (k = 0;
				     k < 4 && isxdigit((unsigned char)ps->p[k]);
				     k++)
					hex[k] = ps->p[k];
				if (k != 4) {
					free(s);
					return fail(ps, "bad \\u escape");
				}
				u = strtoul(hex, NULL, 16);
				ps->p += 4;
				/* UTF-8; surrogate halves kept as they are */
				if (u < 0x80) {
					out[0] = (char)u;
				} else if (u < 0x800) {
					out[0] = (char)(0xc0 | u >> 6);
					out[1] = (char)(0x80 | (u & 0x3f));
					n = 2;
				} else {
					out[0] = (char)(0xe0 | u >> 12);
					out[1] = (char)(0x80 | (u >> 6 & 0x3f));
					out[2] = (char)(0x80 | (u & 0x3f));
					n = 3;
				}
				break;
			}
			default:
				free(s);
				return fail(ps, "bad escape in a string");
			}
		}
		if (len + (size_t)n + 1 > cap) {
			char *t = realloc(s, cap *= 2);

			if (!t) {
				free(s);
				return fail(ps, "out of memory");
			}
			s = t;
		}
		memcpy(s + len, out, (size_t)n);
		len += (size_t)n;
	}
	s[len] = 0;
	*ret = s;
	return 0;
}

static int
parse_container(struct parser *ps, struct jval *v, char close)
{
	int first = 1;

	v->t = close == '}' ? J_OBJ : J_ARR;
	if (++ps->depth > 64)
		return fail(ps, "nested too deeply");
	ps->p++;
	for (;;) {
		struct jval item = {0};
		char *key = NULL;

		skip_ws(ps);
		if (*ps->p == close && first) {
			ps->p++;
			break;
		}
		if (v->t == J_OBJ) {
			if (*ps->p != '"')
				return fail(ps, "expected a key");
			if (parse_string(ps, &key))
				return -1;
			skip_ws(ps);
			if (*ps->p++ != ':') {
				free(key);
				return fail(ps, "expected ':'");
			}
		}
		if (parse_value(ps, &item)) {
			/* what it holds of itself when it failed */
			free(key);
			json_free_contents(&item);
			return -1;
		}
		if (push(v, key, &item)) {
			free(key);
			json_free_contents(&item);
			return fail(ps, "out of memory");
		}
		first = 0;
		skip_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p++ != close)
			return fail(ps, close == '}' ? "expected ',' or '}'"
						     : "expected ',' or ']'");
		break;
	}
	ps->depth--;
	return 0;
}

static int
parse_value(struct parser *ps, struct jval *v)
{
	char *end;

	skip_ws(ps);
	memset(v, 0, sizeof(*v));
	switch (*ps->p) {
	case '{':
		return parse_container(ps, v, '}');
	case '[':
		return parse_container(ps, v, ']');
	case '"':
		v->t = J_STR;
		return parse_string(ps, &v->str);
	case 't':
		if (strncmp(ps->p, "true", 4))
			break;
		v->t = J_BOOL;
		v->num = 1;
		ps->p += 4;
		return 0;
	case 'f':
		if (strncmp(ps->p, "false", 5))
			break;
		v->t = J_BOOL;
		ps->p += 5;
		return 0;
	case 'n':
		if (strncmp(ps->p, "null", 4))
			break;
		v->t = J_NULL;
		ps->p += 4;
		return 0;
	default:
		errno = 0;
		v->num = strtod(ps->p, &end);
		if (end == ps->p || errno || !strchr("-0123456789", *ps->p))
			break;
		v->t = J_NUM;
		ps->p = end;
		return 0;
	}
	return fail(ps, "expected a value");
}

void
json_free_contents(struct jval *v)
{
	int i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		json_free_contents(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

int
json_parse(const char *text, struct jval *ret, char *err, size_t errlen)
{
	struct parser ps = {text, text, err, errlen, 0};

	err[0] = 0;
	if (parse_value(&ps, ret))
		goto bad;
	skip_ws(&ps);
	if (*ps.p) {
		fail(&ps, "text after the document");
		goto bad;
	}
	return 0;
bad:
	json_free_contents(ret);
	return -1;
}

const struct jval *
json_get(const struct jval *obj, const char *key)
{
	int i;

	if (!obj || obj->t != J_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}

const char *
json_string(const struct jval *v, const char *dflt)
{
	return v && v->t == J_STR ? v->str : dflt;
}
