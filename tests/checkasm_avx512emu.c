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
#include "x86/cpu_features.h"

size_t ua_copy_avx512emu(void *dst, const void *src, size_t n, uintptr_t a3,
			 uintptr_t a4, uintptr_t a5);
size_t ua_clear_avx512emu(void *dst, const void *src, size_t n, uintptr_t a3,
			  uintptr_t a4, uintptr_t a5);
void *ua_memcpy_avx512emu(void *dst, const void *src, size_t n);
size_t ua_copy_avx512vbmiemu(void *dst, const void *src, size_t n, uintptr_t a3,
			     uintptr_t a4, uintptr_t a5);
size_t ua_clear_avx512vbmiemu(void *dst, const void *src, size_t n,
			      uintptr_t a3, uintptr_t a4, uintptr_t a5);
void *ua_memcpy_avx512vbmiemu(void *dst, const void *src, size_t n);

/* As the avx512 entries of src/engine/x86_64/strategies.c, on AVX2 */
static const struct ua_strategy emu_strategies[] = {
    {.name = "avx512emu",
     .copy = ua_copy_avx512emu,
     .clear = ua_clear_avx512emu,
     .plain = ua_memcpy_avx512emu,
     .memcpy_inline = 512,
     .needs = UA_F(AVX2)},
    {.name = "avx512vbmiemu",
     .copy = ua_copy_avx512vbmiemu,
     .clear = ua_clear_avx512vbmiemu,
     .plain = ua_memcpy_avx512vbmiemu,
     .memcpy_inline = 512,
     .needs = UA_F(AVX2)},
};

static const struct ua_strategy *
emu_table(size_t *ret_count)
{
	*ret_count = sizeof(emu_strategies) / sizeof(emu_strategies[0]);
	return emu_strategies;
}

#define CHECKASM_STRATEGIES emu_table
#include "checkasm.c"
