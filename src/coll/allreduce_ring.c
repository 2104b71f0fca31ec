/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_ring.c - ring allreduce for large vectors and commutative ops:
 * the vector is cut into p chunks; a ring reduce-scatter (p - 1 steps:
 * pass chunk r - k to the right, combine chunk r - k - 1 from the left)
 * leaves rank r with the full reduction of chunk r + 1, and a ring
 * allgather (p - 1 steps) spreads the chunks. Each rank sends and
 * receives 2 (p - 1) / p of the vector: bandwidth-optimal for any p.
 */
#include "coll/coll_int.h"

/* Chunk c of n working elements in p parts: offset and length. */
static void chunk(MPI_Count n, int p, int c, MPI_Count *off, MPI_Count *len)
{
    *off = xb_coll_chunk_off(n, p, c);
    *len = xb_coll_chunk_off(n, p, c + 1) - *off;
}

int xb_coll_allreduce_ring(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount, off, len, roff, rlen;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    char *acc = xb_coll_red_acc(s, a);
    char *tmp = xb_coll_sched_wtmp(s, n / p + 1);
    if (acc == NULL || tmp == NULL)
        return XB_ERR_NO_MEM;
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    for (int k = 0; k < p - 1 && rc == XB_OK; k++) {
        chunk(n, p, (r - k + p) % p, &off, &len);
        chunk(n, p, (r - k - 1 + 2 * p) % p, &roff, &rlen);
        rc = xb_coll_sched_recv(s, tmp, rlen, wdt, left);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, acc + off * ext, len, wdt, right);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK)
            rc = xb_coll_sched_reduce(s, tmp, acc + roff * ext, rlen);
    }
    for (int k = 0; k < p - 1 && rc == XB_OK; k++) {
        chunk(n, p, (r + 1 - k + p) % p, &off, &len);
        chunk(n, p, (r - k + p) % p, &roff, &rlen);
        rc = xb_coll_sched_recv(s, acc + roff * ext, rlen, wdt, left);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, acc + off * ext, len, wdt, right);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
