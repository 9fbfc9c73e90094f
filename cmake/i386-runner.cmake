# SPDX-License-Identifier: MIT
# How the i386 build's programs run on this x86-64 host: natively where the
# kernel executes 32-bit programs, under qemu-i386 where it does not (a
# kernel built without IA32_EMULATION, or booted with ia32_emulation=0).
#   UA_I386_RUNNER=auto    try a tiny 32-bit program and decide (default)
#   UA_I386_RUNNER=native  run the tests directly
#   UA_I386_RUNNER=qemu    run them under qemu-i386 even where native works
set(UA_I386_RUNNER auto CACHE STRING "How to run i386 programs: auto, native or qemu")
set_property(CACHE UA_I386_RUNNER PROPERTY STRINGS auto native qemu)

set(runner ${UA_I386_RUNNER})
if(NOT runner MATCHES "^(auto|native|qemu)$")
  message(FATAL_ERROR "uaccess: UA_I386_RUNNER=${runner}: expected auto, native or qemu")
endif()

if(runner STREQUAL "auto")
  set(probe_dir ${CMAKE_BINARY_DIR}/CMakeFiles/ua-i386-probe)
  file(WRITE ${probe_dir}/probe.c "int main(void) { return 42; }\n")
  try_compile(built ${probe_dir}/build ${probe_dir}/probe.c
              COPY_FILE ${probe_dir}/probe)
  if(NOT built)
    message(FATAL_ERROR "uaccess: cannot build a 32-bit program with ${CMAKE_C_COMPILER}")
  endif()
  execute_process(COMMAND ${probe_dir}/probe RESULT_VARIABLE rc
                  OUTPUT_QUIET ERROR_QUIET)
  if(rc STREQUAL "42")
    set(runner native)
  else()
    set(why "a 32-bit probe exited with '${rc}', not 42")
    set(runner qemu)
  endif()
endif()

if(runner STREQUAL "qemu")
  find_program(UA_QEMU_I386 NAMES qemu-i386 qemu-i386-static)
  if(NOT UA_QEMU_I386)
    message(FATAL_ERROR "uaccess: this kernel does not run 32-bit programs (${why}) "
                        "and qemu-i386 is not installed (Debian: qemu-user)")
  endif()
  set(CMAKE_CROSSCOMPILING_EMULATOR ${UA_QEMU_I386})
  if(why)
    message(STATUS "uaccess: i386 programs run under qemu-i386 (this kernel does not execute them: ${why})")
  else()
    message(STATUS "uaccess: i386 programs run under qemu-i386 (UA_I386_RUNNER=qemu)")
  endif()
else()
  unset(CMAKE_CROSSCOMPILING_EMULATOR)
  message(STATUS "uaccess: i386 programs run natively")
endif()
# What was decided, for .ci/run's summary and the tools
set(UA_I386_RUNS_UNDER ${runner} CACHE INTERNAL "How the i386 programs run: native or qemu")
