/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream_gather.c - gather, gatherv, scatter and scatterv through the
 * node's flow cells and the writers' rings (node_flow.c, node_stream.c),
 * run directly (blocking form, no schedule, no barrier): the `stream`
 * algorithms of the four, on node-complete communicators (scatter(v) at 2
 * ranks: pair_cell.c).
 *
 * A rank knows only its own count (the root: all of them), and in an
 * erroneous program the counts differ; so the ranks cannot agree
 * beforehand where the blocks go. The writer of each block decides, inline
 * in its cell, in its ring (up to a slot) or as a message (beyond), and
 * the reader follows the writer's descriptor (vblock.h), which also
 * catches counts that differ: MPI_ERR_TRUNCATE on the reader, and nobody
 * waits for good. The fixed forms are the v forms with equal blocks (their
 * blocks: alltoall_blocks.h's XB_A2A); until 2026-12-06 they chose between
 * a flow-cell algorithm and the stream by each rank's own count, which
 * hung such a program or read past the root's block.
 *
 *   gather(v)   every other rank publishes its descriptor's high half (how
 *               and bytes) in its seq word (xb_coll_flow_publish_word) and
 *               the ring position in its cell: an inline block has the
 *               whole cell; a message is posted before the publish and
 *               waited for after it. The root follows the descriptors in
 *               the order the ranks wrote (root+1, ...).
 *   scatter(v)  the root's cell holds p descriptors, then the inline blocks
 *               in what is left of it; its ring takes blocks up to 64 KiB
 *               (SCATTER_RING_MAX), messages the larger ones. The inline
 *               blocks' progress goes out together (one store and wake-up),
 *               every other block's as soon as it is written (rank j copies
 *               while the root writes the next); the root waits for its
 *               messages at the end.
 *
 * Every call is one flow call on every rank (no barrier).
 */
#include <string.h>
#include "coll/vblock.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"

/* Scatter(v)'s blocks beyond this go as messages: the root's ring holds
 * only a few of them, and the root then waits for readers that sleep,
 * where each reader's single-copy get needs nothing of the root.
 * Interleaved A/B, 5 rounds, 2026-11-29: 8 ranks, 256 KiB blocks, 130-140
 * us by messages against 298-301 through the ring; 4 ranks 48-50 either
 * way; 32 KiB stays in the ring (4 ranks 5.8 us against linear's 15.4). */
enum { SCATTER_RING_MAX = 64 * 1024 };

/* At two ranks gather(v)'s blocks beyond this go as messages: the root's
 * single-copy get beats the ring's two copies from about that size
 * (interleaved A/B, 3 rounds, 2026-12-06, gatherv: 16 KiB 1.44-1.49 us
 * through the ring against 1.63-1.69 by message, 64 KiB 5.3-6.0 against
 * 4.9-5.0; gather: 32 KiB 2.71-2.90 against 2.90-3.28, 48 KiB even). */
enum { PAIR_GATHER_RING_MAX = 32 * 1024 };

/* From 3 ranks a gather(v) block goes through its writer's ring up to
 * 32 KiB, and up to 128 KiB while the p - 1 blocks of a call (the
 * writer's guess from its own) total at most 1 MiB; beyond, as a message,
 * which the root takes with one single-copy get: the ring's two copies
 * each miss the cache once the root reads the rings long after they were
 * written (more ranks than CPUs). Stream
 * against linear's messages, 2026-12-07, gatherv, us: 4 ranks 128 KiB
 * 29.7 / 31.6, 256 KiB 88.7 / 72.6; 8 ranks 128 KiB 112 / 123, 256 KiB
 * 239 / 180; 24 ranks 32 KiB 127 / 174, 64 KiB 305 / 251, 256 KiB 1236 /
 * 687 (Open MPI 713). */
enum { GATHER_RING_SMALL = 32 * 1024, GATHER_RING_MAX = 128 * 1024,
       GATHER_RING_CALL = 1024 * 1024 };

static size_t gather_ring_max(int p, MPI_Count bytes)
{
    if (p == 2)
        return PAIR_GATHER_RING_MAX;
    return (MPI_Count)(p - 1) * bytes <= GATHER_RING_CALL ? GATHER_RING_MAX : GATHER_RING_SMALL;
}

/* Write block b (read by comm rank `reader`) where it fits: inline at
 * cell + *used when it fits the cell's `room` bytes (*used grows), else
 * the ring up to ring_max bytes (at most a slot) where it has room in this
 * call (xb_coll_stream_alloc), else a message (the caller sends it). Its
 * descriptor. */
static uint64_t write_block(xb_coll_flow_t *f, xb_a2a_blk_t b, int reader, char *cell,
                            size_t *used, size_t room, size_t ring_max, int *rc)
{
    MPI_Count bytes = b.n * xb_dt_size(b.dt);
    uint64_t d = xb_vb_inline(b, cell, used, room, room, rc);
    if (d != 0)
        return d;
    uint64_t pos = (size_t)bytes <= ring_max && (size_t)bytes <= xb_coll_stream_max()
                 ? xb_coll_stream_alloc(f, (size_t)bytes, reader) : XB_COLL_STREAM_FULL;
    if (pos != XB_COLL_STREAM_FULL) {
        *rc = xb_coll_flow_copy(b.buf, b.n, b.dt, xb_coll_stream_ptr(f, f->me, pos), true);
        return xb_vb_desc(XB_VB_RING, bytes, pos % (2 * xb_coll_stream_max()));
    }
    *rc = XB_OK;
    return xb_vb_desc(XB_VB_MSG, bytes, 0);
}

/* Read the block `from` described by d (its writer's cell: `cell`). */
static int read_block(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_coll_kind_t kind,
                      int from, uint64_t d, const char *cell, xb_a2a_blk_t dst, int tag)
{
    const char *src = xb_vb_how(d) == XB_VB_INLINE ? cell + xb_vb_where(d)
                    : xb_vb_how(d) == XB_VB_RING ? xb_coll_stream_ptr(f, from, xb_vb_where(d))
                    : NULL;
    return xb_vb_read(a, kind, from, d, src, dst, tag);
}

/* The root reads past a block of this size or more that is not there
 * yet (gather_root). */
enum { ANY_ORDER_MIN = 32 * 1024 };

/* The root's read of rank j's block, once j has published. */
static int gather_from(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_a2a_form_t form,
                       xb_coll_kind_t kind, int tag, int j)
{
    xb_a2a_blk_t in = xb_a2a_rblk(a, form, j);
    size_t bytes = (size_t)(in.n * xb_dt_size(in.dt));
    xb_coll_flow_await_data(f, j, bytes);
    const uint64_t *cell = xb_coll_flow_cell(f, j);
    uint64_t d = (uint64_t)xb_coll_flow_word(f, j) << 32;
    if (xb_vb_how(d) == XB_VB_RING)
        d |= *cell;
    int rc = read_block(f, a, kind, j, d, (const char *)cell, in, tag);
    if (xb_vb_how(d) == XB_VB_INLINE)
        xb_coll_flow_read_ahead(f, j, bytes);             /* the writer's next cell */
    return rc;
}

/* The root: its own block, then the others' in the order they write
 * (root+1, ...); but where the next one's block is large and not there
 * yet, one that is there is read first: with more ranks than CPUs a
 * writer may not run for a while, and the root slept on it while the
 * large blocks of others waited (24 ranks on 2 CPUs, 256 KiB, 2026-12-07:
 * 680 us against 1120 in order; looking past small blocks cost 7% at
 * 4 KiB). */
static int gather_root(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_a2a_form_t form,
                       xb_coll_kind_t kind, int tag)
{
    int rc = XB_OK, left[XB_COLL_FLOW_MAXP], n = 0;
    if (a->sbuf != MPI_IN_PLACE) {
        xb_a2a_blk_t dst = xb_a2a_rblk(a, form, f->me);
        rc = xb_a2a_own_copy(a->sbuf, a->scount, a->sdt, dst.buf, dst.n, dst.dt);
    }
    for (int k = 1; k < f->p; k++)
        left[n++] = (f->me + k) % f->p;
    while (n > 0) {
        int i = 0;
        xb_a2a_blk_t next = xb_a2a_rblk(a, form, left[0]);
        if (next.n * xb_dt_size(next.dt) >= ANY_ORDER_MIN) {
            while (i < n && !xb_coll_flow_published(f, left[i]))
                i++;
            if (i == n)
                i = 0;
        }
        rc = xb_vb_keep(rc, gather_from(f, a, form, kind, tag, left[i]));
        memmove(&left[i], &left[i + 1], (size_t)(n - i - 1) * sizeof left[0]);
        n--;
    }
    return rc;
}

/* A gather(v) rank other than the root: its block where it fits, its
 * descriptor's high half in its seq word. */
static int gather_leaf(xb_coll_flow_t *f, const xb_coll_args_t *a, int tag)
{
    xb_a2a_blk_t b = { (char *)a->sbuf, a->scount, a->sdt };
    uint64_t *cell = xb_coll_flow_cell(f, f->me);
    size_t used = 0;
    int rc = XB_OK;
    xb_coll_flow_reserve_ahead(f);
    xb_request_t *sreq = NULL;
    size_t ring_max = gather_ring_max(f->p, b.n * xb_dt_size(b.dt));
    uint64_t d = write_block(f, b, a->root, (char *)cell, &used, XB_COLL_FLOW_CELL, ring_max,
                             &rc);
    if (xb_vb_how(d) == XB_VB_MSG &&
        (rc = xb_pt2pt_isend(b.buf, b.n, b.dt, a->root, tag, a->comm, 1, &sreq)) != XB_OK)
        d = XB_VB_FAILED;
    if (xb_vb_how(d) == XB_VB_RING)
        *cell = xb_vb_where(d);
    xb_coll_flow_publish_word(f, a->root, a->root + 1, (uint32_t)(d >> 32));
    if (xb_vb_how(d) == XB_VB_INLINE)
        xb_coll_flow_claim_next(f, used);
    if (sreq != NULL) {
        rc = xb_vb_keep(rc, xb_progress_wait(xb_progress_default(), sreq));
        xb_request_free(sreq);
    }
    return rc;
}

/* Scatter(v)'s blocks when they all fit the root's cell: the descriptors
 * and copies of write_block in one loop, one publish (about 200 fewer
 * instructions of the 8-byte scatter root at 4 ranks; scatterv's root,
 * which took the general loop: 0.255 -> 0.20 us at 4 ranks, 8 B,
 * interleaved A/B, 6 rounds, 2026-12-07).
 * False: they do not fit, nothing written. */
static bool scatter_inline(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_a2a_form_t form,
                           uint64_t *descs, size_t used, int *rc)
{
    size_t end = used;
    for (int j = 0; j < f->p; j++) {
        xb_a2a_blk_t b = xb_a2a_sblk(a, form, j);
        MPI_Count bytes = b.n * xb_dt_size(b.dt);
        if (j != f->me && (bytes > (MPI_Count)XB_COLL_FLOW_CELL ||
                           (end += ((size_t)bytes + 7) & ~(size_t)7) > XB_COLL_FLOW_CELL))
            return false;
    }
    for (int k = 1; k < f->p; k++) {          /* every one fits: xb_vb_inline takes it */
        int j = (f->me + k) % f->p, r = XB_OK;
        descs[j] = xb_vb_inline(xb_a2a_sblk(a, form, j), (char *)descs, &used,
                                XB_COLL_FLOW_CELL, XB_COLL_FLOW_CELL, &r);
        *rc = xb_vb_keep(*rc, r);
    }
    xb_coll_flow_progress(f, xb_coll_stream_prog(f, f->p - 1), -1);
    return true;
}

static int scatter_root(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_a2a_form_t form,
                        int tag)
{
    uint64_t *descs = xb_coll_flow_cell(f, f->me);
    size_t used = (size_t)f->p * sizeof *descs;
    xb_request_t *sreq[XB_COLL_FLOW_MAXP];
    int nsend = 0, rc = XB_OK, held = 0;
    xb_coll_flow_reserve(f);
    bool done = scatter_inline(f, a, form, descs, used, &rc);
    for (int k = 1; k < f->p && !done; k++) {
        int j = (f->me + k) % f->p, r = XB_OK;
        xb_a2a_blk_t b = xb_a2a_sblk(a, form, j);
        if (held > 0 && b.n * xb_dt_size(b.dt) > (MPI_Count)(XB_COLL_FLOW_CELL - used)) {
            xb_coll_flow_progress(f, xb_coll_stream_prog(f, k - 1), -1);  /* the inline ones */
            held = 0;
        }
        descs[j] = write_block(f, b, j, (char *)descs, &used, XB_COLL_FLOW_CELL,
                               SCATTER_RING_MAX, &r);
        if (xb_vb_how(descs[j]) == XB_VB_MSG) {
            if ((r = xb_pt2pt_isend(b.buf, b.n, b.dt, j, tag, a->comm, 1, &sreq[nsend])) == XB_OK)
                nsend++;
            else
                descs[j] = XB_VB_FAILED;
        }
        if (xb_vb_how(descs[j]) == XB_VB_INLINE)
            held++;             /* published with the next block that is not */
        else
            xb_coll_flow_progress(f, xb_coll_stream_prog(f, k), j);  /* even after an error */
        rc = xb_vb_keep(rc, r);
    }
    if (held > 0)
        xb_coll_flow_progress(f, xb_coll_stream_prog(f, f->p - 1), -1);
    if (a->rbuf != MPI_IN_PLACE) {
        xb_a2a_blk_t own = xb_a2a_sblk(a, form, f->me);
        rc = xb_vb_keep(rc, xb_a2a_own_copy(own.buf, own.n, own.dt, a->rbuf, a->rcount, a->rdt));
    }
    for (int i = 0; i < nsend; i++) {
        rc = xb_vb_keep(rc, xb_progress_wait(xb_progress_default(), sreq[i]));
        xb_request_free(sreq[i]);
    }
    return rc;
}

/* A scatter(v) rank other than the root: its block, as the root's
 * descriptor says. */
static int scatter_leaf(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_coll_kind_t kind,
                        int tag)
{
    int k = (f->me - a->root + f->p) % f->p;
    xb_coll_flow_await_progress(f, a->root, xb_coll_stream_prog(f, k));
    const uint64_t *descs = xb_coll_flow_cell(f, a->root);
    xb_a2a_blk_t dst = { a->rbuf, a->rcount, a->rdt };
    return read_block(f, a, kind, a->root, descs[f->me], (const char *)descs, dst, tag);
}

/* One call of the four: one stream call on every rank. */
static int run(const xb_coll_args_t *a, xb_a2a_form_t form, xb_coll_kind_t kind, int tag)
{
    bool gather = kind == XB_COLL_GATHER || kind == XB_COLL_GATHERV;
    xb_coll_flow_t f;
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    if (f.me == a->root)
        rc = gather ? gather_root(&f, a, form, kind, tag) : scatter_root(&f, a, form, tag);
    else
        rc = gather ? gather_leaf(&f, a, tag) : scatter_leaf(&f, a, kind, tag);
    xb_coll_flow_end(&f);
    return rc;
}

int xb_coll_gather_stream(const xb_coll_args_t *a, int tag)
{
    return run(a, XB_A2A, XB_COLL_GATHER, tag);
}

int xb_coll_gatherv_stream(const xb_coll_args_t *a, int tag)
{
    return run(a, XB_A2AV, XB_COLL_GATHERV, tag);
}

int xb_coll_scatter_stream(const xb_coll_args_t *a, int tag)
{
    return run(a, XB_A2A, XB_COLL_SCATTER, tag);
}

int xb_coll_scatterv_stream(const xb_coll_args_t *a, int tag)
{
    return run(a, XB_A2AV, XB_COLL_SCATTERV, tag);
}
