/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_inter.c - collectives on intercommunicators, as the standard
 * defines them: data goes from one group to the other. Peers of send and
 * recv steps are ranks of the remote group; the local phases (reduce
 * within a group, broadcast of what the group's leader received, the
 * barrier's fan-in) run the intracommunicator builders over the
 * intercommunicator's local_comm (xb_coll_sched_local, coll_sched.h).
 *
 *   barrier          local barrier; leaders (local rank 0) exchange a zero-
 *                    byte message; local broadcast of a zero-byte message
 *   bcast            root (MPI_ROOT) sends to remote rank 0, which
 *                    broadcasts in its group; MPI_PROC_NULL does nothing
 *   gather(v)        every rank of the other group sends to the root
 *   scatter(v)       the root sends each rank of the other group its block
 *   allgather(v),    every rank sends to / receives from every rank of the
 *   alltoall(v,w)    other group (p_local * p_remote messages)
 *   reduce           the other group reduces to its rank 0 (ordered for a
 *                    non-commutative op), which sends to the root
 *   allreduce        each group reduces to its rank 0; the leaders swap;
 *                    each broadcasts the other group's result in its group
 *   reduce_scatter   as allreduce on the whole vector (n = the sum of the
 *   (_block)         local counts, the same n in both groups), then a
 *                    local scatter(v) of the other group's result
 * Scan and exscan are not defined on intercommunicators (xb_coll_run
 * reports MPI_ERR_COMM when this file gives no builder).
 */
#include <stdlib.h>
#include "coll/coll_int.h"

static int remote_size(const xb_coll_args_t *a)
{
    return a->comm->remote->size;
}

/* An argument block for a local phase over the local group. */
static xb_coll_args_t local_args(const xb_coll_args_t *a)
{
    xb_coll_args_t l = *a;
    l.comm = a->comm->local_comm;
    l.root = 0;
    return l;
}

/* Run a local-phase builder on l (steps address local_comm). */
static int local_phase(xb_coll_sched_t *s, xb_coll_fn_t fn,
                       const xb_coll_args_t *l)
{
    int rc = xb_coll_sched_fence(s);
    xb_coll_sched_local(s, true);
    if (rc == XB_OK)
        rc = fn(s, l);
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    xb_coll_sched_local(s, false);
    return rc;
}

static int inter_barrier(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_args_t l = local_args(a);
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int rc = local_phase(s, xb_coll_barrier_dissemination, &l);
    if (rc == XB_OK && a->comm->rank == 0) {
        rc = xb_coll_sched_recv(s, NULL, 0, byte, 0);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, NULL, 0, byte, 0);
    }
    l.rbuf = NULL, l.rcount = 0, l.rdt = byte;
    return rc == XB_OK ? local_phase(s, xb_coll_bcast_binomial, &l) : rc;
}

static int inter_bcast(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    if (a->root == MPI_PROC_NULL)
        return XB_OK;
    if (a->root == MPI_ROOT)
        return xb_coll_sched_send(s, a->rbuf, a->rcount, a->rdt, 0);
    int rc = XB_OK;
    if (a->comm->rank == 0)
        rc = xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, a->root);
    xb_coll_args_t l = local_args(a);
    return rc == XB_OK ? local_phase(s, xb_coll_select(XB_COLL_BCAST, &l), &l)
                       : rc;
}

/* gather(v) and scatter(v): the root talks to every remote rank. */
static int inter_rooted(xb_coll_sched_t *s, const xb_coll_args_t *a,
                        bool scatter, bool v)
{
    if (a->root == MPI_PROC_NULL)
        return XB_OK;
    if (a->root != MPI_ROOT)
        return scatter ? xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, a->root)
                       : xb_coll_sched_send(s, a->sbuf, a->scount, a->sdt, a->root);
    int rc = XB_OK;
    xb_datatype_t *dt = scatter ? a->sdt : a->rdt;
    MPI_Aint ext = xb_dt_extent(dt);
    for (int i = 0; i < remote_size(a) && rc == XB_OK; i++) {
        const MPI_Count *counts = scatter ? a->scounts : a->rcounts;
        const MPI_Count *displs = scatter ? a->sdispls : a->rdispls;
        MPI_Count n = v ? counts[i] : scatter ? a->scount : a->rcount;
        MPI_Count off = v ? displs[i] : i * n;
        if (scatter)
            rc = xb_coll_sched_send(s, (const char *)a->sbuf + off * ext, n, dt, i);
        else
            rc = xb_coll_sched_recv(s, (char *)a->rbuf + off * ext, n, dt, i);
    }
    return rc;
}

static int inter_gather(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_rooted(s, a, false, false);
}

static int inter_gatherv(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_rooted(s, a, false, true);
}

static int inter_scatter(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_rooted(s, a, true, false);
}

static int inter_scatterv(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_rooted(s, a, true, true);
}

/* allgather(v), alltoall(v,w): one exchange with every remote rank. */
static int inter_exchange(xb_coll_sched_t *s, const xb_coll_args_t *a,
                          xb_coll_kind_t kind)
{
    int rc = XB_OK;
    for (int i = 0; i < remote_size(a) && rc == XB_OK; i++) {
        const void *sb = a->sbuf;
        MPI_Count sn = a->scount, rn = a->rcount;
        xb_datatype_t *st = a->sdt, *rt = a->rdt;
        char *rb;
        if (kind == XB_COLL_ALLTOALLW) {
            sb = (const char *)a->sbuf + a->sdispls[i], sn = a->scounts[i];
            st = a->stypes[i], rt = a->rtypes[i], rn = a->rcounts[i];
            rb = (char *)a->rbuf + a->rdispls[i];
        } else if (kind == XB_COLL_ALLGATHER || kind == XB_COLL_ALLTOALL) {
            rb = xb_coll_block(a->rbuf, i, rn, rt);
            if (kind == XB_COLL_ALLTOALL)
                sb = xb_coll_block(a->sbuf, i, sn, st);
        } else {                      /* allgatherv, alltoallv */
            rn = a->rcounts[i];
            rb = (char *)a->rbuf + a->rdispls[i] * xb_dt_extent(rt);
            if (kind == XB_COLL_ALLTOALLV)
                sn = a->scounts[i],
                sb = (const char *)a->sbuf + a->sdispls[i] * xb_dt_extent(st);
        }
        rc = xb_coll_sched_recv(s, rb, rn, rt, i);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, sb, sn, st, i);
    }
    return rc;
}

static int inter_allgather(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_exchange(s, a, XB_COLL_ALLGATHER);
}

static int inter_allgatherv(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_exchange(s, a, XB_COLL_ALLGATHERV);
}

static int inter_alltoall(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_exchange(s, a, XB_COLL_ALLTOALL);
}

static int inter_alltoallv(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_exchange(s, a, XB_COLL_ALLTOALLV);
}

static int inter_alltoallw(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_exchange(s, a, XB_COLL_ALLTOALLW);
}

/* The group's n elements reduced into a temporary at local rank 0
 * (*acc; NULL elsewhere). */
static int reduce_local(xb_coll_sched_t *s, const xb_coll_args_t *a,
                        MPI_Count n, void **acc)
{
    xb_coll_args_t l = local_args(a);
    *acc = NULL;
    if (a->comm->rank == 0 && (*acc = xb_coll_sched_tmp(s, n, a->rdt)) == NULL)
        return XB_ERR_NO_MEM;
    l.rbuf = *acc, l.rcount = n, l.sbuf = a->sbuf;
    xb_coll_fn_t fn = a->op->commute ? xb_coll_reduce_binomial
                                     : xb_coll_reduce_ordered;
    return local_phase(s, fn, &l);
}

static int inter_reduce(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    if (a->root == MPI_PROC_NULL)
        return XB_OK;
    if (a->root == MPI_ROOT)
        return xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, 0);
    void *acc;
    int rc = reduce_local(s, a, a->rcount, &acc);
    if (rc == XB_OK && acc != NULL)
        rc = xb_coll_sched_send(s, acc, a->rcount, a->rdt, a->root);
    return rc;
}

/* The other group's reduction of n elements into *out at local rank 0
 * (leaders swap their group's result). */
static int reduce_swap(xb_coll_sched_t *s, const xb_coll_args_t *a,
                       MPI_Count n, void *out)
{
    void *acc;
    int rc = reduce_local(s, a, n, &acc);
    if (rc == XB_OK && acc != NULL) {
        rc = xb_coll_sched_recv(s, out, n, a->rdt, 0);
        if (rc == XB_OK)
            rc = xb_coll_sched_send(s, acc, n, a->rdt, 0);
    }
    return rc;
}

static int inter_allreduce(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int rc = reduce_swap(s, a, a->rcount, a->rbuf);
    xb_coll_args_t l = local_args(a);
    return rc == XB_OK ? local_phase(s, xb_coll_bcast_binomial, &l) : rc;
}

static int inter_reduce_scatter(xb_coll_sched_t *s, const xb_coll_args_t *a,
                                bool block)
{
    int p = a->comm->size;
    MPI_Count n = 0;
    MPI_Count *displs = malloc((size_t)p * sizeof(*displs));
    if (displs == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for %d displacements", p);
    for (int i = 0; i < p; i++) {
        displs[i] = n;
        n += block ? a->rcount : a->rcounts[i];
    }
    void *full = NULL;
    int rc = XB_OK;
    if (a->comm->rank == 0 && (full = xb_coll_sched_tmp(s, n, a->rdt)) == NULL)
        rc = XB_ERR_NO_MEM;
    if (rc == XB_OK)
        rc = reduce_swap(s, a, n, full);
    xb_coll_args_t l = local_args(a);
    l.sbuf = full, l.scount = a->rcount, l.sdt = a->rdt, l.op = NULL;
    l.scounts = block ? NULL : a->rcounts, l.sdispls = displs;
    l.rcount = block ? a->rcount : a->rcounts[a->comm->rank];
    if (rc == XB_OK)
        rc = local_phase(s, block ? xb_coll_scatter_linear
                                  : xb_coll_scatterv_linear, &l);
    free(displs);
    return rc;
}

static int inter_rs(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_reduce_scatter(s, a, false);
}

static int inter_rs_block(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return inter_reduce_scatter(s, a, true);
}

static const xb_coll_fn_t inter_fns[XB_COLL_NKINDS] = {
    [XB_COLL_BARRIER] = inter_barrier,
    [XB_COLL_BCAST] = inter_bcast,
    [XB_COLL_REDUCE] = inter_reduce,
    [XB_COLL_ALLREDUCE] = inter_allreduce,
    [XB_COLL_GATHER] = inter_gather,
    [XB_COLL_SCATTER] = inter_scatter,
    [XB_COLL_ALLGATHER] = inter_allgather,
    [XB_COLL_ALLTOALL] = inter_alltoall,
    [XB_COLL_GATHERV] = inter_gatherv,
    [XB_COLL_SCATTERV] = inter_scatterv,
    [XB_COLL_ALLGATHERV] = inter_allgatherv,
    [XB_COLL_ALLTOALLV] = inter_alltoallv,
    [XB_COLL_ALLTOALLW] = inter_alltoallw,
    [XB_COLL_REDUCE_SCATTER] = inter_rs,
    [XB_COLL_REDUCE_SCATTER_BLOCK] = inter_rs_block,
};

xb_coll_fn_t xb_coll_inter_builder(xb_coll_kind_t kind)
{
    return inter_fns[kind];
}
