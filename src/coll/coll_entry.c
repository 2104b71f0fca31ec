/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_entry.c - the layer's internal blocking entry points (coll.h), for
 * callers inside the library (MPI_Finalize's barrier, the comm layer's
 * agreements): no argument checks, the same selection and schedules as
 * the MPI calls.
 */
#include "coll/coll_int.h"

static int run(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    return xb_coll_run(kind, a, XB_COLL_BLOCKING, NULL, NULL);
}

int xb_coll_barrier(xb_comm_t *comm)
{
    xb_coll_args_t a = { .comm = comm };
    return run(XB_COLL_BARRIER, &a);
}

int xb_coll_bcast(void *buf, MPI_Count count, xb_datatype_t *dt, int root,
                  xb_comm_t *comm)
{
    xb_coll_args_t a = { .rbuf = buf, .rcount = count, .rdt = dt, .root = root,
                         .comm = comm };
    return run(XB_COLL_BCAST, &a);
}

int xb_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count,
                   xb_datatype_t *dt, xb_op_t *op, int root, xb_comm_t *comm)
{
    xb_coll_args_t a = { .sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rdt = dt,
                         .op = op, .root = root, .comm = comm };
    return run(XB_COLL_REDUCE, &a);
}

int xb_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                      xb_datatype_t *dt, xb_op_t *op, xb_comm_t *comm)
{
    xb_coll_args_t a = { .sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rdt = dt,
                         .op = op, .comm = comm };
    return run(XB_COLL_ALLREDUCE, &a);
}

static int blocks(xb_coll_kind_t kind, const void *sbuf, MPI_Count scount,
                  xb_datatype_t *sdt, void *rbuf, MPI_Count rcount,
                  xb_datatype_t *rdt, int root, xb_comm_t *comm)
{
    xb_coll_args_t a = { .sbuf = sbuf, .scount = scount, .sdt = sdt,
                         .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                         .root = root, .comm = comm };
    return run(kind, &a);
}

int xb_coll_gather(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                   void *rbuf, MPI_Count rcount, xb_datatype_t *rdt, int root,
                   xb_comm_t *comm)
{
    return blocks(XB_COLL_GATHER, sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
}

int xb_coll_scatter(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                    void *rbuf, MPI_Count rcount, xb_datatype_t *rdt, int root,
                    xb_comm_t *comm)
{
    return blocks(XB_COLL_SCATTER, sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
}

int xb_coll_allgather(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                      void *rbuf, MPI_Count rcount, xb_datatype_t *rdt,
                      xb_comm_t *comm)
{
    return blocks(XB_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, rdt, 0, comm);
}

int xb_coll_alltoall(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                     void *rbuf, MPI_Count rcount, xb_datatype_t *rdt,
                     xb_comm_t *comm)
{
    return blocks(XB_COLL_ALLTOALL, sbuf, scount, sdt, rbuf, rcount, rdt, 0, comm);
}
