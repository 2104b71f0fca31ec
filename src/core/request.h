/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * request.h - the request object, its pool, handles and statuses.
 *
 * Lifecycle. A request comes from the pool of the progress context
 * (xb_request_alloc: no malloc on the hot path; the pool grows by slabs on
 * the slow path) and goes back with xb_request_free once it is complete and
 * nobody needs it any more:
 *   - user requests (MPI_Isend ...): freed by MPI_Wait/MPI_Test when they
 *     report completion, or by MPI_Request_free (at completion if still busy);
 *   - persistent requests (MPI_Send_init ...): inactive after completion,
 *     freed only by MPI_Request_free;
 *   - internal requests (collectives, Bsend's copy): freed by the layer that
 *     made them, with xb_request_release (pt2pt.h), or detached with
 *     XB_REQ_F_AUTOFREE so they free themselves when they complete.
 *
 * Completion. `done` is an atomic flag, written last (release) by the layer
 * that completes the request, after every status field is final; readers
 * load it with acquire and need no lock (MPI_Test on a done request is a
 * load and a status copy). A persistent request is re-armed by MPI_Start,
 * which clears `done`. A persistent request's `active` is atomic too:
 * 0 inactive, 1 started, XB_REQ_COMPLETING inside xb_request_complete
 * (whose hook may restart it); the completion stores done = 1, then
 * active = 0, both release, so a reader without the lock loads done,
 * then active, then done again (all acquire): done 1 is complete, active 0
 * with done still 0 is inactive (docs/design/threads.md "Lock-free calls",
 * progress/wait_fast.c classify).
 *
 * Freeing without the lock. xb_request_free_deferred (any thread, no
 * lock) marks a reported request freed (magic: a stale copy of its handle
 * is MPI_ERR_REQUEST, as below MULTIPLE) and pushes it on its channel's
 * deferred stack; the real xb_request_free (references, ops->destroy, pool)
 * runs under the channel's lock at the next poll of that channel
 * (xb_request_drain: one load when the stack is empty), when its pool runs
 * empty, before a context-id agreement and at MPI_Finalize
 * (xb_request_drain_all).
 *
 * After completion. Nothing touches a user request (one whose handle the
 * application holds) after xb_request_complete returns, nor, inside it,
 * after its `done` store (the completer reads what it needs first, as
 * complete_mt reads chan): from that store on, the owner may report it
 * without the lock, and the report's deferred free may run in any
 * critical section of the channel, the completer's own included (its
 * next poll or allocation drains). Persistent requests are the one
 * exception, inside xb_request_complete only: active = 0 after done = 1
 * (a persistent request is not freed by a report).
 *
 * References. A request holds a datatype reference (xb_dt_retain) while it
 * lives, since it may still touch the user's buffer through the type, and a
 * communicator reference (xb_comm_retain, taken by whoever sets req->comm):
 * MPI_Comm_free lets pending operations complete, and the communicator's
 * context id must not be reused (by a new communicator, whose messages the
 * pending receive would match) until the last request using it is freed.
 *
 * Threading: called with the progress lock held (under MPI_THREAD_MULTIPLE;
 * docs/design/threads.md), except xb_request_is_done(),
 * xb_request_active() and xb_request_free_deferred(), which are lock-free.
 * Under MULTIPLE, xb_request_complete calls xb_request_mt_completed (set by
 * the progress layer) so threads asleep waiting are woken.
 *
 * MPI_Status (MPI 5.0 ABI: 8 ints). MPI_SOURCE, MPI_TAG, MPI_ERROR are the
 * first three; of the five internal ints we use:
 *   [3] low 32 bits of the received byte count
 *   [4] high 32 bits of the received byte count
 *   [5] cancelled flag (0/1)
 *   [6], [7] unused (zero)
 * so MPI_Get_count, MPI_Get_elements and MPI_Test_cancelled work on any
 * status the library produced, 64-bit counts included.
 */
#ifndef XB_REQUEST_H
#define XB_REQUEST_H

#include <stdatomic.h>
#include "util/xb_common.h"
#include "core/core.h"
#include "datatype/datatype.h"
#include "method/method.h"

/* What a request is. Generalized and collective requests are later issues;
 * their kinds are reserved so the Wait family can dispatch on them. */
typedef enum xb_req_kind {
    XB_REQ_SEND = 1,      /* nonblocking send (any mode)            */
    XB_REQ_RECV,          /* nonblocking receive                   */
    XB_REQ_PSEND,         /* persistent send (MPI_Send_init ...)   */
    XB_REQ_PRECV,         /* persistent receive (MPI_Recv_init)    */
    XB_REQ_GREQ,          /* generalized (later)                   */
    XB_REQ_COLL,          /* collective (later)                    */
    XB_REQ_PAIR,          /* MPI_Isendrecv[_replace]: a receive and a send (pt2pt/isendrecv.c) */
    XB_REQ_RMA,           /* MPI_Rput ...: completed by the last answer (src/rma) */
} xb_req_kind_t;

/* Send modes (also the protocol chooser's `mode` argument). */
enum xb_send_mode {
    XB_MODE_STANDARD = 0, XB_MODE_SYNC = 1, XB_MODE_READY = 2, XB_MODE_BUFFERED = 3,
};

enum xb_req_flags {
    XB_REQ_F_AUTOFREE  = 1u << 0,  /* free itself when it completes         */
    XB_REQ_F_INTERNAL  = 1u << 1,  /* made by the library, never a handle   */
    XB_REQ_F_POSTED    = 1u << 2,  /* receive sits in the posted queue      */
    XB_REQ_F_USERFREED = 1u << 3,  /* MPI_Request_free on a busy request    */
    XB_REQ_F_CANCEL    = 1u << 4,  /* send: a CANCEL went to the receiver   */
    XB_REQ_F_WAITED    = 1u << 5,  /* receive a caller blocks on: its match
                                      calls xb_am_yield (method.h)        */
    XB_REQ_F_GETS_OUT  = 1u << 6,  /* send: counted in its peer's gets_out
                                      (pt2pt/proto.h) until it completes  */
};

/* Status as the library keeps it; converted to MPI_Status on the way out. */
typedef struct xb_status {
    int       source;     /* comm rank, MPI_ANY_SOURCE before a match     */
    int       tag;
    int       error;      /* MPI error class, MPI_SUCCESS normally         */
    bool      cancelled;
    MPI_Count count;      /* bytes received                               */
} xb_status_t;

typedef struct xb_request xb_request_t;

/* Requests that are not point-to-point (collective schedules, issue 5) carry
 * their own operations: start re-arms a persistent one (MPI_Start), destroy
 * releases what the owner attached (called by xb_request_free). */
typedef struct xb_req_ops {
    int  (*start)(xb_request_t *req);
    void (*destroy)(xb_request_t *req);
    /* the sentence of a request that failed (its status.error), or NULL:
     * what the wait reports (may be NULL) */
    const char *(*errtext)(const xb_request_t *req);
} xb_req_ops_t;

/* A queue entry of the matching engine (src/pt2pt/match.h): the receive
 * pattern of a posted receive, or the envelope of an unexpected message. */
typedef struct xb_mq_item {
    struct xb_mq_item *next;
    int32_t            src;   /* comm rank, or MPI_ANY_SOURCE (posted only) */
    int32_t            tag;   /* or MPI_ANY_TAG (posted only)               */
    uint32_t           seq;   /* order in its context's queues (match.h)   */
} xb_mq_item_t;

struct xb_request {
    uint32_t        magic;       /* XB_MAGIC_REQ; XB_MAGIC_FREED when pooled */
    uint8_t         kind;        /* xb_req_kind_t                             */
    uint8_t         mode;        /* xb_send_mode for sends                    */
    uint8_t         persistent;  /* PSEND/PRECV                               */
    atomic_uchar    active;      /* persistent: 0 inactive, 1 started,
                                    XB_REQ_COMPLETING (xb_request_complete) */
    atomic_uint     done;        /* 1 = complete (release store)              */
    uint32_t        flags;       /* xb_req_flags                              */
    xb_status_t     status;

    /* the operation, as the user gave it */
    void           *buf;
    MPI_Count       count;
    xb_datatype_t  *dt;          /* retained while the request lives         */
    xb_comm_t      *comm;        /* retained while the request lives, or NULL */
    int             peer;        /* comm rank (dest or source; may be ANY)   */
    int             tag;         /* may be MPI_ANY_TAG for receives          */
    uint32_t        ctx;         /* comm->ctx or comm->ctx + 1               */
    uint8_t         chan;        /* pool and channel: 0 main, k lane k
                                    (docs/design/threads.md; in a hole)    */
    const char     *fn;          /* MPI function, for "waiting in" text      */

    /* protocol state, owned by src/pt2pt (see pt2pt/proto.h) */
    xb_mq_item_t    mq;          /* posted-queue link and match key          */
    struct xb_request *next;     /* pending FIFO link                        */
    xb_gpid_t       gpid;        /* the peer's process id once known         */
    int             pending;     /* events before the protocol is finished   */
    uint8_t         proto;       /* xb_pt2pt_proto chosen for this message   */
    uint8_t         proto_contig; /* send: data is one contiguous range      */
    uint16_t        phase;       /* protocol phase (pt2pt/proto.h)           */
    size_t          bytes;       /* packed bytes of the message (send)       */
    size_t          xfer;        /* bytes moved so far                       */
    size_t          limit;       /* bytes accepted by the receiver           */
    uint64_t        peer_cookie; /* the other side's request id              */
    void           *bsend_blk;   /* Bsend: the attached-buffer block         */
    void           *dget;        /* receive: its matched rendezvous, whose get
                                    waits for the progress hook (pending.c) */
    xb_am_done_t    am_done;     /* method completion callback (INPROGRESS)  */
    void          (*on_complete)(xb_request_t *req); /* optional hook     */
    void           *extra;       /* owner's data for on_complete             */
    const xb_req_ops_t *ops;     /* non-pt2pt requests (see xb_req_ops_t)    */
    struct xb_request *deferred_next; /* link of the deferred-free stack:
                                    with magic, the only fields a lock-free
                                    report writes                       */
};

/* `active` while xb_request_complete runs its hook (never seen under the
 * lock: a lock-free reader that sees it takes the locked path). */
#define XB_REQ_COMPLETING 2u

/* ---- pool ---------------------------------------------------------------- */
/* Returns a zeroed request with magic set and done == 0, or NULL (no memory,
 * detail recorded). */
xb_request_t *xb_request_alloc(xb_req_kind_t kind);
/* The same from the pool of channel chan (pt2pt on a lane communicator);
 * the caller holds that channel's lock. */
xb_request_t *xb_request_alloc_chan(xb_req_kind_t kind, unsigned chan);
/* Back to the pool; drops the comm and datatype references it holds. */
void xb_request_free(xb_request_t *req);
/* Free every slab (MPI_Finalize). */
void xb_request_pool_fini(void);
/* Without a lock: hand a reported request (complete, nonpersistent, its
 * handle already MPI_REQUEST_NULL) to its channel for xb_request_free. */
void xb_request_free_deferred(xb_request_t *req);
/* Free the deferred requests of every channel (the caller holds all the
 * locks under MULTIPLE). */
void xb_request_drain_all(void);
/* The same for channel chan, whose lock the caller holds; the check is
 * inline (the polls call it), the drain out of line. */
extern _Atomic(xb_request_t *) xb_request_deferred[];
void xb_request_drain_slow(unsigned chan);
static inline void xb_request_drain(unsigned chan)
{
    if (XB_UNLIKELY(atomic_load_explicit(&xb_request_deferred[chan],
                                         memory_order_relaxed) != NULL))
        xb_request_drain_slow(chan);
}

/* ---- handles -------------------------------------------------------------- */
/* MPI_REQUEST_NULL (0x180 in the ABI) and invalid/freed requests give NULL. */
xb_request_t *xb_request_from_handle(MPI_Request h);
MPI_Request   xb_request_to_handle(xb_request_t *req);

/* ---- completion ------------------------------------------------------------- */
static inline bool xb_request_is_done(const xb_request_t *req)
{
    return atomic_load_explicit(&req->done, memory_order_acquire) != 0;
}
static inline unsigned xb_request_active(const xb_request_t *req)
{
    return atomic_load_explicit(&req->active, memory_order_acquire);
}
/* MPI_Start and friends (under the lock). */
static inline void xb_request_set_active(xb_request_t *req, unsigned v)
{
    atomic_store_explicit(&req->active, (unsigned char)v, memory_order_relaxed);
}
/* Marks the request complete (release store), runs on_complete, frees it if
 * XB_REQ_F_AUTOFREE or XB_REQ_F_USERFREED is set. Status must be final. A
 * persistent request that its on_complete hook restarted (ops->start: the
 * rounds of MPI_Comm_idup) stays pending. */
void xb_request_complete(xb_request_t *req);
/* Set by the progress layer when MULTIPLE locking is on, else NULL. */
extern void (*xb_request_mt_completed)(unsigned chan);

/* ---- statuses -------------------------------------------------------------- */
/* The empty status of a null or inactive request (MPI standard): source
 * MPI_ANY_SOURCE, tag MPI_ANY_TAG, error MPI_SUCCESS, count 0, not
 * cancelled. */
void xb_status_set_empty(xb_status_t *st);
/* The status of an operation with MPI_PROC_NULL: the same, but source
 * MPI_PROC_NULL. */
void xb_status_set_proc_null(xb_status_t *st);
/* Fill an MPI_Status (ignores MPI_STATUS_IGNORE). Writes MPI_ERROR only when
 * write_error is true (the standard: Wait/Test/Recv leave it alone; the
 * multiple-completion calls set it). */
void xb_status_to_mpi(const xb_status_t *st, MPI_Status *out, bool write_error);
/* The empty status into an MPI_Status, as xb_status_to_mpi writes one. */
void xb_mpi_status_empty(MPI_Status *out, bool write_error);
/* Entry i of a status array; MPI_STATUS_IGNORE for MPI_STATUSES_IGNORE. */
static inline MPI_Status *xb_mpi_status_at(MPI_Status *arr, int i)
{
    return arr == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &arr[i];
}
void xb_mpi_status_set_count(MPI_Status *st, MPI_Count bytes);
MPI_Count xb_mpi_status_get_count(const MPI_Status *st);
void xb_mpi_status_set_cancelled(MPI_Status *st, bool flag);
bool xb_mpi_status_get_cancelled(const MPI_Status *st);

#endif
