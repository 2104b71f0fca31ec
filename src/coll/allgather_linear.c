/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_linear.c - allgather and allgatherv with every receive and send
 * posted at once and one fence, as alltoall_linear.c does: rank r receives
 * from r-1, r-2, ... and sends its block (from the send buffer, or its
 * block of the receive buffer in place) to r+1, r+2, ..., copying its own
 * block while the transfers move. One dependency instead of the ring's
 * p - 1 or recursive doubling's log2(p): on one node every message is a
 * single-copy get the receiver makes, so with more ranks than CPUs a rank
 * moves whatever peer is ready instead of waiting for one. p - 1 sends of
 * the same block: the rules keep it to one node and small p.
 *
 * On a whole node (blocking, 3+ ranks) the slots (allgather_shm.c) take
 * the blocks that fit one, so this (and the ring beyond 16 ranks, where
 * they do not outnumber the CPUs) runs beyond a slot's bytes a block,
 * where a rank whose count differs may be in the slots' barrier: it takes
 * that barrier with its signature first (xb_coll_allgather_agree; a
 * barrier on a call that moves p slots' worth, nothing measurable).
 */
#include "coll/coll_int.h"

int xb_coll_allgather_agree(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    if (!xb_coll_node_slots_elsewhere(a))
        return XB_OK;
    MPI_Count mine = (v ? a->rcounts[a->comm->rank] : a->rcount) * xb_dt_size(a->rdt);
    return xb_coll_node_agree(s, a, a->sbuf == MPI_IN_PLACE ? mine       /* as allgather_shm.c */
                                    : a->scount * xb_dt_size(a->sdt), mine,
                              v ? a->rcounts : NULL);
}

static int linear(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    int p = a->comm->size, r = a->comm->rank;
    MPI_Aint ext = xb_dt_extent(a->rdt);
    bool inplace = a->sbuf == MPI_IN_PLACE;
#define BLK(i) ((char *)a->rbuf + (v ? a->rdispls[i] : (i) * a->rcount) * ext)
#define CNT(i) (v ? a->rcounts[i] : a->rcount)
    int rc = xb_coll_allgather_agree(s, a, v);
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int src = (r - k + p) % p;
        rc = xb_coll_sched_recv(s, BLK(src), CNT(src), a->rdt, src);
    }
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int dst = (r + k) % p;
        rc = inplace ? xb_coll_sched_send(s, BLK(r), CNT(r), a->rdt, dst)
                     : xb_coll_sched_send(s, a->sbuf, a->scount, a->sdt, dst);
    }
    if (rc == XB_OK && !inplace)
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, BLK(r), CNT(r), a->rdt);
#undef BLK
#undef CNT
    return rc;
}

int xb_coll_allgather_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return linear(s, a, false);
}

int xb_coll_allgatherv_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return linear(s, a, true);
}
