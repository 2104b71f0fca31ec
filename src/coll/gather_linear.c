/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_linear.c - the root posts one receive per rank straight into its
 * block of recvbuf, then copies its own block; every other rank sends once.
 * p - 1 messages into one rank: the root's receive side is the bottleneck,
 * which for the sizes of issue 2 is the copy anyway.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "pt2pt/pt2pt.h"

int xb_coll_gather_linear(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, tag = XB_COLL_TAG(XB_COLL_GATHER);
    if (comm->rank != a->root)
        return xb_coll_send(a->sbuf, a->scount, a->sdt, a->root, tag, comm);
    xb_request_t **reqs = calloc((size_t)p, sizeof(*reqs));
    if (reqs == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    int rc = XB_OK;
    for (int i = 0; i < p && rc == XB_OK; i++)
        if (i != a->root)
            rc = xb_pt2pt_irecv(xb_coll_block(a->rbuf, i, a->rcount, a->rdt),
                                a->rcount, a->rdt, i, tag, comm, 1, &reqs[i]);
    if (rc == XB_OK && a->sbuf != MPI_IN_PLACE)
        rc = xb_dt_copy(a->sbuf, a->scount, a->sdt,
                        xb_coll_block(a->rbuf, a->root, a->rcount, a->rdt),
                        a->rcount, a->rdt);
    int rc2 = xb_coll_waitall(p, reqs);
    free(reqs);
    return rc != XB_OK ? rc : rc2;
}
