/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * reduce_hier.c - two-stage reduce for commutative ops (hier.c): each node
 * reduces into its head through shared memory (xb_coll_node_reduce; the
 * root heads its own node), then the partial results go up a binomial
 * tree over the heads (xb_coll_hier_tree_reduce) to the root, or, three
 * heads or more and a large vector, the ring's reduce-scatter over the
 * heads and the chunks to the root (ring_to_root). A vector
 * whose working copy exceeds a slot goes in segments of a slot
 * (xb_coll_hier_red_segment). Communicators that are not node-whole run
 * the binomial reduce.
 */
#include "coll/coll_int.h"

/* Three heads or more, a large vector: the ring's reduce-scatter over the
 * heads, then every head sends its finished chunk to the root, which
 * receives them in place (each head sends (L-1)/L of the vector and one
 * chunk, where the tree's root takes a vector from each child). */
static int ring_to_root(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc,
                        void **part)
{
    int L = ns->nheads, me = ns->mynode, top = ns->rootnode;
    MPI_Count ext = xb_dt_extent(s->red.wdt), len;
    char *a = acc;
    int rc = xb_coll_hier_ring(s, ns, acc, part, false);
    for (int j = 0; j < L && rc == XB_OK; j++) {
        if (j == top || (me != top && j != me))
            continue;
        MPI_Count lo = xb_coll_hier_chunk(s, L, (j + 1) % L, &len);
        rc = me == top ? xb_coll_sched_recv(s, a + lo * ext, len, s->red.wdt, ns->heads[j])
                       : xb_coll_sched_send(s, a + lo * ext, len, s->red.wdt, ns->heads[top]);
    }
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_reduce_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, a->root, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_reduce_binomial(s, a);
    bool root = a->comm->rank == a->root, head = a->comm->rank == ns.head;
    if (rc == XB_OK)
        rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    const xb_coll_red_t whole = s->red;
    MPI_Count per = xb_coll_hier_red_segment(s), ext = xb_dt_extent(a->rdt);
    const char *src = root && a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    void *acc = NULL, *part[32] = { NULL };
    MPI_Count e = 0;
    do {                             /* count 0: one empty segment, as before */
        MPI_Count n = whole.count - e < per ? whole.count - e : per;
        xb_coll_hier_red_part(s, &whole, n);
        rc = xb_coll_node_reduce(s, a->comm, ns.ranks, ns.n, src + e * ext, head, NULL, &acc);
        if (rc == XB_OK && head && ns.nheads >= 3 &&
            s->red.wcount * xb_dt_extent(s->red.wdt) >= XB_COLL_HIER_RING_MIN)
            rc = ring_to_root(s, &ns, acc, part);
        else if (rc == XB_OK && head)
            rc = xb_coll_hier_tree_reduce(s, &ns, ns.rootnode, acc, part);
        if (rc == XB_OK && root)
            rc = xb_coll_red_store(s, acc, (char *)a->rbuf + e * ext);
        e += n;
    } while (rc == XB_OK && e < whole.count);
    s->red = whole;
    return rc;
}
