/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_shm.c - alltoall through the node's shared memory (node_shm.c):
 * every rank packs its p outgoing blocks into its slot (block j for rank j
 * at j * bytes), one node barrier, every rank unpacks block `me` of every
 * slot. With MPI_IN_PLACE the slot holds the copy, so overwriting the
 * receive buffer is safe. Blocking form, node-complete communicators, p
 * blocks that fit a slot.
 */
#include "coll/coll_int.h"

int xb_coll_alltoall_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, me = a->comm->rank, par = xb_coll_node_parity();
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    MPI_Aint rblock = (MPI_Aint)a->rcount * xb_dt_extent(a->rdt);
    MPI_Count bytes = a->rcount * xb_dt_size(a->rdt);
    char *mine = xb_coll_node_slot(a->comm, par, me);
    int rc;
    if (a->sbuf == MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, a->rbuf, a->rcount * p, a->rdt, mine, bytes * p, byte);
    else
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount * p, a->sdt, mine, bytes * p, byte);
    xb_coll_node_sign(a->comm, par, a->sbuf == MPI_IN_PLACE ? bytes
                                    : a->scount * xb_dt_size(a->sdt), bytes);
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier_check(s, par, NULL, NULL);
    for (int j = 0; j < p && rc == XB_OK; j++)
        rc = xb_coll_sched_copy(s, (char *)xb_coll_node_slot(a->comm, par, j) + me * bytes,
                                bytes, byte, (char *)a->rbuf + j * rblock, a->rcount, a->rdt);
    return rc;
}
