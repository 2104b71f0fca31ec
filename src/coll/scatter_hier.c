/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_hier.c - two-stage scatter (hier.c): the root packs the other
 * nodes' blocks (each node's in rank order) and sends them down a binomial
 * tree over the heads (xb_coll_hier_tree_scatter), so one message per node
 * crosses the network, and writes its own node's blocks into their owners'
 * node slots; each head writes its node's blocks into the node's slots;
 * one node barrier; every rank copies its block out of its slot.
 * Communicators that are not node-whole run the linear scatter.
 */
#include "coll/coll_int.h"

static int from_root(xb_coll_sched_t *s, const xb_coll_args_t *a, const xb_coll_nodeset_t *ns,
                     int par, MPI_Count B)
{
    int *order, *start, me = a->comm->rank;
    MPI_Count *len;
    char *buf = xb_coll_hier_tree_buf(s, a->comm, ns, B, &order, &start, &len);
    if (buf == NULL)
        return XB_ERR_NO_MEM;
    int rc = xb_coll_hier_tree_blocks(s, ns, order, start, len, B, buf, (void *)a->sbuf,
                                      a->scount, a->sdt, true);
    if (rc == XB_OK)
        rc = xb_coll_hier_tree_scatter(s, ns, ns->rootnode, len, buf);
    for (int i = 0; i < ns->n && rc == XB_OK; i++)
        if (ns->ranks[i] != me)
            rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, ns->ranks[i], a->scount, a->sdt),
                                    a->scount, a->sdt,
                                    xb_coll_node_slot(a->comm, par, ns->ranks[i]), B,
                                    xb_dt_from_handle(MPI_BYTE));
    if (rc == XB_OK && a->rbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, me, a->scount, a->sdt), a->scount,
                                a->sdt, a->rbuf, a->rcount, a->rdt);
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

/* A head other than the root's: its subtree's blocks from its parent, the
 * children's parts on, its node's into the slots. */
static int at_head(xb_coll_sched_t *s, const xb_coll_args_t *a, const xb_coll_nodeset_t *ns,
                   int par, MPI_Count B)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int *order, *start;
    MPI_Count *len;
    char *buf = xb_coll_hier_tree_buf(s, a->comm, ns, B, &order, &start, &len);
    if (buf == NULL)
        return XB_ERR_NO_MEM;
    int rc = xb_coll_hier_tree_scatter(s, ns, ns->rootnode, len, buf);
    for (int i = 0; i < ns->n && rc == XB_OK; i++)
        rc = xb_coll_sched_copy(s, buf + i * B, B, byte,
                                xb_coll_node_slot(a->comm, par, ns->ranks[i]), B, byte);
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_scatter_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, a->root, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_scatter_linear(s, a);
    if (rc != XB_OK)
        return rc;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int me = a->comm->rank, par = xb_coll_node_parity();
    MPI_Count B = xb_coll_block_bytes(XB_COLL_SCATTER, a);
    if (me == a->root)
        rc = from_root(s, a, &ns, par, B);
    else if (me == ns.head)
        rc = at_head(s, a, &ns, par, B);
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    if (rc == XB_OK && me != a->root)
        rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, me), B, byte, a->rbuf,
                                a->rcount, a->rdt);
    return rc;
}
