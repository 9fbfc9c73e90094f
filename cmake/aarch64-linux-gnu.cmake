# SPDX-License-Identifier: MIT
# aarch64 cross build (Debian: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross);
# ctest runs the programs under qemu-user (Debian: qemu-user).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(UA_CROSS_PREFIX aarch64-linux-gnu-)
set(UA_CROSS_SYSROOT /usr/aarch64-linux-gnu)

if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER ${UA_CROSS_PREFIX}gcc)
endif()
set(CMAKE_FIND_ROOT_PATH ${UA_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(UA_QEMU_AARCH64 qemu-aarch64)
if(NOT UA_QEMU_AARCH64)
  find_program(UA_QEMU_AARCH64 qemu-aarch64-static)
endif()
if(UA_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${UA_QEMU_AARCH64} -L ${UA_CROSS_SYSROOT})
else()
  message(WARNING "uaccess: qemu-aarch64 not found (Debian: qemu-user): "
                  "the tests will build but cannot run on this host")
endif()
