/* SPDX-License-Identifier: MIT */
/*
 * Description: the strategies the build runs the per-strategy tests with
 * (read from src/engine/<arch>/strategies.c by src/CMakeLists.txt) are the
 * library's own list, every one, in its order: a list entry written so
 * that the build's pattern misses it would leave its strategy untested.
 *
 * uaccess-test: internal
 */
#include "test.h"
#include "usable.h"

int
main(void)
{
	const char *built = UA_BUILD_STRATEGIES;
	const struct ua_strategy *all;
	size_t count, i;

	all = ua_strategies(&count);
	CHECK(count > 0, "no strategy");
	for (i = 0; i < count; i++) {
		size_t len = strlen(all[i].name);

		CHECK(strncmp(built, all[i].name, len) == 0 &&
			  (built[len] == ',' || built[len] == '\0'),
		      "strategy %zu is %s, the build's list has %s", i,
		      all[i].name, built);
		built += len + (built[len] == ',');
	}
	CHECK(*built == '\0',
	      "the build lists strategies the library has not: %s", built);
	printf("%zu strategies, as the build lists them\n", count);
	return T_PASS;
}
