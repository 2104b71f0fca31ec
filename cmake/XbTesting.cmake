# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Helpers for every tests/**/CMakeLists.txt (documented in docs/design/build.md).
#
#   xb_add_unit_test(NAME src... [TIMEOUT s] [LABELS l...])
#       plain C test linked with xb_internal (internal functions reachable);
#       ctest name as given (e.g. unit.queue); fails on a nonzero exit.
#   xb_add_mpi_program(TARGET src...)
#       an MPI program linked with the shared libmpi, like a user program.
#   xb_add_mpi_test(NAME PROG NP [TIMEOUT s] [ENV K=V...] [EXPECT_RC n]
#                   [XFAIL issue] [ARGS a...])
#       runs `mpiexec -n NP --timeout s PROG ARGS`; passes when the exit
#       status is EXPECT_RC (default 0) and the output contains "No Errors".
#   XB_MPIEXEC   path of our mpiexec (a generator expression)
#   XB_TEST_ENV  environment every test gets (sanitizer options)

if(TARGET mpiexec)
  set(XB_MPIEXEC $<TARGET_FILE:mpiexec>)
else()
  # No launcher yet: MPI tests are registered and fail, saying why.
  set(XB_MPIEXEC ${CMAKE_BINARY_DIR}/bin/mpiexec-was-not-built)
endif()

set(XB_TEST_ENV "")
if(XB_SANITIZE)
  list(APPEND XB_TEST_ENV
       "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1"
       "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

function(xb_add_unit_test name)
  cmake_parse_arguments(A "" "TIMEOUT" "LABELS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 60)
  endif()
  add_executable(${name} ${A_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE xb_internal)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${A_TIMEOUT}
                       LABELS "unit;${A_LABELS}" ENVIRONMENT "${XB_TEST_ENV}")
endfunction()

function(xb_add_mpi_program target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE mpi)
endfunction()

function(xb_add_mpi_test name prog np)
  cmake_parse_arguments(A "" "TIMEOUT;EXPECT_RC;XFAIL" "ENV;ARGS;LABELS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 60)
  endif()
  if("${A_EXPECT_RC}" STREQUAL "")
    set(A_EXPECT_RC 0)
  endif()
  if(TARGET ${prog})
    set(prog $<TARGET_FILE:${prog}>)
  endif()
  string(REPLACE ";" "\\;" args "${A_ARGS}")
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND}
                   -DMPIEXEC=${XB_MPIEXEC} -DNP=${np} -DTIMEOUT=${A_TIMEOUT}
                   -DEXPECT_RC=${A_EXPECT_RC} -DPROG=${prog} "-DARGS=${args}"
                   -P ${CMAKE_SOURCE_DIR}/cmake/run_mpi_test.cmake)
  math(EXPR ctest_timeout "${A_TIMEOUT} + 20")
  set(env ${XB_TEST_ENV} ${A_ENV})
  # PROCESSORS: ctest -j2 then never runs an 8-rank job beside another job.
  set_tests_properties(${name} PROPERTIES
      TIMEOUT ${ctest_timeout} PROCESSORS ${np}
      ENVIRONMENT "${env}" LABELS "mpi;${A_LABELS}")
  if(A_XFAIL)
    # A known failure is data: it must keep failing; a pass is reported.
    set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE LABELS "mpi;xfail;${A_LABELS}")
  endif()
endfunction()

# Parse every tests/mpi/<area>/testlist:
#   name nprocs [timeLimit=S] [env=K=V ...] [expect_rc=N] [xfail=ISSUE] [arg=A ...]
# Blank lines and '#' comments are skipped. Test name: mpi.<area>.<name>.<np>
# (a second line with the same name and np gets a suffix .v2, .v3, ...).
function(xb_add_mpi_testlists dir)
  file(GLOB lists CONFIGURE_DEPENDS ${dir}/*/testlist)
  set(common_srcs "")
  if(IS_DIRECTORY ${dir}/common)
    file(GLOB common_srcs CONFIGURE_DEPENDS ${dir}/common/*.c)
  endif()
  if(common_srcs)
    add_library(xb_mpitest_common STATIC ${common_srcs})
    target_link_libraries(xb_mpitest_common PUBLIC mpi)
    target_include_directories(xb_mpitest_common PUBLIC ${dir}/common)
  endif()
  foreach(list ${lists})
    get_filename_component(adir ${list} DIRECTORY)
    get_filename_component(area ${adir} NAME)
    # a changed testlist re-runs the configure step (new lines become tests)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list})
    # mpitests.<area>: builds the programs of one area (make tsan-test)
    if(NOT TARGET mpitests.${area})
      add_custom_target(mpitests.${area})
    endif()
    file(STRINGS ${list} lines)
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "#.*$" "" line "${line}")
      string(STRIP "${line}" line)
      if(line STREQUAL "")
        continue()
      endif()
      separate_arguments(words UNIX_COMMAND "${line}")
      list(LENGTH words nw)
      if(nw LESS 2)
        message(FATAL_ERROR "${list}: bad line '${line}' (want: name nprocs ...)")
      endif()
      list(GET words 0 tname)
      list(GET words 1 np)
      list(SUBLIST words 2 -1 opts)
      set(timeout "")
      set(env "")
      set(rc "")
      set(xfail "")
      set(targs "")
      foreach(o IN LISTS opts)
        if(o MATCHES "^timeLimit=([0-9]+)$")
          set(timeout ${CMAKE_MATCH_1})
        elseif(o MATCHES "^env=(.+)$")
          list(APPEND env "${CMAKE_MATCH_1}")
        elseif(o MATCHES "^expect_rc=([0-9]+)$")
          set(rc ${CMAKE_MATCH_1})
        elseif(o MATCHES "^xfail=(.+)$")
          set(xfail ${CMAKE_MATCH_1})
        elseif(o MATCHES "^arg=(.*)$")
          list(APPEND targs "${CMAKE_MATCH_1}")
        else()
          message(FATAL_ERROR "${list}: unknown option '${o}' in '${line}'")
        endif()
      endforeach()
      set(target mpi.${area}.${tname})
      if(NOT TARGET ${target})
        if(NOT EXISTS ${adir}/${tname}.c)
          message(FATAL_ERROR "${list}: no source ${area}/${tname}.c for '${line}'")
        endif()
        xb_add_mpi_program(${target} ${adir}/${tname}.c)
        add_dependencies(mpitests.${area} ${target})
        set_target_properties(${target} PROPERTIES OUTPUT_NAME ${tname}
            RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mpi/${area})
        if(TARGET xb_mpitest_common)
          target_link_libraries(${target} PRIVATE xb_mpitest_common)
        elseif(IS_DIRECTORY ${dir}/common)
          target_include_directories(${target} PRIVATE ${dir}/common)  # headers only
        endif()
      endif()
      set(name mpi.${area}.${tname}.${np})
      set(n 1)
      set(base ${name})
      while(TEST ${name})
        math(EXPR n "${n} + 1")
        set(name ${base}.v${n})
      endwhile()
      xb_add_mpi_test(${name} ${target} ${np} TIMEOUT ${timeout} ENV ${env}
                      EXPECT_RC ${rc} XFAIL ${xfail} ARGS ${targs} LABELS ${area})
    endforeach()
  endforeach()
endfunction()
