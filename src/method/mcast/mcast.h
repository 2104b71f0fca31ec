/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mcast.h - UDP multicast for the collectives (the brief's mcast/ method).
 *
 * Not a peer method: no endpoints, no active messages, no place in the peer
 * table. One UDP socket per process; the coll layer sends frames of a
 * message to the job's group and reads the frames that arrived
 * (src/coll/bcast_mcast.c, docs/design/mcast.md). Datagrams get lost,
 * duplicated or late: the caller finds the holes and fills them by
 * point-to-point.
 *
 * The group: XB_MCAST_GROUP ("a.b.c.d:port"), or, empty, 239.255.x.y:port
 * from the job key (239.255/16: organisation-local scope), so two jobs on
 * one LAN rarely share one; every datagram carries the job key, and a
 * receiver drops those of another job. The interface: XB_MCAST_IF (an
 * IPv4 address), or the one tcp listens on (xb_tcp_mcast_if). TTL 1 (the
 * LAN); loopback on (receivers on the sender's host: "hosts" that share a
 * machine, tests/hosts).
 *
 * Lifecycle: xb_mcast_open() in MPI_Init (the coll layer's agreement,
 * coll_agree.c, only with XB_MCAST=1 and a job on several nodes); a
 * receiver (the job's lowest rank on each node) joins the group, the other
 * processes only send. xb_mcast_close() in MPI_Finalize.
 *
 * Threading: called under the progress lock, and only when no process of
 * the job runs with threads (the coll layer's rule for node algorithms).
 * Returns: XB_OK or negative XB_ERR_* with the reason recorded.
 */
#ifndef XB_MCAST_H
#define XB_MCAST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xb_mcast_hdr {     /* the head of every datagram */
    uint64_t job;                 /* job key                          */
    uint32_t sender;              /* world rank of the sender         */
    uint32_t call;                /* the sender's number for the message
                                     (never reused in the job)        */
    uint32_t index;               /* frame number in the message      */
    uint32_t len;                 /* payload bytes of this frame      */
} xb_mcast_hdr_t;
_Static_assert(sizeof(xb_mcast_hdr_t) == 24, "24-byte datagram head");

/* Open the socket (receiver: and join the group). On failure *why says
 * why (static text) and the detail is recorded. */
int    xb_mcast_open(bool receiver, const char **why);
void   xb_mcast_close(void);
bool   xb_mcast_is_open(void);
/* Payload bytes of one frame: the interface's MTU less the IP, UDP and
 * frame heads (at most XB_MCAST_FRAME_MAX). */
size_t xb_mcast_frame(void);
/* Every process of the job must cut messages alike: the smallest frame
 * of the job (agreed at init) replaces this process's own. */
void   xb_mcast_set_frame(size_t frame);
/* Receive buffer the kernel granted a receiver (0 for a sender). */
size_t xb_mcast_rcvbuf(void);
/* Multicast frames first .. first+n-1 of the message msg (len bytes, cut
 * in frames of xb_mcast_frame() bytes), as message number `call` of this
 * process (the caller numbers its messages; the head carries the number
 * and this process's world rank). Blocks while the socket's send
 * queue is full. A datagram the kernel refused counts as lost (the
 * receivers repair it), not as an error. Where the kernel does UDP
 * GSO, one send hands it up to 64 KiB of frames, which it cuts. */
int    xb_mcast_send(uint32_t call, const void *msg, size_t len,
                     uint32_t first, uint32_t n);
/* The next arrived frame of this job, without waiting: its head into *h,
 * and *payload points at its h->len bytes, valid until the next call.
 * 1: got one; 0: none waiting; negative: error. Receivers take runs of
 * datagrams in one read where the kernel merges them (UDP_GRO).
 * XB_MCAST_DROP=k discards every k-th frame here (a loss, for tests of
 * the repair path). */
int    xb_mcast_next(xb_mcast_hdr_t *h, const void **payload);
/* The socket, to sleep on (xb_progress_wait_net); -1 when closed. */
int    xb_mcast_fd(void);
/* Wait up to timeout_ms for a datagram (the probe at init). */
bool   xb_mcast_wait(int timeout_ms);
/* The group, "239.255.12.34:41234 on 10.0.0.2" (crossbar-info, errors). */
const char *xb_mcast_describe(void);

/* MPI_T counters (category method_mcast); plain increments under the lock. */
typedef struct xb_mcast_stats {
    uint64_t active;          /* 1 while the job broadcasts by multicast */
    uint64_t sent;            /* datagrams multicast                  */
    uint64_t sent_bytes;      /* their payload bytes                  */
    uint64_t received;        /* datagrams of this job read           */
    uint64_t dropped;         /* discarded by XB_MCAST_DROP           */
    uint64_t send_refused;    /* refused by the kernel (lost)         */
    uint64_t repaired_bytes;  /* bytes a receiver got by pt2pt instead */
} xb_mcast_stats_t;
extern xb_mcast_stats_t xb_mcast_stats;

#endif
