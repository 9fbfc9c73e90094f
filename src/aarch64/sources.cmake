# SPDX-License-Identifier: MIT
# aarch64 routines: one file per strategy family
set(UA_ARCH_SOURCES
  ${UA_ARCH}/user.S
  ${UA_ARCH}/copy_ldp.S
  ${UA_ARCH}/copy_ldpq.S
  ${UA_ARCH}/strategies.c
)
# Strategy names, for the tests that run once per strategy
set(UA_ARCH_STRATEGIES ldp ldpq nt PARENT_SCOPE)
