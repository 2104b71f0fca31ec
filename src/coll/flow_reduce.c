/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * flow_reduce.c - small reduce through the node's flow cells (node_flow.c),
 * run directly (blocking form, no schedule): every other rank fills its
 * cell with its working vector, publishes its byte count in the cell's
 * header word and leaves; the root combines x_0 op (x_1 op (... op
 * x_p-1)) in rank order (non-commutative ops right), a user op without
 * the lock, when it runs, and fails with MPI_ERR_TRUNCATE on a writer
 * whose bytes differ from its own (an erroneous program); at two ranks a
 * writer's AS_MESSAGE returns XB_ERR_AGAIN, which pair_cell.c follows.
 * No barrier: back-to-back calls pipeline, up to the number of cells. The
 * other flow algorithms: bcast_node.c, scan_flow.c; gather and scatter
 * take the stream's (stream_gather.c), whose blocks also go inline in the
 * cells.
 *
 * The cell holds packed bytes (xb_coll_flow_copy: a memcpy for contiguous
 * data, else xb_dt_copy to and from MPI_BYTE); reductions need a
 * predefined working type (xb_coll_flow_fits): the packed bytes of the
 * user's type are then its working vector.
 */
#include <string.h>
#include "coll/coll_int.h"
#include "util/xb_mt.h"

/* acc = in op acc over the working vector (a user op without the lock). */
int xb_coll_flow_apply(const xb_coll_red_t *red, const void *in, void *acc)
{
    xb_mutex_t *held = red->op->predefined ? NULL : xb_cb_begin();
    int rc = xb_op_apply(red->op, in, acc, red->wcount, red->wdt);
    xb_cb_end(held);
    return rc;
}

/* Rank j's operand (after its await): its cell, when its header word says
 * it holds this rank's bytes (xb_coll_flow_check); NULL and *rc else. */
static const void *operand(xb_coll_flow_t *f, int j, size_t wb, int *rc)
{
    xb_coll_flow_await_data(f, j, wb);
    *rc = xb_coll_flow_check(f, j, wb, XB_COLL_REDUCE);
    return *rc == XB_OK ? xb_coll_flow_cell(f, j) : NULL;
}

/* The root: x_0 op (x_1 op (... op x_p-1)), its own operand from `own`. */
static int reduce_root(xb_coll_flow_t *f, const xb_coll_red_t *red, const void *own, void *acc)
{
    int last = f->p - 1, rc = XB_OK;
    size_t wb = xb_coll_flow_wbytes(red);
    xb_op_kernel_t k = xb_op_kernel(red->op, red->wdt);
    const void *x = last == f->me ? own : operand(f, last, wb, &rc);
    if (rc == XB_OK)
        memcpy(acc, x, wb);
    for (int j = last - 1; j >= 0 && rc == XB_OK; j--) {
        x = j == f->me ? own : operand(f, j, wb, &rc);
        if (rc == XB_OK)
            rc = xb_coll_flow_apply_k(red, k, x, acc);
    }
    for (int j = 0; j < f->p; j++)                /* the writers' next cells */
        if (j != f->me)
            xb_coll_flow_read_ahead(f, j, wb);
    return rc;
}

int xb_coll_reduce_flow(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    xb_coll_flow_t f;
    xb_coll_red_t red;
    _Alignas(64) char own[XB_COLL_FLOW_CELL], acc[XB_COLL_FLOW_CELL];
    int rc = xb_coll_flow_red(&red, a->rcount, a->rdt, a->op);
    if (rc == XB_OK)
        rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    bool root = f.me == a->root;
    const void *src = root && a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    if (!root) {
        xb_coll_flow_reserve_ahead(&f);
        rc = xb_coll_flow_wcopy(&red, (void *)src, xb_coll_flow_cell(&f, f.me), true);
        size_t wb = xb_coll_flow_wbytes(&red);
        xb_coll_flow_publish_word(&f, a->root, a->root + 1,      /* its bytes: the root checks */
                                  rc == XB_OK ? (uint32_t)wb : XB_COLL_FLOW_FAILED);
        xb_coll_flow_claim_next(&f, wb);
    } else {
        rc = xb_coll_flow_wcopy(&red, (void *)src, own, true);
        if (rc == XB_OK)
            rc = reduce_root(&f, &red, own, acc);
        if (rc == XB_OK)
            rc = xb_coll_flow_wcopy(&red, a->rbuf, acc, false);
    }
    xb_coll_flow_end(&f);
    return rc;
}
