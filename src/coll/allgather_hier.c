/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allgather_hier.c - two-stage allgather (hier.c): every rank writes its
 * block into its node slot, one node barrier; each head packs its node's
 * blocks; up to XB_HIER_EXCHANGE_HEADS heads exchange packs pairwise (one
 * round, one message per pair of nodes crosses the network), more gather
 * them up a binomial tree over the heads and broadcast the whole down it
 * (2 ceil(log2 L) rounds instead of L - 1 messages per head); each head
 * then broadcasts all p blocks inside its
 * node through shared memory (xb_coll_node_bcast); every rank unpacks them
 * into place. Communicators that are not node-whole run the ring.
 */
#include "coll/coll_int.h"

enum { XB_HIER_EXCHANGE_HEADS = 4 };

/* At a head: its node's blocks from the slots into all (node order), then
 * the other nodes' from the other heads. */
static int heads(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, const xb_comm_t *comm,
                 const int *order, const int *start, char *all, int par, MPI_Count B)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int mine = ns->mynode, rc = XB_OK;
    for (int k = start[mine]; k < start[mine + 1] && rc == XB_OK; k++)
        rc = xb_coll_sched_copy(s, xb_coll_node_slot(comm, par, order[k]), B, byte,
                                all + k * B, B, byte);
    if (rc == XB_OK && ns->nheads > XB_HIER_EXCHANGE_HEADS) {
        MPI_Count *len = xb_coll_hier_lens(s, ns, start, B);
        rc = len != NULL ? xb_coll_hier_tree_gather(s, ns, 0, len, all + start[mine] * B)
                         : XB_ERR_NO_MEM;
        if (rc == XB_OK)
            rc = xb_coll_hier_tree_bcast(s, ns, 0, all, start[ns->nheads] * B, byte);
        return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
    }
    for (int j = 0; j < ns->nheads && rc == XB_OK; j++) {
        if (j == mine)
            continue;
        rc = xb_coll_sched_recv(s, all + start[j] * B, (start[j + 1] - start[j]) * B, byte,
                                ns->heads[j]);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, all + start[mine] * B,
                                    (start[mine + 1] - start[mine]) * B, byte, ns->heads[j]);
    }
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_allgather_hier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_nodeset_t ns;
    int rc = xb_coll_hier_plan(s, a->comm, -1, &ns);
    if (rc == XB_ERR_AGAIN)
        return xb_coll_allgather_ring(s, a);
    if (rc != XB_OK)
        return rc;
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int me = a->comm->rank, p = a->comm->size, par = xb_coll_node_parity();
    MPI_Count B = xb_coll_block_bytes(XB_COLL_ALLGATHER, a);
    void *mine = xb_coll_block(a->rbuf, me, a->rcount, a->rdt);
    void *slot = xb_coll_node_slot(a->comm, par, me);
    rc = a->sbuf == MPI_IN_PLACE
       ? xb_coll_sched_copy(s, mine, a->rcount, a->rdt, slot, B, byte)
       : xb_coll_sched_copy(s, a->sbuf, a->scount, a->sdt, slot, B, byte);
    int *order = NULL, *start = NULL;
    char *all = xb_coll_sched_tmp(s, p * B, byte);
    if (rc == XB_OK)
        rc = all != NULL ? xb_coll_hier_order(s, a->comm, &ns, &order, &start) : XB_ERR_NO_MEM;
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(s);
    if (rc == XB_OK && me == ns.head)
        rc = heads(s, &ns, a->comm, order, start, all, par, B);
    if (rc == XB_OK)
        rc = xb_coll_node_bcast(s, a->comm, ns.head, all, p * B, byte);
    for (int k = 0; k < p && rc == XB_OK; k++)
        if (order[k] != me || a->sbuf != MPI_IN_PLACE)
            rc = xb_coll_sched_copy(s, all + k * B, B, byte,
                                    xb_coll_block(a->rbuf, order[k], a->rcount, a->rdt),
                                    a->rcount, a->rdt);
    return rc;
}
