/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ct_pvar.h - an MPI_T counter read by name, for tests that check what the
 * library did (e.g. that no message went through the unexpected queue).
 * The includer defines CHECK_RC(call) (ctest.h, ptest.h) first.
 */
#ifndef CT_PVAR_H
#define CT_PVAR_H

#include "mpi.h"

/* The started counter `name` in session ses; MPI_T_PVAR_HANDLE_NULL when
 * this MPI has no such counter. */
static inline MPI_T_pvar_handle ct_pvar_counter(MPI_T_pvar_session ses, const char *name)
{
    int idx = -1, count = 0;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    CHECK_RC(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx));
    if (idx < 0)
        return h;
    CHECK_RC(MPI_T_pvar_handle_alloc(ses, idx, NULL, &h, &count));
    CHECK_RC(MPI_T_pvar_start(ses, h));
    return h;
}

/* Its value (0 for the null handle). */
static inline unsigned long long ct_pvar_read(MPI_T_pvar_session ses, MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    if (h != MPI_T_PVAR_HANDLE_NULL)
        CHECK_RC(MPI_T_pvar_read(ses, h, &v));
    return v;
}

#endif
