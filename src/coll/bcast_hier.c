/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_hier.c - two-stage broadcast (hier.c): the root sends to the other
 * nodes' heads along a binomial tree over the heads (one message per node
 * crosses the network), then each head broadcasts inside its node through
 * shared memory (xb_coll_node_bcast). Communicators that are not
 * node-whole run the binomial broadcast.
 */
#include "coll/coll_int.h"

int xb_coll_bcast_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, a->root, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_bcast_binomial(s, a);
    if (rc != XB_OK)
        return rc;
    if (a->comm->rank == ns.head) {
        rc = xb_coll_hier_tree_bcast(s, &ns, ns.rootnode, a->rbuf, a->rcount, a->rdt);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    if (rc == XB_OK)
        rc = xb_coll_node_bcast(s, a->comm, ns.head, a->rbuf, a->rcount, a->rdt);
    return rc;
}
