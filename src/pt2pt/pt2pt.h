/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pt2pt.h - point-to-point messaging for the layers above (coll, comm, rma
 * later, and the binding's implementation functions).
 *
 * What it is. The one matching engine of the library, above the methods
 * (methods never match): per context id, a queue of posted receives and a
 * queue of unexpected messages, both in arrival order, with MPI_ANY_SOURCE
 * and MPI_ANY_TAG wildcards; and the protocols that move a message through
 * the peer's method (eager, rendezvous with single-copy get, pipelined
 * rendezvous). See docs/design/pt2pt.md.
 *
 * Lifecycle. xb_pt2pt_init() (after the methods are ready, before
 * COMM_WORLD exists) registers the active-message handlers (ids 1..15) and
 * the progress hook; xb_pt2pt_fini() (after the final barrier) drops queued
 * unexpected messages and the request pool.
 *
 * Contexts. Each communicator owns ctx (user point-to-point) and ctx + 1
 * (collectives): pass coll = 0 for the first, coll = 1 for the second, so
 * collective traffic never matches a user receive. Messages for a context
 * this process has not created yet are kept as unexpected until it has.
 *
 * Ranks. dest/source are ranks in `comm` (MPI_ANY_SOURCE, MPI_ANY_TAG and
 * MPI_PROC_NULL allowed where MPI allows them); arguments are NOT checked
 * here (the binding checks user calls; internal callers pass valid values).
 *
 * Buffers. The buffer belongs to the operation until its request completes;
 * the datatype is retained by the request.
 *
 * Requests. xb_pt2pt_isend/irecv hand back a request (from the pool of the
 * progress context; no malloc on the hot path). Wait for it with
 * xb_request_wait / xb_request_waitall (progress.h, included here), then
 * give it back with xb_request_release. A request completes by an atomic
 * flag: xb_request_is_done() takes no lock.
 *
 * Threading: called with the progress lock held (a no-op hook in issue 2).
 *
 * Returns: XB_OK, or a negative XB_ERR_* with detail recorded. A receive
 * that was truncated returns XB_ERR_TRUNCATE from the wait (the request's status.error
 * holds MPI_ERR_TRUNCATE); the part that fits was delivered.
 */
#ifndef XB_PT2PT_H
#define XB_PT2PT_H

#include "util/xb_common.h"
#include "core/core.h"
#include "core/request.h"
#include "datatype/datatype.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt_stats.h"

int  xb_pt2pt_init(void);
void xb_pt2pt_fini(void);

/* Nonblocking standard-mode send / receive. */
int xb_pt2pt_isend(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                   int tag, xb_comm_t *comm, int coll, xb_request_t **req_p);
int xb_pt2pt_irecv(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                   int tag, xb_comm_t *comm, int coll, xb_request_t **req_p);

/* A standard send done at once without a request, when it can be (a small
 * contiguous message to a peer with nothing queued before it): XB_OK (sent;
 * the buffer may be reused), XB_ERR_AGAIN (nothing sent: use a request), or
 * an error. */
int xb_pt2pt_send_eager_now(const void *buf, MPI_Count count, xb_datatype_t *dt,
                            int dest, int tag, xb_comm_t *comm, int coll);

/* Blocking forms (wait and release inside). st may be NULL. */
int xb_pt2pt_send(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                  int tag, xb_comm_t *comm, int coll);
int xb_pt2pt_recv(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                  int tag, xb_comm_t *comm, int coll, MPI_Status *st);
/* The same, and *len = the bytes the sender sent (more than the buffer
 * holds when the receive was truncated). */
int xb_pt2pt_recv_len(void *buf, MPI_Count count, xb_datatype_t *dt, int source,
                      int tag, xb_comm_t *comm, int coll, MPI_Status *st, size_t *len);

/* Any send mode (enum xb_send_mode in core/request.h). */
int xb_pt2pt_isend_mode(const void *buf, MPI_Count count, xb_datatype_t *dt,
                        int dest, int tag, xb_comm_t *comm, int coll, int mode,
                        xb_request_t **req_p);

/* Start an initialised send/receive request (persistent requests reuse it:
 * the fields buf/count/dt/comm/peer/tag/ctx/mode are already set). */
int xb_pt2pt_start(xb_request_t *req);

/* MPI_Cancel: a receive that has not matched yet, or a send whose message
 * the receiver has not matched yet (cancel.c). XB_OK either way; the status
 * of the completed request tells whether it was cancelled. */
int xb_pt2pt_cancel(xb_request_t *req);
/* MPI_Cancel of an MPI_Isendrecv request: both parts still pending (isendrecv.c). */
int xb_pt2pt_pair_cancel(xb_request_t *req);

/* For MPI_T (communicator-bound performance variables): the receives
 * posted (unexp false) or the messages waiting unexpected (true) now in a
 * communicator's point-to-point context (xb_comm_t.ctx, on its channel). */
uint64_t xb_pt2pt_queue_len(unsigned chan, uint32_t ctx, bool unexp);
/* For MPI_T: the counters of channel chan (0 the main one, k lane k of
 * several progress contexts); a fixed address, valid before init. */
const xb_pt2pt_stats_t *xb_pt2pt_chan_stats(unsigned chan);

/* MPI_Message handles: a message taken from the unexpected queue by
 * MPI_Mprobe/Improbe, received later by MPI_Mrecv/Imrecv. MPI_MESSAGE_NULL
 * and invalid handles give NULL; MPI_MESSAGE_NO_PROC is handled by callers. */
typedef struct xb_message xb_message_t;
xb_message_t *xb_message_from_handle(MPI_Message h);
MPI_Message   xb_message_to_handle(xb_message_t *m);

#endif
