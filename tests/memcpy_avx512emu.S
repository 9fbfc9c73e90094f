/* SPDX-License-Identifier: MIT */
/* Test only: the avx512emu copy for ua_memcpy (copy_avx512emu.S, vec_template.S). */
#define UA_MEMCPY 1
#include "copy_avx512emu.S"
