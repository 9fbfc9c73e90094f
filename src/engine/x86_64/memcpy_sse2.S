/* SPDX-License-Identifier: MIT */
/* The sse2 copy for ua_memcpy: returns dst, no exception table (vec_template.S). */
#define UA_MEMCPY 1
#include "copy_sse2.S"
