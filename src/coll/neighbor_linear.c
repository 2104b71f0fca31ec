/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * neighbor_linear.c - the neighbourhood collectives (Neighbor_allgather(v),
 * Neighbor_alltoall(v,w)): one receive per in-neighbour and one send per
 * out-neighbour, all posted at once, then one fence. MPI_PROC_NULL
 * neighbours (off a non-periodic Cartesian edge) are skipped: their
 * receive blocks stay untouched.
 *
 * Matching. Messages between two processes match in posting order. On a
 * Cartesian topology a dimension of size 1 or 2 (periodic) makes the -1
 * and the +1 neighbour the same process; what it sent towards its -1
 * neighbour must land in our block of the +1 neighbour. Receives are
 * therefore posted +1 first, then -1, in each dimension: the first message
 * from that process (sent towards -1) meets the +1 block. Graph and
 * distributed-graph topologies keep the list order on both sides (the
 * k-th edge from a to b matches the k-th edge into b from a).
 */
#include "coll/coll_int.h"

/* Index of the i-th receive to post (the Cartesian swap of -1 / +1). */
static int recv_slot(const xb_coll_args_t *a, int i)
{
    return a->cart ? (i ^ 1) : i;
}

typedef struct {
    void          *buf;
    MPI_Count      count;
    xb_datatype_t *dt;
} blk_t;

/* Block i of the receive side of any of the five forms. */
static blk_t rblock(xb_coll_kind_t kind, const xb_coll_args_t *a, int i)
{
    MPI_Aint ext = a->rdt != NULL ? xb_dt_extent(a->rdt) : 0;
    switch (kind) {
    case XB_COLL_NEIGHBOR_ALLGATHERV:
    case XB_COLL_NEIGHBOR_ALLTOALLV:
        return (blk_t){ (char *)a->rbuf + a->rdispls[i] * ext, a->rcounts[i],
                        a->rdt };
    case XB_COLL_NEIGHBOR_ALLTOALLW:
        return (blk_t){ (char *)a->rbuf + a->wdispls[a->outdeg + i],
                        a->rcounts[i], a->rtypes[i] };
    default:
        return (blk_t){ xb_coll_block(a->rbuf, i, a->rcount, a->rdt), a->rcount,
                        a->rdt };
    }
}

/* Block j of the send side. */
static blk_t sblock(xb_coll_kind_t kind, const xb_coll_args_t *a, int j)
{
    MPI_Aint ext = a->sdt != NULL ? xb_dt_extent(a->sdt) : 0;
    switch (kind) {
    case XB_COLL_NEIGHBOR_ALLGATHER:
    case XB_COLL_NEIGHBOR_ALLGATHERV:
        return (blk_t){ (void *)a->sbuf, a->scount, a->sdt };
    case XB_COLL_NEIGHBOR_ALLTOALLV:
        return (blk_t){ (char *)a->sbuf + a->sdispls[j] * ext, a->scounts[j],
                        a->sdt };
    case XB_COLL_NEIGHBOR_ALLTOALLW:
        return (blk_t){ (char *)a->sbuf + a->wdispls[j], a->scounts[j],
                        a->stypes[j] };
    default:
        return (blk_t){ xb_coll_block(a->sbuf, j, a->scount, a->sdt), a->scount,
                        a->sdt };
    }
}

static int neighbor(xb_coll_sched_t *s, const xb_coll_args_t *a,
                    xb_coll_kind_t kind)
{
    int rc = XB_OK;
    for (int k = 0; k < a->indeg && rc == XB_OK; k++) {
        int i = recv_slot(a, k);
        if (a->nbr_in[i] == MPI_PROC_NULL)
            continue;
        blk_t b = rblock(kind, a, i);
        rc = xb_coll_sched_recv(s, b.buf, b.count, b.dt, a->nbr_in[i]);
    }
    for (int j = 0; j < a->outdeg && rc == XB_OK; j++) {
        if (a->nbr_out[j] == MPI_PROC_NULL)
            continue;
        blk_t b = sblock(kind, a, j);
        rc = xb_coll_sched_send(s, b.buf, b.count, b.dt, a->nbr_out[j]);
    }
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_neighbor_allgather_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return neighbor(s, a, XB_COLL_NEIGHBOR_ALLGATHER);
}

int xb_coll_neighbor_allgatherv_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return neighbor(s, a, XB_COLL_NEIGHBOR_ALLGATHERV);
}

int xb_coll_neighbor_alltoall_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return neighbor(s, a, XB_COLL_NEIGHBOR_ALLTOALL);
}

int xb_coll_neighbor_alltoallv_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return neighbor(s, a, XB_COLL_NEIGHBOR_ALLTOALLV);
}

int xb_coll_neighbor_alltoallw_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return neighbor(s, a, XB_COLL_NEIGHBOR_ALLTOALLW);
}
