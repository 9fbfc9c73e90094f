/* SPDX-License-Identifier: MIT */
/* A small JSON reader (json.c), for --compare */
#ifndef UA_BENCH_JSON_H
#define UA_BENCH_JSON_H

#include <stdio.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype t;
	double num; /* J_NUM, J_BOOL (0 or 1) */
	char *str;  /* J_STR */
	int n, cap; /* J_ARR, J_OBJ: items */
	struct jval *items;
	char **keys; /* J_OBJ: a key per item */
};

/* 0, or -1 with a message in err ("line 3: expected a value") */
int json_parse(const char *text, struct jval *ret, char *err, size_t errlen);
void json_free_contents(struct jval *v);
/* The member named key of an object, else NULL */
const struct jval *json_get(const struct jval *obj, const char *key);
/* v's string, or dflt if v is not one */
const char *json_string(const struct jval *v, const char *dflt);

#endif /* UA_BENCH_JSON_H */
