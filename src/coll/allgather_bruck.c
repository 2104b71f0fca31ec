/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_bruck.c - Bruck's allgather, any number of ranks: a temporary
 * holds the blocks of ranks r, r+1, ... in that order; in round k rank r
 * sends its first min(2^k, p - 2^k) blocks to r - 2^k and appends as many
 * from r + 2^k; ceil(log2 p) rounds, then one rotation into place.
 */
#include "coll/coll_int.h"

int xb_coll_allgather_bruck(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank, rc;
    MPI_Count n = a->rcount;
    xb_datatype_t *dt = a->rdt;
    char *tmp = xb_coll_sched_tmp(s, n * p, dt);
    if (tmp == NULL)
        return XB_ERR_NO_MEM;
    if (a->sbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, n, dt);
    else
        rc = xb_coll_sched_copy(s, xb_coll_block(a->rbuf, r, n, dt), n, dt,
                                tmp, n, dt);
    for (int k = 1; k < p && rc == XB_OK; k <<= 1) {
        int cnt = k < p - k ? k : p - k;
        rc = xb_coll_sched_recv(s, xb_coll_block(tmp, k, n, dt), n * cnt, dt,
                                (r + k) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, tmp, n * cnt, dt, (r - k + p) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    for (int i = 0; i < p && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_block(tmp, i, n, dt), n, dt,
                                xb_coll_block(a->rbuf, (r + i) % p, n, dt), n, dt);
    return rc;
}
