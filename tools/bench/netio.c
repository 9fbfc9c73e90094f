/* SPDX-License-Identifier: MIT */
#include "bench.h"

int
cmd_netio(void)
{
	unavailable("netio", "netio", "not written yet");
	return 0;
}
