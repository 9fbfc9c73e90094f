# SPDX-License-Identifier: MIT
# cmake -DIN=offsets.s -DOUT=offsets.h -P offsets.cmake
# The markers of src/api/offsets.c, compiled to assembly (IN: lines holding
# '->NAME VALUE'), as the #defines of a header (OUT), rewritten only when
# it changes.
file(STRINGS "${IN}" lines REGEX "->[A-Z_0-9]+ -?[0-9]+")
if(NOT lines)
  message(FATAL_ERROR "offsets.cmake: no '->NAME VALUE' markers in ${IN}: "
                      "was src/api/offsets.c compiled with -S?")
endif()
set(text "/* Generated from src/api/offsets.c by cmake/offsets.cmake: do not edit */\n")
string(APPEND text "#ifndef UA_OFFSETS_H\n#define UA_OFFSETS_H\n\n")
foreach(line IN LISTS lines)
  string(REGEX MATCH "->([A-Z_0-9]+) (-?[0-9]+)" m "${line}")
  string(APPEND text "#define ${CMAKE_MATCH_1} ${CMAKE_MATCH_2}\n")
endforeach()
string(APPEND text "\n#endif\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
