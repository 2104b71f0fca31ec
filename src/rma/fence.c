/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * fence.c - active target synchronisation with MPI_Win_fence, and the
 * local-memory call MPI_Win_sync.
 *
 * A fence waits until every operation this process issued on the window
 * is answered (so it is applied at its target), then runs the window
 * barrier: when any process leaves it, every operation on the window from
 * before the fence is applied. The access/exposure epoch stays open after
 * a fence unless it says MPI_MODE_NOSUCCEED.
 */
#include <stdatomic.h>
#include "rma/rma_int.h"
#include "xb_impl.h"

bool xb_rma_valid_assert(int a, int allowed)
{
    return (a & ~allowed) == 0;
}

int xb_impl_win_fence(int assert, xb_win_t *win)
{
    const int ok = MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                   MPI_MODE_NOSUCCEED;
    if (!xb_rma_valid_assert(assert, ok))
        return xb_err_set(XB_RMA_ERR_ASSERT, "invalid argument assert: 0x%x (a fence "
                          "takes MPI_MODE_NOSTORE, NOPUT, NOPRECEDE, NOSUCCEED)",
                          (unsigned)assert);
    if (win->nlocked > 0 || win->lock_all || win->start_grp != NULL ||
        win->post_grp != NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "a fence inside a %s epoch",
                          win->start_grp != NULL || win->post_grp != NULL ?
                          "post/start/complete/wait" : "lock");
    int rc = xb_rma_flush(win, -1);
    int brc = xb_rma_barrier(win);
    win->fence_open = !(assert & MPI_MODE_NOSUCCEED);
    return rc != XB_OK ? rc : brc;
}

/* A full memory barrier, and one poll: a rank that spins on its own
 * window memory with MPI_Win_sync must apply the puts that it waits for
 * (they reach it as messages). */
int xb_impl_win_sync(xb_win_t *win)
{
    (void)win;
    atomic_thread_fence(memory_order_seq_cst);
    xb_progress_poll(xb_progress_default());
    atomic_thread_fence(memory_order_seq_cst);
    return XB_OK;
}
