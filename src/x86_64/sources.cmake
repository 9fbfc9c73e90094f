# SPDX-License-Identifier: MIT
# x86-64 routines: one file per strategy
set(UA_ARCH_SOURCES
  ${UA_ARCH}/user.S
  ${UA_ARCH}/copy_erms.S
  ${UA_ARCH}/strategies.c
)
# Strategy names, for the tests that run once per strategy
set(UA_ARCH_STRATEGIES erms PARENT_SCOPE)
