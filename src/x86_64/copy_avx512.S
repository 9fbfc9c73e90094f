/* SPDX-License-Identifier: MIT */
/*
 * AVX-512 (F, BW, VL): 64-byte vectors in zmm16-zmm31, which have no upper
 * state to clear, so no vzeroupper.
 */
#define NAME avx512
#define VEC_SIZE 64
#define VMOVU vmovdqu64
#define VMOVA vmovdqa64
#define VZERO(v) vpxorq v, v, v
#define VZEROUPPER
#define XMOVU vmovdqu64
#define YMOVU vmovdqu64
#define X0 %xmm16
#define X1 %xmm17
#define Y0 %ymm16
#define Y1 %ymm17
#define V0 %zmm16
#define V1 %zmm17
#define V2 %zmm18
#define V3 %zmm19
#define V4 %zmm20
#define V5 %zmm21
#define V6 %zmm22
#define V7 %zmm23
#include "copy_vec.h"
