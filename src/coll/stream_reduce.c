/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream_reduce.c - reduce beyond a flow cell through each writer's ring
 * (node_stream.c), run directly (blocking form, no schedule, no barrier):
 * every other rank copies its working vector into its ring and leaves; the
 * root combines x_0 op (x_1 op (... op x_p-1)) in rank order
 * (non-commutative ops right), a user op without the lock, when it runs.
 * Where the data lies goes in the writer's flow cell of the call. Beyond a
 * slot, in segments of half a slot, each a call of its own (segmented()).
 *
 * The ring holds packed bytes (xb_coll_flow_copy); reduce needs a
 * predefined working type. One allocation is at most a slot
 * (xb_coll_stream_fits). The other stream algorithms: bcast_node.c
 * (bcast), stream_gather.c (gather, scatter and their v forms).
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"

/* A segmented writer's header word: SEG | the segment's bytes; its cell
 * holds the ring position (word 0) and its whole vector's bytes (word 1).
 * The root's verdict after segment 0: GO in its own cell. */
enum { SEG = 1u << 27, GO = 1u };

/* Whether rank j's header word w is `want` (wb bytes, SEG with them in a
 * segmented reduce); else the error: the counts differ, or j failed. */
static int check(const xb_coll_flow_t *f, int j, uint32_t w, uint32_t want, size_t wb)
{
    if (XB_LIKELY(w == want))
        return XB_OK;
    const uint64_t *cell = xb_coll_flow_cell(f, j);
    if (w & SEG)                                 /* j's whole vector: cell word 1 */
        return xb_coll_mismatch(XB_COLL_REDUCE, -1, j, (size_t)cell[1], (MPI_Count)wb, 0, NULL);
    return xb_coll_flow_check_word(w, j, wb, XB_COLL_REDUCE);
}

/* Rank j's operand (after its await): where its data lies in its ring,
 * when its header word is `want` (a writer of a flow reduce, whose count
 * fit a cell, says its own bytes: they differ); NULL and *rc else. */
static const void *operand(xb_coll_flow_t *f, int j, uint32_t want, size_t wb, int *rc)
{
    xb_coll_flow_await(f, j);
    *rc = check(f, j, xb_coll_flow_word(f, j), want, wb);
    return *rc == XB_OK ? xb_coll_stream_ptr(f, j, *(const uint64_t *)xb_coll_flow_cell(f, j))
                        : NULL;
}

/* The root: acc = x_0 op (x_1 op (... op x_p-1)), its own operand `own`. */
static int reduce_root(xb_coll_flow_t *f, const xb_coll_red_t *red, uint32_t want,
                       const void *own, void *acc)
{
    int last = f->p - 1, rc = XB_OK;
    xb_op_kernel_t k = xb_op_kernel(red->op, red->wdt);
    size_t wb = xb_coll_flow_wbytes(red);
    const void *x = last == f->me ? own : operand(f, last, want, wb, &rc);
    if (rc == XB_OK && wb > 0)
        memmove(acc, x, wb);
    for (int j = last - 1; j >= 0 && rc == XB_OK; j--) {
        x = j == f->me ? own : operand(f, j, want, wb, &rc);
        if (rc == XB_OK && wb > 0)
            rc = xb_coll_flow_apply_k(red, k, x, acc);
    }
    return rc;
}

/* The root's reduce: straight into rbuf when the user's type is the
 * working type and contiguous and the call is not in place; else through
 * working copies. */
static int reduce_at_root(xb_coll_flow_t *f, const xb_coll_args_t *a, const xb_coll_red_t *red,
                          uint32_t want)
{
    bool in_place = a->sbuf == MPI_IN_PLACE, plain = red->dt == red->wdt &&
                    xb_dt_is_contig(red->dt, red->count);
    size_t wb = xb_coll_flow_wbytes(red);
    char *own = NULL, *acc = NULL, *tmp = NULL;
    if (!plain || in_place) {
        tmp = malloc(2 * wb + 1);
        if (tmp == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte reduce buffer",
                              wb);
    }
    int rc = XB_OK;
    if (plain) {
        own = (char *)(in_place ? a->rbuf : a->sbuf) + xb_dt_true_lb(red->dt);
        acc = in_place ? tmp : (char *)a->rbuf + xb_dt_true_lb(red->dt);
    } else {
        own = tmp;
        acc = tmp + wb;
        rc = xb_coll_flow_wcopy(red, (void *)(in_place ? a->rbuf : a->sbuf), own, true);
    }
    if (rc == XB_OK)
        rc = reduce_root(f, red, want, own, acc);
    if (rc == XB_OK && tmp != NULL)
        rc = xb_coll_flow_wcopy(red, a->rbuf, acc, false);
    free(tmp);
    return rc;
}

/* The root of a segmented reduce, segment 0: every writer's word must say
 * a segment (`want`: SEG | its bytes) of a vector of `total` bytes, as
 * the root's (the ranks make as many calls as the root). Then GO in the
 * root's cell; otherwise none, and the writers stop after this call
 * (xb_coll_flow_await_or_end), the root too. */
static int verdict(xb_coll_flow_t *f, uint64_t total, uint32_t want)
{
    for (int j = 0; j < f->p; j++) {
        if (j == f->me)
            continue;
        xb_coll_flow_await(f, j);
        uint32_t w = xb_coll_flow_word(f, j);
        const uint64_t *cell = xb_coll_flow_cell(f, j);
        if (w == want && cell[1] == total)
            continue;
        return w == want ? xb_coll_mismatch(XB_COLL_REDUCE, -1, j, (size_t)cell[1],
                                            (MPI_Count)total, 0, NULL)
                         : check(f, j, w, want, total);
    }
    xb_coll_flow_reserve(f);
    xb_coll_flow_publish_word(f, 0, f->p, GO);
    return XB_OK;
}

/* One call: the whole reduce (seg 0), or one segment of a segmented one
 * (seg: the whole vector's bytes). At the root, with go (segment 0): the
 * verdict. At a writer, with prev (segment 1; prev: segment 0's call):
 * whether the root gave GO in prev, waited for after this segment's copy
 * (which thus overlaps the root's checks); without GO the call stops
 * there unpublished, its flow number unused, and *go is false. */
static int reduce_one(const xb_coll_args_t *a, uint64_t seg, xb_coll_flow_t *f,
                      xb_coll_flow_t *prev, bool *go)
{
    xb_coll_red_t red;
    int rc = xb_coll_flow_red(&red, a->rcount, a->rdt, a->op);
    if (rc == XB_OK)
        rc = xb_coll_flow_begin(f, a->comm);
    if (rc != XB_OK)
        return rc;
    size_t wb = xb_coll_flow_wbytes(&red);
    uint32_t want = seg != 0 ? SEG | (uint32_t)wb : (uint32_t)wb;
    if (f->me != a->root) {
        uint64_t *cell = xb_coll_flow_cell(f, f->me);
        xb_coll_flow_reserve(f);
        if (wb > 0) {
            cell[0] = xb_coll_stream_alloc(f, wb, a->root);    /* one a call: never FULL */
            rc = xb_coll_flow_wcopy(&red, (void *)a->sbuf, xb_coll_stream_ptr(f, f->me, cell[0]),
                                    true);
        }
        if (prev != NULL && !(*go = xb_coll_flow_await_or_end(prev, a->root))) {
            if (wb > 0)
                xb_coll_stream_unalloc(cell[0]);
            return xb_err_set(XB_ERR_TRUNCATE, "the root (rank %d) of this MPI_Reduce stopped "
                              "after its first segment: the ranks' counts or types do not "
                              "match", a->root);
        }
        cell[1] = seg;
        xb_coll_flow_publish_word(f, a->root, a->root + 1,      /* its bytes: the root checks */
                                  rc == XB_OK ? want : XB_COLL_FLOW_FAILED);
    } else {
        if (go != NULL)
            *go = (rc = verdict(f, seg, want)) == XB_OK;
        if (rc == XB_OK)
            rc = reduce_at_root(f, a, &red, want);
    }
    xb_coll_flow_end(f);
    return rc;
}

/* A buffer beyond a slot (xb_coll_stream_fits: a predefined working type
 * without holes), contiguous, goes as consecutive stream calls of half a
 * slot each: every call is a whole flow call (numbered, done counters), so
 * a writer runs up to a ring's worth of segments ahead of the root's reads. Every rank must make
 * as many calls as the root, and a writer knows only its own count: it
 * publishes segment 1 only after the root's verdict on segment 0 (GO:
 * every writer's whole vector has the root's bytes); the root's end of
 * segment 0 without GO (its count fit one call, or the counts differ)
 * stops it. After any later error the segments still run. */
static int segmented(const xb_coll_args_t *a)
{
    MPI_Aint ext = xb_dt_extent(a->rdt);
    MPI_Count per = (MPI_Count)(xb_coll_stream_max() / 2) / ext;
    uint64_t total = (uint64_t)(a->rcount * ext);
    bool root = a->comm->rank == a->root, go = true;
    xb_coll_args_t s = *a;
    xb_coll_flow_t f[2];
    int rc = XB_OK;
    for (MPI_Count off = 0, i = 0; off < a->rcount && go; off += per, i++) {
        s.rcount = a->rcount - off < per ? a->rcount - off : per;
        if (root)
            s.rbuf = (char *)a->rbuf + off * ext;
        if (a->sbuf != MPI_IN_PLACE)
            s.sbuf = (const char *)a->sbuf + off * ext;
        bool check = root ? i == 0 : i == 1;
        int r = reduce_one(&s, total, &f[i > 0], check && !root ? &f[0] : NULL,
                           check ? &go : NULL);
        rc = rc == XB_OK ? r : rc;
    }
    return rc;
}

/* Segments in the working layout, whatever the user's type (another rank
 * may pass the same elements in another layout: xb_coll_stream_fits):
 * a user's vector that lies as its working vector (contiguous, no holes)
 * is taken as that vector in place; any other is packed into its working
 * layout first, and the root's result unpacked from it at the end. */
static int segmented_working(const xb_coll_args_t *a)
{
    xb_coll_red_t red;
    int rc = xb_coll_flow_red(&red, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    xb_coll_args_t s = *a;
    s.rcount = red.wcount;
    s.rdt = red.wdt;
    if (red.dt == red.wdt || (xb_dt_is_contig(a->rdt, a->rcount) && xb_dt_true_lb(a->rdt) == 0
                              && xb_dt_size(a->rdt) == xb_dt_extent(a->rdt)))
        return segmented(&s);
    bool root = a->comm->rank == a->root;
    size_t wb = xb_coll_flow_wbytes(&red);
    char *tmp = malloc(root ? 2 * wb : wb);
    if (tmp == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte reduce buffer", wb);
    const void *src = root && a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    rc = xb_coll_flow_wcopy(&red, (void *)src, tmp, true);
    s.sbuf = tmp;
    s.rbuf = root ? tmp + wb : NULL;
    int r = segmented(&s);              /* even after a failed pack: the others wait */
    rc = rc != XB_OK ? rc : r;
    if (rc == XB_OK && root)
        rc = xb_coll_flow_wcopy(&red, a->rbuf, tmp + wb, false);
    free(tmp);
    return rc;
}

int xb_coll_reduce_stream(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    xb_coll_flow_t f;
    if ((size_t)(a->rcount * xb_dt_size(a->rdt)) <= xb_coll_stream_max())
        return reduce_one(a, 0, &f, NULL, NULL);
    return segmented_working(a);
}
