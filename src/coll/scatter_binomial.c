/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_binomial.c - binomial-tree scatter, the mirror of
 * gather_binomial.c: the root (renumbered 0) sends each child the blocks
 * of the child's whole subtree in one message; every rank keeps its own
 * block and forwards the rest. ceil(log2 p) rounds. A root of rank 0
 * sends straight from the user's buffer; another root first rotates the
 * blocks into a temporary.
 */
#include "coll/coll_int.h"

int xb_coll_scatter_binomial(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    int v = (a->comm->rank - root + p) % p;
    bool is_root = v == 0;
    MPI_Count n = is_root ? a->scount : a->rcount;
    xb_datatype_t *dt = is_root ? a->sdt : a->rdt;
    int low = 1;                     /* lowest set bit of v (p for the root) */
    while (low < p && !(v & low))
        low <<= 1;
    int sub = p - v < low ? p - v : low;
    char *tmp;
    if (is_root && root == 0) {
        tmp = (char *)a->sbuf;
    } else {
        tmp = xb_coll_sched_tmp(s, n * sub, dt);
        if (tmp == NULL)
            return XB_ERR_NO_MEM;
    }
    if (is_root && root != 0)
        for (int i = 0; i < p && rc == XB_OK; i++)
            rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, (i + root) % p, n, dt),
                                    n, dt, xb_coll_block(tmp, i, n, dt), n, dt);
    if (!is_root) {
        rc = xb_coll_sched_recv(s, tmp, n * sub, dt, (v - low + root) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    for (int mask = low >> 1; mask > 0 && rc == XB_OK; mask >>= 1) {
        if (v + mask >= p)
            continue;
        int cnt = p - v - mask < mask ? p - v - mask : mask;
        rc = xb_coll_sched_send(s, xb_coll_block(tmp, mask, n, dt), n * cnt, dt,
                                (v + mask + root) % p);
    }
    if (rc == XB_OK && a->rbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, tmp, n, dt, a->rbuf, a->rcount, a->rdt);
    return rc;
}
