/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hier.c - what the hierarchical algorithms (*_hier.c) share: the nodes a
 * communicator spans, each node's head, and when the two-stage scheme
 * applies.
 *
 * A communicator that spans several nodes and holds every rank of the job
 * on each of them ("node-whole": COMM_WORLD of a multi-host job and its
 * duplicates) runs its blocking barrier, bcast, reduce, allreduce, gather,
 * scatter and allgather in two stages: inside each node through the node's
 * shared memory (node_shm.c: one node barrier per phase, every local rank
 * takes part), and across nodes by point-to-point messages between one
 * head per node - the node's lowest rank, or the root on the root's node -
 * along binomial trees over the heads (below). The slow links then carry
 * one message per node instead of one per rank. Reductions are staged only
 * for commutative ops (the stages change the order of the operands).
 *
 * Not under MPI_THREAD_MULTIPLE (the node phases share one barrier line and
 * one set of slots per process). Cost: building the node set is O(p) per
 * call (p: the communicator size), plus O(world) once for the job's ranks
 * per node.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "method/method.h"
#include "runtime/runtime.h"

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

int xb_coll_node_of(const xb_comm_t *comm, int r)
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
        int nd = xb_coll_node_of(comm, r);
        if (nd < 0)
            return XB_ERR_AGAIN;
        if (count[nd]++ == 0)
            head[nd] = r;
        if (nd == (int)rt->my_node && ns->n < rt->local_size)
            ns->ranks[ns->n++] = r;
    }
    if (root >= 0)
        head[xb_coll_node_of(comm, root)] = root;
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
    ns->rootnode = 0;
    while (root >= 0 && ns->heads[ns->rootnode] != root)
        ns->rootnode++;
    return XB_OK;
}

int xb_coll_comm_nodes(const xb_comm_t *comm)
{
    if (xb_rt()->nnodes > 4096)
        return 0;
    uint8_t seen[4096 / 8] = { 0 };
    int n = 0;
    for (int r = 0; r < comm->size; r++) {
        int nd = xb_coll_node_of(comm, r);
        if (nd >= 0 && !(seen[nd / 8] & (1u << (nd % 8)))) {
            seen[nd / 8] |= (uint8_t)(1u << (nd % 8));
            n++;
        }
    }
    return n;
}

bool xb_coll_hier_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    const xb_rt_info_t *rt = xb_rt();
    if (a->form != XB_COLL_BLOCKING || xb_coll_threads || a->comm->remote != NULL || rt->nnodes < 2 ||
        !xb_method_has_node_barrier() || xb_coll_node_slot_size() == 0)
        return false;
    if (kind == XB_COLL_REDUCE || kind == XB_COLL_ALLREDUCE)  /* segments of a slot */
        return a->op->commute && xb_coll_hier_red_fits(a);
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
        idx[xb_coll_node_of(comm, ns->heads[j])] = j;
    for (int j = 0; j <= ns->nheads; j++)
        start[j] = 0;
    for (int r = 0; r < comm->size; r++)
        start[idx[xb_coll_node_of(comm, r)] + 1]++;
    for (int j = 0; j < ns->nheads; j++)
        start[j + 1] += start[j];
    for (int j = 0; j < ns->nheads; j++)
        next[j] = start[j];
    for (int r = 0; r < comm->size; r++)
        order[next[idx[xb_coll_node_of(comm, r)]]++] = r;
    *order_p = order;
    *start_p = start;
    return XB_OK;
}

MPI_Count *xb_coll_hier_lens(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns,
                             const int *start, MPI_Count B)
{
    MPI_Count *len = xb_coll_sched_tmp(s, ns->nheads * (MPI_Count)sizeof(MPI_Count),
                                       xb_dt_from_handle(MPI_BYTE));
    for (int j = 0; len != NULL && j < ns->nheads; j++)
        len[j] = (start[j + 1] - start[j]) * B;
    return len;
}

char *xb_coll_hier_tree_buf(xb_coll_sched_t *s, const xb_comm_t *comm,
                            const xb_coll_nodeset_t *ns, MPI_Count B, int **order,
                            int **start, MPI_Count **len)
{
    if (xb_coll_hier_order(s, comm, ns, order, start) != XB_OK)
        return NULL;
    *len = xb_coll_hier_lens(s, ns, *start, B);
    return *len != NULL ? xb_coll_sched_tmp(s, xb_coll_hier_tree_span(ns, ns->rootnode, *len),
                                            xb_dt_from_handle(MPI_BYTE))
                        : NULL;
}

int xb_coll_hier_tree_blocks(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, const int *order,
                             const int *start, const MPI_Count *len, MPI_Count B, char *buf,
                             void *ubuf, MPI_Count count, xb_datatype_t *dt, bool pack)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int L = ns->nheads, top = ns->rootnode, rc = XB_OK;
    MPI_Count at = len[top];
    for (int v = 1; v < L && rc == XB_OK; v++) {
        int j = (v + top) % L;
        for (int k = start[j]; k < start[j + 1] && rc == XB_OK; k++, at += B) {
            void *blk = xb_coll_block(ubuf, order[k], count, dt);
            rc = pack ? xb_coll_sched_copy(s, blk, count, dt, buf + at, B, byte)
                      : xb_coll_sched_copy(s, buf + at, B, byte, blk, count, dt);
        }
    }
    return rc;
}

/* ---- the heads' binomial trees -------------------------------------------
 * Over the heads, rooted at head index top: head j has the tree rank
 * v = (j - top) mod L; its parent is v - low(v) (low: the lowest set bit
 * of v), its children v + m for the powers of two m < low(v) (below L at
 * the root, v = 0) with v + m < L; the subtree of v is the heads v ..
 * v + low(v) - 1 (up to L). ceil(log2 L) rounds, and no head handles more
 * than log2 L messages, where the linear stage had one head take L - 1. */
static int tree_low(int v, int L)
{
    int m = 1;
    while (m < L && !(v & m))
        m <<= 1;
    return m;
}

static int tree_v(const xb_coll_nodeset_t *ns, int top)
{
    return (ns->mynode - top + ns->nheads) % ns->nheads;
}

static int tree_head(const xb_coll_nodeset_t *ns, int top, int v)
{
    return ns->heads[(v + top) % ns->nheads];
}

/* Bytes of the tree ranks [v, w) (len: bytes per node index). */
static MPI_Count tree_bytes(const xb_coll_nodeset_t *ns, int top, const MPI_Count *len, int v,
                            int w)
{
    MPI_Count b = 0;
    for (int u = v; u < w && u < ns->nheads; u++)
        b += len[(u + top) % ns->nheads];
    return b;
}

MPI_Count xb_coll_hier_tree_span(const xb_coll_nodeset_t *ns, int top, const MPI_Count *len)
{
    int v = tree_v(ns, top);
    return tree_bytes(ns, top, len, v, v + tree_low(v, ns->nheads));
}

int xb_coll_hier_tree_reduce(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                             void *acc, void **part)
{
    MPI_Count n = s->red.wcount;
    int L = ns->nheads, v = tree_v(ns, top), low = tree_low(v, L), k = 0, rc = XB_OK;
    for (int m = 1; m < low && v + m < L && rc == XB_OK; m <<= 1) {
        if (part[k] == NULL)
            part[k] = xb_coll_sched_wtmp(s, -1);
        rc = part[k] != NULL ? xb_coll_sched_recv(s, part[k], n, s->red.wdt,
                                                  tree_head(ns, top, v + m))
                             : XB_ERR_NO_MEM;
        k++;
    }
    if (rc == XB_OK && k > 0)
        rc = xb_coll_sched_fence(s);
    for (int i = 0; i < k && rc == XB_OK; i++)
        rc = xb_coll_sched_reduce(s, part[i], acc, n);
    if (rc == XB_OK && v != 0)
        rc = xb_coll_sched_send(s, acc, n, s->red.wdt, tree_head(ns, top, v - low));
    return rc == XB_OK && v != 0 ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_hier_tree_bcast(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                            void *buf, MPI_Count count, xb_datatype_t *dt)
{
    int L = ns->nheads, v = tree_v(ns, top), low = tree_low(v, L), rc = XB_OK;
    if (v != 0) {
        rc = xb_coll_sched_recv(s, buf, count, dt, tree_head(ns, top, v - low));
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    for (int m = low >> 1; m > 0 && rc == XB_OK; m >>= 1)      /* largest first */
        if (v + m < L)
            rc = xb_coll_sched_send(s, buf, count, dt, tree_head(ns, top, v + m));
    return rc;
}

int xb_coll_hier_tree_gather(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                             const MPI_Count *len, char *buf)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int L = ns->nheads, v = tree_v(ns, top), low = tree_low(v, L), rc = XB_OK;
    for (int m = 1; m < low && v + m < L && rc == XB_OK; m <<= 1) {
        MPI_Count at = tree_bytes(ns, top, len, v, v + m);
        MPI_Count b = tree_bytes(ns, top, len, v + m, v + 2 * m);
        if (b > 0)
            rc = xb_coll_sched_recv(s, buf + at, b, byte, tree_head(ns, top, v + m));
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc == XB_OK && v != 0) {
        MPI_Count b = tree_bytes(ns, top, len, v, v + low);
        if (b > 0)
            rc = xb_coll_sched_send(s, buf, b, byte, tree_head(ns, top, v - low));
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    return rc;
}

int xb_coll_hier_tree_scatter(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                              const MPI_Count *len, char *buf)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int L = ns->nheads, v = tree_v(ns, top), low = tree_low(v, L), rc = XB_OK;
    if (v != 0) {
        MPI_Count b = tree_bytes(ns, top, len, v, v + low);
        if (b > 0)
            rc = xb_coll_sched_recv(s, buf, b, byte, tree_head(ns, top, v - low));
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
    }
    for (int m = low >> 1; m > 0 && rc == XB_OK; m >>= 1) {
        if (v + m >= L)
            continue;
        MPI_Count at = tree_bytes(ns, top, len, v, v + m);
        MPI_Count b = tree_bytes(ns, top, len, v + m, v + 2 * m);
        if (b > 0)
            rc = xb_coll_sched_send(s, buf + at, b, byte, tree_head(ns, top, v + m));
    }
    return rc;
}

bool xb_coll_hier_red_fits(const xb_coll_args_t *a)
{
    xb_coll_red_t red;
    if (xb_coll_red_init(&red, a->rcount, a->rdt, a->op) != XB_OK) {
        xb_err_clear();
        return false;
    }
    return xb_dt_is_predefined(red.wdt) &&
           (red.count == 0 || (size_t)((red.wcount / red.count) * xb_dt_extent(red.wdt)) <=
                              xb_coll_node_slot_size());
}

MPI_Count xb_coll_hier_red_segment(const xb_coll_sched_t *s)
{
    const xb_coll_red_t *r = &s->red;
    if (r->count == 0)
        return 1;
    MPI_Count per = (MPI_Count)xb_coll_node_slot_size() /
                    ((r->wcount / r->count) * xb_dt_extent(r->wdt));
    return per < 1 ? 1 : per < r->count ? per : r->count;
}

void xb_coll_hier_red_part(xb_coll_sched_t *s, const xb_coll_red_t *whole, MPI_Count n)
{
    s->red = *whole;
    if (whole->count > 0) {
        s->red.wcount = whole->wcount / whole->count * n;
        s->red.count = n;
    }
}

MPI_Count xb_coll_hier_chunk(const xb_coll_sched_t *s, int L, int c, MPI_Count *len)
{
    MPI_Count n = s->red.wcount, lo = (MPI_Count)c * n / L;
    *len = (MPI_Count)(c + 1) * n / L - lo;
    return lo;
}

int xb_coll_hier_ring(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc,
                      void **part, bool allgather)
{
    int L = ns->nheads, me = ns->mynode, rc = XB_OK;
    int next = ns->heads[(me + 1) % L], prev = ns->heads[(me + L - 1) % L];
    MPI_Count ext = xb_dt_extent(s->red.wdt), len;
    if (part[0] == NULL && (part[0] = xb_coll_sched_wtmp(s, -1)) == NULL)
        return XB_ERR_NO_MEM;
    char *a = acc;
    /* step k of the reduce-scatter (phase 0) sends chunk me - k and
     * combines chunk me - k - 1 into acc; of the allgather (phase 1) sends
     * chunk me + 1 - k and receives chunk me - k into place */
    for (int phase = 0; phase < (allgather ? 2 : 1); phase++)
        for (int k = 0; k < L - 1 && rc == XB_OK; k++) {
            int sc = (me + phase - k + L) % L, rcv = (me + phase - k - 1 + L) % L;
            MPI_Count so = xb_coll_hier_chunk(s, L, sc, &len);
            rc = xb_coll_sched_send(s, a + so * ext, len, s->red.wdt, next);
            MPI_Count ro = xb_coll_hier_chunk(s, L, rcv, &len);
            void *in = phase == 0 ? part[0] : a + ro * ext;
            if (rc == XB_OK)
                rc = xb_coll_sched_recv(s, in, len, s->red.wdt, prev);
            if (rc == XB_OK)
                rc = xb_coll_sched_fence(s);
            if (rc == XB_OK && phase == 0)
                rc = xb_coll_sched_reduce(s, part[0], a + ro * ext, len);
        }
    return rc;
}
