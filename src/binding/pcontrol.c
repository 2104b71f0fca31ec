/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pcontrol.c - MPI_Pcontrol, hand-written because it takes varargs (the
 * generator marks it custom).
 *
 * The standard defines MPI_Pcontrol for profiling libraries that intercept
 * it through the PMPI_ interface; the MPI library itself makes no use of
 * the call and returns at once. Crossbar has no built-in profiling layer,
 * so PMPI_Pcontrol does nothing for every level (0 disables, 1 is the
 * default, 2 flushes in a profiler; other values are the profiler's) and
 * returns MPI_SUCCESS, with no init-state check: a profiler's wrapper may
 * be called at any time and forwards here.
 */
#include "util/xb_common.h"

XB_EXPORT int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}

XB_EXPORT int MPI_Pcontrol(const int level, ...) __attribute__((weak, alias("PMPI_Pcontrol")));
