/* SPDX-License-Identifier: MIT */
/* The sse2 copy for ua_memcpy: returns dst, no exception table (copy_vec.S.inc). */
#define UA_MEMCPY 1
#include "copy_sse2.S"
