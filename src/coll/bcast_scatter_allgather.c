/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_scatter_allgather.c - broadcast for large messages: the root's
 * bytes are cut into p chunks, scattered down a binomial tree (each rank
 * receives the chunks of its subtree in one message) and then gathered by
 * every rank around a ring (p - 1 steps). About 2 (p - 1) / p of the
 * message crosses each link instead of log2(p) times all of it. Works on
 * the bytes of contiguous data; a rank whose layout is not contiguous
 * packs it into a temporary (the root before, the others unpack after):
 * the ranks may lay out one signature differently, and must all take the
 * same algorithm.
 */
#include "coll/coll_int.h"

int xb_coll_bcast_scatter_allgather(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, root = a->root, rc = XB_OK;
    int v = (a->comm->rank - root + p) % p;
    MPI_Count n = a->rcount * xb_dt_size(a->rdt);
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    char *base = xb_coll_bytes(s, a->rbuf, a->rcount, a->rdt, v == 0);
    if (base == NULL)
        return XB_ERR_NO_MEM;
    int low = 1;                     /* lowest set bit of v (>= p for the root) */
    while (low < p && !(v & low))
        low <<= 1;
    int sub = p - v < low ? p - v : low;
    if (v != 0) {
        MPI_Count o = xb_coll_chunk_off(n, p, v);
        rc = xb_coll_sched_recv(s, base + o, xb_coll_chunk_off(n, p, v + sub) - o, byte,
                                (v - low + root) % p);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    for (int mask = low >> 1; mask > 0 && rc == XB_OK; mask >>= 1) {
        if (v + mask >= p)
            continue;
        int end = v + 2 * mask < p ? v + 2 * mask : p;
        MPI_Count o = xb_coll_chunk_off(n, p, v + mask);
        rc = xb_coll_sched_send(s, base + o, xb_coll_chunk_off(n, p, end) - o, byte,
                                (v + mask + root) % p);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    int right = (a->comm->rank + 1) % p, left = (a->comm->rank - 1 + p) % p;
    for (int k = 0; k < p - 1 && rc == XB_OK; k++) {
        int sc = (v - k + p) % p, rcn = (v - k - 1 + 2 * p) % p;
        MPI_Count so = xb_coll_chunk_off(n, p, sc), ro = xb_coll_chunk_off(n, p, rcn);
        rc = xb_coll_sched_recv(s, base + ro, xb_coll_chunk_off(n, p, rcn + 1) - ro, byte, left);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, base + so, xb_coll_chunk_off(n, p, sc + 1) - so, byte, right);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK && v != 0)
        rc = xb_coll_bytes_store(s, base, a->rbuf, a->rcount, a->rdt);
    return rc;
}
