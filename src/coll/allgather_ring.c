/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_ring.c - ring allgather: each rank places its own block, then in
 * step s (0 .. p-2) sends block (rank - s) to rank + 1 and receives block
 * (rank - s - 1) from rank - 1, directly in recvbuf. p - 1 steps, each link
 * carries every block once: bandwidth-optimal, latency linear in p.
 */
#include "coll/coll_int.h"

int xb_coll_allgather_ring(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, r = comm->rank, tag = XB_COLL_TAG(XB_COLL_ALLGATHER);
    int rc = XB_OK;
    if (a->sbuf != MPI_IN_PLACE)
        rc = xb_dt_copy(a->sbuf, a->scount, a->sdt,
                        xb_coll_block(a->rbuf, r, a->rcount, a->rdt),
                        a->rcount, a->rdt);
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int s = 0; s < p - 1 && rc == XB_OK; s++) {
        int sb = (r - s + p) % p, rb = (r - s - 1 + 2 * p) % p;
        rc = xb_coll_sendrecv(xb_coll_block(a->rbuf, sb, a->rcount, a->rdt),
                              a->rcount, a->rdt, right,
                              xb_coll_block(a->rbuf, rb, a->rcount, a->rdt),
                              a->rcount, a->rdt, left, tag, comm);
    }
    return rc;
}
