/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier_dissemination.c - dissemination barrier: in round k every rank
 * signals rank + 2^k and waits for rank - 2^k (zero-byte messages);
 * ceil(log2 p) rounds for any p, no root.
 */
#include "coll/coll_int.h"

int xb_coll_barrier_dissemination(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    for (int d = 1; d < p && rc == XB_OK; d <<= 1) {
        rc = xb_coll_sched_recv(s, NULL, 0, byte, (r - d + p) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, NULL, 0, byte, (r + d) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    return rc;
}
