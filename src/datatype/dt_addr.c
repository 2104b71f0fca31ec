/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_addr.c - MPI_Aint_add and MPI_Aint_diff, hand-written because they
 * return MPI_Aint (the generator marks them custom). Addresses are
 * integers here, as MPI_Get_address produces them: adding a displacement to
 * an absolute address (or to MPI_BOTTOM's 0) is integer arithmetic, done in
 * unsigned so that no address wraps into undefined behaviour. Callable
 * before MPI_Init and after MPI_Finalize (they touch no state).
 */
#include "util/xb_common.h"

XB_EXPORT MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

XB_EXPORT MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

XB_EXPORT MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
    __attribute__((weak, alias("PMPI_Aint_add")));
XB_EXPORT MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
    __attribute__((weak, alias("PMPI_Aint_diff")));
