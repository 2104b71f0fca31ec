/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */

/*
 * coll_neighbor.c - the neighbourhood collectives in their three forms
 * (MPI_Neighbor_allgather ... MPI_Neighbor_alltoallw_init) and their
 * argument checks. The neighbour lists come from the communicator's
 * topology (core/topo.c) in the standard's order; the per-neighbour arrays
 * have in-degree (receive side) and out-degree (send side) entries (the
 * binding widens the int forms to those lengths). Algorithm:
 * neighbor_linear.c. Binding convention: HACKING.md.
 */
#include <stdlib.h>
#include "coll/coll_args.h"
#include "core/topo.h"
#include "xb_impl.h"

static int check_array(const char *arg, const MPI_Count *c, int n, bool counts)
{
    if (c == NULL && n > 0)
        return xb_err_set(XB_ERR_ARG, "%s is NULL (the topology gives %d "
                          "neighbours)", arg, n);
    for (int i = 0; counts && i < n; i++)
        if (c[i] < 0)
            return xb_err_set(XB_ERR_COUNT, "%s[%d] is %lld, a negative count",
                              arg, i, (long long)c[i]);
    return XB_OK;
}

/* The topology and the neighbour lists into *a (owned by it). */
static int topo_args(xb_coll_args_t *a, xb_comm_t *comm, const void *sbuf)
{
    int rc = xb_topo_degrees(comm, &a->indeg, &a->outdeg);
    if (rc != XB_OK)
        return rc;
    if (sbuf == MPI_IN_PLACE)
        return xb_err_set(XB_ERR_BUFFER, "sendbuf is MPI_IN_PLACE, which the "
                          "neighbourhood collectives do not allow");
    a->nbr_in = malloc((size_t)(a->indeg + a->outdeg + 1) * sizeof(int));
    if (a->nbr_in == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for %d neighbours",
                          a->indeg + a->outdeg);
    a->nbr_out = a->nbr_in + a->indeg;
    a->cart = comm->topo->kind == MPI_CART;
    xb_topo_neighbors(comm, a->nbr_in, a->nbr_out);
    return XB_OK;
}

/* allgather(v), alltoall(v): arrays NULL where the form has none. */
static int nbr_args(xb_coll_args_t *a, xb_coll_kind_t kind, const void *sbuf,
                    MPI_Count scount, const MPI_Count *scounts,
                    const MPI_Count *sdispls, xb_datatype_t *sdt, void *rbuf,
                    MPI_Count rcount, const MPI_Count *rcounts,
                    const MPI_Count *rdispls, xb_datatype_t *rdt,
                    xb_comm_t *comm)
{
    *a = (xb_coll_args_t){ .sbuf = sbuf, .scount = scount, .sdt = sdt,
                           .rbuf = rbuf, .rcount = rcount, .rdt = rdt,
                           .comm = comm, .scounts = scounts,
                           .sdispls = sdispls, .rcounts = rcounts,
                           .rdispls = rdispls };
    int rc = topo_args(a, comm, sbuf);
    bool v = kind == XB_COLL_NEIGHBOR_ALLGATHERV || kind == XB_COLL_NEIGHBOR_ALLTOALLV;
    if (rc == XB_OK && kind == XB_COLL_NEIGHBOR_ALLTOALLV) {
        rc = check_array("sendcounts", scounts, a->outdeg, true);
        if (rc == XB_OK)
            rc = check_array("sdispls", sdispls, a->outdeg, false);
    }
    if (rc == XB_OK && v) {
        rc = check_array("recvcounts", rcounts, a->indeg, true);
        if (rc == XB_OK)
            rc = check_array(kind == XB_COLL_NEIGHBOR_ALLGATHERV ? "displs"
                             : "rdispls", rdispls, a->indeg, false);
    }
    return rc;
}

/* Resolve n datatype handles (valid, committed) into a new array. */
static int nbr_types(const char *arg, const MPI_Datatype *h, int n,
                     xb_datatype_t ***out)
{
    if (h == NULL && n > 0)
        return xb_err_set(XB_ERR_ARG, "%s is NULL (the topology gives %d "
                          "neighbours)", arg, n);
    xb_datatype_t **t = malloc((size_t)(n > 0 ? n : 1) * sizeof(*t));
    if (t == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for %d datatypes", n);
    *out = t;
    for (int i = 0; i < n; i++) {
        t[i] = xb_dt_from_handle(h[i]);
        if (t[i] == NULL || !xb_dt_is_committed(t[i]))
            return xb_err_set(XB_ERR_TYPE, "%s[%d] is %s", arg, i, t[i] == NULL
                              ? "not a valid datatype" : "not committed");
    }
    return XB_OK;
}

static int nbr_args_w(xb_coll_args_t *a, const void *sbuf,
                      const MPI_Count *scounts, const MPI_Aint *sdispls,
                      const MPI_Datatype *stypes, void *rbuf,
                      const MPI_Count *rcounts, const MPI_Aint *rdispls,
                      const MPI_Datatype *rtypes, xb_comm_t *comm)
{
    *a = (xb_coll_args_t){ .sbuf = sbuf, .rbuf = rbuf, .comm = comm,
                           .scounts = scounts, .rcounts = rcounts };
    int rc = topo_args(a, comm, sbuf);
    if (rc == XB_OK)
        rc = check_array("sendcounts", scounts, a->outdeg, true);
    if (rc == XB_OK)
        rc = check_array("recvcounts", rcounts, a->indeg, true);
    if (rc == XB_OK && ((sdispls == NULL && a->outdeg > 0) ||
                        (rdispls == NULL && a->indeg > 0)))
        rc = xb_err_set(XB_ERR_ARG, "%s is NULL", sdispls == NULL ? "sdispls"
                        : "rdispls");
    if (rc == XB_OK)
        rc = nbr_types("sendtypes", stypes, a->outdeg, (xb_datatype_t ***)&a->stypes);
    if (rc == XB_OK)
        rc = nbr_types("recvtypes", rtypes, a->indeg, (xb_datatype_t ***)&a->rtypes);
    if (rc != XB_OK)
        return rc;
    int n = a->outdeg + a->indeg;
    a->wdispls = malloc((size_t)(n > 0 ? n : 1) * sizeof(MPI_Count));
    if (a->wdispls == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for %d displacements", n);
    for (int j = 0; j < a->outdeg; j++)
        a->wdispls[j] = sdispls[j];
    for (int i = 0; i < a->indeg; i++)
        a->wdispls[a->outdeg + i] = rdispls[i];
    return XB_OK;
}

static int run(xb_coll_args_t *a, int rc, xb_coll_kind_t kind, int form,
               const char *fn, MPI_Request *req)
{
    if (rc == XB_OK)
        rc = xb_coll_run(kind, a, form, fn, req);
    xb_coll_args_free(a);
    return rc;
}

/* ---- Neighbor_allgather ---------------------------------------------------- */
#define ALLGATHER_ARGS(a)                                                     \
    nbr_args(a, XB_COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, NULL, NULL,  \
             sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm)

int xb_impl_neighbor_allgather(const void *sendbuf, MPI_Count sendcount,
                               xb_datatype_t *sendtype, void *recvbuf,
                               MPI_Count recvcount, xb_datatype_t *recvtype,
                               xb_comm_t *comm)
{
    xb_coll_args_t a;
    return run(&a, ALLGATHER_ARGS(&a), XB_COLL_NEIGHBOR_ALLGATHER,
               XB_COLL_BLOCKING, "MPI_Neighbor_allgather", NULL);
}

int xb_impl_ineighbor_allgather(const void *sendbuf, MPI_Count sendcount,
                                xb_datatype_t *sendtype, void *recvbuf,
                                MPI_Count recvcount, xb_datatype_t *recvtype,
                                xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    return run(&a, ALLGATHER_ARGS(&a), XB_COLL_NEIGHBOR_ALLGATHER,
               XB_COLL_NONBLOCKING, "MPI_Ineighbor_allgather", request);
}

int xb_impl_neighbor_allgather_init(const void *sendbuf, MPI_Count sendcount,
                                    xb_datatype_t *sendtype, void *recvbuf,
                                    MPI_Count recvcount, xb_datatype_t *recvtype,
                                    xb_comm_t *comm, xb_info_t *info,
                                    MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    return run(&a, ALLGATHER_ARGS(&a), XB_COLL_NEIGHBOR_ALLGATHER,
               XB_COLL_PERSISTENT, "MPI_Neighbor_allgather_init", request);
}

/* ---- Neighbor_allgatherv --------------------------------------------------- */
#define ALLGATHERV_ARGS(a)                                                    \
    nbr_args(a, XB_COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, NULL, NULL, \
             sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm)

int xb_impl_neighbor_allgatherv(const void *sendbuf, MPI_Count sendcount,
                                xb_datatype_t *sendtype, void *recvbuf,
                                const MPI_Count *recvcounts,
                                const MPI_Count *displs,
                                xb_datatype_t *recvtype, xb_comm_t *comm)
{
    xb_coll_args_t a;
    return run(&a, ALLGATHERV_ARGS(&a), XB_COLL_NEIGHBOR_ALLGATHERV,
               XB_COLL_BLOCKING, "MPI_Neighbor_allgatherv", NULL);
}

int xb_impl_ineighbor_allgatherv(const void *sendbuf, MPI_Count sendcount,
                                 xb_datatype_t *sendtype, void *recvbuf,
                                 const MPI_Count *recvcounts,
                                 const MPI_Count *displs,
                                 xb_datatype_t *recvtype, xb_comm_t *comm,
                                 MPI_Request *request)
{
    xb_coll_args_t a;
    return run(&a, ALLGATHERV_ARGS(&a), XB_COLL_NEIGHBOR_ALLGATHERV,
               XB_COLL_NONBLOCKING, "MPI_Ineighbor_allgatherv", request);
}

int xb_impl_neighbor_allgatherv_init(const void *sendbuf, MPI_Count sendcount,
                                     xb_datatype_t *sendtype, void *recvbuf,
                                     const MPI_Count *recvcounts,
                                     const MPI_Count *displs,
                                     xb_datatype_t *recvtype, xb_comm_t *comm,
                                     xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    return run(&a, ALLGATHERV_ARGS(&a), XB_COLL_NEIGHBOR_ALLGATHERV,
               XB_COLL_PERSISTENT, "MPI_Neighbor_allgatherv_init", request);
}

/* ---- Neighbor_alltoall ----------------------------------------------------- */
#define ALLTOALL_ARGS(a)                                                      \
    nbr_args(a, XB_COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, NULL, NULL,   \
             sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm)

int xb_impl_neighbor_alltoall(const void *sendbuf, MPI_Count sendcount,
                              xb_datatype_t *sendtype, void *recvbuf,
                              MPI_Count recvcount, xb_datatype_t *recvtype,
                              xb_comm_t *comm)
{
    xb_coll_args_t a;
    return run(&a, ALLTOALL_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALL,
               XB_COLL_BLOCKING, "MPI_Neighbor_alltoall", NULL);
}

int xb_impl_ineighbor_alltoall(const void *sendbuf, MPI_Count sendcount,
                               xb_datatype_t *sendtype, void *recvbuf,
                               MPI_Count recvcount, xb_datatype_t *recvtype,
                               xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    return run(&a, ALLTOALL_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALL,
               XB_COLL_NONBLOCKING, "MPI_Ineighbor_alltoall", request);
}

int xb_impl_neighbor_alltoall_init(const void *sendbuf, MPI_Count sendcount,
                                   xb_datatype_t *sendtype, void *recvbuf,
                                   MPI_Count recvcount, xb_datatype_t *recvtype,
                                   xb_comm_t *comm, xb_info_t *info,
                                   MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    return run(&a, ALLTOALL_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALL,
               XB_COLL_PERSISTENT, "MPI_Neighbor_alltoall_init", request);
}

/* ---- Neighbor_alltoallv ---------------------------------------------------- */
#define ALLTOALLV_ARGS(a)                                                     \
    nbr_args(a, XB_COLL_NEIGHBOR_ALLTOALLV, sendbuf, 0, sendcounts, sdispls, \
             sendtype, recvbuf, 0, recvcounts, rdispls, recvtype, comm)

int xb_impl_neighbor_alltoallv(const void *sendbuf, const MPI_Count *sendcounts,
                               const MPI_Count *sdispls, xb_datatype_t *sendtype,
                               void *recvbuf, const MPI_Count *recvcounts,
                               const MPI_Count *rdispls, xb_datatype_t *recvtype,
                               xb_comm_t *comm)
{
    xb_coll_args_t a;
    return run(&a, ALLTOALLV_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALLV,
               XB_COLL_BLOCKING, "MPI_Neighbor_alltoallv", NULL);
}

int xb_impl_ineighbor_alltoallv(const void *sendbuf, const MPI_Count *sendcounts,
                                const MPI_Count *sdispls, xb_datatype_t *sendtype,
                                void *recvbuf, const MPI_Count *recvcounts,
                                const MPI_Count *rdispls, xb_datatype_t *recvtype,
                                xb_comm_t *comm, MPI_Request *request)
{
    xb_coll_args_t a;
    return run(&a, ALLTOALLV_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALLV,
               XB_COLL_NONBLOCKING, "MPI_Ineighbor_alltoallv", request);
}

int xb_impl_neighbor_alltoallv_init(const void *sendbuf,
                                    const MPI_Count *sendcounts,
                                    const MPI_Count *sdispls,
                                    xb_datatype_t *sendtype, void *recvbuf,
                                    const MPI_Count *recvcounts,
                                    const MPI_Count *rdispls,
                                    xb_datatype_t *recvtype, xb_comm_t *comm,
                                    xb_info_t *info, MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    return run(&a, ALLTOALLV_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALLV,
               XB_COLL_PERSISTENT, "MPI_Neighbor_alltoallv_init", request);
}

/* ---- Neighbor_alltoallw ---------------------------------------------------- */
#define ALLTOALLW_ARGS(a)                                                     \
    nbr_args_w(a, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,          \
               recvcounts, rdispls, recvtypes, comm)

int xb_impl_neighbor_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                               const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf,
                               const MPI_Count *recvcounts,
                               const MPI_Aint rdispls[],
                               const MPI_Datatype recvtypes[], xb_comm_t *comm)
{
    xb_coll_args_t a;
    return run(&a, ALLTOALLW_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALLW,
               XB_COLL_BLOCKING, "MPI_Neighbor_alltoallw", NULL);
}

int xb_impl_ineighbor_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                                const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                const MPI_Count *recvcounts,
                                const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], xb_comm_t *comm,
                                MPI_Request *request)
{
    xb_coll_args_t a;
    return run(&a, ALLTOALLW_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALLW,
               XB_COLL_NONBLOCKING, "MPI_Ineighbor_alltoallw", request);
}

int xb_impl_neighbor_alltoallw_init(const void *sendbuf,
                                    const MPI_Count *sendcounts,
                                    const MPI_Aint sdispls[],
                                    const MPI_Datatype sendtypes[],
                                    void *recvbuf, const MPI_Count *recvcounts,
                                    const MPI_Aint rdispls[],
                                    const MPI_Datatype recvtypes[],
                                    xb_comm_t *comm, xb_info_t *info,
                                    MPI_Request *request)
{
    (void)info;
    xb_coll_args_t a;
    return run(&a, ALLTOALLW_ARGS(&a), XB_COLL_NEIGHBOR_ALLTOALLW,
               XB_COLL_PERSISTENT, "MPI_Neighbor_alltoallw_init", request);
}
