/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */

/*
 * coll_api.c - the blocking collectives (MPI_Barrier ... MPI_Exscan),
 * MPI_Reduce_local and MPI_Op_commutative.
 * Binding convention: HACKING.md; checks: coll_args.c.
 */

#include "coll/coll_args.h"
#include "xb_impl.h"

#include <stdlib.h>
#include "core/op.h"
#include "util/xb_mt.h"

int xb_impl_barrier(xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = (xb_coll_args_barrier(&a, comm), XB_OK);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_BARRIER, &a, XB_COLL_BLOCKING,
                         "MPI_Barrier", NULL);
    return rc;
}

int xb_impl_bcast(void *buffer, MPI_Count count, xb_datatype_t *datatype,
                  int root, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_bcast(&a, buffer, count, datatype, root, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_BCAST, &a, XB_COLL_BLOCKING,
                         "MPI_Bcast", NULL);
    return rc;
}

int xb_impl_reduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                   xb_datatype_t *datatype, xb_op_t *op, int root,
                   xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_reduce(&a, sendbuf, recvbuf, count, datatype, op,
                                 root, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE, &a, XB_COLL_BLOCKING,
                         "MPI_Reduce", NULL);
    return rc;
}

int xb_impl_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                      xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLREDUCE, &a, XB_COLL_BLOCKING,
                         "MPI_Allreduce", NULL);
    return rc;
}

int xb_impl_gather(const void *sendbuf, MPI_Count sendcount,
                   xb_datatype_t *sendtype, void *recvbuf, MPI_Count recvcount,
                   xb_datatype_t *recvtype, int root, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, true, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_GATHER, &a, XB_COLL_BLOCKING,
                         "MPI_Gather", NULL);
    return rc;
}

int xb_impl_scatter(const void *sendbuf, MPI_Count sendcount,
                    xb_datatype_t *sendtype, void *recvbuf, MPI_Count recvcount,
                    xb_datatype_t *recvtype, int root, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, true, true);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCATTER, &a, XB_COLL_BLOCKING,
                         "MPI_Scatter", NULL);
    return rc;
}

int xb_impl_allgather(const void *sendbuf, MPI_Count sendcount,
                      xb_datatype_t *sendtype, void *recvbuf,
                      MPI_Count recvcount, xb_datatype_t *recvtype,
                      xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, 0, comm, false, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLGATHER, &a, XB_COLL_BLOCKING,
                         "MPI_Allgather", NULL);
    return rc;
}

int xb_impl_alltoall(const void *sendbuf, MPI_Count sendcount,
                     xb_datatype_t *sendtype, void *recvbuf,
                     MPI_Count recvcount, xb_datatype_t *recvtype,
                     xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, 0, comm, false, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALL, &a, XB_COLL_BLOCKING,
                         "MPI_Alltoall", NULL);
    return rc;
}

int xb_impl_gatherv(const void *sendbuf, MPI_Count sendcount,
                    xb_datatype_t *sendtype, void *recvbuf,
                    const MPI_Count *recvcounts, const MPI_Count *displs,
                    xb_datatype_t *recvtype, int root, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_rootv(&a, sendbuf, sendcount, NULL, NULL, sendtype,
                                recvbuf, 0, recvcounts, displs, recvtype, root, comm, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_GATHERV, &a, XB_COLL_BLOCKING,
                         "MPI_Gatherv", NULL);
    return rc;
}

int xb_impl_scatterv(const void *sendbuf, const MPI_Count *sendcounts,
                     const MPI_Count *displs, xb_datatype_t *sendtype,
                     void *recvbuf, MPI_Count recvcount,
                     xb_datatype_t *recvtype, int root, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_rootv(&a, sendbuf, 0, sendcounts, displs, sendtype,
                                recvbuf, recvcount, NULL, NULL, recvtype, root, comm, true);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCATTERV, &a, XB_COLL_BLOCKING,
                         "MPI_Scatterv", NULL);
    return rc;
}

int xb_impl_allgatherv(const void *sendbuf, MPI_Count sendcount,
                       xb_datatype_t *sendtype, void *recvbuf,
                       const MPI_Count *recvcounts, const MPI_Count *displs,
                       xb_datatype_t *recvtype, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allgatherv(&a, sendbuf, sendcount, sendtype, recvbuf,
                                     recvcounts, displs, recvtype, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLGATHERV, &a, XB_COLL_BLOCKING,
                         "MPI_Allgatherv", NULL);
    return rc;
}

int xb_impl_alltoallv(const void *sendbuf, const MPI_Count *sendcounts,
                      const MPI_Count *sdispls, xb_datatype_t *sendtype,
                      void *recvbuf, const MPI_Count *recvcounts,
                      const MPI_Count *rdispls, xb_datatype_t *recvtype,
                      xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_alltoallv(&a, sendbuf, sendcounts, sdispls, sendtype,
                                    recvbuf, recvcounts, rdispls, recvtype, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALLV, &a, XB_COLL_BLOCKING,
                         "MPI_Alltoallv", NULL);
    return rc;
}

int xb_impl_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                      const MPI_Count *sdispls, const MPI_Datatype sendtypes[],
                      void *recvbuf, const MPI_Count *recvcounts,
                      const MPI_Count *rdispls, const MPI_Datatype recvtypes[],
                      xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_alltoallw(&a, sendbuf, sendcounts, sdispls,
                                    sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALLW, &a, XB_COLL_BLOCKING,
                         "MPI_Alltoallw", NULL);
    xb_coll_args_free(&a);
    return rc;
}

int xb_impl_reduce_scatter(const void *sendbuf, void *recvbuf,
                           const MPI_Count *recvcounts, xb_datatype_t *datatype,
                           xb_op_t *op, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_reduce_scatter(&a, sendbuf, recvbuf, recvcounts,
                                         datatype, op, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE_SCATTER, &a, XB_COLL_BLOCKING,
                         "MPI_Reduce_scatter", NULL);
    return rc;
}

int xb_impl_reduce_scatter_block(const void *sendbuf, void *recvbuf,
                                 MPI_Count recvcount, xb_datatype_t *datatype,
                                 xb_op_t *op, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, recvcount, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE_SCATTER_BLOCK, &a, XB_COLL_BLOCKING,
                         "MPI_Reduce_scatter_block", NULL);
    return rc;
}

int xb_impl_scan(const void *sendbuf, void *recvbuf, MPI_Count count,
                 xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCAN, &a, XB_COLL_BLOCKING,
                         "MPI_Scan", NULL);
    return rc;
}

int xb_impl_exscan(const void *sendbuf, void *recvbuf, MPI_Count count,
                   xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_EXSCAN, &a, XB_COLL_BLOCKING,
                         "MPI_Exscan", NULL);
    return rc;
}

/* ---- local reduction and op queries -------------------------------------- */

int xb_impl_op_commutative(xb_op_t *op, int *commute)
{
    *commute = op->commute ? 1 : 0;
    return XB_OK;
}

/* A user function runs without the MULTIPLE lock (it may call MPI, as
 * mpi4py's Python operations do: MPI_Op_create's function converting its
 * datatype argument); a predefined one runs as it is. */
static int apply_unlocked(const xb_op_t *op, const void *in, void *inout, MPI_Count n,
                          const xb_datatype_t *dt)
{
    if (op->predefined)
        return xb_op_apply(op, in, inout, n, dt);
    xb_mutex_t *held = xb_cb_begin();
    int rc = xb_op_apply(op, in, inout, n, dt);
    xb_cb_end(held);
    return rc;
}

/* inoutbuf = inbuf op inoutbuf. A predefined op on a derived type works on
 * working copies of the basic elements (coll_util.c). */
int xb_impl_reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count,
                         xb_datatype_t *datatype, xb_op_t *op)
{
    xb_coll_red_t r;
    int rc = xb_coll_check_alias_local(inbuf, inoutbuf, count, datatype);
    if (rc == XB_OK)
        rc = xb_coll_check_op(op, datatype);
    if (rc == XB_OK)
        rc = xb_coll_red_init(&r, count, datatype, op);
    if (rc != XB_OK)
        return rc;
    if (r.direct)
        return apply_unlocked(op, inbuf, inoutbuf, count, datatype);
    size_t bytes = (size_t)(r.wcount > 0 ? r.wcount : 1) * (size_t)xb_dt_extent(r.wdt);
    char *win = malloc(bytes), *wio = malloc(bytes);
    if (win == NULL || wio == NULL)
        rc = xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte reduction "
                        "buffer", bytes);
    if (rc == XB_OK)
        rc = xb_dt_copy(inbuf, count, datatype, win, r.wcount, r.wdt);
    if (rc == XB_OK)
        rc = xb_dt_copy(inoutbuf, count, datatype, wio, r.wcount, r.wdt);
    if (rc == XB_OK)
        rc = apply_unlocked(op, win, wio, r.wcount, r.wdt);
    if (rc == XB_OK)
        rc = xb_dt_copy(wio, r.wcount, r.wdt, inoutbuf, count, datatype);
    free(win);
    free(wio);
    return rc;
}
