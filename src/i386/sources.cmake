# SPDX-License-Identifier: MIT
# i386 routines: one file per strategy; cpuid is shared with x86-64
set(UA_ARCH_SOURCES
  ${UA_ARCH}/user.S
  ${UA_ARCH}/copy_erms.S
  ${UA_ARCH}/copy_movsl.S
  ${UA_ARCH}/copy_intel.S
  ${UA_ARCH}/copy_sse2.S
  ${UA_ARCH}/strategies.c
  x86/cpu.c
)
# Strategy names, for the tests that run once per strategy
set(UA_ARCH_STRATEGIES movsl intel erms sse2 nt PARENT_SCOPE)
