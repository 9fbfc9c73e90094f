/* SPDX-License-Identifier: MIT */
/* AVX2: 32-byte vectors, vzeroupper on the way out. */
#define NAME avx2
#define VEC_SIZE 32
#define VMOVU vmovdqu
#define VMOVA vmovdqa
#define VZERO(v) vpxor v, v, v
#define VZEROUPPER vzeroupper
#define V0 %ymm0
#define V1 %ymm1
#define V2 %ymm2
#define V3 %ymm3
#define V4 %ymm4
#define V5 %ymm5
#define V6 %ymm6
#define V7 %ymm7
#define V8 %ymm8
#define V9 %ymm9
#define V10 %ymm10
#define V11 %ymm11
#define V12 %ymm12
#define V13 %ymm13
#define V14 %ymm14
#define V15 %ymm15
#define XMOVU vmovdqu
#define X0 %xmm0
#define X1 %xmm1
#define X2 %xmm2
#define X3 %xmm3
#define YMOVU vmovdqu
#define Y0 %ymm0
#define Y1 %ymm1
#include "vec_template.S"
