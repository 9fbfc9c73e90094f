/* SPDX-License-Identifier: MIT */
/*
 * Description: the block operations of ops.h in a shared library (linked
 * with the test program) and in a plugin (dlopen'ed by it): one source,
 * built twice, BLOCKS_WHERE naming which.
 */
#include "ops.h"

#define BLOCKS_STR2(x) #x
#define BLOCKS_STR(x) BLOCKS_STR2(x)
#define BLOCKS_SYM2(x) blocks_ops_##x
#define BLOCKS_SYM(x) BLOCKS_SYM2(x)

__attribute__((visibility("default"))) const struct block_ops
    BLOCKS_SYM(BLOCKS_WHERE) = BLOCK_OPS(BLOCKS_STR(BLOCKS_WHERE));
