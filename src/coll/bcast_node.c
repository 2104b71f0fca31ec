/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_node.c - the node broadcasts without a barrier: "flow" (the data in
 * the root's flow cell, node_flow.c), "stream" (the data in the root's
 * ring, node_stream.c; beyond a slot in segments of half a slot, each a
 * call of its own) and, at 2 ranks, "direct" (a header in the cell, the
 * data as one message), run directly (blocking form).
 *
 * Which of the two a rank takes depends on its byte count, and the counts
 * may differ (an erroneous program: the root sends more or less than a
 * receiver's buffer holds). So the root decides and the receivers follow:
 * the root's header word travels in its cell's seq word (the same store as
 * the seq, xb_coll_flow_publish_word) and every receiver, whichever of the
 * two it selected, runs the same code (reader()):
 *
 *   word = bytes + 1        the data is in the cell (flow; bytes <= 512)
 *   word = RING             the data is in the root's ring; the cell holds
 *                           its position (word 0) and the whole broadcast's
 *                           bytes (word 1)
 *   word = DIRECT           "direct" (2 ranks, large): the data comes as one
 *                           point-to-point message of the call's tag, which
 *                           the receiver's single-copy get takes straight
 *                           from the root's buffer; the cell holds the
 *                           bytes (word 1). One copy instead of the ring's
 *                           two (docs/PERFORMANCE.md, 2026-12-06)
 *
 * A receiver that learns of the ring follows the root's segments (their
 * number comes from the root's bytes). It copies
 * only when the root's bytes equal its own; otherwise it fails with
 * XB_ERR_TRUNCATE (coll_check.c) without writing its buffer. The check is a
 * compare of a word the receiver loads anyway. A DIRECT receiver receives
 * the message with its own count whatever the root's bytes, so that the
 * message is consumed either way, and xb_coll_recv_exact fails the call
 * when the two differ.
 */
#include <string.h>
#include "coll/coll_int.h"
#include "method/method.h"
#include "pt2pt/pt2pt.h"

enum { RING = 1u << 31, DIRECT = 1u << 29 };

/* Bytes of segment `off` of a ring bcast of `total` bytes. */
static size_t seg_len(uint64_t total, uint64_t off)
{
    size_t max = xb_coll_stream_max();
    size_t per = total > max ? max / 2 : (size_t)total;
    return total - off < per ? (size_t)(total - off) : per;
}

/* The root: one call of the flow cells (the data in the cell). */
static int root_cell(const xb_coll_args_t *a)
{
    xb_coll_flow_t f;
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    MPI_Count bytes = a->rcount * xb_dt_size(a->rdt);
    xb_coll_flow_reserve(&f);
    rc = xb_coll_flow_copy(a->rbuf, a->rcount, a->rdt, xb_coll_flow_cell(&f, f.me), true);
    xb_coll_flow_publish_word(&f, 0, f.p, (uint32_t)bytes + 1);
    xb_coll_flow_claim_next(&f, (size_t)bytes);
    xb_coll_flow_end(&f);
    return rc;
}

/* The root: one ring call of len bytes at data (of total), or of the
 * user's buffer when data is NULL (one call: packed straight into the ring). */
static int root_ring(const xb_coll_args_t *a, const char *data, size_t len, uint64_t total)
{
    xb_coll_flow_t f;
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    uint64_t *cell = xb_coll_flow_cell(&f, f.me);
    xb_coll_flow_reserve(&f);
    cell[1] = total;
    if (len > 0) {                      /* one allocation a call: never FULL */
        cell[0] = xb_coll_stream_alloc(&f, len, -1);
        void *dst = xb_coll_stream_ptr(&f, f.me, cell[0]);
        if (data != NULL)
            memcpy(dst, data, len);
        else
            rc = xb_coll_flow_copy(a->rbuf, a->rcount, a->rdt, dst, true);
    }
    xb_coll_flow_publish_word(&f, 0, f.p, RING);
    xb_coll_flow_end(&f);
    return rc;
}

/* Beyond a slot in segments of bytes, cut alike on every rank whatever its
 * layout of the signature: a buffer that is not contiguous is packed into a
 * temporary first (a receiver's is unpacked after). The segments run even
 * after an error, so that the others stay in step. */
static int root_stream(const xb_coll_args_t *a)
{
    uint64_t total = (uint64_t)(a->rcount * xb_dt_size(a->rdt)), off = 0;
    if (total <= xb_coll_stream_max())
        return root_ring(a, NULL, (size_t)total, total);
    char *tmp;
    int rc = XB_OK;
    const char *data = xb_coll_bytes_now(a->rbuf, a->rcount, a->rdt, true, &tmp, &rc);
    do {
        size_t len = seg_len(total, off);
        int r = root_ring(a, data != NULL ? data + off : "", data != NULL ? len : 0, total);
        rc = rc == XB_OK ? r : rc;
        off += len;
    } while (off < total);
    return xb_coll_bytes_now_done(tmp, a->rbuf, a->rcount, a->rdt, false, rc);
}

/* The root of "direct": the header, then the data as one message. Where
 * the method to the peer has no single-copy get (XB_SHM_CMA=0, a seccomp
 * filter), the message would go through the rings in two copies anyway,
 * and the stream lets the root run ahead of them: it takes the stream. */
static int root_direct(const xb_coll_args_t *a, int tag)
{
    int peer = 1 - a->root;
    xb_method_t *m = xb_peer_method(xb_comm_gpid(a->comm, peer));
    if (m == NULL || !(m->caps.flags & XB_METHOD_CAP_GET))
        return root_stream(a);
    xb_coll_flow_t f;
    int rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    xb_coll_flow_reserve(&f);
    uint64_t *cell = xb_coll_flow_cell(&f, f.me);
    cell[1] = (uint64_t)(a->rcount * xb_dt_size(a->rdt));
    xb_coll_flow_publish_word(&f, 0, f.p, DIRECT);
    xb_coll_flow_end(&f);
    return xb_pt2pt_send(a->rbuf, a->rcount, a->rdt, peer, tag, a->comm, 1);
}

/* A receiver: every call the root makes; copies when the bytes match. */
static int reader(const xb_coll_args_t *a, int tag)
{
    uint64_t mine = (uint64_t)(a->rcount * xb_dt_size(a->rdt)), total = 0, off = 0;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    char *tmp = NULL, *data = NULL;
    int rc = XB_OK;
    bool match = true;
    do {
        xb_coll_flow_t f;
        int r = xb_coll_flow_begin(&f, a->comm);
        if (r != XB_OK)
            return r;
        xb_coll_flow_await_data(&f, a->root, (size_t)mine);
        uint32_t w = xb_coll_flow_word(&f, a->root);
        const uint64_t *cell = xb_coll_flow_cell(&f, a->root);
        if (w == DIRECT) {                               /* the data as a message */
            xb_coll_flow_end(&f);
            return xb_coll_recv_exact(a->rbuf, a->rcount, a->rdt, a->root, tag, a->comm,
                                      a->root, XB_COLL_BCAST, NULL);
        }
        if (!(w & RING)) {                               /* the data in the cell */
            total = w - 1;
            match = total == mine;
            if (match && total > 0)
                rc = xb_coll_flow_copy(a->rbuf, a->rcount, a->rdt, (void *)cell, false);
            xb_coll_flow_read_ahead(&f, a->root, (size_t)total);
            xb_coll_flow_end(&f);
            break;
        }
        total = cell[1];
        size_t len = seg_len(total, off);
        if (off == 0) {
            match = total == mine;
            if (match && total > xb_coll_stream_max())
                data = xb_coll_bytes_now(a->rbuf, a->rcount, a->rdt, false, &tmp, &rc);
        }
        if (match && len > 0 && rc == XB_OK) {
            void *src = xb_coll_stream_ptr(&f, a->root, cell[0]);
            if (len == total)                            /* one call: straight out */
                rc = xb_coll_flow_copy(a->rbuf, a->rcount, a->rdt, src, false);
            else if (data != NULL)
                rc = xb_coll_flow_copy(data + off, (MPI_Count)len, byte, src, false);
        }
        xb_coll_flow_end(&f);
        off += len;
    } while (off < total);
    if (data != NULL)
        rc = xb_coll_bytes_now_done(tmp, a->rbuf, a->rcount, a->rdt, true, rc);
    if (!match)
        return xb_coll_bcast_mismatch(a->root, (size_t)total, a->rcount, a->rdt);
    return rc;
}

int xb_coll_bcast_flow(const xb_coll_args_t *a, int tag)
{
    return a->comm->rank == a->root ? root_cell(a) : reader(a, tag);
}

int xb_coll_bcast_stream(const xb_coll_args_t *a, int tag)
{
    return a->comm->rank == a->root ? root_stream(a) : reader(a, tag);
}

int xb_coll_bcast_direct(const xb_coll_args_t *a, int tag)
{
    return a->comm->rank == a->root ? root_direct(a, tag) : reader(a, tag);
}
