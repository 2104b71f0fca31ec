# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Build options and the flags every target of the tree is compiled with.
#   -DXB_SANITIZE=address,undefined   ASan+UBSan for everything (make asan-test)
#   -DXB_SANITIZE=thread              ThreadSanitizer (make tsan-test)
#   -DXB_WERROR=OFF                   keep warnings as warnings (default ON)

set(XB_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
option(XB_WERROR "Treat warnings as errors" ON)
option(XB_LTO "Link-time optimisation (off in sanitizer builds)" ON)

# Flags fixed by the house rules (HACKING.md); no CMAKE_BUILD_TYPE games.
if(NOT CMAKE_BUILD_TYPE)
  set(XB_BUILD_TYPE "default (-O2 -g)")
else()
  set(XB_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
endif()
add_compile_options(-O2 -g -D_GNU_SOURCE)

# Constant-size memset and memcpy of a few hundred bytes (a request taken
# from the pool, a collective's arguments): gcc's x86-64 default is
# `rep stos` / `rep movs`, whose start-up was three quarters of
# xb_request_alloc_chan and 19% of a 2-rank message-rate loop (AMD EPYC,
# perf, 2026-12-07). Inline vector stores up to 512 bytes, libc's
# memset/memcpy beyond. On the link line too: with -flto the code is made
# there.
include(CheckCCompilerFlag)
set(XB_STRING_OPS_FLAGS "")
set(xb_strategy "vector_loop:512:noalign,libcall:-1:noalign")
check_c_compiler_flag("-mmemset-strategy=${xb_strategy}" XB_HAVE_STRING_STRATEGY)
if(XB_HAVE_STRING_STRATEGY)
  set(XB_STRING_OPS_FLAGS -mmemset-strategy=${xb_strategy} -mmemcpy-strategy=${xb_strategy})
  add_compile_options(${XB_STRING_OPS_FLAGS})
  add_link_options(${XB_STRING_OPS_FLAGS})
endif()
set(XB_WARN_FLAGS -Wall -Wextra)
if(XB_WERROR)
  list(APPEND XB_WARN_FLAGS -Werror)
endif()
# Test programs and tools get the same warnings as the library.
add_compile_options(${XB_WARN_FLAGS})

set(XB_SANITIZE_FLAGS "")
if(XB_SANITIZE)
  set(XB_SANITIZE_FLAGS -fsanitize=${XB_SANITIZE} -fno-omit-frame-pointer)
  if(XB_SANITIZE MATCHES "undefined")
    # A UBSan finding must fail the test, not scroll by.
    list(APPEND XB_SANITIZE_FLAGS -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${XB_SANITIZE_FLAGS})
  add_link_options(${XB_SANITIZE_FLAGS})
  if(XB_SANITIZE MATCHES "thread")
    # The shm method's seq_cst fences order stores between processes (shared
    # memory); TSan models the threads of one process and cannot check
    # them, and gcc warns (-Wtsan) at every fence.
    add_compile_options(-Wno-tsan)
  endif()
endif()

# Link-time optimisation: the hot paths cross many small files (binding,
# pt2pt, method, request pool, datatype queries), and without it every
# accessor is a call. 64-message windows of 1-byte Isends: 734 -> 609
# instructions a message on the sender (callgrind, 2026-11-24). Not in the
# sanitizer builds, which check correctness and should build fast.
set(XB_LTO_FLAG "")
if(XB_LTO AND NOT XB_SANITIZE)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT xb_ipo_ok OUTPUT xb_ipo_why LANGUAGES C)
  if(xb_ipo_ok)
    set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
    set(XB_LTO_FLAG "-flto")
    if(NOT CMAKE_BUILD_TYPE)
      set(XB_BUILD_TYPE "default (-O2 -g -flto)")
    endif()
  else()
    message(STATUS "Crossbar: link-time optimisation not available here (${xb_ipo_why})")
  endif()
endif()

# What crossbar-info reports as "build options".
string(REPLACE ";" " " XB_SANITIZE_FLAGS_STR "${XB_SANITIZE_FLAGS}")
string(REPLACE ";" " " XB_STRING_OPS_FLAGS_STR "${XB_STRING_OPS_FLAGS}")
set(XB_BUILD_CFLAGS
    "-std=gnu11 -O2 -g ${XB_LTO_FLAG} ${XB_STRING_OPS_FLAGS_STR} -Wall -Wextra -fvisibility=hidden -fPIC -D_GNU_SOURCE ${XB_SANITIZE_FLAGS_STR}")
if(XB_WERROR)
  string(REPLACE "-Wextra" "-Wextra -Werror" XB_BUILD_CFLAGS "${XB_BUILD_CFLAGS}")
endif()
string(REGEX REPLACE "  +" " " XB_BUILD_CFLAGS "${XB_BUILD_CFLAGS}")
string(STRIP "${XB_BUILD_CFLAGS}" XB_BUILD_CFLAGS)
if(XB_SANITIZE)
  set(XB_SANITIZE_DESC "${XB_SANITIZE}")
else()
  set(XB_SANITIZE_DESC "none")
endif()
