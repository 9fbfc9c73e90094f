/* SPDX-License-Identifier: MIT */
/*
 * The public copy entries: ua_memcpy, ua_memcpy_nocache, ua_copy_from_user,
 * ua_copy_from_user_nocache and ua_copy_to_user.  Each copies small sizes
 * itself, with overlapping moves from both ends, and jumps through the
 * dispatch table above that.  The limit, ua_memcpy_inline.max, is the
 * small-class strategy's (dispatch.c): 0 for a strategy whose routine must
 * serve every size (and before the table is filled, so that its first
 * routines fill it), 31 for sse2 (16-byte moves: SSE2 is baseline on
 * x86-64), 512 (UA_INLINE_NARROW) for avx2 and avx512 with 32-byte moves
 * (stores are the limit, one 32-byte store per cycle on Zen 3), 1024 for
 * avx512 with 64-byte moves when the policy sets inline_wide (Zen 5 stores
 * 64 bytes a cycle).  The limit's first word (struct ua_inline_limit,
 * range.h) tells the 64-byte moves, a limit above UA_INLINE_NARROW,
 * from the others, so that a call reads one word of the policy before it
 * copies up to 512 bytes (in a loop
 * whose addresses alias modulo 4 KiB, each load in the entry costs time:
 * docs/measurements/zen5.md, "Figures behind the source's comments").  The
 * user entries test the start first (USER_START), copy up to their own
 * limit (ua_user_inline, range.h: 0 while a thread has a range of its
 * own) with a table entry for every move, and check the rest of the range
 * on the way to the table (USER_SIDE); ua_memcpy's moves have none: a
 * fault there is the caller's bug and crashes as it would in memcpy.
 */
#include "asm.h"
#include "offsets.h"

/* Exported (libuaccess.map), unlike UA_ENTRY's routines */
#define UA_EXPORT_ENTRY(name)                                                  \
	.globl name;                                                           \
	.type name, @function;                                                 \
	.p2align 6;                                                            \
	name:                                                                  \
	.cfi_startproc

/*
 * n in (64 (h + k - 1), 64 (h + k)], 513..1024: the first vector (in
 * zmm16) and the h - 1 after it from the start (\head), then k stored
 * aligned (\back) that end at E, the destination's end rounded down to a
 * vector, then the last vector (\last), overlapping.  All loaded before
 * any is stored (but for h + k = 16 the last, loaded into zmm16 once the
 * first is stored), in increasing address order; rsi and rdi stay put.
 * With h + k vectors from the two ends instead, an odd size splits k
 * stores across two lines and stores up to k - 1 vectors twice: some
 * sizes (776 to 824 bytes, 968 to 1016) fell well behind glibc's loop,
 * whose stores are aligned, on Zen 5 (docs/measurements/zen5.md, "Figures
 * behind the source's comments").  Clobbers r11.
 */
.macro COPY_BAND vfault, head, back, last, ok:vararg
	lea	(%rdi,%rdx), %r11
	and	$-64, %r11
	sub	%rdi, %r11
	COUNT_REGS "\back"
	MOVE_EACH \vfault, vmovdqu64, 64, 64, load, "\head", (%rsi)
	MOVE_EACH \vfault, vmovdqu64, 64, (-.Lua_k * 64), load, "\back", \
		(%rsi,%r11)
.ifc \last, %zmm16
	AMOV \vfault, vmovdqu64	%zmm16, (%rdi)
	AMOV \vfault, vmovdqu64	-64(%rsi,%rdx), \last
.else
	AMOV \vfault, vmovdqu64	-64(%rsi,%rdx), \last
	AMOV \vfault, vmovdqu64	%zmm16, (%rdi)
.endif
	MOVE_EACH \vfault, vmovdqu64, 64, 64, store, "\head", (%rdi)
	MOVE_EACH \vfault, vmovdqa64, 64, (-.Lua_k * 64), store, "\back", \
		(%rdi,%r11)
	/* the end on a vector boundary: the last vector was \back's last */
	cmp	%r11, %rdx
	je	.Lband_end\@
	AMOV \vfault, vmovdqu64	\last, -64(%rdi,%rdx)
.Lband_end\@:
	\ok
	ret
.endm

/*
 * n above 512, up to the limit, with inline_loop (a limit from
 * UA_INLINE_LOOP_MIN): glibc's shape for more than eight vectors, with no
 * branch on the size but the loop's.  The first vector (in zmm16) stored
 * unaligned, rounds of four vectors stored aligned from the next vector
 * boundary of the destination while more than four vectors are left, then
 * the last four vectors of the buffer, unaligned, overlapping.  A memcpy
 * (no \vfault) loads those four before the loop, as glibc does (loads
 * after the loop's stores may wait on them when dst is a little ahead of
 * src modulo 4 KiB); a user copy loads them after it, so that its moves go
 * in increasing address order.  When dst is 1 to 256 bytes ahead of src
 * modulo 4 KiB and the two are not equally aligned in their lines, every
 * round's loads would wait on the stores of the round before (4 KiB
 * aliasing; docs/measurements/intel-emr.md, "Figures behind the source's
 * comments"): on to the table's routine, which handles that (a memcpy
 * goes backward), the misaligned table's small class by the near way
 * \mtable when the policy's mask says misaligned, else \table.  Equally
 * aligned, the loop ran 1 KiB 1.05-1.10x faster than the routine there
 * (intel-emr.md, "The user entries' one test").  rsi and rdi stay put (the cursors:
 * nothing below them is done); the loop walks rcx, the destination, and
 * reads at rcx + (rsi - rdi).  On Intel with AVX-512 (family 6 model 0xa7
 * as a KVM guest), random 513-1024 B copies from L1 lost to glibc by band,
 * whose three branches on the size the predictor cannot learn
 * (docs/measurements/intel-emr.md, section 1).
 * Clobbers rcx, r10, r11.
 */
.macro COPY_LOOP vfault, table, mtable, ok:vararg
	mov	%edi, %ecx
	sub	%esi, %ecx
	sub	$1, %ecx
	and	$(4096 - 256), %ecx
	jz	.Lloop_alias\@
.Lloop_go\@:
.ifb \vfault
	MOVE_EACH , vmovdqu64, 64, -256, load, \
		"%zmm20,%zmm21,%zmm22,%zmm23", (%rsi,%rdx)
.endif
	AMOV \vfault, vmovdqu64	%zmm16, (%rdi)
	lea	64(%rdi), %rcx
	and	$-64, %rcx
	mov	%rsi, %r11
	sub	%rdi, %r11
	lea	-256(%rdi,%rdx), %r10
	.p2align 4
.Lloop_round\@:
	MOVE_EACH \vfault, vmovdqu64, 64, 0, load, \
		"%zmm16,%zmm17,%zmm18,%zmm19", (%rcx,%r11)
	MOVE_EACH \vfault, vmovdqa64, 64, 0, store, \
		"%zmm16,%zmm17,%zmm18,%zmm19", (%rcx)
	add	$256, %rcx
	cmp	%r10, %rcx
	jb	.Lloop_round\@
.ifnb \vfault
	MOVE_EACH \vfault, vmovdqu64, 64, -256, load, \
		"%zmm20,%zmm21,%zmm22,%zmm23", (%rsi,%rdx)
.endif
	MOVE_EACH \vfault, vmovdqu64, 64, -256, store, \
		"%zmm20,%zmm21,%zmm22,%zmm23", (%rdi,%rdx)
	\ok
	ret
.Lloop_alias\@:
	mov	%edi, %ecx
	xor	%esi, %ecx
	test	$63, %ecx
	jz	.Lloop_go\@
	test	%ecx, ua_misaligned+UA_MISALIGNED_MASK(%rip)
	jz	\table
	jmp	\mtable
.endm

/*
 * Up to the limit at \limit (struct ua_inline_limit, range.h) from rsi to
 * rdi, then \ok and return; above, on to \table.  Laid out as glibc's:
 * one compare and one taken branch to the ladder below 32 bytes, then the
 * smaller the size the fewer taken branches (COPY_LESS_32), as in glibc;
 * 64..128 falls through within the entry's first 64-byte line, after two
 * branches on the size, as in glibc, and one on the policy; 257..512 take
 * one taken branch, 129..256 two, as in glibc.  Every path up to 512
 * reads one word of the policy, the limit's first, into r10: n <= first
 * is the ladder's, with no other test, and above it first says whether
 * the limit is the 64-byte moves (UA_INLINE_FIRST_WIDE: inline_wide, a
 * limit above UA_INLINE_NARROW, up to 1 KiB or the loop, which covers
 * 512) or the 32-byte ones (then first is at most 62, and the limit
 * itself, max, is read: 63 bytes go that way).  Where the entry compared
 * the limit in memory with UA_INLINE_NARROW (an immediate and a
 * RIP-relative operand, which do not fuse with the branch), 129..512 B
 * copies ran 2-11% slower on Zen 5, with 64-byte moves and with 32-byte
 * ones, at the same code address (docs/measurements/zen5.md, "The
 * entries' first word").  The ladder starts on a 16-byte boundary, its
 * moves after the 32-byte path's start, so that the branches to it from
 * the first line stay short.  A copy may read first and max from two
 * different limits (ua_inline_limit_store): any mix copies right, as the
 * 32-byte path takes the ladder below 64 bytes (a first of 0 with the max
 * of another limit) and sends every size above 512 to \table (the 64-byte
 * moves would take a max above it), and every limit above 31 comes from a
 * strategy with AVX moves (checkasm's mixed limits).  With n compared
 * with the limit first and 65..128 behind a taken branch, 128 B copies
 * and random 33..128 B copies from L1 lost to glibc on Intel with AVX-512
 * (family 6 model 0xa7, a KVM guest; docs/measurements/intel-emr.md,
 * section 5).
 * Not AVX-512 masked moves, which would take 0..64 without a branch: from
 * memory not in the caches a masked load or store costs more than a plain
 * one, far more than it saves from L1, on Zen 5 (docs/measurements/zen5.md,
 * "Figures behind the source's comments").  Without inline_wide, 32-byte
 * moves up to 512.  Moves go in increasing address order (a user copy's
 * first fault is at its lowest bad page); rsi and rdi stay put, the
 * cursors of a user copy.  Given fixups (\vfault for the AVX moves), the
 * moves get table entries.  Clobbers r10, r11, xmm0-1, ymm0-15, zmm16-31.
 */
.macro SMALL_COPY limit, fault, vfault, table, loop, ok:vararg
	mov	\limit+UA_INLINE_LIMIT_FIRST(%rip), %r10
	cmp	%r10, %rdx
	jbe	.Lupto_first\@
	cmp	$UA_INLINE_FIRST_WIDE, %r10d
	jne	.Lnarrow\@
	cmp	$128, %rdx
	ja	.Lwide_more_128\@
	/* 64..128: 64 bytes from each end, in zmm16-31 (no vzeroupper) */
	AMOV \vfault, vmovdqu64	(%rsi), %zmm16
	COPY_BOTH_ENDS \vfault, vmovdqu64, 64, , %zmm17, first=%zmm16
	\ok
	ret
	.p2align 4
.Lupto_first\@:
	cmp	$32, %edx
	jae	.L32_63\@
	LESS_32_TESTS \fault, %rdx, %edx, .Lless32_\@_, , \ok
.Lnarrow\@:
	cmp	\limit+UA_INLINE_LIMIT_MAX(%rip), %rdx
	ja	\table
	cmp	$128, %edx
	ja	.Lmore_128\@
	cmp	$64, %edx
	jb	.Lupto_first\@
	/* 64..128: 64 bytes from each end */
	COPY_BOTH_ENDS \vfault, vmovdqu, 32, "%ymm0,%ymm1", "%ymm2,%ymm3"
	vzeroupper
	\ok
	ret
	LESS_32_MOVES \fault, %rdx, movdqu, %xmm0, %xmm1, .Lless32_\@_, , \ok
.L32_63\@:
	/* 32..63: 32 bytes from each end */
	COPY_BOTH_ENDS \vfault, vmovdqu, 32, %ymm0, %ymm1
	vzeroupper
	\ok
	ret
.Lmore_128\@:
	cmp	$256, %edx
	ja	.Lmore_256\@
	/* 129..256: 128 bytes from each end */
	COPY_BOTH_ENDS \vfault, vmovdqu, 32, "%ymm0,%ymm1,%ymm2,%ymm3", \
		"%ymm4,%ymm5,%ymm6,%ymm7"
	vzeroupper
	\ok
	ret
.Lmore_256\@:
	/* a max above 512 read with a first of the 32-byte moves */
	cmp	$UA_INLINE_NARROW, %edx
	ja	\table
	/* 257..512: 256 bytes from each end */
	COPY_BOTH_ENDS \vfault, vmovdqu, 32, \
		"%ymm0,%ymm1,%ymm2,%ymm3,%ymm4,%ymm5,%ymm6,%ymm7", \
		"%ymm8,%ymm9,%ymm10,%ymm11,%ymm12,%ymm13,%ymm14,%ymm15"
	vzeroupper
	\ok
	ret
	.p2align 4
.Lwide_more_128\@:
	cmp	$512, %rdx
	ja	.Lwide_more_512\@
	AMOV \vfault, vmovdqu64	(%rsi), %zmm16
	cmp	$256, %edx
	jbe	.Lwide_upto_256\@
	/* 257..512: 256 bytes from each end */
	COPY_BOTH_ENDS \vfault, vmovdqu64, 64, \
		"%zmm17,%zmm18,%zmm19", "%zmm20,%zmm21,%zmm22,%zmm23", \
		first=%zmm16
	\ok
	ret
	.p2align 4
.Lwide_upto_256\@:
	/* 129..256: 128 bytes from each end */
	COPY_BOTH_ENDS \vfault, vmovdqu64, 64, %zmm17, "%zmm18,%zmm19", \
		first=%zmm16
	\ok
	ret
.Lloop_far\@:
	jmp	\loop
	.p2align 4
.Lwide_more_512\@:
	/*
	 * A limit from UA_INLINE_LOOP_MIN (2048): inline_loop, the loop
	 * (\loop, COPY_LOOP at the entry's end), by a near jump to a far
	 * one in the padding above.
	 */
	mov	\limit+UA_INLINE_LIMIT_MAX(%rip), %r10
	cmp	%r10, %rdx
	ja	\table
	AMOV \vfault, vmovdqu64	(%rsi), %zmm16
	shr	$11, %r10
	jnz	.Lloop_far\@
	/* 513..1024: by 64-byte band (COPY_BAND) */
	cmp	$768, %edx
	ja	.Lwide_more_768\@
	cmp	$640, %edx
	ja	.Lwide_more_640\@
	cmp	$576, %edx
	ja	.Lwide_more_576\@
	COPY_BAND \vfault, "%zmm17,%zmm18,%zmm19,%zmm20", \
		"%zmm21,%zmm22,%zmm23,%zmm24", %zmm31, \ok
.Lwide_more_576\@:
	COPY_BAND \vfault, "%zmm17,%zmm18,%zmm19,%zmm20", \
		"%zmm21,%zmm22,%zmm23,%zmm24,%zmm25", %zmm31, \ok
	.p2align 4
.Lwide_more_640\@:
	cmp	$704, %edx
	ja	.Lwide_more_704\@
	COPY_BAND \vfault, "%zmm17,%zmm18,%zmm19,%zmm20,%zmm21", \
		"%zmm22,%zmm23,%zmm24,%zmm25,%zmm26", %zmm31, \ok
.Lwide_more_704\@:
	COPY_BAND \vfault, "%zmm17,%zmm18,%zmm19,%zmm20,%zmm21", \
		"%zmm22,%zmm23,%zmm24,%zmm25,%zmm26,%zmm27", %zmm31, \ok
	.p2align 4
.Lwide_more_768\@:
	cmp	$896, %edx
	ja	.Lwide_more_896\@
	cmp	$832, %edx
	ja	.Lwide_more_832\@
	COPY_BAND \vfault, "%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22", \
		"%zmm23,%zmm24,%zmm25,%zmm26,%zmm27,%zmm28", %zmm31, \ok
.Lwide_more_832\@:
	COPY_BAND \vfault, "%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22", \
		"%zmm23,%zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29", %zmm31, \ok
	.p2align 4
.Lwide_more_896\@:
	cmp	$960, %edx
	ja	.Lwide_more_960\@
	COPY_BAND \vfault, \
		"%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23", \
		"%zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30", %zmm31, \ok
.Lwide_more_960\@:
	/* 17 vectors: the last loaded into zmm16 once the first is stored */
	COPY_BAND \vfault, \
		"%zmm17,%zmm18,%zmm19,%zmm20,%zmm21,%zmm22,%zmm23", \
		"%zmm24,%zmm25,%zmm26,%zmm27,%zmm28,%zmm29,%zmm30,%zmm31", \
		%zmm16, \ok
.endm

/* The fixups of a user entry's SMALL_COPY: ua_copy_fault finishes (asm.h) */
.macro SMALL_COPY_FIXUPS fault, vfault
\vfault:
	vzeroupper
\fault:
	COPY_FAULT_EXIT
.endm

/*
 * Jump to the size class's routine in the table at \table (dispatch.h),
 * or in the misaligned table at \mtable (ua_misaligned, dispatch.h) when
 * (src ^ dst) & its mask: the policy per size class and relative alignment.
 * Clobbers rcx, r10, r11.
 */
.macro TABLE_JUMP table, mtable
	lea	ua_dispatch+\table(%rip), %rcx
	lea	ua_misaligned+\mtable(%rip), %r10
	mov	%edi, %r11d
	xor	%esi, %r11d
	test	%r11d, ua_misaligned+UA_MISALIGNED_MASK(%rip)
	cmovnz	%r10, %rcx
	cmp	ua_dispatch+UA_DISPATCH_MEDIUM_MIN(%rip), %rdx
	jae	1f
	jmp	*(%rcx)
1:	cmp	ua_dispatch+UA_DISPATCH_LARGE_MIN(%rip), %rdx
	jae	2f
	jmp	*UA_DISPATCH_ENTRY_SIZE(%rcx)
2:	cmp	ua_dispatch+UA_DISPATCH_HUGE_MIN(%rip), %rdx
	jae	3f
	jmp	*2 * UA_DISPATCH_ENTRY_SIZE(%rcx)
3:	jmp	*3 * UA_DISPATCH_ENTRY_SIZE(%rcx)
.endm

/*
 * The top of the largest x86-64 user address space (56 bits, 5-level
 * paging) less its last page, which the kernel never maps
 */
#define UA_TOP_MAX 0x00fffffffffff000
/*
 * The bottom of the default range, the first page's end (ua_user_lo once
 * init is done): root may map the first page (vm.mmap_min_addr does not
 * bind CAP_SYS_RAWIO), so a pointer below it is refused, not run
 */
#define UA_USER_LO 4096

/*
 * A user entry's first test, the only one before the copies it makes
 * itself (up to its limit, SMALL_COPY): \ptr against the first page, to
 * \full, which refuses it; the compare is signed, so that every pointer
 * from 2^63, the kernel's half, goes there too.  The rest of access_ok
 * waits for the way to the table (USER_SIDE).  Below the limit it holds
 * without a test:
 * - n is at most the limit, 8 KiB, far below the top;
 * - a thread with a range of its own finds the limit 0 (range.c), so that
 *   every size goes to the table, where ua_entry_top sends it the full way;
 * - a pointer from the top to 2^63 faults, not canonical (or, with 5-level
 *   paging, at the page below 2^56 that the kernel never maps), and the
 *   copy returns n (fault.c), as the clamp (CLAMP_TO_TOP) has it.
 * The moves' table entries say whose user side they touch
 * (UA_EX_ENTRY_FROM or _TO, extable.h): n bytes from the pointer, which the
 * moves leave in place, so the entry puts nothing in r8 and r9.  With
 * the whole check here, USER_SIDE and the user side in r8/r9 before the
 * copy, copy_from_user ran 0.71-0.88x ua_memcpy from 32 to 512 B; with
 * this one compare, 0.93-1.00x (docs/measurements/intel-emr.md, "The
 * user entries' one test").
 */
.macro USER_START ptr, full
	cmp	$UA_USER_LO, \ptr
	jl	\full
.endm

/*
 * access_ok (range.h) on \ptr and rdx after USER_START, on the way to the
 * table: the assembly twin of ua_user_addr, reading the same words, with
 * the same meaning.  Accepted: r8 = \ptr and r9 = \ptr + rdx, the user
 * side (UA_USER_ARGS, kind 0).  A thread on the default range has the
 * kernel's masked_user_access: n is checked against the top (so that r9
 * neither wraps nor reaches the kind bits), a branch on a load that the
 * copy's data does not wait for (USER_START has refused the first page);
 * a pointer above UA_TOP_MAX becomes UA_TOP_MAX, without a branch and
 * without a load
 * (the kernel patches its top into the instruction; the largest top needs
 * no patching).  A copy goes forward, so it faults where it leaves the
 * range, with the count exact, which is what range.h says of the default
 * range's ends: at the page below the top, or, in a 47-bit space, at the
 * first non-canonical address, which the kernel reports without an address
 * and fault.c takes as the top, or as the start of the user side when that
 * lies above it (ua_user_addr clamps such a pointer to the top instead: the
 * same count).  The word n is compared with, ua_entry_top (range.h), is
 * the top while no thread has a range of its own, else 0, as before init:
 * then every call goes to \full (USER_SIDE_FULL), which reads this
 * thread's range and the top itself.  So a call on the default range reads
 * one word here, where reading the thread's range and the top took three
 * loads (the TLS offset, the range, the top), each of which costs in a
 * loop whose addresses alias modulo 4 KiB (see the top of this file).
 */
.macro USER_SIDE ptr, full
	cmp	ua_entry_top(%rip), %rdx
	ja	\full
	CLAMP_TO_TOP \ptr
.endm

/* r8 = \ptr, or UA_TOP_MAX if above it, and \ptr with it; r9 = r8 + rdx */
.macro CLAMP_TO_TOP ptr
	movabs	$UA_TOP_MAX, %r8
	cmp	%r8, \ptr
	cmovb	\ptr, %r8
	mov	%r8, \ptr
	lea	(%r8,%rdx), %r9
.endm

/*
 * access_ok(\ptr, rdx) the full way.  On the default range (range_hi 0):
 * n against the top itself and the start against the first page, to
 * \refused outside them (and before init, when the top is 0), else as
 * USER_SIDE.  On this thread's own range, which
 * has no guard above it: all of it, with the Spectre v1 mask: a refused
 * pointer becomes all ones before the branch on it, to \refused with the
 * arguments as they came (which also takes n == 0 outside the range: the
 * slow way accepts it, as range.h does).  Accepted: as USER_SIDE, back to
 * \back.  Clobbers rax, r10, r11.
 */
.macro USER_SIDE_FULL ptr, back, refused
	mov	ua_self@gottpoff(%rip), %rax
	cmpq	$0, %fs:UA_SELF_RANGE_HI(%rax)
	jne	.Lown_range\@
	cmp	ua_user_top(%rip), %rdx
	ja	\refused
	cmp	ua_user_lo(%rip), \ptr
	jb	\refused
	CLAMP_TO_TOP \ptr
	jmp	\back
.Lown_range\@:
	mov	%fs:UA_SELF_RANGE_LO(%rax), %r8
	mov	%fs:UA_SELF_RANGE_HI(%rax), %r9
	/* refused: ptr - lo + n carries, or passes hi - lo */
	mov	\ptr, %r10
	sub	%r8, %r10
	sub	%r8, %r9
	add	%rdx, %r10
	sbb	%r11, %r11
	cmp	%r10, %r9
	sbb	%r10, %r10
	or	%r11, %r10
	or	\ptr, %r10
	cmp	$-1, %r10
	je	\refused
	mov	%r10, \ptr
	mov	%r10, %r8
	lea	(%r10,%rdx), %r9
	jmp	\back
.endm

/*
 * copy_from_user: the start's test, the small sizes up to \limit, the
 * range check and the table; with \stream, to there from nocache_min.
 * Input: rdi destination, rsi user source, rdx count
 * Output: rax the bytes not copied
 */
.macro FROM_USER limit, refused, stream
	USER_START %rsi, .Lfrom_full\@
	AMOV_TYPE UA_EX_ENTRY_FROM
	SMALL_COPY \limit, .Lfrom_fault\@, .Lfrom_vfault\@, \
		.Lfrom_table\@, .Lfrom_loop\@, xor %eax, %eax
	SMALL_COPY_FIXUPS .Lfrom_fault\@, .Lfrom_vfault\@
.Lfrom_table\@:
	USER_SIDE %rsi, .Lfrom_full\@
.Lfrom_checked\@:
	.ifnb \stream
	cmp	ua_dispatch+UA_DISPATCH_NOCACHE_MIN(%rip), %rdx
	jae	\stream
	.endif
	TABLE_JUMP UA_DISPATCH_COPY, UA_MISALIGNED_COPY
.Lfrom_full\@:
	USER_SIDE_FULL %rsi, .Lfrom_checked\@, \refused
.Lfrom_mtable\@:
	USER_SIDE %rsi, .Lfrom_full\@
	jmp	*ua_misaligned+UA_MISALIGNED_COPY(%rip)
.Lfrom_loop\@:
	COPY_LOOP .Lfrom_vfault\@, .Lfrom_table\@, .Lfrom_mtable\@, \
		xor %eax, %eax
	AMOV_TYPE UA_EX_COPY
.endm

	.hidden ua_memcpy_inline
	.hidden ua_user_inline
	.hidden ua_user_nocache_inline
	.hidden ua_dispatch
	.hidden ua_misaligned
	.hidden ua_self
	.hidden ua_user_lo
	.hidden ua_user_top
	.hidden ua_entry_top
	.hidden ua_from_user_refused
	.hidden ua_from_user_nocache_refused
	.hidden ua_to_user_refused

	.text
/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax destination
 */
UA_EXPORT_ENTRY(ua_memcpy)
	mov	%rdi, %rax
.Lmemcpy:
	SMALL_COPY ua_memcpy_inline, , , .Lmemcpy_table, .Lmemcpy_loop
.Lmemcpy_table:
	TABLE_JUMP UA_DISPATCH_MEMCPY, UA_MISALIGNED_MEMCPY
	/* after the rest, which lies where it did before inline_loop */
.Lmemcpy_loop:
	COPY_LOOP , .Lmemcpy_table, .Lmemcpy_mtable
.Lmemcpy_mtable:
	jmp	*ua_misaligned+UA_MISALIGNED_MEMCPY(%rip)
UA_END(ua_memcpy)

/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax destination
 */
UA_EXPORT_ENTRY(ua_memcpy_nocache)
	mov	%rdi, %rax
	cmp	ua_dispatch+UA_DISPATCH_NOCACHE_MIN(%rip), %rdx
	jb	.Lmemcpy
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY_NOCACHE(%rip)
UA_END(ua_memcpy_nocache)

/*
 * Input: rdi destination, rsi user source, rdx count
 * Output: rax the bytes not copied
 */
UA_EXPORT_ENTRY(ua_copy_from_user)
	FROM_USER ua_user_inline, ua_from_user_refused
UA_END(ua_copy_from_user)

/*
 * copy_from_user written out again, its small copies limited to below
 * nocache_min (small writes must not stream), so that they cost what
 * copy_from_user's do: with a jump to it, or with n compared with
 * nocache_min before the copy written out, 256-byte copies (fstime) ran
 * slower than copy_from_user's on Zen 5 (docs/measurements/zen5.md,
 * "Figures behind the source's comments").  From nocache_min, the
 * non-temporal routine.
 * Input: rdi destination, rsi user source, rdx count
 * Output: rax the bytes not copied
 */
UA_EXPORT_ENTRY(ua_copy_from_user_nocache)
	FROM_USER ua_user_nocache_inline, ua_from_user_nocache_refused, \
		.Lfrom_nocache
.Lfrom_nocache:
	jmp	*ua_dispatch+UA_DISPATCH_NOCACHE(%rip)
UA_END(ua_copy_from_user_nocache)

/*
 * Input: rdi user destination, rsi source, rdx count
 * Output: rax the bytes not copied
 */
UA_EXPORT_ENTRY(ua_copy_to_user)
	USER_START %rdi, .Lto_full
	AMOV_TYPE UA_EX_ENTRY_TO
	SMALL_COPY ua_user_inline, .Lto_fault, .Lto_vfault, \
		.Lto_table, .Lto_loop, xor %eax, %eax
	SMALL_COPY_FIXUPS .Lto_fault, .Lto_vfault
.Lto_table:
	USER_SIDE %rdi, .Lto_full
.Lto_checked:
	bts	$UA_KIND_SHIFT, %r9 /* UA_KIND_TO */
	TABLE_JUMP UA_DISPATCH_COPY, UA_MISALIGNED_COPY
.Lto_full:
	USER_SIDE_FULL %rdi, .Lto_checked, ua_to_user_refused
.Lto_mtable:
	USER_SIDE %rdi, .Lto_full
	bts	$UA_KIND_SHIFT, %r9 /* UA_KIND_TO */
	jmp	*ua_misaligned+UA_MISALIGNED_COPY(%rip)
.Lto_loop:
	COPY_LOOP .Lto_vfault, .Lto_table, .Lto_mtable, xor %eax, %eax
	AMOV_TYPE UA_EX_COPY
UA_END(ua_copy_to_user)
