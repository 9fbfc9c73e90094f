# SPDX-License-Identifier: MIT
# x86-64 routines: one file per strategy; cpuid is shared with i386
set(UA_ARCH_SOURCES
  ${UA_ARCH}/user.S
  ${UA_ARCH}/copy_erms.S
  ${UA_ARCH}/copy_movsq.S
  ${UA_ARCH}/copy_unrolled.S
  ${UA_ARCH}/copy_sse2.S
  ${UA_ARCH}/copy_avx2.S
  ${UA_ARCH}/copy_avx512.S
  ${UA_ARCH}/copy_avx512vbmi.S
  ${UA_ARCH}/copy_nt.S
  ${UA_ARCH}/entry.S
  ${UA_ARCH}/memcpy_sse2.S
  ${UA_ARCH}/memcpy_avx2.S
  ${UA_ARCH}/memcpy_avx512.S
  ${UA_ARCH}/memcpy_avx512vbmi.S
  ${UA_ARCH}/strategies.c
  x86/cpu.c
)
# Strategy names, for the tests that run once per strategy
set(UA_ARCH_STRATEGIES erms movsq unrolled sse2 avx2 avx512 avx512vbmi nt PARENT_SCOPE)
# entry.S is ua_memcpy, ua_memcpy_nocache, ua_copy_from_user,
# ua_copy_from_user_nocache and ua_copy_to_user: copy.c leaves them out, and
# dispatch.c leaves the choice by relative alignment to them
set_property(SOURCE copy.c dispatch.c APPEND PROPERTY
  COMPILE_DEFINITIONS UA_ARCH_ENTRIES)
