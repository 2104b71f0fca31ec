/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_hier.c - two-stage allreduce for commutative ops (hier.c): each
 * node reduces into its head through shared memory, the partial results
 * go up a binomial tree over the heads to the first head and the result
 * down it again, and each head broadcasts it inside its node through
 * shared memory. One message each way per node crosses the network.
 * A vector whose working copy exceeds a slot goes in segments of a slot,
 * one after the other (xb_coll_hier_red_segment); the buffers of the
 * first segment serve the others.
 * Communicators that are not node-whole run recursive doubling.
 */
#include "coll/coll_int.h"

/* The heads' stage: reduced up the heads' tree to the first head, the
 * result broadcast down it again (into *res_p; the first head's is acc;
 * a buffer in *res_p is reused). */
static int combine_heads(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc,
                         void **part, void **res_p)
{
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
