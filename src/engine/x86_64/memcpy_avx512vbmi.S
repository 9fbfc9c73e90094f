/* SPDX-License-Identifier: MIT */
/* The avx512vbmi copy for ua_memcpy: returns dst, no exception table (vec_template.S). */
#define UA_MEMCPY 1
#include "copy_avx512vbmi.S"
