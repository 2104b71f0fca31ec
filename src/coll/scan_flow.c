/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scan_flow.c - small scan and exscan through the node's flow cells
 * (node_flow.c), run directly (blocking form): a chain. Rank i waits for
 * the prefix P_i-1 = x_0 op ... op x_i-1 in rank i-1's cell, computes
 * P_i = P_i-1 op x_i (rank order: non-commutative ops right), publishes it
 * in its own cell for rank i+1 and leaves; scan keeps P_i, exscan P_i-1
 * (rank 0's receive buffer stays untouched). Rank 0 copies x_0 straight
 * into its cell; exscan's last rank combines nothing (P_i is nobody's).
 * Each rank publishes its byte count in its cell's header word, and the
 * next fails with MPI_ERR_TRUNCATE where it differs from its own (an
 * erroneous program) and passes the failure on (XB_COLL_FLOW_FAILED); at
 * two ranks rank 0's AS_MESSAGE returns XB_ERR_AGAIN (pair_cell.c). No barrier: rank 0 runs ahead
 * and back-to-back calls pipeline along the chain (8 ranks on 2 cores:
 * the barrier-based node scan took about as long as a barrier, 18 us,
 * where Open MPI's chain of messages took 1.2 us; see docs/PERFORMANCE.md).
 */
#include <string.h>
#include "coll/alltoall_blocks.h"

static int build(const xb_coll_args_t *a, bool inclusive)
{
    xb_coll_flow_t f;
    xb_coll_red_t red;
    _Alignas(64) char acc[XB_COLL_FLOW_CELL];
    int rc = xb_coll_flow_red(&red, a->rcount, a->rdt, a->op);
    if (rc == XB_OK)
        rc = xb_coll_flow_begin(&f, a->comm);
    if (rc != XB_OK)
        return rc;
    size_t bytes = xb_coll_flow_wbytes(&red);
    bool last = f.me == f.p - 1;
    void *src = (void *)(a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    if (f.me == 0) {               /* P_0 = x_0, straight into the cell */
        if (!last) {
            xb_coll_flow_reserve(&f);
            rc = xb_coll_flow_wcopy(&red, src, xb_coll_flow_cell(&f, 0), true);
            xb_coll_flow_publish_word(&f, 1, 2, rc == XB_OK ? (uint32_t)bytes
                                                            : XB_COLL_FLOW_FAILED);
            xb_coll_flow_claim_next(&f, bytes);
        }
        if (rc == XB_OK && inclusive && src != a->rbuf)                  /* P_0 */
            rc = xb_a2a_own_copy(src, a->rcount, a->rdt, a->rbuf, a->rcount, a->rdt);
        xb_coll_flow_end(&f);
        return rc;
    }
    if (inclusive || !last)
        rc = xb_coll_flow_wcopy(&red, src, acc, true);                    /* x_i */
    void *prev = xb_coll_flow_cell(&f, f.me - 1);
    int r = xb_coll_chain_await_cell(&f, bytes, inclusive ? XB_COLL_SCAN : XB_COLL_EXSCAN);
    if (r == XB_ERR_AGAIN) {       /* two ranks: x_0 comes as a message (pair_cell.c) */
        xb_coll_flow_end(&f);
        return r;
    }
    rc = rc != XB_OK ? rc : r;
    if (rc == XB_OK && !inclusive)                                        /* P_i-1 */
        rc = xb_coll_flow_wcopy(&red, a->rbuf, prev, false);
    if (rc == XB_OK && (inclusive || !last))
        rc = xb_coll_flow_apply_k(&red, xb_op_kernel(red.op, red.wdt), prev, acc);  /* P_i */
    if (!last) {                   /* even after an error: rank i+1 waits */
        xb_coll_flow_reserve(&f);
        if (rc == XB_OK)
            memcpy(xb_coll_flow_cell(&f, f.me), acc, bytes);
        xb_coll_flow_publish_word(&f, f.me + 1, f.me + 2,
                                  rc == XB_OK ? (uint32_t)bytes : XB_COLL_FLOW_FAILED);
        xb_coll_flow_claim_next(&f, bytes);
    }
    xb_coll_flow_read_ahead(&f, f.me - 1, bytes);     /* the predecessor's next cell */
    if (rc == XB_OK && inclusive)
        rc = xb_coll_flow_wcopy(&red, a->rbuf, acc, false);
    xb_coll_flow_end(&f);
    return rc;
}

int xb_coll_scan_flow(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    return build(a, true);
}

int xb_coll_exscan_flow(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    return build(a, false);
}
