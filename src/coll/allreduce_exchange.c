/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_exchange.c - allreduce in two rounds of direct exchange, for
 * large vectors on one node: the vector is cut into p chunks; every rank
 * sends chunk j of its vector to rank j and receives chunk r from every
 * other rank (a reduce-scatter in one round, xb_coll_exchange_reduce),
 * reduces the p pieces of its chunk, then sends the result to every rank
 * and receives theirs (an allgather in one round). Each rank moves
 * 2 (p - 1) / p of the vector, as the ring does, but with two dependencies
 * instead of 2 (p - 1): over shared memory every message is one single-copy
 * get, and on a node with more ranks than CPUs each extra round is a wait
 * for a peer to be scheduled. p^2 messages in flight: the rules keep it to
 * small p.
 *
 * Chunk r is reduced in rank order, x_0 op (x_1 op (... op x_{p-1})), so
 * non-commutative ops are right (ops are associative) and every rank gets
 * the same bits, computed once.
 */
#include "coll/coll_int.h"

int xb_coll_allreduce_exchange(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, r = a->comm->rank;
    const char *src;
    char *acc;       /* src: read by the first round; acc: the result forms */
    int rc = xb_coll_red_bufs(s, a, &src, &acc);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    MPI_Count *off = xb_coll_sched_tmp(s, 2 * (MPI_Count)p * (MPI_Count)sizeof(MPI_Count),
                                       xb_dt_from_handle(MPI_BYTE));
    if (off == NULL)
        return XB_ERR_NO_MEM;
    MPI_Count *len = off + p;
    for (int j = 0; j < p; j++) {
        off[j] = xb_coll_chunk_off(n, p, j);
        len[j] = xb_coll_chunk_off(n, p, j + 1) - off[j];
    }
    char *mine = n > 0 ? acc + off[r] * ext : acc;       /* acc: NULL at 0 */
    /* Every pair exchanges a message in both rounds, empty ones included:
     * the rules take this algorithm only for vectors of many elements
     * (every piece holds some), and a rank whose count differs (0 among
     * them: forced by name) then gets a block of the wrong size where it
     * would wait for good (xb_coll_exchange_reduce's every). */
    rc = xb_coll_exchange_reduce(s, a, src, off, len, mine, src == acc, true);
    for (int j = 0; j < p && rc == XB_OK; j++) {
        if (j == r)
            continue;
        rc = xb_coll_sched_recv(s, n > 0 ? acc + off[j] * ext : acc, len[j], wdt, j);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, mine, len[r], wdt, j);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc == XB_OK && !s->red.direct)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}
