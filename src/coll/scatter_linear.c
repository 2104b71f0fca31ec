/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_linear.c - the root posts one send per rank straight from its
 * block of sendbuf, then copies its own block; every other rank receives
 * once.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "pt2pt/pt2pt.h"

int xb_coll_scatter_linear(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, tag = XB_COLL_TAG(XB_COLL_SCATTER);
    if (comm->rank != a->root)
        return xb_coll_recv(a->rbuf, a->rcount, a->rdt, a->root, tag, comm);
    xb_request_t **reqs = calloc((size_t)p, sizeof(*reqs));
    if (reqs == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    int rc = XB_OK;
    for (int i = 0; i < p && rc == XB_OK; i++)
        if (i != a->root)
            rc = xb_pt2pt_isend(xb_coll_block(a->sbuf, i, a->scount, a->sdt),
                                a->scount, a->sdt, i, tag, comm, 1, &reqs[i]);
    if (rc == XB_OK && a->rbuf != MPI_IN_PLACE)
        rc = xb_dt_copy(xb_coll_block(a->sbuf, a->root, a->scount, a->sdt),
                        a->scount, a->sdt, a->rbuf, a->rcount, a->rdt);
    int rc2 = xb_coll_waitall(p, reqs);
    free(reqs);
    return rc != XB_OK ? rc : rc2;
}
