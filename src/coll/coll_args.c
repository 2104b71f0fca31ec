/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_args.c - the checks the generated binding cannot make (root range,
 * MPI_IN_PLACE rules, op against datatype, per-rank arrays and types),
 * shared by the blocking, nonblocking and persistent form of each
 * collective: each xb_coll_args_<coll>() checks and fills an argument
 * block, then the xb_impl_ function of the form runs it (coll_api*.c).
 * Every rank of a correct program passes the same root, op and type, so a
 * check that fails, fails on every rank before any message is sent.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "coll/coll_args.h"

/* Ranks data comes from or goes to: the remote group of an
 * intercommunicator, else the communicator's group. */
static int peers(const xb_comm_t *comm)
{
    return comm->remote != NULL ? comm->remote->size : comm->size;
}

/* Rooted collectives: this process is the root (MPI_ROOT on an
 * intercommunicator). */
static bool at_root(const xb_comm_t *comm, int root)
{
    return comm->remote != NULL ? root == MPI_ROOT : comm->rank == root;
}

static int check_root(int root, const xb_comm_t *comm)
{
    if (comm->remote != NULL) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL ||
            (root >= 0 && root < comm->remote->size))
            return XB_OK;
        return xb_err_set(XB_ERR_ROOT, "invalid root %d (the remote group "
                          "has %d ranks; MPI_ROOT and MPI_PROC_NULL are also "
                          "allowed on an intercommunicator)", root,
                          comm->remote->size);
    }
    if (root < 0 || root >= comm->size)
        return xb_err_set(XB_ERR_ROOT, "invalid root %d (the communicator has "
                          "%d ranks)", root, comm->size);
    return XB_OK;
}

int xb_coll_check_op(const xb_op_t *op, xb_datatype_t *dt)
{
    if (__atomic_load_n(&op->checked_dt, __ATOMIC_RELAXED) == dt)
        return XB_OK;     /* the same pair as the last call (about 90 instructions) */
    if (op->predefined && (op->kind == XB_OPK_REPLACE || op->kind == XB_OPK_NO_OP))
        return xb_err_set(XB_ERR_OP, "%s is valid only in one-sided accumulate "
                          "operations, not in reductions", op->name);
    xb_coll_red_t r;
    int rc = xb_coll_red_init(&r, 1, dt, (xb_op_t *)op);
    if (rc == XB_OK && op->predefined && xb_dt_is_predefined(dt))
        __atomic_store_n(&((xb_op_t *)op)->checked_dt, dt, __ATOMIC_RELAXED);
    return rc;
}

/* The standard defines no MPI_IN_PLACE on intercommunicators. */
static int check_inter(const xb_comm_t *comm, const void *sbuf, const void *rbuf)
{
    if (comm->remote != NULL && (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE))
        return xb_err_set(XB_ERR_BUFFER, "MPI_IN_PLACE is not allowed on an "
                          "intercommunicator (communicator %s)", comm->name);
    return XB_OK;
}

static int not_root_inplace(const char *arg, const xb_comm_t *comm, int root)
{
    return xb_err_set(XB_ERR_BUFFER, "%s is MPI_IN_PLACE on rank %d, which is "
                      "not the root (%d)", arg, comm->rank, root);
}

/* counts[i] >= 0 for the p ranks; the array itself must be there. */
static int check_counts(const char *arg, const MPI_Count *c, int p)
{
    if (c == NULL)
        return xb_err_set(XB_ERR_ARG, "%s is NULL", arg);
    for (int i = 0; i < p; i++)
        if (c[i] < 0)
            return xb_err_set(XB_ERR_COUNT, "%s[%d] is %lld, a negative count",
                              arg, i, (long long)c[i]);
    return XB_OK;
}

static int check_displs(const char *arg, const MPI_Count *d)
{
    return d != NULL ? XB_OK : xb_err_set(XB_ERR_ARG, "%s is NULL", arg);
}

static int check_type(const char *arg, const xb_datatype_t *dt)
{
    if (dt == NULL)
        return xb_err_set(XB_ERR_TYPE, "invalid %s: MPI_DATATYPE_NULL", arg);
    return XB_OK;
}

void xb_coll_args_barrier(xb_coll_args_t *a, xb_comm_t *comm)
{
    *a = (xb_coll_args_t){ .comm = comm };
}

int xb_coll_args_bcast(xb_coll_args_t *a, void *buf, MPI_Count count,
                       xb_datatype_t *dt, int root, xb_comm_t *comm)
{
    *a = (xb_coll_args_t){ .rbuf = buf, .rcount = count, .rdt = dt,
                           .root = root, .comm = comm };
    int rc = check_inter(comm, NULL, NULL);
    return rc != XB_OK ? rc : check_root(root, comm);
}

int xb_coll_args_reduce(xb_coll_args_t *a, const void *sbuf, void *rbuf,
                        MPI_Count count, xb_datatype_t *dt, xb_op_t *op,
                        int root, xb_comm_t *comm)
{
    *a = (xb_coll_args_t){ .sbuf = sbuf, .rbuf = rbuf, .rcount = count,
                           .rdt = dt, .op = op, .root = root, .comm = comm };
    int rc = check_inter(comm, sbuf, rbuf);
    if (rc == XB_OK)
        rc = check_root(root, comm);
    if (rc != XB_OK || (comm->remote != NULL && root == MPI_PROC_NULL))
        return rc;           /* nothing but root is significant there */
    rc = xb_coll_check_op(op, dt);
    if (rc == XB_OK && sbuf == MPI_IN_PLACE && comm->rank != root)
        rc = not_root_inplace("sendbuf", comm, root);
    return rc;
}

/* allreduce, scan, exscan, reduce_scatter_block */
int xb_coll_args_allred(xb_coll_args_t *a, const void *sbuf, void *rbuf,
                        MPI_Count count, xb_datatype_t *dt, xb_op_t *op,
                        xb_comm_t *comm)
{
    *a = (xb_coll_args_t){ .sbuf = sbuf, .rbuf = rbuf, .rcount = count,
                           .rdt = dt, .op = op, .comm = comm };
    int rc = check_inter(comm, sbuf, rbuf);
    return rc != XB_OK ? rc : xb_coll_check_op(op, dt);
}

int xb_coll_args_reduce_scatter(xb_coll_args_t *a, const void *sbuf,
                                void *rbuf, const MPI_Count *rcounts,
                                xb_datatype_t *dt, xb_op_t *op, xb_comm_t *comm)
{
    int rc = xb_coll_args_allred(a, sbuf, rbuf, 0, dt, op, comm);
    if (rc == XB_OK)
        rc = check_counts("recvcounts", rcounts, comm->size);
    a->rcounts = rcounts;
    return rc;
}

/* gather, scatter, allgather, alltoall: `rooted` for gather/scatter;
 * `in_recv`: MPI_IN_PLACE goes in recvbuf (scatter). */
int xb_coll_args_blocks(xb_coll_args_t *a, const void *sbuf, MPI_Count scount,
                        xb_datatype_t *sdt, void *rbuf, MPI_Count rcount,
                        xb_datatype_t *rdt, int root, xb_comm_t *comm,
                        bool rooted, bool in_recv)
{
    *a = (xb_coll_args_t){ sbuf, scount, sdt, rbuf, rcount, rdt, NULL, root,
                           comm, .form = 0 };
    int rc = check_inter(comm, sbuf, rbuf);
    if (rc == XB_OK && rooted)
        rc = check_root(root, comm);
    if (rc != XB_OK)
        return rc;
    bool inter = comm->remote != NULL;
    bool root_side = !rooted || at_root(comm, root);
    /* the side that gives the sent (scatter: received) block */
    bool leaf_side = !rooted || (inter ? root >= 0 : true);
    if (in_recv) {           /* scatter: sendbuf significant at the root only */
        if (rbuf == MPI_IN_PLACE && !root_side)
            return not_root_inplace("recvbuf", comm, root);
        if (root_side && (rc = check_type("sendtype at the root", sdt)) != XB_OK)
            return rc;
        return rbuf == MPI_IN_PLACE || !leaf_side ? XB_OK
             : check_type("recvtype", rdt);
    }
    if (sbuf == MPI_IN_PLACE && !root_side)
        return not_root_inplace("sendbuf", comm, root);
    if (root_side && (rc = check_type(rooted ? "recvtype at the root"
                                      : "recvtype", rdt)) != XB_OK)
        return rc;
    return sbuf == MPI_IN_PLACE || !leaf_side ? XB_OK
         : check_type("sendtype", sdt);
}

/* gatherv, scatterv: the arrays count at the root only. */
int xb_coll_args_rootv(xb_coll_args_t *a, const void *sbuf, MPI_Count scount,
                       const MPI_Count *scounts, const MPI_Count *sdispls,
                       xb_datatype_t *sdt, void *rbuf, MPI_Count rcount,
                       const MPI_Count *rcounts, const MPI_Count *rdispls,
                       xb_datatype_t *rdt, int root, xb_comm_t *comm,
                       bool scatter)
{
    int rc = xb_coll_args_blocks(a, sbuf, scount, sdt, rbuf, rcount, rdt, root,
                                 comm, true, scatter);
    if (rc != XB_OK || !at_root(comm, root))
        return rc;
    a->scounts = scounts, a->sdispls = sdispls;
    a->rcounts = rcounts, a->rdispls = rdispls;
    if (scatter) {
        rc = check_counts("sendcounts", scounts, peers(comm));
        return rc != XB_OK ? rc : check_displs("displs", sdispls);
    }
    rc = check_counts("recvcounts", rcounts, peers(comm));
    return rc != XB_OK ? rc : check_displs("displs", rdispls);
}

int xb_coll_args_allgatherv(xb_coll_args_t *a, const void *sbuf,
                            MPI_Count scount, xb_datatype_t *sdt, void *rbuf,
                            const MPI_Count *rcounts, const MPI_Count *rdispls,
                            xb_datatype_t *rdt, xb_comm_t *comm)
{
    int rc = xb_coll_args_blocks(a, sbuf, scount, sdt, rbuf, 0, rdt, 0, comm,
                                 false, false);
    a->rcounts = rcounts, a->rdispls = rdispls;
    if (rc == XB_OK)
        rc = check_counts("recvcounts", rcounts, peers(comm));
    return rc != XB_OK ? rc : check_displs("displs", rdispls);
}

int xb_coll_args_alltoallv(xb_coll_args_t *a, const void *sbuf,
                           const MPI_Count *scounts, const MPI_Count *sdispls,
                           xb_datatype_t *sdt, void *rbuf,
                           const MPI_Count *rcounts, const MPI_Count *rdispls,
                           xb_datatype_t *rdt, xb_comm_t *comm)
{
    int rc = xb_coll_args_blocks(a, sbuf, 0, sdt, rbuf, 0, rdt, 0, comm,
                                 false, false);
    a->scounts = scounts, a->sdispls = sdispls;
    a->rcounts = rcounts, a->rdispls = rdispls;
    if (rc == XB_OK && sbuf != MPI_IN_PLACE) {
        rc = check_counts("sendcounts", scounts, peers(comm));
        if (rc == XB_OK)
            rc = check_displs("sdispls", sdispls);
    }
    if (rc == XB_OK)
        rc = check_counts("recvcounts", rcounts, peers(comm));
    return rc != XB_OK ? rc : check_displs("rdispls", rdispls);
}

/* Resolve an array of p datatype handles into *out (malloc'ed; free it). */
static int resolve_types(const char *arg, const MPI_Datatype *h, int p,
                         xb_datatype_t ***out)
{
    *out = NULL;
    if (h == NULL)
        return xb_err_set(XB_ERR_ARG, "%s is NULL", arg);
    xb_datatype_t **t = malloc((size_t)(p > 0 ? p : 1) * sizeof(*t));
    if (t == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for %d datatypes", p);
    for (int i = 0; i < p; i++) {
        t[i] = xb_dt_from_handle(h[i]);
        if (t[i] == NULL || !xb_dt_is_committed(t[i])) {
            const char *why = t[i] == NULL ? "not a valid datatype"
                                           : "not committed";
            free(t);
            return xb_err_set(XB_ERR_TYPE, "%s[%d] is %s", arg, i, why);
        }
    }
    *out = t;
    return XB_OK;
}

int xb_coll_args_alltoallw(xb_coll_args_t *a, const void *sbuf,
                           const MPI_Count *scounts, const MPI_Count *sdispls,
                           const MPI_Datatype *stypes, void *rbuf,
                           const MPI_Count *rcounts, const MPI_Count *rdispls,
                           const MPI_Datatype *rtypes, xb_comm_t *comm)
{
    xb_datatype_t **st = NULL, **rt = NULL;
    int p = peers(comm);
    *a = (xb_coll_args_t){ .sbuf = sbuf, .rbuf = rbuf, .comm = comm,
                           .scounts = scounts, .sdispls = sdispls,
                           .rcounts = rcounts, .rdispls = rdispls };
    int rc = check_inter(comm, sbuf, rbuf);
    if (rc == XB_OK && sbuf != MPI_IN_PLACE) {
        rc = check_counts("sendcounts", scounts, p);
        if (rc == XB_OK)
            rc = check_displs("sdispls", sdispls);
        if (rc == XB_OK)
            rc = resolve_types("sendtypes", stypes, p, &st);
    }
    if (rc == XB_OK)
        rc = check_counts("recvcounts", rcounts, p);
    if (rc == XB_OK)
        rc = check_displs("rdispls", rdispls);
    if (rc == XB_OK)
        rc = resolve_types("recvtypes", rtypes, p, &rt);
    if (rc != XB_OK) {
        free(st);
        return rc;
    }
    a->stypes = st;
    a->rtypes = rt;
    return XB_OK;
}

void xb_coll_args_free(xb_coll_args_t *a)
{
    free((void *)a->stypes);
    free((void *)a->rtypes);
    free(a->nbr_in);
    free(a->wdispls);
    a->stypes = a->rtypes = NULL;
    a->nbr_in = a->nbr_out = NULL;
    a->wdispls = NULL;
}
