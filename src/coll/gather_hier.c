/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_hier.c - two-stage gather (hier.c): every rank writes its block
 * into its node slot, one node barrier; each head other than the root packs
 * its node's blocks (in rank order) into one message to the root, so one
 * message per node crosses the network; the root takes its own node's
 * blocks from the slots and unpacks the other nodes' messages into place.
 * Communicators that are not node-whole run the linear gather.
 */
#include "coll/coll_int.h"

/* The root's part: its node's blocks from the slots, the others' packs. */
static int at_root(xb_coll_sched_t *s, const xb_coll_args_t *a, const xb_coll_nodeset_t *ns,
                   int par, MPI_Count B)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int *order, *start, me = a->comm->rank;
    int rc = xb_coll_hier_order(s, a->comm, ns, &order, &start);
    char **part = rc == XB_OK ? xb_coll_sched_tmp(s, ns->nheads * (MPI_Count)sizeof(char *), byte)
                              : NULL;
    if (rc == XB_OK && part == NULL)
        rc = XB_ERR_NO_MEM;
    for (int j = 0; j < ns->nheads && rc == XB_OK; j++) {
        if (j == ns->mynode)
            continue;
        MPI_Count len = (start[j + 1] - start[j]) * B;
        part[j] = xb_coll_sched_tmp(s, len, byte);
        rc = part[j] != NULL ? xb_coll_sched_recv(s, part[j], len, byte, ns->heads[j])
                             : XB_ERR_NO_MEM;
    }
    for (int i = 0; i < ns->n && rc == XB_OK; i++) {
        int r = ns->ranks[i];
        if (r != me || a->sbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, r), B, byte,
                                    xb_coll_block(a->rbuf, r, a->rcount, a->rdt), a->rcount,
                                    a->rdt);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    for (int j = 0; j < ns->nheads && rc == XB_OK; j++)
        for (int k = start[j]; j != ns->mynode && k < start[j + 1] && rc == XB_OK; k++)
            rc = xb_coll_sched_copy(s, part[j] + (k - start[j]) * B, B, byte,
                                    xb_coll_block(a->rbuf, order[k], a->rcount, a->rdt),
                                    a->rcount, a->rdt);
    return rc;
}

int xb_coll_gather_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, a->root, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_gather_linear(s, a);
    if (rc != XB_OK)
        return rc;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int me = a->comm->rank, par = xb_coll_node_parity();
    MPI_Count B = xb_coll_block_bytes(XB_COLL_GATHER, a);
    void *slot = xb_coll_node_slot(a->comm, par, me);
    if (a->sbuf == MPI_IN_PLACE)            /* the root's block is in place */
        rc = xb_coll_sched_copy(s, xb_coll_block(a->rbuf, me, a->rcount, a->rdt), a->rcount,
                                a->rdt, slot, B, byte);
    else
        rc = xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, slot, B, byte);
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    if (rc != XB_OK || me != ns.head)
        return rc;
    if (me == a->root)
        return at_root(s, a, &ns, par, B);
    char *pack = xb_coll_sched_tmp(s, ns.n * B, byte);
    if (pack == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < ns.n && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, ns.ranks[i]), B, byte,
                                pack + i * B, B, byte);
    if (rc == XB_OK)
        rc = xb_coll_sched_send(s, pack, ns.n * B, byte, a->root);
    return rc;
}
