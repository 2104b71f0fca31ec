/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * alltoall_pairwise.c - pairwise exchange: in step s (1 .. p-1) rank r sends
 * its block for r + s and receives the block from r - s, so every step is a
 * permutation and no rank is flooded. In-place: recvbuf is copied to a
 * temporary first and serves as the send buffer.
 */
#include "coll/coll_int.h"

int xb_coll_alltoall_pairwise(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, r = comm->rank, tag = XB_COLL_TAG(XB_COLL_ALLTOALL);
    const void *sbuf = a->sbuf;
    MPI_Count scount = a->scount;
    xb_datatype_t *sdt = a->sdt;
    void *tmp = NULL;
    int rc = XB_OK;
    if (sbuf == MPI_IN_PLACE) {
        tmp = xb_coll_tmp_alloc((MPI_Count)p * a->rcount, a->rdt);
        if (tmp == NULL)
            return XB_ERR_NO_MEM;
        rc = xb_dt_copy(a->rbuf, (MPI_Count)p * a->rcount, a->rdt,
                        tmp, (MPI_Count)p * a->rcount, a->rdt);
        sbuf = tmp;
        scount = a->rcount;
        sdt = a->rdt;
    }
    if (rc == XB_OK)
        rc = xb_dt_copy(xb_coll_block(sbuf, r, scount, sdt), scount, sdt,
                        xb_coll_block(a->rbuf, r, a->rcount, a->rdt),
                        a->rcount, a->rdt);
    for (int s = 1; s < p && rc == XB_OK; s++) {
        int dst = (r + s) % p, src = (r - s + p) % p;
        rc = xb_coll_sendrecv(xb_coll_block(sbuf, dst, scount, sdt), scount, sdt,
                              dst, xb_coll_block(a->rbuf, src, a->rcount, a->rdt),
                              a->rcount, a->rdt, src, tag, comm);
    }
    if (tmp != NULL)
        xb_coll_tmp_free(tmp, a->rdt);
    return rc;
}
