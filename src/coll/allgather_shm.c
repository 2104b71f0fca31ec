/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_shm.c - allgather through the node's shared memory
 * (node_shm.c): every rank packs its block into its slot, one node
 * barrier, every rank unpacks every other rank's block from its slot.
 * Blocking form, node-complete communicators, blocks that fit a slot.
 */
#include "coll/coll_int.h"

int xb_coll_allgather_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, me = a->comm->rank, par = xb_coll_node_parity();
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    MPI_Aint rblock = (MPI_Aint)a->rcount * xb_dt_extent(a->rdt);
    MPI_Count bytes = a->rcount * xb_dt_size(a->rdt);
    int rc;
    if (a->sbuf == MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, (char *)a->rbuf + me * rblock, a->rcount, a->rdt,
                                xb_coll_node_slot(a->comm, par, me), bytes, byte);
    else
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt,
                                xb_coll_node_slot(a->comm, par, me), bytes, byte);
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    for (int i = 0; i < p && rc == XB_OK; i++)
        if (i != me || a->sbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, i), bytes, byte,
                                    (char *)a->rbuf + i * rblock, a->rcount, a->rdt);
    return rc;
}
