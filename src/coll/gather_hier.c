/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * gather_hier.c - two-stage gather (hier.c): every rank writes its block
 * into its node slot, one node barrier; each head other than the root packs
 * its node's blocks (in rank order) and sends them, with what it gathered
 * from its subtree, up a binomial tree over the heads
 * (xb_coll_hier_tree_gather), so one message per node crosses the network;
 * the root takes its own node's blocks from the slots and unpacks the
 * other nodes' blocks into place. Communicators that are not node-whole
 * run the linear gather.
 */
#include "coll/coll_int.h"

static int at_root(xb_coll_sched_t *s, const xb_coll_args_t *a, const xb_coll_nodeset_t *ns,
                   int par, MPI_Count B)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int *order, *start, me = a->comm->rank, rc = XB_OK;
    MPI_Count *len;
    char *buf = xb_coll_hier_tree_buf(s, a->comm, ns, B, &order, &start, &len);
    if (buf == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < ns->n && rc == XB_OK; i++) {       /* the root's node */
        int r = ns->ranks[i];
        if (r != me || a->sbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, r), B, byte,
                                    xb_coll_block(a->rbuf, r, a->rcount, a->rdt), a->rcount,
                                    a->rdt);
    }
    if (rc == XB_OK)
        rc = xb_coll_hier_tree_gather(s, ns, ns->rootnode, len, buf);
    return rc == XB_OK ? xb_coll_hier_tree_blocks(s, ns, order, start, len, B, buf, a->rbuf,
                                                  a->rcount, a->rdt, false)
                       : rc;
}

/* A head other than the root's: its node's blocks, then its subtree's. */
static int at_head(xb_coll_sched_t *s, const xb_coll_args_t *a, const xb_coll_nodeset_t *ns,
                   int par, MPI_Count B)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int *order, *start, rc = XB_OK;
    MPI_Count *len;
    char *buf = xb_coll_hier_tree_buf(s, a->comm, ns, B, &order, &start, &len);
    if (buf == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < ns->n && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, ns->ranks[i]), B, byte,
                                buf + i * B, B, byte);
    return rc == XB_OK ? xb_coll_hier_tree_gather(s, ns, ns->rootnode, len, buf) : rc;
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
    return me == a->root ? at_root(s, a, &ns, par, B) : at_head(s, a, &ns, par, B);
}
