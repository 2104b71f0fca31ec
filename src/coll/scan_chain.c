/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scan_chain.c - scan and exscan of any size as a chain through the node's
 * shared memory (node_chain.c), run directly (blocking form). For each
 * chunk of the working vector, in order:
 *
 *   rank i < p-1   reserves chunk k of its ring, copies x_i's chunk into
 *                  it, waits for chunk k of rank i-1's ring (P_i-1, i > 0),
 *                  combines it there: P_i = P_i-1 op x_i (rank order: any
 *                  op), publishes it for rank i+1
 *   result         scan: P_i (rank p-1: P_p-2 op x_p-1 straight into the
 *                  receive buffer); exscan: P_i-1 (rank 0's receive buffer
 *                  stays untouched)
 *   rank i > 0     releases rank i-1's chunk
 *
 * Every rank works on its chunk while its neighbours work on theirs: a
 * pipeline of p stages that moves each byte once per rank (recursive
 * doubling moved the whole vector log2 p times and needed every rank for
 * each round; the slot scan reduced i + 1 vectors at rank i). No barrier:
 * rank 0 leaves when its last chunk is in its ring, and back-to-back calls
 * pipeline like Open MPI's linear chain of messages, without the messages.
 *
 * Chunks hold working elements as they lie in memory: a contiguous user
 * vector whose type is the working type (any op, a user op on a
 * contiguous derived type included) is copied with memcpy; a derived type
 * of one basic type without holes (a predefined op) is packed and
 * unpacked at the chunk's offset (xb_dt_pack / xb_dt_unpack). A user op
 * runs without the lock.
 */
#include <string.h>
#include "coll/coll_int.h"
#include "util/xb_mt.h"

typedef struct {
    xb_coll_chain_t c;
    xb_coll_red_t   red;
    bool            direct, inclusive, inplace;
    xb_coll_kind_t  kind;
    void           *xbuf, *rbuf;      /* user buffers (xbuf: rbuf in place) */
    char           *x, *r;            /* direct: their working vectors      */
    size_t          ext;              /* of a working element               */
    MPI_Count       per;              /* working elements per chunk         */
    uint64_t        bytes, nchunks;   /* of the working vector (this rank's) */
} scan_t;

static int apply(const scan_t *s, const void *in, void *inout, MPI_Count m)
{
    xb_mutex_t *held = s->red.op->predefined ? NULL : xb_cb_begin();
    int rc = xb_op_apply(s->red.op, in, inout, m, s->red.wdt);
    xb_cb_end(held);
    return rc;
}

/* x's bytes [off, off + n) of the working vector to dst. */
static int load(const scan_t *s, size_t off, void *dst, size_t n)
{
    if (s->direct) {
        memcpy(dst, s->x + off, n);
        return XB_OK;
    }
    size_t done = 0;
    int rc = xb_dt_pack(s->xbuf, s->red.count, s->red.dt, off, dst, n, &done);
    if (rc == XB_OK && done != n)
        rc = xb_err_set(XB_ERR_INTERN, "a chain scan packed %zu of %zu bytes at offset %zu",
                        done, n, off);
    return rc;
}

/* src to the receive buffer's bytes [off, off + n) of the working vector. */
static int store(const scan_t *s, size_t off, const void *src, size_t n)
{
    if (s->direct) {
        if (s->r + off != src)
            memcpy(s->r + off, src, n);
        return XB_OK;
    }
    return xb_dt_unpack(s->rbuf, s->red.count, s->red.dt, off, src, n);
}

/* The last rank's scan result: P_p-2 op x_p-1. */
static int last_scan(const scan_t *s, size_t off, size_t n, MPI_Count m, const void *prev)
{
    if (s->direct) {
        if (!s->inplace)
            memcpy(s->r + off, s->x + off, n);
        return apply(s, prev, s->r + off, m);
    }
    _Alignas(64) char tmp[XB_COLL_CHAIN_CHUNK];
    int rc = load(s, off, tmp, n);
    if (rc == XB_OK)
        rc = apply(s, prev, tmp, m);
    if (rc == XB_OK)
        rc = store(s, off, tmp, n);
    return rc;
}

/* Chunk k. After an error the chain still runs (the next rank waits),
 * without touching data, its chunks' heads saying FAILED. */
static int one_chunk(scan_t *s, uint64_t k, int rc)
{
    int me = s->c.f.me, last = s->c.f.p - 1;
    MPI_Count e0 = (MPI_Count)k * s->per;
    MPI_Count m = s->red.wcount - e0 < s->per ? s->red.wcount - e0 : s->per;
    size_t off = (size_t)e0 * s->ext, n = (size_t)m * s->ext;
    char *own = NULL;
    const void *prev = NULL;
    if (me < last) {
        own = xb_coll_chain_reserve(&s->c, k);
        if (rc == XB_OK)
            rc = load(s, off, own, n);                                  /* x_i */
    }
    if (me > 0) {
        uint64_t head;
        prev = xb_coll_chain_await(&s->c, k, &head);                    /* P_i-1 */
        if (rc == XB_OK && head != s->bytes)      /* FAILED: the cell said our bytes */
            rc = xb_coll_flow_check_word(XB_COLL_FLOW_FAILED, me - 1, s->bytes, s->kind);
        if (me < last && rc == XB_OK)
            rc = apply(s, prev, own, m);                                /* P_i */
    }
    if (me < last)
        xb_coll_chain_publish(&s->c, k, rc == XB_OK ? s->bytes : XB_COLL_CHAIN_FAILED);
    if (rc == XB_OK) {
        if (!s->inclusive)
            rc = me > 0 ? store(s, off, prev, n) : XB_OK;
        else if (me < last)
            rc = me == 0 && s->inplace ? XB_OK : store(s, off, own, n);
        else
            rc = last_scan(s, off, n, m, prev);
    }
    if (me > 0)
        xb_coll_chain_release(&s->c, k);
    return rc;
}

static int run(const xb_coll_args_t *a, bool inclusive)
{
    scan_t s = { .inclusive = inclusive, .inplace = a->sbuf == MPI_IN_PLACE,
                 .rbuf = a->rbuf, .kind = inclusive ? XB_COLL_SCAN : XB_COLL_EXSCAN };
    int rc = xb_coll_flow_red(&s.red, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    s.xbuf = s.inplace ? a->rbuf : (void *)a->sbuf;
    s.direct = xb_coll_chain_direct(&s.red);
    s.ext = (size_t)xb_dt_extent(s.red.wdt);
    s.per = (MPI_Count)(XB_COLL_CHAIN_CHUNK / s.ext);
    if (s.direct) {
        s.x = (char *)s.xbuf + xb_dt_true_lb(s.red.dt);
        s.r = (char *)s.rbuf + xb_dt_true_lb(s.red.dt);
    }
    s.bytes = xb_coll_flow_wbytes(&s.red);
    s.nchunks = (uint64_t)((s.red.wcount + s.per - 1) / s.per);
    rc = xb_coll_chain_begin(&s.c, a->comm);
    if (rc != XB_OK)
        return rc;
    rc = xb_coll_chain_start(&s.c, s.bytes, s.nchunks, s.kind);
    if (rc != XB_OK) {
        /* the counts differ: FAILED and no chunks announced */
    } else if (s.c.f.p == 1) {
        if (inclusive && !s.inplace)
            rc = xb_dt_copy(a->sbuf, a->rcount, a->rdt, a->rbuf, a->rcount, a->rdt);
    } else {
        for (uint64_t k = 0; k < s.nchunks; k++)
            rc = one_chunk(&s, k, rc);
    }
    xb_coll_chain_end(&s.c);
    return rc;
}

int xb_coll_scan_chain(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    return run(a, true);
}

int xb_coll_exscan_chain(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    return run(a, false);
}
