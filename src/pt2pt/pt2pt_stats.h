/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pt2pt_stats.h - the point-to-point counters that MPI_T shows as
 * performance variables (src/mpit, docs/design/mpit.md).
 *
 * Lifecycle: one per-process struct, zero at load, never reset by the
 * library (a tool's session keeps its own start values); it survives
 * MPI_Finalize so a tool can read the totals afterwards.
 *
 * Cost: a plain increment (and one compare for a high-water mark) where
 * the event happens, no atomics: every writer runs under the progress
 * lock (or alone below MPI_THREAD_MULTIPLE), and MPI_T reads it under the
 * same lock.
 *
 * Meaning: "sent" counts messages the matching layer sends (user sends of
 * every mode and the messages of collective algorithms), by protocol;
 * "recv" counts messages matched to a receive, with their sizes as sent.
 * The queue counts cover every communicator context of the process.
 */
#ifndef XB_PT2PT_STATS_H
#define XB_PT2PT_STATS_H

#include <stdint.h>

typedef struct xb_pt2pt_stats {
    uint64_t sent_msgs;      /* messages sent (any protocol)               */
    uint64_t sent_bytes;     /* their payload bytes                        */
    uint64_t sent_eager;     /* of which eager                             */
    uint64_t sent_rndv;      /* of which rendezvous (get or pipelined)     */
    uint64_t recv_msgs;      /* messages matched to a receive              */
    uint64_t recv_bytes;     /* their sizes as sent                        */
    uint64_t unexp_now;      /* messages waiting in the unexpected queues  */
    uint64_t unexp_hwm;      /* the most there ever were at once           */
    uint64_t unexp_total;    /* messages that arrived before their receive */
    uint64_t posted_now;     /* receives waiting in the posted queues      */
    uint64_t posted_hwm;     /* the most there ever were at once           */
    uint64_t gets_deferred;  /* rendezvous gets left to the progress thread */
} xb_pt2pt_stats_t;

extern xb_pt2pt_stats_t xb_pt2pt_stats;

#endif
