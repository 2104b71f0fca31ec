/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_shm.c - reduce through the node's shared memory: every rank copies
 * its vector into its slot, one node barrier, and the root reduces all
 * slots in rank order (xb_coll_node_reduce, node_shm.c). Blocking form,
 * node-complete communicators, vectors that fit a slot.
 */
#include "coll/coll_int.h"

int xb_coll_reduce_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    bool root = a->comm->rank == a->root;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    return xb_coll_node_reduce(s, a->comm, NULL, 0,
                               root && a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, root,
                               a->rbuf, NULL);
}
