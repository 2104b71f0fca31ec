/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_linear.c - the root sends to every other rank (all sends posted at
 * once, then waited). p - 1 messages from one rank: only for tiny
 * communicators, and as a reference when testing the others.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "pt2pt/pt2pt.h"

int xb_coll_bcast_linear(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, tag = XB_COLL_TAG(XB_COLL_BCAST);
    if (comm->rank != a->root)
        return xb_coll_recv(a->rbuf, a->rcount, a->rdt, a->root, tag, comm);
    xb_request_t **reqs = calloc((size_t)p, sizeof(*reqs));
    if (reqs == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory");
    int rc = XB_OK;
    for (int i = 0; i < p && rc == XB_OK; i++)
        if (i != a->root)
            rc = xb_pt2pt_isend(a->rbuf, a->rcount, a->rdt, i, tag, comm, 1, &reqs[i]);
    int rc2 = xb_coll_waitall(p, reqs);
    free(reqs);
    return rc != XB_OK ? rc : rc2;
}
