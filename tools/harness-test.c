/* SPDX-License-Identifier: MIT */
/*
 * The harness's statistics and the speed bars' verdict (harness.c), on
 * figures made up here: nothing is timed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../tests/test.h"
#include "harness.h"

#define CHECK_VERDICT(want, value, spread, target, lower)                      \
	CHECK(!strcmp(verdict(value, spread, target, lower), want),            \
	      "verdict(%g, %g, %g, %d) = %s, expected %s", value, spread,      \
	      target, lower, verdict(value, spread, target, lower), want)

static void
test_verdict(void)
{
	/* at least the target: PASS, whatever the spread */
	CHECK_VERDICT("PASS", 1.0, NAN, 1.0, 0);
	CHECK_VERDICT("PASS", 1.2, 0.5, 1.0, 0);
	/* short of it, the target inside value -+ spread/2: LEVEL */
	CHECK_VERDICT("LEVEL", 0.97, 0.08, 1.0, 0); /* up to 1.0088 */
	CHECK_VERDICT("LEVEL", 0.90, 0.2223, 1.0, 0);
	/* beyond half the spread, or with no spread: MISS */
	CHECK_VERDICT("MISS", 0.97, 0.06, 1.0, 0); /* up to 0.9991 */
	CHECK_VERDICT("MISS", 0.88, 0.04, 0.95, 0);
	CHECK_VERDICT("MISS", 0.99, NAN, 1.0, 0);
	CHECK_VERDICT("MISS", 0.99, 0.0, 1.0, 0);
	/* lower is better: the same, mirrored */
	CHECK_VERDICT("PASS", 1.0, NAN, 1.0, 1);
	CHECK_VERDICT("LEVEL", 1.03, 0.08, 1.0, 1); /* down to 0.9888 */
	CHECK_VERDICT("MISS", 1.03, 0.04, 1.0, 1);  /* down to 1.0094 */
	CHECK_VERDICT("MISS", 2.0, NAN, 1.0, 1);
	/* nothing measured */
	CHECK_VERDICT("N/A", NAN, 0.1, 1.0, 0);
	CHECK_VERDICT("N/A", NAN, NAN, 1.0, 1);
}

static void
test_stats(void)
{
	static double v[STATS_MAX];
	double odd[] = {5, 1, 4, 2, 3};
	int i;

	CHECK(median(odd, 5) == 3, "median of 1..5 = %g", median(odd, 5));
	CHECK(median(odd, 4) == 3, "median of 5, 1, 4, 2 = %g", median(odd, 4));
	CHECK(isnan(median(odd, 0)), "median of nothing is a number");
	/* 1..9: quartiles 3 and 7 around 5, spread (7 - 3) / 5 */
	for (i = 0; i < 9; i++)
		v[i] = 9 - i;
	CHECK(fabs(spread(v, 9) - 0.8) < 1e-12, "spread of 1..9 = %g",
	      spread(v, 9));
	CHECK(isnan(spread(v, 2)), "a spread of two figures");
	/*
	 * Every figure of a pool counts: 100 at 1.0, the rest at 2.0 (the
	 * processes of a pool come one after another), median 2 and no
	 * spread; taken from the first 64 alone it would be 1
	 */
	for (i = 0; i < STATS_MAX - 12; i++)
		v[i] = i < 100 ? 1.0 : 2.0;
	CHECK(median(v, STATS_MAX - 12) == 2.0, "median of the pool = %g",
	      median(v, STATS_MAX - 12));
	CHECK(spread(v, STATS_MAX - 12) == 0.0, "spread of the pool = %g",
	      spread(v, STATS_MAX - 12));
	/* two figures that overlap within their spreads agree */
	CHECK(beyond_spread(1.0, 0.1, 1.04, 0.02) == 0, "1.0 and 1.04 differ");
	CHECK(beyond_spread(1.0, 0.02, 1.1, 0.02) == 1, "1.0 and 1.1 agree");
	CHECK(beyond_spread(1.0, NAN, 1.1, 0.02) == -1, "a NAN spread known");
}

int
main(void)
{
	test_verdict();
	test_stats();
	t_done("harness-test");
	return T_PASS;
}
