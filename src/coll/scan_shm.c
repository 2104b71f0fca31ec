/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scan_shm.c - scan and exscan through the node's shared memory
 * (xb_coll_node_reduce, node_shm.c): every rank copies its vector into its
 * slot, one node barrier, then rank i combines the slots of ranks 0..i
 * (scan) or 0..i-1 (exscan) in rank order, x_0 op (x_1 op ...), so
 * non-commutative ops are right. One scheduling round where recursive
 * doubling needs log2(p) rounds of messages (8 ranks on 2 cores, 8 B:
 * 18-27 us by recursive doubling; see docs/PERFORMANCE.md). Blocking form,
 * node-complete communicators, a vector that fits a slot, a predefined
 * working type. Exscan leaves rank 0's receive buffer untouched.
 */
#include "coll/coll_int.h"

static int build(xb_coll_sched_t *s, const xb_coll_args_t *a, bool inclusive)
{
    int me = a->comm->rank, n = inclusive ? me + 1 : me;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    int *ranks = xb_coll_sched_tmp(s, (MPI_Count)(n > 0 ? n : 1) * (MPI_Count)sizeof(int),
                                   xb_dt_from_handle(MPI_BYTE));
    if (ranks == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    return xb_coll_node_reduce(s, a->comm, ranks, n,
                               a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, n > 0,
                               a->rbuf, NULL);
}

int xb_coll_scan_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return build(s, a, true);
}

int xb_coll_exscan_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return build(s, a, false);
}
