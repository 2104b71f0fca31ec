/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_pairwise.c - pairwise exchange for alltoall, alltoallv and
 * alltoallw: in step k (1 .. p-1) rank r sends its block for r + k and
 * receives the block from r - k, so every step is a permutation and no rank
 * is flooded. The rank's own block is copied while the first exchange
 * moves (the peer's single copy from our buffer needs no help from us). In
 * place: each receive block is first copied to a temporary, which then
 * serves as the send block.
 */
#include "coll/coll_int.h"

typedef enum { A2A, A2AV, A2AW } form_t;

typedef struct {
    char          *buf;
    MPI_Count      n;
    xb_datatype_t *dt;
} blk_t;

static blk_t sblk(const xb_coll_args_t *a, form_t f, int i)
{
    xb_datatype_t *dt = f == A2AW ? a->stypes[i] : a->sdt;
    MPI_Count n = f == A2A ? a->scount : a->scounts[i];
    MPI_Aint off = f == A2A  ? i * a->scount * xb_dt_extent(dt)
                 : f == A2AV ? a->sdispls[i] * xb_dt_extent(dt) : a->sdispls[i];
    return (blk_t){ (char *)a->sbuf + off, n, dt };
}

static blk_t rblk(const xb_coll_args_t *a, form_t f, int i)
{
    xb_datatype_t *dt = f == A2AW ? a->rtypes[i] : a->rdt;
    MPI_Count n = f == A2A ? a->rcount : a->rcounts[i];
    MPI_Aint off = f == A2A  ? i * a->rcount * xb_dt_extent(dt)
                 : f == A2AV ? a->rdispls[i] * xb_dt_extent(dt) : a->rdispls[i];
    return (blk_t){ (char *)a->rbuf + off, n, dt };
}

/* The rank's own block, copied locally. */
static int own_block(xb_coll_sched_t *s, const xb_coll_args_t *a, form_t f)
{
    int r = a->comm->rank;
    blk_t sb = sblk(a, f, r), rb = rblk(a, f, r);
    return xb_coll_sched_copy(s, sb.buf, sb.n, sb.dt, rb.buf, rb.n, rb.dt);
}

static int pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a, form_t f)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    bool inplace = a->sbuf == MPI_IN_PLACE;
    blk_t *tmp = NULL;
    if (inplace) {
        tmp = xb_coll_sched_tmp(s, p * (MPI_Count)sizeof(blk_t),
                                xb_dt_from_handle(MPI_BYTE));
        if (tmp == NULL)
            return XB_ERR_NO_MEM;
        for (int i = 0; i < p && rc == XB_OK; i++) {
            blk_t b = rblk(a, f, i);
            tmp[i] = (blk_t){ xb_coll_sched_tmp(s, b.n, b.dt), b.n, b.dt };
            if (tmp[i].buf == NULL)
                return XB_ERR_NO_MEM;
            if (i != r)
                rc = xb_coll_sched_copy(s, b.buf, b.n, b.dt, tmp[i].buf, b.n, b.dt);
        }
    }
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int dst = (r + k) % p, src = (r - k + p) % p;
        blk_t sb = inplace ? tmp[dst] : sblk(a, f, dst), rb = rblk(a, f, src);
        rc = xb_coll_sched_recv(s, rb.buf, rb.n, rb.dt, src);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, sb.buf, sb.n, sb.dt, dst);
        if (rc == XB_OK && k == 1 && !inplace)
            rc = own_block(s, a, f);     /* while the first exchange moves */
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK && p == 1 && !inplace)
        rc = own_block(s, a, f);
    return rc;
}

int xb_coll_alltoall_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return pairwise(s, a, A2A);
}

int xb_coll_alltoallv_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return pairwise(s, a, A2AV);
}

int xb_coll_alltoallw_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return pairwise(s, a, A2AW);
}
