/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* mpit_util.h - helpers of the MPI_T tests (header only, with ctest.h). */
#ifndef MPIT_UTIL_H
#define MPIT_UTIL_H

#include <stdbool.h>
#include "ctest.h"

#define CHECK_T(call, want)                                                  \
    do {                                                                     \
        int rc_ = (call);                                                    \
        CHECK(rc_ == (want), "%s returned %d, expected %s (%d)", #call, rc_, \
              #want, (int)(want));                                           \
    } while (0)

/* Index of the cvar called name (-1 if absent, and a failure). */
static inline int cvar_index(const char *name)
{
    int idx = -1;
    int rc = MPI_T_cvar_get_index(name, &idx);
    CHECK(rc == MPI_SUCCESS, "MPI_T_cvar_get_index(%s) returned %d", name, rc);
    return rc == MPI_SUCCESS ? idx : -1;
}

/* Index of the pvar called name of class cls (-1 if absent, a failure). */
static inline int pvar_index(const char *name, int cls)
{
    int idx = -1;
    int rc = MPI_T_pvar_get_index(name, cls, &idx);
    CHECK(rc == MPI_SUCCESS, "MPI_T_pvar_get_index(%s) returned %d", name, rc);
    return rc == MPI_SUCCESS ? idx : -1;
}

/* A handle on cvar `name` (NULL handle on failure). */
static inline MPI_T_cvar_handle cvar_handle(const char *name, int *count)
{
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    int idx = cvar_index(name);
    if (idx >= 0)
        CHECK_T(MPI_T_cvar_handle_alloc(idx, NULL, &h, count), MPI_SUCCESS);
    return h;
}

static inline unsigned long long read_pvar(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK_T(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    return v;
}

#endif
