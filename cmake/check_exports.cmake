# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# cmake -DLIB=libmpi.so -P check_exports.cmake
# The library exports MPI_* and PMPI_* only (plus the linker's own symbols).
# Also fails when it exports no MPI_Init at all.
execute_process(COMMAND nm -D --defined-only "${LIB}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(bad "")
set(nmpi 0)
foreach(l IN LISTS lines)
  if(l MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ ]+)$")
    set(sym ${CMAKE_MATCH_1})
    string(REGEX REPLACE "@.*$" "" sym "${sym}")
    if(sym MATCHES "^P?MPI_")
      math(EXPR nmpi "${nmpi} + 1")
    elseif(NOT sym MATCHES "^(_init|_fini|_edata|_end|__bss_start|_ITM_.*|__gmon_start__)$")
      list(APPEND bad ${sym})
    endif()
  endif()
endforeach()
message("${nmpi} MPI_/PMPI_ symbols exported")
if(bad)
  list(LENGTH bad nbad)
  string(REPLACE ";" "\n  " shown "${bad}")
  message(FATAL_ERROR "FAIL: ${nbad} other symbols exported:\n  ${shown}")
endif()
if(nmpi EQUAL 0)
  message(FATAL_ERROR "FAIL: no MPI_ symbol exported at all")
endif()
execute_process(COMMAND nm -D --defined-only "${LIB}" OUTPUT_VARIABLE out)
if(NOT out MATCHES " MPI_Init\n" OR NOT out MATCHES " PMPI_Init\n")
  message(FATAL_ERROR "FAIL: MPI_Init or PMPI_Init is not exported")
endif()
message("PASS")
