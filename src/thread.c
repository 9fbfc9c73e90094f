/* SPDX-License-Identifier: MIT */
/* The per-thread state (thread.h). */
#include "thread.h"

UA_TLS struct ua_thread ua_self;
