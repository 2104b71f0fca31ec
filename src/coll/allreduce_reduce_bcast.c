/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_reduce_bcast.c - reduce to rank 0, then broadcast from it, with
 * the algorithms the selection table picks for those two. Twice the rounds
 * of recursive doubling but only p - 1 messages each way; kept as the
 * reference and for forcing through XB_COLL_ALGO.
 */
#include "coll/coll_int.h"

int xb_coll_allreduce_reduce_bcast(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    const void *sbuf = a->sbuf;
    if (sbuf == MPI_IN_PLACE && comm->rank != 0) {
        /* reduce's in-place exists only at the root: send rbuf instead */
        sbuf = a->rbuf;
    }
    int rc = xb_coll_reduce(sbuf, a->rbuf, a->rcount, a->rdt, a->op, 0, comm);
    if (rc != XB_OK)
        return rc;
    return xb_coll_bcast(a->rbuf, a->rcount, a->rdt, 0, comm);
}
