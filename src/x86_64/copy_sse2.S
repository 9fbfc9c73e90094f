/* SPDX-License-Identifier: MIT */
/* SSE2: 16-byte vectors; every x86-64 has them. */
#define NAME sse2
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
#include "copy_vec.h"
