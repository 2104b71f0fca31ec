/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma.h - one-sided communication (MPI 4.1 chapter 12): windows and the
 * operations on them. The MPI functions themselves are the xb_impl_win_*,
 * xb_impl_put ... of this layer (declared in the generated xb_impl.h).
 *
 * Lifecycle. xb_rma_init() (MPI_Init, after pt2pt) registers the active
 * message handler (id XB_RMA_AM) and the progress hook that retries queued
 * sends; xb_rma_fini() (MPI_Finalize, after the final barrier) drops what
 * is left: windows the user did not free (the standard makes that
 * erroneous, we free their memory) and queued messages.
 *
 * Windows. A window (xb_win_t) is made collectively over an
 * intracommunicator (retained for its life) and lives until MPI_Win_free.
 * Its handle is the object's address; its first word is a magic number
 * (XB_MAGIC_FREED after free), so a freed handle is reported as such.
 *
 * Threading: every function runs under the progress lock (the generated
 * bindings take it); waits drop it (docs/design/threads.md).
 *
 * Ownership: buffers given to an RMA call belong to the operation until it
 * completes (its epoch ends, a flush, or its request completes).
 *
 * Returns: XB_OK or a negative XB_ERR_* / XB_RMA_ERR_* (detail recorded).
 */
#ifndef XB_RMA_H
#define XB_RMA_H

#include "util/xb_common.h"
#include "core/core.h"

typedef struct xb_win xb_win_t;

int  xb_rma_init(void);
void xb_rma_fini(void);

xb_win_t *xb_win_from_handle(MPI_Win h);   /* NULL: null, freed, garbage */
MPI_Win   xb_win_to_handle(xb_win_t *w);
/* The binding's error path for calls on a window (the window's handler). */
int       xb_errh_raise_win(xb_win_t *win, const char *fn, int rc);

#endif
