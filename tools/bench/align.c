/* SPDX-License-Identifier: MIT */
#include "bench.h"

int
cmd_align(void)
{
	unavailable("align", "align", "not written yet");
	return 0;
}
