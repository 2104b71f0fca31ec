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
#include "coll/alltoall_blocks.h"

static int pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a, xb_a2a_form_t f)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    bool inplace = a->sbuf == MPI_IN_PLACE;
    xb_a2a_blk_t *tmp = NULL;
    xb_a2a_pass(a, f);
    if (inplace) {
        tmp = xb_coll_sched_tmp(s, p * (MPI_Count)sizeof(xb_a2a_blk_t),
                                xb_dt_from_handle(MPI_BYTE));
        if (tmp == NULL)
            return XB_ERR_NO_MEM;
        for (int i = 0; i < p && rc == XB_OK; i++) {
            xb_a2a_blk_t b = xb_a2a_rblk(a, f, i);
            tmp[i] = (xb_a2a_blk_t){ xb_coll_sched_tmp(s, b.n, b.dt), b.n, b.dt };
            if (tmp[i].buf == NULL)
                return XB_ERR_NO_MEM;
            if (i != r)
                rc = xb_coll_sched_copy(s, b.buf, b.n, b.dt, tmp[i].buf, b.n, b.dt);
        }
    }
    for (int k = 1; k < p && rc == XB_OK; k++) {
        int dst = (r + k) % p, src = (r - k + p) % p;
        xb_a2a_blk_t sb = inplace ? tmp[dst] : xb_a2a_sblk(a, f, dst), rb = xb_a2a_rblk(a, f, src);
        rc = xb_coll_sched_recv(s, rb.buf, rb.n, rb.dt, src);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, sb.buf, sb.n, sb.dt, dst);
        if (rc == XB_OK && k == 1 && !inplace)
            rc = xb_a2a_own_block(s, a, f);     /* while the first exchange moves */
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK && p == 1 && !inplace)
        rc = xb_a2a_own_block(s, a, f);
    return rc;
}

int xb_coll_alltoall_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return pairwise(s, a, XB_A2A);
}

int xb_coll_alltoallv_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return pairwise(s, a, XB_A2AV);
}

int xb_coll_alltoallw_pairwise(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return pairwise(s, a, XB_A2AW);
}
