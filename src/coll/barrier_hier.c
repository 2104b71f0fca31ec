/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier_hier.c - two-stage barrier for a communicator that holds every
 * rank of the job on several nodes (hier.c): the node barrier, a
 * dissemination barrier between the nodes' heads, the node barrier again.
 * Other communicators run the dissemination barrier.
 */
#include "coll/coll_int.h"

int xb_coll_barrier_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, -1, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_barrier_dissemination(s, a);
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    if (rc == XB_OK && a->comm->rank == ns.head) {
        xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
        int L = ns.nheads, i = ns.mynode;
        for (int d = 1; d < L && rc == XB_OK; d <<= 1) {
            rc = xb_coll_sched_recv(s, NULL, 0, byte, ns.heads[(i - d + L) % L]);
            if (rc == XB_OK)
                rc = xb_coll_sched_send(s, NULL, 0, byte, ns.heads[(i + d) % L]);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
        }
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    return rc;
}
