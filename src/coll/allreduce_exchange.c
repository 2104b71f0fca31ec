/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_exchange.c - allreduce in two rounds of direct exchange, for
 * large vectors on one node: the vector is cut into p chunks; every rank
 * sends chunk j of its vector to rank j and receives chunk r from every
 * other rank (a reduce-scatter in one round), reduces the p pieces of its
 * chunk, then sends the result to every rank and receives theirs (an
 * allgather in one round). Each rank moves 2 (p - 1) / p of the vector,
 * as the ring does, but with two dependencies instead of 2 (p - 1): over
 * shared memory every message is one single-copy get, and on a node with
 * more ranks than CPUs each extra round is a wait for a peer to be
 * scheduled. p^2 messages in flight: the rules keep it to small p.
 *
 * Chunk r is reduced in rank order, x_0 op (x_1 op (... op x_{p-1})), so
 * non-commutative ops are right (ops are associative) and every rank gets
 * the same bits, computed once.
 */
#include "coll/coll_int.h"

/* Chunk c of n elements in p parts: offset and length. */
static void chunk(MPI_Count n, int p, int c, MPI_Count *off, MPI_Count *len)
{
    MPI_Count q = n / p, rem = n % p;
    *off = c * q + (c < rem ? c : rem);
    *len = q + (c < rem ? 1 : 0);
}

int xb_coll_allreduce_exchange(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount, off, len, mo, mn;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    const void *usrc = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    /* src: the vector read by the first round; acc: where the result
     * forms. A working type other than the user's needs a working copy. */
    char *acc = s->red.direct ? a->rbuf : xb_coll_red_load(s, usrc);
    const char *src = s->red.direct ? usrc : acc;
    chunk(n, p, r, &mo, &mn);
    /* the p pieces of my chunk; mine is read in place unless acc holds it
     * (in place, or a working copy), where the result overwrites it */
    char *piece = xb_coll_sched_wtmp(s, mn * p + 1);
    if (acc == NULL || piece == NULL)
        return XB_ERR_NO_MEM;
    const char *own = src + mo * ext;
    for (int j = 0; j < p && rc == XB_OK; j++) {
        if (j == r) {
            if (src == acc) {
                rc = xb_coll_sched_copy(s, own, mn, wdt, piece + j * mn * ext, mn, wdt);
                own = piece + j * mn * ext;
            }
            continue;
        }
        chunk(n, p, j, &off, &len);
        if (mn > 0)
            rc = xb_coll_sched_recv(s, piece + j * mn * ext, mn, wdt, j);
        if (rc == XB_OK && len > 0)
            rc = xb_coll_sched_send(s, src + off * ext, len, wdt, j);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    /* acc's chunk = x_{p-1}, then x_j op acc for j = p-2 .. 0 */
    char *mine = acc + mo * ext;
    for (int j = p - 1; j >= 0 && rc == XB_OK && mn > 0; j--) {
        const char *x = j == r ? own : piece + j * mn * ext;
        rc = j == p - 1 ? xb_coll_sched_copy(s, x, mn, wdt, mine, mn, wdt)
                        : xb_coll_sched_reduce(s, x, mine, mn);
    }
    for (int j = 0; j < p && rc == XB_OK; j++) {
        if (j == r)
            continue;
        chunk(n, p, j, &off, &len);
        if (len > 0)
            rc = xb_coll_sched_recv(s, acc + off * ext, len, wdt, j);
        if (rc == XB_OK && mn > 0)
            rc = xb_coll_sched_send(s, mine, mn, wdt, j);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc == XB_OK && !s->red.direct)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
