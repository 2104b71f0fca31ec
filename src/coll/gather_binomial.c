/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_binomial.c - binomial-tree gather. With ranks renumbered so the
 * root is 0 (v = rank - root mod p), rank v collects the blocks of its
 * subtree v .. v + 2^j - 1 (j its lowest set bit, clipped at p) in a
 * temporary, in order, then sends them to its parent in one message:
 * ceil(log2 p) rounds instead of p - 1 messages into the root. The root
 * finally rotates the blocks into place. Non-roots keep blocks in their
 * send type, the root in its receive type (equal signatures).
 */
#include "coll/coll_int.h"

int xb_coll_gather_binomial(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    int v = (a->comm->rank - root + p) % p;
    bool is_root = v == 0;
    MPI_Count n = is_root ? a->rcount : a->scount;
    xb_datatype_t *dt = is_root ? a->rdt : a->sdt;
    int low = 1;                     /* lowest set bit of v (>= p for the root) */
    while (low < p && !(v & low))
        low <<= 1;
    int sub = p - v < low ? p - v : low;     /* blocks of my subtree */
    char *tmp = xb_coll_sched_tmp(s, n * sub, dt);
    if (tmp == NULL)
        return XB_ERR_NO_MEM;
    if (!is_root || a->sbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, n, dt);
    else
        rc = xb_coll_sched_copy(s, xb_coll_block(a->rbuf, root, n, dt), n, dt,
                                tmp, n, dt);
    int have = 1;
    for (int mask = 1; mask < p && rc == XB_OK; mask <<= 1) {
        if (v & mask) {
            rc = xb_coll_sched_send(s, tmp, n * have, dt, (v - mask + root) % p);
            return rc;
        }
        if (v + mask < p) {
            int cnt = p - v - mask < mask ? p - v - mask : mask;
            rc = xb_coll_sched_recv(s, xb_coll_block(tmp, mask, n, dt), n * cnt,
                                    dt, (v + mask + root) % p);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            have = mask + cnt;
        }
    }
    for (int i = 0; i < p && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_block(tmp, i, n, dt), n, dt,
                                xb_coll_block(a->rbuf, (i + root) % p, n, dt), n, dt);
    return rc;
}
