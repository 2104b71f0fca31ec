/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * proto.h - the wire protocols of pt2pt (private to src/pt2pt).
 *
 * One header travels with every pt2pt active message (xb_pt2pt_hdr_t):
 *
 *   EAGER    envelope + the whole message as payload (len <= eager_max);
 *            flag SYNC: the receiver answers SYNC_ACK when it matches.
 *   RTS      envelope + len; addr != 0 when the sender's buffer is one
 *            contiguous range the receiver may get() (single copy).
 *   FIN      receiver -> sender after its get(): the send is complete.
 *   CTS      receiver -> sender: stream `len` bytes (the part that fits).
 *   DATA     sender -> receiver: one fragment (<= frag_max) at offset addr.
 *   SYNC_ACK receiver -> sender: a synchronous eager send was matched.
 *   CANCEL   sender -> receiver: drop the unmatched RTS / synchronous eager
 *            message of request sreq (MPI_Cancel; cancel.c).
 *   CANCEL_ACK receiver -> sender: len = 1 dropped, 0 already matched.
 *
 * Cookies: sreq/rreq are the sender's/receiver's request pointers; each side
 * keeps its request alive until the last message that names it.
 *
 * Choice of protocol: xb_pt2pt_choose(), a pure function (unit-tested in
 * tests/unit/test_proto.c).
 */
#ifndef XB_PT2PT_PROTO_H
#define XB_PT2PT_PROTO_H

#include "pt2pt/pt2pt.h"
#include "pt2pt/match.h"
#include "method/method.h"
#include "util/xb_lanes.h"

enum xb_pt2pt_am {
    XB_AM_EAGER = 1, XB_AM_RTS = 2, XB_AM_CTS = 3, XB_AM_DATA = 4,
    XB_AM_FIN = 5, XB_AM_SYNC_ACK = 6, XB_AM_CANCEL = 7, XB_AM_CANCEL_ACK = 8,
};

enum { XB_HDR_SYNC = 1u << 0, XB_HDR_RNDV = 1u << 1 };

typedef struct xb_pt2pt_hdr {
    uint32_t ctx;
    int32_t  src;      /* sender's rank in the communicator */
    int32_t  tag;
    uint32_t flags;    /* XB_HDR_*                           */
    uint64_t len;      /* EAGER/RTS: message bytes; CTS: bytes to stream */
    uint64_t sreq;     /* sender's request                   */
    uint64_t rreq;     /* receiver's request (CTS, DATA)      */
    uint64_t addr;     /* RTS: sender's address; DATA: offset */
    uint32_t seq;      /* per-peer sequence of matching messages (debug) */
    uint32_t chan;     /* the channel it travels on (xb_pt2pt_lanes) */
} xb_pt2pt_hdr_t;
_Static_assert(sizeof(xb_pt2pt_hdr_t) <= XB_AM_HDR_MAX, "pt2pt header must fit an AM header");
_Static_assert(sizeof(xb_pt2pt_hdr_t) >= XB_AM_HDR_INLINE_MIN,
               "shm copies the pt2pt header without a call only from 32 bytes");

enum xb_pt2pt_proto {
    XB_PROTO_EAGER = 1,     /* one active message with the data            */
    XB_PROTO_RNDV_GET = 2,  /* RTS with address; receiver gets; FIN        */
    XB_PROTO_RNDV_PIPE = 3, /* RTS; CTS; DATA fragments                    */
};

/* Inputs of the choice besides caps and size. */
enum {
    XB_CHOOSE_CONTIG     = 1u << 0,  /* sender's data is one contiguous range */
    XB_CHOOSE_FORCE_PIPE = 1u << 1,  /* tunable PT2PT_FORCE_PIPELINE         */
};

/* Pure: how a send of `len` packed bytes in `mode` travels on a method with
 * these capabilities. */
int xb_pt2pt_choose(const xb_method_caps_t *caps, size_t len, int mode, unsigned in);
const char *xb_pt2pt_proto_name(int proto);

/* Phases of a send request (req->phase). */
enum { XB_PH_INIT = 0, XB_PH_WAIT_CTS = 1, XB_PH_STREAM = 2, XB_PH_DONE = 3 };

/* ---- internal state shared by the pt2pt files ---------------------------- */

typedef struct xb_pt2pt_ctl {        /* a control message waiting for room */
    struct xb_pt2pt_ctl *next;
    uint8_t              am_id;
    xb_pt2pt_hdr_t       hdr;
} xb_pt2pt_ctl_t;

typedef struct xb_pt2pt_peer {       /* per world rank                  */
    xb_request_t   *rq_head, *rq_tail;   /* sends waiting, in order    */
    xb_pt2pt_ctl_t *ctl_head, *ctl_tail; /* CTS/FIN/SYNC_ACK waiting   */
    uint32_t        seq_out;
    /* our single-copy sends to this peer whose RTS left and that have not
     * completed (FIN, cancel, failure): while > 0 the peer has a copy of
     * its own to make from us, and a get from it is one side of an
     * exchange (recv.c, xb_method_exchange) */
    uint32_t        gets_out;
} xb_pt2pt_peer_t;

/* Size classes of unexpected records (recv.c): data[] of 256 << k bytes. */
enum { XB_UNEXP_CLASSES = 7, XB_UNEXP_EXACT = XB_UNEXP_CLASSES };

/* An unexpected message; once taken by MPI_Mprobe it is the object behind
 * an MPI_Message handle (xb_message_t). */
typedef struct xb_message {
    xb_mq_item_t   mq;               /* first: the queue link            */
    uint32_t       magic;            /* XB_MAGIC_MSG while alive         */
    uint32_t       cls;              /* size class of data[] (cached), or
                                        XB_UNEXP_EXACT: malloc'd to fit  */
    xb_gpid_t      gpid;
    xb_comm_t     *comm;             /* set when taken by MPI_Mprobe     */
    xb_pt2pt_hdr_t hdr;
    uint64_t       stored;           /* EAGER: payload bytes in data[]   */
    unsigned char  data[];
} xb_unexp_t;
typedef struct xb_message xb_message_t;

/* The state of one channel: 0 the main one, 1..n the lanes of several
 * progress contexts (docs/design/threads.md "Progress contexts"); a
 * channel's state is touched only under its context's lock. */
typedef struct xb_pt2pt_state {
    xb_match_table_t table;
    xb_pt2pt_peer_t *peers;          /* [world size]                     */
    int              npeers;
    int              nqueued;        /* entries in all pending FIFOs     */
    bool             force_pipe;
    xb_pt2pt_stats_t *stats;         /* &xb_pt2pt_stats, or own_stats    */
    xb_unexp_t      *ucache[XB_UNEXP_CLASSES]; /* records of unexpected  */
    int              nucache[XB_UNEXP_CLASSES]; /* messages, for reuse,
                                                    per size class      */
    xb_request_t    *dget_head, *dget_tail; /* receives whose get waits
                                              for the hook (pending.c)   */
    xb_pt2pt_stats_t own_stats;
} xb_pt2pt_state_t;

extern xb_pt2pt_state_t xb_pt2pt_lanes[XB_LANES_MAX + 1];
#define xb_pt2pt (xb_pt2pt_lanes[0])

/* Channel 0 by a fixed address: without lanes the hot path reads the
 * state as it did before there were channels (no index arithmetic). */
static inline xb_pt2pt_state_t *xb_pt2pt_st(unsigned chan)
{
    return XB_LIKELY(chan == 0) ? &xb_pt2pt_lanes[0] : &xb_pt2pt_lanes[chan];
}

static inline xb_pt2pt_stats_t *xb_pt2pt_stats_of(unsigned chan)
{
    return XB_LIKELY(chan == 0) ? &xb_pt2pt_stats : &xb_pt2pt_lanes[chan].own_stats;
}

static inline xb_pt2pt_peer_t *xb_pt2pt_peer(unsigned chan, xb_gpid_t g)
{
    return &xb_pt2pt_st(chan)->peers[xb_gpid_rank(g)];
}

/* pt2pt.c: a request for one operation, not started (retains dt). */
xb_request_t *xb_pt2pt_op_new(xb_req_kind_t kind, const void *buf, MPI_Count count,
                              xb_datatype_t *dt, int peer, int tag, xb_comm_t *comm,
                              int coll);
/* pt2pt_impl.c: a packed copy of (buf, count, dt) in a new malloc'ed
 * buffer of *bytes_p bytes (the caller frees it): what Sendrecv_replace and
 * Isendrecv_replace send while the receive overwrites buf. */
int  xb_pt2pt_packed_copy(const void *buf, MPI_Count count, xb_datatype_t *dt, void **tmp_p,
                          size_t *bytes_p);
/* send.c */
int  xb_pt2pt_send_start(xb_request_t *req);
int  xb_pt2pt_send_now(xb_request_t *req);     /* XB_ERR_AGAIN: keep queued */
void xb_pt2pt_send_event_done(xb_request_t *req);
void xb_pt2pt_fail_req(xb_request_t *req, int rc);
void xb_pt2pt_on_cts(xb_request_t *sreq, uint64_t rreq, uint64_t limit);
/* pending.c */
void xb_pt2pt_queue_req(xb_request_t *req);
bool xb_pt2pt_unqueue_req(xb_request_t *req);  /* false: it was not queued */
int  xb_pt2pt_send_ctl(xb_gpid_t g, uint8_t am_id, const xb_pt2pt_hdr_t *hdr);
int  xb_pt2pt_retry(xb_progress_t *pc);
/* Leave the get of r's matched rendezvous u to the progress hook (counted
 * in nqueued) and wake the progress thread to run it. */
void xb_pt2pt_defer_get(xb_request_t *r, xb_unexp_t *u);
/* recv.c */
int  xb_pt2pt_recv_start(xb_request_t *req);
/* r matched the unexpected message u (taken out of its queue): deliver it
 * and free u, or, for a get that nobody blocks on while a progress thread
 * runs, defer it (xb_pt2pt_defer_get). recv_deliver never defers. */
void xb_pt2pt_recv_unexp(xb_request_t *r, xb_unexp_t *u);
void xb_pt2pt_recv_deliver(xb_request_t *r, xb_unexp_t *u);
void xb_pt2pt_register_handlers(void);
void xb_pt2pt_unexp_free(xb_unexp_t *u);
void xb_pt2pt_unexp_cache_fini(xb_pt2pt_state_t *st);
/* cancel.c */
void xb_pt2pt_register_cancel_handlers(void);
/* Unexpected eager messages reuse cached records (no malloc when a sender
 * runs ahead of its receiver), in classes of powers of two from 256 bytes
 * to 16 KiB (shm's eager limit), so a record holds at most twice its
 * message; each class keeps up to 1024 records and 1 MiB. Larger messages
 * get a record malloc'd to fit. Before the classes above 256 bytes, a root
 * running 64 ibcasts of 4 KiB ahead made its receiver malloc and free
 * 256 KiB per batch, which glibc gave back to the kernel and faulted in
 * again (page faults and malloc topped the receiver's profile). */
enum { XB_UNEXP_SMALL = 256, XB_UNEXP_LARGEST = XB_UNEXP_SMALL << (XB_UNEXP_CLASSES - 1) };
/* bsend.c */
int  xb_pt2pt_bsend_start(xb_request_t *req);
/* Buffer slots (core.h xb_bbuf_t): attach (owner names it in errors),
 * flush (blocks until no message of the slot is in flight), detach (flush,
 * then give the buffer back: MPI_BUFFER_AUTOMATIC and 0 for automatic;
 * NULL and 0 when none), iflush (a request that completes then). */
xb_bbuf_t *xb_pt2pt_proc_bbuf(void);
int  xb_pt2pt_bbuf_attach(xb_bbuf_t *s, void *buf, size_t size, const char *owner);
int  xb_pt2pt_bbuf_flush(xb_bbuf_t *s, const char *what);
int  xb_pt2pt_bbuf_detach(xb_bbuf_t *s, void **buf_p, size_t *size_p, const char *what);
int  xb_pt2pt_bbuf_iflush(xb_bbuf_t *s, MPI_Request *request);
void xb_pt2pt_bsend_fini(void);

#endif
