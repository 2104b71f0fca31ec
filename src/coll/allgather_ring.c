/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_ring.c - ring allgather and allgatherv: in step k rank r passes
 * block r - k to its right neighbour and receives block r - k - 1 from its
 * left one; p - 1 steps, bandwidth-optimal. Blocks travel in the receive
 * type straight between the users' buffers. Beyond 16 ranks on a whole
 * node it runs beyond a slot's bytes a block: it takes the slots' signed
 * barrier first, as linear does (xb_coll_allgather_agree).
 */
#include "coll/coll_int.h"

static int ring(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v)
{
    int p = a->comm->size, r = a->comm->rank, rc = xb_coll_allgather_agree(s, a, v);
    MPI_Aint ext = xb_dt_extent(a->rdt);
#define BLK(i) ((char *)a->rbuf + (v ? a->rdispls[i] : (i) * a->rcount) * ext)
#define CNT(i) (v ? a->rcounts[i] : a->rcount)
    if (rc == XB_OK && a->sbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, BLK(r), CNT(r),
                                a->rdt);
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int k = 0; k < p - 1 && rc == XB_OK; k++) {
        int sb = (r - k + p) % p, rb = (r - k - 1 + 2 * p) % p;
        rc = xb_coll_sched_recv(s, BLK(rb), CNT(rb), a->rdt, left);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, BLK(sb), CNT(sb), a->rdt, right);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
#undef BLK
#undef CNT
    return rc;
}

int xb_coll_allgather_ring(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return ring(s, a, false);
}

int xb_coll_allgatherv_ring(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return ring(s, a, true);
}
