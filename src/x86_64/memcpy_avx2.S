/* SPDX-License-Identifier: MIT */
/* The avx2 copy for ua_memcpy: returns dst, no exception table (copy_vec.S.inc). */
#define UA_MEMCPY 1
#include "copy_avx2.S"
