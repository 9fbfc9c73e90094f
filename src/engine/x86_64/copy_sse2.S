/* SPDX-License-Identifier: MIT */
/* SSE2: 16-byte vectors; every x86-64 has them. */
#ifndef NAME
#define NAME sse2
#endif
#define VEC_SIZE 16
#define VMOVU movdqu
#define VMOVA movdqa
#define VZERO(v) pxor v, v
#define VZEROUPPER
#define V0 %xmm0
#define V1 %xmm1
#define V2 %xmm2
#define V3 %xmm3
#define V4 %xmm4
#define V5 %xmm5
#define V6 %xmm6
#define V7 %xmm7
#define V8 %xmm8
#define V9 %xmm9
#define V10 %xmm10
#define V11 %xmm11
#define V12 %xmm12
#define V13 %xmm13
#define V14 %xmm14
#define V15 %xmm15
#define XMOVU movdqu
#define X0 %xmm0
#define X1 %xmm1
#define X2 %xmm2
#define X3 %xmm3
#include "vec_template.S"
