/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * match.h - the matching engine: per context id, the posted receives and
 * the unexpected messages, each kept by source and numbered in order.
 *
 * Entries are xb_mq_item_t links (core/request.h) embedded in the owner's
 * object (a receive request, an unexpected-message record); the engine never
 * allocates them. A posted pattern may hold MPI_ANY_SOURCE / MPI_ANY_TAG; an
 * unexpected envelope never does.
 *
 * Layout: XB_MATCH_SRC_BUCKETS lists per queue, source s in list
 * s % XB_MATCH_SRC_BUCKETS (sources that share a list are told apart by
 * their src), plus one list of MPI_ANY_SOURCE receives. Every entry gets
 * the context's next number (`seq`) when it is queued. A receive for one
 * source walks only that source's list, so a backlog from many senders
 * costs a receiver nothing (a fan-in of 7 senders slowed down 200-fold
 * with one list: every receive walked the others' messages). The oldest
 * match across lists comes from comparing numbers: an envelope takes the
 * older of the first match in its source's list and the first in the
 * wildcard list; an MPI_ANY_SOURCE receive takes the oldest of the first
 * matches of the non-empty lists (`unexp_mask`). Taking the oldest match
 * is the non-overtaking rule.
 *
 * Contexts are created on first use by either side (a message may arrive
 * for a communicator this process has not created yet: it waits in that
 * context's unexpected queue). A table of contexts is an explicit object so
 * unit tests build their own.
 *
 * Threading: under the progress lock. Returns: pointers or NULL; only
 * xb_match_ctx() can fail (no memory: NULL with detail recorded).
 */
#ifndef XB_PT2PT_MATCH_H
#define XB_PT2PT_MATCH_H

#include "core/request.h"
#include "pt2pt/pt2pt_stats.h"

typedef struct xb_mq {
    xb_mq_item_t *head, *tail;
} xb_mq_t;

enum { XB_MATCH_BUCKETS = 64,        /* contexts per table (hash)     */
       XB_MATCH_SRC_BUCKETS = 64 };   /* source lists per queue; a power of 2 */

typedef struct xb_match_ctx {
    struct xb_match_ctx *next;   /* hash chain */
    uint32_t             ctx;
    uint32_t             seq;        /* the number the next entry gets       */
    uint32_t             nposted;    /* entries in posted / posted_any       */
    uint32_t             nunexp;     /* entries in unexp                     */
    uint64_t             unexp_mask; /* bit b: unexp[b] is not empty         */
    xb_pt2pt_stats_t    *stats;      /* the table's counters                 */
    xb_mq_t              posted_any; /* MPI_ANY_SOURCE receives              */
    xb_mq_t              posted[XB_MATCH_SRC_BUCKETS];
    xb_mq_t              unexp[XB_MATCH_SRC_BUCKETS];
} xb_match_ctx_t;

typedef struct xb_match_table {
    xb_match_ctx_t *bucket[XB_MATCH_BUCKETS];
    xb_match_ctx_t *last;        /* one-entry cache for the hot path */
    xb_pt2pt_stats_t *stats;     /* counters of its channel (NULL: xb_pt2pt_stats) */
} xb_match_table_t;

/* Find (or create) the queues of a context. */
xb_match_ctx_t *xb_match_ctx(xb_match_table_t *t, uint32_t ctx);
void xb_match_table_fini(xb_match_table_t *t, void (*drop_unexp)(xb_mq_item_t *));

/* An envelope (src, tag) arrived: take the first posted receive it matches. */
xb_mq_item_t *xb_match_posted_take(xb_match_ctx_t *c, int src, int tag);
void          xb_match_posted_add(xb_match_ctx_t *c, xb_mq_item_t *it);
/* Remove a given posted receive (cancel); false if it was not queued. */
bool          xb_match_posted_remove(xb_match_ctx_t *c, xb_mq_item_t *it);

/* A receive (pattern src, tag; wildcards allowed) looks for the first
 * unexpected message it matches; removed from the queue when `take`. */
xb_mq_item_t *xb_match_unexp_find(xb_match_ctx_t *c, int src, int tag, bool take);
void          xb_match_unexp_add(xb_match_ctx_t *c, xb_mq_item_t *it);
/* Remove a given unexpected message (a cancelled send); false if absent. */
bool          xb_match_unexp_remove(xb_match_ctx_t *c, xb_mq_item_t *it);
/* The first entry of the list that holds source src's unexpected messages,
 * in order; follow ->next, and skip entries whose src is another source. */
xb_mq_item_t *xb_match_unexp_list(xb_match_ctx_t *c, int src);

static inline bool xb_match_has_posted(const xb_match_ctx_t *c) { return c->nposted != 0; }
static inline bool xb_match_has_unexp(const xb_match_ctx_t *c) { return c->nunexp != 0; }

/* How many entries a context's posted (unexp false) or unexpected queue
 * holds now; 0 for a context without queues (none is created). */
size_t xb_match_queue_len(const xb_match_table_t *t, uint32_t ctx, bool unexp);

static inline bool xb_match_pattern(int psrc, int ptag, int src, int tag)
{
    return (psrc == src || psrc == MPI_ANY_SOURCE) && (ptag == tag || ptag == MPI_ANY_TAG);
}

#endif
