# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Install layout (relocatable: nothing below records the prefix):
#   bin/      mpicc mpicxx mpiexec mpirun->mpiexec crossbar-info
#   include/  mpi.h mpi_proto.h
#   lib/      libmpi.so.0.1.0 libmpi.so.0 libmpi.so libmpi_abi.so
#   lib/pkgconfig/  mpi.pc mpi-c.pc crossbar.pc  (paths from ${pcfiledir})
# The lib directory is plain "lib" (not lib/x86_64-linux-gnu): the wrappers
# and the .pc files compute it from their own location.
set(XB_LIBDIR lib)

install(TARGETS mpi LIBRARY DESTINATION ${XB_LIBDIR})
install(CODE "
  file(CREATE_LINK libmpi.so.${PROJECT_VERSION_MAJOR}
       \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${XB_LIBDIR}/libmpi_abi.so SYMBOLIC)
  message(STATUS \"Installing: \${CMAKE_INSTALL_PREFIX}/${XB_LIBDIR}/libmpi_abi.so\")")

install(FILES ${CMAKE_SOURCE_DIR}/include/mpi.h DESTINATION include OPTIONAL)
install(FILES ${CMAKE_BINARY_DIR}/gen/mpi_proto.h DESTINATION include OPTIONAL)

foreach(pc mpi mpi-c crossbar)
  set(XB_PC_NAME ${pc})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/crossbar.pc.in
                 ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/${pc}.pc
          DESTINATION ${XB_LIBDIR}/pkgconfig)
endforeach()

# bin/mpiexec is installed by launcher/CMakeLists.txt; mpirun is a link to it.
if(TARGET mpiexec)
  install(CODE "
    file(CREATE_LINK mpiexec \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/bin/mpirun SYMBOLIC)
    message(STATUS \"Installing: \${CMAKE_INSTALL_PREFIX}/bin/mpirun -> mpiexec\")")
endif()
