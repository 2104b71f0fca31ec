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
 * is full, waits for the front one (xb_coll_flow_wait_local, on one rank
 * at a time). Where the data lies goes in the
 * writer's flow cell of the call (the cell's room is the flow cells' rule).
 *
 * Deadlock: a writer waits only for calls whose data is all published (an
 * earlier call, or a block of this call already published), so the
 * lowest call in progress always moves (the flow cells' argument).
 *
 * Sharing the slots with the write-barrier-read collectives (node_shm.c):
 * those reuse an area after a barrier that every reader passed once it
 * had read; a stream call has no barrier, and the ranks may not even agree
 * on taking one (counts that differ: a rank whose count fits a cell takes
 * the flow cells where another takes its ring). So neither switch is a
 * collective step; each writer guards its own slots with waits on the
 * others' done counters:
 *
 *   a phase after stream calls   (xb_coll_stream_phase, from
 *                                xb_coll_node_parity) waits until every
 *                                live allocation of the ring is free:
 *                                nobody reads the ring any more;
 *   a ring after a phase         the first allocation after a phase starts
 *                                in the other area's slot, which nobody
 *                                reads (every rank passed the last phase's
 *                                barrier after it had read the one before);
 *                                a fence in the log covers the last
 *                                phase's slot until every other rank has
 *                                finished the first flow call after that
 *                                phase, and so the phase.
 *
 * A rank that takes the cells where another takes its ring finishes the
 * call all the same, so the waits end. A writer that would wait on the
 * fence of its own call (several blocks in one call, scatter) gets
 * XB_COLL_STREAM_FULL instead: its readers may wait for those blocks.
 */
#include <string.h>
#include "coll/coll_int.h"
#include "runtime/runtime.h"

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
static bool     after_phase; /* a phase since the ring's last allocation */
static uint64_t phase_call;  /* the first flow call after that phase      */

void xb_coll_stream_init(void)
{
    memset(&ring, 0, sizeof ring);
    after_phase = false;
    phase_call = 0;
}

size_t xb_coll_stream_max(void)
{
    return xb_coll_node_slot_size();
}

void *xb_coll_stream_ptr(const xb_coll_flow_t *f, int rank, uint64_t pos)
{
    size_t s = xb_coll_node_slot_size();
    return xb_coll_node_base((int)((pos / s) & 1), f->loc[rank]) + pos % s;
}

/* A local rank that has not finished call e->n though it reads e, or -1
 * (e is free). Flow calls run on node-complete communicators only: "every
 * rank" is every local rank. */
static int busy_reader(const alloc_t *e)
{
    if (e->reader >= 0)
        return xb_coll_flow_done(e->reader) > e->n ? -1 : e->reader;
    const xb_rt_info_t *rt = xb_rt();
    for (int r = 0; r < rt->local_size; r++)
        if (r != rt->local_rank && xb_coll_flow_done(r) <= e->n)
            return r;
    return -1;
}

static void pop_free(void)
{
    while (ring.count > 0 && busy_reader(&ring.log[ring.first]) < 0) {
        ring.first = (ring.first + 1) % LOGN;
        ring.count--;
    }
}

static void push(uint64_t n, uint64_t start, int reader)
{
    ring.log[(ring.first + ring.count) % LOGN] =
        (alloc_t){ .n = n, .start = start, .reader = reader };
    ring.count++;
}

void xb_coll_stream_phase(void)
{
    for (pop_free(); ring.count > 0; pop_free()) {
        const alloc_t *e = &ring.log[ring.first];
        int r = busy_reader(e);          /* -1: it finished since pop_free */
        if (r >= 0)
            xb_coll_flow_wait_local(r, e->n + 1);
    }
    after_phase = true;
    phase_call = xb_coll_flow_calls();
}

/* The first allocation after a phase (the ring is empty): the head moves
 * to a slot of the area the last phase did not use, and a fence covers the
 * other slot until every rank has finished call phase_call. */
static void leave_phase(void)
{
    uint64_t s = xb_coll_node_slot_size();
    uint64_t x = (ring.head + s - 1) / s * s + s;     /* a slot's start, above s */
    if ((int)((x / s) & 1) == xb_coll_node_last_parity())
        x += s;
    ring.head = x;
    push(phase_call, x - s, -1);
    after_phase = false;
}

uint64_t xb_coll_stream_alloc(xb_coll_flow_t *f, size_t len, int reader)
{
    if (XB_UNLIKELY(after_phase))
        leave_phase();
    uint64_t s = xb_coll_node_slot_size(), pos = ring.head;
    if (pos % s + len > s)
        pos += s - pos % s;                  /* never straddle a slot */
    for (;;) {
        pop_free();
        const alloc_t *e = &ring.log[ring.first];
        if (ring.count == 0 || (pos + len <= e->start + 2 * s && ring.count < LOGN))
            break;
        if (e->reader < 0 && e->n >= f->n)
            return XB_COLL_STREAM_FULL;      /* this call's readers: no wait */
        int r = busy_reader(e);
        if (r >= 0)
            xb_coll_flow_wait_local(r, e->n + 1);
    }
    push(f->n, pos, reader < 0 ? -1 : f->loc[reader]);
    ring.head = pos + len;
    return pos;
}

void xb_coll_stream_unalloc(uint64_t pos)
{
    ring.count--;
    ring.head = pos;
}

/* A reduction's buffer beyond a slot can go in segments of half a slot
 * (stream_reduce.c) when its working type has no holes and its elements
 * are at most a quarter of a slot each. The working type, not the user's:
 * MPI asks a reduction for the same datatype on every rank, but ranks
 * whose types hold the same basic elements in other layouts (a contiguous
 * type of doubles against MPI_DOUBLE) went to different algorithms by
 * the user's layout and waited for each other for good (until
 * 2026-12-08). A rank whose layout is not the working one packs its
 * vector first. A bcast goes in segments of bytes whatever the layout. */
static bool segmentable(const xb_coll_red_t *red)
{
    return xb_dt_size(red->wdt) == xb_dt_extent(red->wdt) &&
           (size_t)xb_dt_extent(red->wdt) * 4 <= xb_coll_stream_max();
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
        if (need >= 0 && (size_t)need > max && segmentable(&red))
            return true;                     /* in segments (stream_reduce.c) */
        break;
    }
    default: return false;
    }
    return need >= 0 && (size_t)need <= max;
}
