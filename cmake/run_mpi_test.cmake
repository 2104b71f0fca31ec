# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Runs one MPI test (cmake -P): mpiexec -n NP --timeout TIMEOUT PROG ARGS.
# Passes when the exit status equals EXPECT_RC and the output holds
# "No Errors". ctest's own TIMEOUT is a little longer, as a backstop.
foreach(v MPIEXEC NP TIMEOUT EXPECT_RC PROG)
  if("${${v}}" STREQUAL "")
    message(FATAL_ERROR "run_mpi_test: -D${v}= is missing")
  endif()
endforeach()
if(NOT EXISTS "${MPIEXEC}")
  message(FATAL_ERROR "FAIL: ${MPIEXEC} does not exist (the launcher was not built)")
endif()
math(EXPR hard "${TIMEOUT} + 10")
set(cmd "${MPIEXEC}" -n ${NP} --timeout ${TIMEOUT} "${PROG}" ${ARGS})
string(REPLACE ";" " " shown "${cmd}")
message("+ ${shown}")
execute_process(COMMAND ${cmd}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
                TIMEOUT ${hard})
message("${out}")
set(fail "")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  set(fail "exit status ${rc}, expected ${EXPECT_RC}")
endif()
if(NOT out MATCHES "No Errors")
  if(fail)
    string(APPEND fail "; ")
  endif()
  string(APPEND fail "no 'No Errors' in the output")
endif()
if(fail)
  message(FATAL_ERROR "FAIL: ${fail}")
endif()
message("PASS (exit status ${rc})")
