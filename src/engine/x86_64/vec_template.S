/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * The vector copy and clear, written once for every width: copy_sse2.S,
 * copy_avx2.S and copy_avx512.S define NAME, VEC_SIZE, the move
 * instructions and the registers, then include this file.
 *
 * Up to 64 bytes: two moves from the two ends, of 32, 16, 4 or 1 bytes
 * (with 16-byte registers, 16..64 bytes take four moves whose inner two are
 * placed without a branch).
 * Up to 256 bytes (512 for 32- and 64-byte vectors): as many vectors from
 * each end.
 * Above: the first vector unaligned, the destination brought to a vector
 * boundary, four aligned vectors per round with rsi/rdi advanced, then the
 * last four vectors of the buffer, overlapping what the loop stored.  No
 * store crosses a page boundary (tens of cycles on Zen 3): the bytes
 * before or after one go by smaller moves.
 * The memcpy build runs that loop backward when dst is a little ahead of
 * src modulo 4 KiB (4 KiB aliasing), unless its loads are all aligned
 * (UA_SHIFT); a user copy, which must run forward, loads each round there
 * before it stores the one before.
 * User-side accesses go in increasing page order (a move that goes back
 * only touches bytes an earlier one already reached), and rsi/rdi only
 * move past bytes already stored.
 */
#ifndef VEC_SIZE
#error "vec_template.S is a template: copy_<strategy>.S defines VEC_SIZE and includes it"
#endif
#include "asm.h"

/* The stores of the main loops: streaming (non-temporal) or cached */
#ifdef STREAM
#define LOOP_STORE VMOVNT
#else
#define LOOP_STORE VMOVA
#endif

/* Above this, the loop; up to it, moves from both ends */
#if VEC_SIZE == 16
#define LOOP_MIN 256
#else
#define LOOP_MIN 512
#endif

#define UA_CAT_(a, b) a##b
#define UA_CAT(a, b) UA_CAT_(a, b)

#ifdef UA_SHIFT
/* k = rsi mod VEC_SIZE (not 0): the shift made ready for k, rcx = -k */
.macro SHIFT_START
	mov	%esi, %ecx
	and	$(VEC_SIZE - 1), %ecx
	SHIFT_INIT %ecx
	neg	%rcx
.endm
#endif

/*
 * On to \label when dst is 1 to \window bytes (a power of 2) ahead of src
 * modulo 4 KiB, where a load may wait on a store just made to the same
 * address bits (4 KiB aliasing); clobbers \reg
 */
.macro IF_DST_AHEAD window, reg, label
	mov	%edi, \reg
	sub	%esi, \reg
	sub	$1, \reg
	and	$(4096 - \window), \reg
	jz	\label
.endm

/*
 * On to \label when the copy's end (rdi + rdx) lies less than \bytes
 * past a page boundary, so that \bytes stored up to the end would be a
 * store across it; clobbers \reg
 */
.macro IF_END_NEAR_PAGE bytes, reg, label
	lea	-1(%rdi,%rdx), \reg
	and	$4095, \reg
	cmp	$(\bytes - 1), \reg
	jb	\label
.endm

#if !defined(STREAM) && !defined(UA_SHIFT)
/*
 * (dst - src) mod 4096 in 1..PIPE_WINDOW: a copy that runs forward loads
 * each round of PIPE_VECS vectors before it stores the one before; 8 of
 * 16 or 32 bytes (all 16 registers in two rounds), 4 of 64 (256 bytes:
 * the memcpy's whole ALIAS_WINDOW)
 */
#if VEC_SIZE == 64
#define PIPE_VECS 4
#define PIPE_A HEAD4
#define PIPE_B REGS(V4, V5, V6, V7)
#else
#define PIPE_VECS 8
#define PIPE_A HEAD8
#define PIPE_B TAIL8
#endif
#define PIPE_WINDOW (PIPE_VECS * VEC_SIZE)
#endif
#ifdef UA_MEMCPY
/*
 * memcpy_*.S: the same copy for ua_memcpy, which has no user side: no
 * exception-table entries (a fault here is the caller's bug, never taken
 * for a user copy in progress), and it returns the destination, so that
 * ua_memcpy can jump to it.  rax holds the destination throughout.
 */
#define COPY_FN UA_CAT(ua_memcpy_, NAME)
#define FAULT
#define COPY_ENTRY mov %rdi, %rax
#define COPY_OK
#ifndef UA_SHIFT
/*
 * (dst - src) mod 4096 in 1..this: the loop runs backward, or forward
 * from the policy's alias_forward_min (a power of 2, at least PIPE_WINDOW)
 */
#define ALIAS_WINDOW 256
#endif
#else
#define COPY_FN UA_CAT(ua_copy_, NAME)
#define CLEAR_FN UA_CAT(ua_clear_, NAME)
#define FAULT .Lfault
#define COPY_ENTRY
#define COPY_OK xor %eax, %eax
#endif

/*
 * A list of registers as one macro argument: REGS(V0, V1) is
 * "%ymm0,%ymm1" (a string, so that the assembler takes it whole)
 */
#define REGS(...) REGS_(__VA_ARGS__)
#define REGS_(...) #__VA_ARGS__
#define HEAD1 V0
#define TAIL1 V15
#define HEAD2 REGS(V0, V1)
#define TAIL2 REGS(V14, V15)
#define HEAD4 REGS(V0, V1, V2, V3)
#define TAIL4 REGS(V12, V13, V14, V15)
#define HEAD8 REGS(V0, V1, V2, V3, V4, V5, V6, V7)
#define TAIL8 REGS(V8, V9, V10, V11, V12, V13, V14, V15)
#define ZERO1 V0
#define ZERO2 REGS(V0, V0)
#define ZERO4 REGS(V0, V0, V0, V0)
#define ZERO8 REGS(V0, V0, V0, V0, V0, V0, V0, V0)

/* n in (k, 2k] vectors: k vectors from the start and k from the end */
#define COPY_ENDS(k)                                                           \
	COPY_BOTH_ENDS FAULT, VMOVU, VEC_SIZE, HEAD##k, TAIL##k;               \
	COPY_OK;                                                               \
	VZEROUPPER;                                                            \
	ret

/* The same for a clear, from V0 (zero) */
#define CLEAR_ENDS(k)                                                          \
	CLEAR_BOTH_ENDS FAULT, VMOVU, VEC_SIZE, ZERO##k;                       \
	VZEROUPPER;                                                            \
	ret

/*
 * \cnt (a register, \cnt32 its low half) bytes, 1 to VEC_SIZE - 1, from rsi
 * to rdi with moves that stay inside them, then on to \done: the copies
 * below a vector, and the bytes just before or just after a page boundary,
 * where the usual whole vector would be a store across it (tens of cycles
 * on Zen 3, against about one for a store across a cache line; loads
 * across a page cost nothing there).  Clobbers r10, r11; rcx is kept.
 */
.macro COPY_LESS_VEC cnt, cnt32, done
#if VEC_SIZE > 32
	cmp	$32, \cnt32
	jb	.Lless_vec_32\@
	COPY_BOTH_ENDS FAULT, YMOVU, 32, Y0, Y1, \cnt
	jmp	\done
.Lless_vec_32\@:
#endif
	COPY_LESS_32 FAULT, \cnt, \cnt32, XMOVU, X0, X1, \done
.endm

	.text
/* The contract: asm.h (memcpy: rax the destination, no user side) */
UA_ENTRY(COPY_FN)
	COPY_ENTRY
	/*
	 * The loop first: the entries (entry.S) copy the small sizes
	 * themselves, so the routine mostly sees sizes above them.
	 */
	cmp	$LOOP_MIN, %rdx
	ja	.Lcopy_loop_start
#if VEC_SIZE > 16
	cmp	$32, %rdx
	jae	.Lcopy_32_plus
#else
	cmp	$63, %rdx
	ja	.Lcopy_more_63
	cmp	$16, %edx
	jae	.Lcopy_16_63
#endif
	/* 0..31 (0..15 with 16-byte vectors): the one small ladder */
	COPY_LESS_32 FAULT, %rdx, %edx, XMOVU, X0, X1, , COPY_OK

#if VEC_SIZE == 16
.Lcopy_16_63:
	/* 16 bytes at 0, a, n - 16 - a, n - 16; a = n & 32 ? 16 : 0 */
	mov	%edx, %ecx
	and	$32, %ecx
	shr	%ecx
	lea	-16(%rdx), %r11
	sub	%rcx, %r11
	AMOV FAULT, XMOVU	(%rsi), X0
	AMOV FAULT, XMOVU	(%rsi,%rcx), X1
	AMOV FAULT, XMOVU	(%rsi,%r11), X2
	AMOV FAULT, XMOVU	-16(%rsi,%rdx), X3
	AMOV FAULT, XMOVU	X0, (%rdi)
	AMOV FAULT, XMOVU	X1, (%rdi,%rcx)
	AMOV FAULT, XMOVU	X2, (%rdi,%r11)
	AMOV FAULT, XMOVU	X3, -16(%rdi,%rdx)
	COPY_OK
	ret
#else
.Lcopy_32_plus:
	/* 32..64: 32 bytes from each end */
	cmp	$64, %rdx
	ja	.Lcopy_more_63
	COPY_BOTH_ENDS FAULT, YMOVU, 32, Y0, Y1
	COPY_OK
	VZEROUPPER
	ret
#endif

.Lcopy_more_63:
#if VEC_SIZE == 16
	cmp	$128, %rdx
	ja	.Lcopy_more_128
	COPY_ENDS(4)
.Lcopy_more_128:
	COPY_ENDS(8)
#elif VEC_SIZE == 32
	cmp	$128, %rdx
	ja	.Lcopy_more_128
	COPY_ENDS(2)
.Lcopy_more_128:
	cmp	$256, %rdx
	ja	.Lcopy_more_256
	COPY_ENDS(4)
.Lcopy_more_256:
	COPY_ENDS(8)
#else
	cmp	$128, %rdx
	ja	.Lcopy_more_128
	COPY_ENDS(1)
.Lcopy_more_128:
	cmp	$256, %rdx
	ja	.Lcopy_more_256
	COPY_ENDS(2)
.Lcopy_more_256:
	COPY_ENDS(4)
#endif

.Lcopy_loop_start:
#ifdef ALIAS_WINDOW
	/*
	 * dst 1 to ALIAS_WINDOW bytes ahead of src modulo 4 KiB: going
	 * forward, loads would hit the 4 KiB aliasing of the stores just
	 * made; go backward (memcpy only: a user copy keeps its user-side
	 * accesses in increasing page order), as glibc's loop does, or
	 * forward as a user copy does (.Lcopy_pipe) where the policy says
	 * (alias_forward_min: .Lcopy_alias).  Not at 0: forward, a load
	 * never matches an older store there, and backward streams from
	 * the LLC slower on Zen 3.  Not with UA_SHIFT: its loads, all
	 * aligned, never partly overlap a store, and on Zen 5 forward runs
	 * as fast from L1 and faster from memory (docs/measurements/zen3.md
	 * and zen5.md, "Figures behind the source's comments").
	 */
	IF_DST_AHEAD ALIAS_WINDOW, %ecx, .Lcopy_alias
#endif
.Lcopy_forward:
#ifdef STREAM
	/* 64 bytes unaligned, then rdi on a cache line: whole lines stream */
	COPY_HEAD64_ALIGN_DST FAULT
#else
	/*
	 * The first vector unaligned, then rdi to the next vector boundary;
	 * when that vector would be a store across a page boundary, the
	 * bytes up to the page by smaller moves instead.
	 */
	mov	%edi, %ecx
	and	$4095, %ecx
	cmp	$(4096 - VEC_SIZE), %ecx
	ja	.Lcopy_head_page
#if defined(UA_SHIFT) && defined(UA_MEMCPY)
	/*
	 * memcpy, source misaligned: shifted from the first round (its
	 * first line may start before src, never before src's line), and
	 * the first vector stored after that round's loads, which would
	 * wait on it when dst is a little ahead of src modulo 4 KiB.  A user
	 * copy runs one round of the plain loop first (see .Lcopy_shift).
	 */
	VMOVU	(%rsi), V6
	SKIP_TO_ALIGNED VEC_SIZE
	test	$(VEC_SIZE - 1), %esi
	jnz	.Lcopy_shift_first
	VMOVU	V6, (%rax)
	jmp	.Lcopy_loop
#else
	AMOV FAULT, VMOVU	(%rsi), V0
	AMOV FAULT, VMOVU	V0, (%rdi)
	lea	VEC_SIZE(%rdi), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
#endif
.Lcopy_head_done:
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
#ifdef PIPE_WINDOW
	IF_DST_AHEAD PIPE_WINDOW, %ecx, .Lcopy_pipe
#endif
#endif
	.p2align 4
.Lcopy_loop:
	COPY_BOTH_ENDS FAULT, VMOVU, VEC_SIZE, HEAD4, , , LOOP_STORE
	add	$(4 * VEC_SIZE), %rsi
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
#ifdef UA_SHIFT
	/* After one round: source misaligned, the shifted loop (below) */
	jbe	.Lcopy_loop_end
	test	$(VEC_SIZE - 1), %esi
	jz	.Lcopy_loop
	jmp	.Lcopy_shift
#else
	ja	.Lcopy_loop
#endif
.Lcopy_loop_end:
#ifdef STREAM
	sfence
#endif
	/*
	 * 1 to 4 vectors left: whole ones aligned, then the buffer's last
	 * vector(s) overlapping.  Few unaligned stores: a split store that a
	 * later load aliases mod 4 KiB is slow.  Those last two vectors
	 * would be a store across a page boundary when the end is less than
	 * two vectors past one: tens of cycles on Zen 3 (8 KiB copies 10-15%
	 * slower), so that case goes apart.
	 */
	IF_END_NEAR_PAGE (2 * VEC_SIZE), %ecx, .Lcopy_tail_page
	cmp	$(2 * VEC_SIZE), %rdx
	ja	.Lcopy_tail_3_4
	cmp	$VEC_SIZE, %rdx
	jbe	.Lcopy_tail_1
	AMOV FAULT, VMOVU	(%rsi), V0
	AMOV FAULT, VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	AMOV FAULT, VMOVA	V0, (%rdi)
	AMOV FAULT, VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_tail_1:
	AMOV FAULT, VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	AMOV FAULT, VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_tail_3_4:
	AMOV FAULT, VMOVU	(%rsi), V0
	AMOV FAULT, VMOVU	VEC_SIZE(%rsi), V1
	AMOV FAULT, VMOVU	(-2 * VEC_SIZE)(%rsi,%rdx), V14
	AMOV FAULT, VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	AMOV FAULT, VMOVA	V0, (%rdi)
	AMOV FAULT, VMOVA	V1, VEC_SIZE(%rdi)
	AMOV FAULT, VMOVU	V14, (-2 * VEC_SIZE)(%rdi,%rdx)
	AMOV FAULT, VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_tail_page:
	/*
	 * The four aligned vectors that end at E, the end rounded down to a
	 * vector (storing again what the loop stored when fewer are left),
	 * then [E, end): the buffer's last vector, overlapping, unless E
	 * starts a page; then smaller moves.
	 */
	lea	(%rdi,%rdx), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
	AMOV FAULT, VMOVU	(-4 * VEC_SIZE)(%rsi,%rcx), V12
	AMOV FAULT, VMOVU	(-3 * VEC_SIZE)(%rsi,%rcx), V13
	AMOV FAULT, VMOVU	(-2 * VEC_SIZE)(%rsi,%rcx), V14
	AMOV FAULT, VMOVU	-VEC_SIZE(%rsi,%rcx), V15
	AMOV FAULT, VMOVA	V12, (-4 * VEC_SIZE)(%rdi,%rcx)
	AMOV FAULT, VMOVA	V13, (-3 * VEC_SIZE)(%rdi,%rcx)
	AMOV FAULT, VMOVA	V14, (-2 * VEC_SIZE)(%rdi,%rcx)
	AMOV FAULT, VMOVA	V15, -VEC_SIZE(%rdi,%rcx)
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
	jz	.Lcopy_ret
	test	$4095, %edi
	jz	.Lcopy_less_vec
	AMOV FAULT, VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	AMOV FAULT, VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
.Lcopy_ret:
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_less_vec:
	COPY_LESS_VEC %rdx, %edx, .Lcopy_ret
#ifdef UA_SHIFT
	/*
	 * The source still misaligned when rdi is on a vector: aligned loads,
	 * each vector to store shifted out of two of them (SHIFT_LINE readies
	 * a loaded line, SHIFT_PAIR makes lo bytes k.. of lo:hi, k = rsi mod
	 * VEC_SIZE), aligned stores.  On Zen 5 a loop whose every load spans
	 * two lines runs at two thirds of the speed from the LLC.  rcx = -k:
	 * (%rsi,%rcx) is the line rsi is in.  A round loads the five lines
	 * that hold its four vectors' bytes; the last of them starts below
	 * rsi + 4 vectors (k > 0), at a byte still to copy (rdx >= 4
	 * vectors).  In a user copy the first starts above the buffer's start
	 * (one round of the plain loop came first), so every line loaded, and
	 * every fault address, is inside the buffer's user side.
	 * What the loop leaves (less than four vectors): the buffer's last
	 * four vectors, unaligned, without a branch on the count.  Two
	 * cases go a vector at a time the same way as the loop instead, then
	 * the last bytes (STORE_HEAD: smaller stores from the register)
	 * shifted out of the two lines that hold them, rsi's (loaded before)
	 * and the last byte's: dst 1 to 256 bytes ahead of src modulo 4 KiB,
	 * where the unaligned loads would wait on the stores just made, and
	 * an end less than four vectors past a page boundary, where one of
	 * them would be a store across it.  Taken for every copy, the
	 * shifted tail's branches on the count, mispredicted, held copies
	 * of random sizes and alignments from 1 to 2 KiB well behind glibc
	 * on Zen 5, where the four vectors run ahead of it
	 * (docs/measurements/zen5.md, "Figures behind the source's
	 * comments").
	 */
#ifdef UA_MEMCPY
.Lcopy_shift_first:
	SHIFT_START
	MOVE_EACH , VMOVA, VEC_SIZE, 0, load, REGS(V4, V0, V1, V2, V3), \
		(%rsi,%rcx)
	VMOVU	V6, (%rax)
	jmp	.Lcopy_shift_loaded
#endif
.Lcopy_shift:
	SHIFT_START
	.p2align 4
.Lcopy_shift_loop:
	MOVE_EACH FAULT, VMOVA, VEC_SIZE, 0, load, REGS(V4, V0, V1, V2, V3), \
		(%rsi,%rcx)
.Lcopy_shift_loaded:
	.irp v, V4, V0, V1, V2, V3
	SHIFT_LINE \v
	.endr
	SHIFT_PAIR V4, V0
	SHIFT_PAIR V0, V1
	SHIFT_PAIR V1, V2
	SHIFT_PAIR V2, V3
	MOVE_EACH FAULT, VMOVA, VEC_SIZE, 0, store, REGS(V4, V0, V1, V2), (%rdi)
	add	$(4 * VEC_SIZE), %rsi
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	jae	.Lcopy_shift_loop
	test	%rdx, %rdx
	jz	.Lcopy_ret
	/* dst a little ahead of src, or the end near a page: shifted */
	IF_DST_AHEAD 256, %r11d, .Lcopy_shift_tail
	IF_END_NEAR_PAGE (4 * VEC_SIZE), %r11d, .Lcopy_shift_tail
	COPY_BOTH_ENDS FAULT, VMOVU, VEC_SIZE, , TAIL4
	jmp	.Lcopy_ret
.Lcopy_shift_tail:
	/* The vector at rsi from its line and the line of its last byte */
	AMOV FAULT, VMOVA	(%rsi,%rcx), V4
	mov	$VEC_SIZE, %r11d
	cmp	%r11, %rdx
	cmovb	%rdx, %r11
	lea	-1(%rsi,%r11), %r11
	and	$-VEC_SIZE, %r11
	AMOV FAULT, VMOVA	(%r11), V0
	SHIFT_LINE V4
	SHIFT_LINE V0
	SHIFT_PAIR V4, V0
	cmp	$VEC_SIZE, %rdx
	jb	.Lcopy_shift_part
	AMOV FAULT, VMOVA	V4, (%rdi)
	add	$VEC_SIZE, %rsi
	add	$VEC_SIZE, %rdi
	sub	$VEC_SIZE, %rdx
	jnz	.Lcopy_shift_tail
	jmp	.Lcopy_ret
.Lcopy_shift_part:
	STORE_HEAD FAULT, V4, (%rdi)
	jmp	.Lcopy_ret
#endif
#ifdef PIPE_WINDOW
	/*
	 * dst 1 to PIPE_WINDOW bytes ahead of src modulo 4 KiB, rdi on a
	 * vector: the loop above would load, each round, bytes whose address
	 * bits match a store just made, and wait on it (4 KiB aliasing).
	 * Here each round's loads come before the previous round's stores,
	 * which alias only the bytes of the round loaded (on Zen 4 seed
	 * 000's read() into buf + 0x20 ran at 0.76-0.89x rep movsb forward:
	 * docs/measurements/zen4.md; with rounds of four 32-byte vectors,
	 * 2 KiB copies in L1 with dst 129-256 bytes ahead ran at 0.6-0.86x
	 * the speed of those up to 128 bytes ahead, with eight level with
	 * them: zen4.md, "ua_memcpy a little ahead").  rsi and rdi stay on
	 * the round loaded first and not yet stored; more than PIPE_VECS
	 * vectors are left.  The loads stay inside the buffer: a round is
	 * loaded ahead only when more than PIPE_VECS vectors follow it.
	 */
/* The next round loaded into \next, the one at rsi stored from \now */
.macro PIPE_ROUND next, now
	MOVE_EACH FAULT, VMOVU, VEC_SIZE, PIPE_WINDOW, load, "\next", (%rsi)
	MOVE_EACH FAULT, VMOVA, VEC_SIZE, 0, store, "\now", (%rdi)
	add	$PIPE_WINDOW, %rsi
	add	$PIPE_WINDOW, %rdi
	sub	$PIPE_WINDOW, %rdx
	cmp	$(2 * PIPE_WINDOW), %rdx
.endm
.Lcopy_pipe:
	MOVE_EACH FAULT, VMOVU, VEC_SIZE, 0, load, PIPE_A, (%rsi)
	cmp	$(2 * PIPE_WINDOW), %rdx
	jbe	.Lcopy_pipe_last
	.p2align 4
.Lcopy_pipe_loop:
	PIPE_ROUND PIPE_B, PIPE_A
	jbe	.Lcopy_pipe_last_odd
	PIPE_ROUND PIPE_A, PIPE_B
	ja	.Lcopy_pipe_loop
.Lcopy_pipe_last:
	MOVE_EACH FAULT, VMOVA, VEC_SIZE, 0, store, PIPE_A, (%rdi)
	jmp	.Lcopy_pipe_done
.Lcopy_pipe_last_odd:
	MOVE_EACH FAULT, VMOVA, VEC_SIZE, 0, store, PIPE_B, (%rdi)
.Lcopy_pipe_done:
	/* 1 to PIPE_VECS vectors left: a round of the loop, its end */
	add	$PIPE_WINDOW, %rsi
	add	$PIPE_WINDOW, %rdi
	sub	$PIPE_WINDOW, %rdx
#if PIPE_VECS > 4
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lcopy_loop
#endif
	jmp	.Lcopy_loop_end
#endif
#ifndef STREAM
.Lcopy_head_page:
	/* rcx = the bytes before the page boundary, 1 to VEC_SIZE - 1 */
	neg	%ecx
	add	$4096, %ecx
	COPY_LESS_VEC %rcx, %ecx, .Lcopy_head_done
#endif
#ifdef ALIAS_WINDOW
	/*
	 * dst 1 to ALIAS_WINDOW bytes ahead: backward, or forward from the
	 * policy's alias_forward_min (ua_alias_forward_min: dispatch.h).
	 * On Zen 4, 1-8 KiB copies walking memory ran 2.0-2.5x faster
	 * forward, from the LLC 1.1-1.5x, and level in L1
	 * (docs/measurements/zen4.md, "ua_memcpy a little ahead").
	 */
	.hidden ua_alias_forward_min
.Lcopy_alias:
	cmp	ua_alias_forward_min(%rip), %rdx
	jae	.Lcopy_forward
	/*
	 * Backward (n > 8 vectors): the first four vectors and the last one
	 * loaded up front, then four aligned vectors per round from the end
	 * of the destination down, rcx the block's destination and rsi the
	 * distance to its source; the first four vectors stored last.
	 */
.Lcopy_backward:
	/* The first four vectors would reach a page boundary: forward */
	mov	%edi, %ecx
	and	$4095, %ecx
	cmp	$(4096 - 4 * VEC_SIZE), %ecx
	ja	.Lcopy_forward
	VMOVU	(%rsi), V4
	VMOVU	VEC_SIZE(%rsi), V5
	VMOVU	(2 * VEC_SIZE)(%rsi), V6
	VMOVU	(3 * VEC_SIZE)(%rsi), V7
	VMOVU	-VEC_SIZE(%rsi,%rdx), V8
	lea	(%rdi,%rdx), %rcx
	and	$-VEC_SIZE, %rcx
	sub	$(4 * VEC_SIZE), %rcx
	sub	%rdi, %rsi
	.p2align 4
.Lcopy_backward_loop:
	VMOVU	(3 * VEC_SIZE)(%rsi,%rcx), V3
	VMOVU	(2 * VEC_SIZE)(%rsi,%rcx), V2
	VMOVU	VEC_SIZE(%rsi,%rcx), V1
	VMOVU	(%rsi,%rcx), V0
	VMOVA	V3, (3 * VEC_SIZE)(%rcx)
	VMOVA	V2, (2 * VEC_SIZE)(%rcx)
	VMOVA	V1, VEC_SIZE(%rcx)
	VMOVA	V0, (%rcx)
	sub	$(4 * VEC_SIZE), %rcx
	cmp	%rdi, %rcx
	ja	.Lcopy_backward_loop
	/* What is left, [rdi, rcx + 4 vectors), is in the first four */
	VMOVU	V4, (%rdi)
	VMOVU	V5, VEC_SIZE(%rdi)
	VMOVU	V6, (2 * VEC_SIZE)(%rdi)
	VMOVU	V7, (3 * VEC_SIZE)(%rdi)
	/* The last vector, unless it would cross a page (see above) */
	lea	(%rdi,%rdx), %rcx
	test	$(VEC_SIZE - 1), %ecx
	jz	1f
	and	$-VEC_SIZE, %rcx
	test	$4095, %ecx
	jz	.Lcopy_backward_page
1:	VMOVU	V8, -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER
	ret
.Lcopy_backward_page:
	/* [E, end) from E + rsi (rsi is src - dst here), rcx = E */
	add	%rdi, %rdx
	sub	%rcx, %rdx
	add	%rcx, %rsi
	mov	%rcx, %rdi
	COPY_LESS_VEC %rdx, %edx, .Lcopy_ret
#endif
UA_END(COPY_FN)

#ifndef UA_MEMCPY

/* The contract: asm.h */
UA_ENTRY(CLEAR_FN)
	xor	%eax, %eax
	cmp	$64, %rdx
	ja	.Lclear_more_64
	cmp	$16, %edx
	jb	.Lclear_less_16
	VZERO(X0)
	xor	%ecx, %ecx
	cmp	$32, %edx
	setae	%cl
	shl	$4, %ecx
	lea	-16(%rdx), %r11
	sub	%rcx, %r11
	AMOV FAULT, XMOVU	X0, (%rdi)
	AMOV FAULT, XMOVU	X0, (%rdi,%rcx)
	AMOV FAULT, XMOVU	X0, (%rdi,%r11)
	AMOV FAULT, XMOVU	X0, -16(%rdi,%rdx)
	ret
.Lclear_less_16:
	cmp	$4, %edx
	jb	.Lclear_less_4
	xor	%ecx, %ecx
	cmp	$8, %edx
	setae	%cl
	shl	$2, %ecx
	lea	-4(%rdx), %r11
	sub	%rcx, %r11
	AMOV FAULT, movl	%eax, (%rdi)
	AMOV FAULT, movl	%eax, (%rdi,%rcx)
	AMOV FAULT, movl	%eax, (%rdi,%r11)
	AMOV FAULT, movl	%eax, -4(%rdi,%rdx)
	ret
.Lclear_less_4:
	test	%edx, %edx
	jz	.Lclear_done
	mov	%edx, %ecx
	shr	%ecx
	AMOV FAULT, movb	%al, (%rdi)
	AMOV FAULT, movb	%al, (%rdi,%rcx)
	AMOV FAULT, movb	%al, -1(%rdi,%rdx)
.Lclear_done:
	ret

.Lclear_more_64:
	VZERO(V0)
#if VEC_SIZE == 16
	cmp	$128, %rdx
	ja	.Lclear_more_128
	CLEAR_ENDS(4)
.Lclear_more_128:
	cmp	$256, %rdx
	ja	.Lclear_loop_start
	CLEAR_ENDS(8)
#elif VEC_SIZE == 32
	cmp	$128, %rdx
	ja	.Lclear_more_128
	CLEAR_ENDS(2)
.Lclear_more_128:
	cmp	$256, %rdx
	ja	.Lclear_loop_start
	CLEAR_ENDS(4)
#else
	cmp	$128, %rdx
	ja	.Lclear_more_128
	CLEAR_ENDS(1)
.Lclear_more_128:
	cmp	$256, %rdx
	ja	.Lclear_more_256
	CLEAR_ENDS(2)
.Lclear_more_256:
	cmp	$512, %rdx
	ja	.Lclear_loop_start
	CLEAR_ENDS(4)
#endif

.Lclear_loop_start:
#ifdef STREAM
	CLEAR_HEAD64_ALIGN_DST FAULT
#else
	AMOV FAULT, VMOVU	V0, (%rdi)
	SKIP_TO_ALIGNED VEC_SIZE, 0
#endif
	.p2align 4
.Lclear_loop:
	MOVE_EACH FAULT, LOOP_STORE, VEC_SIZE, 0, store, ZERO4, (%rdi)
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lclear_loop
#ifdef STREAM
	sfence
#endif
	/* The last four vectors, overlapping */
	MOVE_EACH FAULT, VMOVU, VEC_SIZE, (-4 * VEC_SIZE), store, ZERO4, \
		(%rdi,%rdx)
	VZEROUPPER
	ret
UA_END(CLEAR_FN)

	UA_FIXUPS
.Lfault:
#ifdef STREAM
	sfence
#endif
	VZEROUPPER
	COPY_FAULT_EXIT
	UA_FIXUPS_END
#endif /* UA_MEMCPY */
	/* clang-format on */
