/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream_vrooted.c - gatherv and scatterv through the node's flow cells and
 * the writers' rings (node_flow.c, node_stream.c), run directly (blocking
 * form, no schedule, no barrier): the `stream` algorithms of the v forms,
 * on node-complete communicators of 3 ranks or more (2: pair_cell.c).
 *
 * A rank of a v call knows only its own count (the root: all of them), so
 * the ranks cannot agree beforehand where the blocks go, as gather and
 * scatter do. The writer of each block decides alone and says so in a
 * descriptor (one 64-bit word) that the block's reader follows:
 *
 *   inline   the bytes in the writer's cell of the call (small blocks)
 *   ring     the bytes in the writer's ring (up to a slot)
 *   message  one message on the collective context (beyond a slot)
 *
 * The descriptor also holds the block's byte count, which the reader
 * compares with its own: counts that differ (an erroneous program) fail on
 * the reader with MPI_ERR_TRUNCATE (coll_check.c), never a short or long
 * copy. A message is received by xb_coll_recv_exact whatever the reader
 * expected, and a reader goes on through the other blocks after an error,
 * so no writer is left waiting.
 *
 *   gatherv   every other rank publishes its descriptor's high half (how
 *             and bytes) in its seq word (xb_coll_flow_publish_word), and
 *             the ring position in its cell: an inline block has the whole
 *             cell, as in the flow gather; a message goes after the
 *             publish. The root follows the descriptors in the order the
 *             ranks wrote (root+1, ...)
 *   scatterv  the root's cell holds p descriptors, then the inline blocks
 *             in what is left of it; the root publishes each block's
 *             progress as it goes (rank j copies while the root writes
 *             the next block, as in the stream scatter) and waits for its
 *             messages at the end
 *
 * Every call is one flow call on every rank (stream_rooted.c's start: a
 * node barrier only when the slot collectives ran since the last one).
 */
#include "coll/alltoall_blocks.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"

enum { V_INLINE = 1, V_RING = 2, V_MSG = 3 };
#define V_LEN_MAX ((UINT64_C(1) << 30) - 1)

/* how (2 bits) | bytes (30 bits: a message's may be larger, kept only as
 * far as it fits) | where (32 bits: an offset in the cell, or a ring
 * position modulo the ring's 2 slots, which is all xb_coll_stream_ptr
 * reads) */
static uint64_t desc(int how, MPI_Count bytes, uint64_t where)
{
    uint64_t len = (uint64_t)bytes > V_LEN_MAX ? V_LEN_MAX : (uint64_t)bytes;
    return (uint64_t)how << 62 | len << 32 | (where & UINT32_MAX);
}

static int stream_begin(xb_coll_flow_t *f, const xb_coll_args_t *a)
{
    int rc = xb_coll_flow_begin(f, a->comm);
    if (rc == XB_OK)
        xb_coll_stream_begin();
    return rc;
}

/* Write block b (read by comm rank `reader`) where it fits: inline at
 * cell + *used when it fits the cell's `room` bytes (*used grows), else
 * the ring, else a message (the caller sends it). Its descriptor. */
static uint64_t write_block(xb_coll_flow_t *f, xb_a2a_blk_t b, int reader, char *cell,
                            size_t *used, size_t room, int *rc)
{
    MPI_Count bytes = b.n * xb_dt_size(b.dt);
    if ((size_t)bytes <= room - *used) {
        size_t at = *used;
        *used += ((size_t)bytes + 7) & ~(size_t)7;
        *rc = xb_coll_flow_copy(b.buf, b.n, b.dt, cell + at, true);
        return desc(V_INLINE, bytes, at);
    }
    if ((size_t)bytes <= xb_coll_stream_max()) {
        uint64_t pos = xb_coll_stream_alloc(f, (size_t)bytes, reader);
        *rc = xb_coll_flow_copy(b.buf, b.n, b.dt, xb_coll_stream_ptr(f, f->me, pos), true);
        return desc(V_RING, bytes, pos % (2 * xb_coll_stream_max()));
    }
    *rc = XB_OK;
    return desc(V_MSG, bytes, 0);
}

/* Read the block `from` described by d (its cell: `cell`) into dst. */
static int read_block(xb_coll_flow_t *f, const xb_coll_args_t *a, xb_coll_kind_t kind,
                      int from, uint64_t d, const char *cell, xb_a2a_blk_t dst, int tag)
{
    int how = (int)(d >> 62);
    uint64_t len = d >> 32 & V_LEN_MAX, where = d & UINT32_MAX;
    MPI_Count want = dst.n * xb_dt_size(dst.dt);
    if (how == V_MSG)
        return xb_coll_recv_exact(dst.buf, dst.n, dst.dt, from, tag, a->comm, -1, (int)kind,
                                  NULL);
    if ((MPI_Count)len != want)
        return xb_coll_mismatch((int)kind, -1, from, (size_t)len, want, dst.n, dst.dt);
    if (len == 0)
        return XB_OK;
    const char *src = how == V_INLINE ? cell + where : xb_coll_stream_ptr(f, from, where);
    return xb_coll_flow_copy(dst.buf, dst.n, dst.dt, (void *)src, false);
}

static int keep(int rc, int r) { return rc != XB_OK ? rc : r; }

static int gatherv_root(xb_coll_flow_t *f, const xb_coll_args_t *a, int tag)
{
    MPI_Aint ext = xb_dt_extent(a->rdt);
    int rc = XB_OK;
    for (int k = 1; k <= f->p; k++) {
        int j = (f->me + k) % f->p;      /* the others first, in the order they wrote */
        xb_a2a_blk_t dst = { (char *)a->rbuf + a->rdispls[j] * ext, a->rcounts[j], a->rdt };
        if (j == f->me) {
            if (a->sbuf != MPI_IN_PLACE)
                rc = keep(rc, xb_dt_copy(a->sbuf, a->scount, a->sdt, dst.buf, dst.n, dst.dt));
            continue;
        }
        xb_coll_flow_await(f, j);
        const uint64_t *cell = xb_coll_flow_cell(f, j);
        uint64_t d = (uint64_t)xb_coll_flow_word(f, j) << 32;
        if (d >> 62 == V_RING)
            d |= *cell;
        rc = keep(rc, read_block(f, a, XB_COLL_GATHERV, j, d, (const char *)cell, dst, tag));
    }
    return rc;
}

int xb_coll_gatherv_stream(const xb_coll_args_t *a, int tag)
{
    xb_coll_flow_t f;
    int rc = stream_begin(&f, a);
    if (rc != XB_OK)
        return rc;
    if (f.me == a->root) {
        rc = gatherv_root(&f, a, tag);
    } else {
        xb_a2a_blk_t b = { (char *)a->sbuf, a->scount, a->sdt };
        uint64_t *cell = xb_coll_flow_cell(&f, f.me);
        size_t used = 0;
        xb_coll_flow_reserve(&f);
        uint64_t d = write_block(&f, b, a->root, (char *)cell, &used, XB_COLL_FLOW_CELL, &rc);
        if (d >> 62 == V_RING)
            *cell = d & UINT32_MAX;
        xb_coll_flow_publish_word(&f, a->root, a->root + 1, (uint32_t)(d >> 32));
        if (d >> 62 == V_MSG)          /* after the publish, even after an error */
            rc = keep(rc, xb_pt2pt_send(b.buf, b.n, b.dt, a->root, tag, a->comm, 1));
    }
    xb_coll_flow_end(&f);
    return rc;
}

/* The progress value of block k (1-based) of call n (stream_rooted.c's). */
static uint64_t prog(const xb_coll_flow_t *f, int k)
{
    return ((f->n + 1) << 7) + (uint64_t)k;
}

static int scatterv_root(xb_coll_flow_t *f, const xb_coll_args_t *a, int tag)
{
    MPI_Aint ext = xb_dt_extent(a->sdt);
    uint64_t *descs = xb_coll_flow_cell(f, f->me);
    size_t used = (size_t)f->p * sizeof *descs;
    xb_request_t *sreq[XB_COLL_FLOW_MAXP];
    int nsend = 0, rc = XB_OK, held = 0;
    xb_coll_flow_reserve(f);
    for (int k = 1; k < f->p; k++) {
        int j = (f->me + k) % f->p, r = XB_OK;
        xb_a2a_blk_t b = { (char *)a->sbuf + a->sdispls[j] * ext, a->scounts[j], a->sdt };
        if (held > 0 && b.n * xb_dt_size(b.dt) > (MPI_Count)(XB_COLL_FLOW_CELL - used)) {
            xb_coll_flow_progress(f, prog(f, k - 1), -1);   /* the inline ones so far */
            held = 0;
        }
        descs[j] = write_block(f, b, j, (char *)descs, &used, XB_COLL_FLOW_CELL, &r);
        if (descs[j] >> 62 == V_INLINE)
            held++;             /* published with the next block that is not */
        else
            xb_coll_flow_progress(f, prog(f, k), j);   /* even after an error: nobody hangs */
        if (descs[j] >> 62 == V_MSG && r == XB_OK &&
            (r = xb_pt2pt_isend(b.buf, b.n, b.dt, j, tag, a->comm, 1, &sreq[nsend])) == XB_OK)
            nsend++;
        rc = keep(rc, r);
    }
    if (held > 0)
        xb_coll_flow_progress(f, prog(f, f->p - 1), -1);
    if (a->rbuf != MPI_IN_PLACE) {
        xb_a2a_blk_t own = { (char *)a->sbuf + a->sdispls[f->me] * ext, a->scounts[f->me],
                             a->sdt };
        rc = keep(rc, xb_dt_copy(own.buf, own.n, own.dt, a->rbuf, a->rcount, a->rdt));
    }
    for (int i = 0; i < nsend; i++) {
        rc = keep(rc, xb_progress_wait(xb_progress_default(), sreq[i]));
        xb_request_free(sreq[i]);
    }
    return rc;
}

int xb_coll_scatterv_stream(const xb_coll_args_t *a, int tag)
{
    xb_coll_flow_t f;
    int rc = stream_begin(&f, a);
    if (rc != XB_OK)
        return rc;
    if (f.me == a->root) {
        rc = scatterv_root(&f, a, tag);
    } else {
        xb_coll_flow_await_progress(&f, a->root, prog(&f, (f.me - a->root + f.p) % f.p));
        const uint64_t *descs = xb_coll_flow_cell(&f, a->root);
        xb_a2a_blk_t dst = { a->rbuf, a->rcount, a->rdt };
        rc = read_block(&f, a, XB_COLL_SCATTERV, a->root, descs[f.me], (const char *)descs,
                        dst, tag);
    }
    xb_coll_flow_end(&f);
    return rc;
}
