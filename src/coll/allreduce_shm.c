/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_shm.c - allreduce through the node's shared memory: every rank
 * copies its vector into its slot, one node barrier, then every rank
 * reduces all slots itself in rank order (xb_coll_node_reduce, node_shm.c).
 * Blocking form, node-complete communicators, vectors that fit a slot.
 */
#include "coll/coll_int.h"

int xb_coll_allreduce_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    return xb_coll_node_reduce(s, a->comm, NULL, 0, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf,
                               true, a->rbuf, NULL);
}
