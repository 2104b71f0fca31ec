/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_args.h - argument checks and argument blocks shared by the three
 * forms (blocking, I-, _init) of each collective (coll_args.c). Each
 * function fills *a (also on failure: then it must not be run) and returns
 * XB_OK or the first error, with detail recorded. xb_coll_args_alltoallw
 * allocates the resolved type arrays: release them with xb_coll_args_free
 * once the schedule is built.
 */
#ifndef XB_COLL_ARGS_H
#define XB_COLL_ARGS_H

#include "coll/coll_int.h"

int  xb_coll_check_op(const xb_op_t *op, xb_datatype_t *dt);
void xb_coll_args_barrier(xb_coll_args_t *a, xb_comm_t *comm);
int  xb_coll_args_bcast(xb_coll_args_t *a, void *buf, MPI_Count count,
                        xb_datatype_t *dt, int root, xb_comm_t *comm);
int  xb_coll_args_reduce(xb_coll_args_t *a, const void *sbuf, void *rbuf,
                         MPI_Count count, xb_datatype_t *dt, xb_op_t *op,
                         int root, xb_comm_t *comm);
int  xb_coll_args_allred(xb_coll_args_t *a, const void *sbuf, void *rbuf,
                         MPI_Count count, xb_datatype_t *dt, xb_op_t *op,
                         xb_comm_t *comm);
int  xb_coll_args_reduce_scatter(xb_coll_args_t *a, const void *sbuf,
                                 void *rbuf, const MPI_Count *rcounts,
                                 xb_datatype_t *dt, xb_op_t *op,
                                 xb_comm_t *comm);
int  xb_coll_args_blocks(xb_coll_args_t *a, const void *sbuf, MPI_Count scount,
                         xb_datatype_t *sdt, void *rbuf, MPI_Count rcount,
                         xb_datatype_t *rdt, int root, xb_comm_t *comm,
                         bool rooted, bool in_recv);
int  xb_coll_args_rootv(xb_coll_args_t *a, const void *sbuf, MPI_Count scount,
                        const MPI_Count *scounts, const MPI_Count *sdispls,
                        xb_datatype_t *sdt, void *rbuf, MPI_Count rcount,
                        const MPI_Count *rcounts, const MPI_Count *rdispls,
                        xb_datatype_t *rdt, int root, xb_comm_t *comm,
                        bool scatter);
int  xb_coll_args_allgatherv(xb_coll_args_t *a, const void *sbuf,
                             MPI_Count scount, xb_datatype_t *sdt, void *rbuf,
                             const MPI_Count *rcounts, const MPI_Count *rdispls,
                             xb_datatype_t *rdt, xb_comm_t *comm);
int  xb_coll_args_alltoallv(xb_coll_args_t *a, const void *sbuf,
                            const MPI_Count *scounts, const MPI_Count *sdispls,
                            xb_datatype_t *sdt, void *rbuf,
                            const MPI_Count *rcounts, const MPI_Count *rdispls,
                            xb_datatype_t *rdt, xb_comm_t *comm);
int  xb_coll_args_alltoallw(xb_coll_args_t *a, const void *sbuf,
                            const MPI_Count *scounts, const MPI_Count *sdispls,
                            const MPI_Datatype *stypes, void *rbuf,
                            const MPI_Count *rcounts, const MPI_Count *rdispls,
                            const MPI_Datatype *rtypes, xb_comm_t *comm);
void xb_coll_args_free(xb_coll_args_t *a);

#endif
