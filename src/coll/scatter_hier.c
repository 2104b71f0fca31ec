/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scatter_hier.c - two-stage scatter (hier.c): the root packs each other
 * node's blocks (in rank order) into one message to that node's head, so
 * one message per node crosses the network, and writes its own node's
 * blocks into their owners' node slots; each head writes the blocks it
 * received into its node's slots; one node barrier; every rank copies its
 * block out of its slot. Communicators that are not node-whole run the
 * linear scatter.
 */
#include "coll/coll_int.h"

/* The root's part: a pack per other node, its own node's slots. */
static int from_root(xb_coll_sched_t *s, const xb_coll_args_t *a, const xb_coll_nodeset_t *ns,
                     int par, MPI_Count B)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int *order, *start, me = a->comm->rank;
    int rc = xb_coll_hier_order(s, a->comm, ns, &order, &start);
    for (int j = 0; j < ns->nheads && rc == XB_OK; j++) {
        if (j == ns->mynode)
            continue;
        char *pack = xb_coll_sched_tmp(s, (start[j + 1] - start[j]) * B, byte);
        if (pack == NULL)
            return XB_ERR_NO_MEM;
        for (int k = start[j]; k < start[j + 1] && rc == XB_OK; k++)
            rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, order[k], a->scount, a->sdt),
                                    a->scount, a->sdt, pack + (k - start[j]) * B, B, byte);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, pack, (start[j + 1] - start[j]) * B, byte,
                                    ns->heads[j]);
    }
    for (int i = 0; i < ns->n && rc == XB_OK; i++)
        if (ns->ranks[i] != me)
            rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, ns->ranks[i], a->scount, a->sdt),
                                    a->scount, a->sdt,
                                    xb_coll_node_slot(a->comm, par, ns->ranks[i]), B, byte);
    if (rc == XB_OK && a->rbuf != MPI_IN_PLACE)
        rc = xb_coll_sched_copy(s, xb_coll_block(a->sbuf, me, a->scount, a->sdt), a->scount,
                                a->sdt, a->rbuf, a->rcount, a->rdt);
    return rc;
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
    if (me == a->root) {
        rc = from_root(s, a, &ns, par, B);
    } else if (me == ns.head) {
        char *pack = xb_coll_sched_tmp(s, ns.n * B, byte);
        rc = pack != NULL ? xb_coll_sched_recv(s, pack, ns.n * B, byte, a->root)
                          : XB_ERR_NO_MEM;
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        for (int i = 0; i < ns.n && rc == XB_OK; i++)
            rc = xb_coll_sched_copy(s, pack + i * B, B, byte,
                                    xb_coll_node_slot(a->comm, par, ns.ranks[i]), B, byte);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    if (rc == XB_OK && me != a->root)
        rc = xb_coll_sched_copy(s, xb_coll_node_slot(a->comm, par, me), B, byte, a->rbuf,
                                a->rcount, a->rdt);
    return rc;
}
