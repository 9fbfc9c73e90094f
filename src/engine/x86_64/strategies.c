/* SPDX-License-Identifier: MIT */
/* x86-64: the strategies (strategies.h), the first one running everywhere. */
#include "strategies.h"
#include "arch.h"
#include "x86/cpu_features.h"

/* clang-format off */
#define UA_STRATEGY_LIST(STRATEGY)                                             \
	STRATEGY(sse2, COPY_CLEAR_MEMCPY, .memcpy_inline = 31,                 \
		 .alias_backward = 1)                                          \
	STRATEGY(erms, COPY_CLEAR, .string = 1)                                \
	STRATEGY(movsq, COPY_CLEAR, .string = 1)                               \
	STRATEGY(unrolled, COPY_CLEAR)                                         \
	STRATEGY(avx2, COPY_CLEAR_MEMCPY, .memcpy_inline = UA_INLINE_NARROW,   \
		 .alias_backward = 1, .needs = UA_F(AVX2))                     \
	STRATEGY(avx512, COPY_CLEAR_MEMCPY, .memcpy_inline = UA_INLINE_NARROW, \
		 .memcpy_inline_wide = UA_INLINE_WIDE,                         \
		 .memcpy_inline_loop = UA_INLINE_LOOP, .alias_backward = 1,    \
		 .needs = UA_F(AVX512))                                        \
	STRATEGY(avx512vbmi, COPY_CLEAR_MEMCPY,                                \
		 .memcpy_inline = UA_INLINE_NARROW,                            \
		 .memcpy_inline_wide = UA_INLINE_WIDE,                         \
		 .memcpy_inline_loop = UA_INLINE_LOOP,                         \
		 .needs = UA_F(AVX512) | UA_F(AVX512VBMI))                     \
	STRATEGY(nt, COPY_CLEAR, .nontemporal = 1)
/* clang-format on */

UA_STRATEGY_TABLE(UA_STRATEGY_LIST)
