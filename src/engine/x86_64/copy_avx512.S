/* SPDX-License-Identifier: MIT */
/*
 * AVX-512 (F, BW, VL): 64-byte vectors in zmm16-zmm31, which have no upper
 * state to clear, so no vzeroupper.
 */
#ifndef NAME
#define NAME avx512
#endif
#define VEC_SIZE 64
#define VMOVU vmovdqu64
#define VMOVA vmovdqa64
#define VZERO(v) vpxorq v, v, v
#define VZEROUPPER
#define V0 %zmm16
#define V1 %zmm17
#define V2 %zmm18
#define V3 %zmm19
#define V4 %zmm20
#define V5 %zmm21
#define V6 %zmm22
#define V7 %zmm23
#define V8 %zmm24
#define V9 %zmm25
#define V10 %zmm26
#define V11 %zmm27
#define V12 %zmm28
#define V13 %zmm29
#define V14 %zmm30
#define V15 %zmm31
#define XMOVU vmovdqu64
#define X0 %xmm16
#define X1 %xmm17
#define X2 %xmm18
#define X3 %xmm19
#define YMOVU vmovdqu64
#define Y0 %ymm16
#define Y1 %ymm17
#include "vec_template.S"
