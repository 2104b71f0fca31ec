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
 * The 128 lists of a context (2 KiB) are allocated when it first queues
 * an entry and freed, once its queues are empty, by a sweep that runs when
 * the table holds twice as many as after the last one (at least
 * XB_MATCH_KEEP_LISTS): a program that goes through thousands of
 * communicators keeps lists only for those with traffic. The context
 * itself (under 100 bytes) stays until the table goes, so a pointer to it
 * held across a progress wait (a blocking probe) stays valid; every walk
 * checks the counts first, so a context without lists is simply empty.
 *
 * Contexts are created on first use by either side (a message may arrive
 * for a communicator this process has not created yet: it waits in that
 * context's unexpected queue). A table of contexts is an explicit object so
 * unit tests build their own.
 *
 * Threading: under the progress lock. Returns: pointers or NULL; only
 * xb_match_ctx() and the two adds can fail (no memory, detail recorded).
 */
#ifndef XB_PT2PT_MATCH_H
#define XB_PT2PT_MATCH_H

#include "core/request.h"
#include "pt2pt/pt2pt_stats.h"

typedef struct xb_mq {
    xb_mq_item_t *head, *tail;
} xb_mq_t;

enum { XB_MATCH_BUCKETS = 64,        /* contexts per table (hash)            */
       XB_MATCH_SRC_BUCKETS = 64,    /* source lists per queue; a power of 2 */
       XB_MATCH_KEEP_LISTS = 64 };   /* lists kept before the first sweep    */

typedef struct xb_match_lists {
    xb_mq_t posted[XB_MATCH_SRC_BUCKETS];
    xb_mq_t unexp[XB_MATCH_SRC_BUCKETS];
} xb_match_lists_t;

struct xb_match_table;

typedef struct xb_match_ctx {
    struct xb_match_ctx *next;       /* hash chain                           */
    struct xb_match_table *table;    /* the table it belongs to              */
    uint32_t             ctx;
    uint32_t             seq;        /* the number the next entry gets       */
    uint32_t             nposted;    /* entries in the posted lists          */
    uint32_t             nunexp;     /* entries in the unexpected lists      */
    uint64_t             unexp_mask; /* bit b: l->unexp[b] is not empty      */
    xb_pt2pt_stats_t    *stats;      /* the table's counters                 */
    xb_mq_t              posted_any; /* MPI_ANY_SOURCE receives              */
    xb_match_lists_t    *l;          /* by source; NULL until first queued   */
} xb_match_ctx_t;

typedef struct xb_match_table {
    xb_match_ctx_t *bucket[XB_MATCH_BUCKETS];
    xb_match_ctx_t *last;        /* one-entry cache for the hot path */
    xb_pt2pt_stats_t *stats;     /* counters of its channel (NULL: xb_pt2pt_stats) */
    uint32_t        nlists;      /* contexts that hold lists now */
    uint32_t        sweep_at;    /* sweep empty ones' lists at this many */
} xb_match_table_t;

/* Find (or create) the queues of a context. */
xb_match_ctx_t *xb_match_ctx(xb_match_table_t *t, uint32_t ctx);
void xb_match_table_fini(xb_match_table_t *t, void (*drop_unexp)(xb_mq_item_t *));

/* An envelope (src, tag) arrived: take the first posted receive it matches. */
xb_mq_item_t *xb_match_posted_take(xb_match_ctx_t *c, int src, int tag);
/* Queue an entry: XB_OK, or XB_ERR_NO_MEM (no lists; detail recorded). */
int           xb_match_posted_add(xb_match_ctx_t *c, xb_mq_item_t *it);
/* Remove a given posted receive (cancel); false if it was not queued. */
bool          xb_match_posted_remove(xb_match_ctx_t *c, xb_mq_item_t *it);

/* A receive (pattern src, tag; wildcards allowed) looks for the first
 * unexpected message it matches; removed from the queue when `take`. */
xb_mq_item_t *xb_match_unexp_find(xb_match_ctx_t *c, int src, int tag, bool take);
int           xb_match_unexp_add(xb_match_ctx_t *c, xb_mq_item_t *it);
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
