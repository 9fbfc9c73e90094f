/* SPDX-License-Identifier: MIT */
#include "bench.h"

int
cmd_argv(void)
{
	unavailable("argv", "argv", "not written yet");
	return 0;
}
