# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# The binding layer is generated from the MPI Forum's API data (pympistandard)
# by tools/gen_bindings.py for the functions in spec/implemented.txt (see
# spec/binding.md). Outputs go to <build>/gen: binding_*.c, xb_impl.h,
# mpi_proto.h (included by include/mpi.h).
#
# At configure time `--list` names the outputs; the generator itself runs at
# build time whenever the spec or the generator changes (a custom command
# with a stamp; it rewrites only files whose content changes). A new or
# renamed output is picked up because those files also re-run the configure
# step.

find_program(XB_PYTHON NAMES python3 REQUIRED)

function(xb_generate_bindings out_var)
  set(gen  ${CMAKE_SOURCE_DIR}/tools/gen_bindings.py)
  set(spec ${CMAKE_SOURCE_DIR}/spec/implemented.txt)
  set(out  ${CMAKE_BINARY_DIR}/gen)
  file(MAKE_DIRECTORY ${out})
  # Globs with CONFIGURE_DEPENDS: the configure step re-runs when the
  # generator or the spec appears, or when any of them changes.
  file(GLOB gen_inputs CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/tools/gen_bindings*.py
       ${CMAKE_SOURCE_DIR}/tools/gen_bindings/*
       ${CMAKE_SOURCE_DIR}/spec/*.txt)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY
               CMAKE_CONFIGURE_DEPENDS ${gen_inputs})
  if(NOT EXISTS ${gen} OR NOT EXISTS ${spec})
    message(WARNING "Crossbar: tools/gen_bindings.py or spec/implemented.txt "
                    "is missing: building without the generated binding layer")
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  set(cmd ${XB_PYTHON} ${gen} --spec ${spec} --out ${out})
  # --list names the outputs without writing them (spec/binding.md).
  execute_process(COMMAND ${cmd} --list RESULT_VARIABLE rc
                  OUTPUT_VARIABLE listed ERROR_VARIABLE se
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  if(NOT rc EQUAL 0)
    message(WARNING "Crossbar: the binding generator failed (${rc}):\n${se}")
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  string(STRIP "${listed}" listed)
  string(REPLACE "\n" ";" gen_all "${listed}")
  set(gen_c ${gen_all})
  list(FILTER gen_c INCLUDE REGEX "\\.c$")
  add_custom_command(
    OUTPUT ${out}/gen.stamp
    BYPRODUCTS ${gen_all}
    COMMAND ${cmd}
    COMMAND ${CMAKE_COMMAND} -E touch ${out}/gen.stamp
    DEPENDS ${gen_inputs}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "Generating the binding layer from spec/implemented.txt"
    VERBATIM)
  add_custom_target(xb_gen DEPENDS ${out}/gen.stamp)
  set(${out_var} ${gen_c} PARENT_SCOPE)
endfunction()
