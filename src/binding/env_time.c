/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * env_time.c - MPI_Wtime and MPI_Wtick, hand-written because they return
 * double (the generator marks them custom). CLOCK_MONOTONIC: never jumps
 * with the wall clock, and works before MPI_Init and after MPI_Finalize.
 */
#include <time.h>
#include "util/xb_common.h"

XB_EXPORT double PMPI_Wtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

XB_EXPORT double PMPI_Wtick(void)
{
    struct timespec res;

    if (clock_getres(CLOCK_MONOTONIC, &res) != 0 || (res.tv_sec == 0 && res.tv_nsec == 0))
        return 1e-9;
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}

XB_EXPORT double MPI_Wtime(void) __attribute__((weak, alias("PMPI_Wtime")));
XB_EXPORT double MPI_Wtick(void) __attribute__((weak, alias("PMPI_Wtick")));
