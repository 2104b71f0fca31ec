/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_shm.c - allgather through the node's shared memory
 * (node_shm.c): every rank packs its block into its slot, one node
 * barrier, every rank unpacks every other rank's block from its slot.
 * Blocking form, node-complete communicators, blocks that fit a slot;
 * allgatherv the same with the blocks' counts and displacements (every
 * rank knows them all, so all agree on whether the largest fits).
 */
#include <stdbool.h>
#include "coll/coll_int.h"

static int allgather(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    int p = a->comm->size, me = a->comm->rank, par = xb_coll_node_parity();
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    MPI_Aint ext = xb_dt_extent(a->rdt);
#define BLK(i) ((char *)a->rbuf + (v ? a->rdispls[i] : (i) * a->rcount) * ext)
#define CNT(i) (v ? a->rcounts[i] : a->rcount)
    MPI_Count mine = CNT(me) * xb_dt_size(a->rdt);
    int rc;
    if (a->sbuf == MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, BLK(me), CNT(me), a->rdt,
                                xb_coll_node_slot(a->comm, par, me), mine, byte);
    else
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt,
                                xb_coll_node_slot(a->comm, par, me), mine, byte);
    /* allgather: every part and every expectation equal; allgatherv: rank
     * i's part as long as this rank's count for it */
    xb_coll_node_sign(a->comm, par, a->sbuf == MPI_IN_PLACE ? mine
                                    : a->scount * xb_dt_size(a->sdt), mine);
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier_check(s, par, v ? a->rcounts : NULL, a->rdt);
    for (int i = 0; i < p && rc == XB_OK; i++)
        if (i != me || a->sbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, i),
                                    CNT(i) * xb_dt_size(a->rdt), byte, BLK(i), CNT(i), a->rdt);
#undef BLK
#undef CNT
    return rc;
}

int xb_coll_allgather_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return allgather(s, a, false);
}

int xb_coll_allgatherv_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return allgather(s, a, true);
}
