/* SPDX-License-Identifier: MIT */
/* Description: checkasm on the avx512 and avx512vbmi routines' template
 * (vec_template.S, 64-byte vectors), each 64-byte move emulated by two AVX2
 * moves and vpermt2b through memory */
/*
 * The AVX-512 code cannot run on a CPU without it, and neither qemu nor
 * valgrind emulates it: copy_avx512emu.S assembles the same template with
 * VEC_SIZE 64 and AVX2 moves, so that its control flow (size classes,
 * tails, page-safe paths, cursors, fault fixups) runs here, through every
 * check checkasm.c makes of a strategy.  Single-threaded: the emulated
 * registers are static memory.
 *
 * uaccess-test: internal
 * uaccess-test: arch=x86_64
 * uaccess-test: timeout=900
 */
/* The markers are one line each (tests/CMakeLists.txt): */
/* clang-format off */
/* uaccess-test: sources=copy_avx512emu.S memcpy_avx512emu.S copy_avx512vbmiemu.S memcpy_avx512vbmiemu.S checkasm_call.S */
/* clang-format on */
#include "dispatch.h"
#include "strategies.h"
#include "x86/cpu_features.h"

/* As the avx512 entries of src/engine/x86_64/strategies.c, on AVX2 */
/* clang-format off */
#define EMU_STRATEGY_LIST(STRATEGY)                                            \
	STRATEGY(avx512emu, COPY_CLEAR_MEMCPY, .memcpy_inline = 512,           \
		 .alias_backward = 1, .needs = UA_F(AVX2))                     \
	STRATEGY(avx512vbmiemu, COPY_CLEAR_MEMCPY, .memcpy_inline = 512,       \
		 .needs = UA_F(AVX2))
/* clang-format on */

EMU_STRATEGY_LIST(UA_STRATEGY_DECL)
static const struct ua_strategy emu_strategies[] = {
    EMU_STRATEGY_LIST(UA_STRATEGY_ENTRY)};

static const struct ua_strategy *
emu_table(size_t *ret_count)
{
	*ret_count = sizeof(emu_strategies) / sizeof(emu_strategies[0]);
	return emu_strategies;
}

#define CHECKASM_STRATEGIES emu_table
#include "checkasm.c"
