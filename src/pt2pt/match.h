/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * match.h - the matching engine: per context id, a queue of posted receives
 * and a queue of unexpected messages, each in arrival order.
 *
 * Entries are xb_mq_item_t links (core/request.h) embedded in the owner's
 * object (a receive request, an unexpected-message record); the engine never
 * allocates them. A posted pattern may hold MPI_ANY_SOURCE / MPI_ANY_TAG; an
 * unexpected envelope never does. Because a single queue per context holds
 * every source, MPI_ANY_SOURCE costs nothing extra, and taking the FIRST
 * match in each queue gives the non-overtaking rule.
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

typedef struct xb_match_ctx {
    struct xb_match_ctx *next;   /* hash chain */
    uint32_t             ctx;
    xb_mq_t              posted;
    xb_mq_t              unexp;
    xb_pt2pt_stats_t    *stats;  /* the table's counters */
} xb_match_ctx_t;

enum { XB_MATCH_BUCKETS = 64 };

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

/* How many entries a context's posted (unexp false) or unexpected queue
 * holds now; 0 for a context without queues (none is created). Walks the
 * queue: for MPI_T, never on a communication path. */
size_t xb_match_queue_len(const xb_match_table_t *t, uint32_t ctx, bool unexp);

static inline bool xb_match_pattern(int psrc, int ptag, int src, int tag)
{
    return (psrc == src || psrc == MPI_ANY_SOURCE) && (ptag == tag || ptag == MPI_ANY_TAG);
}

#endif
