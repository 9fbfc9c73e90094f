/* SPDX-License-Identifier: MIT */
/*
 * Non-temporal stores (movntdq), for copies that should not displace the
 * cache: the sse2 routines, with the destination brought to a cache line
 * first, whole lines streamed, the tail stored normally, and an sfence
 * that orders the streamed data before the call returns (also after a
 * fault).  Sizes up to the loop's start are the sse2 ones, cached.
 */
#define NAME nt
#define STREAM 1
#define VMOVNT movntdq
#include "copy_sse2.S"
