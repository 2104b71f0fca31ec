/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_hier.c - two-stage allreduce for commutative ops (hier.c): each
 * node reduces into its head through shared memory, the partial results
 * go up a binomial tree over the heads to the first head and the result
 * down it again, and each head broadcasts it inside its node through
 * shared memory. One message each way per node crosses the network; two
 * nodes' heads exchange theirs at once instead (2 hosts x 4 ranks, 1
 * Gbit/s, 4 MiB: see docs/PERFORMANCE.md).
 * A vector whose working copy exceeds a slot goes in segments of a slot,
 * one after the other (xb_coll_hier_red_segment); the buffers of the
 * first segment serve the others.
 * Communicators that are not node-whole run recursive doubling.
 */
#include "coll/coll_int.h"

/* Two heads: each sends its partial result to the other at once (the
 * link carries both directions together, where the tree's reduce and
 * bcast take one after the other), and both compute x_first op x_second
 * (bit-identical whatever the op) into *res_p (acc or part[0]). */
static int exchange_heads(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc,
                          void **part, void **res_p)
{
    int other = ns->heads[1 - ns->mynode], rc = XB_OK;
    if (part[0] == NULL && (part[0] = xb_coll_sched_wtmp(s, -1)) == NULL)
        return XB_ERR_NO_MEM;
    rc = xb_coll_sched_send(s, acc, s->red.wcount, s->red.wdt, other);
    if (rc == XB_OK)
        rc = xb_coll_sched_recv(s, part[0], s->red.wcount, s->red.wdt, other);
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    /* inout = in op inout: the first head's operand goes on the left */
    bool first = ns->mynode == 0;
    if (rc == XB_OK)
        rc = xb_coll_sched_reduce(s, first ? acc : part[0], first ? part[0] : acc,
                                  s->red.wcount);
    *res_p = first ? part[0] : acc;
    return rc;
}

/* The heads' stage: reduced up the heads' tree to the first head, the
 * result broadcast down it again (into *res_p; the first head's is acc;
 * a buffer in *res_p is reused). Two heads exchange instead; more take
 * the ring for large vectors. */
static int combine_heads(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc,
                         void **part, void **res_p)
{
    if (ns->nheads == 2)
        return exchange_heads(s, ns, acc, part, res_p);
    if (s->red.wcount * xb_dt_extent(s->red.wdt) >= XB_COLL_HIER_RING_MIN) {
        /* each head sends 2 (L-1)/L of the vector, where the tree's first
         * head takes L-1 vectors in and sends as many out one after the
         * other (3 hosts x 2 ranks, 1 Gbit/s, 1 MiB: the tree 36.2 ms, the
         * ring 15.5; docs/PERFORMANCE.md) */
        *res_p = acc;
        return xb_coll_hier_ring(s, ns, acc, part, true);
    }
    int rc = xb_coll_hier_tree_reduce(s, ns, 0, acc, part);
    void *res = ns->mynode == 0 ? acc : *res_p != NULL ? *res_p : xb_coll_sched_wtmp(s, -1);
    if (rc == XB_OK && res == NULL)
        rc = XB_ERR_NO_MEM;
    if (rc == XB_OK)
        rc = xb_coll_hier_tree_bcast(s, ns, 0, res, s->red.wcount, s->red.wdt);
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    *res_p = res;
    return rc;
}

int xb_coll_allreduce_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, -1, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_allreduce_recdbl(s, a);
    bool head = a->comm->rank == ns.head;
    if (rc == XB_OK)
        rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    const xb_coll_red_t whole = s->red;
    MPI_Count per = xb_coll_hier_red_segment(s), ext = xb_dt_extent(a->rdt);
    const char *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    void *acc = NULL, *res = NULL, *part[32] = { NULL };
    MPI_Count e = 0;
    do {                             /* count 0: one empty segment, as before */
        MPI_Count n = whole.count - e < per ? whole.count - e : per;
        xb_coll_hier_red_part(s, &whole, n);
        char *dst = (char *)a->rbuf + e * ext;
        rc = xb_coll_node_reduce(s, a->comm, ns.ranks, ns.n, src + e * ext, head, NULL, &acc);
        if (rc == XB_OK && head)
            rc = combine_heads(s, &ns, acc, part, &res);
        if (rc == XB_OK && head)
            rc = xb_coll_red_store(s, res, dst);
        if (rc == XB_OK)
            rc = xb_coll_node_bcast(s, a->comm, ns.head, dst, n, a->rdt);
        e += n;
    } while (rc == XB_OK && e < whole.count);
    s->red = whole;
    return rc;
}
