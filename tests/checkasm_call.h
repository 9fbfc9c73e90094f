/* SPDX-License-Identifier: MIT */
/*
 * checkasm's checked call (checkasm_call.S), as dav1d's checkasm has it:
 * a routine called with canaries in the registers it must preserve (the
 * callee-saved ones, and the user side that the fault handler reads from
 * the routine's registers or arguments, which it must leave alone), each
 * compared afterwards, and the stack pointer with them.
 */
#ifndef CHECKASM_CALL_H
#define CHECKASM_CALL_H

#if defined(__x86_64__) || defined(__aarch64__)
#define CHECKASM_W 8
#else
#define CHECKASM_W 4
#endif

/* struct checkasm_call's fields, for the assembly */
#define CHECKASM_FN 0
#define CHECKASM_ARG(i) (CHECKASM_W * (1 + (i)))
#define CHECKASM_RET (CHECKASM_W * 7)
#define CHECKASM_SP (CHECKASM_W * 8)
#define CHECKASM_CHANGED (CHECKASM_W * 9)

/*
 * The bits of `changed`: the stack pointer, the callee-saved registers,
 * then the user side (CHECKASM_USER), which a fault's fixup replaces
 */
#if defined(__x86_64__)
#define CHECKASM_REG_NAMES                                                     \
	"rsp", "rbx", "rbp", "r12", "r13", "r14", "r15", "r8 (user lo)",       \
	    "r9 (user hi, kind)"
#define CHECKASM_USER (3u << 7)
#elif defined(__i386__)
#define CHECKASM_REG_NAMES                                                     \
	"esp", "ebx", "esi", "edi", "ebp", "argument 3 (user lo)",             \
	    "argument 4 (user hi)", "argument 5 (kind)"
#define CHECKASM_USER (7u << 5)
#elif defined(__aarch64__)
#define CHECKASM_REG_NAMES                                                     \
	"sp", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",   \
	    "x28", "x29", "d8", "d9", "d10", "d11", "d12", "d13", "d14",       \
	    "d15", "x4 (user lo)", "x5 (user hi, kind)"
#define CHECKASM_USER (3u << 20)
#endif

#ifndef __ASSEMBLER__
#include <stdint.h>

struct checkasm_call {
	uintptr_t fn;
	uintptr_t arg[6];
	uintptr_t ret;
	uintptr_t sp;      /* the trampoline's own */
	uintptr_t changed; /* a bit per register: CHECKASM_REG_NAMES */
};

/* fn(arg[0], ..., arg[5]): ret, and what changed (single-threaded) */
void checkasm_checked_call(struct checkasm_call *c);
#endif

#endif /* CHECKASM_CALL_H */
