/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * win_shared.c - shared-memory windows (MPI_Win_allocate_shared,
 * MPI_Win_shared_query).
 */
#include <sys/mman.h>
#include "rma/rma_int.h"

void xb_rma_shared_unmap(xb_win_t *w)
{
    if (w->shm_map != NULL)
        munmap(w->shm_map, w->shm_len);
    w->shm_map = NULL;
}
