/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier_dissemination.c - dissemination barrier: in round k (distance
 * 2^k) every rank sends an empty message to rank + 2^k and receives one from
 * rank - 2^k. After ceil(log2 p) rounds every rank has heard, directly or
 * not, from every other. Works for any p, no root, no extra round for
 * non-powers of two.
 */
#include "coll/coll_int.h"

int xb_coll_barrier_dissemination(const xb_coll_args_t *a)
{
    xb_comm_t *comm = a->comm;
    int p = comm->size, r = comm->rank;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    for (int d = 1; d < p; d <<= 1) {
        int rc = xb_coll_sendrecv(NULL, 0, byte, (r + d) % p, NULL, 0, byte,
                                  (r - d + p) % p, XB_COLL_TAG(XB_COLL_BARRIER),
                                  comm);
        if (rc != XB_OK)
            return rc;
    }
    return XB_OK;
}
