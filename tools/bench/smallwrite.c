/* SPDX-License-Identifier: MIT */
#include "bench.h"

int
cmd_smallwrite(void)
{
	unavailable("smallwrite", "smallwrite", "not written yet");
	return 0;
}
