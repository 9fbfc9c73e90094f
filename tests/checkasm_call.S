/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * checkasm_checked_call (checkasm_call.h): canaries into the registers a
 * routine must keep, the call, and a bit in c->changed for each that it
 * did not keep.  The call's struct is kept in .Lcall, not in a register
 * or on the stack, so that it is found whatever the routine left there.
 */
#include "checkasm_call.h"

	.section .note.GNU-stack, "", %progbits

#if defined(__x86_64__) || defined(__i386__)
/* Bit \bit of eax if \reg differs from \want; clobbers edx */
.macro CHANGED reg, want, bit
	cmp	\want, \reg
	setne	%dl
	movzbl	%dl, %edx
	shl	$\bit, %edx
	or	%edx, %eax
.endm

.macro SAVE reg
	push	\reg
	.cfi_adjust_cfa_offset CHECKASM_W
	.cfi_rel_offset \reg, 0
.endm

.macro RESTORE reg
	pop	\reg
	.cfi_adjust_cfa_offset -CHECKASM_W
	.cfi_restore \reg
.endm
#endif

#if defined(__x86_64__)

#define CANARY 0x5ca1ab1ec0de0000

#elif defined(__i386__)

#define CANARY 0x5ca10000

/* \reg = the address of .Lcall (PIC: from the pc); uses the stack */
.macro CALL_ADDR reg
	call	1f
	.cfi_adjust_cfa_offset 4
1:	popl	\reg
	.cfi_adjust_cfa_offset -4
	leal	.Lcall-1b(\reg), \reg
.endm

#define ARGS 28 /* six arguments, and esp 16-byte aligned at the call */

#elif defined(__aarch64__)

/* \reg = 0x5ca1ab1ec0de0000 + \k (below 2^16) */
.macro CANARY reg, k
	movz	\reg, #0x5ca1, lsl #48
	movk	\reg, #0xab1e, lsl #32
	movk	\reg, #0xc0de, lsl #16
	movk	\reg, #(\k)
.endm

/* \op (stp, ldp) of x19-x28 and d8-d15 in pairs, from [sp, #16] on */
.macro SAVED_PAIRS op
	.Lk = 16
	.irp p, "x19, x20", "x21, x22", "x23, x24", "x25, x26", "x27, x28", \
		"d8, d9", "d10, d11", "d12, d13", "d14, d15"
	\op	\p, [sp, #.Lk]
	.Lk = .Lk + 16
	.endr
.endm

/* Bit \bit of x0 if \reg differs from \want; clobbers x11 */
.macro CHANGED reg, want, bit
	cmp	\reg, \want
	cset	x11, ne
	orr	x0, x0, x11, lsl #\bit
.endm

#endif

	.text
	.globl	checkasm_checked_call
	.type	checkasm_checked_call, %function
checkasm_checked_call:
	.cfi_startproc
#if defined(__x86_64__)
	.irp r, %rbx, %rbp, %r12, %r13, %r14, %r15
	SAVE	\r
	.endr
	sub	$8, %rsp /* the call's stack aligned */
	.cfi_adjust_cfa_offset 8
	mov	%rdi, .Lcall(%rip)
	mov	%rsp, CHECKASM_SP(%rdi)
	.Lk = 1
	.irp r, %rbx, %rbp, %r12, %r13, %r14, %r15
	movabs	$(CANARY + .Lk), \r
	.Lk = .Lk + 1
	.endr
	mov	%rdi, %r11
	mov	CHECKASM_ARG(0)(%r11), %rdi
	mov	CHECKASM_ARG(1)(%r11), %rsi
	mov	CHECKASM_ARG(2)(%r11), %rdx
	mov	CHECKASM_ARG(3)(%r11), %rcx
	mov	CHECKASM_ARG(4)(%r11), %r8
	mov	CHECKASM_ARG(5)(%r11), %r9
	call	*CHECKASM_FN(%r11)
	mov	.Lcall(%rip), %r11
	mov	%rax, CHECKASM_RET(%r11)
	xor	%eax, %eax
	CHANGED	%rsp, CHECKASM_SP(%r11), 0
	mov	CHECKASM_SP(%r11), %rsp
	.Lk = 1
	.irp r, %rbx, %rbp, %r12, %r13, %r14, %r15
	movabs	$(CANARY + .Lk), %r10
	CHANGED	\r, %r10, .Lk
	.Lk = .Lk + 1
	.endr
	CHANGED	%r8, CHECKASM_ARG(4)(%r11), 7
	CHANGED	%r9, CHECKASM_ARG(5)(%r11), 8
	mov	%rax, CHECKASM_CHANGED(%r11)
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	.irp r, %r15, %r14, %r13, %r12, %rbp, %rbx
	RESTORE	\r
	.endr
	ret
#elif defined(__i386__)
	.irp r, %ebp, %ebx, %esi, %edi
	SAVE	\r
	.endr
	movl	20(%esp), %eax
	CALL_ADDR %ecx
	movl	%eax, (%ecx)
	subl	$ARGS, %esp
	.cfi_adjust_cfa_offset ARGS
	movl	%esp, CHECKASM_SP(%eax)
	.Lk = 0
	.rept 6
	movl	CHECKASM_ARG(.Lk)(%eax), %edx
	movl	%edx, 4 * .Lk(%esp)
	.Lk = .Lk + 1
	.endr
	.Lk = 1
	.irp r, %ebx, %esi, %edi, %ebp
	movl	$(CANARY + .Lk), \r
	.Lk = .Lk + 1
	.endr
	call	*CHECKASM_FN(%eax)
	CALL_ADDR %ecx
	movl	(%ecx), %ecx
	movl	%eax, CHECKASM_RET(%ecx)
	xorl	%eax, %eax
	CHANGED	%esp, CHECKASM_SP(%ecx), 0
	movl	CHECKASM_SP(%ecx), %esp
	.Lk = 1
	.irp r, %ebx, %esi, %edi, %ebp
	CHANGED	\r, $(CANARY + .Lk), .Lk
	.Lk = .Lk + 1
	.endr
	/* The user side, arguments 3 to 5: never written by a routine */
	.Lk = 3
	.rept 3
	movl	4 * .Lk(%esp), %ebx
	CHANGED	%ebx, CHECKASM_ARG(.Lk)(%ecx), (.Lk + 2)
	.Lk = .Lk + 1
	.endr
	movl	%eax, CHECKASM_CHANGED(%ecx)
	addl	$ARGS, %esp
	.cfi_adjust_cfa_offset -ARGS
	.irp r, %edi, %esi, %ebx, %ebp
	RESTORE	\r
	.endr
	ret
#elif defined(__aarch64__)
	stp	x29, x30, [sp, #-160]!
	.cfi_def_cfa_offset 160
	.cfi_offset x29, -160
	.cfi_offset x30, -152
	SAVED_PAIRS stp
	.Lk = 0
	.irp r, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28
	.cfi_offset \r, -144 + 8 * .Lk
	.Lk = .Lk + 1
	.endr
	.Lk = 0
	.irp r, d8, d9, d10, d11, d12, d13, d14, d15
	.cfi_offset \r, -64 + 8 * .Lk
	.Lk = .Lk + 1
	.endr
	adrp	x9, .Lcall
	str	x0, [x9, :lo12:.Lcall]
	mov	x9, sp
	str	x9, [x0, #CHECKASM_SP]
	.Lk = 1
	.irp r, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29
	CANARY	\r, .Lk
	.Lk = .Lk + 1
	.endr
	.irp r, d8, d9, d10, d11, d12, d13, d14, d15
	CANARY	x9, .Lk
	fmov	\r, x9
	.Lk = .Lk + 1
	.endr
	ldr	x16, [x0, #CHECKASM_FN]
	ldp	x1, x2, [x0, #CHECKASM_ARG(1)]
	ldp	x3, x4, [x0, #CHECKASM_ARG(3)]
	ldr	x5, [x0, #CHECKASM_ARG(5)]
	ldr	x0, [x0, #CHECKASM_ARG(0)]
	blr	x16
	adrp	x9, .Lcall
	ldr	x9, [x9, :lo12:.Lcall]
	str	x0, [x9, #CHECKASM_RET]
	ldr	x10, [x9, #CHECKASM_SP]
	mov	x12, sp
	cmp	x12, x10
	cset	x0, ne
	mov	sp, x10
	.Lk = 1
	.irp r, x19, x20, x21, x22, x23, x24, x25, x26, x27, x28, x29
	CANARY	x10, .Lk
	CHANGED	\r, x10, .Lk
	.Lk = .Lk + 1
	.endr
	.irp r, d8, d9, d10, d11, d12, d13, d14, d15
	fmov	x12, \r
	CANARY	x10, .Lk
	CHANGED	x12, x10, .Lk
	.Lk = .Lk + 1
	.endr
	ldr	x10, [x9, #CHECKASM_ARG(4)]
	CHANGED	x4, x10, 20
	ldr	x10, [x9, #CHECKASM_ARG(5)]
	CHANGED	x5, x10, 21
	str	x0, [x9, #CHECKASM_CHANGED]
	SAVED_PAIRS ldp
	ldp	x29, x30, [sp], #160
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret
#endif
	.cfi_endproc
	.size	checkasm_checked_call, .-checkasm_checked_call

	.bss
	.p2align 3
.Lcall:
	.skip	CHECKASM_W
/* clang-format on */
