/* SPDX-License-Identifier: MIT */
/* aarch64: the bits of struct ua_cpu.features. */
#ifndef UA_AARCH64_FEATURES_H
#define UA_AARCH64_FEATURES_H

#include <stdint.h>

enum {
	UA_A64_ASIMD, /* Advanced SIMD: q registers */
	UA_A64_NFEATURES
};
#define UA_F(x) ((uint64_t)1 << UA_A64_##x)

#endif /* UA_AARCH64_FEATURES_H */
