/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * node_stream.c - node collectives beyond a flow cell without a barrier:
 * each local rank's slots (both areas, node_shm.c) used as one ring of
 * data it writes, with the numbering, done counters and waits of the flow
 * cells (node_flow.c). The "stream" algorithms (stream_reduce.c).
 *
 * A flow cell holds 512 bytes; a rooted collective of 32 KiB blocks took
 * the message algorithms, whose root waits until every receiver has read
 * its block (a single copy from the root's buffer): on 8 ranks sharing 2
 * cores that is every rank scheduled once per call while the root waits,
 * and a node barrier per call (bcast_shm, reduce_shm) costs the same.
 * Here a writer copies its data into its own ring and leaves; readers
 * copy it out when they run, several calls per time slice.
 *
 * Ring. The writer's region is its two slots (S = xb_coll_node_slot_size()
 * bytes each: the parity-0 slot's tail is its flow cells), seen as one
 * ring of 2S logical bytes; an allocation (at most S) never straddles a
 * slot: it skips to the next slot's start. Only the owner writes its ring,
 * so its bookkeeping is private: a log of live allocations (call number,
 * start, the one comm rank that reads it or every rank). An allocation is
 * free once its reader (every other rank) has finished its call (done >
 * n); the writer pops free allocations from the front and, when the ring
 * is full, waits for the front one (xb_coll_flow_wait_done: a wait on one
 * rank for a per-reader allocation). Where the data lies goes in the
 * writer's flow cell of the call (the cell's room is the flow cells' rule).
 *
 * Deadlock: a writer waits only for calls whose data is all published (an
 * earlier call, or a block of this call already published), so the
 * lowest call in progress always moves (the flow cells' argument).
 *
 * Sharing the slots with the write-barrier-read collectives (node_shm.c):
 * those reuse an area after a barrier that every reader passed once it
 * had read; a stream call has no barrier. So the first stream call after
 * a phase of theirs (xb_coll_node_parity) and the first phase after a
 * stream call start with one node barrier: every local rank then has
 * finished every earlier call, so nothing written before is still read.
 * All local ranks make the same node collectives in the same order (the
 * flow cells' argument), so all take the same barriers. Back-to-back calls
 * of one kind pay nothing.
 */
#include <string.h>
#include "coll/coll_int.h"

enum { LOGN = 1024 };   /* live allocations; one more waits for the front one */

typedef struct {
    uint64_t n, start;
    int      reader;    /* local index of the one reader, -1: every rank */
} alloc_t;

static struct {
    uint64_t head;                   /* next free logical byte      */
    unsigned first, count;           /* live: log[first .. + count) */
    alloc_t  log[LOGN];
} ring;
static bool stream_used;  /* a stream call since the last barrier-phase */
static bool phase_used;   /* a barrier-phase since the last stream call */

void xb_coll_stream_init(void)
{
    memset(&ring, 0, sizeof ring);
    stream_used = false;
    phase_used = false;
}

size_t xb_coll_stream_max(void)
{
    return xb_coll_node_slot_size();
}

void xb_coll_stream_begin(void)
{
    if (phase_used)
        xb_coll_node_barrier_now("a node collective (switching to the stream algorithms)");
    phase_used = false;
    stream_used = true;
}

int xb_coll_stream_call(xb_coll_flow_t *f, const xb_comm_t *comm)
{
    int rc = xb_coll_flow_begin(f, comm);
    if (rc == XB_OK)
        xb_coll_stream_begin();
    return rc;
}

bool xb_coll_stream_barrier_due(void)
{
    return phase_used;
}

void xb_coll_stream_phase(void)
{
    if (stream_used) {
        xb_coll_node_barrier_now("a node collective (leaving the stream algorithms)");
        ring.count = 0;                      /* every reader is done */
    }
    stream_used = false;
    phase_used = true;
}

void *xb_coll_stream_ptr(const xb_coll_flow_t *f, int rank, uint64_t pos)
{
    size_t s = xb_coll_node_slot_size();
    return xb_coll_node_base((int)((pos / s) & 1), f->loc[rank]) + pos % s;
}

static bool is_free(const xb_coll_flow_t *f, const alloc_t *e)
{
    if (e->reader >= 0)
        return xb_coll_flow_done(e->reader) > e->n;
    for (int r = 0; r < f->p; r++)
        if (r != f->me && xb_coll_flow_done(f->loc[r]) <= e->n)
            return false;
    return true;
}

uint64_t xb_coll_stream_alloc(xb_coll_flow_t *f, size_t len, int reader)
{
    uint64_t s = xb_coll_node_slot_size(), pos = ring.head;
    if (pos % s + len > s)
        pos += s - pos % s;                  /* never straddle a slot */
    for (;;) {
        while (ring.count > 0 && is_free(f, &ring.log[ring.first])) {
            ring.first = (ring.first + 1) % LOGN;
            ring.count--;
        }
        const alloc_t *e = &ring.log[ring.first];
        if (ring.count == 0 || (pos + len <= e->start + 2 * s && ring.count < LOGN))
            break;
        xb_coll_flow_wait_done(f, e->reader, e->n + 1);
    }
    ring.log[(ring.first + ring.count) % LOGN] =
        (alloc_t){ .n = f->n, .start = pos, .reader = reader < 0 ? -1 : f->loc[reader] };
    ring.count++;
    ring.head = pos + len;
    return pos;
}

/* A reduction's buffer beyond a slot can go in segments of half a slot:
 * contiguous, its elements without holes and at most a quarter of a slot
 * each (reductions have the same type on every rank; a bcast goes in
 * segments of bytes whatever the layout). */
static bool segmentable(xb_datatype_t *dt, MPI_Count count)
{
    return xb_dt_is_contig(dt, count) && xb_dt_size(dt) == xb_dt_extent(dt) &&
           xb_dt_true_lb(dt) == 0 && (size_t)xb_dt_extent(dt) * 4 <= xb_coll_stream_max();
}

/* The stream algorithms' condition (NEED_STREAM in coll_select.c):
 * blocking, not under MULTIPLE, a comm the flow cells serve, and one
 * allocation (a block; bcast: the buffer; reduce: the working vector, of
 * a predefined type) fits a slot, or (bcast, reduce) the buffer can go in
 * segments. */
bool xb_coll_stream_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if (a->form != XB_COLL_BLOCKING || xb_coll_threads || !xb_coll_flow_comm_ok(a->comm))
        return false;
    MPI_Count need;
    size_t max = xb_coll_stream_max();
    switch (kind) {
    case XB_COLL_BCAST:
        need = a->rcount * xb_dt_size(a->rdt);
        if ((size_t)need > max)
            return true;        /* in segments of bytes, any layout (stream_reduce.c) */
        break;
    case XB_COLL_GATHER: case XB_COLL_SCATTER: case XB_COLL_GATHERV: case XB_COLL_SCATTERV:
        return true;          /* block by block: cell, ring or message (stream_gather.c) */
    case XB_COLL_REDUCE: {
        xb_coll_red_t red;
        if (xb_coll_flow_red(&red, a->rcount, a->rdt, a->op) != XB_OK) {
            xb_err_clear();
            return false;
        }
        need = xb_dt_is_predefined(red.wdt) ? (MPI_Count)xb_coll_flow_wbytes(&red) : -1;
        if (need >= 0 && (size_t)need > max && red.dt == red.wdt &&
            segmentable(a->rdt, a->rcount))
            return true;                     /* in segments (stream_reduce.c) */
        break;
    }
    default: return false;
    }
    return need >= 0 && (size_t)need <= max;
}
