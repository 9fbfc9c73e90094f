/* SPDX-License-Identifier: MIT */
/* Test only: the avx512vbmiemu copy for ua_memcpy (copy_avx512vbmiemu.S). */
#define UA_MEMCPY 1
#include "copy_avx512vbmiemu.S"
