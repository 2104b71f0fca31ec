/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_recdbl.c - recursive doubling allgather for a power-of-two
 * number of ranks: in round k rank r swaps with r ^ 2^k the 2^k blocks it
 * has gathered so far (one contiguous run of the receive buffer), so
 * log2(p) rounds move p - 1 blocks. Latency-optimal for small blocks.
 */
#include "coll/coll_int.h"

int xb_coll_allgather_recdbl(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    MPI_Count n = a->rcount;
    if (a->sbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt,
                                xb_coll_block(a->rbuf, r, n, a->rdt), n, a->rdt);
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        int peer = r ^ mask;
        int mine = r & ~(mask - 1), theirs = peer & ~(mask - 1);
        rc = xb_coll_sched_recv(s, xb_coll_block(a->rbuf, theirs, n, a->rdt),
                                n * mask, a->rdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, xb_coll_block(a->rbuf, mine, n, a->rdt),
                                    n * mask, a->rdt, peer);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    return rc;
}
