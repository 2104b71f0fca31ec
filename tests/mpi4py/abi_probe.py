# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# What mpi4py's binary wheel does before it imports its extension module
# (mpi4py/_mpiabi.py): dlopen libmpi.so from a library directory, require
# MPI_Get_version, call MPI_Abi_get_version(&major, &minor) before
# MPI_Init, and pick the "mpiabi" variant when major > 0. This checks that
# our library answers those calls as the MPI 5.0 standard ABI requires, and
# reports (without failing) the ABI functions a standard-ABI build of mpi4py
# references that we do not export yet.
#
# usage: python3 abi_probe.py LIBDIR     exit 0 when the required checks pass
import ctypes as ct
import os
import sys

failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok: " if ok else "FAIL: ") + what + (f" ({detail})" if detail else ""))
    if not ok:
        failures += 1


libdir = sys.argv[1]
for name in ("libmpi.so", "libmpi_abi.so"):
    path = os.path.join(libdir, name)
    lib = ct.CDLL(path, os.RTLD_LAZY | os.RTLD_LOCAL)
    check(f"{name}: MPI_Get_version exported", hasattr(lib, "MPI_Get_version"))
    f = getattr(lib, "MPI_Abi_get_version", None)
    check(f"{name}: MPI_Abi_get_version exported", f is not None)
    if f is None:
        continue
    f.restype = ct.c_int
    f.argtypes = [ct.POINTER(ct.c_int)] * 2
    major, minor = ct.c_int(-7), ct.c_int(-7)
    rc = f(ct.byref(major), ct.byref(minor))
    check(f"{name}: MPI_Abi_get_version before MPI_Init returns MPI_SUCCESS", rc == 0, f"rc={rc}")
    check(f"{name}: ABI version is 1.0 (mpi4py selects its 'mpiabi' variant)",
          (major.value, minor.value) == (1, 0), f"{major.value}.{minor.value}")
    v = getattr(lib, "MPI_Get_version")
    v.argtypes = [ct.POINTER(ct.c_int)] * 2
    vmaj, vmin = ct.c_int(0), ct.c_int(0)
    check(f"{name}: MPI_Get_version is 5.0", v(ct.byref(vmaj), ct.byref(vmin)) == 0 and
          (vmaj.value, vmin.value) == (5, 0), f"{vmaj.value}.{vmin.value}")
    # The wheel's loader tells Open MPI from MPICH by this symbol: never ours.
    check(f"{name}: not mistaken for Open MPI", not hasattr(lib, "ompi_mpi_comm_self"))

# Handle conversions of the standard ABI: a predefined handle converts to its
# ABI integer value and back (MPI_COMM_WORLD is 257 in the standard ABI).
lib = ct.CDLL(os.path.join(libdir, "libmpi_abi.so"), os.RTLD_LAZY | os.RTLD_LOCAL)
toint, fromint = lib.MPI_Comm_toint, lib.MPI_Comm_fromint
toint.restype, toint.argtypes = ct.c_int, [ct.c_void_p]
fromint.restype, fromint.argtypes = ct.c_void_p, [ct.c_int]
check("MPI_Comm_toint(MPI_COMM_WORLD) == 257", toint(257) == 257, str(toint(257)))
check("MPI_Comm_fromint(257) == MPI_COMM_WORLD", fromint(257) == 257, str(fromint(257)))

# Not required yet: reported so that the list shrinks visibly.
for sym in ("MPI_Abi_get_info", "MPI_Abi_get_fortran_info", "MPI_Abi_set_fortran_info",
            "MPI_Abi_get_fortran_booleans", "MPI_Abi_set_fortran_booleans",
            "MPI_File_toint", "MPI_File_fromint", "MPI_Win_toint", "MPI_Win_fromint",
            "MPI_Session_toint", "MPI_Session_fromint"):
    if not hasattr(lib, sym):
        print(f"note: {sym} not exported yet")

sys.exit(1 if failures else 0)
