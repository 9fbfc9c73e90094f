# SPDX-License-Identifier: MIT
# i386 with the host's gcc -m32 (Debian: gcc-12-multilib).  The binaries run
# natively on an x86-64 kernel, so no emulator is needed.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)

if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER gcc)
endif()
set(CMAKE_C_FLAGS_INIT "-m32")
set(CMAKE_ASM_FLAGS_INIT "-m32")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")

# Debian's gcc-multilib adds only the symlink /usr/include/asm ->
# x86_64-linux-gnu/asm, and it conflicts with every cross compiler (so with
# the aarch64 one).  Without it, find the kernel's bi-arch asm headers last.
if(NOT EXISTS /usr/include/asm AND EXISTS /usr/include/x86_64-linux-gnu/asm)
  string(APPEND CMAKE_C_FLAGS_INIT " -idirafter /usr/include/x86_64-linux-gnu")
  string(APPEND CMAKE_ASM_FLAGS_INIT " -idirafter /usr/include/x86_64-linux-gnu")
endif()

set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
