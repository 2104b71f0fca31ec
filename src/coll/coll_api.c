/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_api.c - the implementation functions of the collective MPI calls
 * (binding convention, HACKING.md): the checks the generated binding cannot
 * know (root range, in-place rules, op against datatype), then xb_coll_*.
 * Every rank of a correct program passes the same root, op and type, so a
 * check that fails, fails on every rank before any message is sent.
 */
#include "coll/coll_int.h"
#include "xb_impl.h"

static int check_root(int root, const xb_comm_t *comm)
{
    if (root < 0 || root >= comm->size)
        return xb_err_set(XB_ERR_ROOT, "invalid root %d (the communicator has "
                          "%d ranks)", root, comm->size);
    return XB_OK;
}

static int check_op(const xb_op_t *op, xb_datatype_t *dt)
{
    if (op->predefined && (op->kind == XB_OPK_REPLACE || op->kind == XB_OPK_NO_OP))
        return xb_err_set(XB_ERR_OP, "%s is valid only in one-sided accumulate "
                          "operations, not in reductions", op->name);
    xb_coll_red_t r;
    return xb_coll_red_init(&r, 1, dt, (xb_op_t *)op);
}

int xb_impl_barrier(xb_comm_t *comm)
{
    return xb_coll_barrier(comm);
}

int xb_impl_bcast(void *buffer, MPI_Count count, xb_datatype_t *datatype,
                  int root, xb_comm_t *comm)
{
    int rc = check_root(root, comm);
    if (rc != XB_OK)
        return rc;
    return xb_coll_bcast(buffer, count, datatype, root, comm);
}

int xb_impl_reduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                   xb_datatype_t *datatype, xb_op_t *op, int root,
                   xb_comm_t *comm)
{
    int rc = check_root(root, comm);
    if (rc == XB_OK)
        rc = check_op(op, datatype);
    if (rc != XB_OK)
        return rc;
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return xb_err_set(XB_ERR_BUFFER, "sendbuf is MPI_IN_PLACE on rank %d, "
                          "which is not the root (%d)", comm->rank, root);
    return xb_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int xb_impl_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                      xb_datatype_t *datatype, xb_op_t *op, xb_comm_t *comm)
{
    int rc = check_op(op, datatype);
    if (rc != XB_OK)
        return rc;
    return xb_coll_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int xb_impl_gather(const void *sendbuf, MPI_Count sendcount,
                   xb_datatype_t *sendtype, void *recvbuf, MPI_Count recvcount,
                   xb_datatype_t *recvtype, int root, xb_comm_t *comm)
{
    int rc = check_root(root, comm);
    if (rc != XB_OK)
        return rc;
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return xb_err_set(XB_ERR_BUFFER, "sendbuf is MPI_IN_PLACE on rank %d, "
                          "which is not the root (%d)", comm->rank, root);
    if (comm->rank == root && recvtype == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid recvtype at the root: "
                          "MPI_DATATYPE_NULL");
    if (sendbuf != MPI_IN_PLACE && sendtype == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid sendtype: MPI_DATATYPE_NULL");
    return xb_coll_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, root, comm);
}

int xb_impl_scatter(const void *sendbuf, MPI_Count sendcount,
                    xb_datatype_t *sendtype, void *recvbuf, MPI_Count recvcount,
                    xb_datatype_t *recvtype, int root, xb_comm_t *comm)
{
    int rc = check_root(root, comm);
    if (rc != XB_OK)
        return rc;
    if (recvbuf == MPI_IN_PLACE && comm->rank != root)
        return xb_err_set(XB_ERR_BUFFER, "recvbuf is MPI_IN_PLACE on rank %d, "
                          "which is not the root (%d)", comm->rank, root);
    if (comm->rank == root && sendtype == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid sendtype at the root: "
                          "MPI_DATATYPE_NULL");
    if (recvbuf != MPI_IN_PLACE && recvtype == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid recvtype: MPI_DATATYPE_NULL");
    return xb_coll_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                           recvtype, root, comm);
}

int xb_impl_allgather(const void *sendbuf, MPI_Count sendcount,
                      xb_datatype_t *sendtype, void *recvbuf,
                      MPI_Count recvcount, xb_datatype_t *recvtype,
                      xb_comm_t *comm)
{
    if (sendbuf != MPI_IN_PLACE && sendtype == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid sendtype: MPI_DATATYPE_NULL");
    return xb_coll_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm);
}

int xb_impl_alltoall(const void *sendbuf, MPI_Count sendcount,
                     xb_datatype_t *sendtype, void *recvbuf,
                     MPI_Count recvcount, xb_datatype_t *recvtype,
                     xb_comm_t *comm)
{
    if (sendbuf != MPI_IN_PLACE && sendtype == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid sendtype: MPI_DATATYPE_NULL");
    return xb_coll_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype, comm);
}
