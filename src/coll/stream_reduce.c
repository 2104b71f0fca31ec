/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream_reduce.c - reduce beyond a flow cell through each writer's ring
 * (node_stream.c), run directly (blocking form, no schedule, no barrier):
 * every other rank copies its working vector into its ring and leaves; the
 * root combines x_0 op (x_1 op (... op x_p-1)) in rank order
 * (non-commutative ops right), a user op without the lock, when it runs.
 * Where the data lies goes in the writer's flow cell of the call. Beyond a
 * slot, in segments of half a slot, each a call of its own.
 *
 * The ring holds packed bytes (xb_coll_flow_copy); reduce needs a
 * predefined working type. One allocation is at most a slot
 * (xb_coll_stream_fits). The other stream algorithms: bcast_node.c
 * (bcast), stream_gather.c (gather, scatter and their v forms).
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"

/* Rank j's operand (after its await): where its data lies in its ring,
 * when its header word says it holds this rank's bytes (a writer of a
 * flow reduce, whose count fit a cell, says its own: they differ); NULL
 * and *rc else. */
static const void *operand(xb_coll_flow_t *f, int j, size_t wb, int *rc)
{
    xb_coll_flow_await(f, j);
    *rc = xb_coll_flow_check(f, j, wb, XB_COLL_REDUCE);
    return *rc == XB_OK ? xb_coll_stream_ptr(f, j, *(const uint64_t *)xb_coll_flow_cell(f, j))
                        : NULL;
}

/* The root: acc = x_0 op (x_1 op (... op x_p-1)), its own operand `own`. */
static int reduce_root(xb_coll_flow_t *f, const xb_coll_red_t *red, const void *own, void *acc)
{
    int last = f->p - 1, rc = XB_OK;
    xb_op_kernel_t k = xb_op_kernel(red->op, red->wdt);
    size_t wb = xb_coll_flow_wbytes(red);
    const void *x = last == f->me ? own : operand(f, last, wb, &rc);
    if (rc == XB_OK && wb > 0)
        memmove(acc, x, wb);
    for (int j = last - 1; j >= 0 && rc == XB_OK; j--) {
        x = j == f->me ? own : operand(f, j, wb, &rc);
        if (rc == XB_OK && wb > 0)
            rc = xb_coll_flow_apply_k(red, k, x, acc);
    }
    return rc;
}

/* The root's reduce: straight into rbuf when the user's type is the
 * working type and contiguous and the call is not in place; else through
 * working copies. */
static int reduce_at_root(xb_coll_flow_t *f, const xb_coll_args_t *a, const xb_coll_red_t *red)
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
        rc = reduce_root(f, red, own, acc);
    if (rc == XB_OK && tmp != NULL)
        rc = xb_coll_flow_wcopy(red, a->rbuf, acc, false);
    free(tmp);
    return rc;
}

static int reduce_one(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    xb_coll_flow_t f;
    xb_coll_red_t red;
    int rc = xb_coll_flow_red(&red, a->rcount, a->rdt, a->op);
    if (rc == XB_OK)
        rc = xb_coll_stream_call(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    if (f.me != a->root) {
        size_t wb = xb_coll_flow_wbytes(&red);
        uint64_t *off = xb_coll_flow_cell(&f, f.me);
        xb_coll_flow_reserve(&f);
        if (wb > 0) {
            *off = xb_coll_stream_alloc(&f, wb, a->root);
            rc = xb_coll_flow_wcopy(&red, (void *)a->sbuf, xb_coll_stream_ptr(&f, f.me, *off),
                                    true);
        }
        xb_coll_flow_publish_word(&f, a->root, a->root + 1,      /* its bytes: the root checks */
                                  rc == XB_OK ? (uint32_t)wb : XB_COLL_FLOW_FAILED);
    } else {
        rc = reduce_at_root(&f, a, &red);
    }
    xb_coll_flow_end(&f);
    return rc;
}

/* A buffer beyond a slot (xb_coll_stream_fits: contiguous, a predefined
 * type) goes as consecutive stream calls of half a slot each: every call
 * is a whole flow call (numbered, done counters), so a writer runs up to a
 * ring's worth of segments ahead and nothing else is needed. All ranks
 * make the same calls (the segments depend on the count only); after an
 * error the other segments still run, so they stay in step. */
static int segmented(const xb_coll_args_t *a, int tag)
{
    MPI_Aint ext = xb_dt_extent(a->rdt);
    MPI_Count per = (MPI_Count)(xb_coll_stream_max() / 2) / ext;
    bool root = a->comm->rank == a->root;
    xb_coll_args_t s = *a;
    int rc = XB_OK;
    for (MPI_Count off = 0; off < a->rcount; off += per) {
        s.rcount = a->rcount - off < per ? a->rcount - off : per;
        if (root)
            s.rbuf = (char *)a->rbuf + off * ext;
        if (a->sbuf != MPI_IN_PLACE)
            s.sbuf = (const char *)a->sbuf + off * ext;
        int r = reduce_one(&s, tag);
        rc = rc == XB_OK ? r : rc;
    }
    return rc;
}

int xb_coll_reduce_stream(const xb_coll_args_t *a, int tag)
{
    bool beyond_slot = (size_t)(a->rcount * xb_dt_size(a->rdt)) > xb_coll_stream_max();
    return beyond_slot ? segmented(a, tag) : reduce_one(a, tag);
}
