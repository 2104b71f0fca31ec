/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */

/*
 * coll_api_init.c - the persistent collectives (MPI_Barrier_init ...
 * MPI_Exscan_init, MPI 4): the schedule is built once here and re-run by
 * every MPI_Start. The info argument holds no hint we use yet.
 * Binding convention: HACKING.md; checks: coll_args.c.
 */

#include "coll/coll_args.h"
#include "xb_impl.h"

int xb_impl_barrier_init(xb_comm_t *comm, xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = (xb_coll_args_barrier(&a, comm), XB_OK);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_BARRIER, &a, XB_COLL_PERSISTENT,
                         "MPI_Barrier_init", request);
    return rc;
}

int xb_impl_bcast_init(void *buffer, MPI_Count count, xb_datatype_t *datatype,
                       int root, xb_comm_t *comm, xb_info_t *info,
                       MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_bcast(&a, buffer, count, datatype, root, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_BCAST, &a, XB_COLL_PERSISTENT,
                         "MPI_Bcast_init", request);
    return rc;
}

int xb_impl_reduce_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                        xb_datatype_t *datatype, xb_op_t *op, int root,
                        xb_comm_t *comm, xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_reduce(&a, sendbuf, recvbuf, count, datatype, op,
                                 root, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE, &a, XB_COLL_PERSISTENT,
                         "MPI_Reduce_init", request);
    return rc;
}

int xb_impl_allreduce_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                           xb_datatype_t *datatype, xb_op_t *op,
                           xb_comm_t *comm, xb_info_t *info,
                           MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLREDUCE, &a, XB_COLL_PERSISTENT,
                         "MPI_Allreduce_init", request);
    return rc;
}

int xb_impl_gather_init(const void *sendbuf, MPI_Count sendcount,
                        xb_datatype_t *sendtype, void *recvbuf,
                        MPI_Count recvcount, xb_datatype_t *recvtype, int root,
                        xb_comm_t *comm, xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, true, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_GATHER, &a, XB_COLL_PERSISTENT,
                         "MPI_Gather_init", request);
    return rc;
}

int xb_impl_scatter_init(const void *sendbuf, MPI_Count sendcount,
                         xb_datatype_t *sendtype, void *recvbuf,
                         MPI_Count recvcount, xb_datatype_t *recvtype, int root,
                         xb_comm_t *comm, xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, root, comm, true, true);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCATTER, &a, XB_COLL_PERSISTENT,
                         "MPI_Scatter_init", request);
    return rc;
}

int xb_impl_allgather_init(const void *sendbuf, MPI_Count sendcount,
                           xb_datatype_t *sendtype, void *recvbuf,
                           MPI_Count recvcount, xb_datatype_t *recvtype,
                           xb_comm_t *comm, xb_info_t *info,
                           MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, 0, comm, false, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLGATHER, &a, XB_COLL_PERSISTENT,
                         "MPI_Allgather_init", request);
    return rc;
}

int xb_impl_alltoall_init(const void *sendbuf, MPI_Count sendcount,
                          xb_datatype_t *sendtype, void *recvbuf,
                          MPI_Count recvcount, xb_datatype_t *recvtype,
                          xb_comm_t *comm, xb_info_t *info,
                          MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_blocks(&a, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, 0, comm, false, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALL, &a, XB_COLL_PERSISTENT,
                         "MPI_Alltoall_init", request);
    return rc;
}

int xb_impl_gatherv_init(const void *sendbuf, MPI_Count sendcount,
                         xb_datatype_t *sendtype, void *recvbuf,
                         const MPI_Count *recvcounts, const MPI_Count *displs,
                         xb_datatype_t *recvtype, int root, xb_comm_t *comm,
                         xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_rootv(&a, sendbuf, sendcount, NULL, NULL, sendtype,
                                recvbuf, 0, recvcounts, displs, recvtype, root, comm, false);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_GATHERV, &a, XB_COLL_PERSISTENT,
                         "MPI_Gatherv_init", request);
    return rc;
}

int xb_impl_scatterv_init(const void *sendbuf, const MPI_Count *sendcounts,
                          const MPI_Count *displs, xb_datatype_t *sendtype,
                          void *recvbuf, MPI_Count recvcount,
                          xb_datatype_t *recvtype, int root, xb_comm_t *comm,
                          xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_rootv(&a, sendbuf, 0, sendcounts, displs, sendtype,
                                recvbuf, recvcount, NULL, NULL, recvtype, root, comm, true);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCATTERV, &a, XB_COLL_PERSISTENT,
                         "MPI_Scatterv_init", request);
    return rc;
}

int xb_impl_allgatherv_init(const void *sendbuf, MPI_Count sendcount,
                            xb_datatype_t *sendtype, void *recvbuf,
                            const MPI_Count *recvcounts,
                            const MPI_Count *displs, xb_datatype_t *recvtype,
                            xb_comm_t *comm, xb_info_t *info,
                            MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_allgatherv(&a, sendbuf, sendcount, sendtype, recvbuf,
                                     recvcounts, displs, recvtype, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLGATHERV, &a, XB_COLL_PERSISTENT,
                         "MPI_Allgatherv_init", request);
    return rc;
}

int xb_impl_alltoallv_init(const void *sendbuf, const MPI_Count *sendcounts,
                           const MPI_Count *sdispls, xb_datatype_t *sendtype,
                           void *recvbuf, const MPI_Count *recvcounts,
                           const MPI_Count *rdispls, xb_datatype_t *recvtype,
                           xb_comm_t *comm, xb_info_t *info,
                           MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_alltoallv(&a, sendbuf, sendcounts, sdispls, sendtype,
                                    recvbuf, recvcounts, rdispls, recvtype, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALLV, &a, XB_COLL_PERSISTENT,
                         "MPI_Alltoallv_init", request);
    return rc;
}

int xb_impl_alltoallw_init(const void *sendbuf, const MPI_Count *sendcounts,
                           const MPI_Count *sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf,
                           const MPI_Count *recvcounts,
                           const MPI_Count *rdispls,
                           const MPI_Datatype recvtypes[], xb_comm_t *comm,
                           xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_alltoallw(&a, sendbuf, sendcounts, sdispls,
                                    sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_ALLTOALLW, &a, XB_COLL_PERSISTENT,
                         "MPI_Alltoallw_init", request);
    xb_coll_args_free(&a);
    return rc;
}

int xb_impl_reduce_scatter_init(const void *sendbuf, void *recvbuf,
                                const MPI_Count *recvcounts,
                                xb_datatype_t *datatype, xb_op_t *op,
                                xb_comm_t *comm, xb_info_t *info,
                                MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_reduce_scatter(&a, sendbuf, recvbuf, recvcounts,
                                         datatype, op, comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE_SCATTER, &a, XB_COLL_PERSISTENT,
                         "MPI_Reduce_scatter_init", request);
    return rc;
}

int xb_impl_reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
                                      MPI_Count recvcount,
                                      xb_datatype_t *datatype, xb_op_t *op,
                                      xb_comm_t *comm, xb_info_t *info,
                                      MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, recvcount, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_REDUCE_SCATTER_BLOCK, &a, XB_COLL_PERSISTENT,
                         "MPI_Reduce_scatter_block_init", request);
    return rc;
}

int xb_impl_scan_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                      xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm,
                      xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_SCAN, &a, XB_COLL_PERSISTENT,
                         "MPI_Scan_init", request);
    return rc;
}

int xb_impl_exscan_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                        xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm,
                        xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    int rc = xb_coll_args_allred(&a, sendbuf, recvbuf, count, datatype, op,
                                 comm);
    if (rc == XB_OK)
        rc = xb_coll_run(XB_COLL_EXSCAN, &a, XB_COLL_PERSISTENT,
                         "MPI_Exscan_init", request);
    return rc;
}
