/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */

/*
 * coll_api_nb.c - the nonblocking collectives (MPI_Ibarrier ... MPI_Iexscan):
 * the same checks and schedules as the blocking forms; the request
 * completes through the progress engine (coll_nb.c).
 * Binding convention: HACKING.md; checks: coll_args.c.
 */

#include "coll/coll_args.h"
#include "xb_impl.h"

int xb_impl_ibarrier(xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = (xb_coll_args_barrier(&a, comm), XB_OK);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_BARRIER, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ibarrier", request);
    return rc;
}

int xb_impl_ibcast(void *buffer, MPI_Count count, xb_datatype_t *datatype,
                   int root, xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_bcast(&a, buffer, count, datatype, root, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_BCAST, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ibcast", request);
    return rc;
}

int xb_impl_ireduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                    xb_datatype_t *datatype, xb_op_t *op, int root,
                    xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_reduce(&a, sendbuf, recvbuf, count, datatype, op,
                                 root, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ireduce", request);
    return rc;
}

int xb_impl_iallreduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                       xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm,
                       MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLREDUCE, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iallreduce", request);
    return rc;
}

int xb_impl_igather(const void *sendbuf, MPI_Count sendcount,
                    xb_datatype_t *sendtype, void *recvbuf, MPI_Count recvcount,
                    xb_datatype_t *recvtype, int root, xb_comm_t *comm,
                    MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, true, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_GATHER, &a, XB_COLL_NONBLOCKING,
                         "MPI_Igather", request);
    return rc;
}

int xb_impl_iscatter(const void *sendbuf, MPI_Count sendcount,
                     xb_datatype_t *sendtype, void *recvbuf,
                     MPI_Count recvcount, xb_datatype_t *recvtype, int root,
                     xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, true, true);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCATTER, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iscatter", request);
    return rc;
}

int xb_impl_iallgather(const void *sendbuf, MPI_Count sendcount,
                       xb_datatype_t *sendtype, void *recvbuf,
                       MPI_Count recvcount, xb_datatype_t *recvtype,
                       xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, 0, comm, false, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLGATHER, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iallgather", request);
    return rc;
}

int xb_impl_ialltoall(const void *sendbuf, MPI_Count sendcount,
                      xb_datatype_t *sendtype, void *recvbuf,
                      MPI_Count recvcount, xb_datatype_t *recvtype,
                      xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, 0, comm, false, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALL, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ialltoall", request);
    return rc;
}

int xb_impl_igatherv(const void *sendbuf, MPI_Count sendcount,
                     xb_datatype_t *sendtype, void *recvbuf,
                     const MPI_Count *recvcounts, const MPI_Count *displs,
                     xb_datatype_t *recvtype, int root, xb_comm_t *comm,
                     MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_rootv(&a, sendbuf, sendcount, NULL, NULL, sendtype,
                                recvbuf, 0, recvcounts, displs, recvtype, root, comm, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_GATHERV, &a, XB_COLL_NONBLOCKING,
                         "MPI_Igatherv", request);
    return rc;
}

int xb_impl_iscatterv(const void *sendbuf, const MPI_Count *sendcounts,
                      const MPI_Count *displs, xb_datatype_t *sendtype,
                      void *recvbuf, MPI_Count recvcount,
                      xb_datatype_t *recvtype, int root, xb_comm_t *comm,
                      MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_rootv(&a, sendbuf, 0, sendcounts, displs, sendtype,
                                recvbuf, recvcount, NULL, NULL, recvtype, root, comm, true);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCATTERV, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iscatterv", request);
    return rc;
}

int xb_impl_iallgatherv(const void *sendbuf, MPI_Count sendcount,
                        xb_datatype_t *sendtype, void *recvbuf,
                        const MPI_Count *recvcounts, const MPI_Count *displs,
                        xb_datatype_t *recvtype, xb_comm_t *comm,
                        MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allgatherv(&a, sendbuf, sendcount, sendtype, recvbuf,
                                     recvcounts, displs, recvtype, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLGATHERV, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iallgatherv", request);
    return rc;
}

int xb_impl_ialltoallv(const void *sendbuf, const MPI_Count *sendcounts,
                       const MPI_Count *sdispls, xb_datatype_t *sendtype,
                       void *recvbuf, const MPI_Count *recvcounts,
                       const MPI_Count *rdispls, xb_datatype_t *recvtype,
                       xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_alltoallv(&a, sendbuf, sendcounts, sdispls, sendtype,
                                    recvbuf, recvcounts, rdispls, recvtype, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALLV, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ialltoallv", request);
    return rc;
}

int xb_impl_ialltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                       const MPI_Count *sdispls, const MPI_Datatype sendtypes[],
                       void *recvbuf, const MPI_Count *recvcounts,
                       const MPI_Count *rdispls, const MPI_Datatype recvtypes[],
                       xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_alltoallw(&a, sendbuf, sendcounts, sdispls,
                                    sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALLW, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ialltoallw", request);
    xb_coll_args_free(&a);
    return rc;
}

int xb_impl_ireduce_scatter(const void *sendbuf, void *recvbuf,
                            const MPI_Count *recvcounts,
                            xb_datatype_t *datatype, xb_op_t *op,
                            xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_reduce_scatter(&a, sendbuf, recvbuf, recvcounts,
                                         datatype, op, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE_SCATTER, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ireduce_scatter", request);
    return rc;
}

int xb_impl_ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                                  MPI_Count recvcount, xb_datatype_t *datatype,
                                  xb_op_t *op, xb_comm_t *comm,
                                  MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, recvcount, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE_SCATTER_BLOCK, &a, XB_COLL_NONBLOCKING,
                         "MPI_Ireduce_scatter_block", request);
    return rc;
}

int xb_impl_iscan(const void *sendbuf, void *recvbuf, MPI_Count count,
                  xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm,
                  MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCAN, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iscan", request);
    return rc;
}

int xb_impl_iexscan(const void *sendbuf, void *recvbuf, MPI_Count count,
                    xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm,
                    MPI_Request *request)
{
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_EXSCAN, &a, XB_COLL_NONBLOCKING,
                         "MPI_Iexscan", request);
    return rc;
}
