/* SPDX-License-Identifier: MIT */
#include "bench.h"

int
cmd_strategies(void)
{
	unavailable("strategies", "strategies", "not written yet");
	return 0;
}
