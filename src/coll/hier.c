/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hier.c - what the hierarchical algorithms (*_hier.c) share: the nodes a
 * communicator spans, each node's head, and when the two-stage scheme
 * applies.
 *
 * A communicator that spans several nodes and holds every rank of the job
 * on each of them ("node-whole": COMM_WORLD of a multi-host job and its
 * duplicates) runs its blocking barrier, bcast, reduce and allreduce in two
 * stages: inside each node through the node's shared memory (node_shm.c:
 * one node barrier per phase, every local rank takes part), and across
 * nodes by point-to-point messages between one head per node - the node's
 * lowest rank, or the root on the root's node. The slow links then carry
 * one message per node instead of one per rank. Reductions are staged only
 * for commutative ops (the stages change the order of the operands).
 *
 * Not under MPI_THREAD_MULTIPLE (the node phases share one barrier line and
 * one set of slots per process). Cost: building the node set is O(p) per call (p: the communicator size),
 * plus O(world) once for the job's ranks per node.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "method/method.h"
#include "runtime/runtime.h"
#include "util/xb_mt.h"

static int *job_per_node;       /* [nnodes] ranks of the job on each node */

static const int *per_node(void)
{
    const xb_rt_info_t *rt = xb_rt();
    if (job_per_node == NULL) {
        int *c = calloc((size_t)rt->nnodes, sizeof(int));
        if (c == NULL)
            return NULL;
        for (int w = 0; w < rt->size; w++)
            c[rt->node_of[w]]++;
        job_per_node = c;
    }
    return job_per_node;
}

void xb_coll_hier_fini(void)
{
    free(job_per_node);
    job_per_node = NULL;
}

static int node_of_rank(const xb_comm_t *comm, int r)
{
    xb_gpid_t g = xb_comm_gpid(comm, r);
    const xb_rt_info_t *rt = xb_rt();
    if (xb_gpid_job(g) != 0 || xb_gpid_rank(g) >= (uint32_t)rt->size)
        return -1;
    return (int)rt->node_of[xb_gpid_rank(g)];
}

/* Fill ns (arrays in schedule memory); root >= 0 heads the root's node.
 * XB_ERR_AGAIN: the communicator is not node-whole or spans one node. */
int xb_coll_hier_plan(xb_coll_sched_t *s, const xb_comm_t *comm, int root,
                      xb_coll_nodeset_t *ns)
{
    const xb_rt_info_t *rt = xb_rt();
    const int *job = per_node();
    xb_datatype_t *int_dt = xb_dt_from_handle(MPI_INT);
    int *count = xb_coll_sched_tmp(s, rt->nnodes, int_dt);
    int *head = xb_coll_sched_tmp(s, rt->nnodes, int_dt);
    ns->ranks = xb_coll_sched_tmp(s, rt->local_size, int_dt);
    ns->heads = xb_coll_sched_tmp(s, rt->nnodes, int_dt);
    if (job == NULL || count == NULL || head == NULL || ns->ranks == NULL || ns->heads == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < rt->nnodes; i++)
        count[i] = 0, head[i] = -1;
    ns->n = 0;
    for (int r = 0; r < comm->size; r++) {
        int nd = node_of_rank(comm, r);
        if (nd < 0)
            return XB_ERR_AGAIN;
        if (count[nd]++ == 0)
            head[nd] = r;
        if (nd == (int)rt->my_node && ns->n < rt->local_size)
            ns->ranks[ns->n++] = r;
    }
    if (root >= 0)
        head[node_of_rank(comm, root)] = root;
    ns->nheads = 0;
    ns->mynode = -1;
    for (int i = 0; i < rt->nnodes; i++) {
        if (count[i] == 0)
            continue;
        if (count[i] != job[i])
            return XB_ERR_AGAIN;              /* not every rank of node i */
        if (i == (int)rt->my_node)
            ns->mynode = ns->nheads;
        ns->heads[ns->nheads++] = head[i];
    }
    if (ns->nheads < 2 || ns->mynode < 0)
        return XB_ERR_AGAIN;
    ns->head = ns->heads[ns->mynode];
    return XB_OK;
}

bool xb_coll_hier_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    const xb_rt_info_t *rt = xb_rt();
    if (a->form != XB_COLL_BLOCKING || xb_mt_on || a->comm->remote != NULL || rt->nnodes < 2 ||
        !xb_method_has_node_barrier() || xb_coll_node_slot_size() == 0)
        return false;
    if ((kind == XB_COLL_REDUCE || kind == XB_COLL_ALLREDUCE) && !a->op->commute)
        return false;
    /* Every rank must decide alike, and nodes differ in size: check the
     * node stage against the smallest possible node (one rank). */
    return kind == XB_COLL_BARRIER || xb_coll_node_slot_need_fits(kind, a, 1);
}

int xb_coll_hier_order(xb_coll_sched_t *s, const xb_comm_t *comm,
                       const xb_coll_nodeset_t *ns, int **order_p, int **start_p)
{
    const xb_rt_info_t *rt = xb_rt();
    xb_datatype_t *int_dt = xb_dt_from_handle(MPI_INT);
    int *idx = xb_coll_sched_tmp(s, rt->nnodes, int_dt);      /* node -> j */
    int *start = xb_coll_sched_tmp(s, ns->nheads + 1, int_dt);
    int *next = xb_coll_sched_tmp(s, ns->nheads, int_dt);
    int *order = xb_coll_sched_tmp(s, comm->size, int_dt);
    if (idx == NULL || start == NULL || next == NULL || order == NULL)
        return XB_ERR_NO_MEM;
    for (int j = 0; j < ns->nheads; j++)
        idx[node_of_rank(comm, ns->heads[j])] = j;
    for (int j = 0; j <= ns->nheads; j++)
        start[j] = 0;
    for (int r = 0; r < comm->size; r++)
        start[idx[node_of_rank(comm, r)] + 1]++;
    for (int j = 0; j < ns->nheads; j++)
        start[j + 1] += start[j];
    for (int j = 0; j < ns->nheads; j++)
        next[j] = start[j];
    for (int r = 0; r < comm->size; r++)
        order[next[idx[node_of_rank(comm, r)]]++] = r;
    *order_p = order;
    *start_p = start;
    return XB_OK;
}

/* Steps of the heads' combination at this head: receive every other head's
 * partial result (working representation of s->red) and reduce them into
 * acc, in node order (the ops here are commutative). */
int xb_coll_hier_combine(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc)
{
    MPI_Count n = s->red.wcount;
    void **part = xb_coll_sched_tmp(s, ns->nheads * (MPI_Count)sizeof(void *),
                                    xb_dt_from_handle(MPI_BYTE));
    if (part == NULL)
        return XB_ERR_NO_MEM;
    int rc = XB_OK;
    for (int j = 0; j < ns->nheads && rc == XB_OK; j++) {
        if (j == ns->mynode)
            continue;
        part[j] = xb_coll_sched_wtmp(s, -1);
        rc = part[j] != NULL ? xb_coll_sched_recv(s, part[j], n, s->red.wdt, ns->heads[j])
                             : XB_ERR_NO_MEM;
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    for (int j = 0; j < ns->nheads && rc == XB_OK; j++)
        if (j != ns->mynode)
            rc = xb_coll_sched_reduce(s, part[j], acc, n);
    return rc;
}
