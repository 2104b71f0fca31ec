/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_binomial.c - binomial-tree reduce for commutative ops. Ranks are
 * renumbered so the root is 0; in round k a rank with bit k set sends its
 * partial result to v - 2^k and leaves; the others receive from v + 2^k
 * (if it exists) and combine. ceil(log2 p) rounds.
 *
 * The blocking form of a small vector (xb_coll_direct_red) runs directly,
 * the same tree without a schedule, in buffers on the stack: on a part of
 * a node (a split half, the 4 ranks of an 8-rank job that the Intel MPI
 * Benchmarks time) the schedule was most of an 8-byte reduce. A rank
 * whose receive did not match receives from its other children still and
 * passes one byte more up (as the schedule does): the root fails too.
 */
#include "coll/coll_int.h"

int xb_coll_reduce_binomial(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root;
    int v = (a->comm->rank - root + p) % p;
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount;
    /* In the user's type (s->red.direct) a leaf sends its buffer as given
     * and the root combines in its receive buffer: no working copies. */
    bool leaf = (v & 1) || v + 1 >= p, direct = s->red.direct && n > 0;
    void *acc, *tmp = NULL;
    if (v == 0)
        acc = xb_coll_red_acc(s, a);
    else
        acc = direct && leaf ? (void *)src : xb_coll_red_load(s, src);
    if (!leaf)
        tmp = xb_coll_sched_wtmp(s, -1);
    if (acc == NULL || (!leaf && tmp == NULL))
        return XB_ERR_NO_MEM;
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        if (v & mask)
            return xb_coll_sched_send(s, acc, n, s->red.wdt,
                                      (v - mask + root) % p);
        if (v + mask < p) {
            rc = xb_coll_sched_recv(s, tmp, n, s->red.wdt, (v + mask + root) % p);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            if (rc == XB_OK)
                rc = xb_coll_sched_reduce(s, tmp, acc, n);
        }
    }
    if (rc == XB_OK)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}

int xb_coll_reduce_binomial_direct(const xb_coll_args_t *a, int tag)
{
    xb_coll_red_t red;
    size_t wb = xb_coll_direct_red(&red, a);
    if (wb == 0)
        return xb_coll_run_sched(XB_COLL_REDUCE, xb_coll_reduce_binomial, a, tag);
    int p = a->comm->size, root = a->root;
    int v = (a->comm->rank - root + p) % p;
    _Alignas(64) char acc[XB_COLL_DIRECT_MAX], in[XB_COLL_DIRECT_MAX];
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    int rc = xb_coll_flow_wcopy(&red, (void *)src, acc, true), bad = rc;
    xb_op_kernel_t k = xb_op_kernel(red.op, red.wdt);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (v & mask) {
            int to = (v - mask + root) % p;
            rc = bad != XB_OK ? xb_coll_send_mismatch(wb, to, tag, a->comm)
               : xb_coll_send_blocking(acc, red.wcount, red.wdt, to, tag, a->comm);
            return bad != XB_OK ? bad : rc;
        }
        if (v + mask >= p)
            continue;
        rc = xb_coll_recv_exact(in, red.wcount, red.wdt, (v + mask + root) % p, tag, a->comm,
                                -1, XB_COLL_REDUCE, NULL);
        if (rc == XB_OK && bad == XB_OK)
            rc = xb_coll_flow_apply_k(&red, k, in, acc);        /* acc = in op acc */
        if (bad == XB_OK)
            bad = rc;
    }
    return bad != XB_OK ? bad : xb_coll_flow_wcopy(&red, a->rbuf, acc, false);
}
