/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_linear.c - alltoall, alltoallv and alltoallw with every receive
 * and send posted at once and one fence: rank r receives from r-1, r-2,
 * ... and sends to r+1, r+2, ... (the pairwise order, so no rank is every
 * rank's first target), copying its own block while the first transfers
 * move. Pairwise waits at the end of each of its p - 1 steps; with more
 * ranks than cores each wait is a trip through the scheduler, while here a
 * rank moves whatever peer is ready (single copies need no CPU time of
 * the sender). Not in place (pairwise serves that).
 */
#include "coll/alltoall_blocks.h"

static int linear(xb_coll_sched_t *s, const xb_coll_args_t *a, xb_a2a_form_t f)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    xb_a2a_pass(a, f);
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int src = (r - k + p) % p;
        xb_a2a_blk_t b = xb_a2a_rblk(a, f, src);
        rc = xb_coll_sched_recv(s, b.buf, b.n, b.dt, src);
    }
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int dst = (r + k) % p;
        xb_a2a_blk_t b = xb_a2a_sblk(a, f, dst);
        rc = xb_coll_sched_send(s, b.buf, b.n, b.dt, dst);
    }
    return rc == XB_OK ? xb_a2a_own_block(s, a, f) : rc;
}

int xb_coll_alltoall_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return a->sbuf == MPI_IN_PLACE ? xb_coll_alltoall_pairwise(s, a) : linear(s, a, XB_A2A);
}

int xb_coll_alltoallv_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return a->sbuf == MPI_IN_PLACE ? xb_coll_alltoallv_pairwise(s, a) : linear(s, a, XB_A2AV);
}

int xb_coll_alltoallw_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return a->sbuf == MPI_IN_PLACE ? xb_coll_alltoallw_pairwise(s, a) : linear(s, a, XB_A2AW);
}
